// A finished game (/games/{id}): its players, result, duration and rating changes, and the replay
// viewer, hand by hand and move by move (buttons and arrow keys). Every position, its layout and
// scores come from the hall (GET /api/games/{id}); the page only draws them (board.js, tile.js).
import { useEffect, useMemo, useState } from "preact/hooks";
import { html } from "./ui.js";
import { get } from "./api.js";
import { Board, chainOf, endNames } from "./board.js";
import { TileImage, halvesOf } from "./tile.js";
import { Change, Frame, Link, duration, reasonWords, when } from "./pages.js";
import { phrase } from "./chat.js";
import { _, ngettext, number, pgettext } from "./i18n.js";
import { playerName, poolName, presetName } from "./names.js";

/** A move of the record in words, with the end it went on as the previous position showed it. */
function moveWords(move, before, kind, nameOf) {
  const who = nameOf(move.seat);
  if (move.pass) return _("{who} passes.", { who });
  if (move.draw !== undefined) {
    return move.draw === true ? _("{who} draws a tile.", { who }) : _("{who} draws {tile}.", { who, tile: move.draw });
  }
  if (move.arm === undefined || move.arm === null) return _("{who} leads {tile}.", { who, tile: move.play });
  const names = endNames(chainOf(before.layout), kind, before.layout.open_ends);
  const end = names.find((e) => e.arm === move.arm);
  // TRANSLATORS: {end} names the open end the tile went on ("left end", "right end 2")
  if (end) return _("{who} plays {tile} ({end}).", { who, tile: move.play, end: end.name });
  return _("{who} plays {tile} on arm {arm}.", { who, tile: move.play, arm: number(move.arm) });
}

function handEndWords(result, nameOf) {
  if (result.cut_short) return _("The game ended in this hand: the target was reached.");
  if (result.winner === null) return _("The hand blocked with no winner.");
  const values = { who: nameOf(result.winner), bonus: number(result.bonus || 0) };
  if (result.blocked) return result.bonus ? _("{who} won the blocked hand (+{bonus}).", values) : _("{who} won the blocked hand.", values);
  return result.bonus ? _("{who} went out (+{bonus}).", values) : _("{who} went out.", values);
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
  const nameOf = (seat) => playerName(game.players[seat].name);

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
  if (position.move === null) words = _("Hand {hand} is dealt; {who} leads.", { hand: number(at.h + 1), who: nameOf(hand.leader) });
  else {
    words = moveWords(position.move, hand.positions[at.m - 1], kind, nameOf);
    const before = hand.positions[at.m - 1].scores[position.move.seat];
    const gained = position.scores[position.move.seat] - before;
    if (gained > 0 && !(at.m === lastM && hand.result && hand.result.winner !== null)) words += " " + _("+{points}.", { points: number(gained) });
  }
  const ended = at.m === lastM && hand.result;
  const atEnd = at.h === hands.length - 1 && ended;
  return html`<section class="replay card" aria-labelledby="replay-h">
    <h2 id="replay-h">${_("Replay")}</h2>
    <div class="replay-controls" role="group" aria-label=${_("Replay controls")}>
      <button onClick=${() => toHand(at.h - 1)} disabled=${at.h === 0} aria-label=${_("Previous hand")}>${_("« Hand")}</button>
      <button onClick=${() => setAt({ h: at.h, m: 0 })} disabled=${at.m === 0} aria-label=${_("Start of the hand")}>⇤</button>
      <button class="primary" onClick=${() => step(-1)} disabled=${at.h === 0 && at.m === 0} aria-label=${_("Previous move")}>◀</button>
      <button class="primary" onClick=${() => step(1)} disabled=${atEnd} aria-label=${_("Next move")}>▶</button>
      <button onClick=${() => setAt({ h: at.h, m: lastM })} disabled=${at.m === lastM} aria-label=${_("End of the hand")}>⇥</button>
      <button onClick=${() => toHand(at.h + 1)} disabled=${at.h === hands.length - 1} aria-label=${_("Next hand")}>${_("Hand »")}</button>
      <button class="autoplay" aria-pressed=${playing} onClick=${() => setPlaying(!playing)} disabled=${atEnd && !playing}>${playing ? _("Pause") : pgettext("replay", "Play")}</button>
      <button onClick=${toEnd} disabled=${atEnd}>${_("End of game")}</button>
    </div>
    <p class="replay-where" aria-live="polite" data-hand=${at.h} data-move=${at.m}>
      ${_("Hand {hand} of {hands} · move {move} of {moves}", { hand: number(at.h + 1), hands: number(hands.length), move: number(at.m), moves: number(lastM) })}
    </p>
    <p class="replay-move">${words}${ended ? " " + handEndWords(hand.result, nameOf) : ""}${atEnd ? " " + reasonWords(game) : ""}</p>
    <div class="replay-board">
      <${Board} chain=${chain} kind=${kind} openEnds=${openEnds} lit=${null} onEnd=${null}
        label=${ngettext("The layout: {n} tile. Open ends: {ends}.", "The layout: {n} tiles. Open ends: {ends}.", chain.length, { ends: openEnds.map((e) => e.number).join(", ") || _("none") })} />
    </div>
    <div class="replay-hands">
      ${position.tiles.map((tiles, seat) => html`<div key=${seat} class=${"replay-seat" + (position.turn === seat ? " to-move" : "")} data-seat=${seat}>
        <span class="score" aria-label=${_("score {score}", { score: number(position.scores[seat]) })}>${number(position.scores[seat])}</span>
        <strong>${nameOf(seat)}</strong>${position.turn === seat ? html` <span class="note">${_("to move")}</span>` : ""}
        <div class="tiles" role="img" aria-label=${tiles.length ? _("{who} holds {tiles}", { who: nameOf(seat), tiles: tiles.join(", ") }) : _("{who} holds nothing", { who: nameOf(seat) })}>
          ${tiles.map((t) => { const [a, b] = halvesOf(t); return html`<${TileImage} key=${t} a=${a} b=${b} />`; })}
        </div>
      </div>`)}
    </div>
    <p class="note">${_("Keys: ← → a move, ↑ ↓ a hand, Home and End the hand's start and end, Space plays or pauses.")} ${_("Boneyard: {n}.", { n: number(position.boneyard) })}</p>
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
    ["players", _("Players' chat")],
    ["spectators", _("Spectators' chat")],
  ];
  return html`<section class="card game-chat" aria-labelledby="game-chat-h">
    <h2 id="game-chat-h">${_("Chat")}</h2>
    <p class="note">${isPrivate ? _("A private game's chat: shown to its players only.") : _("A public game's chat is public.")}</p>
    ${lines.length === 0 && html`<p class="note">${_("Nobody chatted at this table.")}</p>`}
    ${rooms.map(([room, title]) => {
      const said = lines.filter((l) => l.room === room);
      return said.length > 0 && html`<div key=${room} class="game-chat-room" data-room=${room}>
        <h3>${title}</h3>
        <ol class="chat-lines">
          ${said.map((l) => html`<li key=${l.id} class="chat-line" data-line=${l.id}>
            <span class="chat-name">${playerName(l.name)}</span>${" "}<span class="chat-text">${l.phrase ? phrase(l.phrase) : l.text}</span>
          </li>`)}
        </ol>
      </div>`;
    })}
  </section>`;
}

// Why a player went out of the game, from the id the hall stores.
const OUT = {
  timeout: () => _("out: time ran out"),
  left: () => _("out: left the table"),
  disconnected: () => _("out: disconnected"),
  resigned: () => _("out: resigned"),
};
const outWords = (why) => (OUT[why] ? OUT[why]() : _("out: {why}", { why }));

export function GamePage({ gameId, me, go, presets }) {
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    get(`/api/games/${encodeURIComponent(gameId)}`).then(setData).catch(setError);
  }, [gameId]);
  if (error || !data) {
    const playing = error && error.code === "game_not_over";
    return html`<${Frame} title=${_("Game")} go=${go} me=${me}>
      ${error && html`<p class="error" role="alert">${error.message}</p>`}
      ${playing && html`<p><${Link} href=${"/t/" + gameId} go=${go}>${_("Go to the table")}</${Link}>${_("; its replay is here once the game is over.")}</p>`}
      ${!error && html`<p role="status">${_("Loading…")}</p>`}
    </${Frame}>`;
  }
  const { game, ratings, replay } = data;
  const preset = presets.find((p) => p.id === game.preset);
  const kind = preset ? preset.layout : "line";
  const change = Object.fromEntries(ratings.map((r) => [r.seat, r]));
  const presetWords = presetName(game.preset, game.preset_name);
  return html`<${Frame} title=${_("{game} game", { game: presetWords })} go=${go} me=${me}>
    <header>
      <h1>${_("{game} to {target}", { game: presetWords, target: number(game.target) })}</h1>
      <p class="note">
        ${[
          game.ranked ? _("Ranked ({pool})", { pool: poolName(game.ranked) }) : _("Casual"),
          game.speed === "turn-based" ? _("turn-based") : null,
          game.private ? _("private table") : null,
          when(game.finished_at),
          _("lasted {time}", { time: duration(game.duration) }),
          ngettext("{n} hand", "{n} hands", game.hands),
        ].filter(Boolean).join(" · ")}
      </p>
      <p class="result"><strong>${reasonWords(game)}</strong></p>
    </header>
    <${Replayer} game=${game} replay=${replay} kind=${kind} />
    <section class="card" aria-labelledby="players-h">
      <h2 id="players-h">${_("Players")}</h2>
      <table class="grid-table game-players">
        <thead><tr><th class="num">${_("Place")}</th><th>${_("Player")}</th><th class="num">${_("Score")}</th>${ratings.length > 0 && html`<th class="num">${_("Rating")}</th>`}</tr></thead>
        <tbody>${game.players.map((p) => html`<tr key=${p.seat} data-seat=${p.seat}>
          <td class="num">${p.place}</td>
          <td>${p.username ? html`<${Link} href=${"/@/" + p.username} go=${go}>${p.name}</${Link}>` : playerName(p.name)}
            ${p.person ? "" : " " + _("(computer)")}${p.out ? html` <span class="note">${outWords(p.out)}</span>` : ""}</td>
          <td class="num">${number(p.score)}</td>
          ${ratings.length > 0 && html`<td class="num rating-change">${change[p.seat] ? html`${change[p.seat].after} <${Change} n=${change[p.seat].change} />` : "–"}</td>`}
        </tr>`)}</tbody>
      </table>
      <p><a class="button-link record" href=${game.record} download>${_("Download the game record")}</a></p>
    </section>
    <${GameChat} gameId=${gameId} isPrivate=${game.private} />
  </${Frame}>`;
}
