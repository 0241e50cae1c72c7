// What the hall stores and sends by id, in the reader's words: the presets (and the pools named
// after them), the computer players' levels, the timers. An id this page does not know yet
// shows the hall's own (English) name.
import { _, number } from "./i18n.js";
import { offered } from "./choices.js";

const PRESETS = {
  draw: _("Draw"),
  block: _("Block"),
  "all-fives": _("All Fives"),
  "spinner-fives": _("All Fives with spinner"),
  muggins: _("Muggins"),
  "five-up": _("Five Up"),
  "cross-fives": _("Cross Fives"),
  "cross-threes": _("Cross Threes"),
  "cross-fives-threes": _("Cross Fives and Threes"),
  "cross-bergen": _("Cross Double Bergen"),
  "cross-draw": _("Cross Draw (no play scoring)"),
  partnership: _("Partnership"),
};
/** A preset's (or a pool's preset's) name, from its id. */
export const presetName = (id, name) => PRESETS[id] || name || id;

const LEVELS = { easy: _("Easy"), normal: _("Normal"), hard: _("Hard") };
/** A computer player's level, from its id. */
export const levelName = (id, name) => LEVELS[id] || name || id;

const TIMERS = {
  normal: _("Normal"),
  relaxed: _("Relaxed"),
  quick: _("Quick"),
  day: _("1 move per day (+24 h a turn, at most 3 days)"),
  "half-day": _("Fast (+12 h a turn, at most 1.5 days)"),
  "three-days": _("Slow (+72 h a turn, at most 7 days)"),
};
/** A timer as a choice reads: "Normal (25 s)"; a turn-based clock by its name. */
export const timerLabel = (t) => {
  const name = TIMERS[t.id] || t.name;
  return t.speed === "real-time" ? _("{name} ({seconds} s)", { name, seconds: number(t.turn_seconds) }) : name;
};

/** A ranked pool's name ("All Fives"), from its id, by its preset. */
export function poolName(id) {
  const pool = offered.pools.find((p) => p.id === id);
  return pool ? presetName(pool.preset, pool.name) : id;
}

/** A player's name as stored; a deleted account's seats are stored under the hall's own name. */
const DELETED = "Deleted player"; // i18n: not shown (compared with what the hall stored)
export const playerName = (name) => (name === DELETED ? _("Deleted player") : name);
