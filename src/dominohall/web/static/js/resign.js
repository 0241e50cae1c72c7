// Resigning (docs/protocol.md 4): "Resign this game?" before anything is sent, and at a
// partnership table the partner's question, with the 30 s the hall gives them to answer.
import { useEffect, useRef } from "preact/hooks";
import { html } from "./ui.js";
import { formatSeconds, useCountdown } from "./clock.js";
import { keepFocusIn } from "./handend.js";
import { _ } from "./i18n.js";
import { _html } from "./markup.js";

/** What resigning does at this table, in one sentence. */
function consequence(players, teams, partnerIsPerson) {
  if (teams) {
    return partnerIsPerson
      ? _("Your partner is asked first: the game ends, lost for your team, only if they agree.")
      : _("The game ends, lost for your team.");
  }
  if (players === 2) return _("The game ends and your opponent wins.");
  return _("A computer player takes your seat for the rest of the game, and you are placed last.");
}

/** The confirmation: Resign, or Keep playing (which has the focus: a slip of Enter keeps you in). */
export function ResignConfirm({ players, teams, partnerIsPerson, onResign, onKeep }) {
  const keep = useRef(null);
  useEffect(() => {
    if (keep.current) keep.current.focus({ preventScroll: true });
  }, []);
  const onKeyDown = (e) => {
    if (e.key === "Escape") {
      e.preventDefault();
      onKeep();
    } else keepFocusIn(e);
  };
  return html`<div class="overlay resign-confirm" role="dialog" aria-modal="true"
    aria-labelledby="resign-h" aria-describedby="resign-why" onKeyDown=${onKeyDown}>
    <div class="dialog narrow">
      <h2 id="resign-h">${_("Resign this game?")}</h2>
      <p id="resign-why">${consequence(players, teams, partnerIsPerson)}</p>
      <div class="row spaced">
        <button class="danger resign-yes" onClick=${onResign}>${_("Resign")}</button>
        <button class="primary resign-keep" ref=${keep} onClick=${onKeep}>${_("Keep playing")}</button>
      </div>
    </div>
  </div>`;
}

/** The seconds left to answer a request: from the message that brought it, or from the state. */
function useRequestLeft(request, stateNow, receivedAt) {
  const left = request
    ? request.left !== undefined
      ? request.left
      : Math.max(0, request.deadline - stateNow)
    : null;
  const since = request && request.received !== undefined ? request.received : receivedAt;
  return useCountdown(left, since);
}

/** The asker's wait: "Asking Cid to resign… 24 s". */
export function ResignWaiting({ partner, request, stateNow, receivedAt }) {
  const left = useRequestLeft(request, stateNow, receivedAt);
  const asking = _("Asking your partner {name} to resign…", { name: partner });
  return html`<p class="notice resign-waiting" role="status">${
    left !== null ? _("{words} ({s} s)", { words: asking, s: formatSeconds(left) }) : asking}</p>`;
}

/** The partner's question: Accept (the team concedes) or Decline, with the time left. */
export function ResignAsked({ asker, request, stateNow, receivedAt, onAnswer, busy }) {
  const left = useRequestLeft(request, stateNow, receivedAt);
  const first = useRef(null);
  useEffect(() => {
    if (first.current) first.current.focus({ preventScroll: true });
  }, []);
  const onKeyDown = (e) => {
    if (e.key === "Escape") {
      e.preventDefault();
      onAnswer(false);
    } else keepFocusIn(e);
  };
  const seconds = left !== null && html`<span class="resign-left">${formatSeconds(left)}</span>`;
  return html`<div class="overlay resign-asked" role="alertdialog" aria-modal="true"
    aria-labelledby="resign-asked-h" aria-describedby="resign-asked-why" onKeyDown=${onKeyDown}>
    <div class="dialog narrow">
      <h2 id="resign-asked-h">${_("{name} asks to resign", { name: asker })}</h2>
      <p id="resign-asked-why">${left !== null
        ? _html("If you accept, your team loses this game now. Unanswered, it is declined in {s} s.", { s: seconds })
        : _("If you accept, your team loses this game now. Unanswered, it is declined.")}</p>
      <div class="row spaced">
        <button class="danger resign-accept" disabled=${busy} onClick=${() => onAnswer(true)}>${_("Accept: resign")}</button>
        <button class="primary resign-decline" ref=${first} disabled=${busy} onClick=${() => onAnswer(false)}>${_("Decline: play on")}</button>
      </div>
    </div>
  </div>`;
}
