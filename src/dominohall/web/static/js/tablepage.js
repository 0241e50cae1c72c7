// A table at /t/{id}: its WebSocket, and the screen for its phase (seats, or the game).
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "./ui.js";
import { TableSocket } from "./socket.js";
import { Seating } from "./seating.js";
import { Game } from "./game.js";
import { applyPresence, applyResign, applyUpdate } from "./tablestate.js";
import { GamesBadge } from "./playerchannel.js";
import { _ } from "./i18n.js";
import { LanguageSwitch } from "./langswitch.js";

const CHAT_KEPT = 100; // chat lines held; older ones scroll away for good

/** The chat's lines after a chat message: the room's last lines replace, a new line is added. */
function withChat(held, msg) {
  if (msg.type === "chat_timed_out") return { ...held, timedOut: { until: msg.until, reason: msg.reason } };
  if (msg.type === "chat_history") return { ...held, room: msg.room, lines: msg.lines };
  // A line of another room than the one held: this socket's room changed (a seat taken or lost).
  const lines = held.room === msg.room ? held.lines : [];
  if (lines.some((l) => l.id === msg.id)) return held;
  return { ...held, room: msg.room, lines: [...lines, msg].slice(-CHAT_KEPT) };
}

export function TablePage({ tableId, me, presets, goHome, go, signInFirst }) {
  const [msg, setMsg] = useState(null); // {version, state}: the state with every update applied
  const [receivedAt, setReceivedAt] = useState(0);
  const [status, setStatus] = useState("connecting");
  const [closed, setClosed] = useState(null);
  const [toast, setToast] = useState(null);
  const [chat, setChat] = useState({ room: null, lines: [] });
  const socket = useRef(null);
  const latest = useRef(null); // the state as last drawn (for the socket's callbacks)
  latest.current = msg;

  useEffect(() => {
    const s = new TableSocket(tableId, {
      onState: (m) => {
        setMsg({ version: m.version, state: m.state });
        setReceivedAt(performance.now());
      },
      onUpdate: (m) => {
        setMsg((held) => held && { version: m.version, state: applyUpdate(held.state, m) });
        setReceivedAt(performance.now());
      },
      onPresence: (m) => {
        setMsg((held) => held && { ...held, state: applyPresence(held.state, m) });
      },
      onResign: (m) => {
        setMsg((held) => held && { ...held, state: applyResign(held.state, m) });
        // The asker is told why nothing changed (the partner's prompt just closes).
        const now = latest.current && latest.current.state;
        const mine = now && now.you && now.you.seat === m.seat;
        if (m.type === "resign_declined" && mine) {
          setToast(m.why === "declined" ? _("Your partner declined: the game goes on.") : _("Your partner did not answer: the game goes on."));
        }
      },
      onStatus: setStatus,
      onClosed: setClosed,
      onChat: (m) => setChat((held) => withChat(held, m)),
      onChatError: (m) => setToast(m.message),
    });
    socket.current = s;
    return () => s.close();
    // A new sign-in changes who this socket plays as: reconnect.
  }, [tableId, me && me.id]);

  useEffect(() => {
    if (!toast) return undefined;
    const timer = setTimeout(() => setToast(null), 4000);
    return () => clearTimeout(timer);
  }, [toast]);

  const toastView = toast && html`<div class="toast" role="alert">${toast}</div>`;
  if (closed) {
    return html`<main class="lobby"><div class="card">
      <p>${closed}</p><button class="primary" onClick=${goHome}>${_("Back to the hall")}</button>
    </div></main>`;
  }
  if (!msg) {
    return html`<main class="lobby"><div class="card"><p role="status">${_("Finding the table…")}</p></div></main>`;
  }
  const state = msg.state;
  const preset = presets.find((p) => p.id === state.table.preset);
  const kind = preset ? preset.layout : "line";
  if (state.table.phase === "seating") {
    return html`${toastView}<nav class="pagebar" aria-label=${_("Hall")}><${GamesBadge} go=${go} /><${LanguageSwitch} /></nav>
      <${Seating} state=${state} me=${me} onError=${setToast} goHome=${goHome} signInFirst=${signInFirst} />`;
  }
  return html`${toastView}<${Game}
    state=${{ ...state, version: msg.version }}
    kind=${kind}
    preset=${preset}
    go=${go}
    receivedAt=${receivedAt}
    socket=${socket.current}
    onError=${setToast}
    goHome=${goHome}
    status=${status}
    me=${me}
    chat=${chat}
  />`;
}
