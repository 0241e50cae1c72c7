// A domino drawn in SVG: two halves with pips (or numerals), in one of five styles.
import { html } from "./ui.js";

// Where the pips of each number lie in a half (a unit square).
const L = 0.25;
const M = 0.5;
const H = 0.75;
const PIPS = [
  [],
  [[M, M]],
  [
    [L, L],
    [H, H],
  ],
  [
    [L, L],
    [M, M],
    [H, H],
  ],
  [
    [L, L],
    [H, L],
    [L, H],
    [H, H],
  ],
  [
    [L, L],
    [H, L],
    [M, M],
    [L, H],
    [H, H],
  ],
  [
    [L, 0.27],
    [M, 0.27],
    [H, 0.27],
    [L, 0.73],
    [M, 0.73],
    [H, 0.73],
  ],
];

// The five styles a player can choose from. "Colour" uses the Okabe-Ito palette, which stays
// distinct under the common colour-vision deficiencies; the pips still carry the number.
const N_ = (id) => id; // marked for the catalog; translated where shown (stylepicker.js)
export const TILE_STYLES = [
  { id: "ivory", name: N_("Ivory") },
  { id: "ebony", name: N_("Ebony") },
  { id: "colour", name: N_("Colour pips") },
  { id: "numerals", name: N_("Numerals") },
  { id: "contrast", name: N_("High contrast") },
];
const rotate = (...args) => `rotate(${args.join(" ")})`; // i18n: not shown

const STYLE_KEY = "dominohall.tileStyle";

export function savedTileStyle() {
  try {
    const id = localStorage.getItem(STYLE_KEY);
    return TILE_STYLES.some((s) => s.id === id) ? id : "ivory";
  } catch {
    return "ivory";
  }
}

export function saveTileStyle(id) {
  try {
    localStorage.setItem(STYLE_KEY, id);
  } catch {
    // Private browsing may refuse storage; the style then lasts for this visit only.
  }
}

const pipClass = (n) => "pip n" + n; // i18n: not shown
function Half({ n, x, angle }) {
  // Numerals stay upright whichever way the tile lies.
  const numeral = html`<text
    class="numeral"
    x=${x + 0.5}
    y="0"
    transform=${rotate(-angle, x + 0.5, 0)}
    >${n}</text
  >`;
  const pips = PIPS[n].map(
    ([px, py]) => html`<circle class=${pipClass(n)} cx=${x + px} cy=${py - 0.5} r="0.1" />`,
  );
  return html`<g class="half">${numeral}${pips}</g>`;
}

/**
 * One tile in board units: 2 x 1 centred on the origin, `a` on the left before rotation.
 * The caller places and rotates it; `angle` is passed so numerals can stay upright.
 */
export function TileFace({ a, b, angle = 0 }) {
  return html`<g class="tile-face">
    <rect class="body" x="-1" y="-0.5" width="2" height="1" rx="0.12" />
    <line class="divider" x1="0" y1="-0.36" x2="0" y2="0.36" />
    <${Half} n=${a} x=${-1} angle=${angle} />
    <${Half} n=${b} x=${0} angle=${angle} />
  </g>`;
}

/** A tile as a small picture of its own (the hand, the end-of-hand reveal). */
export function TileImage({ a, b, upright = false, cls = "" }) {
  const angle = upright ? 90 : 0;
  const view = upright ? "-0.55 -1.05 1.1 2.1" : "-1.05 -0.55 2.1 1.1";
  return html`<svg class=${"tile-image " + cls} viewBox=${view} aria-hidden="true" focusable="false">
    <g transform=${rotate(angle)}><${TileFace} a=${a} b=${b} angle=${angle} /></g>
  </svg>`;
}

/** "6-4" -> [6, 4], in the order written. */
export function halvesOf(name) {
  const [a, b] = name.split("-").map(Number);
  return [a, b];
}

export function pipsOf(name) {
  const [a, b] = halvesOf(name);
  return a + b;
}
