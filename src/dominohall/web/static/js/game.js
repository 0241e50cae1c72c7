// The table while a game is on: opponents, the layout, your tiles, and what you may do now.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import { html } from "./ui.js";
import { Board, chainOf, endNames } from "./board.js";
import { TileImage, halvesOf } from "./tile.js";
import { logLines } from "./handlog.js";
import { daysHours, formatSeconds, useCountdown } from "./clock.js";
import { lazyComponent } from "./lazy.js";
import { TileStylePicker } from "./stylepicker.js";
import { LanguageSwitch } from "./langswitch.js";
import { post } from "./api.js";
import { setTitle } from "./pagetitle.js";
import { GamesBadge } from "./playerchannel.js";
import { Announcer } from "./announcer.js";
import { WatchersToggle } from "./watchersopen.js";
import { _, ngettext, pgettext, number } from "./i18n.js";
import { presetName } from "./names.js";
import { seatName } from "./seating.js";
import { andList } from "./handlog.js";

// Drawn at some tables or moments only: loaded then (the first screen stays light).
const TurnBasedPanel = lazyComponent(() => import("./turnbased.js"), "TurnBasedPanel");
const HandEnd = lazyComponent(() => import("./handend.js"), "HandEnd");
const GameEnd = lazyComponent(() => import("./handend.js"), "GameEnd");
const ChatPanel = lazyComponent(() => import("./chat.js"), "ChatPanel");
const ResignConfirm = lazyComponent(() => import("./resign.js"), "ResignConfirm");
const ResignAsked = lazyComponent(() => import("./resign.js"), "ResignAsked");
const ResignWaiting = lazyComponent(() => import("./resign.js"), "ResignWaiting");

const N_ = (id) => id; // marked for the catalog; translated where shown
const WARN_AT = 8; // seconds left on your own turn when the clock turns to a warning

/** A seat's name as shown: two computer players of one level are told apart by seat number. */
export function displayName(seats, seat, mySeat) {
  const s = seats[seat];
  if (!s || !s.name) return _("Seat {n}", { n: seat + 1 });
  const twin = seats.some((o) => o.seat !== seat && o.name === s.name);
  const name = twin ? `${seatName(s)} ${seat + 1}` : seatName(s);
  return seat === mySeat ? _("{name} (you)", { name }) : name;
}

/** "by forfeit", "on time" or nothing: how a game was won (sentences below take each whole). */
const winKind = (game) => (game.reason === "forfeit" ? "forfeit" : game.reason === "cap" ? "cap" : "");

/** The game's end in one sentence, for the live region (the dialog says more). */
function gameOverWords(game, seats, mySeat, nameOf, teams) {
  if (game.reason === "abandoned") return _("The game was abandoned.");
  if (game.reason === "aborted") return _("The game was aborted.");
  if (game.winner === null || game.winner === undefined) {
    return game.reason === "cap" ? _("Time is up: the game is a draw.") : _("The game is over: nobody wins.");
  }
  const by = winKind(game);
  if (teams) {
    const team = seats[game.winner].team;
    const mine = mySeat !== null && seats[mySeat].team === team;
    if (mine) {
      return by === "forfeit" ? _("The game is over: your team wins by forfeit!")
        : by === "cap" ? _("The game is over: your team wins on time!") : _("The game is over: your team wins!");
    }
    const v = { team: team + 1 };
    return by === "forfeit" ? _("The game is over: team {team} wins by forfeit.", v)
      : by === "cap" ? _("The game is over: team {team} wins on time.", v) : _("The game is over: team {team} wins.", v);
  }
  if (game.winner === mySeat) {
    return by === "forfeit" ? _("The game is over: you win by forfeit!")
      : by === "cap" ? _("The game is over: you win on time!") : _("The game is over: you win!");
  }
  const v = { name: nameOf(game.winner) };
  return by === "forfeit" ? _("The game is over: {name} wins by forfeit.", v)
    : by === "cap" ? _("The game is over: {name} wins on time.", v) : _("The game is over: {name} wins.", v);
}

/** Why a person is out of the game, in words (seats[].out_reason). */
export const OUT_WORDS = {
  timeout: N_("You are out of the game (you ran out of time twice): you are watching the others play on."),
  left: N_("You are out of the game (you left the table): you are watching the others play on."),
  disconnected: N_("You are out of the game (you lost the connection for over a minute): you are watching the others play on."),
  resigned: N_("You are out of the game (you resigned): you are watching the others play on."),
};

/** Which seats are partners (partnership): a seat's team mates. */
const partnersOf = (seats, seat) => seats.filter((s) => s.seat !== seat && s.team === seats[seat].team);

function PlayerCard({ seat, name, me, turn, clockLeft, phase, pips, teams, partner }) {
  // A ranked table shows each player's rating in the table's pool ("1642", "1500?" while new).
  const rated = seat.rating
    ? html`<span class="seat-rating"> · <span class="rating-word">${_("rating")} </span>${seat.rating}</span>`
    : null;
  const warn = me && clockLeft !== null && clockLeft <= WARN_AT;
  const away = seat.kind === "human" && !seat.connected;
  const cls = ["player", turn ? "turn" : "", me ? "me" : "", away ? "away" : "", partner ? "partner" : ""].join(" ");
  const who = [
    me ? _("{name} (you)", { name }) : name,
    partner && _("your partner"),
    seat.kind === "bot" && _("computer"),
    seat.out && _("out of the game"),
    away && _("away"),
  ];
  const what = [
    teams ? _("team {n}", { n: seat.team + 1 }) : _("score {score}", { score: number(seat.score) }),
    ngettext("{n} tile", "{n} tiles", seat.tiles),
    seat.rating && _("rated {rating}", { rating: seat.rating }),
    me && pips !== null && ngettext("{n} pip in hand", "{n} pips in hand", pips),
    turn && _("to play"),
  ];
  const label = _("{who}: {what}", { who: who.filter(Boolean).join(", "), what: what.filter(Boolean).join(", ") });
  // Always four lines, so that the table below never moves when a clock appears.
  const fourth =
    turn && clockLeft !== null
      ? html`<span class=${"clock" + (warn ? " warn" : "")}>${((time) => (warn ? _("Hurry! {time} left", { time }) : _("{time} left", { time })))(
          clockLeft >= 60 ? daysHours(clockLeft) : _("{s} s", { s: formatSeconds(clockLeft) }))}</span>`
      : phase === "between_hands" && seat.ready
        ? _("ready ✓")
        : seat.out
          ? _("out")
          : seat.kind === "bot"
            ? _("computer")
            : "\u00a0";
  // TRANSLATORS: "Team 1" cut short on a narrow screen
  const teamShort = teams && _("T{n}", { n: seat.team + 1 });
  // In partnership the team's score is shown once, above the layout; a card says the team.
  const second = teams
    ? partner
      ? html`<span class="partner-tag">${_("Partner")}</span><span class="team-long"> · ${_("team {n}", { n: seat.team + 1 })}</span>`
      : html`<span class="team-long">${_("Team {n}", { n: seat.team + 1 })}</span><span class="team-short">${teamShort}</span>`
    : html`<span class="score">${_("Score {score}", { score: number(seat.score) })}</span>`;
  // The card reads as one sentence (its label); the lines inside are for the eye.
  return html`<div class=${cls} role="listitem" aria-label=${label} data-seat=${seat.seat}>
    <div class="name" aria-hidden="true">${name}${me && html`<span class="you-tag"> ${_("(you)")}</span>`}</div>
    <div class="sub" aria-hidden="true">${second}${rated}</div>
    <div class="sub" aria-hidden="true">
      ${me && pips !== null
        ? html`<span class="pips">${_("Pips {n}", { n: number(pips) })}</span>`
        : ngettext("{n} tile", "{n} tiles", seat.tiles)}
    </div>
    <div class="sub" aria-hidden="true">${fourth}</div>
  </div>`;
}

export function Game({ state, kind, preset, receivedAt, socket, onError, goHome, go, status, me, chat }) {
  const { table, seats, you, hand, clock } = state;
  const mySeat = you ? you.seat : null;
  const phase = table.phase;
  const over = !!state.game;
  // Block and Partnership have no boneyard to draw from: no chip, no words about it.
  const drawing = !preset || preset.drawing !== "none";
  const teams = seats.some((s) => s.team !== null && s.team !== undefined);
  const [chosen, setChosen] = useState(null); // {tile, arms}
  const [busy, setBusy] = useState(false);
  const [logOpen, setLogOpen] = useState(false);
  const [chatOpen, setChatOpen] = useState(false);
  const [chatSeen, setChatSeen] = useState(0); // the last line id read with the chat open
  const [confirming, setConfirming] = useState(false); // "Resign this game?" is open
  const [answering, setAnswering] = useState(false); // a resign answer on its way
  const clockLeft = useCountdown(clock ? clock.left : null, receivedAt);
  const handRef = useRef(null);

  const nameOf = (seat) => displayName(seats, seat, mySeat);
  const myPartners = teams && mySeat !== null ? partnersOf(seats, mySeat).map((s) => s.seat) : [];

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
    // Ends alike for the player are one choice (the hall's `ends`): a tile fitting only such
    // ends is just played.
    else for (const p of moves.play) fits.set(p.tile, p.ends);
  }
  const [box, setBox] = useState(undefined);
  const names = useMemo(() => endNames(chain, kind, openEnds, box), [chain, kind, openEnds, box]);
  const endName = (arm) => {
    const e = names.find((n) => n.arm === arm);
    return e ? _("{end} ({number})", { end: e.name, number: e.number }) : _("arm {arm}", { arm });
  };
  // A tile's name says where it may go ("6-4, fits the left end"): the light is not the only sign.
  const tileLabel = (t) => {
    const [a, b] = halvesOf(t);
    const name = `${a}-${b}`;
    if (!fits.has(t)) return myTurn ? _("{tile}, does not fit", { tile: name }) : name;
    const ends = fits.get(t).map((arm) => {
      const e = names.find((n) => n.arm === arm);
      return _("the {end}", { end: e ? e.name : _("arm {arm}", { arm }) });
    });
    const label = leading ? _("{tile}, you may lead it", { tile: name }) : _("{tile}, fits {ends}", { tile: name, ends: andList(ends) });
    return chosen && chosen.tile === t ? _("{tile}, chosen", { tile: label }) : label;
  };
  // Button text stays short for phones: "Left · 4"; the full name is its label.
  const endButton = (arm) => {
    const e = names.find((n) => n.arm === arm);
    return e ? `${e.short} · ${e.number}` : _("Arm {arm}", { arm });
  };

  const send = (msg) => {
    setBusy(true);
    return socket
      .request({ ...msg, version: state.version })
      .catch((err) => {
        setBusy(false);
        if (err.code !== "stale") onError(err.message || _("That move was refused."));
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

  // Cancel puts the tile back, and the focus on it (its end buttons, which held it, are gone).
  const cancel = () => {
    const tile = chosen && handRef.current && handRef.current.querySelector(`[data-tile="${chosen.tile}"]`);
    setChosen(null);
    if (tile) tile.focus();
  };

  const myTurn = !!moves;
  const canDraw = !!(moves && moves.draw);
  const canPass = !!(moves && moves.pass);

  // Keyboard: arrows walk the hand, Escape cancels, D draws, P passes, 1-4 pick an end.
  const onKey = (e) => {
    if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "SELECT")) return;
    if (document.querySelector(".resign-confirm, .resign-asked")) return; // i18n: not shown
    if (e.key === "Escape" && chosen) {
      e.preventDefault();
      cancel();
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
      ? _("Your lead: choose a tile.")
      : canDraw
        ? _("Nothing fits: draw.")
        : canPass
          ? drawing
            ? _("Nothing fits and the boneyard is empty: pass.")
            : _("Nothing fits: pass.")
          : chosen
            ? _("Choose an end for {tile}.", { tile: chosen.tile })
            : _("Your turn: choose a lit tile.")
    : !over && hand && !hand.result && hand.turn !== null && hand.turn !== undefined
      ? _("{name} to play…", { name: nameOf(hand.turn) })
      : over
        ? _("The game is over.")
        : "";

  // A tab in the background says when it is your turn.
  useEffect(() => {
    setTitle(myTurn ? _("▶ Your turn · Domino Hall") : `${presetName(table.preset, table.preset_name)} · Domino Hall`); // i18n: not shown
    return () => setTitle("Domino Hall");
  }, [myTurn, table.preset_name]);

  const lit = chosen ? new Set(chosen.arms) : leading ? new Set(["lead"]) : null;
  const onEnd = (arm) => {
    if (arm === "lead") return;
    if (chosen && chosen.arms.includes(arm)) play(chosen.tile, arm);
  };

  // You first, then the others in turn order.
  const order = mySeat === null ? seats : [...seats.slice(mySeat), ...seats.slice(0, mySeat)];
  const lines = hand ? logLines(hand.log || [], chain, nameOf, mySeat) : [];
  const logBox = useRef(null);
  useEffect(() => {
    // Scroll the log itself (scrollIntoView would scroll the whole table too).
    if (logBox.current) logBox.current.scrollTop = logBox.current.scrollHeight;
  }, [lines.length]);

  // The last play scored: "+10" beside the tile that scored, for everyone, until the next play.
  const lastPlay = hand && !hand.result ? [...(hand.log || [])].reverse().find((e) => e.kind === "move" && e.play) : null;
  const scoredNow = lastPlay && lastPlay.scored > 0 ? lastPlay : null;

  // Partnership: each team's score once.
  const teamScores = teams
    ? [0, 1].map((team) => {
        const members = seats.filter((s) => s.team === team);
        return {
          team,
          score: members.length ? members[0].score : 0,
          names: andList(members.map((s) => nameOf(s.seat))),
          mine: mySeat !== null && seats[mySeat].team === team,
        };
      })
    : [];

  // The hand's and the game's end with the scores, for the live region (the log's last line
  // says who went out and the bonus).
  const scoreWords = (teams
    ? teamScores.map((t) => (t.mine ? _("your team {score}", { score: number(t.score) }) : _("team {n} {score}", { n: t.team + 1, score: number(t.score) })))
    : seats.map((s) => `${nameOf(s.seat)} ${number(s.score)}`)
  ).join(", ");
  const ending = over ? _("{end} Final scores: {scores}.", { end: gameOverWords(state.game, seats, mySeat, nameOf, teams), scores: scoreWords })
    : hand && hand.result ? _("Hand {hand} is over. Scores: {scores}.", { hand: hand.number + 1, scores: scoreWords })
      : "";

  // What a person should know about their seat: a first timeout, or being out and watching.
  const mine = mySeat !== null ? seats[mySeat] : null;
  const notice = over
    ? null
    : you && you.out
      ? _(OUT_WORDS[you.out.reason] || N_("You are out of the game: you are watching the others play on."))
      : mine && mine.timeouts > 0
        ? _("Your time ran out, so the computer played for you. If it runs out on your next turn too, you are out of the game.")
        : null;

  // Resigning (protocol 4): a seated person while the game is on; in partnership the request
  // to the partner (you.resign: shown to the two of them only) and the partner's answer.
  const canResign = !over && mySeat !== null && (phase === "playing" || phase === "between_hands");
  const request = canResign && you.resign ? you.resign : null;
  const partnerSeat = teams && mySeat !== null ? (mySeat + 2) % 4 : null;
  const partnerIsPerson = partnerSeat !== null && seats[partnerSeat].kind === "human";
  const resign = () => {
    setConfirming(false);
    socket.request({ type: "resign" }).catch((e) => onError(e.message));
  };
  const answerResign = (accept) => {
    setAnswering(true);
    socket
      .request({ type: "resign_answer", accept })
      .catch((e) => onError(e.message))
      .finally(() => setAnswering(false));
  };
  useEffect(() => {
    if (!canResign) setConfirming(false);
  }, [canResign]);

  // The rematch (protocol 3.3): accepting, and leaving a finished table, which ends the offer.
  const offer = state.rematch;
  const rematch = (accept) =>
    post(`/api/tables/${table.id}/rematch`, { accept }).catch((e) => {
      if (accept) onError(e.message);
    });
  const leaveAfterTheEnd = () => {
    if (offer && offer.open && mySeat !== null && offer.people.includes(mySeat)) rematch(false);
    goHome();
  };
  useEffect(() => {
    if (offer && offer.table && mySeat !== null && offer.people.includes(mySeat)) go(`/t/${offer.table}`);
  }, [offer && offer.table]);

  // Focus never falls to the page's end, where a keyboard would have to start over: at the
  // game's start (the Start button is gone), and whenever what held it went (a tile played, Draw
  // or Pass done), it goes back to the hand, a lit tile first. Layout effects, so that it is in
  // place before the next key press. The hand's and the game's end dialogs hold it themselves.
  const headingRef = useRef(null);
  useLayoutEffect(() => {
    if (over || (hand && hand.result)) return;
    const at = document.activeElement;
    if (at && at !== document.body && at.isConnected) return;
    const tiles = handRef.current;
    const target =
      (tiles && tiles.querySelector(".hand-tile.fits")) ||
      document.querySelector(".actions button.draw, .actions button.pass") || // i18n: not shown
      (tiles && tiles.querySelector(".hand-tile")) ||
      headingRef.current;
    if (target) target.focus({ preventScroll: true });
  });
  // A tile that fits two ends hands the focus to its first end's button.
  useLayoutEffect(() => {
    if (!chosen) return;
    const first = document.querySelector(".actions .end-choice"); // i18n: not shown
    if (first) first.focus({ preventScroll: true });
  }, [chosen && chosen.tile]);

  const boardLabel = chain.length
    ? _("{tiles}. Open ends: {ends}.", {
      tiles: ngettext("The layout: {n} tile", "The layout: {n} tiles", chain.length),
      ends: openEnds.map((e) => endName(e.arm)).join(", ") || _("none"),
    })
    : _("The layout is empty.");

  // A watcher (no seat) is told so at the top, with the players and whose turn it is; everyone
  // sees how many watch (the "watchers" message, protocol 3.2).
  const watchers = state.watchers || 0;
  const playing = seats.filter((s) => s.kind !== "empty").length;
  const watchingWords = [
    ngettext("{n} player", "{n} players", playing),
    !over && hand && !hand.result && hand.turn !== null && hand.turn !== undefined ? _("{name} to play", { name: nameOf(hand.turn) }) : null,
  ].filter(Boolean).join(" · ");

  // The chat of the room this seat reads: lines of another room are from before a seat changed.
  const chatRoom = mySeat !== null ? "players" : "spectators";
  const chatLines = chat && chat.room === chatRoom ? chat.lines : [];
  const newest = chatLines.length ? chatLines[chatLines.length - 1].id : 0;
  useEffect(() => {
    if (chatOpen) setChatSeen(newest);
  }, [chatOpen, newest]);
  const unread = chatOpen ? 0 : chatLines.filter((l) => l.id > chatSeen).length;

  // data-* attributes let tests (and people reading the DOM) see where the game stands.
  return html`<main class="table" data-phase=${phase} data-version=${state.version}
    data-my-turn=${myTurn ? "true" : "false"} data-busy=${busy ? "true" : "false"}>
    <div class="topbar">
      <h1 class="heading" tabindex="-1" ref=${headingRef}>
        <span class="title">${presetName(table.preset, table.preset_name)}</span>
        <span class="target">${_("to {target}", { target: number(table.target) })}</span>
        ${table.ranked && html`<span class="rated" title=${_("A ranked game: the result changes the players' ratings")}>· ${_("Rated")}</span>`}
        ${table.arena && html`<span class="rated arena" title=${_("An arena game: it also counts for this season's leagues")}>· ${_("Arena")}</span>`}
        ${hand && html`<span class="hand-no">· ${_("Hand {n}", { n: hand.number + 1 })}</span>`}
        ${mySeat === null &&
        html`<span class="watching-badge" data-watching="true"
          aria-label=${_("Watching: {what}", { what: watchingWords })}>${_("Watching")}</span>
          <span class="watching-info" aria-hidden="true">${watchingWords}</span>`}
        ${watchers > 0 && html`<span class="watchers" data-watchers=${watchers}
          title=${_("People watching this table")}>· ${ngettext("{n} watching", "{n} watching", watchers)}</span>`}
      </h1>
      <${WatchersToggle} table=${table} you=${you} onError=${onError} compact=${true} />
      <span class="spacer"></span>
      ${status !== "open" && html`<span class="clock warn" role="status">${_("Reconnecting…")}</span>`}
      <${GamesBadge} go=${go} compact=${true} />
      <${TileStylePicker} compact=${true} />
      <${LanguageSwitch} compact=${true} />
      <button class="log-toggle" aria-expanded=${logOpen} onClick=${() => setLogOpen(!logOpen)}>${_("Log")}</button>
      <button class="chat-toggle" aria-expanded=${chatOpen} onClick=${() => setChatOpen(!chatOpen)}>
        ${_("Chat")}${unread > 0 && html` <span class="chat-unread" aria-label=${ngettext("{n} new", "{n} new", unread)}>${unread}</span>`}
      </button>
      ${canResign
        ? html`<button class="resign" aria-haspopup="dialog" disabled=${!!request}
            onClick=${() => setConfirming(true)}>${_("Resign")}</button>`
        : html`<button class="leave" onClick=${() => {
            if (phase === "finished") return leaveAfterTheEnd();
            goHome();
          }}>${_("Leave")}</button>`}
    </div>
    <div class="players" role="list" aria-label=${_("Players")}>
      ${order.map(
        (s) => html`<${PlayerCard}
          key=${s.seat}
          seat=${s}
          name=${displayName(seats, s.seat, null)}
          me=${s.seat === mySeat}
          turn=${!over && hand && !hand.result && hand.turn === s.seat}
          partner=${myPartners.includes(s.seat)}
          clockLeft=${clock && clock.seat === s.seat ? clockLeft : null}
          phase=${phase}
          pips=${s.seat === mySeat && hand ? hand.pips : null}
          teams=${teams}
        />`,
      )}
    </div>
    <div class="middle">
      ${state.turn_based && html`<${TurnBasedPanel} tb=${state.turn_based} nameOf=${nameOf} receivedAt=${receivedAt} />`}
      <div class="board-area">
        <div class="info">
          ${teams && teamScores.map(
            (t) => html`<span class="team-score" key=${t.team} data-team=${t.team}
              aria-label=${_("Team {n} ({names}): {score}", { n: t.team + 1, names: t.names, score: number(t.score) })}>${
                t.mine ? _("Your team {score}", { score: number(t.score) }) : _("Team {n} {score}", { n: t.team + 1, score: number(t.score) })}</span>`,
          )}
          ${hand && drawing && html`<span class="boneyard">${_("Boneyard {n}", { n: hand.boneyard })}</span>`}
          ${hand && hand.ends_total !== null && hand.ends_total !== undefined &&
          html`<span class="ends-total">${_("Ends {n}", { n: hand.ends_total })}</span>`}
        </div>
        ${notice && html`<p class="notice" role="alert">${notice}</p>`}
        ${request && request.seat === mySeat &&
        html`<${ResignWaiting} partner=${nameOf(request.partner)} request=${request} stateNow=${state.now}
          receivedAt=${receivedAt} />`}
        <${Board} chain=${chain} kind=${kind} openEnds=${openEnds} lit=${lit} onEnd=${onEnd}
          label=${boardLabel} onBox=${setBox}
          scored=${scoredNow && { points: scoredNow.scored, key: scoredNow.version }} />
      </div>
      <aside class=${"log" + (logOpen ? " open" : "")} aria-label=${_("This hand so far")} ref=${logBox} tabindex="0">
        <div class="log-lang"><${LanguageSwitch} /></div>
        <h2>${_("This hand")}</h2>
        <ol>
          ${lines.map((l) => html`<li key=${l.key} class=${l.kind}>${l.text}</li>`)}
        </ol>
      </aside>
    </div>
    <div class=${"actions" + (chosen ? " choosing" : "")}>
      <span class="status">${turnNote}</span>
      ${myTurn && clockLeft !== null && clockLeft <= WARN_AT &&
      html`<span class="sr-only" role="alert">${_("Your time is nearly up.")}</span>`}
      ${chosen &&
      html`${chosen.arms.map(
          (arm, k) => html`<button class="primary end-choice" key=${arm} onClick=${() => play(chosen.tile, arm)}
            aria-label=${_("Play {tile} on the {end}", { tile: chosen.tile, end: endName(arm) })}
            aria-keyshortcuts=${String(k + 1)}>${endButton(arm)}</button>`,
        )}
        <button class="cancel" onClick=${cancel} aria-keyshortcuts="Escape">${_("Cancel")}</button>`}
      ${canDraw && html`<button class="primary draw" disabled=${busy} onClick=${() => send({ type: "draw", until_fits: true })} aria-keyshortcuts="D">${pgettext("button", "Draw")}</button>`}
      ${canPass && html`<button class="primary pass" disabled=${busy} onClick=${() => send({ type: "pass" })} aria-keyshortcuts="P">${pgettext("button", "Pass")}</button>`}
    </div>
    <div class="hand" ref=${handRef} role="group" aria-label=${_("Your tiles")}>
      ${hand &&
      hand.tiles.map((t) => {
        const [a, b] = halvesOf(t);
        const fit = fits.has(t);
        const cls = ["hand-tile", fit ? "fits" : myTurn ? "dim" : "", chosen && chosen.tile === t ? "chosen" : ""].join(" ");
        return html`<button
          key=${t}
          class=${cls}
          data-tile=${t}
          aria-label=${tileLabel(t)}
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
    ${state.game && html`<${GameEnd} state=${state} nameOf=${nameOf} teams=${teams} goHome=${leaveAfterTheEnd}
      onRematch=${() => rematch(true)} />`}
    ${confirming && canResign &&
    html`<${ResignConfirm} players=${seats.length} teams=${teams} partnerIsPerson=${partnerIsPerson}
      onResign=${resign} onKeep=${() => setConfirming(false)} />`}
    ${request && request.partner === mySeat &&
    html`<${ResignAsked} asker=${nameOf(request.seat)} request=${request} stateNow=${state.now}
      receivedAt=${receivedAt} busy=${answering} onAnswer=${answerResign} />`}
    ${chatOpen && html`<${ChatPanel} room=${chatRoom} lines=${chatLines} me=${me} isPublic=${!table.private} timedOut=${chat && chat.timedOut}
      phrasesOnly=${teams && phase === "playing" && chatRoom === "players"} socket=${socket}
      onError=${onError} onClose=${() => setChatOpen(false)} />`}
    <${Announcer} lines=${lines} ending=${ending} turn=${turnNote} />
  </main>`;
}
