// The live lobby on the home page (docs/protocol.md 12): the lobby's socket keeps the open tables,
// the games to watch (one featured), the queues and the people online current, pushed by the
// hall. The counts are not in a live region: a screen reader is not told each change.
import { useEffect, useState } from "preact/hooks";
import { html } from "./ui.js";
import { _, ngettext, number } from "./i18n.js";
import { _html, strong } from "./markup.js";
import { levelName, poolName, presetName } from "./names.js";

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

const speedWord = (t) => (t.speed === "turn-based" ? _("turn-based") : _("real-time"));

/** "Ann (1642)", "a free seat", "computer (normal)": a seat, with its person's rating in the
 * preset's pool. */
function seatText(entry, s, k) {
  if (s.kind === "empty") return _("a free seat");
  if (s.kind === "bot") return _("computer ({level})", { level: levelName(s.bot).toLowerCase() });
  const rating = entry.ratings[k];
  return rating ? `${s.name} (${rating})` : s.name;
}

const seatsText = (entry) => entry.table.seats.map((s, k) => seatText(entry, s, k)).join(", ");

function OpenTables({ lobby, go }) {
  const open = lobby.tables === null ? null : [...lobby.tables.values()].filter((t) => t.kind === "open");
  if (open) open.sort((a, b) => b.table.created_at - a.table.created_at);
  return html`<section class="card" aria-labelledby="open-h">
    <h2 id="open-h">${_("Open tables")}</h2>
    ${open === null
      ? html`<p class="note">${_("Loading…")}</p>`
      : open.length === 0
        ? html`<p class="note">${_("No open tables just now. Create one!")}</p>`
        : html`<ul class="tables-list" data-list="open">
            ${open.map(
              (t) => html`<li key=${t.id}>
                <span>
                  <strong>${presetName(t.table.preset, t.table.preset_name)}</strong> ${_("to {target}", { target: t.table.target })} · ${speedWord(t.table)} · ${ngettext("{n} seat free", "{n} seats free", t.table.free_seats)}<br />
                  <span class="note">${seatsText(t)}</span>
                </span>
                <button class="fixed" onClick=${() => go(`/t/${t.id}`)}
                  aria-label=${_("Join {game} table of {host}", { game: presetName(t.table.preset, t.table.preset_name), host: t.table.seats[0].name || _("someone") })}>${_("Join")}</button>
              </li>`,
            )}
          </ul>`}
  </section>`;
}

function GameLine({ game, go, featured }) {
  const people = game.table.seats.map((s, k) => seatText(game, s, k));
  const name = presetName(game.table.preset, game.table.preset_name);
  const versus = people.join(_(" vs "));
  const scores = game.scores ? ` · ${game.scores.join("–")}` : "";
  return html`<span>
      ${featured && html`<span class="featured-tag">${_("Featured")} · </span>`}<strong>${name}</strong> ${_("to {target}", { target: game.table.target })}${game.table.ranked ? ` ${_("· ranked")}` : ""}${scores}<br />
      <span class="note">${versus}</span>
    </span>
    <a class="button-link fixed" href=${game.table.link}
      onClick=${(e) => { e.preventDefault(); go(game.table.link); }}
      aria-label=${_("Watch {game}: {players}", { game: name, players: versus })}>${_("Watch")}</a>`;
}

function Games({ lobby, go }) {
  if (lobby.tables === null) return null;
  const games = [...lobby.tables.values()].filter((t) => t.kind === "game");
  games.sort((a, b) => (b.rating || 0) - (a.rating || 0) || b.table.created_at - a.table.created_at);
  const top = games.find((g) => g.id === lobby.featured);
  const rest = games.filter((g) => g !== top).slice(0, 20);
  return html`<section class="card" aria-labelledby="games-h">
    <h2 id="games-h">${_("Games to watch")}</h2>
    ${games.length === 0 && html`<p class="note">${_("No game in progress just now.")}</p>`}
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
  const online = ngettext("{count} person online", "{count} people online", lobby.online);
  return html`<section class="card" aria-labelledby="people-h">
    <h2 id="people-h">${_("In the hall")}</h2>
    <p data-online=${lobby.online}>${_html(online, { count: strong(number(lobby.online)) })}</p>
    ${pools.size === 0
      ? html`<p class="note">${_("Nobody is waiting in quick play or ranked play.")}</p>`
      : html`<ul class="tables-list">
          ${[...pools].map(([pool, c]) => html`<li key=${pool}>
            <span><strong>${poolName(pool)}</strong></span>
            <span class="note">${_("{quick} in quick play · {ranked} in ranked play", { quick: number(c.quick), ranked: number(c.ranked) })}</span>
          </li>`)}
        </ul>`}
    ${lobby.status === "reconnecting" && html`<p class="note">${_("Reconnecting…")}</p>`}
  </section>`;
}

/** The lobby's three cards: open tables, games to watch, the queues and the people online. */
export function Lobby({ go }) {
  const lobby = useLobby();
  return html`<${OpenTables} lobby=${lobby} go=${go} /><${Games} lobby=${lobby} go=${go} /><${People} lobby=${lobby} />`;
}
