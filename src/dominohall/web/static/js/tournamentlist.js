// Home's list of tournaments (GET /api/tournaments: created or running, never invitation-only);
// apart from js/tournament.js so that home carries none of the pages' modules.
import { useEffect, useState } from "preact/hooks";
import { html } from "./ui.js";
import { get } from "./api.js";
import { _, date, ngettext } from "./i18n.js";

const KINDS = { arena: () => _("arena"), swiss: () => _("Swiss") };

/** "(arena, 3 entrants, starts 4 Dec 2026, 18:00)". */
function about(t) {
  const values = { kind: KINDS[t.kind] ? KINDS[t.kind]() : t.kind };
  if (t.status === "running") return ngettext("({kind}, {n} entrant, running)", "({kind}, {n} entrants, running)", t.entrants, values);
  values.when = date(new Date(t.starts_at * 1000), { dateStyle: "medium", timeStyle: "short" });
  return ngettext("({kind}, {n} entrant, starts {when})", "({kind}, {n} entrants, starts {when})", t.entrants, values);
}

export function TournamentList({ go }) {
  const [list, setList] = useState([]);
  useEffect(() => {
    get("/api/tournaments").then((a) => setList(a.tournaments)).catch(() => {});
  }, []);
  if (list.length === 0) return null;
  const open = (e, link) => {
    e.preventDefault();
    go(link);
  };
  return html`<section class="card" aria-labelledby="tournaments-h">
    <h2 id="tournaments-h">${_("Tournaments")}</h2>
    <ul>${list.map((t) => html`<li key=${t.id}><a href=${t.link} onClick=${(e) => open(e, t.link)}>${t.name}</a>
      ${about(t)}</li>`)}</ul>
  </section>`;
}
