// Which ends a tile is worth asking about: ends that are alike for the player (the same number,
// the same points now and the same game after) are one choice, so that a tile fitting two of
// them is played without a question.

const isDouble = (tile) => {
  const [a, b] = tile.split("-");
  return a === b;
};

/** The tile lying at an open arm's end: its last tile, else the tile it starts from (the lead
 * for arms 0 and 1, the spinner for a spinner's ends). */
function pieceAt(layout, arm) {
  const a = layout.arms.find((x) => x.arm === arm);
  if (a && a.tiles.length) return a.tiles[a.tiles.length - 1].tile;
  if (!a || !a.from) return layout.lead ? layout.lead.tile : null;
  if (a.from.arm === null) return layout.lead.tile;
  const root = layout.arms.find((x) => x.arm === a.from.arm);
  return root ? root.tiles[a.from.index].tile : null;
}

/**
 * What a tile fitting `arms` offers: one arm for each set of alike ends (the lowest arm of
 * each), in arm order. Two ends with the same number are alike when
 * - neither ends in a double: a plain end counts its number once, and the tile laid on either
 *   leaves the same open numbers; or
 * - both are ends of the same double: the lead double's two sides, or a spinner's two ends;
 * - in a line that counts nothing, any two: the open numbers are then all that matters.
 * An end on a double beside a plain end of its number is not alike: the double counts both
 * halves, or a spinner opens more arms once covered, so points and what follows differ.
 */
export function endChoices(layout, arms, preset) {
  if (!layout || arms.length < 2) return arms;
  const numbers = new Map((layout.open_ends || []).map((e) => [e.arm, e.number]));
  const onlyNumbers = !!preset && preset.layout === "line" && preset.count === "none";
  const seen = new Set();
  const choices = [];
  for (const arm of arms) {
    const piece = pieceAt(layout, arm);
    const key =
      piece === null
        ? `arm ${arm}` // not known: asked about
        : onlyNumbers || !isDouble(piece)
          ? `end ${numbers.get(arm)}`
          : `double ${piece}`;
    if (seen.has(key)) continue;
    seen.add(key);
    choices.push(arm);
  }
  return choices;
}
