// The table while a game is on: opponents, the layout, your tiles, and what you may do now.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { html } from "./ui.js";
import { Board, endNames } from "./board.js";
import { TileImage, halvesOf } from "./tile.js";
import { logLines } from "./handlog.js";
import { formatSeconds, useCountdown } from "./clock.js";
import { GameEnd, HandEnd } from "./handend.js";
import { TileStylePicker } from "./stylepicker.js";

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const WARN_AT = 8; // seconds left on your own turn when the clock turns to a warning

/** The layout's chain as the layout code takes it: [{a, b, arm, match}]. */
export function chainOf(layout) {
  if (!layout || !layout.chain) return [];
  return layout.chain.map(({ tile, arm, facing }) => {
    const [a, b] = halvesOf(tile);
    return { a, b, arm: arm === null || arm === undefined ? null : arm, match: facing };
  });
}

/** A seat's name as shown: two computer players of one level are told apart by seat number. */
export function displayName(seats, seat, mySeat) {
  const s = seats[seat];
  if (!s || !s.name) return `Seat ${seat + 1}`;
  const twin = seats.some((o) => o.seat !== seat && o.name === s.name);
  return (twin ? `${s.name} ${seat + 1}` : s.name) + (seat === mySeat ? " (you)" : "");
}

function PlayerCard({ seat, name, me, turn, clockLeft, phase, pips, teams }) {
  const warn = me && clockLeft !== null && clockLeft <= WARN_AT;
  const away = seat.kind === "human" && !seat.connected;
  const cls = ["player", turn ? "turn" : "", me ? "me" : "", away ? "away" : ""].join(" ");
  const label =
    `${name}${seat.kind === "bot" ? ", computer" : ""}: ` +
    `score ${seat.score}${teams ? `, team ${seat.team + 1}` : ""}, ${seat.tiles} tiles` +
    (me && pips !== null ? `, ${pips} pips in hand` : "") +
    (turn ? ", to play" : "");
  // Always four lines, so that the table below never moves when a clock appears.
  const fourth =
    turn && clockLeft !== null
      ? html`<span class=${"clock" + (warn ? " warn" : "")}>${warn ? "Hurry! " : ""}${formatSeconds(clockLeft)} s left</span>`
      : phase === "between_hands" && seat.ready
        ? "ready ✓"
        : seat.out
          ? "out"
          : seat.kind === "bot"
            ? "computer"
            : "\u00a0";
  return html`<div class=${cls} aria-label=${label} data-seat=${seat.seat}>
    <div class="name">${name}</div>
    <div class="sub">
      <span class="score">Score ${seat.score}</span>${teams &&
      html`<span class="team-long"> · team ${seat.team + 1}</span><span class="team-short"> · T${seat.team + 1}</span>`}
    </div>
    <div class="sub">
      ${me && pips !== null
        ? html`<span class="pips">Pips ${pips}</span>`
        : `${seat.tiles} ${seat.tiles === 1 ? "tile" : "tiles"}`}
    </div>
    <div class="sub">${fourth}</div>
  </div>`;
}

export function Game({ state, kind, receivedAt, socket, onError, goHome, status }) {
  const { table, seats, you, hand, clock } = state;
  const mySeat = you ? you.seat : null;
  const phase = table.phase;
  const teams = seats.some((s) => s.team !== null && s.team !== undefined);
  const [chosen, setChosen] = useState(null); // {tile, arms}
  const [busy, setBusy] = useState(false);
  const [logOpen, setLogOpen] = useState(false);
  const clockLeft = useCountdown(clock ? clock.left : null, receivedAt);
  const handRef = useRef(null);

  const nameOf = (seat) => displayName(seats, seat, mySeat);

  // A new state ends whatever was half done with the old one.
  useEffect(() => {
    setBusy(false);
    setChosen(null);
  }, [state.version]);

  const chain = useMemo(() => chainOf(hand && hand.layout), [hand && hand.layout]);
  const openEnds = (hand && hand.layout && hand.layout.open_ends) || [];
  const moves = hand && !hand.result ? hand.moves : null;
  const leading = !!(moves && moves.lead && moves.lead.length);
  const fits = new Map(); // tile -> arms ([] for a lead)
  if (moves) {
    if (leading) for (const t of moves.lead) fits.set(t, []);
    else for (const p of moves.play) fits.set(p.tile, p.arms);
  }
  const [box, setBox] = useState(undefined);
  const names = useMemo(() => endNames(chain, kind, openEnds, box), [chain, kind, openEnds, box]);
  const endName = (arm) => {
    const e = names.find((n) => n.arm === arm);
    return e ? `${e.name} (${e.number})` : `arm ${arm}`;
  };
  // Button text stays short for phones: "Left · 4"; the full name is its label.
  const endButton = (arm) => {
    const e = names.find((n) => n.arm === arm);
    return e ? `${capital(e.name.replace(/ end$/, ""))} · ${e.number}` : `Arm ${arm}`;
  };

  const send = (msg) => {
    setBusy(true);
    return socket
      .request({ ...msg, version: state.version })
      .catch((err) => {
        setBusy(false);
        if (err.code !== "stale") onError(err.message || "That move was refused.");
      });
  };

  const play = (tile, arm) => {
    setChosen(null);
    send(arm === null ? { type: "play", tile } : { type: "play", tile, arm });
  };

  const pick = (tile) => {
    if (!moves || busy || !fits.has(tile)) return;
    const arms = fits.get(tile);
    if (leading) return play(tile, null);
    if (arms.length === 1) return play(tile, arms[0]);
    setChosen(chosen && chosen.tile === tile ? null : { tile, arms });
  };

  const myTurn = !!moves;
  const canDraw = !!(moves && moves.draw);
  const canPass = !!(moves && moves.pass);

  // Keyboard: arrows walk the hand, Escape cancels, D draws, P passes, 1-4 pick an end.
  const onKey = (e) => {
    if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "SELECT")) return;
    if (e.key === "Escape" && chosen) {
      e.preventDefault();
      setChosen(null);
    } else if ((e.key === "d" || e.key === "D") && canDraw && !busy) {
      send({ type: "draw", until_fits: true });
    } else if ((e.key === "p" || e.key === "P") && canPass && !busy) {
      send({ type: "pass" });
    } else if (chosen && /^[1-9]$/.test(e.key)) {
      const arm = chosen.arms[Number(e.key) - 1];
      if (arm !== undefined) play(chosen.tile, arm);
    } else if ((e.key === "ArrowLeft" || e.key === "ArrowRight") && handRef.current) {
      const buttons = [...handRef.current.querySelectorAll("button")];
      const at = buttons.indexOf(document.activeElement);
      if (at < 0) return;
      e.preventDefault();
      const next = buttons[(at + (e.key === "ArrowRight" ? 1 : buttons.length - 1)) % buttons.length];
      next.focus();
    }
  };
  // The listener is added once and always calls the handler of the latest render (an effect
  // would re-add it only after the paint, and a quick key press would meet the old one).
  const keys = useRef(onKey);
  keys.current = onKey;
  useEffect(() => {
    const listener = (e) => keys.current(e);
    document.addEventListener("keydown", listener);
    return () => document.removeEventListener("keydown", listener);
  }, []);

  // Say once per turn that it is yours, for screen readers (the live region below).
  const turnNote = myTurn
    ? leading
      ? "Your lead: choose a tile."
      : canDraw
        ? "Nothing fits: draw."
        : canPass
          ? hand.boneyard > 0 // a preset without drawing (Block, Partnership)
            ? "Nothing fits: pass."
            : "Nothing fits and the boneyard is empty: pass."
          : chosen
            ? `Choose an end for ${chosen.tile}.`
            : "Your turn: choose a lit tile."
    : hand && !hand.result && hand.turn !== null && hand.turn !== undefined
      ? `${nameOf(hand.turn)} to play…`
      : "";

  // A tab in the background says when it is your turn.
  useEffect(() => {
    document.title = myTurn ? "▶ Your turn · Domino Hall" : `${table.preset_name} · Domino Hall`;
    return () => {
      document.title = "Domino Hall";
    };
  }, [myTurn, table.preset_name]);

  const lit = chosen ? new Set(chosen.arms) : leading ? new Set(["lead"]) : null;
  const onEnd = (arm) => {
    if (arm === "lead") return;
    if (chosen && chosen.arms.includes(arm)) play(chosen.tile, arm);
  };

  // You first, then the others in turn order.
  const order = mySeat === null ? seats : [...seats.slice(mySeat), ...seats.slice(0, mySeat)];
  const lines = hand ? logLines(hand.log || [], chain, kind, nameOf, mySeat) : [];
  const logBox = useRef(null);
  useEffect(() => {
    // Scroll the log itself (scrollIntoView would scroll the whole table too).
    if (logBox.current) logBox.current.scrollTop = logBox.current.scrollHeight;
  }, [lines.length]);

  const boardLabel = chain.length
    ? `The layout: ${chain.length} tiles. Open ends: ${openEnds.map((e) => endName(e.arm)).join(", ") || "none"}.`
    : "The layout is empty.";

  // data-* attributes let tests (and people reading the DOM) see where the game stands.
  return html`<div class="table" data-phase=${phase} data-version=${state.version}
    data-my-turn=${myTurn ? "true" : "false"} data-busy=${busy ? "true" : "false"}>
    <div class="topbar">
      <span class="title">${table.preset_name}</span>
      <span>to ${table.target}</span>
      ${hand && html`<span class="hand-no">· Hand ${hand.number + 1}</span>`}
      <span class="spacer"></span>
      ${status !== "open" && html`<span class="clock warn" role="status">Reconnecting…</span>`}
      <${TileStylePicker} compact=${true} />
      <button class="log-toggle" aria-expanded=${logOpen} onClick=${() => setLogOpen(!logOpen)}>Log</button>
      <button onClick=${() => {
        if (phase === "finished" || mySeat === null || confirm("Leave the game? You will be out of it.")) {
          if (mySeat !== null && phase !== "finished") socket.request({ type: "leave" }).catch(() => {});
          goHome();
        }
      }}>Leave</button>
    </div>
    <div class="players" aria-label="Players">
      ${order.map(
        (s) => html`<${PlayerCard}
          key=${s.seat}
          seat=${s}
          name=${nameOf(s.seat)}
          me=${s.seat === mySeat}
          turn=${hand && !hand.result && hand.turn === s.seat}
          clockLeft=${clock && clock.seat === s.seat ? clockLeft : null}
          phase=${phase}
          pips=${s.seat === mySeat && hand ? hand.pips : null}
          teams=${teams}
        />`,
      )}
    </div>
    <div class="middle">
      <div style="position:relative;min-height:0">
        <div class="info">
          ${hand && html`<span class="boneyard">Boneyard ${hand.boneyard}</span>`}
          ${hand && hand.ends_total !== null && hand.ends_total !== undefined &&
          html`<span class="ends-total">Ends ${hand.ends_total}</span>`}
        </div>
        <${Board} chain=${chain} kind=${kind} openEnds=${openEnds} lit=${lit} onEnd=${onEnd}
          label=${boardLabel} onBox=${setBox} />
      </div>
      <aside class=${"log" + (logOpen ? " open" : "")} aria-label="This hand so far" ref=${logBox}>
        <h3>This hand</h3>
        <ol>
          ${lines.map((l) => html`<li key=${l.key} class=${l.kind}>${l.text}</li>`)}
        </ol>
      </aside>
    </div>
    <div class=${"actions" + (chosen ? " choosing" : "")}>
      <span class="status" role="status" aria-live="polite">${turnNote}</span>
      ${myTurn && clockLeft !== null && clockLeft <= WARN_AT &&
      html`<span class="sr-only" role="alert">Your time is nearly up.</span>`}
      ${chosen &&
      html`${chosen.arms.map(
          (arm, k) => html`<button class="primary end-choice" key=${arm} onClick=${() => play(chosen.tile, arm)}
            aria-label=${`Play ${chosen.tile} on the ${endName(arm)}`}
            aria-keyshortcuts=${String(k + 1)}>${endButton(arm)}</button>`,
        )}
        <button class="cancel" onClick=${() => setChosen(null)} aria-keyshortcuts="Escape">Cancel</button>`}
      ${canDraw && html`<button class="primary draw" disabled=${busy} onClick=${() => send({ type: "draw", until_fits: true })} aria-keyshortcuts="D">Draw</button>`}
      ${canPass && html`<button class="primary pass" disabled=${busy} onClick=${() => send({ type: "pass" })} aria-keyshortcuts="P">Pass</button>`}
    </div>
    <div class="hand" ref=${handRef} role="group" aria-label="Your tiles">
      ${hand &&
      hand.tiles.map((t) => {
        const [a, b] = halvesOf(t);
        const fit = fits.has(t);
        const cls = ["hand-tile", fit ? "fits" : myTurn ? "dim" : "", chosen && chosen.tile === t ? "chosen" : ""].join(" ");
        return html`<button
          key=${t}
          class=${cls}
          data-tile=${t}
          aria-label=${`${a}-${b}` + (fit ? ", fits" : "") + (chosen && chosen.tile === t ? ", chosen" : "")}
          aria-disabled=${fit && !busy ? "false" : "true"}
          aria-pressed=${chosen && chosen.tile === t ? "true" : "false"}
          onClick=${() => pick(t)}
        >
          <${TileImage} a=${a} b=${b} upright=${true} />
        </button>`;
      })}
    </div>
    ${hand && hand.result && phase === "between_hands" &&
    html`<${HandEnd} state=${state} nameOf=${nameOf} receivedAt=${receivedAt} teams=${teams}
      onNext=${() => socket.request({ type: "next_hand" }).catch((e) => onError(e.message))} />`}
    ${state.game && html`<${GameEnd} state=${state} nameOf=${nameOf} teams=${teams} goHome=${goHome} />`}
  </div>`;
}
