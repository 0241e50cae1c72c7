// What the hall stores and sends by id (presets, the pools named after them, the computer
// players' levels, the timers, a deleted player), in the reader's words. The names are the
// hall's (GET /api/presets: the page keeps no copy of them), translated through the catalog;
// a name the catalog does not know (a hall that offers its own) is shown as the hall gives it.
import { _, number } from "./i18n.js";
import { offered } from "./choices.js";

const N_ = (name) => name; // marked for the catalog only: translated where shown, by _(name)
export const HALL_NAMES = [
  N_("Draw"), N_("Block"), N_("All Fives"), N_("All Fives with spinner"), N_("Muggins"),
  N_("Five Up"), N_("Cross Fives"), N_("Cross Threes"), N_("Cross Fives and Threes"),
  N_("Cross Double Bergen"), N_("Cross Draw (no play scoring)"), N_("Partnership"),
  N_("Easy"), N_("Normal"), N_("Hard"), N_("Relaxed"), N_("Quick"),
  N_("1 move per day (+24 h a turn, at most 3 days)"), N_("Fast (+12 h a turn, at most 1.5 days)"),
  N_("Slow (+72 h a turn, at most 7 days)"),
  // tile.js's tile styles (stylepicker.js shows them)
  N_("Ivory"), N_("Ebony"), N_("Colour pips"), N_("Numerals"), N_("High contrast"),
];

const named = (list, id, name) => {
  const found = name || (list.find((x) => x.id === id) || {}).name;
  return found ? _(found) : id;
};
/** A preset's name, from its id (and the name the hall sent with it, if any). */
export const presetName = (id, name) => named(offered.presets, id, name);
/** A computer player's level, from its id. */
export const levelName = (id, name) => named(offered.levels, id, name);
/** A ranked pool's name ("All Fives"), from its id. */
export const poolName = (id) => named(offered.pools, id);

/** A timer as a choice reads: "Normal (25 s)"; a turn-based clock by its name. */
export const timerLabel = (t) =>
  t.speed === "real-time" ? _("{name} ({seconds} s)", { name: _(t.name), seconds: number(t.turn_seconds) }) : _(t.name);

/** A player's name as stored; a deleted account's seats are stored under the hall's own name. */
const DELETED = "Deleted player"; // i18n: not shown (compared with what the hall stored)
export const playerName = (name) => (name === DELETED ? _("Deleted player") : name);
