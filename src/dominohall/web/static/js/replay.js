// A finished game (/games/{id}): its players, result, duration and rating changes, and the replay
// viewer, hand by hand and move by move (buttons and arrow keys). Every position, its layout and
// scores come from the hall (GET /api/games/{id}); the page only draws them (board.js, tile.js).
import { useEffect, useMemo, useState } from "preact/hooks";
import { html } from "./ui.js";
import { get } from "./api.js";
import { Board, chainOf, endNames } from "./board.js";
import { TileImage, halvesOf } from "./tile.js";
import { Change, Frame, Link, duration, reasonWords, when } from "./pages.js";
import { poolName } from "./choices.js";
import { PHRASES } from "./chat.js";


/** A move of the record in words, with the end it went on as the previous position showed it. */
function moveWords(move, before, kind, nameOf) {
  const who = nameOf(move.seat);
  if (move.pass) return `${who} passes.`;
  if (move.draw !== undefined) return `${who} draws ${move.draw === true ? "a tile" : move.draw}.`;
  if (move.arm === undefined || move.arm === null) return `${who} leads ${move.play}.`;
  const names = endNames(chainOf(before.layout), kind, before.layout.open_ends);
  const end = names.find((e) => e.arm === move.arm);
  return `${who} plays ${move.play} on the ${end ? end.name : "end " + move.arm}.`;
}

function handEndWords(result, nameOf) {
  if (result.cut_short) return "The game ended in this hand: the target was reached.";
  if (result.winner === null) return "The hand blocked with no winner.";
  const how = result.blocked ? "won the blocked hand" : "went out";
  return `${nameOf(result.winner)} ${how}${result.bonus ? ` (+${result.bonus})` : ""}.`;
}

const PLAY_MS = 900; // between two moves when the replay plays by itself

/** The position an address names ("#h2m5": hand 2, move 5, both from 1 and 0 as shown). */
function positionIn(hash, hands) {
  const m = /^#h(\d+)m(\d+)$/.exec(hash);
  if (!m) return { h: 0, m: 0 };
  const h = Math.min(Math.max(Number(m[1]) - 1, 0), hands.length - 1);
  return { h, m: Math.min(Number(m[2]), hands[h].positions.length - 1) };
}

export function Replayer({ game, replay, kind }) {
  const hands = replay.hands;
  const [at, setAt] = useState(() => positionIn(location.hash, hands));
  const [playing, setPlaying] = useState(false);
  const hand = hands[at.h];
  const position = hand.positions[at.m];
  const lastM = hand.positions.length - 1;
  const nameOf = (seat) => game.players[seat].name;

  const step = (by) =>
    setAt(({ h, m }) => {
      const n = hands[h].positions.length;
      if (m + by >= n) return h + 1 < hands.length ? { h: h + 1, m: 0 } : { h, m: n - 1 };
      if (m + by < 0) return h > 0 ? { h: h - 1, m: hands[h - 1].positions.length - 1 } : { h, m: 0 };
      return { h, m: m + by };
    });
  const toHand = (h) => setAt({ h: Math.max(0, Math.min(hands.length - 1, h)), m: 0 });
  const toEnd = () => setAt({ h: hands.length - 1, m: hands[hands.length - 1].positions.length - 1 });

  useEffect(() => {
    const onKey = (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey || /INPUT|SELECT|TEXTAREA/.test(e.target.tagName)) return;
      if (e.key === " " && e.target.tagName === "BUTTON") return; // the button's own click
      const acts = {
        ArrowRight: () => step(1),
        ArrowLeft: () => step(-1),
        ArrowDown: () => toHand(at.h + 1),
        ArrowUp: () => toHand(at.h - 1),
        PageDown: () => toHand(at.h + 1),
        PageUp: () => toHand(at.h - 1),
        Home: () => setAt({ h: at.h, m: 0 }),
        End: () => setAt({ h: at.h, m: lastM }),
        " ": () => setPlaying((p) => !p),
      };
      if (acts[e.key]) {
        e.preventDefault();
        acts[e.key]();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [at.h, lastM]);

  const atEnd0 = at.h === hands.length - 1 && at.m === lastM;
  useEffect(() => { // the address names the position shown, so that it can be shared
    if (at.h === 0 && at.m === 0 && !location.hash) return;
    history.replaceState(null, "", `#h${at.h + 1}m${at.m}`);
  }, [at.h, at.m]);
  useEffect(() => {
    if (!playing) return undefined;
    if (atEnd0) {
      setPlaying(false);
      return undefined;
    }
    const timer = setTimeout(() => step(1), PLAY_MS);
    return () => clearTimeout(timer);
  }, [playing, at.h, at.m]);

  const chain = useMemo(() => chainOf(position.layout), [position]);
  const openEnds = position.layout.open_ends;
  let words;
  if (position.move === null) words = `Hand ${at.h + 1} is dealt; ${nameOf(hand.leader)} leads.`;
  else {
    words = moveWords(position.move, hand.positions[at.m - 1], kind, nameOf);
    const before = hand.positions[at.m - 1].scores[position.move.seat];
    const gained = position.scores[position.move.seat] - before;
    if (gained > 0 && !(at.m === lastM && hand.result && hand.result.winner !== null)) words += ` +${gained}.`;
  }
  const ended = at.m === lastM && hand.result;
  const atEnd = at.h === hands.length - 1 && ended;
  return html`<section class="replay card" aria-labelledby="replay-h">
    <h2 id="replay-h">Replay</h2>
    <div class="replay-controls" role="group" aria-label="Replay controls">
      <button onClick=${() => toHand(at.h - 1)} disabled=${at.h === 0} aria-label="Previous hand">« Hand</button>
      <button onClick=${() => setAt({ h: at.h, m: 0 })} disabled=${at.m === 0} aria-label="Start of the hand">⇤</button>
      <button class="primary" onClick=${() => step(-1)} disabled=${at.h === 0 && at.m === 0} aria-label="Previous move">◀</button>
      <button class="primary" onClick=${() => step(1)} disabled=${atEnd} aria-label="Next move">▶</button>
      <button onClick=${() => setAt({ h: at.h, m: lastM })} disabled=${at.m === lastM} aria-label="End of the hand">⇥</button>
      <button onClick=${() => toHand(at.h + 1)} disabled=${at.h === hands.length - 1} aria-label="Next hand">Hand »</button>
      <button class="autoplay" aria-pressed=${playing} onClick=${() => setPlaying(!playing)} disabled=${atEnd && !playing}>${playing ? "Pause" : "Play"}</button>
      <button onClick=${toEnd} disabled=${atEnd}>End of game</button>
    </div>
    <p class="replay-where" aria-live="polite" data-hand=${at.h} data-move=${at.m}>
      Hand ${at.h + 1} of ${hands.length} · move ${at.m} of ${lastM}
    </p>
    <p class="replay-move">${words}${ended ? " " + handEndWords(hand.result, nameOf) : ""}${atEnd ? " " + reasonWords(game) : ""}</p>
    <div class="replay-board">
      <${Board} chain=${chain} kind=${kind} openEnds=${openEnds} lit=${null} onEnd=${null}
        label=${`The layout: ${chain.length} tiles. Open ends: ${openEnds.map((e) => e.number).join(", ") || "none"}.`} />
    </div>
    <div class="replay-hands">
      ${position.tiles.map((tiles, seat) => html`<div key=${seat} class=${"replay-seat" + (position.turn === seat ? " to-move" : "")} data-seat=${seat}>
        <span class="score" aria-label=${`score ${position.scores[seat]}`}>${position.scores[seat]}</span>
        <strong>${nameOf(seat)}</strong>${position.turn === seat ? html` <span class="note">to move</span>` : ""}
        <div class="tiles" role="img" aria-label=${`${nameOf(seat)} holds ${tiles.length ? tiles.join(", ") : "nothing"}`}>
          ${tiles.map((t) => { const [a, b] = halvesOf(t); return html`<${TileImage} key=${t} a=${a} b=${b} />`; })}
        </div>
      </div>`)}
    </div>
    <p class="note">Keys: ← → a move, ↑ ↓ a hand, Home and End the hand's start and end, Space plays or pauses. Boneyard: ${position.boneyard}.</p>
  </section>`;
}

/** The game's chat beside its replay (GET /api/games/{id}/chat): both rooms, as text only. */
function GameChat({ gameId, isPrivate }) {
  const [lines, setLines] = useState(null);
  useEffect(() => {
    get(`/api/games/${encodeURIComponent(gameId)}/chat`).then((d) => setLines(d.lines)).catch(() => setLines([]));
  }, [gameId]);
  if (!lines) return null;
  const rooms = [
    ["players", "Players' chat"],
    ["spectators", "Spectators' chat"],
  ];
  return html`<section class="card game-chat" aria-labelledby="game-chat-h">
    <h2 id="game-chat-h">Chat</h2>
    <p class="note">${isPrivate ? "A private game's chat: shown to its players only." : "A public game's chat is public."}</p>
    ${lines.length === 0 && html`<p class="note">Nobody chatted at this table.</p>`}
    ${rooms.map(([room, title]) => {
      const said = lines.filter((l) => l.room === room);
      return said.length > 0 && html`<div key=${room} class="game-chat-room" data-room=${room}>
        <h3>${title}</h3>
        <ol class="chat-lines">
          ${said.map((l) => html`<li key=${l.id} class="chat-line" data-line=${l.id}>
            <span class="chat-name">${l.name}</span>${" "}<span class="chat-text">${l.phrase ? PHRASES[l.phrase] || l.phrase : l.text}</span>
          </li>`)}
        </ol>
      </div>`;
    })}
  </section>`;
}

export function GamePage({ gameId, me, go, presets }) {
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    get(`/api/games/${encodeURIComponent(gameId)}`).then(setData).catch(setError);
  }, [gameId]);
  if (error || !data) {
    const playing = error && error.code === "game_not_over";
    return html`<${Frame} title="Game" go=${go} me=${me}>
      ${error && html`<p class="error" role="alert">${error.message}</p>`}
      ${playing && html`<p><${Link} href=${"/t/" + gameId} go=${go}>Go to the table</${Link}>; its replay is here once the game is over.</p>`}
      ${!error && html`<p role="status">Loading…</p>`}
    </${Frame}>`;
  }
  const { game, ratings, replay } = data;
  const preset = presets.find((p) => p.id === game.preset);
  const kind = preset ? preset.layout : "line";
  const change = Object.fromEntries(ratings.map((r) => [r.seat, r]));
  return html`<${Frame} title=${`${game.preset_name} game`} go=${go} me=${me}>
    <header>
      <h1>${game.preset_name} to ${game.target}</h1>
      <p class="note">
        ${[
          game.ranked ? `Ranked (${poolName(game.ranked)})` : "Casual",
          game.speed === "turn-based" ? "turn-based" : null,
          game.private ? "private table" : null,
          when(game.finished_at),
          `lasted ${duration(game.duration)}`,
          `${game.hands} hand${game.hands === 1 ? "" : "s"}`,
        ].filter(Boolean).join(" · ")}
      </p>
      <p class="result"><strong>${reasonWords(game)}</strong></p>
    </header>
    <${Replayer} game=${game} replay=${replay} kind=${kind} />
    <section class="card" aria-labelledby="players-h">
      <h2 id="players-h">Players</h2>
      <table class="grid-table game-players">
        <thead><tr><th class="num">Place</th><th>Player</th><th class="num">Score</th>${ratings.length > 0 && html`<th class="num">Rating</th>`}</tr></thead>
        <tbody>${game.players.map((p) => html`<tr key=${p.seat} data-seat=${p.seat}>
          <td class="num">${p.place}</td>
          <td>${p.username ? html`<${Link} href=${"/@/" + p.username} go=${go}>${p.name}</${Link}>` : p.name}
            ${p.person ? "" : " (computer)"}${p.out ? html` <span class="note">out: ${p.out}</span>` : ""}</td>
          <td class="num">${p.score}</td>
          ${ratings.length > 0 && html`<td class="num rating-change">${change[p.seat] ? html`${change[p.seat].after} <${Change} n=${change[p.seat].change} />` : "–"}</td>`}
        </tr>`)}</tbody>
      </table>
      <p><a class="button-link record" href=${game.record} download>Download the game record</a></p>
    </section>
    <${GameChat} gameId=${gameId} isPrivate=${game.private} />
  </${Frame}>`;
}
