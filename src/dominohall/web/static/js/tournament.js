// A tournament's page (/tournaments/{id}, docs/protocol.md 14 and 15): standings, the games in
// progress (each watchable), the countdown; join and pause; once over, the podium and every game
// played (each to its replay). The tournament's socket pushes it whole at each change; a player's
// next game opens by itself (the player's socket's invitation, js/playerchannel.js) and is
// linked here too ("your game").
import { useEffect, useState } from "preact/hooks";
import { html } from "./ui.js";
import { post } from "./api.js";
import { Frame, Link, when } from "./pages.js";

/** The tournament as its socket last pushed it (null until the first), and the socket's status. */
function useTournament(tournamentId) {
  const [state, setState] = useState({ t: null, status: "connecting", missing: false });
  useEffect(() => {
    let ws = null;
    let timer = null;
    let retries = 0;
    let alive = true;
    const connect = () => {
      ws = new WebSocket(`${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws/tournaments/${tournamentId}`);
      ws.onopen = () => (retries = 0);
      ws.onmessage = (e) => {
        const msg = JSON.parse(e.data);
        if (msg.type === "tournament") setState({ t: msg.tournament, status: "open", missing: false });
      };
      ws.onclose = (e) => {
        if (!alive) return;
        if (e.code === 4404) return setState((s) => ({ ...s, status: "closed", missing: true }));
        setState((s) => ({ ...s, status: "reconnecting" }));
        timer = setTimeout(connect, Math.min(10000, 500 * 2 ** retries++)); // the whole comes again
      };
    };
    connect();
    return () => {
      alive = false;
      clearTimeout(timer);
      if (ws) ws.close();
    };
  }, [tournamentId]);
  return [state, (t) => setState((s) => ({ ...s, t }))];
}

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
  if (t.status === "running" && t.round_deadline) return html`<p class="note">Round ${t.round} of ${t.rounds}, ends ${when(t.round_deadline)}: its games still running then count as lost by whoever used the most time.</p>`;
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

const MEDALS = ["1st", "2nd", "3rd"];

function Podium({ t }) {
  const top = t.standings.slice(0, 3);
  if (top.length === 0) return null;
  return html`<ol class="podium" aria-label="Podium">${top.map((r, i) => html`<li key=${r.entrant}>
    <strong>${MEDALS[i]}</strong> ${r.name} <span class="note">(${r.points} points)</span></li>`)}</ol>`;
}

/** A place at a table as the list of games says it: "won", "drew" (a shared first), "2nd"... */
function place(n, places) {
  if (n === 1) return places.filter((p) => p === 1).length > 1 ? "drew" : "won";
  return `${n}${n === 2 ? "nd" : n === 3 ? "rd" : "th"}`;
}

function Played({ t, go }) {
  return html`<section class="card" aria-labelledby="p-h">
    <h2 id="p-h">Games played (${t.played.length})</h2>
    ${t.played.length === 0 ? html`<p class="note">None.</p>` : html`<ol class="played">${t.played.map((g) => html`<li key=${g.game}>
      <${Link} href=${g.link} go=${go}>${g.entrants.map((name, i) => `${name} (${place(g.places[i], g.places)})`).join(" vs ")}</${Link}>${g.settled ? " (counted at the round's deadline)" : ""}</li>`)}</ol>`}
  </section>`;
}

export function TournamentPage({ tournamentId, me, go }) {
  const [{ t, status, missing }, setT] = useTournament(tournamentId);
  const [error, setError] = useState(null);
  const act = (what) => post(`/api/tournaments/${tournamentId}/${what}`).then((a) => setT(a.tournament)).catch((e) => setError(e.message));
  const mine = t && me && t.standings.some((r) => r.entrant.split("+").includes(me.id) && !r.paused && !r.withdrawn);
  const open = t && (t.status === "created" || t.status === "running");
  const over = t && (t.status === "finished" || t.status === "cancelled");
  const myGame = t && me && t.games.find((g) => (g.players || []).includes(me.id));
  return html`<${Frame} title=${t ? t.name : "Tournament"} go=${go} me=${me}>
    <h1>${t ? t.name : "Tournament"}</h1>
    ${(error || missing) && html`<p class="error" role="alert">${error || "There is no such tournament."}</p>`}
    ${!t && !error && !missing && html`<p role="status">Loading…</p>`}
    ${t && status === "reconnecting" && html`<p class="note" role="status">Reconnecting…</p>`}
    ${myGame && html`<p class="your-game" role="status">You are paired: <${Link} href=${myGame.link} go=${go}>go to your game</${Link}> (${myGame.entrants.join(" vs ")}).</p>`}
    ${t && html`<section class="card" aria-labelledby="t-h">
      <h2 id="t-h">${t.kind === "arena" ? `Arena, ${t.minutes} minutes` : `Swiss, ${t.rounds} rounds`}: ${t.options.preset} to ${t.options.target}${t.options.cap ? ` or ${t.options.cap} min` : ""}, ${t.rated ? "rated" : "casual"}</h2>
      <${Countdown} t=${t} />
      ${t.status === "finished" && html`<${Podium} t=${t} />`}
      ${open && me && me.username && html`<p>${mine
        ? html`<button onClick=${() => act("pause")}>Pause</button>`
        : html`<button onClick=${() => act("join")}>Join</button>`}</p>`}
      <${Standings} t=${t} />
    </section>
    ${(!over || t.games.length > 0) && html`<section class="card" aria-labelledby="g-h">
      <h2 id="g-h">Games in progress</h2>
      ${t.games.length === 0 ? html`<p class="note">None now.</p>` : html`<ul>${t.games.map((g) => html`<li key=${g.table}>
        <${Link} href=${g.link} go=${go}>${g.entrants.join(" vs ")}</${Link}></li>`)}</ul>`}
    </section>`}
    ${(over || t.played.length > 0) && html`<${Played} t=${t} go=${go} />`}`}
  </${Frame}>`;
}
