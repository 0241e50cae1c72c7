// A player's profile (/@/{username}): ratings per pool with a chart of their history, the
// statistics, the recent games. Also "Game history" (/history) for anyone signed in, guests too.
import { useEffect, useState } from "preact/hooks";
import { html } from "./ui.js";
import { api, get } from "./api.js";
import { Frame, GamesList } from "./pages.js";
import { offered } from "./choices.js";
import { _, ngettext, number } from "./i18n.js";
import { poolName, presetName, timerLabel } from "./names.js";
import { _html } from "./markup.js";
import { channel } from "./playerchannel.js";

const W = 320;
const H = 120;
const PAD = { l: 38, r: 8, t: 8, b: 18 };

/** The rating after each game as one line, hand-written SVG: 1500 before the first game. */
export function RatingChart({ history, label }) {
  const points = [1500, ...history.map((h) => h.rating)];
  const lo = Math.min(...points);
  const hi = Math.max(...points);
  const span = Math.max(hi - lo, 20);
  const mid = (hi + lo) / 2;
  const x = (i) => PAD.l + (i * (W - PAD.l - PAD.r)) / Math.max(points.length - 1, 1);
  const y = (r) => PAD.t + (H - PAD.t - PAD.b) * (1 - (r - (mid - span / 2)) / span);
  const path = points.map((r, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(r).toFixed(1)}`).join(" ");
  const top = Math.round(mid + span / 2);
  const bottom = Math.round(mid - span / 2);
  return html`<svg class="chart" viewBox=${`0 0 ${W} ${H}`} preserveAspectRatio="none" role="img" aria-label=${label}>
    <line class="axis" x1=${PAD.l} y1=${y(top)} x2=${W - PAD.r} y2=${y(top)} />
    <line class="axis" x1=${PAD.l} y1=${y(bottom)} x2=${W - PAD.r} y2=${y(bottom)} />
    <text x="2" y=${y(top) + 4}>${number(top)}</text>
    <text x="2" y=${y(bottom) + 4}>${number(bottom)}</text>
    <text x=${PAD.l} y=${H - 3}>${_("start")}</text>
    <text x=${W - PAD.r} y=${H - 3} text-anchor="end">${ngettext("{n} game", "{n} games", history.length)}</text>
    <path class="line" d=${path} />
    ${points.length <= 40 && points.map((r, i) => html`<circle class="dot" key=${i} cx=${x(i)} cy=${y(r)} r="2.5" />`)}
  </svg>`;
}

function Rating({ r, provisionalGames }) {
  const last = r.history.length ? r.history[r.history.length - 1].change : 0;
  const name = _("{pool}, {speed}", { pool: poolName(r.pool), speed: speedWord(r.speed) });
  return html`<div class="rating" data-pool=${r.pool}>
    <div class="rating-head">
      <h3>${name}</h3>
      <span class="rating-big" title=${r.provisional ? ngettext("Provisional: fewer than {n} rated game", "Provisional: fewer than {n} rated games", provisionalGames) : ""}>${r.label}</span>
    </div>
    <p class="note">${r.history.length
      ? ngettext("{n} rated game; last {change}", "{n} rated games; last {change}", r.games, { change: (last > 0 ? "+" : "") + number(last) })
      : ngettext("{n} rated game", "{n} rated games", r.games)}</p>
    <${RatingChart} history=${r.history} label=${ngettext("{name} rating over {n} game, now {rating}", "{name} rating over {n} games, now {rating}", r.history.length, { name, rating: r.label })} />
  </div>`;
}

const percent = (rate) => (rate === null ? "–" : number(rate, { style: "percent", maximumFractionDigits: 0 }));

function Stats({ stats }) {
  return html`<dl class="numbers">
      <div><dt>${_("Games")}</dt><dd>${number(stats.games)}</dd></div>
      <div><dt>${_("Won")}</dt><dd>${number(stats.won)}</dd></div>
      <div><dt>${_("Lost")}</dt><dd>${number(stats.lost)}</dd></div>
      <div><dt>${_("Win rate")}</dt><dd>${percent(stats.win_rate)}</dd></div>
      <div><dt>${_("Games finished")}</dt><dd>${percent(stats.finished_share)}</dd></div>
      <div><dt>${_("Hands won going out")}</dt><dd>${number(stats.hands_won_out)}</dd></div>
      <div><dt>${_("Hands won blocked")}</dt><dd>${number(stats.hands_won_block)}</dd></div>
      <div><dt>${_("Timeouts")}</dt><dd>${number(stats.timeouts)}</dd></div>
    </dl>
    ${stats.presets.length > 0 && html`<div class="scroll-x" tabindex="0" role="region" aria-label=${_("Per game")}><table class="grid-table">
      <caption class="sr-only">${_("Per game")}</caption>
      <thead><tr><th>${_("Game")}</th><th class="num">${_("Played")}</th><th class="num">${_("Win rate")}</th><th class="num">${_("Points per hand")}</th><th class="num">${_("Out / block")}</th></tr></thead>
      <tbody>${stats.presets.map((p) => html`<tr key=${p.preset}>
        <td>${presetName(p.preset, p.preset_name)}</td><td class="num">${number(p.games)}</td><td class="num">${percent(p.win_rate)}</td>
        <td class="num">${p.points_per_hand === null ? "–" : number(p.points_per_hand)}</td>
        <td class="num">${p.hands_won_out} / ${p.hands_won_block}</td></tr>`)}</tbody>
    </table></div>`}`;
}

/** Follow (or no longer) and challenge this player: for an account looking at another's profile. */
function PlayerActions({ username, name }) {
  const [following, setFollowing] = useState(null);
  const [asking, setAsking] = useState(false);
  const [note, setNote] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    get("/api/me/follows").then((mine) => setFollowing(mine.follows.some((f) => f.username === username))).catch(() => setFollowing(false));
  }, [username]);
  const follow = () =>
    api("POST", `/api/players/${encodeURIComponent(username)}/${following ? "unfollow" : "follow"}`)
      .then((answer) => { setFollowing(answer.following); setError(null); })
      .catch((e) => setError(e.message));
  return html`<div class="player-actions">
    ${following !== null && html`<button aria-pressed=${following} onClick=${follow}>${following ? _("Following ✓") : _("Follow")}</button>`}
    <button class="primary" aria-expanded=${asking} onClick=${() => setAsking(!asking)}>${_("Challenge")}</button>
    ${asking && html`<${ChallengeForm} username=${username} name=${name}
      onSent=${(c) => { channel.sent(c); setAsking(false); setNote(_("Challenge sent to {name}.", { name })); setError(null); }} onError=${setError} />`}
    ${note && html`<p role="status" class="note">${note}</p>`}
    ${error && html`<p class="error" role="alert">${error}</p>`}
  </div>`;
}

/** A challenge's choices: casual with a game, target and timer, or ranked in a pool of two. */
function ChallengeForm({ username, name, onSent, onError }) {
  const [ranked, setRanked] = useState(false);
  const [preset, setPreset] = useState(offered.presets[0] ? offered.presets[0].id : "draw");
  const [timer, setTimer] = useState("normal");
  const pools = offered.pools.filter((p) => !p.players || p.players.includes(2));
  const [pool, setPool] = useState(pools[0] ? pools[0].id : "draw");
  const [speed, setSpeed] = useState("real-time");
  const send = (e) => {
    e.preventDefault();
    const body = ranked ? { username, ranked: pool, speed } : { username, preset, timer, seats: 2 };
    api("POST", "/api/challenges", body).then((answer) => onSent(answer.challenge)).catch((err) => onError(err.message));
  };
  return html`<form class="challenge-form card" onSubmit=${send} aria-label=${_("Challenge {name}", { name })}>
    <fieldset><legend>${_("Game")}</legend>
      <label><input type="radio" name="kind" checked=${!ranked} onChange=${() => setRanked(false)} /> ${_("Casual")}</label>
      <label><input type="radio" name="kind" checked=${ranked} onChange=${() => setRanked(true)} /> ${_("Ranked")}</label>
    </fieldset>
    ${ranked
      ? html`<label>${_("Pool")} <select value=${pool} onChange=${(e) => setPool(e.currentTarget.value)}>
            ${pools.map((p) => html`<option key=${p.id} value=${p.id}>${poolName(p.id)}</option>`)}</select></label>
          <label>${_("Speed")} <select value=${speed} onChange=${(e) => setSpeed(e.currentTarget.value)}>
            <option value="real-time">${_("Real-time")}</option><option value="turn-based">${_("Turn-based")}</option></select></label>`
      : html`<label>${_("Game")} <select value=${preset} onChange=${(e) => setPreset(e.currentTarget.value)}>
            ${offered.presets.map((p) => html`<option key=${p.id} value=${p.id}>${presetName(p.id, p.name)}</option>`)}</select></label>
          <label>${_("Timer")} <select value=${timer} onChange=${(e) => setTimer(e.currentTarget.value)}>
            ${offered.timers.map((t) => html`<option key=${t.id} value=${t.id}>${timerLabel(t)}</option>`)}</select></label>`}
    <button type="submit" class="primary">${_("Send the challenge")}</button>
  </form>`;
}

/** On one's own profile: the players one follows, who is online, and their public tables. */
function FollowingCard({ go }) {
  const [follows, setFollows] = useState(null);
  useEffect(() => {
    get("/api/me/follows").then((mine) => setFollows(mine.follows)).catch(() => setFollows([]));
  }, []);
  return html`<section class="card" aria-labelledby="following-h">
    <h2 id="following-h">${_("Following")}</h2>
    ${follows === null ? html`<p role="status">${_("Loading…")}</p>`
      : follows.length === 0 ? html`<p class="note">${_("You follow nobody yet: follow players from their profiles.")}</p>`
      : html`<ul class="following">${follows.map((f) => html`<li key=${f.username} data-username=${f.username}>
          <a href=${"/@/" + encodeURIComponent(f.username)} onClick=${(e) => { e.preventDefault(); go("/@/" + f.username); }}>${f.name}</a>
          ${" "}<span class=${f.online ? "online" : "offline"}>${f.online ? _("online") : _("offline")}</span>
          ${f.playing.map((t) => html` · <a key=${t.id} href=${"/t/" + t.id} onClick=${(e) => { e.preventDefault(); go("/t/" + t.id); }}>${_("watch {game} to {target}", { game: presetName(t.preset, t.preset_name), target: number(t.target) })}</a>`)}
        </li>`)}</ul>`}
  </section>`;
}

export function ProfilePage({ username, me, go }) {
  const [profile, setProfile] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    setProfile(null);
    get(`/api/players/${encodeURIComponent(username)}`).then(setProfile).catch((e) => setError(e.message));
  }, [username]);
  const title = profile ? profile.player.name : username;
  return html`<${Frame} title=${title} go=${go} me=${me}>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    ${!error && !profile && html`<p role="status">${_("Loading…")}</p>`}
    ${profile && html`<header><h1>${profile.player.name}</h1><p class="note">@${profile.player.username}</p>
        ${me && !me.guest && me.username !== profile.player.username && html`<${PlayerActions} key=${username} username=${profile.player.username} name=${profile.player.name} />`}
      </header>
      <div class="cards">
        <section class="card" aria-labelledby="ratings-h">
          <h2 id="ratings-h">${_("Ratings")}</h2>
          ${profile.ratings.length ? profile.ratings.map((r) => html`<${Rating} key=${r.pool + r.speed} r=${r} provisionalGames=${profile.provisional_games} />`)
            : html`<p class="note">${_("No ranked games yet.")}</p>`}
        </section>
        ${profile.arena && (profile.arena.current.length > 0 || profile.arena.awards.length > 0) && html`<${ArenaCard} arena=${profile.arena} />`}
        <section class="card stats-card" aria-labelledby="stats-h">
          <h2 id="stats-h">${_("Statistics")}</h2>
          <${Stats} stats=${profile.stats} />
        </section>
        ${me && me.username === profile.player.username && html`<${FollowingCard} go=${go} />`}
        <section class="card" aria-labelledby="recent-h">
          <h2 id="recent-h">${_("Recent games")}</h2>
          <${GamesList} key=${username} source=${`/api/players/${encodeURIComponent(username)}/games?limit=10`} go=${go} />
        </section>
      </div>`}
  </${Frame}>`;
}

// TRANSLATORS: an arena trophy: the place in the season's Elite league
const TROPHIES = { 1: () => _("Trophy, 1st of Elite"), 2: () => _("Trophy, 2nd of Elite"), 3: () => _("Trophy, 3rd of Elite") };
const SPEED_WORD = { "real-time": () => _("real time"), "turn-based": () => _("turn-based") };
const speedWord = (speed) => (SPEED_WORD[speed] ? SPEED_WORD[speed]() : speed);

/** The arena: the league and points in each season going on, and the badges and trophies kept. */
function ArenaCard({ arena }) {
  return html`<section class="card arena-card" aria-labelledby="arena-h">
    <h2 id="arena-h">${_("Arena")}</h2>
    <ul class="plain arena-now">${arena.current.map((a) => html`<li key=${a.pool + a.speed}>
      ${_("{pool}, {speed}", { pool: poolName(a.pool), speed: speedWord(a.speed) })}: <strong class="league">${a.label}</strong> <span class="note">${ngettext("(season {season}, {n} game)", "(season {season}, {n} games)", a.games, { season: number(a.season) })}</span></li>`)}</ul>
    ${arena.awards.length > 0 && html`<h3>${_("Seasons ended")}</h3><ul class="plain arena-awards">${arena.awards.map((a) => html`<li key=${a.pool + a.speed + a.season}>
      ${a.trophy && TROPHIES[a.trophy] ? html`<strong class="trophy">${TROPHIES[a.trophy]()}</strong> · ` : ""}<span class="badge">${a.league}</span>
      <span class="note">${_("{pool}, {speed}, season {season}, #{rank}", { pool: poolName(a.pool), speed: speedWord(a.speed), season: number(a.season), rank: number(a.rank) })}</span></li>`)}</ul>`}
  </section>`;
}

export function HistoryPage({ me, go }) {
  return html`<${Frame} title=${_("Game history")} go=${go} me=${me}>
    <h1>${_("Game history")}</h1>
    ${me ? html`<section class="card">
        ${me.guest && html`<p class="note">${_("As a guest, your games are kept while this browser is signed in. Make an account to keep them for good.")}</p>`}
        <${GamesList} source="/api/me/games" go=${go} />
      </section>`
      : html`<p>${_html("Sign in on the {home} to see your games.", { home: homeLink() })}</p>`}
  </${Frame}>`;
}

// The link in "Sign in on the home page": made outside the call (markup.js says why).
const homeLink = () => html`<a href="/">${_("home page")}</a>`;
