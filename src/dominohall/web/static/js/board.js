// The layout on the table, drawn in SVG, with a camera that keeps it all on screen.
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "./ui.js";
import { TileFace, halvesOf } from "./tile.js";
import { boxFor, layOut, unionOf } from "./layout.js";
import { _ } from "./i18n.js";

const N_ = (id) => id; // marked for the catalog; translated where used

const MAX_SCALE = 46; // pixels per unit at most: a tile is then 92 px long

/**
 * The layout's chain as the layout code takes it: [{a, b, arm, match, ends}]; `ends` is the first
 * of the two arms a spinner opens (the hall says which tiles are spinners: the arms whose `from`
 * names them), undefined for every other tile.
 */
export function chainOf(layout) {
  if (!layout || !layout.chain) return [];
  const ends = new Map(); // "arm:index" of a spinner -> the first arm its ends open
  for (const a of layout.arms || []) {
    if (!a.from) continue;
    const key = `${a.from.arm}:${a.from.index}`;
    if (!ends.has(key) || a.arm < ends.get(key)) ends.set(key, a.arm);
  }
  const count = new Map(); // arm -> tiles met on it so far
  return layout.chain.map(({ tile, arm, facing }) => {
    const [a, b] = halvesOf(tile);
    const on = arm === null || arm === undefined ? null : arm;
    const index = on === null ? 0 : count.get(on) ?? 0;
    if (on !== null) count.set(on, index + 1);
    return { a, b, arm: on, match: facing, ends: ends.get(`${on}:${index}`) };
  });
}

const PAD = 0.5; // units of table kept around the layout

const DIRECTION_WORD = { "1,0": "right", "-1,0": "left", "0,1": "bottom", "0,-1": "top" }; // i18n: not shown
// An end's name, and the same cut short for a button: by the way the end faces.
const END_WORDS = {
  right: [N_("right end"), N_("Right")],
  left: [N_("left end"), N_("Left")],
  bottom: [N_("bottom end"), N_("Bottom")],
  top: [N_("top end"), N_("Top")],
  open: [N_("open end"), N_("Open")],
};

/** The words a player sees for an end ("left end"), unique among the open ends. */
export function endNames(chain, kind, openEnds, box = { w: 20, h: 12 }) {
  const lay = layOut(chain, kind, box);
  const ends = openEnds.map(({ arm, number }) => {
    const r = chain.length ? lay.slot(arm) : null;
    return {
      arm,
      number,
      word: DIRECTION_WORD[String(lay.heading(arm))] || "open",
      x: r ? (r.x0 + r.x1) / 2 : 0,
      y: r ? (r.y0 + r.y1) / 2 : 0,
    };
  });
  // Five-up can have several ends facing one way: they are numbered in reading order (top to
  // bottom, then left to right), so every end is named one way: "right end", "right end 2".
  return ends.map((e) => {
    const alike = ends.filter((o) => o.word === e.word);
    const [name, short] = END_WORDS[e.word].map((id) => _(id));
    if (alike.length === 1) return { arm: e.arm, number: e.number, name, short };
    alike.sort((p, q) => p.y - q.y || p.x - q.x);
    const k = alike.indexOf(e) + 1;
    return { arm: e.arm, number: e.number, name: `${name} ${k}`, short: `${short} ${k}` };
  });
}

/** Where to mark an open end: just beyond it, or beside it where a tile lies beyond (a tight
 * fold of the layout); never on a tile. [x, y] in board units, or null. */
function markAt(lay, arm) {
  const end = lay.end(arm);
  if (!end) return null;
  const [dx, dy] = end.dir;
  const [px, py] = [-dy, dx];
  const R = 0.36;
  const clear = ([x, y]) =>
    lay.tiles.every(({ rect: r }) => x + R <= r.x0 || x - R >= r.x1 || y + R <= r.y0 || y - R >= r.y1);
  const at = (along, side) => [end.at[0] + dx * along + px * side, end.at[1] + dy * along + py * side];
  const spots = [at(0.45, 0), at(0.45, 0.75), at(0.45, -0.75), at(1.2, 0), at(0, 0.95), at(0, -0.95), at(1.2, 1), at(1.2, -1)];
  return spots.find(clear) || spots[0];
}


function useSize(ref) {
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    const observer = new ResizeObserver(([entry]) => {
      const { width, height } = entry.contentRect;
      setSize((old) =>
        Math.abs(old.width - width) < 1 && Math.abs(old.height - height) < 1
          ? old
          : { width, height },
      );
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return size;
}

const SLOT_TAG = 0.42; // the size of a lit end's name (.slot-tag in style.css), in board units
const POP = { w: 1.3, h: 0.75 }; // the "+10" of a play that scored, in board units

/** Where the "+10" of the tile just laid stands: beside that tile, on the table, never on a
 * tile. {x, y} (its centre, in board units), or null when no tile is down. */
function popAt(lay, index) {
  const tile = lay.tiles.find((t) => t.i === index);
  if (!tile) return null;
  const { x0, x1, y0, y1 } = tile.rect;
  const [cx, cy] = [(x0 + x1) / 2, (y0 + y1) / 2];
  const [hw, hh] = [POP.w / 2, POP.h / 2];
  const clear = ({ x, y }) =>
    lay.tiles.every(({ rect: r }) => x + hw <= r.x0 || x - hw >= r.x1 || y + hh <= r.y0 || y - hh >= r.y1);
  const spots = [
    { x: cx, y: y0 - hh - 0.1 },
    { x: cx, y: y1 + hh + 0.1 },
    { x: x1 + hw + 0.1, y: cy },
    { x: x0 - hw - 0.1, y: cy },
    { x: x1 + hw, y: y0 - hh },
    { x: x0 - hw, y: y1 + hh },
  ];
  return spots.find(clear) || spots[0];
}

const apart = (r, q) => r.x1 <= q.x0 || r.x0 >= q.x1 || r.y1 <= q.y0 || r.y0 >= q.y1;

/**
 * Moves each end's name (`tagAt`) to the first of a few spots beside its end that is in `view`
 * (what the camera shows) and clear of the tiles, of every end's mark or slot, and of the names
 * placed before it, so that two names never stand on each other (else it keeps its first
 * spot). `font(end)`: its text's size.
 */
function placeTags(lay, ends, font, view) {
  const taken = ends.map((e) => e.own);
  for (const end of ends) {
    if (!end.tag) continue;
    const size = font(end);
    const [hw, hh] = [0.31 * size * end.tag.length + 0.04, 0.55 * size];
    const rectAt = ([x, y]) => ({ x0: x - hw, x1: x + hw, y0: y - hh, y1: y + hh });
    const clear = (spot) => {
      const r = rectAt(spot);
      const seen = r.x0 >= view.x0 && r.x1 <= view.x1 && r.y0 >= view.y0 && r.y1 <= view.y1;
      return seen && lay.tiles.every((t) => apart(r, t.rect)) && taken.every((q) => apart(r, q));
    };
    const [dx, dy] = end.dir;
    const [x, y] = end.tagAt;
    const side = [-dy * (2 * hh + 0.05), dx * (2 * hh + 0.05)];
    const on = [dx * (2 * hw + 0.05), dy * (2 * hh + 0.05)];
    // Beyond the end first, then to either side of it, then further out.
    const spots = [];
    for (const along of [0, 1, 2]) {
      for (const across of [0, 1, -1, 2, -2]) {
        spots.push([x + along * on[0] + across * side[0], y + along * on[1] + across * side[1]]);
      }
    }
    end.tagAt = spots.find(clear) || spots[0];
    taken.push(rectAt(end.tagAt));
  }
}

/**
 * chain: [{a, b, arm, match}]; kind: the preset's layout; openEnds: [{arm, number}];
 * lit: Set of arms the chosen tile may go on (or "lead" before the first tile); onEnd(arm);
 * scored: {points, key} when the last tile laid scored (shown beside it).
 */
export function Board({ chain, kind, openEnds, lit, onEnd, label, onBox, scored }) {
  const ref = useRef(null);
  const { width, height } = useSize(ref);
  const ready = width > 0 && height > 0;
  const box = boxFor(width || 800, height || 500, kind);
  const lay = layOut(chain, kind, box);
  const names = endNames(chain, kind, openEnds, box);
  // The end names on the buttons below the table come from this same layout.
  useEffect(() => {
    if (onBox) onBox(box);
  }, [box.w, box.h]);

  const slots = [];
  const marks = []; // every open end not lit now: where it is, its number and name
  if (chain.length === 0) {
    if (lit && lit.has("lead")) slots.push({ arm: "lead", rect: lay.slot(null), name: _("the table") });
  } else {
    const several = names.length > 2;
    for (const end of names) {
      const rect = lay.slot(end.arm);
      // The end's name stands beyond it, on the side away from its tiles.
      const dir = (lay.end(end.arm) || { dir: [0, -1] }).dir;
      const tag = several ? end.short : null;
      if (lit && lit.has(end.arm)) {
        const c = [(rect.x0 + rect.x1) / 2, (rect.y0 + rect.y1) / 2];
        const reach = dir[0] ? (rect.x1 - rect.x0) / 2 + 0.75 : (rect.y1 - rect.y0) / 2 + 0.3;
        slots.push({ ...end, rect, own: rect, dir, tag, font: SLOT_TAG, tagAt: [c[0] + dir[0] * reach, c[1] + dir[1] * reach] });
      } else {
        const at = markAt(lay, end.arm);
        if (!at) continue;
        const tagAt = [at[0] + dir[0] * 1.1, at[1] + dir[1] * 0.8];
        const box = { x0: at[0] - 0.4, x1: at[0] + 0.4, y0: at[1] - 0.4, y1: at[1] + 0.4 };
        marks.push({ ...end, at, own: box, dir, tag, tagAt, rect: tag ? unionOf([{ rect: box }], { x0: tagAt[0] - 0.5, x1: tagAt[0] + 0.5, y0: tagAt[1] - 0.3, y1: tagAt[1] + 0.3 }) : box });
      }
    }
  }

  const pop = scored && chain.length ? popAt(lay, chain.length - 1) : null;
  const popBox = pop ? [{ rect: { x0: pop.x - POP.w / 2, x1: pop.x + POP.w / 2, y0: pop.y - POP.h / 2, y1: pop.y + POP.h / 2 } }] : [];

  // The camera frames the tiles, the lit ends and a play's points, never smaller than part of the box.
  const tags = slots
    .filter((s) => s.tag)
    .map(({ tagAt: [x, y] }) => ({ rect: { x0: x - 0.5, x1: x + 0.5, y0: y - 0.3, y1: y + 0.3 } }));
  const frame = unionOf([...slots, ...marks, ...tags, ...popBox], lay.bbox);
  const minW = Math.min(box.w, 12);
  const minH = Math.min(box.h, 7);
  let fw = frame.x1 - frame.x0 + 2 * PAD;
  let fh = frame.y1 - frame.y0 + 2 * PAD;
  const cx = (frame.x0 + frame.x1) / 2;
  const cy = (frame.y0 + frame.y1) / 2;
  fw = Math.max(fw, minW);
  fh = Math.max(fh, minH);
  const scale = Math.min(width / fw, height / fh, MAX_SCALE) || 1;
  const camera = `translate(${width / 2 - cx * scale}px, ${height / 2 - cy * scale}px) scale(${scale})`; // i18n: not shown
  const placed = (t, angle) => `translate(${t.cx}px, ${t.cy}px) rotate(${angle}deg)`; // i18n: not shown

  const last = chain.length - 1;
  // An end's mark stays big enough to see (11 px across at least) however far the camera is.
  const markR = Math.max(0.34, 5.5 / scale);
  const [viewW, viewH] = [width / scale / 2, height / scale / 2];
  const view = { x0: cx - viewW, x1: cx + viewW, y0: cy - viewH, y1: cy + viewH };
  placeTags(lay, [...slots, ...marks], (end) => end.font || markR * 1.2, view);
  // A play's points read at 13 px at least, however far the camera is.
  const popFont = Math.max(0.5, 13 / scale);
  const [popW, popH] = [Math.max(POP.w, popFont * 2.4), Math.max(POP.h, popFont * 1.4)];
  return html`<div class="board" ref=${ref}>
    <svg class="board-svg" role="group" aria-label=${label}>
      ${ready &&
      html`<g class="camera" style=${{ transform: camera }}>
        ${lay.tiles
          .filter((t) => t.hop)
          .map(
            (t) => html`<line key=${"hop" + t.i} class="hop" x1=${t.hop.from[0]} y1=${t.hop.from[1]}
              x2=${t.hop.to[0]} y2=${t.hop.to[1]} />`,
          )}
        ${lay.tiles.map((t) => {
          // A tile turned half round is the same picture with its halves swapped: keep angles
          // under 180 so that a re-laid tile never spins on its way.
          const [a, b, angle] = t.angle >= 180 ? [t.b, t.a, t.angle - 180] : [t.a, t.b, t.angle];
          return html`<g
            key=${t.i}
            class="placed"
            data-tile=${`${t.a}-${t.b}`}
            style=${{ transform: placed(t, angle) }}
          >
            <g class=${"tile-in" + (t.i === last ? " fresh" : "") + (t.spinner ? " spinner" : "")}>
              <${TileFace} a=${a} b=${b} angle=${angle} />
            </g>
          </g>`;
        })}
        ${marks.map(
          (m) => html`<g key=${"mark" + m.arm} class="end-mark" data-arm=${m.arm} aria-hidden="true">
            <circle cx=${m.at[0]} cy=${m.at[1]} r=${markR} />
            <text x=${m.at[0]} y=${m.at[1]} font-size=${markR * 1.3}>${m.number}</text>
            ${m.tag && html`<text class="end-tag" x=${m.tagAt[0]} y=${m.tagAt[1]} font-size=${markR * 1.2}>${m.tag}</text>`}
          </g>`,
        )}
        ${pop &&
        html`<g key=${"pop" + scored.key} class="score-pop" aria-hidden="true">
          <rect x=${pop.x - popW / 2} y=${pop.y - popH / 2} width=${popW} height=${popH} rx=${popH / 2.5} />
          <text x=${pop.x} y=${pop.y} font-size=${popFont}>+${scored.points}</text>
        </g>`}
        ${slots.map(
          (s) => html`<g
            key=${"slot" + s.arm}
            class="slot"
            data-arm=${s.arm}
            role="button"
            tabindex="0"
            aria-label=${s.arm === "lead" ? _("Play here") : _("Play on the {end}, {number}", { end: s.name, number: s.number })}
            onClick=${() => onEnd && onEnd(s.arm)}
            onKeyDown=${(e) => {
              if (e.key === "Enter" || e.key === " ") {
                e.preventDefault();
                onEnd && onEnd(s.arm);
              }
            }}
          >
            <rect
              x=${s.rect.x0 + 0.06}
              y=${s.rect.y0 + 0.06}
              width=${s.rect.x1 - s.rect.x0 - 0.12}
              height=${s.rect.y1 - s.rect.y0 - 0.12}
              rx="0.14"
            />
            ${s.number !== undefined &&
            html`<text x=${(s.rect.x0 + s.rect.x1) / 2} y=${(s.rect.y0 + s.rect.y1) / 2}
              >${s.number}</text
            >`}
          </g>`,
        )}
        ${slots
          .filter((s) => s.tag)
          .map(
            (s) => html`<text key=${"tag" + s.arm} class="slot-tag end-tag" aria-hidden="true" x=${s.tagAt[0]} y=${s.tagAt[1]}
              >${s.tag}</text
            >`,
          )}
      </g>`}
    </svg>
  </div>`;
}
