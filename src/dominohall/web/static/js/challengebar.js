// The open challenges (docs/protocol.md 13) along the bottom of every page: one sent to you to
// accept or decline, one you sent to cancel. Loaded only when there is one. Accepted, both
// players' pages open the table (playerchannel.js follows the challenge_over notice there).
import { useState } from "preact/hooks";
import { html } from "./ui.js";
import { api } from "./api.js";
import { timerOf } from "./choices.js";
import { _, ngettext } from "./i18n.js";
import { _html, strong } from "./markup.js";
import { poolName, presetName, timerLabel } from "./names.js";
import { channel, useMyGames } from "./playerchannel.js";

/** "Draw to 100, Normal (25 s)", "Ranked Draw, real-time". */
export function challengeWords(options) {
  const timer = timerOf(options.timer);
  if (options.ranked) {
    const pool = poolName(options.ranked);
    return timer && timer.speed === "turn-based" ? _("ranked {pool}, turn-based", { pool }) : _("ranked {pool}, real-time", { pool });
  }
  return ngettext("{game} to {target}, {n} player, {timer}", "{game} to {target}, {n} players, {timer}", options.seats, {
    game: presetName(options.preset),
    target: options.target,
    timer: timer ? timerLabel(timer) : options.timer,
  });
}

export function ChallengeBar() {
  const { challenges } = useMyGames();
  const [error, setError] = useState(null);
  if (!challenges.length) return null;
  const act = (c, what) =>
    api("POST", `/api/challenges/${encodeURIComponent(c.id)}/${what}`)
      .then((answer) => {
        setError(null);
        channel.challengeNotice({ kind: "challenge_over", id: c.id, outcome: answer.state, table: answer.table });
      })
      .catch((e) => setError(e.message));
  return html`<section class="challenge-bar" aria-label=${_("Challenges")}>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    <ul>
      ${challenges.map((c) => html`<li key=${c.id} class="challenge" data-challenge=${c.id}>
        ${c.incoming
          ? html`<span role="status">${_html("{name} challenges you: {game}", { name: strong(c.from.name), game: challengeWords(c.options) })}</span>
              <button class="primary" onClick=${() => act(c, "accept")}>${_("Accept")}</button>
              <button onClick=${() => act(c, "decline")}>${_("Decline")}</button>`
          : html`<span role="status">${_html("You challenged {name}: {game}. Waiting for an answer…", { name: strong(c.to ? c.to.name : "?"), game: challengeWords(c.options) })}</span>
              <button onClick=${() => act(c, "cancel")}>${_("Cancel")}</button>`}
      </li>`)}
    </ul>
  </section>`;
}
