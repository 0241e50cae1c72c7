// "How to play" for each preset, in a few lines drawn from RULES.md, built from the preset's
// options: whole sentences, each one a message of the catalog (docs/translating.md).
import { _, lang, number } from "./i18n.js";

const COMMON = () =>
  _("Match a tile to an open end of the layout. If a tile fits, you must play. Go out first, or hold the fewest pips when the hand is blocked.");

const DRAWING = {
  none: () => _("No drawing: if nothing fits, you pass."),
  until_fits: () => _("If nothing fits, draw from the boneyard until a tile fits, and play it; with the boneyard empty, pass."),
};

const LAYOUT = {
  line: () => _("The line has two ends; doubles lie across and open no extra ends."),
  first_double_spinner: () => _("The first double is a spinner: once both its sides are covered, its two ends open too (four arms)."),
  all_doubles_spinners: () => _("Every double is a spinner: once both its sides are covered, its ends open new arms."),
};

// The count after each play, by the preset's count and how a count is valued (full or in units).
const COUNT = {
  fives: {
    full: () => _("After each play, add up the open ends: a multiple of five scores that many points at once (15 scores 15)."),
    units: () => _("After each play, add up the open ends: a multiple of five scores at once, in fives (15 scores 3)."),
  },
  threes: {
    full: () => _("After each play, add up the open ends: a multiple of three scores that many points at once (15 scores 15)."),
    units: () => _("After each play, add up the open ends: a multiple of three scores at once, in threes (15 scores 5)."),
  },
  fives_threes: {
    full: () => _("After each play, add up the open ends: score the total if it divides by 5, and the total again if it divides by 3 (15 scores 30)."),
    units: () => _("After each play, add up the open ends: score the total divided by 5 if it divides by 5, plus the total divided by 3 if it divides by 3 (15 scores 5 + 3 = 8)."),
  },
  headers: {
    full: () => _("After each play, two or more ends showing the same number score that many points (a double counts twice)."),
    units: () => _("After each play, two or more ends showing the same number score that many points (a double counts twice)."),
  },
};

const BONUS = {
  others: () => _("Going out (or winning a blocked hand) scores the pips left in every other hand."),
  others_r5: () => _("Going out scores the pips left in the other hands, rounded to the nearest five."),
  all_units: () => _("The hand's winner scores all pips left in all hands, rounded to five, divided by five."),
  net_units: () => _("The hand's winner scores (opponents' pips − own pips), rounded to five, divided by five."),
  net_penalty: () => _("The winner scores (opponents' pips − own pips) in fives; every other player loses their own pips in fives."),
};

// "1+3 and 2+4", from the preset's teams (seats from 0, said from 1), joined in the reader's way.
const teamList = (teams) =>
  new Intl.ListFormat(lang, { type: "conjunction" }).format(
    teams.map((team) => team.map((s) => s + 1).join("+")),
  );

const END = {
  hand_end: (t) => _("The first to reach {target} at the end of a hand wins.", { target: number(t) }),
  immediate: (t) => _("The game ends the moment anyone reaches {target}, even mid-hand.", { target: number(t) }),
  hand_end_highest: (t) => _("When a hand ends with someone at {target} or more, the highest score wins.", { target: number(t) }),
  exact: (t) => _("Reach exactly {target}: a score that would go past it does not count.", { target: number(t) }),
};

export function howToPlay(preset) {
  const count = COUNT[preset.count] ? COUNT[preset.count][preset.count_value === "units" ? "units" : "full"]() : "";
  const end = END[preset.game_end] ? END[preset.game_end](preset.default_target) : "";
  let bonus = BONUS[preset.bonus] ? BONUS[preset.bonus]() : "";
  if (preset.bonus === "team") {
    bonus = _("Teams {teams}: the team that goes out (or holds fewer pips when blocked) scores the other team's pips.", { teams: teamList(preset.teams || [[0, 2], [1, 3]]) });
  }
  const drawing = DRAWING[preset.drawing] ? DRAWING[preset.drawing]() : "";
  const layout = LAYOUT[preset.layout] ? LAYOUT[preset.layout]() : "";
  return [COMMON(), drawing, layout, count, bonus, end].filter(Boolean).join(" ");
}
