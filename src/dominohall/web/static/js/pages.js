// What the pages about players and games share (loaded with them only): words for a game's
// outcome, dates and durations, and the list of games with "More games". Their frame: frame.js.
import { useEffect, useState } from "preact/hooks";
import { html } from "./ui.js";
import { get } from "./api.js";
import { Link } from "./frame.js";

export { Frame, Link } from "./frame.js";

export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0";
}

export function Change({ n }) {
  return html`<span class=${n > 0 ? "up" : n < 0 ? "down" : ""}>${signed(n)}</span>`;
}

export function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

export function duration(seconds) {
  if (seconds === null || seconds === undefined) return "unknown";
  const s = Math.round(seconds);
  const m = Math.floor(s / 60);
  const h = Math.floor(m / 60);
  if (h >= 24) return `${(s / 86400).toFixed(1)} days`; // a turn-based game: "1.9 days"
  if (h) return `${h} h ${m % 60} min`;
  return m ? `${m} min ${s % 60} s` : `${s} s`;
}

/** "Won", "Lost", "Aborted", ... for the seat of a game's player (a game in a history). */
export function outcomeOf(game, seat) {
  if (game.reason === "aborted") return "Aborted";
  if (game.winner === null) return "No result";
  const me = game.players.find((p) => p.seat === seat);
  return me && me.won ? "Won" : "Lost";
}

/** Why a game ended, in words. */
export function reasonWords(game) {
  const winner = game.players.find((p) => p.won);
  if (game.reason === "aborted") return "Aborted: a first turn was missed, unrated.";
  if (game.reason === "abandoned") return "Abandoned: no one was left at the table.";
  if (!winner) return game.reason === "cap" ? "Time was up with equal scores: a draw." : "No one won.";
  const partners = game.players.filter((p) => p.won).map((p) => p.name);
  const who = partners.length > 1 ? partners.join(" and ") : winner.name;
  if (game.reason === "forfeit") return `${who} won: the other player forfeited.`;
  if (game.reason === "cap") return `${who} won: time was up, highest score.`;
  return `${who} won.`;
}

/** A page of games with "More games" (source: /api/players/u/games or /api/me/games). */
export function GamesList({ source, first, go, empty = "No games yet." }) {
  const [games, setGames] = useState(first ? first.games : null);
  const [next, setNext] = useState(first ? first.next : null);
  const [error, setError] = useState(null);
  useEffect(() => {
    if (first) return;
    get(source).then((page) => { setGames(page.games); setNext(page.next); }).catch((e) => setError(e.message));
  }, [source]);
  const more = () =>
    get(`${source}${source.includes("?") ? "&" : "?"}before=${encodeURIComponent(next)}`)
      .then((page) => { setGames([...games, ...page.games]); setNext(page.next); })
      .catch((e) => setError(e.message));
  if (error) return html`<p class="error" role="alert">${error}</p>`;
  if (games === null) return html`<p role="status">Loading…</p>`;
  if (!games.length) return html`<p class="note">${empty}</p>`;
  return html`<ul class="games-list">
      ${games.map((g) => {
        const others = g.players.filter((p) => p.seat !== g.seat).map((p) => p.name);
        const outcome = outcomeOf(g, g.seat);
        return html`<li key=${g.id}>
          <span class=${"outcome " + (outcome === "Won" ? "up" : outcome === "Lost" ? "down" : "")}>${outcome}</span>
          <span class="grow">
            <strong>${g.preset_name}</strong>${g.ranked ? " · ranked" : ""}${g.speed === "turn-based" ? " · turn-based" : ""}${g.private ? " · private" : ""}<br />
            <span class="note">vs ${others.join(", ")} · ${when(g.finished_at)}</span>
          </span>
          <${Link} href=${g.link} go=${go}>Replay</${Link}>
        </li>`;
      })}
    </ul>
    ${next && html`<button onClick=${more}>More games</button>`}`;
}
