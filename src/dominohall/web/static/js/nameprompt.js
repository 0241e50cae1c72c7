// Opening a table's link without a name: see the game and who invites you, pick a nickname (as
// a guest), then sit down.
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "./ui.js";
import { get, post } from "./api.js";
import { timerWords } from "./seating.js";

/** "Draw to 50, hosted by Ann" and the rest of what an invitation says, from a table summary. */
function Invitation({ table }) {
  if (!table) return html`<p class="note" role="status">Looking up the table…</p>`;
  const host = table.host !== null && table.seats[table.host] ? table.seats[table.host].name : null;
  const free = table.free_seats;
  return html`<div class="invitation">
    <p class="invite-game"><strong>${table.preset_name}</strong> to ${table.target} points</p>
    <p class="note">
      ${host ? html`Hosted by <strong>${host}</strong> · ` : ""}${table.seats.length} seats
      (${free === 0 ? "none free" : `${free} free`}) · turn timer ${timerWords(table)}
      ${table.phase !== "seating" ? " · the game has started: you can watch" : ""}
    </p>
  </div>`;
}

export function NamePrompt({ me, tableId, onDone, goHome }) {
  const [name, setName] = useState(me ? me.name : "");
  const [error, setError] = useState(null);
  const [table, setTable] = useState(null);
  const input = useRef(null);
  useEffect(() => {
    get(`/api/tables/${tableId}`)
      .then(({ table }) => setTable(table))
      .catch((e) => setError(e.message));
    if (input.current) input.current.focus();
  }, [tableId]);
  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    try {
      const { player } = await post("/api/guest", { name: name.trim() });
      onDone(player);
    } catch (err) {
      setError(err.message);
    }
  };
  return html`<main class="lobby"><div class="card">
    <h1 class="card-title">You are invited</h1>
    <${Invitation} table=${table} />
    <form onSubmit=${submit}>
      <label for="nick">Your nickname</label>
      <input id="nick" ref=${input} maxlength="20" autocomplete="nickname" value=${name} onInput=${(e) => setName(e.target.value)} />
      <div class="row spaced">
        <button class="primary" type="submit">Continue</button>
        <button type="button" onClick=${goHome}>Back to the hall</button>
      </div>
    </form>
    ${error && html`<p class="error" role="alert">${error}</p>`}
  </div></main>`;
}
