// The end-of-game screen's rating changes (+12 / -9) of a ranked game, from
// GET /api/games/{id}/ratings (asked once the game is over; empty for an unrated game), and the
// way to the game's replay.
import { useEffect, useState } from "preact/hooks";
import { html } from "./ui.js";
import { get } from "./api.js";
import { _, number } from "./i18n.js";

const signed = (n) => (n > 0 ? `+${number(n)}` : n < 0 ? `−${number(-n)}` : "±0");

export function RatingChanges({ tableId, nameOf }) {
  const [ratings, setRatings] = useState([]);
  useEffect(() => {
    let live = true;
    // The result and its rating change are stored together just after the last move: ask again
    // once if the first answer comes before them.
    const ask = (again) =>
      get(`/api/games/${tableId}/ratings`)
        .then((r) => {
          if (!live) return;
          if (r.ratings.length || !again) setRatings(r.ratings);
          else setTimeout(() => ask(false), 800);
        })
        .catch(() => {});
    ask(true);
    return () => { live = false; };
  }, [tableId]);
  const replay = html`<p class="replay-link"><a href=${`/games/${tableId}`}>${_("Replay this game")}</a></p>`;
  if (!ratings.length) return replay;
  return html`<ul class="rating-changes" aria-label=${_("Rating changes")}>
    ${ratings.map((r) => html`<li key=${r.seat} data-seat=${r.seat}>
      ${nameOf(r.seat)}: ${number(r.after)}${" "}<strong class=${r.change > 0 ? "up" : r.change < 0 ? "down" : ""}>${signed(r.change)}</strong>
    </li>`)}
  </ul>${replay}`;
}
