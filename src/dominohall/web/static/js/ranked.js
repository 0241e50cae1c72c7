// "Play ranked" and quick play on the home page: choose the pool and the number of players, wait
// in the queue (its size, the recent average wait, your own wait), cancel; in quick play, a
// computer opponent is offered after a wait shown on the screen. Paired: straight to the table.
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "./ui.js";
import { get, post } from "./api.js";
import { offered, timerOf } from "./choices.js";
import { _, ngettext, number } from "./i18n.js";
import { poolName } from "./names.js";
import { _html, strong } from "./markup.js";

const SPEED_WORDS = { "real-time": () => _("Real time"), "turn-based": () => _("Turn-based") };
const POLL_MS = 1000;

/** "Real time: Normal, 25 s a turn", "Turn-based: 1 move per day (+24 h a turn, ...)". */
function speedWords({ id, timer }) {
  const speed = SPEED_WORDS[id] ? SPEED_WORDS[id]() : id;
  if (!timer) return speed;
  const name = _(timer.name);
  return timer.speed === "real-time"
    ? _("{speed}: {timer}, {seconds} s a turn", { speed, timer: name, seconds: number(timer.turn_seconds) })
    : _("{speed}: {timer}", { speed, timer: name });
}

const seconds = (s) =>
  s < 60 ? _("{s} s", { s: number(Math.round(s)) }) : _("{min} min {s} s", { min: number(Math.floor(s / 60)), s: number(Math.round(s % 60)) });

/** The heading of a seek: "Ranked: Draw, 2 players". */
function seekWords(seeking) {
  const mode = seeking.arena ? _("Arena") : seeking.ranked ? _("Ranked") : _("Quick play");
  const values = { mode, pool: poolName(seeking.pool) };
  return seeking.speed === "turn-based"
    ? ngettext("{mode}: {pool}, {n} player, turn-based", "{mode}: {pool}, {n} players, turn-based", seeking.players, values)
    : ngettext("{mode}: {pool}, {n} player", "{mode}: {pool}, {n} players", seeking.players, values);
}

export function PlayRanked({ me, go }) {
  const [pool, setPool] = useState("draw");
  const [players, setPlayers] = useState(2);
  const [speed, setSpeed] = useState("real-time");
  const [arena, setArena] = useState(false); // the game also counts for the season (docs/arena.md)
  const [status, setStatus] = useState(null);
  const [error, setError] = useState(null);
  const since = useRef(0); // when the last status came, to count the wait on between polls
  const [, tick] = useState(0);
  const seeking = status && status.seeking;

  const take = (answer) => {
    since.current = performance.now();
    setStatus(answer);
    if (answer.table && !answer.seeking) go(`/t/${answer.table}`);
  };
  const run = async (fn) => {
    setError(null);
    try {
      take(await fn());
    } catch (e) {
      setError(e.message);
    }
  };

  useEffect(() => { // a seek made before this page was opened is shown again
    if (me) get("/api/ranked/queue").then((s) => s.seeking && take(s)).catch(() => {});
  }, [me && me.id]);
  useEffect(() => {
    if (!seeking) return undefined;
    const poll = setInterval(() => get("/api/ranked/queue").then(take).catch((e) => setError(e.message)), POLL_MS);
    const count = setInterval(() => tick((n) => n + 1), 250);
    return () => { clearInterval(poll); clearInterval(count); };
  }, [Boolean(seeking)]);

  // The pools and each one's timers are the hall's (GET /api/presets, docs/ratings.md).
  const pools = offered.pools;
  const choice = pools.find((p) => p.id === pool) || pools[0];
  const count = choice.players.includes(players) ? players : choice.players[0];
  const speeds = Object.entries(choice.timers).map(([id, timer]) => ({ id, timer: timerOf(timer) }));
  const pace = speeds.some((s) => s.id === speed) ? speed : speeds[0].id;
  const join = (ranked) =>
    run(() => post("/api/ranked/queue", { pool: choice.id, players: count, ranked, speed: pace, ...(ranked && arena ? { arena: true } : {}) }));
  const guest = !me || me.guest;

  if (seeking) {
    const waited = seeking.waited + (performance.now() - since.current) / 1000;
    const q = status.queue || {};
    const offer = status.computer_after;
    return html`<section class="card seeking" aria-labelledby="ranked-h">
      <h2 id="ranked-h">${seekWords(seeking)}</h2>
      <p role="status" class="queue-wait">${_html("Looking for players… you have waited {time}.", { time: strong(seconds(waited)) })}</p>
      <p class="note queue-size">${[
        ngettext("{n} waiting for this game", "{n} waiting for this game", q.waiting || 0),
        q.average_wait !== null && q.average_wait !== undefined && _("{time} average waiting time", { time: seconds(q.average_wait) }),
        seeking.rating && _("your rating {rating}", { rating: number(seeking.rating) }),
      ].filter(Boolean).join(" · ")}</p>
      ${offer !== undefined && (waited >= offer
        ? html`<p>${_("No one yet.")} <button class="primary play-computer" onClick=${() => run(() => post("/api/ranked/queue/computer"))}>${_("Play a computer instead")}</button></p>`
        : html`<p class="note">${_("A computer opponent is offered in {s} s.", { s: number(Math.ceil(offer - waited)) })}</p>`)}
      <button class="cancel-seek" onClick=${() => run(async () => { await post("/api/ranked/queue/cancel"); return { seeking: null, table: null }; })}>${_("Cancel")}</button>
      ${error && html`<p class="error" role="alert">${error}</p>`}
    </section>`;
  }
  return html`<section class="card" aria-labelledby="ranked-h">
    <h2 id="ranked-h">${_("Play ranked")}</h2>
    <p class="note">${_("Be paired with players of your level; your rating changes with each game.")}</p>
    <label for="rk-pool">${_("Game")}</label>
    <select id="rk-pool" value=${choice.id} onChange=${(e) => setPool(e.target.value)}>
      ${pools.map((p) => html`<option key=${p.id} value=${p.id}>${poolName(p.id)}</option>`)}
    </select>
    <label for="rk-players">${_("Players")}</label>
    <select id="rk-players" value=${count} disabled=${choice.players.length === 1} onChange=${(e) => setPlayers(Number(e.target.value))}>
      ${choice.players.map((n) => html`<option key=${n} value=${n}>${choice.teams ? _("{n} (two teams of two)", { n: number(n) }) : number(n)}</option>`)}
    </select>
    <label for="rk-speed">${_("Speed")}</label>
    <select id="rk-speed" value=${pace} onChange=${(e) => setSpeed(e.target.value)}>
      ${speeds.map((s) => html`<option key=${s.id} value=${s.id}>${speedWords(s)}</option>`)}
    </select>
    <label class="check"><input type="checkbox" id="rk-arena" checked=${arena} disabled=${guest} onChange=${(e) => setArena(e.target.checked)} />
      ${_("Arena: the game also counts for this season's leagues (once your rating is settled)")}</label>
    <div class="row spaced">
      <button class="primary play-ranked" disabled=${guest} onClick=${() => join(true)}>${_("Play ranked")}</button>
      <button class="quick-play" disabled=${!me} onClick=${() => join(false)}>${_("Quick play (casual)")}</button>
    </div>
    ${guest && html`<p class="note">${me ? _("Ranked play needs an account; quick play is open to guests.") : _("Choose a name first.")}</p>`}
    ${error && html`<p class="error" role="alert">${error}</p>`}
  </section>`;
}

/** Links to the pages about players and games. */
export function HallLinks({ me, go }) {
  const link = (href, words) => html`<a href=${href} onClick=${(e) => { e.preventDefault(); go(href); }}>${words}</a>`;
  return html`<p class="hall-links note">
    ${link("/leaderboard", _("Leaderboards"))}
    ${me && html` · ${link("/history", _("Game history"))}`}
    ${me && !me.guest && html` · ${link("/@/" + me.username, _("Your profile"))}`}
    ${me && html` · ${link("/settings", _("Settings"))}`}
  </p>`;
}
