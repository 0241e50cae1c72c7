// The host's control of who watches a private table (docs/protocol.md 2, POST .../watchers):
// the game opened to anyone with the link, or closed to all but its players, at any time.
import { html } from "./ui.js";
import { post } from "./api.js";
import { _ } from "./i18n.js";

export function WatchersToggle({ table, you, onError, compact = false }) {
  if (!you || !you.host || !table.private || table.phase === "finished") return null;
  const open = !!table.open_to_watchers;
  const set = (value) =>
    post(`/api/tables/${table.id}/watchers`, { open: value }).catch((e) => onError(e.message));
  return html`<label class="check watchers-open">
    <input type="checkbox" name="open-to-watchers" checked=${open}
      onChange=${(e) => set(e.target.checked)} />
    ${compact ? _("Let watchers in") : _("Let people with the link watch the game")}
  </label>`;
}
