// The player's own socket (docs/protocol.md 8) on every page: their games, the header's badge and
// the tab title's count of those waiting for them, notifications once allowed (notify.js).
import { useEffect, useState } from "preact/hooks";
import { html } from "./ui.js";
import { setWaitingCount } from "./pagetitle.js";
import { get } from "./api.js";
import { _, ngettext } from "./i18n.js";

export const NOTIFY_KEY = "dominohall.notify"; // "on": the player asked for notifications here

class PlayerChannel {
  constructor() {
    this.player = null;
    this.retries = 0;
    this.listeners = new Set();
    this.snapshot = { tables: null, yourTurn: 0, receivedAt: 0, status: "closed", challenges: [] };
    this.onAccepted = null; // (table id) => open it: set by the page
  }

  /** Follow `player` (null: no one signed in, no socket). */
  follow(player) {
    const id = player ? player.id : null;
    this.me = player;
    if (id === this.player) return;
    clearTimeout(this.timer);
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close();
      this.ws = null;
    }
    this.player = id;
    this.update({ tables: null, yourTurn: 0, status: id ? "connecting" : "closed", challenges: [] });
    if (id) this.connect();
  }

  connect() {
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws/me`);
    this.ws = ws;
    let pinger = null;
    ws.onopen = () => {
      this.retries = 0;
      // The open challenges as they are now (section 13); the notices keep them after that.
      get("/api/me/challenges")
        .then((mine) => this.update({ challenges: mine.challenges.map((c) => ({ ...c, incoming: Boolean(c.to && this.isMe(c.to)) })) }))
        .catch(() => {});
      pinger = setInterval(() => ws.send('{"type":"ping"}'), 20000);
    };
    ws.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      if (msg.type === "tables") {
        this.update({ tables: msg.tables, yourTurn: msg.your_turn, receivedAt: performance.now(), status: "open" });
      } else if (msg.type === "notice") {
        this.challengeNotice(msg.notice);
        // A tournament's pairing seated you: your next game opens for you (docs/tournaments.md).
        const n = msg.notice;
        if (n.kind === "invitation" && n.reason === "tournament" && n.table && this.onAccepted) this.onAccepted(n.table);
        if (localStorage.getItem(NOTIFY_KEY) === "on" && window.Notification) {
          import("./notify.js").then((m) => m.notify(msg.notice, this.snapshot.tables || []));
        }
      }
    };
    ws.onclose = (e) => {
      clearInterval(pinger);
      if (e.code === 4401) return this.update({ status: "closed" }); // signed out meanwhile
      this.update({ status: "reconnecting" });
      this.timer = setTimeout(() => this.connect(), Math.min(10000, 500 * 2 ** this.retries++));
    };
  }

  isMe(who) {
    return this.me && who.username === this.me.username;
  }

  /** A challenge's notice: one more to answer, or one over (accepted: both go to its table). */
  challengeNotice(n) {
    const open = this.snapshot.challenges;
    if (n.kind === "challenge") {
      const challenge = { id: n.id, from: { username: n.from, name: n.from_name }, options: n.options, expires_at: n.expires_at, incoming: true };
      this.update({ challenges: [...open.filter((c) => c.id !== n.id), challenge] });
    } else if (n.kind === "challenge_over") {
      const had = open.some((c) => c.id === n.id); // (once: the answer and its notice both say it)
      this.update({ challenges: open.filter((c) => c.id !== n.id) });
      if (had && n.outcome === "accepted" && n.table && this.onAccepted) this.onAccepted(n.table);
    }
  }

  /** A challenge this page just sent (POST /api/challenges answered it). */
  sent(challenge) {
    this.update({ challenges: [...this.snapshot.challenges.filter((c) => c.id !== challenge.id), { ...challenge, incoming: false }] });
  }

  update(change) {
    this.snapshot = { ...this.snapshot, ...change };
    setWaitingCount(this.snapshot.yourTurn);
    for (const listener of this.listeners) listener(this.snapshot);
  }
}

export const channel = new PlayerChannel();

/** {tables, yourTurn, receivedAt, status, challenges}: the player's games and open challenges,
 * as the socket last said. */
export function useMyGames() {
  const [snapshot, setSnapshot] = useState(channel.snapshot);
  useEffect(() => {
    setSnapshot(channel.snapshot);
    channel.listeners.add(setSnapshot);
    return () => channel.listeners.delete(setSnapshot);
  }, []);
  return snapshot;
}

/** The header's link to My games, with the count of games waiting for you. */
export function GamesBadge({ go, compact = false }) {
  const { yourTurn, tables } = useMyGames();
  if (tables === null) return null;
  const label = ngettext("My games: {n} game waits for you", "My games: {n} games wait for you", yourTurn);
  return html`<a class=${"games-link" + (compact ? " compact" : "")} href="/my-games" aria-label=${label}
    onClick=${(e) => {
      e.preventDefault();
      go("/my-games");
    }}>${compact ? _("Games") : _("My games")} <span class=${"badge" + (yourTurn > 0 ? " waiting" : "")} data-count=${yourTurn}>${yourTurn}</span></a>`;
}
