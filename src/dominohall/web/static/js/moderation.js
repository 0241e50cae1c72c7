// The operators' page (/mod; docs/moderation.md): the open reports with the chat around each
// reported line, and a time-out, a ban (alone, or with the addresses the account signed in from
// lately) or closing the report, each asking for a reason. The
// hall serves this page to operators only; its requests are refused to anyone else.
import { useEffect, useState } from "preact/hooks";
import { html } from "./ui.js";
import { get, post } from "./api.js";
import { Frame } from "./pages.js";
import { PHRASES } from "./chat.js";
import { _, date } from "./i18n.js";
import { playerName } from "./names.js";

const who = (p) =>
  p
    ? p.username ? `${playerName(p.name)} (@${p.username})` : _("{name} (guest {id})", { name: playerName(p.name), id: p.id })
    : _("a deleted player");
const lineClass = (reported) => (reported ? "chat-line reported" : "chat-line"); // i18n: not shown (classes)
const when = (at) => date(new Date(at * 1000), { dateStyle: "medium", timeStyle: "short" });

function Report({ report, act }) {
  const target = report.reported;
  return html`<section class="card" aria-labelledby=${`report-${report.id}`}>
    <h2 id=${`report-${report.id}`}>#${report.id}: ${who(target)}</h2>
    <p>${_("Reported by {who}, {when}:", { who: who(report.reporter), when: when(report.at) })} <q>${report.reason}</q></p>
    ${report.context.length
      ? html`<ol class="chat-lines">
          ${report.context.map(
            (l) => html`<li key=${l.id} class=${lineClass(l.id === report.line)}>
              ${l.id === report.line ? html`<strong>▶ </strong>` : ""}<span class="chat-name">${playerName(l.name)}</span>${" "}
              <span class="chat-text">${l.phrase ? PHRASES[l.phrase] || l.phrase : l.text}</span>
            </li>`,
          )}
        </ol>`
      : html`<p class="note">${report.line ? _("The reported line is no longer kept.") : _("The report names no chat line.")}</p>`}
    <p>
      ${target && html`<button onClick=${() => act("/api/mod/time-out", { player: target.id, minutes: 15 }, _("Time {name} out for 15 minutes", { name: target.name }))}>${_("Time out 15 min")}</button>
        ${" "}<button onClick=${() => act("/api/mod/ban", { player: target.id }, _("Ban {name}", { name: target.name }))}>${_("Ban")}</button>
        ${" "}<button onClick=${() => act("/api/mod/ban", { player: target.id, with_addresses: true }, _("Ban {name} with the addresses they signed in from", { name: target.name }))}>${_("Ban with addresses")}</button>`}
      ${" "}<button onClick=${() => act("/api/mod/close-report", { report: report.id }, _("Close report #{id}", { id: report.id }))}>${_("Close report")}</button>
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
    const reason = window.prompt(_("{action}: why? (kept in the moderation log)", { action: what }));
    if (!reason || !reason.trim()) return;
    setError(null);
    setDone(null);
    try {
      await post(path, { ...body, reason: reason.trim() });
      setDone(_("{action}: done.", { action: what }));
      load();
    } catch (e) {
      setError(e.message);
    }
  };
  return html`<${Frame} title=${_("Moderation")} go=${go} me=${me}>
    <h1>${_("Moderation")}</h1>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    ${done && html`<p class="ok-note" role="status">${done}</p>`}
    ${reports === null
      ? html`<p role="status">${_("Loading…")}</p>`
      : reports.length
        ? html`<div class="cards">${reports.map((r) => html`<${Report} key=${r.id} report=${r} act=${act} />`)}</div>`
        : html`<p>${_("No open reports.")}</p>`}
  </${Frame}>`;
}
