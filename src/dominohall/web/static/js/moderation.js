// The operators' page (/mod; docs/moderation.md): the open reports with the chat around each
// reported line, and a time-out, a ban (alone, or with the addresses the account signed in from
// lately) or closing the report, each asking for a reason. The
// hall serves this page to operators only; its requests are refused to anyone else.
import { useEffect, useState } from "preact/hooks";
import { html } from "./ui.js";
import { get, post } from "./api.js";
import { Frame } from "./pages.js";
import { PHRASES } from "./chat.js";

const who = (p) => (p ? (p.username ? `${p.name} (@${p.username})` : `${p.name} (guest ${p.id})`) : "a deleted player");
const when = (at) => new Date(at * 1000).toLocaleString();

function Report({ report, act }) {
  const target = report.reported;
  return html`<section class="card" aria-labelledby=${`report-${report.id}`}>
    <h2 id=${`report-${report.id}`}>#${report.id}: ${who(target)}</h2>
    <p>Reported by ${who(report.reporter)}, ${when(report.at)}: <q>${report.reason}</q></p>
    ${report.context.length
      ? html`<ol class="chat-lines">
          ${report.context.map(
            (l) => html`<li key=${l.id} class=${l.id === report.line ? "chat-line reported" : "chat-line"}>
              ${l.id === report.line ? html`<strong>▶ </strong>` : ""}<span class="chat-name">${l.name}</span>${" "}
              <span class="chat-text">${l.phrase ? PHRASES[l.phrase] || l.phrase : l.text}</span>
            </li>`,
          )}
        </ol>`
      : html`<p class="note">${report.line ? "The reported line is no longer kept." : "The report names no chat line."}</p>`}
    <p>
      ${target && html`<button onClick=${() => act("/api/mod/time-out", { player: target.id, minutes: 15 }, `Time ${target.name} out for 15 minutes`)}>Time out 15 min</button>
        ${" "}<button onClick=${() => act("/api/mod/ban", { player: target.id }, `Ban ${target.name}`)}>Ban</button>
        ${" "}<button onClick=${() => act("/api/mod/ban", { player: target.id, with_addresses: true }, `Ban ${target.name} with the addresses they signed in from`)}>Ban with addresses</button>`}
      ${" "}<button onClick=${() => act("/api/mod/close-report", { report: report.id }, `Close report #${report.id}`)}>Close report</button>
    </p>
  </section>`;
}

export function ModerationPage({ me, go }) {
  const [reports, setReports] = useState(null);
  const [error, setError] = useState(null);
  const [done, setDone] = useState(null);
  const load = () => get("/api/mod/reports").then((a) => setReports(a.reports)).catch((e) => setError(e.message));
  useEffect(() => { load(); }, []);
  const act = async (path, body, what) => {
    const reason = window.prompt(`${what}: why? (kept in the moderation log)`);
    if (!reason || !reason.trim()) return;
    setError(null);
    setDone(null);
    try {
      await post(path, { ...body, reason: reason.trim() });
      setDone(`${what}: done.`);
      load();
    } catch (e) {
      setError(e.message);
    }
  };
  return html`<${Frame} title="Moderation" go=${go} me=${me}>
    <h1>Moderation</h1>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    ${done && html`<p class="ok-note" role="status">${done}</p>`}
    ${reports === null
      ? html`<p role="status">Loading…</p>`
      : reports.length
        ? html`<div class="cards">${reports.map((r) => html`<${Report} key=${r.id} report=${r} act=${act} />`)}</div>`
        : html`<p>No open reports.</p>`}
  </${Frame}>`;
}
