// What the pages about players and games share (loaded with them only): words for a game's
// outcome, dates and durations, and the list of games with "More games". Their frame: frame.js.
import { useEffect, useState } from "preact/hooks";
import { html } from "./ui.js";
import { get } from "./api.js";
import { Link } from "./frame.js";
import { _, date, number } from "./i18n.js";
import { playerName, presetName } from "./names.js";

export { Frame, Link } from "./frame.js";

export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0";
}

export function Change({ n }) {
  return html`<span class=${n > 0 ? "up" : n < 0 ? "down" : ""}>${signed(n)}</span>`;
}

export function when(seconds) {
  return date(new Date(seconds * 1000), { dateStyle: "medium", timeStyle: "short" });
}

export function duration(seconds) {
  if (seconds === null || seconds === undefined) return _("unknown");
  const s = Math.round(seconds);
  const m = Math.floor(s / 60);
  const h = Math.floor(m / 60);
  // a turn-based game: "1.9 days"
  if (h >= 24) return _("{days} days", { days: number(s / 86400, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) });
  if (h) return _("{h} h {min} min", { h, min: m % 60 });
  return m ? _("{min} min {s} s", { min: m, s: s % 60 }) : _("{s} s", { s });
}

/** "won", "lost", "aborted", "none" for the seat of a game's player (a game in a history). */
export function outcomeOf(game, seat) {
  if (game.reason === "aborted") return "aborted";
  if (game.winner === null) return "none";
  const me = game.players.find((p) => p.seat === seat);
  return me && me.won ? "won" : "lost";
}

const OUTCOMES = { aborted: _("Aborted"), none: _("No result"), won: _("Won"), lost: _("Lost") };

/** Why a game ended, in words. */
export function reasonWords(game) {
  const winner = game.players.find((p) => p.won);
  if (game.reason === "aborted") return _("Aborted: a first turn was missed, unrated.");
  if (game.reason === "abandoned") return _("Abandoned: no one was left at the table.");
  if (!winner) return game.reason === "cap" ? _("Time was up with equal scores: a draw.") : _("No one won.");
  const partners = game.players.filter((p) => p.won).map((p) => playerName(p.name));
  const who = partners.length > 1 ? _("{first} and {second}", { first: partners[0], second: partners[1] }) : playerName(winner.name);
  if (game.reason === "forfeit") return _("{who} won: the other player forfeited.", { who });
  if (game.reason === "cap") return _("{who} won: time was up, highest score.", { who });
  return _("{who} won.", { who });
}

/** A page of games with "More games" (source: /api/players/u/games or /api/me/games). */
export function GamesList({ source, first, go, empty = _("No games yet.") }) {
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
  if (games === null) return html`<p role="status">${_("Loading…")}</p>`;
  if (!games.length) return html`<p class="note">${empty}</p>`;
  return html`<ul class="games-list">
      ${games.map((g) => {
        const others = g.players.filter((p) => p.seat !== g.seat).map((p) => playerName(p.name));
        const outcome = outcomeOf(g, g.seat);
        const tags = [g.ranked && _("· ranked"), g.speed === "turn-based" && _("· turn-based"), g.private && _("· private")];
        return html`<li key=${g.id}>
          <span class=${"outcome " + (outcome === "won" ? "up" : outcome === "lost" ? "down" : "")}>${OUTCOMES[outcome]}</span>
          <span class="grow">
            <strong>${presetName(g.preset, g.preset_name)}</strong>${tags.filter(Boolean).map((t) => " " + t).join("")}<br />
            <span class="note">${_("vs {players} · {when}", { players: others.join(", "), when: when(g.finished_at) })}</span>
          </span>
          <${Link} href=${g.link} go=${go}>${_("Replay")}</${Link}>
        </li>`;
      })}
    </ul>
    ${next && html`<button onClick=${more}>${_("More games")}</button>`}`;
}
