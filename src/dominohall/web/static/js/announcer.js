// The table told to screen readers as it goes, in a polite live region (it never interrupts):
// each move as the log words it (plays with what they scored), the hand's and the game's end with
// the scores, and whose turn it is.
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "./ui.js";
import { _ } from "./i18n.js";

const KEPT = 8; // messages left in the region: a screen reader says each once; it is not the log

/**
 * What to say now, oldest first: the log's lines not said yet (or whose words changed, as a run
 * of draws does), then `ending` when it changed, and `turn` when it changed or after any news. `said` maps a line's key and kind
 * to the words said for it, `last` holds the ending and turn said last; both are updated.
 */
export function newsOf(lines, ending, turn, said, last) {
  const news = [];
  for (const line of lines) {
    // One version can hold two lines (the play that goes out, and the hand's end).
    const key = `${line.key}:${line.kind}`;
    if (said.get(key) === line.text) continue;
    said.set(key, line.text);
    news.push(line.text);
  }
  if (ending !== last.ending) {
    last.ending = ending;
    if (ending) news.push(ending);
  }
  // Whose turn it is follows every move said, even in the same words: two updates rendered at
  // once ("Bob plays 6-4", then your turn again) must not leave the turn unsaid.
  if (turn !== last.turn || news.length) {
    last.turn = turn;
    if (turn) news.push(turn);
  }
  return news;
}

/** The live region. lines: the hand's log ([{key, text}]); ending, turn: a sentence or "". */
export function Announcer({ lines, ending, turn }) {
  const said = useRef(null);
  const last = useRef({ ending: "", turn: "" });
  const count = useRef(0);
  const [messages, setMessages] = useState([]);
  if (said.current === null) {
    // What happened before the page opened is in the log; only what comes next is told, and
    // whose turn it is now.
    said.current = new Map(lines.map((l) => [`${l.key}:${l.kind}`, l.text]));
  }
  useEffect(() => {
    const news = newsOf(lines, ending, turn, said.current, last.current);
    if (!news.length) return;
    setMessages((old) =>
      [...old, ...news.map((text) => ({ id: (count.current += 1), text }))].slice(-KEPT),
    );
  });
  return html`<div class="sr-only announcer" role="log" aria-live="polite" aria-label=${_("What happens at the table")}>
    ${messages.map((m) => html`<p key=${m.id}>${m.text}</p>`)}
  </div>`;
}
