// "My games": the player's own socket (docs/protocol.md 8), the badge with the count of games
// waiting for you that every page's header shows, the tab title's count, a browser notification
// when a turn of yours begins in a hidden tab (only once you allowed it), and the /my-games page.
import { useEffect, useState } from "preact/hooks";
import { html } from "./ui.js";
import { setWaitingCount } from "./pagetitle.js";
import { EmailOutcome, EmailSettings } from "./notifications.js";
import { Frame } from "./frame.js";

const PING_EVERY = 20000;
const NOTIFY_KEY = "dominohall.notify"; // "on" once the player asked for notifications here

/** The one player socket of this page; components follow it through useMyGames(). */
class PlayerChannel {
  constructor() {
    this.player = null;
    this.ws = null;
    this.retries = 0;
    this.listeners = new Set();
    this.snapshot = { tables: null, yourTurn: 0, receivedAt: 0, status: "closed" };
  }

  /** Follow `player` (null: no one signed in, no socket). */
  follow(player) {
    const id = player ? player.id : null;
    if (id === this.player) return;
    this.stop();
    this.player = id;
    this.update({ tables: null, yourTurn: 0, status: id ? "connecting" : "closed" });
    if (id) this.connect();
  }

  stop() {
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close();
      this.ws = null;
    }
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws/me`);
    const player = this.player;
    this.ws = ws;
    ws.onopen = () => {
      this.retries = 0;
      this.pinger = setInterval(() => ws.send(JSON.stringify({ type: "ping" })), PING_EVERY);
    };
    ws.onmessage = (e) => this.receive(JSON.parse(e.data));
    ws.onclose = (e) => {
      clearInterval(this.pinger);
      if (this.player !== player) return;
      if (e.code === 4401) {
        this.update({ status: "closed" }); // signed out elsewhere: nothing to follow
        return;
      }
      this.update({ status: "reconnecting" });
      const wait = Math.min(10000, 500 * 2 ** this.retries);
      this.retries += 1;
      this.timer = setTimeout(() => this.connect(), wait);
    };
  }

  receive(msg) {
    if (msg.type === "tables") {
      this.update({
        tables: msg.tables,
        yourTurn: msg.your_turn,
        receivedAt: performance.now(),
        status: "open",
      });
    } else if (msg.type === "notice") {
      notifyIfHidden(msg.notice, this.snapshot.tables || []);
    }
  }

  update(change) {
    this.snapshot = { ...this.snapshot, ...change };
    setWaitingCount(this.snapshot.yourTurn);
    for (const listener of this.listeners) listener(this.snapshot);
  }

  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export const channel = new PlayerChannel();

/** {tables, yourTurn, receivedAt, status}: the player's games, as the socket last said. */
export function useMyGames() {
  const [snapshot, setSnapshot] = useState(channel.snapshot);
  useEffect(() => {
    setSnapshot(channel.snapshot);
    return channel.subscribe(setSnapshot);
  }, []);
  return snapshot;
}

// Browser notifications ---------------------------------------------------------------------
export function notificationsSupported() {
  return typeof Notification !== "undefined";
}

export function notificationsOn() {
  return (
    notificationsSupported() &&
    Notification.permission === "granted" &&
    localStorage.getItem(NOTIFY_KEY) === "on"
  );
}

/** Ask the browser (only ever from a click); true when notifications are on afterwards. */
export async function turnNotificationsOn() {
  if (!notificationsSupported()) return false;
  const answer = await Notification.requestPermission();
  if (answer === "granted") localStorage.setItem(NOTIFY_KEY, "on");
  return answer === "granted";
}

export function turnNotificationsOff() {
  localStorage.removeItem(NOTIFY_KEY);
}

function describe(table) {
  if (!table) return "";
  const others = table.seats
    .filter((s) => s.seat !== table.seat && s.kind === "human")
    .map((s) => s.name);
  return `${table.preset_name} to ${table.target}` + (others.length ? ` with ${others.join(", ")}` : "");
}

function notifyIfHidden(notice, tables) {
  if (!document.hidden || !notificationsOn()) return;
  const table = tables.find((t) => t.id === notice.table);
  let title = null;
  if (notice.kind === "your_turn") title = "Your turn";
  else if (notice.kind === "reminder") title = "Your clock is running low";
  else if (notice.kind === "invitation") title = notice.reason === "rematch" ? `${notice.from} wants a rematch` : "A game was found for you";
  if (!title) return;
  // One notification per table: a later one replaces it (and other tabs' copies) by its tag.
  const shown = new Notification(title, { body: describe(table) || "Domino Hall", tag: `dominohall-${notice.table}` });
  shown.onclick = () => {
    window.focus();
    location.assign(`/t/${notice.table}`);
  };
}

// Showing the games --------------------------------------------------------------------------
/** "2 days 3 h", "4 h 12 min", "12 min", "25 s": the time left, as long as it is. */
export function timeLeft(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  if (days > 0) return hours ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return minutes ? `${hours} h ${minutes} min` : `${hours} h`;
  if (minutes > 0) return `${minutes} min`;
  return `${s} s`;
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

/** The header's link to "My games", with the count of games waiting for you. */
export function GamesBadge({ go, compact = false }) {
  const { yourTurn, tables } = useMyGames();
  if (tables === null) return null;
  const label = yourTurn === 1 ? "1 game waits for you" : `${yourTurn} games wait for you`;
  return html`<a class=${"games-link" + (compact ? " compact" : "")} href="/my-games"
    aria-label=${`My games: ${label}`}
    onClick=${(e) => {
      e.preventDefault();
      go("/my-games");
    }}>
    ${compact ? "Games" : "My games"}
    <span class=${"badge" + (yourTurn > 0 ? " waiting" : "")} data-count=${yourTurn}>${yourTurn}</span>
  </a>`;
}

function whereItStands(t) {
  if (t.phase === "seating") return `waiting to start (${t.free_seats} free seat${t.free_seats === 1 ? "" : "s"})`;
  if (t.phase === "between_hands") return "between hands";
  if (t.turn === null || t.turn === undefined) return "playing";
  const mover = t.seats[t.turn];
  return `${mover && mover.name ? mover.name : "Seat " + (t.turn + 1)} to play`;
}

function GameRow({ t, go, left }) {
  const others = t.seats.filter((s) => s.seat !== t.seat).map((s) => s.name || "a free seat");
  const clock = left !== null ? `${timeLeft(left)} left` : null;
  const where = t.your_turn
    ? t.phase === "between_hands" ? "Next hand waits for you" : "your turn"
    : whereItStands(t) + (clock ? ` (${clock})` : "");
  return html`<li key=${t.id} data-table=${t.id} class=${t.your_turn ? "yours" : ""}>
    <span>
      <strong>${t.preset_name}</strong> to ${t.target}
      ${t.your_turn && clock && html` <span class="time-left">${clock}</span>`}<br />
      <span class="note">with ${others.join(", ") || "no one yet"} · ${where}</span>
    </span>
    <a class="button-link return" href=${t.link} onClick=${(e) => {
      e.preventDefault();
      go(t.link);
    }}>${t.your_turn ? "Play" : "Open"}</a>
  </li>`;
}

function NotificationChoice() {
  const [on, setOn] = useState(notificationsOn());
  const [refused, setRefused] = useState(notificationsSupported() && Notification.permission === "denied");
  if (!notificationsSupported()) {
    return html`<p class="note">This browser cannot show notifications.</p>`;
  }
  if (on) {
    return html`<p class="note">This browser notifies you when it is your turn while the page is hidden.
      <button onClick=${() => {
        turnNotificationsOff();
        setOn(false);
      }}>Stop notifications</button></p>`;
  }
  return html`<p class="note">
    <button onClick=${async () => {
      const granted = await turnNotificationsOn();
      setOn(granted);
      setRefused(!granted && Notification.permission === "denied");
    }}>Notify me when it is my turn</button>
    ${refused && html` The browser blocks notifications for this site; allow them in its settings.`}
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
  return html`<${Frame} title="My games" go=${go} me=${me}>
    <div class="my-games">
    <header><h1>My games</h1></header>
    <${EmailOutcome} />
    ${!me && html`<p>Pick a nickname or sign in on the hall's page to play.</p>`}
    ${me && status === "reconnecting" && html`<p class="note" role="status">Reconnecting…</p>`}
    ${me && tables === null && html`<p role="status">Loading…</p>`}
    ${me && tables !== null &&
    html`<div class="cards">
          <section class="card" aria-labelledby="yours-h">
            <h2 id="yours-h">Your turn <span class="note">(${yours.length})</span></h2>
            ${yours.length
              ? html`<ul class="tables-list yours-list">
                  ${yours.map((t) => html`<${GameRow} key=${t.id} t=${t} go=${go} left=${leftOf(t)} />`)}
                </ul>`
              : html`<p class="note">No game waits for you.</p>`}
          </section>
          <section class="card" aria-labelledby="others-h">
            <h2 id="others-h">Waiting for others <span class="note">(${others.length})</span></h2>
            ${others.length
              ? html`<ul class="tables-list others-list">
                  ${others.map((t) => html`<${GameRow} key=${t.id} t=${t} go=${go} left=${leftOf(t)} />`)}
                </ul>`
              : html`<p class="note">None.</p>`}
          </section>
          <section class="card" aria-labelledby="notify-h">
            <h2 id="notify-h">Notifications</h2>
            <${NotificationChoice} />
            <${EmailSettings} me=${me} />
          </section>
        </div>`}
    </div>
  </${Frame}>`;
}
