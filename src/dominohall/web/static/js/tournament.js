// A tournament's page (/tournaments/{id}, docs/protocol.md 14): standings, the games in progress
// (each watchable), the countdown; join and pause. It asks the hall again every 3 s; a player's
// next game opens by itself (the player's socket's invitation, js/playerchannel.js).
import { useEffect, useState } from "preact/hooks";
import { html } from "./ui.js";
import { get, post } from "./api.js";
import { Frame, Link, when } from "./pages.js";

const EVERY_MS = 3000;

function left(seconds) {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function Countdown({ t }) {
  const [now, setNow] = useState(Date.now() / 1000);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now() / 1000), 1000);
    return () => clearInterval(timer);
  }, []);
  if (t.status === "created") return html`<p class="note">Starts in <span class="clock">${left(t.starts_at - now)}</span> (${when(t.starts_at)}).</p>`;
  if (t.status === "running" && t.ends_at) return html`<p class="note">Ends in <span class="clock">${left(t.ends_at - now)}</span>.</p>`;
  if (t.status === "running") return html`<p class="note">Round ${t.round} of ${t.rounds}.</p>`;
  return html`<p class="note">${t.status === "cancelled" ? "Cancelled." : "Finished."}</p>`;
}

function Standings({ t }) {
  const arena = t.kind === "arena";
  return html`<table class="grid-table">
    <thead><tr><th class="num">#</th><th>Entrant</th><th class="num">Points</th>
      ${arena ? html`<th>Games</th>` : html`<th class="num">Difference</th><th class="num">SB</th>`}</tr></thead>
    <tbody>${t.standings.map((r, i) => html`<tr key=${r.entrant}>
      <td class="num">${i + 1}</td>
      <td>${r.name}${r.on_fire ? " 🔥" : ""}${r.paused || r.withdrawn ? " (out)" : ""}</td>
      <td class="num">${r.points}</td>
      ${arena ? html`<td>${(r.sheet || []).join(" ")}</td>` : html`<td class="num">${r.difference ?? ""}</td><td class="num">${r.sonneborn_berger ?? ""}</td>`}
    </tr>`)}</tbody>
  </table>`;
}

export function TournamentPage({ tournamentId, me, go }) {
  const [t, setT] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    let live = true;
    const load = () => get(`/api/tournaments/${tournamentId}`).then((a) => live && setT(a.tournament)).catch((e) => live && setError(e.message));
    load();
    const timer = setInterval(load, EVERY_MS);
    return () => { live = false; clearInterval(timer); };
  }, [tournamentId]);
  const act = (what) => post(`/api/tournaments/${tournamentId}/${what}`).then((a) => setT(a.tournament)).catch((e) => setError(e.message));
  const mine = t && me && t.standings.some((r) => r.entrant.split("+").includes(me.id) && !r.paused && !r.withdrawn);
  const open = t && (t.status === "created" || t.status === "running");
  return html`<${Frame} title=${t ? t.name : "Tournament"} go=${go} me=${me}>
    <h1>${t ? t.name : "Tournament"}</h1>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    ${!t && !error && html`<p role="status">Loading…</p>`}
    ${t && html`<section class="card" aria-labelledby="t-h">
      <h2 id="t-h">${t.kind === "arena" ? `Arena, ${t.minutes} minutes` : `Swiss, ${t.rounds} rounds`}: ${t.options.preset} to ${t.options.target}${t.options.cap ? ` or ${t.options.cap} min` : ""}</h2>
      <${Countdown} t=${t} />
      ${open && me && me.username && html`<p>${mine
        ? html`<button onClick=${() => act("pause")}>Pause</button>`
        : html`<button onClick=${() => act("join")}>Join</button>`}</p>`}
      <${Standings} t=${t} />
    </section>
    <section class="card" aria-labelledby="g-h">
      <h2 id="g-h">Games in progress</h2>
      ${t.games.length === 0 ? html`<p class="note">None now.</p>` : html`<ul>${t.games.map((g) => html`<li key=${g.table}>
        <${Link} href=${g.link} go=${go}>${g.entrants.join(" vs ")}</${Link}></li>`)}</ul>`}
    </section>`}
  </${Frame}>`;
}
