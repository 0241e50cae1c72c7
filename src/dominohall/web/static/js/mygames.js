// The /my-games page (loaded when first opened): every table you sit at, those waiting for you
// first with the time left, live from the player's socket (playerchannel.js); browser
// notifications turned on by a click; email notices (notifications.js).
import { useEffect, useState } from "preact/hooks";
import { html } from "./ui.js";
import { NOTIFY_KEY, useMyGames } from "./playerchannel.js";
import { EmailOutcome, EmailSettings } from "./notifications.js";
import { Frame } from "./frame.js";
import { _, ngettext, number } from "./i18n.js";
import { playerName, presetName } from "./names.js";

function notificationsSupported() {
  return typeof Notification !== "undefined";
}

function notificationsOn() {
  return notificationsSupported() && Notification.permission === "granted" && localStorage.getItem(NOTIFY_KEY) === "on";
}

/** Ask the browser (only ever from a click); true when notifications are on afterwards. */
async function turnNotificationsOn() {
  if (!notificationsSupported()) return false;
  const answer = await Notification.requestPermission();
  if (answer === "granted") localStorage.setItem(NOTIFY_KEY, "on");
  return answer === "granted";
}

// Showing the games --------------------------------------------------------------------------
/** "2 days 3 h", "4 h 12 min", "12 min", "25 s": the time left, as long as it is. */
function timeLeft(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const n = number;
  if (days > 0) return hours ? _("{days} d {h} h", { days: n(days), h: n(hours) }) : _("{days} d", { days: n(days) });
  if (hours > 0) return minutes ? _("{h} h {min} min", { h: n(hours), min: n(minutes) }) : _("{h} h", { h: n(hours) });
  if (minutes > 0) return _("{min} min", { min: n(minutes) });
  return _("{s} s", { s: n(s) });
}

function useTicking(on) {
  const [now, setNow] = useState(performance.now());
  useEffect(() => {
    if (!on) return undefined;
    const timer = setInterval(() => setNow(performance.now()), 1000);
    return () => clearInterval(timer);
  }, [on]);
  return now;
}

function whereItStands(t) {
  if (t.phase === "seating") return ngettext("waiting to start ({n} free seat)", "waiting to start ({n} free seats)", t.free_seats);
  if (t.phase === "between_hands") return _("between hands");
  if (t.turn === null || t.turn === undefined) return _("playing");
  const mover = t.seats[t.turn];
  if (mover && mover.name) return _("{name} to play", { name: playerName(mover.name) });
  return _("Seat {seat} to play", { seat: number(t.turn + 1) });
}

function GameRow({ t, go, left }) {
  const others = t.seats.filter((s) => s.seat !== t.seat).map((s) => (s.name ? playerName(s.name) : _("a free seat")));
  const clock = left !== null ? _("{time} left", { time: timeLeft(left) }) : null;
  const where = t.your_turn
    ? t.phase === "between_hands" ? _("Next hand waits for you") : _("your turn")
    : clock ? _("{state} ({clock})", { state: whereItStands(t), clock }) : whereItStands(t);
  const game = _("{game} to {target}", { game: presetName(t.preset, t.preset_name), target: number(t.target) });
  const withWhom = others.length ? _("with {players}", { players: others.join(", ") }) : _("with no one yet");
  return html`<li key=${t.id} data-table=${t.id} class=${t.your_turn ? "yours" : ""}>
    <span>
      <strong>${game}</strong>${t.ranked ? html` <span class="ranked-tag">${_("· ranked")}</span>` : ""}
      ${t.your_turn && clock && html` <span class="time-left">${clock}</span>`}<br />
      <span class="note">${withWhom} · ${where}</span>
    </span>
    <a class="button-link return" href=${t.link} onClick=${(e) => {
      e.preventDefault();
      go(t.link);
    }}>${t.your_turn ? _("Play") : _("Open")}</a>
  </li>`;
}

function NotificationChoice() {
  const [on, setOn] = useState(notificationsOn());
  const [refused, setRefused] = useState(notificationsSupported() && Notification.permission === "denied");
  if (!notificationsSupported()) {
    return html`<p class="note">${_("This browser cannot show notifications.")}</p>`;
  }
  if (on) {
    return html`<p class="note">${_("This browser notifies you when it is your turn while the page is hidden.")}
      <button onClick=${() => {
        localStorage.removeItem(NOTIFY_KEY);
        setOn(false);
      }}>${_("Stop notifications")}</button></p>`;
  }
  return html`<p class="note">
    <button onClick=${async () => {
      const granted = await turnNotificationsOn();
      setOn(granted);
      setRefused(!granted && Notification.permission === "denied");
    }}>${_("Notify me when it is my turn")}</button>
    ${refused && html` ${_("The browser blocks notifications for this site; allow them in its settings.")}`}
  </p>`;
}

/** The /my-games page: the games waiting for you (most urgent first), then the others. */
export function MyGamesPage({ me, go }) {
  const { tables, receivedAt, status } = useMyGames();
  const now = useTicking(tables !== null && tables.some((t) => t.left !== null));
  const leftOf = (t) => (t.left === null ? null : t.left - (now - receivedAt) / 1000);
  const mine = tables || [];
  const yours = mine.filter((t) => t.your_turn);
  const others = mine.filter((t) => !t.your_turn);
  return html`<${Frame} title=${_("My games")} go=${go} me=${me}>
    <div class="my-games">
    <header><h1>${_("My games")}</h1></header>
    <${EmailOutcome} />
    ${!me && html`<p>${_("Pick a nickname or sign in on the hall's page to play.")}</p>`}
    ${me && status === "reconnecting" && html`<p class="note" role="status">${_("Reconnecting…")}</p>`}
    ${me && tables === null && html`<p role="status">${_("Loading…")}</p>`}
    ${me && tables !== null &&
    html`<div class="cards">
          <section class="card" aria-labelledby="yours-h">
            <h2 id="yours-h">${_("Your turn")} <span class="note">(${yours.length})</span></h2>
            ${yours.length
              ? html`<ul class="tables-list yours-list">
                  ${yours.map((t) => html`<${GameRow} key=${t.id} t=${t} go=${go} left=${leftOf(t)} />`)}
                </ul>`
              : html`<p class="note">${_("No game waits for you.")}</p>`}
          </section>
          <section class="card" aria-labelledby="others-h">
            <h2 id="others-h">${_("Waiting for others")} <span class="note">(${others.length})</span></h2>
            ${others.length
              ? html`<ul class="tables-list others-list">
                  ${others.map((t) => html`<${GameRow} key=${t.id} t=${t} go=${go} left=${leftOf(t)} />`)}
                </ul>`
              : html`<p class="note">${_("None.")}</p>`}
          </section>
          <section class="card" aria-labelledby="notify-h">
            <h2 id="notify-h">${_("Notifications")}</h2>
            <${NotificationChoice} />
            <${EmailSettings} me=${me} />
          </section>
        </div>`}
    </div>
  </${Frame}>`;
}
