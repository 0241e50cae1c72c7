// A turn-based table (docs/protocol.md 7), loaded only for one (game.js imports it when needed): each player's clock in days and hours, the game's
// duration so far, and what happened since your last move, for a player back days later.
import { html } from "./ui.js";
import { daysHours, useCountdown } from "./clock.js";
import { _, ngettext, number, date } from "./i18n.js";

const N_ = (id) => id; // marked for the catalog; translated where shown

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86400;

/** "1.9 days", "5.2 hours", "12 minutes": a game's duration, as S3 writes it. */
export function durationWords(seconds) {
  const tenth = { minimumFractionDigits: 1, maximumFractionDigits: 1 };
  if (seconds >= DAY) return _("{n} days", { n: number(seconds / DAY, tenth) });
  if (seconds >= HOUR) return _("{n} hours", { n: number(seconds / HOUR, tenth) });
  return ngettext("{n} minute", "{n} minutes", Math.max(1, Math.round(seconds / MINUTE)));
}

function when(t) {
  return date(new Date(t * 1000), { weekday: "short", hour: "2-digit", minute: "2-digit" });
}

const OUT_WORDS = {
  timeout: N_("{name} is out of the game: their clock ran out"),
  left: N_("{name} is out of the game: they left"),
  disconnected: N_("{name} is out of the game: they left"),
  resigned: N_("{name} is out of the game: they resigned"),
};

/** What happened since your last move, in words; a seat's draws in a row are told once. */
export function sinceLines(events, nameOf) {
  const lines = [];
  for (const e of events) {
    const last = lines[lines.length - 1];
    if (e.kind === "move" && e.draw) {
      if (last && last.drawSeat === e.seat) {
        last.draws += 1;
        last.text = ngettext("{name} drew a tile", "{name} drew {n} tiles", last.draws, { name: nameOf(e.seat) });
        continue;
      }
      lines.push({ key: e.version, drawSeat: e.seat, draws: 1, text: ngettext("{name} drew a tile", "{name} drew {n} tiles", 1, { name: nameOf(e.seat) }) });
      continue;
    }
    let text = null;
    if (e.kind === "move") {
      const name = nameOf(e.seat);
      if (e.pass) text = e.by === "forced" ? _("{name} passed (nothing to play)", { name }) : _("{name} passed", { name });
      else text = e.scored ? _("{name} played {tile} (+{points})", { name, tile: e.play, points: e.scored }) : _("{name} played {tile}", { name, tile: e.play });
    } else if (e.kind === "dealt") {
      text = _("Hand {n} was dealt", { n: e.hand + 1 });
    } else if (e.kind === "hand_over") {
      text = e.winner === null ? _("Hand {n} ended with no winner", { n: e.hand + 1 }) : _("{name} won hand {n}", { name: nameOf(e.winner), n: e.hand + 1 });
    } else if (e.kind === "out") {
      text = OUT_WORDS[e.reason] ? _(OUT_WORDS[e.reason], { name: nameOf(e.seat) }) : _("{name} is out of the game", { name: nameOf(e.seat) });
    } else if (e.kind === "vacation") {
      text = e.end > e.start
        ? _("{name} went on vacation until {when}", { name: nameOf(e.seat), when: when(e.end) })
        : _("{name} is back from vacation", { name: nameOf(e.seat) });
    } else if (e.kind === "game_over") {
      text = _("The game is over");
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
    <span class="tb-left">${_("{time} left", { time: daysHours(left) })}${clock.running ? html`<span class="tb-to-move"> ${_("(to move)")}</span>` : ""}</span>
    ${clock.vacation_until && html`<span class="tb-vacation">${_("on vacation until {when}", { when: when(clock.vacation_until) })}</span>`}
  </li>`;
}

/** The turn-based part of a table: clocks, duration, and what happened since your last move. */
export function TurnBasedPanel({ tb, nameOf, receivedAt }) {
  const since = tb.since_your_move ? sinceLines(tb.since_your_move, nameOf) : [];
  return html`<section class="turn-based" aria-label=${_("Turn-based clocks")}>
    <p class="tb-speed">${_(tb.name)}${tb.duration !== null ? html`<span class="tb-duration"> · ${_("Game duration: {time}", { time: durationWords(tb.duration) })}</span>` : ""}</p>
    <ul class="tb-clocks">
      ${tb.clocks.map((c) => html`<${ClockLine} key=${c.seat} clock=${c} name=${nameOf(c.seat)} receivedAt=${receivedAt} />`)}
    </ul>
    ${since.length > 0 &&
    html`<details class="tb-since" open>
      <summary>${_("Since your last move")}</summary>
      <ol>${since.map((l) => html`<li key=${l.key}>${l.text}</li>`)}</ol>
    </details>`}
  </section>`;
}
