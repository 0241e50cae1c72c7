// Opening a table's link without a name: see the game and who invites you, pick a nickname (as
// a guest), and sit down in the same step.
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "./ui.js";
import { get, post } from "./api.js";
import { timerWords } from "./seating.js";
import { offered } from "./choices.js";
import { _, ngettext } from "./i18n.js";
import { _html, strong } from "./markup.js";
import { presetName } from "./names.js";

/** Said under a name's field as soon as it is longer than the hall allows (`kind`: "name" or
 * "username", GET /api/presets `lengths`). The field itself never cuts it short, so that a
 * pasted name is not silently clipped. */
export function NameLength({ name, id, kind = "name" }) {
  const [, most] = offered.lengths[kind];
  const length = [...name.trim()].length;
  if (length <= most) return null;
  const words = kind === "username"
    ? _("A username has at most {most} characters; this one has {length}.", { most, length })
    : _("A nickname has at most {most} characters; this one has {length}.", { most, length });
  return html`<p class="error name-length" id=${id} role="alert">${words}</p>`;
}

/** "Draw to 50, hosted by Ann" and the rest of what an invitation says, from a table summary. */
function Invitation({ table }) {
  if (!table) return html`<p class="note" role="status">${_("Looking up the table…")}</p>`;
  const host = table.host !== null && table.seats[table.host] ? table.seats[table.host].name : null;
  const free = table.free_seats;
  return html`<div class="invitation">
    <p class="invite-game">${_html("{game} to {target} points", { game: strong(presetName(table.preset, table.preset_name)), target: table.target })}</p>
    <p class="note">
      ${host ? [_html("Hosted by {host}", { host: strong(host) }), " · "] : ""}${ngettext("{n} seat", "{n} seats", table.seats.length)}
      (${free === 0 ? _("none free") : ngettext("{n} free", "{n} free", free)}) · ${_("turn timer {timer}", { timer: timerWords(table) })}
      ${table.phase !== "seating" ? ` · ${_("the game has started: you can watch")}` : ""}
    </p>
  </div>`;
}

/** Whether a friend who gives a name sits down at once: a table still seating with a free seat. */
const canSit = (table) => !!table && table.phase === "seating" && table.free_seats > 0;

export function NamePrompt({ me, tableId, onDone, goHome }) {
  const [name, setName] = useState(me ? me.name : "");
  const [error, setError] = useState(null);
  const [table, setTable] = useState(null);
  const [missing, setMissing] = useState(null); // why the table cannot be shown
  const input = useRef(null);
  useEffect(() => {
    get(`/api/tables/${tableId}`)
      .then(({ table }) => setTable(table))
      .catch((e) => setMissing(e.code === "no_table" ? _("There is no table at this link: it may have closed, or the link is incomplete.") : e.message));
    if (input.current) input.current.focus();
  }, [tableId]);
  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    let player;
    try {
      ({ player } = await post("/api/guest", { name: name.trim() }));
    } catch (err) {
      setError(err.message);
      return;
    }
    // One step for a friend: the name, then straight into the first free seat. Should the seat
    // have gone meanwhile, the table's seats show what is left.
    if (canSit(table)) await post(`/api/tables/${tableId}/join`, {}).catch(() => {});
    onDone(player);
  };
  if (missing) {
    return html`<main class="lobby"><div class="card">
      <h1 class="card-title">${_("Table not found")}</h1>
      <p class="error" role="alert">${missing}</p>
      <div class="row spaced"><button class="primary" onClick=${goHome}>${_("Back to the hall")}</button></div>
    </div></main>`;
  }
  return html`<main class="lobby"><div class="card">
    <h1 class="card-title">${_("You are invited")}</h1>
    <${Invitation} table=${table} />
    <form onSubmit=${submit}>
      <label for="nick">${_("Your nickname")}</label>
      <input id="nick" ref=${input} autocomplete="nickname" value=${name} onInput=${(e) => setName(e.target.value)} />
      <${NameLength} name=${name} id="nick-length" />
      <div class="row spaced">
        <button class="primary" type="submit">${canSit(table) ? _("Sit down") : _("Continue")}</button>
        <button type="button" onClick=${goHome}>${_("Back to the hall")}</button>
      </div>
    </form>
    ${error && html`<p class="error" role="alert">${error}</p>`}
  </div></main>`;
}
