// One WebSocket to a table (docs/protocol.md section 3, protocol 2), which comes back by itself
// when dropped: the hall answers each hello with the whole state, then sends the table's events
// as updates; an update that does not follow the version held asks for the whole state again.
import { _ } from "./i18n.js";

const PING_EVERY = 20000;

export class TableSocket {
  constructor(tableId, { onState, onUpdate, onPresence, onResign, onStatus, onClosed, onChat, onChatError }) {
    this.tableId = tableId;
    this.onState = onState;
    this.onUpdate = onUpdate;
    this.onPresence = onPresence;
    this.onResign = onResign || (() => {});
    this.resyncing = false;
    this.onStatus = onStatus;
    this.onClosed = onClosed;
    this.onChat = onChat || (() => {});
    this.onChatError = onChatError || (() => {});
    this.version = 0;
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map(); // request id -> {resolve, reject}
    this.retries = 0;
    this.stopped = false;
    this.connect();
  }

  connect() {
    if (this.stopped) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws/tables/${this.tableId}`);
    this.ws = ws;
    this.onStatus("connecting");
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", version: this.version }));
    ws.onmessage = (e) => this.receive(JSON.parse(e.data));
    ws.onclose = (e) => {
      clearInterval(this.pinger);
      for (const { reject } of this.pending.values()) {
        reject({ code: "disconnected", message: _("The connection dropped; try again.") });
      }
      this.pending.clear();
      if (this.stopped) return;
      if (e.code === 4404) {
        this.stopped = true;
        this.onClosed(_("There is no table here."));
        return;
      }
      if (e.code === 4403) {
        this.stopped = true;
        this.onClosed(_("This is a private game: only its players can watch it, unless its host lets watchers in."));
        return;
      }
      this.onStatus("reconnecting");
      // Back off a little, but come back quickly after a short drop.
      const wait = Math.min(5000, 300 * 2 ** this.retries);
      this.retries += 1;
      this.timer = setTimeout(() => this.connect(), wait);
    };
  }

  receive(msg) {
    switch (msg.type) {
      case "welcome":
        this.retries = 0;
        this.onStatus("open");
        clearInterval(this.pinger);
        this.pinger = setInterval(() => this.send({ type: "ping" }), PING_EVERY);
        break;
      case "state":
        this.version = msg.version;
        this.resyncing = false;
        this.onState(msg);
        break;
      case "update": {
        if (this.resyncing) break; // the whole state is on its way
        const first = msg.events.length ? msg.events[0].version : this.version + 1;
        if (first !== this.version + 1) {
          this.resyncing = true; // a gap: something was missed
          this.send({ type: "resync" });
          break;
        }
        this.version = msg.version;
        this.onUpdate(msg);
        break;
      }
      case "presence":
      case "watchers": // unversioned: who is connected, how many watch
        this.onPresence(msg);
        break;
      case "resign_asked":
      case "resign_declined": // unversioned: a partnership's resign request, to its team only
        this.onResign(msg);
        break;
      case "chat":
      case "chat_history": // unversioned: the table's version is not the chat's
      case "chat_timed_out": // an operator's time-out of this player (docs/protocol.md 10)
        this.onChat(msg);
        break;
      case "ack":
      case "error": {
        if (typeof msg.id === "string" && msg.id.startsWith("chat-")) {
          this.onChatError(msg); // a chat line has no ack: only a refusal comes back by id
          break;
        }
        const waiter = this.pending.get(msg.id);
        if (!waiter) break;
        this.pending.delete(msg.id);
        if (msg.type === "ack") waiter.resolve(msg);
        else waiter.reject(msg);
        break;
      }
      case "closed":
        this.stopped = true;
        this.onClosed(msg.reason || _("The table closed."));
        break;
      default:
        break; // a type this page does not know (docs/protocol.md 10): ignored
    }
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  /** Send a request and wait for its ack (resolves) or error (rejects with {code, message}). */
  request(msg) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject({ code: "disconnected", message: _("Not connected yet; try again in a moment.") });
        return;
      }
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ ...msg, id }));
    });
  }

  /** Send a chat line; it comes back in the room like everyone's, a refusal to onChatError. */
  say(msg) {
    this.send({ ...msg, id: `chat-${this.nextId++}` });
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close();
  }
}
