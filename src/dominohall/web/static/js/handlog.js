// The hand so far in words: who played what on which number and scored what, who drew how many,
// who passed on which ends (S2's tips depend on remembering that). The numbers come from the
// hall: a play's half facing its arm, a pass's open numbers (`open`); nothing is worked out here.
import { halvesOf } from "./tile.js";

function listWords(numbers) {
  const uniq = [...new Set(numbers)].sort((x, y) => x - y);
  if (uniq.length <= 1) return String(uniq[0] ?? "nothing");
  return uniq.slice(0, -1).join(", ") + " and " + uniq[uniq.length - 1];
}

/**
 * Lines of the hand's log, oldest first: [{key, text, kind}].
 * log: state.hand.log; chain: the normalised layout chain; nameOf(seat); me: your seat.
 */
export function logLines(log, chain, nameOf, me) {
  // "You play", "Bob plays": the subject and its verb agree.
  const says = (seat, verb, yours) => (seat === me ? `You ${yours}` : `${nameOf(seat)} ${verb}`);
  const lines = [];
  let laid = 0; // tiles down before this event
  for (const e of log) {
    if (e.kind === "dealt") {
      lines.push({ key: e.version, kind: "dealt", text: `Hand ${e.hand + 1}: ${says(e.leader, "leads", "lead")}.` });
      continue;
    }
    if (e.kind === "hand_over") {
      const r = e.result || {};
      const mine = r.winner === me;
      const text =
        r.winner === null || r.winner === undefined
          ? r.blocked
            ? "Blocked: a tie for fewest pips, nobody scores."
            : "The hand is over."
          : (r.blocked
              ? says(r.winner, "wins the blocked hand", "win the blocked hand")
              : says(r.winner, "goes out", "go out")) +
            (r.bonus ? ` and ${mine ? "score" : "scores"} ${r.bonus}.` : ".");
      lines.push({ key: e.version, kind: "over", text });
      continue;
    }
    if (e.kind !== "move") continue;
    const who = (verb, yours) => says(e.seat, verb, yours);
    const by = e.by === "timer" ? " (time ran out)" : "";
    if (e.play) {
      const [a, b] = halvesOf(e.play);
      const scored = e.scored ? `, scores ${e.scored}` : "";
      if (e.arm === undefined || e.arm === null) {
        lines.push({ key: e.version, kind: "play", text: `${who("leads", "lead")} ${a}-${b}${scored}${by}.` });
      } else {
        const on = chain[laid] ? chain[laid].match : null;
        const where = on === null || laid === 0 ? "" : ` on a ${on}`;
        lines.push({ key: e.version, kind: "play", text: `${who("plays", "play")} ${a}-${b}${where}${scored}${by}.` });
      }
      laid += 1;
    } else if (e.draw !== undefined) {
      const last = lines[lines.length - 1];
      const mine = typeof e.draw === "string" && e.seat === me;
      if (last && last.kind === "draw" && last.seat === e.seat) {
        last.count += 1;
        if (mine) last.tiles.push(e.draw);
        last.text = drawText(who("draws", "draw"), last.count, last.tiles);
      } else {
        const tiles = mine ? [e.draw] : [];
        lines.push({ key: e.version, kind: "draw", seat: e.seat, count: 1, tiles, text: drawText(who("draws", "draw"), 1, tiles) });
      }
    } else if (e.pass) {
      const ends = e.open || [];
      const on = ends.length ? ` on ${listWords(ends)}` : "";
      lines.push({ key: e.version, kind: "pass", text: `${who("passes", "pass")}${on}${by}.` });
    }
  }
  return lines;
}

function drawText(subjectVerb, count, tiles) {
  const what = count === 1 ? "a tile" : `${count} tiles`;
  return `${subjectVerb} ${what}` + (tiles.length ? ` (${tiles.join(", ")})` : "") + ".";
}
