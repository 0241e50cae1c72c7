// The open challenges (docs/protocol.md 13) along the bottom of every page: one sent to you to
// accept or decline, one you sent to cancel. Loaded only when there is one. Accepted, both
// players' pages open the table (playerchannel.js follows the challenge_over notice there).
import { useState } from "preact/hooks";
import { html } from "./ui.js";
import { api } from "./api.js";
import { offered, poolName, timerOf, timerLabel } from "./choices.js";
import { channel, useMyGames } from "./playerchannel.js";

/** "Draw to 100, Normal (25 s)", "Ranked Draw, real-time". */
export function challengeWords(options) {
  const timer = timerOf(options.timer);
  if (options.ranked) return `ranked ${poolName(options.ranked)}, ${timer && timer.speed === "turn-based" ? "turn-based" : "real-time"}`;
  const preset = offered.presets.find((p) => p.id === options.preset);
  return `${preset ? preset.name : options.preset} to ${options.target}, ${options.seats} players, ${timer ? timerLabel(timer) : options.timer}`;
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
  return html`<section class="challenge-bar" aria-label="Challenges">
    ${error && html`<p class="error" role="alert">${error}</p>`}
    <ul>
      ${challenges.map((c) => html`<li key=${c.id} class="challenge" data-challenge=${c.id}>
        ${c.incoming
          ? html`<span role="status"><b>${c.from.name}</b> challenges you: ${challengeWords(c.options)}</span>
              <button class="primary" onClick=${() => act(c, "accept")}>Accept</button>
              <button onClick=${() => act(c, "decline")}>Decline</button>`
          : html`<span role="status">You challenged <b>${c.to ? c.to.name : "?"}</b>: ${challengeWords(c.options)}. Waiting for an answer…</span>
              <button onClick=${() => act(c, "cancel")}>Cancel</button>`}
      </li>`)}
    </ul>
  </section>`;
}
