// What the hall offers, as GET /api/presets says it once at start: the presets, the ranked pools
// (docs/ratings.md), the timers, the computer players' levels and how long a name, a username and
// a password may be. The page keeps no copy of them: every choice it shows is one of these, so a
// pool or a timer the hall changes is changed on the page too.
import { _, number } from "./i18n.js";

export const offered = { presets: [], pools: [], timers: [], levels: [], lengths: {} };

/** Keep the hall's answer (app.js does, before any screen shows). */
export function keepOffer(answer) {
  offered.presets = answer.presets;
  offered.pools = answer.pools;
  offered.timers = answer.timers;
  offered.levels = answer.levels;
  offered.lengths = answer.lengths;
}

/** A pool's name ("All Fives"), or its id for a pool the hall no longer offers. */
export function poolName(id) {
  const pool = offered.pools.find((p) => p.id === id);
  return pool ? _(pool.name) : id;
}

/** The timer of that id, or undefined for one the hall no longer offers. */
export const timerOf = (id) => offered.timers.find((t) => t.id === id);

/** A timer as a choice reads: "Normal (25 s)"; a turn-based clock by its name. */
export const timerLabel = (timer) =>
  timer.speed === "real-time" ? _("{name} ({seconds} s)", { name: _(timer.name), seconds: number(timer.turn_seconds) }) : _(timer.name);
