// A turn-based table (docs/protocol.md 7), loaded only for one (game.js imports it when needed): each player's clock in days and hours, the game's
// duration so far, and what happened since your last move, for a player back days later.
import { html } from "./ui.js";
import { daysHours, useCountdown } from "./clock.js";

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86400;

/** "1.9 days", "5.2 hours", "12 minutes": a game's duration, as S3 writes it. */
export function durationWords(seconds) {
  if (seconds >= DAY) return `${(seconds / DAY).toFixed(1)} days`;
  if (seconds >= HOUR) return `${(seconds / HOUR).toFixed(1)} hours`;
  const minutes = Math.max(1, Math.round(seconds / MINUTE));
  return `${minutes} ${minutes === 1 ? "minute" : "minutes"}`;
}

function when(t) {
  return new Date(t * 1000).toLocaleString(undefined, { weekday: "short", hour: "2-digit", minute: "2-digit" });
}

const OUT_WORDS = {
  timeout: "their clock ran out",
  left: "they left",
  disconnected: "they left",
  resigned: "they resigned",
};

/** What happened since your last move, in words; a seat's draws in a row are told once. */
export function sinceLines(events, nameOf) {
  const lines = [];
  for (const e of events) {
    const last = lines[lines.length - 1];
    if (e.kind === "move" && e.draw) {
      if (last && last.drawSeat === e.seat) {
        last.draws += 1;
        last.text = `${nameOf(e.seat)} drew ${last.draws} tiles`;
        continue;
      }
      lines.push({ key: e.version, drawSeat: e.seat, draws: 1, text: `${nameOf(e.seat)} drew a tile` });
      continue;
    }
    let text = null;
    if (e.kind === "move") {
      const forced = e.by === "forced" ? " (nothing to play)" : "";
      text = e.pass ? `${nameOf(e.seat)} passed${forced}` : `${nameOf(e.seat)} played ${e.play}${e.scored ? ` (+${e.scored})` : ""}`;
    } else if (e.kind === "dealt") {
      text = `Hand ${e.hand + 1} was dealt`;
    } else if (e.kind === "hand_over") {
      text = e.winner === null ? `Hand ${e.hand + 1} ended with no winner` : `${nameOf(e.winner)} won hand ${e.hand + 1}`;
    } else if (e.kind === "out") {
      text = `${nameOf(e.seat)} is out of the game: ${OUT_WORDS[e.reason] || e.reason}`;
    } else if (e.kind === "vacation") {
      text = e.end > e.start ? `${nameOf(e.seat)} went on vacation until ${when(e.end)}` : `${nameOf(e.seat)} is back from vacation`;
    } else if (e.kind === "game_over") {
      text = "The game is over";
    }
    if (text) lines.push({ key: e.version, text });
  }
  return lines;
}

function ClockLine({ clock, name, receivedAt }) {
  const running = useCountdown(clock.running ? clock.left : null, receivedAt);
  const left = running !== null ? running : clock.left;
  const low = clock.running && left < 6 * HOUR;
  return html`<li class=${"tb-clock" + (clock.running ? " running" : "") + (low ? " warn" : "")}
    data-seat=${clock.seat}>
    <span class="tb-name">${name}</span>
    <span class="tb-left">${daysHours(left)} left${clock.running ? html`<span class="tb-to-move"> (to move)</span>` : ""}</span>
    ${clock.vacation_until && html`<span class="tb-vacation">on vacation until ${when(clock.vacation_until)}</span>`}
  </li>`;
}

/** The turn-based part of a table: clocks, duration, and what happened since your last move. */
export function TurnBasedPanel({ tb, nameOf, receivedAt }) {
  const since = tb.since_your_move ? sinceLines(tb.since_your_move, nameOf) : [];
  return html`<section class="turn-based" aria-label="Turn-based clocks">
    <p class="tb-speed">${tb.name}${tb.duration !== null ? html`<span class="tb-duration"> · Game duration: ${durationWords(tb.duration)}</span>` : ""}</p>
    <ul class="tb-clocks">
      ${tb.clocks.map((c) => html`<${ClockLine} key=${c.seat} clock=${c} name=${nameOf(c.seat)} receivedAt=${receivedAt} />`)}
    </ul>
    ${since.length > 0 &&
    html`<details class="tb-since" open>
      <summary>Since your last move</summary>
      <ol>${since.map((l) => html`<li key=${l.key}>${l.text}</li>`)}</ol>
    </details>`}
  </section>`;
}
