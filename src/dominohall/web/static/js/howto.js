// "How to play" for each preset, in a few lines drawn from RULES.md, built from the preset's options.

const COMMON =
  "Match a tile to an open end of the layout. If a tile fits, you must play. Go out first, " +
  "or hold the fewest pips when the hand is blocked.";

const DRAWING = {
  none: "No drawing: if nothing fits, you pass.",
  until_fits: "If nothing fits, draw from the boneyard until a tile fits, and play it; with the boneyard empty, pass.",
};

const LAYOUT = {
  line: "The line has two ends; doubles lie across and open no extra ends.",
  first_double_spinner:
    "The first double is a spinner: once both its sides are covered, its two ends open too (four arms).",
  all_doubles_spinners:
    "Every double is a spinner: once both its sides are covered, its ends open new arms.",
};

const COUNT = {
  none: "",
  fives: "After each play, add up the open ends: a multiple of five scores at once",
  threes: "After each play, add up the open ends: a multiple of three scores at once",
  fives_threes: "After each play, add up the open ends: score total/5 if it divides by 5, plus total/3 if it divides by 3",
  headers: "After each play, two or more ends showing the same number score that many points (a double counts twice)",
};

const VALUE = { full: " (15 scores 15).", units: ", in units (15 scores 3 under fives)." };

const BONUS = {
  others: "Going out (or winning a blocked hand) scores the pips left in every other hand.",
  others_r5: "Going out scores the pips left in the other hands, rounded to the nearest five.",
  all_units: "The hand's winner scores all pips left in all hands, rounded to five, divided by five.",
  net_units: "The hand's winner scores (opponents' pips − own pips), rounded to five, divided by five.",
  net_penalty:
    "The winner scores (opponents' pips − own pips) in fives; every other player loses their own pips in fives.",
  team: "the team that goes out (or holds fewer pips when blocked) scores the other team's pips.",
};

// "Teams 1+3 and 2+4", from the preset's teams (seats from 0, said from 1).
const teamWords = (teams) => `Teams ${teams.map((team) => team.map((s) => s + 1).join("+")).join(" and ")}: `;

const END = {
  hand_end: (t) => `The first to reach ${t} at the end of a hand wins.`,
  immediate: (t) => `The game ends the moment anyone reaches ${t}, even mid-hand.`,
  hand_end_highest: (t) => `When a hand ends with someone at ${t} or more, the highest score wins.`,
  exact: (t) => `Reach exactly ${t}: a score that would go past it does not count.`,
};

export function howToPlay(preset) {
  const count = COUNT[preset.count]
    ? COUNT[preset.count] + (preset.count === "headers" ? "." : VALUE[preset.count_value] || ".")
    : "";
  const end = END[preset.game_end] ? END[preset.game_end](preset.default_target) : "";
  const bonus = BONUS[preset.bonus] && (preset.teams ? teamWords(preset.teams) : "") + BONUS[preset.bonus];
  return [COMMON, DRAWING[preset.drawing], LAYOUT[preset.layout], count, bonus, end]
    .filter(Boolean)
    .join(" ");
}
