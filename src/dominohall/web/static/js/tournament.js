// A tournament's page (/tournaments/{id}, docs/protocol.md 14 and 15): standings, the games in
// progress (each watchable), the countdown; join and pause; once over, the podium and every game
// played (each to its replay). The tournament's socket pushes it whole at each change; a player's
// next game opens by itself (the player's socket's invitation, js/playerchannel.js) and is
// linked here too ("your game").
import { useEffect, useState } from "preact/hooks";
import { html } from "./ui.js";
import { post } from "./api.js";
import { Frame, Link, when } from "./pages.js";
import { _, ngettext, pgettext, number } from "./i18n.js";
import { playerName, presetName } from "./names.js";
import { _html } from "./markup.js";

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

// The clock in "Starts in 4:59": made outside the call (markup.js says why).
const clock = (text) => html`<span class="clock">${text}</span>`;

/** "Arena, 60 minutes: Draw to 100, rated", "Swiss, 5 rounds: Draw to 100 or 20 min, casual". */
function heading(t) {
  const values = { game: presetName(t.options.preset), target: number(t.options.target), cap: number(t.options.cap || 0) };
  const kind = t.kind === "arena"
    ? ngettext("Arena, {n} minute", "Arena, {n} minutes", t.minutes)
    : ngettext("Swiss, {n} round", "Swiss, {n} rounds", t.rounds);
  const game = t.options.cap ? _("{game} to {target} or {cap} min", values) : _("{game} to {target}", values);
  return t.rated ? _("{kind}: {game}, rated", { kind, game }) : _("{kind}: {game}, casual", { kind, game });
}

/** "vs" between a game's entrants. */
const versus = (names) => _("{first} vs {second}", { first: playerName(names[0]), second: names.slice(1).map(playerName).join(", ") });

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
  if (t.status === "running" && t.round_deadline) return html`<p class="note">${_("Round {round} of {rounds}, ends {when}: its games still running then count as lost by whoever used the most time.", { round: number(t.round), rounds: number(t.rounds), when: when(t.round_deadline) })}</p>`;
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

/** A place as the podium and the list of games say it (tables seat at most four). */
function ordinal(n) {
  return [pgettext("place", "1st"), pgettext("place", "2nd"), pgettext("place", "3rd"), pgettext("place", "4th")][n - 1] || number(n);
}

function Podium({ t }) {
  const top = t.standings.slice(0, 3);
  if (top.length === 0) return null;
  return html`<ol class="podium" aria-label=${_("Podium")}>${top.map((r, i) => html`<li key=${r.entrant}>
    <strong>${ordinal(i + 1)}</strong> ${playerName(r.name)} <span class="note">(${ngettext("{n} point", "{n} points", r.points)})</span></li>`)}</ol>`;
}

/** A place at a table as the list of games says it: "won", "drew" (a shared first), "2nd"... */
function place(n, places) {
  if (n === 1) return places.filter((p) => p === 1).length > 1 ? _("drew") : _("won");
  return ordinal(n);
}

function Played({ t, go }) {
  return html`<section class="card" aria-labelledby="p-h">
    <h2 id="p-h">${_("Games played ({count})", { count: number(t.played.length) })}</h2>
    ${t.played.length === 0 ? html`<p class="note">${_("None.")}</p>` : html`<ol class="played">${t.played.map((g) => html`<li key=${g.game}>
      <${Link} href=${g.link} go=${go}>${versus(g.entrants.map((name, i) => _("{name} ({place})", { name: playerName(name), place: place(g.places[i], g.places) })))}</${Link}>${g.settled ? " " + _("(counted at the round's deadline)") : ""}</li>`)}</ol>`}
  </section>`;
}

// The link in "You are paired: go to your game": made outside the call (markup.js says why).
const gameLink = (game, go) => html`<${Link} href=${game.link} go=${go}>${_("go to your game")}</${Link}>`;

export function TournamentPage({ tournamentId, me, go }) {
  const [{ t, status, missing }, setT] = useTournament(tournamentId);
  const [error, setError] = useState(null);
  const act = (what) => post(`/api/tournaments/${tournamentId}/${what}`).then((a) => setT(a.tournament)).catch((e) => setError(e.message));
  const mine = t && me && t.standings.some((r) => r.entrant.split("+").includes(me.id) && !r.paused && !r.withdrawn);
  const open = t && (t.status === "created" || t.status === "running");
  const over = t && (t.status === "finished" || t.status === "cancelled");
  const myGame = t && me && t.games.find((g) => (g.players || []).includes(me.id));
  return html`<${Frame} title=${t ? t.name : _("Tournament")} go=${go} me=${me}>
    <h1>${t ? t.name : _("Tournament")}</h1>
    ${(error || missing) && html`<p class="error" role="alert">${error || _("There is no such tournament.")}</p>`}
    ${!t && !error && !missing && html`<p role="status">${_("Loading…")}</p>`}
    ${t && status === "reconnecting" && html`<p class="note" role="status">${_("Reconnecting…")}</p>`}
    ${myGame && html`<p class="your-game" role="status">${_html("You are paired: {link} ({game}).", { link: gameLink(myGame, go), game: versus(myGame.entrants) })}</p>`}
    ${t && html`<section class="card" aria-labelledby="t-h">
      <h2 id="t-h">${heading(t)}</h2>
      <${Countdown} t=${t} />
      ${t.status === "finished" && html`<${Podium} t=${t} />`}
      ${open && me && me.username && html`<p>${mine
        ? html`<button onClick=${() => act("pause")}>${_("Pause")}</button>`
        : html`<button onClick=${() => act("join")}>${_("Join")}</button>`}</p>`}
      <${Standings} t=${t} />
    </section>
    ${(!over || t.games.length > 0) && html`<section class="card" aria-labelledby="g-h">
      <h2 id="g-h">${_("Games in progress")}</h2>
      ${t.games.length === 0 ? html`<p class="note">${_("None now.")}</p>` : html`<ul>${t.games.map((g) => html`<li key=${g.table}>
        <${Link} href=${g.link} go=${go}>${versus(g.entrants)}</${Link}></li>`)}</ul>`}
    </section>`}
    ${(over || t.played.length > 0) && html`<${Played} t=${t} go=${go} />`}`}
  </${Frame}>`;
}
