// The player's own socket (docs/protocol.md 8), on every page: the list of their games, the
// header's badge with the count waiting for them, that count in the tab title, and a browser
// notification when a turn of theirs begins in a hidden tab (once they allowed it on My games).
import { useEffect, useState } from "preact/hooks";
import { html } from "./ui.js";
import { setWaitingCount } from "./pagetitle.js";

export const NOTIFY_KEY = "dominohall.notify"; // "on": the player asked for notifications here

class PlayerChannel {
  constructor() {
    this.player = null;
    this.retries = 0;
    this.listeners = new Set();
    this.snapshot = { tables: null, yourTurn: 0, receivedAt: 0, status: "closed" };
  }

  /** Follow `player` (null: no one signed in, no socket). */
  follow(player) {
    const id = player ? player.id : null;
    if (id === this.player) return;
    clearTimeout(this.timer);
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close();
      this.ws = null;
    }
    this.player = id;
    this.update({ tables: null, yourTurn: 0, status: id ? "connecting" : "closed" });
    if (id) this.connect();
  }

  connect() {
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws/me`);
    this.ws = ws;
    let pinger = null;
    ws.onopen = () => {
      this.retries = 0;
      pinger = setInterval(() => ws.send('{"type":"ping"}'), 20000);
    };
    ws.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      if (msg.type === "tables") {
        this.update({ tables: msg.tables, yourTurn: msg.your_turn, receivedAt: performance.now(), status: "open" });
      } else if (msg.type === "notice") {
        notifyIfHidden(msg.notice, this.snapshot.tables || []);
      }
    };
    ws.onclose = (e) => {
      clearInterval(pinger);
      if (e.code === 4401) return this.update({ status: "closed" }); // signed out meanwhile
      this.update({ status: "reconnecting" });
      this.timer = setTimeout(() => this.connect(), Math.min(10000, 500 * 2 ** this.retries++));
    };
  }

  update(change) {
    this.snapshot = { ...this.snapshot, ...change };
    setWaitingCount(this.snapshot.yourTurn);
    for (const listener of this.listeners) listener(this.snapshot);
  }
}

export const channel = new PlayerChannel();

/** {tables, yourTurn, receivedAt, status}: the player's games, as the socket last said. */
export function useMyGames() {
  const [snapshot, setSnapshot] = useState(channel.snapshot);
  useEffect(() => {
    setSnapshot(channel.snapshot);
    channel.listeners.add(setSnapshot);
    return () => channel.listeners.delete(setSnapshot);
  }, []);
  return snapshot;
}

const TITLES = {
  your_turn: () => "Your turn",
  reminder: () => "Your clock is running low",
  invitation: (n) => (n.reason === "rematch" ? `${n.from} wants a rematch` : "A game was found for you"),
};

function notifyIfHidden(notice, tables) {
  const title = TITLES[notice.kind];
  if (!document.hidden || !title || typeof Notification === "undefined") return;
  if (Notification.permission !== "granted" || localStorage.getItem(NOTIFY_KEY) !== "on") return;
  const t = tables.find((x) => x.id === notice.table);
  const others = t ? t.seats.filter((s) => s.seat !== t.seat && s.kind === "human").map((s) => s.name) : [];
  const body = t ? `${t.preset_name} to ${t.target}` + (others.length ? ` with ${others.join(", ")}` : "") : "Domino Hall";
  // One per table: a later one (or another tab's copy) replaces it, by its tag.
  const shown = new Notification(title(notice), { body, tag: `dominohall-${notice.table}` });
  shown.onclick = () => {
    window.focus();
    location.assign(`/t/${notice.table}`);
  };
}

/** The header's link to My games, with the count of games waiting for you. */
export function GamesBadge({ go, compact = false }) {
  const { yourTurn, tables } = useMyGames();
  if (tables === null) return null;
  const label = yourTurn === 1 ? "1 game waits for you" : `${yourTurn} games wait for you`;
  return html`<a class=${"games-link" + (compact ? " compact" : "")} href="/my-games" aria-label=${`My games: ${label}`}
    onClick=${(e) => {
      e.preventDefault();
      go("/my-games");
    }}>${compact ? "Games" : "My games"} <span class=${"badge" + (yourTurn > 0 ? " waiting" : "")} data-count=${yourTurn}>${yourTurn}</span></a>`;
}
