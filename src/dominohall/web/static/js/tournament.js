// A tournament's page (/tournaments/{id}, docs/protocol.md 14): standings, the games in progress
// (each watchable), the countdown; join and pause. It asks the hall again every 3 s; a player's
// next game opens by itself (the player's socket's invitation, js/playerchannel.js).
import { useEffect, useState } from "preact/hooks";
import { html } from "./ui.js";
import { get, post } from "./api.js";
import { Frame, Link, when } from "./pages.js";
import { _, ngettext, number } from "./i18n.js";
import { playerName, presetName } from "./names.js";

import { _html } from "./markup.js";

const EVERY_MS = 3000;
// The clock in "Starts in 4:59": made outside the call (markup.js says why).
const clock = (text) => html`<span class="clock">${text}</span>`;

/** "Arena, 60 minutes: Draw to 100", "Swiss, 5 rounds: Draw to 100 or 20 min". */
function heading(t) {
  const values = { game: presetName(t.options.preset), target: number(t.options.target), cap: number(t.options.cap || 0) };
  const kind = t.kind === "arena"
    ? ngettext("Arena, {n} minute", "Arena, {n} minutes", t.minutes)
    : ngettext("Swiss, {n} round", "Swiss, {n} rounds", t.rounds);
  const game = t.options.cap ? _("{game} to {target} or {cap} min", values) : _("{game} to {target}", values);
  return _("{kind}: {game}", { kind, game });
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
  if (t.status === "created") return html`<p class="note">${_html("Starts in {clock} ({when}).", { clock: clock(left(t.starts_at - now)), when: when(t.starts_at) })}</p>`;
  if (t.status === "running" && t.ends_at) return html`<p class="note">${_html("Ends in {clock}.", { clock: clock(left(t.ends_at - now)) })}</p>`;
  if (t.status === "running") return html`<p class="note">${_("Round {round} of {rounds}.", { round: number(t.round), rounds: number(t.rounds) })}</p>`;
  return html`<p class="note">${t.status === "cancelled" ? _("Cancelled.") : _("Finished.")}</p>`;
}

function Standings({ t }) {
  const arena = t.kind === "arena";
  return html`<table class="grid-table">
    <thead><tr><th class="num">#</th><th>${_("Entrant")}</th><th class="num">${_("Points")}</th>
      ${arena ? html`<th>${_("Games")}</th>` : html`<th class="num">${_("Difference")}</th><th class="num" title=${_("Sonneborn–Berger score")}>${_("SB")}</th>`}</tr></thead>
    <tbody>${t.standings.map((r, i) => html`<tr key=${r.entrant}>
      <td class="num">${i + 1}</td>
      <td>${playerName(r.name)}${r.on_fire ? " 🔥" : ""}${r.paused || r.withdrawn ? " " + _("(out)") : ""}</td>
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
  return html`<${Frame} title=${t ? t.name : _("Tournament")} go=${go} me=${me}>
    <h1>${t ? t.name : _("Tournament")}</h1>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    ${!t && !error && html`<p role="status">${_("Loading…")}</p>`}
    ${t && html`<section class="card" aria-labelledby="t-h">
      <h2 id="t-h">${heading(t)}</h2>
      <${Countdown} t=${t} />
      ${open && me && me.username && html`<p>${mine
        ? html`<button onClick=${() => act("pause")}>${_("Pause")}</button>`
        : html`<button onClick=${() => act("join")}>${_("Join")}</button>`}</p>`}
      <${Standings} t=${t} />
    </section>
    <section class="card" aria-labelledby="g-h">
      <h2 id="g-h">${_("Games in progress")}</h2>
      ${t.games.length === 0 ? html`<p class="note">${_("None now.")}</p>` : html`<ul>${t.games.map((g) => html`<li key=${g.table}>
        <${Link} href=${g.link} go=${go}>${_("{first} vs {second}", { first: playerName(g.entrants[0]), second: g.entrants.slice(1).map(playerName).join(", ") })}</${Link}></li>`)}</ul>`}
    </section>`}
  </${Frame}>`;
}
