// The hand so far in words: who played what on which number and scored what, who drew how many,
// who passed on which ends (S2's tips depend on remembering that). The numbers come from the
// hall: a play's half facing its arm, a pass's open numbers (`open`); nothing is worked out here.
import { halvesOf } from "./tile.js";
import { _, ngettext } from "./i18n.js";

const N_ = (id) => id; // marked for the catalog; translated where used

/** "5, 3 and 2": numbers in words. */
export function listWords(numbers) {
  const uniq = [...new Set(numbers)].sort((x, y) => x - y);
  if (uniq.length <= 1) return String(uniq[0] ?? _("nothing"));
  return _("{list} and {last}", { list: uniq.slice(0, -1).join(", "), last: uniq[uniq.length - 1] });
}

/** Names joined as a list: "Ann, Bob and Cy". */
export const andList = (names) =>
  names.length <= 1 ? names.join("") : _("{list} and {last}", { list: names.slice(0, -1).join(", "), last: names[names.length - 1] });

/**
 * Lines of the hand's log, oldest first: [{key, text, kind}].
 * log: state.hand.log; chain: the normalised layout chain; nameOf(seat); me: your seat.
 */
export function logLines(log, chain, nameOf, me) {
  // "You play", "Bob plays": a sentence for each, as the verb agrees with its subject.
  const says = (seat, yours, theirs, values) => (seat === me ? _(yours, values) : _(theirs, { name: nameOf(seat), ...values }));
  const lines = [];
  let laid = 0; // tiles down before this event
  for (const e of log) {
    if (e.kind === "dealt") {
      const hand = e.hand + 1;
      const text = e.leader === me ? _("Hand {hand}: you lead.", { hand }) : _("Hand {hand}: {name} leads.", { hand, name: nameOf(e.leader) });
      lines.push({ key: e.version, kind: "dealt", text });
      continue;
    }
    if (e.kind === "hand_over") {
      const r = e.result || {};
      let text;
      if (r.winner === null || r.winner === undefined) {
        text = r.blocked ? _("Blocked: a tie for fewest pips, nobody scores.") : _("The hand is over.");
      } else if (r.blocked) {
        text = r.bonus
          ? says(r.winner, N_("You win the blocked hand and score {points}."), N_("{name} wins the blocked hand and scores {points}."), { points: r.bonus })
          : says(r.winner, N_("You win the blocked hand."), N_("{name} wins the blocked hand."));
      } else {
        text = r.bonus
          ? says(r.winner, N_("You go out and score {points}."), N_("{name} goes out and scores {points}."), { points: r.bonus })
          : says(r.winner, N_("You go out."), N_("{name} goes out."));
      }
      lines.push({ key: e.version, kind: "over", text });
      continue;
    }
    if (e.kind !== "move") continue;
    // What follows a move's sentence: its points, and that the clock played it.
    const tail = (text) => {
      if (e.scored) text = ngettext("{line}, scores {n}", "{line}, scores {n}", e.scored, { line: text });
      if (e.by === "timer") text = _("{line} (time ran out)", { line: text });
      return text + ".";
    };
    if (e.play) {
      const [a, b] = halvesOf(e.play);
      const tile = `${a}-${b}`;
      let text;
      if (e.arm === undefined || e.arm === null) {
        text = says(e.seat, N_("You lead {tile}"), N_("{name} leads {tile}"), { tile });
      } else {
        const on = chain[laid] ? chain[laid].match : null;
        text = on === null || laid === 0
          ? says(e.seat, N_("You play {tile}"), N_("{name} plays {tile}"), { tile })
          : says(e.seat, N_("You play {tile} on a {number}"), N_("{name} plays {tile} on a {number}"), { tile, number: on });
      }
      lines.push({ key: e.version, kind: "play", text: tail(text) });
      laid += 1;
    } else if (e.draw !== undefined) {
      const last = lines[lines.length - 1];
      const mine = typeof e.draw === "string" && e.seat === me;
      if (last && last.kind === "draw" && last.seat === e.seat) {
        last.count += 1;
        if (mine) last.tiles.push(e.draw);
        last.text = drawText(e.seat === me ? null : nameOf(e.seat), last.count, last.tiles);
      } else {
        const tiles = mine ? [e.draw] : [];
        lines.push({ key: e.version, kind: "draw", seat: e.seat, count: 1, tiles, text: drawText(e.seat === me ? null : nameOf(e.seat), 1, tiles) });
      }
    } else if (e.pass) {
      const ends = e.open || [];
      const text = ends.length
        ? says(e.seat, N_("You pass on {numbers}"), N_("{name} passes on {numbers}"), { numbers: listWords(ends) })
        : says(e.seat, N_("You pass"), N_("{name} passes"));
      lines.push({ key: e.version, kind: "pass", text: tail(text) });
    }
  }
  return lines;
}

/** "Bob draws 3 tiles." (name null: you), with the tiles when they are yours. */
function drawText(name, count, tiles) {
  const text = name === null
    ? ngettext("You draw a tile", "You draw {n} tiles", count)
    : ngettext("{name} draws a tile", "{name} draws {n} tiles", count, { name });
  return (tiles.length ? _("{line} ({tiles})", { line: text, tiles: tiles.join(", ") }) : text) + ".";
}
