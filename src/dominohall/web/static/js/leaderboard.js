// A pool's leaderboard (/leaderboard/{pool}): the best players with enough recent rated games.
import { useEffect, useState } from "preact/hooks";
import { html } from "./ui.js";
import { get } from "./api.js";
import { Frame, Link } from "./pages.js";
import { offered } from "./choices.js";
import { _, date, number } from "./i18n.js";
import { playerName, poolName } from "./names.js";

const SPEEDS = [["real-time", () => _("Real time")], ["turn-based", () => _("Turn-based")]];

export function LeaderboardPage({ pool, me, go }) {
  const [board, setBoard] = useState(null);
  const [error, setError] = useState(null);
  const [season, setSeason] = useState(null); // the arena's season (docs/arena.md)
  const shown = pool || offered.pools[0].id; // the first pool the hall lists
  const speed = new URLSearchParams(location.search).get("speed") === "turn-based" ? "turn-based" : "real-time";
  const query = speed === "real-time" ? "" : "?speed=turn-based";
  useEffect(() => {
    setBoard(null);
    setError(null);
    get(`/api/leaderboard/${encodeURIComponent(shown)}?speed=${speed}`).then(setBoard).catch((e) => setError(e.message));
    setSeason(null);
    get(`/api/arena/${encodeURIComponent(shown)}?speed=${speed}`).then(setSeason).catch(() => {});
  }, [shown, speed]);
  const name = poolName(shown);
  return html`<${Frame} title=${_("Leaderboard: {pool}", { pool: name })} go=${go} me=${me}>
    <h1>${_("Leaderboard: {pool}", { pool: name })}</h1>
    <nav class="tabs" aria-label=${_("Pools")}>
      ${offered.pools.map(({ id }) => html`<${Link} key=${id} href=${"/leaderboard/" + id + query} go=${go}
        current=${id === shown}>${poolName(id)}</${Link}>`)}
    </nav>
    <nav class="tabs speeds" aria-label=${_("Speeds")}>
      ${SPEEDS.map(([id, words]) => html`<${Link} key=${id} href=${`/leaderboard/${shown}${id === "real-time" ? "" : "?speed=" + id}`} go=${go}
        current=${id === speed}>${words()}</${Link}>`)}
    </nav>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    ${!error && !board && html`<p role="status">${_("Loading…")}</p>`}
    ${board && html`<section class="card">
      <p class="note">${speed === "real-time" ? _("Real-time ranked games.") : _("Turn-based ranked games.")} ${_("Players with {games} or more rated games who played in the last {days} days.", { games: number(board.min_games), days: number(board.days) })}</p>
      ${board.players.length === 0 ? html`<p class="note">${_("No one qualifies yet.")}</p>` : html`<table class="grid-table leaderboard">
        <thead><tr><th class="num">#</th><th>${_("Player")}</th><th class="num">${_("Rating")}</th><th class="num">${_("Games")}</th></tr></thead>
        <tbody>${board.players.map((p, i) => html`<tr key=${p.username}>
          <td class="num">${i + 1}</td>
          <td><${Link} href=${"/@/" + p.username} go=${go}>${p.name}</${Link}></td>
          <td class="num">${p.label}</td><td class="num">${number(p.games)}</td></tr>`)}</tbody>
      </table>`}
    </section>`}
    ${season && html`<${ArenaSeason} season=${season} go=${go} />`}
  </${Frame}>`;
}

const day = (t) => date(new Date(t * 1000), { dateStyle: "medium" });

/** The arena season's standings: league and points (Elite by its season rating). */
function ArenaSeason({ season, go }) {
  const s = season.season;
  return html`<section class="card arena-season" aria-labelledby="arena-h">
    <h2 id="arena-h">${_("Arena: season {season}", { season: number(s.number) })}</h2>
    <p class="note">${s.ended ? _("Ended {day}", { day: day(s.ends_at) }) : _("Ends {day}", { day: day(s.ends_at) })} · ${_("leagues {leagues}; {points} points climb a league.", { leagues: season.leagues.join(", "), points: number(season.climb) })}</p>
    ${season.players.length === 0 ? html`<p class="note">${_("No arena games this season yet.")}</p>` : html`<table class="grid-table arena-standings">
      <thead><tr><th class="num">#</th><th>${_("Player")}</th><th>${_("League")}</th><th class="num">${_("Season rating")}</th><th class="num">${_("Won–lost")}</th></tr></thead>
      <tbody>${season.players.map((p) => html`<tr key=${p.username}>
        <td class="num">${p.rank}</td>
        <td><${Link} href=${"/@/" + p.username} go=${go}>${p.name}</${Link}></td>
        <td class="league">${p.label}${p.trophy ? " 🏆" : ""}</td><td class="num">${p.season_rating}</td><td class="num">${p.wins}–${p.losses}</td></tr>`)}</tbody>
    </table>`}
  </section>`;
}
