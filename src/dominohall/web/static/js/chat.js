// The table's chat (docs/protocol.md 10): the lines of the room this socket reads, quick phrases,
// and a box for those who may type. Lines are shown as text only: Preact puts a string into a
// text node, so markup stays the characters typed and a link is not a link (never innerHTML).
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "./ui.js";
import { api } from "./api.js";
import { _, date } from "./i18n.js";
import { playerName } from "./names.js";

const N_ = (id) => id; // marked for the catalog; translated where shown
const WHEN = { dateStyle: "medium", timeStyle: "short" };

const MAX_LENGTH = 140; // as the hall counts (code points; the box counts UTF-16, near enough)

// Quick phrases are sent by id so that each reader sees their own language: these are English.
export const PHRASES = {
  hello: N_("Hello!"),
  good_luck: N_("Good luck"),
  well_played: N_("Well played"),
  nice_capicua: N_("Nice capicúa!"),
  domino: N_("Domino!"),
  // TRANSLATORS: a quick phrase in the chat: "I pass" (a player's word at the table)
  pass: N_("Pass"),
  sorry: N_("Sorry"),
  thanks: N_("Thanks"),
  good_game: N_("Good game"),
};
/** A quick phrase in the reader's words (an id the page does not know: as sent). */
export const phrase = (id) => (PHRASES[id] ? _(PHRASES[id]) : id);

/** An operator's time-out as the chat box says it (null: none under way). */
function useTimeOut(timedOut) {
  const [, setTick] = useState(0);
  const left = timedOut ? timedOut.until * 1000 - Date.now() : 0;
  useEffect(() => {
    if (left <= 0) return undefined;
    const wake = setTimeout(() => setTick((n) => n + 1), Math.min(left + 500, 2 ** 31 - 1));
    return () => clearTimeout(wake);
  }, [timedOut, left > 0]);
  return left > 0 ? timedOut : null;
}

export function ChatPanel({ room, lines, me, isPublic, phrasesOnly, socket, onError, onClose, timedOut }) {
  const [text, setText] = useState("");
  const outNow = useTimeOut(timedOut);
  const [muted, setMuted] = useState(new Set());
  const box = useRef(null);
  const last = lines.length ? lines[lines.length - 1].id : 0;
  useEffect(() => {
    if (box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [last]);

  const say = (line) => socket && socket.say({ type: "chat", room, ...line });
  const send = (e) => {
    e.preventDefault();
    if (!text.trim()) return;
    say({ text });
    setText("");
  };
  const mute = (line) =>
    api("POST", `/api/players/${encodeURIComponent(line.username)}/mute`)
      .then(() => setMuted(new Set([...muted, line.username])))
      .catch((err) => onError(err.message));

  const watching = room === "spectators";
  const guest = me && me.guest;
  const shown = lines.filter((l) => !muted.has(l.username));
  return html`<aside class="chat" aria-label=${watching ? _("Watching: the spectators' chat") : _("The players' chat")}>
    <div class="chat-head">
      <h2>${watching ? _("Watching · spectators' chat") : _("Players' chat")}</h2>
      <button class="chat-close" onClick=${onClose} aria-label=${_("Close the chat")}>×</button>
    </div>
    ${isPublic && html`<p class="chat-note">${_("A public game's chat is public.")}</p>`}
    <ol class="chat-lines" ref=${box}>
      ${shown.map(
        (l) => html`<li key=${l.id} class="chat-line" data-line=${l.id}>
          <span class="chat-name">${playerName(l.name)}</span>${" "}<span class="chat-text">${l.phrase ? phrase(l.phrase) : l.text}</span>
          ${l.username && me && l.username !== me.username &&
          html`<button class="chat-mute" onClick=${() => mute(l)} aria-label=${_("Mute {name}", { name: l.name })}>${_("mute")}</button>
            <button class="chat-mute chat-profile" aria-label=${_("{name}'s profile: follow or challenge", { name: l.name })}
              onClick=${() => window.open("/@/" + encodeURIComponent(l.username), "_blank", "noopener")}>${_("profile")}</button>`}
        </li>`,
      )}
    </ol>
    <div aria-live="polite" class="sr-only">${shown.length ? `${shown[shown.length - 1].name}: ${chatWords(shown[shown.length - 1])}` : ""}</div>
    ${!me
      ? html`<p class="chat-note">${_("Sign in to chat.")}</p>`
      : outNow
      ? html`<p class="chat-note" role="status">${outNow.reason
          ? _("An operator took you out of the chat until {when}: {reason}.", { when: date(new Date(outNow.until * 1000), WHEN), reason: outNow.reason })
          : _("An operator took you out of the chat until {when}.", { when: date(new Date(outNow.until * 1000), WHEN) })}</p>`
      : html`<div class="chat-phrases">
          ${Object.entries(PHRASES).map(
            ([id, words]) => html`<button key=${id} class="chat-phrase" data-phrase=${id} onClick=${() => say({ phrase: id })}>${_(words)}</button>`,
          )}
        </div>
        ${guest
          ? html`<p class="chat-note">${_("Guests send quick phrases. Make an account to type.")}</p>`
          : phrasesOnly
            ? html`<p class="chat-note">${_("Partners send quick phrases only while a hand is played.")}</p>`
            : html`<form class="chat-form" onSubmit=${send}>
                <input class="chat-input" aria-label=${_("Your message")} maxlength=${MAX_LENGTH} value=${text}
                  onInput=${(e) => setText(e.currentTarget.value)} />
                <button type="submit" class="primary chat-send">${_("Send")}</button>
              </form>`}`}
  </aside>`;
}

function chatWords(line) {
  return line.phrase ? phrase(line.phrase) : line.text;
}
