// The end of a hand (every hand shown, the winner, the bonus and how it was counted, Next hand)
// and the end of the game (final scores, the record to download).
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { html } from "./ui.js";
import { RatingChanges } from "./ratingchange.js";
import { LookAgain } from "./lookagain.js";
import { TileImage, halvesOf } from "./tile.js";
import { formatSeconds, useCountdown } from "./clock.js";
import { _, ngettext, number } from "./i18n.js";
import { _html, strong } from "./markup.js";
import { andList } from "./handlog.js";

const N_ = (id) => id; // marked for the catalog; translated where shown

const BONUS_WORDS = {
  others: N_("the pips left in the other hands"),
  others_r5: N_("the pips left in the other hands"),
  all_units: N_("all pips left"),
  net_units: N_("opponents' pips"),
  net_penalty: N_("opponents' pips"),
  team: N_("the other team's pips"),
};

// A team's pips seat by seat: "Ann 3 + Cy 3".
const teamParts = (team, pips, nameOf) => team.seats.map((s) => `${nameOf(s)} ${pips[s]}`).join(" + ");

/** Why the hand ended as it did, in words, from the breakdown the hall sent (docs/protocol.md
 * 3.3): the page counts nothing itself. */
export function explainEnd(result, nameOf) {
  const b = result.breakdown;
  if (!b) return "";
  const pips = result.pips;
  switch (b.why) {
    case "tie": {
      const names = andList(b.tied.map(nameOf));
      return _("{names} tie for the fewest pips ({pips} each), so nobody scores the bonus.", { names, pips: pips[b.tied[0]] });
    }
    case "team_tie":
      return _("The two teams tie at {pips} pips each ({parts}), so nobody scores the bonus.", {
        pips: b.teams[0].pips,
        parts: b.teams.map((t) => teamParts(t, pips, nameOf)).join(", "),
      });
    case "cut_short":
      return _("A score reached the target during the hand, which ends the game at once: nobody scores the bonus.");
    case "fewest_pips":
      return _("{name} holds the fewest pips ({pips}).", { name: nameOf(result.winner), pips: pips[result.winner] });
    case "fewest_team_pips": {
      const [won, lost] = b.teams[0].seats.includes(result.winner) ? b.teams : [b.teams[1], b.teams[0]];
      return _("{names} hold fewer pips: {pips} ({parts}) against {other} ({otherParts}).", {
        names: andList(won.seats.map(nameOf)),
        pips: won.pips,
        parts: teamParts(won, pips, nameOf),
        other: lost.pips,
        otherParts: teamParts(lost, pips, nameOf),
      });
    }
    default:
      return "";
  }
}

/** How the bonus was counted (RULES.md 4), in words, from the hall's breakdown. */
export function explainBonus(result, nameOf) {
  const b = result.breakdown && result.breakdown.bonus;
  if (!b) return "";
  const pips = result.pips;
  const parts = b.counted.filter((s) => pips[s] > 0 || b.counted.length === 1);
  let words = _("{what}: {parts} = {pips}", {
    what: _(BONUS_WORDS[result.bonus_rule] || N_("the pips")),
    parts: parts.map((s) => `${nameOf(s)} (${pips[s]})`).join(" + ") || "0",
    pips: b.pips,
  });
  if (b.own !== null) words = _("{sum} − own {own} = {net}", { sum: words, own: b.own, net: b.net });
  if (b.rounded !== null) words = _("{sum}, to the nearest five: {rounded}", { sum: words, rounded: b.rounded });
  if (b.units) words = _("{sum}, divided by 5: {value}", { sum: words, value: b.value });
  words += ".";
  const penalties = result.breakdown.penalties;
  if (penalties) {
    const lost = penalties.map((p, s) => [s, p]).filter(([, p]) => p > 0);
    words += " " + (lost.length
      ? _("Every other player loses their own pips in fives: {list}.", { list: lost.map(([s, p]) => `${nameOf(s)} −${p}`).join(", ") })
      : _("Every other player loses their own pips in fives."));
  }
  return words;
}

function Revealed({ result, nameOf }) {
  return html`<ul class="reveal">
    ${result.revealed.map(
      (tiles, seat) => html`<li key=${seat}>
        <span class="who">${nameOf(seat)}</span>: ${tiles.length === 0 ? _("went out") : ngettext("{n} pip", "{n} pips", result.pips[seat])}
        <span class="note"> · ${_("this hand {points}", { points: (result.points[seat] > 0 ? "+" : "") + number(result.points[seat]) })}</span>
        <div class="tiles" role="img" aria-label=${tiles.length ? _("Tiles: {tiles}", { tiles: tiles.join(", ") }) : _("no tiles")}>
          ${tiles.map((t) => {
            const [a, b] = halvesOf(t);
            return html`<${TileImage} key=${t} a=${a} b=${b} />`;
          })}
        </div>
      </li>`,
    )}
  </ul>`;
}

const outName = (s, nameOf) => (s.out ? _("{name} (out)", { name: nameOf(s.seat) }) : nameOf(s.seat));

function Scores({ seats, nameOf, teams }) {
  if (teams) {
    // Partnership: one row per team, its score once.
    return html`<table class="scores">
      <thead><tr><th>${_("Team")}</th><th class="num">${_("Score")}</th></tr></thead>
      <tbody>
        ${[0, 1].map((team) => {
          const members = seats.filter((s) => s.team === team);
          return html`<tr key=${team}>
            <td>${_("Team {n}: {names}", { n: team + 1, names: andList(members.map((s) => outName(s, nameOf))) })}</td>
            <td class="num">${number(members.length ? members[0].score : 0)}</td>
          </tr>`;
        })}
      </tbody>
    </table>`;
  }
  return html`<table class="scores">
    <thead><tr><th>${_("Player")}</th><th class="num">${_("Score")}</th></tr></thead>
    <tbody>
      ${seats.map(
        (s) => html`<tr key=${s.seat}>
          <td>${outName(s, nameOf)}</td>
          <td class="num">${number(s.score)}</td>
        </tr>`,
      )}
    </tbody>
  </table>`;
}

function useFocusOnOpen() {
  const ref = useRef(null);
  useEffect(() => {
    if (ref.current) ref.current.focus({ preventScroll: true });
  }, []);
  return ref;
}

const CONTROLS = "button:not([disabled]), a[href], summary, [tabindex='0']"; // i18n: not shown

/** Tab and Shift+Tab go round a modal dialog's own controls: the table behind it is not there
 * for the keyboard, as it is not for the eye (aria-modal). */
export function keepFocusIn(e) {
  if (e.key !== "Tab") return;
  const controls = [...e.currentTarget.querySelectorAll(CONTROLS)];
  if (!controls.length) return;
  const [first, last] = [controls[0], controls[controls.length - 1]];
  const at = document.activeElement;
  const leaving = !e.currentTarget.contains(at) || at === (e.shiftKey ? first : last);
  if (leaving) {
    e.preventDefault();
    (e.shiftKey ? last : first).focus();
  }
}

export function HandEnd({ state, nameOf, receivedAt, onNext, teams }) {
  const { hand, next_hand: next, you } = state;
  const result = hand.result;
  const left = useCountdown(next ? next.left : null, receivedAt);
  const ref = useFocusOnOpen();
  const ready = next && you.seat !== null && next.ready.includes(you.seat);
  const mine = result.winner === you.seat;
  const title =
    result.winner === null || result.winner === undefined
      ? result.cut_short
        ? _("The game ended mid-hand")
        : _("Blocked: no winner")
      : mine
        ? result.blocked ? _("You win the blocked hand") : _("You go out")
        : result.blocked
          ? _("{name} wins the blocked hand", { name: nameOf(result.winner) })
          : _("{name} goes out", { name: nameOf(result.winner) });
  const why = explainEnd(result, nameOf);
  const how = explainBonus(result, nameOf);
  const count = result.breakdown && result.breakdown.bonus;
  const [hidden, setHidden] = useState(false);
  // Folding the dialog away (or back) moves the focus with it; so does pressing Next hand,
  // whose button is then disabled and would drop the focus to the page's end.
  const barRef = useRef(null);
  const folded = useRef(false);
  useLayoutEffect(() => {
    const at = document.activeElement;
    const lost = !at || at === document.body || at.disabled;
    if (hidden === folded.current && !lost) return;
    folded.current = hidden;
    const target = hidden ? barRef.current && barRef.current.querySelector("button") : ref.current;
    if (target) target.focus({ preventScroll: true });
  });
  const nextButton =
    you.seat !== null &&
    html`<button class="primary next-hand" onClick=${onNext} disabled=${ready}>
      ${ready ? _("Waiting for the others…") : _("Next hand")}
    </button>`;
  const countdown = html`<span role="timer" aria-live="off">${_("Next hand in {s} s", { s: left === null ? "" : formatSeconds(left) })}</span>`;
  if (hidden) {
    // The layout stays in view; the hand's end comes back with one click.
    return html`<div class="hand-end hand-end-bar" role="region" aria-label=${_("The hand is over")} ref=${barRef}>
      <strong>${title}</strong>
      <button onClick=${() => setHidden(false)}>${_("Show the hands")}</button>
      ${next && html`${nextButton}${countdown}`}
    </div>`;
  }
  // Escape folds the dialog away, as "Show the table" does.
  const onKeyDown = (e) => {
    if (e.key === "Escape") {
      e.preventDefault();
      setHidden(true);
    } else keepFocusIn(e);
  };
  return html`<div class="overlay hand-end" role="dialog" aria-modal="true" aria-labelledby="hand-end-h"
    onKeyDown=${onKeyDown}>
    <div class="dialog">
      <button class="close" onClick=${() => setHidden(true)} aria-label=${_("Show the table")}>${_("Show the table")}</button>
      <h2 id="hand-end-h" tabindex="-1" ref=${ref}>${_("Hand {n}: {title}", { n: hand.number + 1, title })}</h2>
      ${result.winner === null || result.winner === undefined
        ? html`<p>${why}</p>`
        : html`<p>
            ${why && html`${why}<br />`}
            ${_html("Bonus: {points}", { points: strong(result.bonus) })}${how ? html` — ${how}` : ""}
            ${count && count.not_scored === "past_target"
              ? html`<br /><span class="note">${_("Not scored: it would have taken the score past the target.")}</span>`
              : ""}
          </p>`}
      <${Revealed} result=${result} nameOf=${nameOf} />
      <${Scores} seats=${state.seats} nameOf=${nameOf} teams=${teams} />
      ${next && html`<div class="row">${nextButton}${countdown}</div>`}
    </div>
  </div>`;
}

const OUT_WORDS = {
  timeout: N_("{name} ran out of time twice"),
  left: N_("{name} left the table"),
  disconnected: N_("{name} lost the connection for over a minute"),
  resigned: N_("{name} resigned"),
};

/** One of three sentences by how the game was won: [plainly, by forfeit, on time]. */
function byWords(game, [plain, forfeit, onTime], values) {
  const id = game.reason === "forfeit" ? forfeit : game.reason === "cap" ? onTime : plain;
  return _(id, values);
}

/** The game's end in words: [title, why]. Partnership names both partners of the winning team. */
export function gameEndWords(game, seats, you, nameOf, teams) {
  const out = (seat) => _(OUT_WORDS[seats[seat].out_reason] || N_("{name} went out"), { name: nameOf(seat) });
  const lastOut = game.placed_last && game.placed_last.length ? game.placed_last[game.placed_last.length - 1] : null;
  if (game.reason === "abandoned") {
    const why = lastOut === null ? _("No person was left at the table.") : _("{out}, and no person was left at the table.", { out: out(lastOut) });
    return [_("Game abandoned"), why];
  }
  if (game.reason === "aborted") {
    // Ranked: a person not there for their first turn (gone, or its time ran out) ends the game.
    const why = lastOut === null
      ? _("A first turn ran out of time, so the game ends here, unrated.")
      : _("{out} before their first turn, so the game ends here, unrated.", { out: out(lastOut) });
    return [_("Game aborted"), why];
  }
  if (game.winner === null || game.winner === undefined) {
    return game.reason === "cap" ? [_("Game drawn"), _("Time is up and the highest scores are equal.")] : [_("Game over"), ""];
  }
  const winners = teams ? seats.filter((s) => s.team === seats[game.winner].team).map((s) => s.seat) : [game.winner];
  const won = you !== null && winners.includes(you);
  const forfeit = game.reason === "forfeit";
  let who;
  if (won) {
    const others = winners.filter((s) => s !== you).map(nameOf);
    who = others.length
      ? byWords(game, [N_("You and {names} win!"), N_("You and {names} win by forfeit!"), N_("You and {names} win on time!")], { names: andList(others) })
      : byWords(game, [N_("You win!"), N_("You win by forfeit!"), N_("You win on time!")]);
  } else {
    const names = winners.map(nameOf);
    who = names.length > 1
      ? byWords(game, [N_("{names} win"), N_("{names} win by forfeit"), N_("{names} win on time")], { names: andList(names) })
      : byWords(game, [N_("{name} wins"), N_("{name} wins by forfeit"), N_("{name} wins on time")], { name: names[0] });
  }
  let why = forfeit && lastOut !== null ? `${out(lastOut)}.` : "";
  if (forfeit && game.agreed !== undefined && game.agreed !== null) {
    why = _("{name} resigned, and {partner} agreed.", { name: nameOf(game.resigned), partner: nameOf(game.agreed) });
  }
  return [who, why];
}

export function GameEnd({ state, nameOf, teams, goHome, onRematch }) {
  const { game, hand, seats, rematch } = state;
  const ref = useFocusOnOpen();
  const you = state.you ? state.you.seat : null;
  const [title, why] = gameEndWords(game, seats, you, nameOf, teams);
  const asked = rematch && you !== null && rematch.people.includes(you);
  const lookAgain = game.reason === "aborted" && state.table.ranked && you !== null;
  const accepted = rematch ? rematch.accepted : [];
  const waitingFor = rematch ? rematch.people.filter((s) => !accepted.includes(s)) : [];
  let offerWords = "";
  if (rematch && rematch.ended_by !== null && rematch.ended_by !== undefined) {
    offerWords = _("{name} left: there is no rematch.", { name: nameOf(rematch.ended_by) });
  } else if (rematch && rematch.table) {
    offerWords = _("The rematch is starting…");
  } else if (asked && accepted.includes(you)) {
    offerWords = _("Waiting for {names} to accept the rematch…", { names: andList(waitingFor.map(nameOf)) });
  } else if (asked && accepted.length) {
    offerWords = accepted.length > 1
      ? _("{names} want a rematch.", { names: andList(accepted.map(nameOf)) })
      : _("{name} wants a rematch.", { name: nameOf(accepted[0]) });
  }
  return html`<div class="overlay game-end" role="dialog" aria-modal="true" aria-labelledby="game-end-h"
    onKeyDown=${keepFocusIn}>
    <div class="dialog">
      <h2 id="game-end-h" tabindex="-1" ref=${ref}>${title}</h2>
      ${why && html`<p class="why">${why}</p>`}
      <${Scores} seats=${seats} nameOf=${nameOf} teams=${teams} />
      ${game.reason !== "aborted" && html`<${RatingChanges} tableId=${state.table.id} nameOf=${nameOf} />`}
      ${game.reason !== "aborted" && game.placed_last && game.placed_last.length > 0 &&
      html`<p class="note">${_("Placed last: {names}.", { names: game.placed_last.map(nameOf).join(", ") })}</p>`}
      ${hand && hand.result &&
      html`<details><summary>${_("The last hand")}</summary><${Revealed} result=${hand.result} nameOf=${nameOf} /></details>`}
      ${offerWords && html`<p class="rematch-note" role="status">${offerWords}</p>`}
      <div class="row spaced">
        ${asked && rematch.open && !accepted.includes(you) &&
        html`<button class="primary rematch" onClick=${onRematch}>${_("Rematch")}</button>`}
        ${lookAgain && html`<${LookAgain} table=${state.table} players=${seats.length} goHome=${goHome} />`}
        ${game.record && html`<a class="button-link record" href=${game.record} download>${_("Download the game record")}</a>`}
        <button class=${(asked && rematch.open) || lookAgain ? "" : "primary"} onClick=${goHome}>${_("Back to the hall")}</button>
      </div>
    </div>
  </div>`;
}
