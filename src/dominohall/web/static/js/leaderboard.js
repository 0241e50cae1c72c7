// A pool's leaderboard (/leaderboard/{pool}): the best players with enough recent rated games.
import { useEffect, useState } from "preact/hooks";
import { html } from "./ui.js";
import { get } from "./api.js";
import { Frame, Link } from "./pages.js";
import { offered, poolName } from "./choices.js";

const SPEEDS = [["real-time", "Real time"], ["turn-based", "Turn-based"]];

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
  return html`<${Frame} title=${`Leaderboard: ${name}`} go=${go} me=${me}>
    <h1>Leaderboard: ${name}</h1>
    <nav class="tabs" aria-label="Pools">
      ${offered.pools.map(({ id, name: words }) => html`<${Link} key=${id} href=${"/leaderboard/" + id + query} go=${go}
        current=${id === shown}>${words}</${Link}>`)}
    </nav>
    <nav class="tabs speeds" aria-label="Speeds">
      ${SPEEDS.map(([id, words]) => html`<${Link} key=${id} href=${`/leaderboard/${shown}${id === "real-time" ? "" : "?speed=" + id}`} go=${go}
        current=${id === speed}>${words}</${Link}>`)}
    </nav>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    ${!error && !board && html`<p role="status">Loading…</p>`}
    ${board && html`<section class="card">
      <p class="note">${speed === "real-time" ? "Real-time" : "Turn-based"} ranked games. Players with ${board.min_games} or more rated games who played in the last ${board.days} days.</p>
      ${board.players.length === 0 ? html`<p class="note">No one qualifies yet.</p>` : html`<table class="grid-table leaderboard">
        <thead><tr><th class="num">#</th><th>Player</th><th class="num">Rating</th><th class="num">Games</th></tr></thead>
        <tbody>${board.players.map((p, i) => html`<tr key=${p.username}>
          <td class="num">${i + 1}</td>
          <td><${Link} href=${"/@/" + p.username} go=${go}>${p.name}</${Link}></td>
          <td class="num">${p.label}</td><td class="num">${p.games}</td></tr>`)}</tbody>
      </table>`}
    </section>`}
    ${season && html`<${ArenaSeason} season=${season} go=${go} />`}
  </${Frame}>`;
}

const day = (t) => new Date(t * 1000).toLocaleDateString();

/** The arena season's standings: league and points (Elite by its season rating). */
function ArenaSeason({ season, go }) {
  const s = season.season;
  return html`<section class="card arena-season" aria-labelledby="arena-h">
    <h2 id="arena-h">Arena: season ${s.number}</h2>
    <p class="note">${s.ended ? "Ended" : "Ends"} ${day(s.ends_at)} · leagues ${season.leagues.join(", ")}; ${season.climb} points climb a league.</p>
    ${season.players.length === 0 ? html`<p class="note">No arena games this season yet.</p>` : html`<table class="grid-table arena-standings">
      <thead><tr><th class="num">#</th><th>Player</th><th>League</th><th class="num">Season rating</th><th class="num">Won–lost</th></tr></thead>
      <tbody>${season.players.map((p) => html`<tr key=${p.username}>
        <td class="num">${p.rank}</td>
        <td><${Link} href=${"/@/" + p.username} go=${go}>${p.name}</${Link}></td>
        <td class="league">${p.label}${p.trophy ? " 🏆" : ""}</td><td class="num">${p.season_rating}</td><td class="num">${p.wins}–${p.losses}</td></tr>`)}</tbody>
    </table>`}
  </section>`;
}
