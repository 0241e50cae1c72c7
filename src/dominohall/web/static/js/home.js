// Home: who you are, one click to a game against a computer player, a new table, the live lobby.
import { useState } from "preact/hooks";
import { html } from "./ui.js";
import { post } from "./api.js";
import { howToPlay } from "./howto.js";
import { TileStylePicker } from "./stylepicker.js";
import { GamesBadge, useMyGames } from "./playerchannel.js";
import { HallLinks, PlayRanked } from "./ranked.js";
import { NameLength } from "./nameprompt.js";
import { offered } from "./choices.js";
import { _, ngettext } from "./i18n.js";
import { _html, strong } from "./markup.js";
import { levelName, presetName, timerLabel } from "./names.js";
import { Lobby } from "./lobby.js";
import { TournamentList } from "./tournamentlist.js";
import { LanguageSwitch } from "./langswitch.js";


function Who({ me, setMe }) {
  const [name, setName] = useState(me ? me.name : "");
  const [mode, setMode] = useState("guest"); // guest | sign-in | account
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState(null);
  const [editing, setEditing] = useState(false);

  const run = async (fn) => {
    setError(null);
    try {
      const { player } = await fn();
      setMe(player);
      setEditing(false);
      setMode("guest");
      setPassword("");
    } catch (e) {
      setError(e.message);
    }
  };

  if (me && !editing && mode !== "account") {
    return html`<section class="card" aria-labelledby="who-h">
      <h2 id="who-h">${_("You")}</h2>
      <p>${me.guest
        ? _html("Playing as {name} (guest).", { name: strong(me.name) })
        : _html("Playing as {name} (@{username}).", { name: strong(me.name), username: me.username })}</p>
      <div class="row">
        ${me.guest && html`<button onClick=${() => setEditing(true)}>${_("Change name")}</button>`}
        ${me.guest && html`<button onClick=${() => setMode("account")}>${_("Keep this name: make an account")}</button>`}
        ${!me.guest && html`<button onClick=${() => run(() => post("/api/sign-out"))}>${_("Sign out")}</button>`}
      </div>
      ${error && html`<p class="error" role="alert">${error}</p>`}
    </section>`;
  }

  const submit = (e) => {
    e.preventDefault();
    if (mode === "guest") run(() => post("/api/guest", { name: name.trim() }));
    else if (mode === "sign-in") run(() => post("/api/sign-in", { username, password }));
    else run(() => post("/api/accounts", { username, password, name: name.trim() || undefined }));
  };
  return html`<section class="card" aria-labelledby="who-h">
    <h2 id="who-h">${mode === "sign-in" ? _("Sign in") : mode === "account" ? _("Make an account") : _("Pick a nickname")}</h2>
    <form onSubmit=${submit}>
      ${mode !== "sign-in" &&
      html`<label for="nick">${_("Nickname")}</label>
        <input id="nick" autocomplete="nickname" value=${name} onInput=${(e) => setName(e.target.value)} />
        <${NameLength} name=${name} id="nick-length" />`}
      ${mode !== "guest" &&
      html`<label for="user">${_("Username")}</label>
        <input id="user" autocomplete="username" value=${username} onInput=${(e) => setUsername(e.target.value)} />
        <${NameLength} name=${username} id="user-length" kind="username" />
        <label for="pass">${_("Password")}</label>
        <input id="pass" type="password" autocomplete=${mode === "sign-in" ? "current-password" : "new-password"}
          value=${password} onInput=${(e) => setPassword(e.target.value)} />`}
      <div class="row spaced">
        <button class="primary" type="submit">${mode === "guest" ? _("Play as guest") : mode === "sign-in" ? _("Sign in") : _("Make account")}</button>
        ${mode === "guest"
          ? html`<button type="button" onClick=${() => setMode("sign-in")}>${_("Sign in")}</button>
              <button type="button" onClick=${() => setMode("account")}>${_("New account")}</button>`
          : html`<button type="button" onClick=${() => { setMode("guest"); setEditing(false); }}>${_("Back")}</button>`}
      </div>
    </form>
    ${error && html`<p class="error" role="alert">${error}</p>`}
  </section>`;
}

function NewTable({ presets, me, go }) {
  const [presetId, setPresetId] = useState("draw");
  const preset = presets.find((p) => p.id === presetId) || presets[0];
  const [target, setTarget] = useState(null);
  const [seats, setSeats] = useState(2);
  // A new table is for playing with people (Play now is the way to computer players): every
  // other seat waits for a person unless the host picks a computer for it.
  const [bots, setBots] = useState(["", "", "", ""]);
  const [timer, setTimer] = useState("normal");
  const timers = offered.timers; // the hall's (GET /api/presets)
  const [priv, setPriv] = useState(false);
  const [watchable, setWatchable] = useState(false); // a private table's game: watched by anyone?
  const [error, setError] = useState(null);
  if (!preset) return null;
  const seatChoices = preset.players;
  const n = seatChoices.includes(seats) ? seats : seatChoices[0];
  const goal = preset.targets.includes(target) ? target : preset.default_target;

  const create = async (e) => {
    e.preventDefault();
    setError(null);
    try {
      const body = {
        preset: preset.id,
        target: goal,
        seats: n,
        timer,
        private: priv,
        open_to_watchers: priv ? watchable : null, // (a public table is open to watchers)
        bots: [null, ...bots.slice(1, n).map((b) => b || null)],
      };
      const { table } = await post("/api/tables", body);
      go(`/t/${table.id}`);
    } catch (err) {
      setError(err.message);
    }
  };
  return html`<section class="card" aria-labelledby="new-h">
    <h2 id="new-h">${_("New table")}</h2>
    <form onSubmit=${create}>
      <label for="game">${_("Game")}</label>
      <select id="game" value=${preset.id} onChange=${(e) => setPresetId(e.target.value)}>
        ${presets.map((p) => html`<option value=${p.id}>${presetName(p.id, p.name)}</option>`)}
      </select>
      <div class="row">
        <div>
          <label for="target">${_("Play to")}</label>
          <select id="target" value=${goal} onChange=${(e) => setTarget(Number(e.target.value))}>
            ${preset.targets.map((t) => html`<option value=${t}>${ngettext("{n} point", "{n} points", t)}</option>`)}
          </select>
        </div>
        <div>
          <label for="seats">${_("Seats")}</label>
          <select id="seats" value=${n} onChange=${(e) => setSeats(Number(e.target.value))}>
            ${seatChoices.map((k) => html`<option value=${k}>${ngettext("{n} player", "{n} players", k)}</option>`)}
          </select>
        </div>
      </div>
      ${Array.from({ length: n - 1 }, (_, k) => k + 1).map(
        (seat) => html`<div class="seat-row">
          <label for=${"seat" + seat}>${_("Seat {number}", { number: seat + 1 })}</label>
          <select id=${"seat" + seat} value=${bots[seat]} onChange=${(e) => {
            const next = bots.slice();
            next[seat] = e.target.value;
            setBots(next);
          }}>
            <option value="">${_("A person")}</option>
            ${offered.levels.map((l) => html`<option value=${l.id}>${_("Computer: {level}", { level: levelName(l.id, l.name) })}</option>`)}
          </select>
        </div>`,
      )}
      <label for="timer">${_("Turn timer")}</label>
      <select id="timer" value=${timer} onChange=${(e) => setTimer(e.target.value)}>
        <optgroup label=${_("Real-time")}>
          ${timers.filter((t) => t.speed === "real-time").map((t) => html`<option value=${t.id}>${timerLabel(t)}</option>`)}
        </optgroup>
        <optgroup label=${_("Turn-based (play over days)")}>
          ${timers.filter((t) => t.speed === "turn-based").map((t) => html`<option value=${t.id}>${timerLabel(t)}</option>`)}
        </optgroup>
      </select>
      <label class="check"><input type="checkbox" checked=${priv}
        onChange=${(e) => setPriv(e.target.checked)} /> ${_("Private (only people with the link can join)")}</label>
      ${priv && html`<label class="check"><input type="checkbox" name="open-to-watchers" checked=${watchable}
        onChange=${(e) => setWatchable(e.target.checked)} /> ${_("Let people with the link watch the game")}</label>`}
      <div class="row spaced">
        <button class="primary" type="submit" disabled=${!me}>${_("Create table")}</button>
      </div>
      ${!me && html`<p class="note">${_("Pick a nickname first.")}</p>`}
    </form>
    ${error && html`<p class="error" role="alert">${error}</p>`}
  </section>`;
}

function JoinByLink({ go }) {
  const [link, setLink] = useState("");
  const [error, setError] = useState(null);
  const join = (e) => {
    e.preventDefault();
    const m = link.trim().match(/(?:\/t\/)?([A-Za-z0-9]+)\/?$/);
    if (!m) {
      setError(_("That is not a table link (it looks like …/t/k3x9q2fz)."));
      return;
    }
    go(`/t/${m[1]}`);
  };
  return html`<section class="card" aria-labelledby="link-h">
    <h2 id="link-h">${_("Join by link")}</h2>
    <form onSubmit=${join} class="row">
      <label for="link" class="sr-only">${_("Table link")}</label>
      <input id="link" placeholder=${_("Paste a table link")} value=${link} onInput=${(e) => setLink(e.target.value)} />
      <button type="submit">${_("Go")}</button>
    </form>
    ${error && html`<p class="error" role="alert">${error}</p>`}
  </section>`;
}

/** Play now (S1): one click against a Normal computer player, or every choice in one step. */
function PlayNow({ me, presets, go }) {
  const [presetId, setPresetId] = useState("draw");
  const preset = presets.find((p) => p.id === presetId) || presets[0];
  const [count, setCount] = useState(1);
  const [level, setLevel] = useState("normal");
  const [each, setEach] = useState(false);
  const [levels, setLevels] = useState(["normal", "normal", "normal"]);
  const [target, setTarget] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  // How many computer players this game allows: its player counts less you.
  const counts = preset.players.map((n) => n - 1).filter((n) => n >= 1 && n <= 3);
  const n = counts.includes(count) ? count : counts[0];
  const goal = preset.targets.includes(target) ? target : preset.default_target;
  const bots = each ? levels.slice(0, n) : Array(n).fill(level);

  const start = async (e) => {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const { table } = await post("/api/play-with-bots", { preset: preset.id, target: goal, bots });
      go(`/t/${table.id}`);
    } catch (err) {
      setError(err.message);
      setBusy(false);
    }
  };
  return html`<section class="card" aria-labelledby="quick-h">
    <h2 id="quick-h">${_("Play now")}</h2>
    <p class="note">${_("One click: you against a Normal computer player. Or choose below.")}</p>
    <form onSubmit=${start}>
      <label for="quick-game">${_("Game")}</label>
      <select id="quick-game" value=${preset.id} onChange=${(e) => setPresetId(e.target.value)}>
        ${presets.map((p) => html`<option value=${p.id}>${presetName(p.id, p.name)}</option>`)}
      </select>
      <div class="row">
        <div>
          <label for="quick-count">${_("Computer players")}</label>
          <select id="quick-count" value=${n} onChange=${(e) => setCount(Number(e.target.value))}>
            ${counts.map((k) => html`<option value=${k}>${k}</option>`)}
          </select>
        </div>
        <div>
          <label for="quick-target">${_("Play to")}</label>
          <select id="quick-target" value=${goal} onChange=${(e) => setTarget(Number(e.target.value))}>
            ${preset.targets.map((t) => html`<option value=${t}>${ngettext("{n} point", "{n} points", t)}</option>`)}
          </select>
        </div>
      </div>
      ${!each &&
      html`<label for="quick-level">${_("Level")}</label>
        <select id="quick-level" value=${level} onChange=${(e) => setLevel(e.target.value)}>
          ${offered.levels.map((l) => html`<option value=${l.id}>${levelName(l.id, l.name)}</option>`)}
        </select>`}
      <label class="check"><input type="checkbox" id="quick-each" checked=${each}
        onChange=${(e) => setEach(e.target.checked)} /> ${_("A level for each computer player")}</label>
      ${each &&
      bots.map(
        (b, k) => html`<div class="seat-row" key=${k}>
          <label for=${"quick-level" + (k + 1)}>${_("Seat {number}", { number: k + 2 })}</label>
          <select id=${"quick-level" + (k + 1)} value=${b} onChange=${(e) => {
            const next = levels.slice();
            next[k] = e.target.value;
            setLevels(next);
          }}>
            ${offered.levels.map((l) => html`<option value=${l.id}>${levelName(l.id, l.name)}</option>`)}
          </select>
        </div>`,
      )}
      <div class="row spaced">
        <button class="primary" type="submit" disabled=${!me || busy}>${_("Play with bots")}</button>
      </div>
    </form>
    ${!me && html`<p class="note">${_("Pick a nickname first.")}</p>`}
    ${error && html`<p class="error" role="alert">${error}</p>`}
  </section>`;
}

/** The games you sit at, from the hall (so any device finds them): a link back to each. The list
 * is the player's socket's, kept current by the hall (playerchannel.js). */
function MyTables({ me, go }) {
  const games = useMyGames();
  const tables = (me && games.tables) || [];
  if (!tables.length) return null;
  return html`<section class="card my-tables" aria-labelledby="mine-h">
    <h2 id="mine-h">${_("My games")}</h2>
    <ul class="tables-list">
      ${tables.map((t) => {
        const others = t.seats.filter((s) => s.seat !== t.seat).map((s) => s.name || _("a free seat"));
        const where = t.phase === "seating" ? _("waiting to start") : t.your_turn ? _("your turn") : _("playing");
        return html`<li key=${t.id}>
          <span>
            <strong>${presetName(t.preset, t.preset_name)}</strong> ${_("to {target}", { target: t.target })}${t.ranked ? html` <span class="ranked-tag">${_("· ranked")}</span>` : ""}<br />
            <span class="note">${_("with {players} · {state}", { players: others.join(", "), state: where })}</span>
          </span>
          <a class="button-link return" href=${t.link} onClick=${(e) => {
            e.preventDefault();
            go(t.link);
          }}>${_("Return to your game")}</a>
        </li>`;
      })}
    </ul>
  </section>`;
}

export function Home({ me, setMe, presets, go }) {
  return html`<main class="home">
    <header>
      <div>
        <h1>${_("Domino Hall")}</h1>
        <p class="note tagline">${_("Dominoes with friends or computer players, in the browser.")}</p>
        <${HallLinks} me=${me} go=${go} />
      </div>
      <div class="header-end"><${GamesBadge} go=${go} /><${LanguageSwitch} /></div>
    </header>
    <div class="cards">
      <${MyTables} me=${me} go=${go} />
      <${Who} me=${me} setMe=${setMe} />
      <${PlayNow} me=${me} presets=${presets} go=${go} />
      <${PlayRanked} me=${me} go=${go} />
      <${NewTable} presets=${presets} me=${me} go=${go} />
      <${Lobby} go=${go} />
      <${TournamentList} go=${go} />
      <${JoinByLink} go=${go} />
      <section class="card" aria-labelledby="how-h">
        <h2 id="how-h">${_("How to play")}</h2>
        ${presets.map(
          (p) => html`<details class="howto" key=${p.id}>
            <summary>${presetName(p.id, p.name)}</summary>
            <p>${howToPlay(p)}</p>
          </details>`,
        )}
        <details class="howto">
          <summary>${_("Playing with the keyboard")}</summary>
          <p>
            ${_("Tab to your tiles, then ← and → to pick one; Enter plays it. When it fits more than one end, press 1, 2, … for the end (or Tab to the end's button); Esc puts the tile back. D draws, P passes.")}
          </p>
        </details>
      </section>
      <section class="card" aria-labelledby="tiles-h">
        <h2 id="tiles-h">${_("Tiles")}</h2>
        <p class="note">${_("Five styles; your choice is remembered on this device.")}</p>
        <${TileStylePicker} />
      </section>
    </div>
  </main>`;
}
