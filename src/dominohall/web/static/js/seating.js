// A table before its start: who sits where, the link to share, computer players, Start.
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "./ui.js";
import { post } from "./api.js";
import { offered, timerOf } from "./choices.js";
import { WatchersToggle } from "./watchersopen.js";

/** "Normal (25 s a turn)": a table's turn timer in words. */
export function timerWords(table) {
  if (table.speed === "turn-based") {
    return `Turn-based (+${Math.round(table.turn_seconds / 3600)} h a turn)`;
  }
  const timer = timerOf(table.timer); // its name is the hall's (GET /api/presets)
  return `${timer ? timer.name : table.timer} (${table.turn_seconds} s a turn)`;
}

/** Copy the link, and say so (or say how, where the browser does not allow it). */
async function copyLink(link, input) {
  try {
    await navigator.clipboard.writeText(link);
    return "Link copied.";
  } catch {
    input.select();
    return document.execCommand && document.execCommand("copy")
      ? "Link copied."
      : "Copying was refused: the link is selected, copy it with Ctrl+C (or a long press).";
  }
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
      <h1 class="card-title" tabindex="-1" ref=${heading}>${table.preset_name} <span class="note">to ${table.target}</span></h1>
      <p class="note timer-words">Turn timer: ${timerWords(table)}</p>
      <label for="share">Share this link to invite friends</label>
      <div class="row">
        <input id="share" ref=${share} readonly value=${link} onFocus=${(e) => e.target.select()} />
        <button class="copy" onClick=${async () => setCopied(await copyLink(link, share.current))}>
          ${copied === "Link copied." ? "Copied ✓" : "Copy link"}
        </button>
      </div>
      <p class="note copied" role="status">${copied || ""}</p>
      <h2>Seats</h2>
      <ul class="tables-list" aria-label="Seats">
        ${seats.map(
          (s) => html`<li key=${s.seat}>
            <span>
              ${`Seat ${s.seat + 1}: `}${s.kind === "empty"
                ? html`<em>free</em>`
                : html`<strong>${s.name}</strong>${s.kind === "bot" ? " (computer)" : ""}${s.seat === table.host ? " · host" : ""}${s.kind === "human" && !s.connected ? " (away)" : ""}`}
            </span>
            <span class="row fixed">
              ${isHost && s.kind === "empty" &&
              html`<button onClick=${() => call("bots", { seat: s.seat, bot })}>Seat a computer</button>`}
              ${isHost && s.kind !== "empty" && s.seat !== you.seat &&
              html`<button onClick=${() => call("remove", { seat: s.seat })}>Remove</button>`}
              ${!seated && s.kind === "empty" &&
              html`<button class="primary" ref=${s.seat === seats.find((x) => x.kind === "empty").seat ? firstSeat : null}
                onClick=${() => (me ? call("join", { seat: s.seat }) : signInFirst())}>Sit here</button>`}
            </span>
          </li>`,
        )}
      </ul>
      ${isHost &&
      html`<div class="row spaced">
        <label for="bot-level" class="fixed">Computer level</label>
        <select id="bot-level" value=${bot} onChange=${(e) => setBot(e.target.value)}>
          ${offered.levels.map((l) => html`<option key=${l.id} value=${l.id}>${l.name}</option>`)}
        </select>
      </div>`}
      <div class="row spaced">
        ${isHost &&
        html`<button class="primary" disabled=${!filled} onClick=${() => call("start")}>Start the game</button>`}
        ${!isHost && seated && html`<p>Waiting for the host to start the game…</p>`}
        ${seated && html`<button onClick=${() => call("leave").then(goHome)}>Leave</button>`}
        ${!seated && html`<button onClick=${goHome}>Back to the hall</button>`}
      </div>
      ${isHost && !filled && html`<p class="note">Fill every seat (friends or computers) to start.</p>`}
      <${WatchersToggle} table=${table} you=${you} onError=${onError} />
    </div>
  </main>`;
}
