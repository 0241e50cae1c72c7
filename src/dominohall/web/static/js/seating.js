// A table before its start: who sits where, the link to share, computer players, Start.
import { useState } from "preact/hooks";
import { html } from "./ui.js";
import { post } from "./api.js";

export function Seating({ state, me, onError, goHome, signInFirst }) {
  const { table, seats, you } = state;
  const [bot, setBot] = useState("normal");
  const isHost = you && you.host;
  const seated = you && you.seat !== null && you.seat !== undefined;
  const link = `${location.origin}/t/${table.id}`;
  const filled = seats.every((s) => s.kind !== "empty");
  const call = (path, body) => post(`/api/tables/${table.id}/${path}`, body).catch((e) => onError(e.message));

  return html`<main class="lobby">
    <div class="card">
      <h1 style="margin-top:0">${table.preset_name} <span class="note">to ${table.target}</span></h1>
      <label for="share">Share this link to invite friends</label>
      <div class="row">
        <input id="share" readonly value=${link} onFocus=${(e) => e.target.select()} />
        <button onClick=${() => navigator.clipboard && navigator.clipboard.writeText(link)}>Copy</button>
      </div>
      <h2>Seats</h2>
      <ul class="tables-list" aria-label="Seats">
        ${seats.map(
          (s) => html`<li key=${s.seat}>
            <span>
              ${`Seat ${s.seat + 1}: `}${s.kind === "empty"
                ? html`<em>free</em>`
                : html`<strong>${s.name}</strong>${s.kind === "bot" ? " (computer)" : ""}${s.seat === table.host ? " · host" : ""}${s.kind === "human" && !s.connected ? " (away)" : ""}`}
            </span>
            <span class="row" style="flex:0 0 auto">
              ${isHost && s.kind === "empty" &&
              html`<button onClick=${() => call("bots", { seat: s.seat, bot })}>Seat a computer</button>`}
              ${isHost && s.kind !== "empty" && s.seat !== you.seat &&
              html`<button onClick=${() => call("remove", { seat: s.seat })}>Remove</button>`}
              ${!seated && s.kind === "empty" &&
              html`<button class="primary" onClick=${() => (me ? call("join", { seat: s.seat }) : signInFirst())}>Sit here</button>`}
            </span>
          </li>`,
        )}
      </ul>
      ${isHost &&
      html`<div class="row" style="margin-top:8px">
        <label for="bot-level" style="flex:0 0 auto">Computer level</label>
        <select id="bot-level" value=${bot} onChange=${(e) => setBot(e.target.value)}>
          <option value="easy">Easy</option>
          <option value="normal">Normal</option>
          <option value="hard">Hard</option>
        </select>
      </div>`}
      <div class="row" style="margin-top:12px">
        ${isHost &&
        html`<button class="primary" disabled=${!filled} onClick=${() => call("start")}>Start the game</button>`}
        ${!isHost && seated && html`<p>Waiting for the host to start the game…</p>`}
        ${seated && html`<button onClick=${() => call("leave").then(goHome)}>Leave</button>`}
        ${!seated && html`<button onClick=${goHome}>Back to the hall</button>`}
      </div>
      ${isHost && !filled && html`<p class="note">Fill every seat (friends or computers) to start.</p>`}
    </div>
  </main>`;
}
