// After an aborted ranked game (someone was not there for their first turn): the way on is to look
// for the same game again, not a rematch with the one who was absent (docs/protocol.md 5).
import { useState } from "preact/hooks";
import { html } from "./ui.js";
import { post } from "./api.js";
import { _ } from "./i18n.js";

/** "Look for a game again": the same pool, players and speed; the home page then shows the wait. */
export function LookAgain({ table, players, goHome }) {
  const [error, setError] = useState(null);
  const look = () =>
    post("/api/ranked/queue", { pool: table.ranked, players, speed: table.speed })
      .then(() => goHome())
      .catch((e) => setError(e.message));
  return html`${error && html`<p class="error" role="alert">${error}</p>`}
    <button class="primary look-again" onClick=${look}>${_("Look for a game again")}</button>`;
}
