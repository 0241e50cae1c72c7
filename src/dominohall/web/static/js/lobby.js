// The live lobby on the home page (docs/protocol.md 12): the lobby's socket keeps the open tables,
// the games to watch (one featured), the queues and the people online current, pushed by the
// hall. The counts are not in a live region: a screen reader is not told each change.
import { useEffect, useState } from "preact/hooks";
import { html } from "./ui.js";
import { poolName } from "./choices.js";

/** {tables: Map id -> entry, featured, queues, online, status}, as the lobby's socket says it. */
function useLobby() {
  const [lobby, setLobby] = useState({ tables: null, featured: null, queues: [], online: 0, status: "connecting" });
  useEffect(() => {
    let ws = null;
    let timer = null;
    let retries = 0;
    let alive = true;
    let kept = { tables: new Map(), featured: null, queues: [], online: 0 };
    const connect = () => {
      ws = new WebSocket(`${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws/lobby`);
      ws.onopen = () => (retries = 0);
      ws.onmessage = (e) => {
        const msg = JSON.parse(e.data);
        if (msg.type === "lobby") {
          kept = { tables: new Map(msg.tables.map((t) => [t.id, t])), featured: msg.featured, queues: msg.queues, online: msg.online };
        } else if (msg.type === "lobby_update") {
          const tables = new Map(kept.tables);
          for (const t of msg.tables) tables.set(t.id, t);
          for (const id of msg.gone) tables.delete(id);
          kept = { tables, featured: msg.featured, queues: msg.queues || kept.queues, online: msg.online ?? kept.online };
        } else return;
        setLobby({ ...kept, status: "open" });
      };
      ws.onclose = () => {
        if (!alive) return;
        setLobby((l) => ({ ...l, status: "reconnecting" }));
        timer = setTimeout(connect, Math.min(10000, 500 * 2 ** retries++)); // the whole lobby comes again
      };
    };
    connect();
    return () => {
      alive = false;
      clearTimeout(timer);
      if (ws) ws.close();
    };
  }, []);
  return lobby;
}

const speedWord = (t) => (t.speed === "turn-based" ? "turn-based" : "real-time");

/** "Ann (1642)", "a free seat", "computer (normal)": a seat, with its person's rating in the
 * preset's pool. */
function seatText(entry, s, k) {
  if (s.kind === "empty") return "a free seat";
  if (s.kind === "bot") return `computer (${s.bot})`;
  const rating = entry.ratings[k];
  return rating ? `${s.name} (${rating})` : s.name;
}

const seatsText = (entry) => entry.table.seats.map((s, k) => seatText(entry, s, k)).join(", ");

function OpenTables({ lobby, go }) {
  const open = lobby.tables === null ? null : [...lobby.tables.values()].filter((t) => t.kind === "open");
  if (open) open.sort((a, b) => b.table.created_at - a.table.created_at);
  return html`<section class="card" aria-labelledby="open-h">
    <h2 id="open-h">Open tables</h2>
    ${open === null
      ? html`<p class="note">Loading…</p>`
      : open.length === 0
        ? html`<p class="note">No open tables just now. Create one!</p>`
        : html`<ul class="tables-list" data-list="open">
            ${open.map(
              (t) => html`<li key=${t.id}>
                <span>
                  <strong>${t.table.preset_name}</strong>${` to ${t.table.target} · ${speedWord(t.table)} · `}${t.table.free_seats === 1 ? "1 seat free" : `${t.table.free_seats} seats free`}<br />
                  <span class="note">${seatsText(t)}</span>
                </span>
                <button class="fixed" onClick=${() => go(`/t/${t.id}`)}
                  aria-label=${`Join ${t.table.preset_name} table of ${t.table.seats[0].name || "someone"}`}>Join</button>
              </li>`,
            )}
          </ul>`}
  </section>`;
}

function GameLine({ game, go, featured }) {
  const people = game.table.seats.map((s, k) => seatText(game, s, k));
  const scores = game.scores ? ` · ${game.scores.join("–")}` : "";
  return html`<span>
      ${featured && html`<span class="featured-tag">Featured · </span>`}<strong>${game.table.preset_name}</strong>${` to ${game.table.target}`}${game.table.ranked ? " · ranked" : ""}${scores}<br />
      <span class="note">${people.join(" vs ")}</span>
    </span>
    <a class="button-link fixed" href=${game.table.link}
      onClick=${(e) => { e.preventDefault(); go(game.table.link); }}
      aria-label=${`Watch ${game.table.preset_name}: ${people.join(" vs ")}`}>Watch</a>`;
}

function Games({ lobby, go }) {
  if (lobby.tables === null) return null;
  const games = [...lobby.tables.values()].filter((t) => t.kind === "game");
  games.sort((a, b) => (b.rating || 0) - (a.rating || 0) || b.table.created_at - a.table.created_at);
  const top = games.find((g) => g.id === lobby.featured);
  const rest = games.filter((g) => g !== top).slice(0, 20);
  return html`<section class="card" aria-labelledby="games-h">
    <h2 id="games-h">Games to watch</h2>
    ${games.length === 0 && html`<p class="note">No game in progress just now.</p>`}
    ${top && html`<div class="featured" data-featured=${top.id}><${GameLine} game=${top} go=${go} featured=${true} /></div>`}
    ${rest.length > 0 &&
    html`<ul class="tables-list" data-list="games">
      ${rest.map((g) => html`<li key=${g.id}><${GameLine} game=${g} go=${go} /></li>`)}
    </ul>`}
  </section>`;
}

function People({ lobby }) {
  if (lobby.tables === null) return null;
  // Per pool: how many wait in quick play and in ranked play (every player count and speed).
  const pools = new Map();
  for (const q of lobby.queues) {
    const counts = pools.get(q.pool) || { quick: 0, ranked: 0 };
    counts[q.ranked ? "ranked" : "quick"] += q.waiting;
    pools.set(q.pool, counts);
  }
  return html`<section class="card" aria-labelledby="people-h">
    <h2 id="people-h">In the hall</h2>
    <p data-online=${lobby.online}><strong>${lobby.online}</strong> ${lobby.online === 1 ? "person" : "people"} online</p>
    ${pools.size === 0
      ? html`<p class="note">Nobody is waiting in quick play or ranked play.</p>`
      : html`<ul class="tables-list">
          ${[...pools].map(([pool, c]) => html`<li key=${pool}>
            <span><strong>${poolName(pool)}</strong></span>
            <span class="note">${c.quick} in quick play · ${c.ranked} in ranked play</span>
          </li>`)}
        </ul>`}
    ${lobby.status === "reconnecting" && html`<p class="note">Reconnecting…</p>`}
  </section>`;
}

/** The lobby's three cards: open tables, games to watch, the queues and the people online. */
export function Lobby({ go }) {
  const lobby = useLobby();
  return html`<${OpenTables} lobby=${lobby} go=${go} /><${Games} lobby=${lobby} go=${go} /><${People} lobby=${lobby} />`;
}
