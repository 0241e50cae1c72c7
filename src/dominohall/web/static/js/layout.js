// Where each tile of the layout lies on the table: arms grow from the lead (and from spinners) and
// turn corners like a snake so that the whole layout stays inside a box shaped like the screen.
//
// Units: a tile is 2 x 1. Positions depend only on the tiles played before, so a new play never
// moves the tiles already down (as long as the box stays the same); the box changes only when the
// screen's shape does.

const EAST = [1, 0];
const SOUTH = [0, 1];
const WEST = [-1, 0];
const NORTH = [0, -1];

const cw = ([x, y]) => [-y, x]; // a quarter turn clockwise on screen (y grows downwards)
const ccw = ([x, y]) => [y, -x];
const neg = ([x, y]) => [-x, -y];
const same = (a, b) => a[0] === b[0] && a[1] === b[1];
const add = (p, d, k = 1) => [p[0] + d[0] * k, p[1] + d[1] * k];

const GAP = 0.12; // clearance kept between tiles that do not touch
const SLACK = 0.5; // how far a tile may poke out of the box before the arm turns
const LOOKAHEAD = 2; // tiles ahead an arm looks for a way on before it takes a place
const SPINNER_RUN = 3; // a spinner (1) and the tile after it (2) go straight on
const LARGEST = 46; // px a unit at most, as board.js's MAX_SCALE: a tile is never drawn larger
// Square units a long hand's layout needs: a line folds in rows 2 units apart; spinners' arms
// branch and keep room between them.
const AREA = { line: 130, first_double_spinner: 220, all_doubles_spinners: 220 };

/** The angle (degrees) that turns a tile drawn west-to-east so that it runs along `dir`. */
export function angleOf(dir) {
  if (same(dir, EAST)) return 0;
  if (same(dir, SOUTH)) return 90;
  if (same(dir, WEST)) return 180;
  return 270;
}

/** The rectangle of a tile centred at `c`, its long side along `dir` or across it. */
function rectAt(c, dir, across) {
  const along = across ? 1 : 2;
  const wide = across ? 2 : 1;
  const w = dir[0] !== 0 ? along : wide;
  const h = dir[0] !== 0 ? wide : along;
  return { x0: c[0] - w / 2, y0: c[1] - h / 2, x1: c[0] + w / 2, y1: c[1] + h / 2 };
}

/** The smallest rectangle holding `start` and the `rect` of every item. */
export function unionOf(items, start) {
  return items.reduce(
    (b, { rect: r }) => ({
      x0: Math.min(b.x0, r.x0),
      y0: Math.min(b.y0, r.y0),
      x1: Math.max(b.x1, r.x1),
      y1: Math.max(b.y1, r.y1),
    }),
    start,
  );
}

/** A rectangle stretched `by` units further along `dir`. */
function grow(r, dir, by) {
  return {
    x0: r.x0 + Math.min(0, dir[0] * by),
    x1: r.x1 + Math.max(0, dir[0] * by),
    y0: r.y0 + Math.min(0, dir[1] * by),
    y1: r.y1 + Math.max(0, dir[1] * by),
  };
}

function overlaps(a, b, gap) {
  return a.x0 < b.x1 + gap && b.x0 < a.x1 + gap && a.y0 < b.y1 + gap && b.y0 < a.y1 + gap;
}

/** The spinners of a chain and the first arm each one's ends open: the hall's word (chain[i].ends),
 * not worked out here (the rules live in the hall). */
function spinnersOf(chain) {
  const ends = new Map(); // chain index -> first of its two end arms
  chain.forEach((t, i) => {
    if (t.ends !== undefined && t.ends !== null) ends.set(i, t.ends);
  });
  return ends;
}

/**
 * Lay out a chain of plays.
 * chain: [{a, b, arm, match, ends}] in play order; the lead has arm null and `match` is its half
 *   facing arm 0; a later play's `match` is its half facing the arm's root; `ends`, on a spinner
 *   only, the first of the two arms its ends open (as the hall numbers them).
 * kind: "line" | "first_double_spinner" | "all_doubles_spinners".
 * box: {w, h}, the box (in units, centred on the lead) the arms try to stay in.
 * Returns {tiles: [{i, a, b, cx, cy, angle, across, spinner, rect}], slot(arm) -> rect|null, bbox}.
 * A tile is drawn with `a` (its half facing the root) first, then rotated by `angle`.
 */
export function layOut(chain, kind, box) {
  // Tight rows first; if some tile found no free place, roomier rows, then a larger box. A prefix
  // that fails keeps failing as the chain grows, so the layout changes style at most a few times.
  const grown = (k) => ({ w: Math.round(box.w * k), h: Math.round(box.h * k) });
  // [box, roomy rows, centred on the first spinner, that spinner kept where it was laid]
  const tries = [
    [box, false, true, true],
    [box, false, true, false],
    [box, true, true, true],
    [box, true, true, false],
    [box, true, false, false],
  ];
  // A box only a little larger first: every unit more makes every tile smaller.
  for (const k of [1.15, 1.3, 1.6]) {
    tries.push([grown(k), true, true, false], [grown(k), true, false, false]);
  }
  tries.push([grown(2), true, true, false]);
  let first = null;
  for (const [b, roomy, reroot, keep] of tries) {
    const lay = layOutWith(chain, kind, b, roomy, reroot, keep);
    if (!lay.crowded) return lay;
    first = first || lay;
  }
  return first;
}

function layOutWith(chain, kind, box, roomyRows, reroot = true, keep = true) {
  // Centred on the first spinner, the layout is turned so that the spinner's arm keeps the
  // heading it had when the spinner was laid: the tiles already down keep their shape.
  const spinners = spinnersOf(chain);
  const root = reroot && spinners.size > 0 ? Math.min(...spinners.keys()) : 0;
  if (root === 0) return layOutFrom(chain, kind, box, roomyRows, 0, spinners);
  const before = layOutFrom(chain.slice(0, root + 1), kind, box, roomyRows, 0, spinnersOf(chain.slice(0, root + 1)));
  const spinner = before.tiles[root];
  const turn = spinner.heading;
  const at = keep ? [spinner.cx, spinner.cy] : [0, 0];
  // The same box, seen from the spinner lying east-west at the origin.
  const centre = turnBy([-at[0], -at[1]], 360 - turn);
  const sideways = (turn / 90) % 2 === 1;
  const frame = { w: sideways ? box.h : box.w, h: sideways ? box.w : box.h, cx: centre[0], cy: centre[1] };
  const lay = layOutFrom(chain, kind, frame, roomyRows, root, spinners);
  return placedBack(lay, turn, at, box);
}

function turnBy([x, y], degrees) {
  for (let k = 0; k < ((degrees / 90) % 4); k++) [x, y] = [-y, x];
  return [x, y];
}

/** A layout made about its root, turned clockwise by `turn` degrees and moved to `at`. */
function placedBack(lay, turn, at, box) {
  const move = (p) => {
    const [x, y] = turnBy(p, turn);
    return [x + at[0], y + at[1]];
  };
  const moveRect = (r) => {
    const [ax, ay] = move([r.x0, r.y0]);
    const [bx, by] = move([r.x1, r.y1]);
    return { x0: Math.min(ax, bx), y0: Math.min(ay, by), x1: Math.max(ax, bx), y1: Math.max(ay, by) };
  };
  const tiles = lay.tiles.map((t) => {
    const [cx, cy] = move([t.cx, t.cy]);
    const angle = (t.angle + turn) % 360;
    const heading = (t.heading + turn) % 360;
    const hop = t.hop && { from: move(t.hop.from), to: move(t.hop.to) };
    return { ...t, cx, cy, angle, heading, rect: moveRect(t.rect), hop };
  });
  return {
    ...lay,
    tiles,
    box,
    bbox: moveRect(lay.bbox),
    slot: (arm) => {
      const r = lay.slot(arm);
      return r && moveRect(r);
    },
    heading: (arm) => {
      const d = lay.heading(arm);
      return d && turnBy(d, turn);
    },
    end: (arm) => {
      const e = lay.end(arm);
      return e && { at: move(e.at), dir: turnBy(e.dir, turn) };
    },
  };
}

function layOutFrom(chain, kind, box, roomyRows, root, spinners) {
  let spinnersLaid = 0;
  const firstSpinner = spinners.size > 0 ? Math.min(...spinners.keys()) : -1;
  let crowded = false;
  // The box's edges (it may be centred away from the root, see layOutWith).
  const cx = box.cx || 0;
  const cy = box.cy || 0;
  const edge = { x0: cx - box.w / 2, x1: cx + box.w / 2, y0: cy - box.h / 2, y1: cy + box.h / 2 };
  const placed = []; // {rect, i}
  const lanes = []; // {rect, arm}: where an arm will first run, kept clear by the other arms
  const arms = new Map(); // arm -> turtle
  const tiles = [];

  // How far a tile would poke out of the box (beyond a little slack).
  const overshoot = (r) =>
    Math.max(
      0,
      edge.x0 - SLACK - r.x0,
      r.x1 - edge.x1 - SLACK,
      edge.y0 - SLACK - r.y0,
      r.y1 - edge.y1 - SLACK,
    );

  const free = (r, arm, attachedTo) =>
    placed.every((p) => p.i === attachedTo || !overlaps(p.rect, r, GAP)) &&
    lanes.every((l) => l.arm === arm || !overlaps(l.rect, r, -0.01));

  // The straight strip an arm would run along from `exit`, up to the box or the first tile.
  const laneOf = (exit, dir, arm, origin) => {
    const extent = same(dir, EAST)
      ? edge.x1 - exit[0]
      : same(dir, WEST)
        ? exit[0] - edge.x0
        : same(dir, SOUTH)
          ? edge.y1 - exit[1]
          : exit[1] - edge.y0;
    let length = Math.max(0, extent);
    const strip = (len) => {
      const far = add(exit, dir, len);
      return {
        x0: Math.min(exit[0], far[0]) - (dir[0] ? 0 : 1),
        x1: Math.max(exit[0], far[0]) + (dir[0] ? 0 : 1),
        y0: Math.min(exit[1], far[1]) - (dir[1] ? 0 : 1),
        y1: Math.max(exit[1], far[1]) + (dir[1] ? 0 : 1),
      };
    };
    for (const p of placed) {
      if (p.i === origin || !overlaps(p.rect, strip(length), -0.01)) continue;
      const r = p.rect;
      const near = same(dir, EAST)
        ? r.x0 - exit[0]
        : same(dir, WEST)
          ? exit[0] - r.x1
          : same(dir, SOUTH)
            ? r.y0 - exit[1]
            : exit[1] - r.y1;
      length = Math.max(0, Math.min(length, near - GAP));
    }
    lanes.push({ rect: strip(length), arm });
  };

  const openArm = (arm, exit, dir, origin) => {
    const turtle = { exit, dir, dir0: dir, run: dir, progress: cw(dir), advancing: false, leg: 0 };
    arms.set(arm, { ...turtle, last: origin });
    laneOf(exit, dir, arm, origin);
  };

  // The places a tile could go next on an arm, best first. A candidate says where the tile lies
  // and what the arm looks like after it.
  const candidates = (t, double, spinner, mayTurn = false) => {
    const out = [];
    const straight = (dir, after, lookahead = false) => {
      // A spinner looks past the tile after it, which can only go straight on.
      const ahead = lookahead ? (spinner ? 2 : 1) : 0;
      if (double) {
        out.push({ c: add(t.exit, dir, 0.5), dir, across: true, exitLen: 1, after, ahead });
        if (!spinner) {
          out.push({ c: add(t.exit, dir, 1), dir, across: false, exitLen: 2, after, ahead });
        }
      } else {
        out.push({ c: add(t.exit, dir, 1), dir, across: false, exitLen: 2, after, ahead });
      }
    };
    const corner = (dir, after) => {
      // A spinner always lies across its arm, and the tile beyond it goes straight on, so that
      // nothing lies across the spinner's ends. But a spinner may be the corner itself: it lies
      // across its arm as ever, the arm goes on from one of its ends and its far side opens one
      // of its two new arms (as players turn a line at a double).
      if (spinner && mayTurn) {
        out.push({ c: add(t.exit, t.dir, 0.5), dir: t.dir, across: true, turn: dir, after });
      }
      if (spinner || t.afterSpinner) return;
      const c = add(add(t.exit, t.dir, 0.5), dir, 0.5);
      out.push({ c, dir, across: false, exitLen: 1.5, corner: true, after });
    };
    if (!t.advancing) {
      // Go straight only while there is still room to turn after this tile.
      straight(t.dir, { advancing: false }, true);
      corner(t.progress, { advancing: true, run: neg(t.run), leg: 0 });
      corner(neg(t.progress), { advancing: true, run: neg(t.run), leg: 0 });
      straight(t.dir, { advancing: false });
    } else {
      // Where a spinner may still come, rows keep room between them for its ends.
      const roomy = roomyRows;
      if (!roomy || t.leg >= 1) corner(t.run, { advancing: false });
      straight(t.dir, { advancing: true, leg: t.leg + 1 });
      corner(neg(t.run), { advancing: false, run: neg(t.run) });
    }
    return out;
  };

  // Whether tiles could still follow a place, `depth` tiles deep: a dead end now would force an
  // overlap later. `extra` are the places assumed taken on the way.
  const room = (turtle, arm, extra, depth) =>
    candidates(turtle, false, false).some((c) => {
      const r = rectAt(c.c, c.dir, c.across);
      const attached = extra[extra.length - 1];
      if (!extra.every((e) => e === attached || !overlaps(r, e, GAP))) return false;
      if (attached && overlaps(r, attached, -0.01)) return false;
      if (!free(r, arm, -1)) return false;
      if (depth <= 1) return true;
      const next = { ...turtle, exit: exitOf(c, turtle), dir: c.dir, afterSpinner: false, ...c.after };
      return room(next, arm, [...extra, r], depth - 1);
    });

  const leavesRoom = (o, t, arm, spinner) => {
    const dir = o.turn || o.dir;
    const next = { ...t, exit: exitOf(o, t), dir, afterSpinner: spinner, ...o.after };
    if (!spinner) return room(next, arm, [o.rect], LOOKAHEAD);
    // A spinner needs room on its far side and at both of its ends.
    const end = ([exit, dir]) => ({
      ...next,
      exit,
      dir,
      run: dir,
      progress: cw(dir),
      advancing: false,
      leg: 0,
      afterSpinner: false,
    });
    return [next, ...spinnerEnds(o).map(end)].every((x) => room(x, arm, [o.rect], LOOKAHEAD));
  };

  // Where the two arms a spinner's ends open start, and the way each runs: the two faces its line
  // does not go on from, in this order: its end on the left, its far side, its end on the right.
  const spinnerEnds = (o) =>
    [ccw(o.dir), o.dir, cw(o.dir)]
      .filter((d) => !same(d, o.turn || o.dir))
      .map((d) => [add(o.c, d, same(d, o.dir) ? 0.5 : 1), d]);

  const choose = (t, arm, double, spinner, look = true, mayTurn = false) => {
    const options = candidates(t, double, spinner, mayTurn).map((o) => ({
      ...o,
      rect: rectAt(o.c, o.dir, o.across),
    }));
    // The first place that is free, inside the box and no dead end; else the free place that
    // pokes out least, dead ends last.
    let best = null;
    for (const o of options) {
      const probe = o.ahead ? grow(o.rect, o.dir, o.ahead) : o.rect;
      // Where every double is a spinner, the next tile may be one, which can only go straight on,
      // and so can the tile after it: a row turns while there is still room for both.
      const spinnersAhead = o.ahead && kind === "all_doubles_spinners";
      const path = spinnersAhead ? grow(o.rect, o.dir, SPINNER_RUN) : probe;
      if (!free(path, arm, t.last)) continue;
      const out = overshoot(probe) + (look && !leavesRoom(o, t, arm, spinner) ? 1000 : 0);
      if (!best || out < best.out - 1e-9) best = { o, out };
      if (out === 0) break;
    }
    if (best) return best.o;
    crowded = true;
    return (look && hop(t, arm, double, spinner)) || options[0];
  };

  // Boxed in: the tile goes to the nearest free place a little way on, and a line joins it to
  // its arm (better than lying on top of another tile).
  const hop = (t, arm, double, spinner) => {
    const across = double && spinner;
    const reach = across ? 0.5 : 1;
    const side = cw(t.dir);
    const spots = [];
    for (let k = 1; k <= 10; k++) {
      for (let m = 0; m <= 4; m++) {
        for (const sign of m === 0 ? [1] : [1, -1]) {
          const c = add(add(t.exit, t.dir, k + reach), side, sign * m);
          spots.push({ c, cost: k + 1.5 * m });
        }
      }
    }
    spots.sort((x, y) => x.cost - y.cost);
    // The joining line should cross no tile; if no place allows that, it may.
    const clear = (from, to) => {
      for (let f = 0.05; f < 1; f += 0.05) {
        const x = from[0] + (to[0] - from[0]) * f;
        const y = from[1] + (to[1] - from[1]) * f;
        if (placed.some((p) => p.i !== t.last && x > p.rect.x0 && x < p.rect.x1 && y > p.rect.y0 && y < p.rect.y1)) {
          return false;
        }
      }
      return true;
    };
    for (const strict of [true, false]) {
      for (const { c } of spots) {
        const rect = rectAt(c, t.dir, across);
        if (!free(grow(rect, neg(t.dir), 0.3), arm, -1)) continue;
        const from = t.exit;
        const to = add(c, t.dir, -reach);
        if (strict && !clear(from, to)) continue;
        return { c, dir: t.dir, across, exitLen: 2 * reach, rect, after: {}, hop: { from, to }, start: to };
      }
    }
    return null;
  };

  const exitOf = (o, t) => {
    if (o.turn) return add(o.c, o.turn, 1);
    if (o.corner) return add(add(t.exit, t.dir, 0.5), o.dir, 1.5);
    return add(t.exit, o.dir, o.exitLen);
  };

  // The root sits in the middle: the lead, or (once there is one) the first spinner, so that
  // its four arms get the room they need. The tiles laid before the spinner then run back from it.
  const steps = [];
  if (root === 0) {
    chain.forEach((play, i) => steps.push({ i, near: play.match, arm: play.arm }));
  } else {
    const k = chain[root].arm;
    const back = 1 - k;
    steps.push({ i: root, near: chain[root].match, arm: null });
    for (let j = root - 1; j > 0; j--) {
      if (chain[j].arm === k) steps.push({ i: j, near: other(chain[j], chain[j].match), arm: back });
    }
    const lead = chain[0];
    steps.push({ i: 0, near: k === 0 ? lead.match : other(lead, lead.match), arm: back });
    for (let j = 1; j < root; j++) {
      if (chain[j].arm === back) steps.push({ i: j, near: chain[j].match, arm: back });
    }
    for (let j = root + 1; j < chain.length; j++) {
      steps.push({ i: j, near: chain[j].match, arm: chain[j].arm });
    }
  }

  for (const { i, near, arm } of steps) {
    const play = chain[i];
    const double = play.a === play.b;
    const spinner = spinners.has(i);
    if (i === root) {
      const across = double;
      const rect = rectAt([0, 0], EAST, across);
      placed.push({ rect, i });
      const angle = across ? 90 : 0;
      tiles.push({ i, a: near, b: other(play, near), cx: 0, cy: 0, angle, heading: 0, across, spinner, rect });
      const reach = across ? 0.5 : 1;
      const west = root === 0 ? 0 : 1 - play.arm;
      openArm(west, [-reach, 0], WEST, i);
      openArm(1 - west, [reach, 0], EAST, i);
      if (spinner) {
        spinnersLaid += 1;
        const first = spinners.get(i);
        openArm(first, [0, -1], NORTH, i);
        openArm(first + 1, [0, 1], SOUTH, i);
      }
      continue;
    }
    const t = arms.get(arm);
    if (!t) throw new Error(`play ${i} is on arm ${arm}, which is not on the table`); // i18n: not shown
    // Every spinner but the first may turn the line (the layout is built around the first).
    const mayTurn = spinner && kind === "all_doubles_spinners" && i !== firstSpinner;
    const o = choose(t, arm, double, spinner, true, mayTurn);
    placed.push({ rect: o.rect, i });
    tiles.push({
      i,
      a: near,
      b: other(play, near),
      cx: o.c[0],
      cy: o.c[1],
      angle: angleOf(o.dir) + (o.across ? 90 : 0),
      heading: angleOf(o.dir),
      across: o.across,
      spinner,
      rect: o.rect,
      hop: o.hop || null,
    });
    const exit = o.hop ? add(o.start, o.dir, o.exitLen) : exitOf(o, t);
    Object.assign(t, { exit, dir: o.turn || o.dir, last: i, afterSpinner: spinner }, o.after);
    if (spinner) {
      spinnersLaid += 1;
      const first = spinners.get(i);
      spinnerEnds(o).forEach(([from, dir], k) => openArm(first + k, from, dir, i));
    }
  }
  tiles.sort((x, y) => x.i - y.i);

  // Where the next tile on an arm would go: the lit end a player can click.
  const slot = (arm) => {
    if (chain.length === 0) return rectAt([0, 0], EAST, false);
    const t = arms.get(arm);
    if (!t) return null;
    return choose(t, arm, false, false, false).rect;
  };

  const bbox = unionOf(tiles, { x0: -1, y0: -1, x1: 1, y1: 1 });
  const heading = (arm) => arms.get(arm)?.dir0 ?? null;
  // Where an arm's open end is: the point its next tile would touch, and the way it would go.
  const end = (arm) => {
    const t = arms.get(arm);
    return t ? { at: t.exit, dir: t.dir } : null;
  };
  return { tiles, slot, bbox, heading, end, crowded, box };
}

function other(play, n) {
  return play.a === n ? play.b : play.a;
}

/** The box the arms should keep to, for a board `width` x `height` pixels: the board's own shape
 * at the largest tile size (at most `LARGEST` px a unit) that still leaves room for a long hand's
 * layout, less a margin for the marks of its ends. A box of the board's shape makes a long line
 * fold into rows down the board instead of running straight across it. */
export function boxFor(width, height, kind) {
  const area = AREA[kind] ?? AREA.line;
  const unit = Math.min(LARGEST, Math.sqrt((Math.max(1, width) * Math.max(1, height)) / area));
  const w = Math.max(7, Math.floor(width / unit - 1));
  const h = Math.max(7, Math.floor(height / unit - 1));
  return { w, h };
}
