// The page's copy of its table (docs/protocol.md 3.2): the whole state when the hall sends one,
// then each update applied to it. Every part an update changes is a new object, so that what
// the screen memoises on (the layout, the seats) is recomputed, and the rest is kept.

const PARTS = ["table", "you", "seats", "next_hand", "game", "rematch", "clock", "turn_based"];

/** The state after `update` (a message of type "update"); `state` is left as it was. */
export function applyUpdate(state, update) {
  const next = { ...state };
  for (const part of PARTS) {
    if (part in update) next[part] = update[part];
  }
  if (update.counts || update.scores) {
    next.seats = next.seats.map((seat, i) => ({
      ...seat,
      tiles: update.counts ? update.counts[i] : seat.tiles,
      score: update.scores ? update.scores[i] : seat.score,
    }));
  }
  const patch = update.hand;
  if (patch && state.hand) {
    const { layout, ...rest } = patch;
    const hand = { ...state.hand, ...rest };
    if (layout) hand.layout = applyLayout(state.hand.layout, layout);
    const logged = update.events.filter((e) => e.kind === "move" || e.kind === "hand_over");
    if (logged.length) hand.log = [...(state.hand.log || []), ...logged];
    next.hand = hand;
  }
  return next;
}

/** Whether the seat's copy became present or away (a "presence" message), or how many watch
 * now (a "watchers" message). */
export function applyPresence(state, { type, seat, connected, count }) {
  if (type === "watchers") return { ...state, watchers: count };
  if (!state.seats || !state.seats[seat]) return state;
  const seats = state.seats.map((s, i) => (i === seat ? { ...s, connected } : s));
  return { ...state, seats };
}

/** The state after a resign request's news (protocol 3.2): `you.resign` set, or cleared. */
export function applyResign(state, msg) {
  if (!state.you) return state;
  const { type, ...request } = msg;
  // (its time left counts from now: the page's clock, not the hall's deadline)
  const asked = type === "resign_asked" ? { ...request, left: request.seconds, received: performance.now() } : null;
  return { ...state, you: { ...state.you, resign: asked } };
}

/** The layout after the tiles an update laid: new arms, the tiles, the open ends now. */
function applyLayout(layout, { laid, arms, open_ends: openEnds }) {
  const byArm = new Map();
  const all = [...layout.arms, ...arms.map((a) => ({ ...a, tiles: [], open: false, end: null }))];
  const out = all.map((a) => {
    const copy = { ...a, tiles: [...a.tiles] };
    byArm.set(copy.arm, copy);
    return copy;
  });
  const chain = [...layout.chain];
  let lead = layout.lead;
  for (const t of laid) {
    chain.push({ tile: t.tile, arm: t.arm, facing: t.facing });
    if (t.arm === null) {
      lead = { tile: t.tile, first: t.facing, spinner: t.spinner };
    } else {
      const { arm, ...tile } = t;
      byArm.get(arm).tiles.push(tile);
    }
  }
  const ends = new Map(openEnds.map((e) => [e.arm, e.number]));
  for (const a of out) {
    a.open = ends.has(a.arm);
    a.end = a.open ? ends.get(a.arm) : null;
  }
  return { lead, arms: out, open_ends: openEnds, chain };
}
