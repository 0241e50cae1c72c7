// Home's list of tournaments (GET /api/tournaments: created or running, never invitation-only);
// apart from js/tournament.js so that home carries none of the pages' modules.
import { useEffect, useState } from "preact/hooks";
import { html } from "./ui.js";
import { get } from "./api.js";

function starts(t) {
  if (t.status === "running") return "running";
  return "starts " + new Date(t.starts_at * 1000).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
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
    <h2 id="tournaments-h">Tournaments</h2>
    <ul>${list.map((t) => html`<li key=${t.id}><a href=${t.link} onClick=${(e) => open(e, t.link)}>${t.name}</a>
      (${t.kind}, ${t.entrants} entrants, ${starts(t)})</li>`)}</ul>
  </section>`;
}
