// A table before its start: who sits where, the link to share, computer players, Start.
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "./ui.js";
import { post } from "./api.js";
import { offered, timerOf } from "./choices.js";
import { WatchersToggle } from "./watchersopen.js";
import { _, number } from "./i18n.js";
import { _html } from "./markup.js";
import { levelName, playerName, presetName } from "./names.js";

/** A seat's name in the reader's words: a computer player by its level, a deleted player's.
 * (Here, not in game.js: home's name prompt imports this module, and must not bring the table.) */
export const seatName = (s) => (s.kind === "bot" && s.bot ? levelName(s.bot, s.name) : playerName(s.name));

/** "Normal (25 s a turn)": a table's turn timer in words. */
export function timerWords(table) {
  if (table.speed === "turn-based") {
    return _("Turn-based (+{h} h a turn)", { h: number(Math.round(table.turn_seconds / 3600)) });
  }
  const timer = timerOf(table.timer); // its name is the hall's (GET /api/presets)
  return _("{timer} ({s} s a turn)", { timer: timer ? _(timer.name) : table.timer, s: number(table.turn_seconds) });
}

/** Copy the link, and say so (or say how, where the browser does not allow it). */
const COPIED = "copied"; // i18n: not shown (the answer below shows its words)
async function copyLink(link, input) {
  try {
    await navigator.clipboard.writeText(link);
    return COPIED;
  } catch {
    input.select();
    return document.execCommand && document.execCommand("copy")
      ? COPIED
      : _("Copying was refused: the link is selected, copy it with Ctrl+C (or a long press).");
  }
}

/** Who sits in a seat, for the list: "free", or a name and what it is (computer, host, away). */
function seatWho(s, table) {
  if (s.kind === "empty") return html`<em>${_("free")}</em>`;
  const notes = [s.kind === "bot" && _("(computer)"), s.seat === table.host && _("· host"), s.kind === "human" && !s.connected && _("(away)")];
  return html`<strong>${seatName(s)}</strong>${notes.filter(Boolean).map((w) => " " + w)}`;
}

export function Seating({ state, me, onError, goHome, signInFirst }) {
  const { table, seats, you } = state;
  const [bot, setBot] = useState("normal");
  const [copied, setCopied] = useState(null);
  const share = useRef(null);
  const heading = useRef(null);
  const firstSeat = useRef(null);
  // Focus stays on the page after the nickname: the first free seat, else the table's name.
  useEffect(() => {
    if (document.activeElement && document.activeElement !== document.body) return;
    (firstSeat.current || heading.current)?.focus();
  }, []);
  const isHost = you && you.host;
  const seated = you && you.seat !== null && you.seat !== undefined;
  const link = `${location.origin}/t/${table.id}`;
  const filled = seats.every((s) => s.kind !== "empty");
  const call = (path, body) => post(`/api/tables/${table.id}/${path}`, body).catch((e) => onError(e.message));

  return html`<main class="lobby">
    <div class="card">
      <h1 class="card-title" tabindex="-1" ref=${heading}>${presetName(table.preset, table.preset_name)} <span class="note">${_("to {target}", { target: number(table.target) })}</span></h1>
      <p class="note timer-words">${_("Turn timer: {timer}", { timer: timerWords(table) })}</p>
      <label for="share">${_("Share this link to invite friends")}</label>
      <div class="row">
        <input id="share" ref=${share} readonly value=${link} onFocus=${(e) => e.target.select()} />
        <button class="copy" onClick=${async () => setCopied(await copyLink(link, share.current))}>
          ${copied === COPIED ? _("Copied ✓") : _("Copy link")}
        </button>
      </div>
      <p class="note copied" role="status">${copied === COPIED ? _("Link copied.") : copied || ""}</p>
      <h2>${_("Seats")}</h2>
      <ul class="tables-list" aria-label=${_("Seats")}>
        ${seats.map(
          (s) => html`<li key=${s.seat}>
            <span>
              ${_html("Seat {n}: {who}", { n: s.seat + 1, who: seatWho(s, table) })}
            </span>
            <span class="row fixed">
              ${isHost && s.kind === "empty" &&
              html`<button onClick=${() => call("bots", { seat: s.seat, bot })}>${_("Seat a computer")}</button>`}
              ${isHost && s.kind !== "empty" && s.seat !== you.seat &&
              html`<button onClick=${() => call("remove", { seat: s.seat })}>${_("Remove")}</button>`}
              ${!seated && s.kind === "empty" &&
              html`<button class="primary" ref=${s.seat === seats.find((x) => x.kind === "empty").seat ? firstSeat : null}
                onClick=${() => (me ? call("join", { seat: s.seat }) : signInFirst())}>${_("Sit here")}</button>`}
            </span>
          </li>`,
        )}
      </ul>
      ${isHost &&
      html`<div class="row spaced">
        <label for="bot-level" class="fixed">${_("Computer level")}</label>
        <select id="bot-level" value=${bot} onChange=${(e) => setBot(e.target.value)}>
          ${offered.levels.map((l) => html`<option key=${l.id} value=${l.id}>${levelName(l.id, l.name)}</option>`)}
        </select>
      </div>`}
      <div class="row spaced">
        ${isHost &&
        html`<button class="primary" disabled=${!filled} onClick=${() => call("start")}>${_("Start the game")}</button>`}
        ${!isHost && seated && html`<p>${_("Waiting for the host to start the game…")}</p>`}
        ${seated && html`<button onClick=${() => call("leave").then(goHome)}>${_("Leave")}</button>`}
        ${!seated && html`<button onClick=${goHome}>${_("Back to the hall")}</button>`}
      </div>
      ${isHost && !filled && html`<p class="note">${_("Fill every seat (friends or computers) to start.")}</p>`}
      <${WatchersToggle} table=${table} you=${you} onError=${onError} />
    </div>
  </main>`;
}
