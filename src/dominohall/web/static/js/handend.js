// The end of a hand (every hand shown, the winner, the bonus and how it was counted, Next hand)
// and the end of the game (final scores, the record to download).
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { html } from "./ui.js";
import { RatingChanges } from "./ratingchange.js";
import { LookAgain } from "./lookagain.js";
import { TileImage, halvesOf } from "./tile.js";
import { formatSeconds, useCountdown } from "./clock.js";

const BONUS_WORDS = {
  others: "the pips left in the other hands",
  others_r5: "the pips left in the other hands",
  all_units: "all pips left",
  net_units: "opponents' pips",
  net_penalty: "opponents' pips",
  team: "the other team's pips",
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
      const names = b.tied.map(nameOf);
      return `${names.join(" and ")} tie for the fewest pips (${pips[b.tied[0]]} each), so nobody scores the bonus.`;
    }
    case "team_tie":
      return `The two teams tie at ${b.teams[0].pips} pips each (${b.teams.map((t) => teamParts(t, pips, nameOf)).join(", ")}), so nobody scores the bonus.`;
    case "cut_short":
      return "A score reached the target during the hand, which ends the game at once: nobody scores the bonus.";
    case "fewest_pips":
      return `${nameOf(result.winner)} holds the fewest pips (${pips[result.winner]}).`;
    case "fewest_team_pips": {
      const [won, lost] = b.teams[0].seats.includes(result.winner) ? b.teams : [b.teams[1], b.teams[0]];
      return `${won.seats.map(nameOf).join(" and ")} hold fewer pips: ${won.pips} (${teamParts(won, pips, nameOf)}) against ${lost.pips} (${teamParts(lost, pips, nameOf)}).`;
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
  let words = `${BONUS_WORDS[result.bonus_rule] || "the pips"}: ${parts.map((s) => `${nameOf(s)} (${pips[s]})`).join(" + ") || "0"} = ${b.pips}`;
  if (b.own !== null) words += ` − own ${b.own} = ${b.net}`;
  if (b.rounded !== null) words += `, to the nearest five: ${b.rounded}`;
  if (b.units) words += `, divided by 5: ${b.value}`;
  words += ".";
  const penalties = result.breakdown.penalties;
  if (penalties) {
    const lost = penalties.map((p, s) => [s, p]).filter(([, p]) => p > 0);
    words += ` Every other player loses their own pips in fives${lost.length ? ": " + lost.map(([s, p]) => `${nameOf(s)} −${p}`).join(", ") : ""}.`;
  }
  return words;
}

function Revealed({ result, nameOf }) {
  return html`<ul class="reveal">
    ${result.revealed.map(
      (tiles, seat) => html`<li key=${seat}>
        <span class="who">${nameOf(seat)}</span>: ${tiles.length === 0 ? "went out" : `${result.pips[seat]} pips`}
        <span class="note"> · this hand ${result.points[seat] > 0 ? "+" : ""}${result.points[seat]}</span>
        <div class="tiles" role="img" aria-label=${tiles.length ? "Tiles: " + tiles.join(", ") : "no tiles"}>
          ${tiles.map((t) => {
            const [a, b] = halvesOf(t);
            return html`<${TileImage} key=${t} a=${a} b=${b} />`;
          })}
        </div>
      </li>`,
    )}
  </ul>`;
}

function Scores({ seats, nameOf, teams }) {
  if (teams) {
    // Partnership: one row per team, its score once.
    return html`<table class="scores">
      <thead><tr><th>Team</th><th class="num">Score</th></tr></thead>
      <tbody>
        ${[0, 1].map((team) => {
          const members = seats.filter((s) => s.team === team);
          return html`<tr key=${team}>
            <td>Team ${team + 1}: ${members.map((s) => nameOf(s.seat) + (s.out ? " (out)" : "")).join(" and ")}</td>
            <td class="num">${members.length ? members[0].score : 0}</td>
          </tr>`;
        })}
      </tbody>
    </table>`;
  }
  return html`<table class="scores">
    <thead><tr><th>Player</th><th class="num">Score</th></tr></thead>
    <tbody>
      ${seats.map(
        (s) => html`<tr key=${s.seat}>
          <td>${nameOf(s.seat)}${teams ? ` (team ${s.team + 1})` : ""}${s.out ? " (out)" : ""}</td>
          <td class="num">${s.score}</td>
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

const CONTROLS = "button:not([disabled]), a[href], summary, [tabindex='0']";

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
        ? "The game ended mid-hand"
        : "Blocked: no winner"
      : mine
        ? `You ${result.blocked ? "win the blocked hand" : "go out"}`
        : `${nameOf(result.winner)} ${result.blocked ? "wins the blocked hand" : "goes out"}`;
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
      ${ready ? "Waiting for the others…" : "Next hand"}
    </button>`;
  const countdown = html`<span role="timer" aria-live="off">Next hand in ${left === null ? "" : formatSeconds(left)} s</span>`;
  if (hidden) {
    // The layout stays in view; the hand's end comes back with one click.
    return html`<div class="hand-end hand-end-bar" role="region" aria-label="The hand is over" ref=${barRef}>
      <strong>${title}</strong>
      <button onClick=${() => setHidden(false)}>Show the hands</button>
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
      <button class="close" onClick=${() => setHidden(true)} aria-label="Show the table">Show the table</button>
      <h2 id="hand-end-h" tabindex="-1" ref=${ref}>Hand ${hand.number + 1}: ${title}</h2>
      ${result.winner === null || result.winner === undefined
        ? html`<p>${why}</p>`
        : html`<p>
            ${why && html`${why}<br />`}
            Bonus: <strong>${result.bonus}</strong>${how ? html` — ${how}` : ""}
            ${count && count.not_scored === "past_target"
              ? html`<br /><span class="note">Not scored: it would have taken the score past the target.</span>`
              : ""}
          </p>`}
      <${Revealed} result=${result} nameOf=${nameOf} />
      <${Scores} seats=${state.seats} nameOf=${nameOf} teams=${teams} />
      ${next && html`<div class="row">${nextButton}${countdown}</div>`}
    </div>
  </div>`;
}

const OUT_WORDS = {
  timeout: "ran out of time twice",
  left: "left the table",
  disconnected: "lost the connection for over a minute",
  resigned: "resigned",
};

/** The game's end in words: [title, why]. Partnership names both partners of the winning team. */
export function gameEndWords(game, seats, you, nameOf, teams) {
  const out = (seat) => `${nameOf(seat)} ${OUT_WORDS[seats[seat].out_reason] || "went out"}`;
  const lastOut = game.placed_last && game.placed_last.length ? game.placed_last[game.placed_last.length - 1] : null;
  if (game.reason === "abandoned") {
    const why = lastOut === null ? "No person was left at the table." : `${out(lastOut)}, and no person was left at the table.`;
    return ["Game abandoned", why];
  }
  if (game.reason === "aborted") {
    // Ranked: a person not there for their first turn (gone, or its time ran out) ends the game.
    const why = lastOut === null ? "A first turn ran out of time" : `${out(lastOut)} before their first turn`;
    return ["Game aborted", `${why}, so the game ends here, unrated.`];
  }
  if (game.winner === null || game.winner === undefined) {
    return game.reason === "cap" ? ["Game drawn", "Time is up and the highest scores are equal."] : ["Game over", ""];
  }
  const winners = teams ? seats.filter((s) => s.team === seats[game.winner].team).map((s) => s.seat) : [game.winner];
  const won = you !== null && winners.includes(you);
  const forfeit = game.reason === "forfeit";
  const by = forfeit ? " by forfeit" : game.reason === "cap" ? " on time" : "";
  let who;
  if (won) {
    const others = winners.filter((s) => s !== you).map(nameOf);
    who = others.length ? `You and ${others.join(" and ")} win${by}!` : `You win${by}!`;
  } else {
    const names = winners.map(nameOf);
    who = `${names.join(" and ")} ${names.length > 1 ? "win" : "wins"}${by}`;
  }
  let why = forfeit && lastOut !== null ? `${out(lastOut)}.` : "";
  if (forfeit && game.agreed !== undefined && game.agreed !== null) {
    why = `${nameOf(game.resigned)} resigned, and ${nameOf(game.agreed)} agreed.`;
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
    offerWords = `${nameOf(rematch.ended_by)} left: there is no rematch.`;
  } else if (rematch && rematch.table) {
    offerWords = "The rematch is starting…";
  } else if (asked && accepted.includes(you)) {
    offerWords = `Waiting for ${waitingFor.map(nameOf).join(" and ")} to accept the rematch…`;
  } else if (asked && accepted.length) {
    offerWords = `${accepted.map(nameOf).join(" and ")} ${accepted.length > 1 ? "want" : "wants"} a rematch.`;
  }
  return html`<div class="overlay game-end" role="dialog" aria-modal="true" aria-labelledby="game-end-h"
    onKeyDown=${keepFocusIn}>
    <div class="dialog">
      <h2 id="game-end-h" tabindex="-1" ref=${ref}>${title}</h2>
      ${why && html`<p class="why">${why}</p>`}
      <${Scores} seats=${seats} nameOf=${nameOf} teams=${teams} />
      ${game.reason !== "aborted" && html`<${RatingChanges} tableId=${state.table.id} nameOf=${nameOf} />`}
      ${game.reason !== "aborted" && game.placed_last && game.placed_last.length > 0 &&
      html`<p class="note">Placed last: ${game.placed_last.map(nameOf).join(", ")}.</p>`}
      ${hand && hand.result &&
      html`<details><summary>The last hand</summary><${Revealed} result=${hand.result} nameOf=${nameOf} /></details>`}
      ${offerWords && html`<p class="rematch-note" role="status">${offerWords}</p>`}
      <div class="row spaced">
        ${asked && rematch.open && !accepted.includes(you) &&
        html`<button class="primary rematch" onClick=${onRematch}>Rematch</button>`}
        ${lookAgain && html`<${LookAgain} table=${state.table} players=${seats.length} goHome=${goHome} />`}
        ${game.record && html`<a class="button-link record" href=${game.record} download>Download the game record</a>`}
        <button class=${(asked && rematch.open) || lookAgain ? "" : "primary"} onClick=${goHome}>Back to the hall</button>
      </div>
    </div>
  </div>`;
}
