// The page: who you are, the presets, and which screen the address shows (/, /t/{id}, /my-games).
import { useEffect, useState } from "preact/hooks";
import { html, render } from "./ui.js";
import { get } from "./api.js";
import { lazyComponent } from "./lazy.js";
import { applyTileStyle } from "./stylepicker.js";
import { savedTileStyle } from "./tile.js";
import { channel, useMyGames } from "./playerchannel.js";
import { LazyPage, pageAt } from "./routes.js";
import { keepOffer } from "./choices.js";
import { _, languages } from "./i18n.js";

// The home screen and the table screen each load when first shown (the page's weight limit: a
// first load carries one of them); the one the address names is asked for at once.
const loadHome = () => import("./home.js");
const loadTable = () => import("./tablepage.js");
const Home = lazyComponent(loadHome, "Home");
const TablePage = lazyComponent(loadTable, "TablePage");
// The open challenges' bar loads when there is one (docs/protocol.md 13).
const ChallengeBar = lazyComponent(() => import("./challengebar.js"), "ChallengeBar");
// Asked of a table link's visitor with no name yet only: a signed-in player's page does without.
const NamePrompt = lazyComponent(() => import("./nameprompt.js"), "NamePrompt");

function route() {
  const m = location.pathname.match(/^\/t\/([A-Za-z0-9]+)\/?$/);
  return m ? { table: m[1] } : { table: null, page: pageAt(location.pathname) };
}

function App() {
  const [where, setWhere] = useState(route());
  const [me, setMe] = useState(undefined); // undefined: not known yet
  const [presets, setPresets] = useState(null);
  const [error, setError] = useState(null);
  const [askName, setAskName] = useState(false);

  useEffect(() => {
    Promise.all([get("/api/me"), get("/api/presets")])
      .then(([mine, list]) => {
        setMe(mine.player);
        keepOffer(list);
        languages.push(...list.languages);
        setPresets(list.presets);
      })
      .catch((e) => setError(e.message));
    const onPop = () => setWhere(route());
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);

  // The player's own socket follows whoever is signed in, whatever the page shows.
  useEffect(() => channel.follow(me || null), [me && me.id]);
  const { challenges } = useMyGames();

  const go = (path) => {
    history.pushState(null, "", path);
    setWhere(route());
    window.scrollTo(0, 0);
  };
  // A challenge of yours accepted: both players' pages open its table.
  channel.onAccepted = (table) => go(`/t/${table}`);
  const bar = challenges.length > 0 && html`<${ChallengeBar} />`;

  if (error) return html`<main class="home"><h1>${_("Domino Hall")}</h1><p class="error" role="alert">${error}</p></main>`;
  if (me === undefined || presets === null) return html`<main class="home"><p role="status">${_("Loading…")}</p></main>`;
  if (where.table && (me === null || askName)) {
    // A table link opened by someone without a name yet: ask for one, then sit down.
    return html`<${NamePrompt} me=${me} tableId=${where.table} onDone=${(p) => { setMe(p); setAskName(false); }} goHome=${() => go("/")} />`;
  }
  if (where.table) {
    return html`<${TablePage} key=${where.table} tableId=${where.table} me=${me} presets=${presets}
      goHome=${() => go("/")} go=${go} signInFirst=${() => setAskName(true)} />${bar}`;
  }
  if (where.page) {
    return html`<${LazyPage} key=${where.page.key} page=${where.page} me=${me} setMe=${setMe} presets=${presets} go=${go} />${bar}`;
  }
  return html`<${Home} me=${me} setMe=${setMe} presets=${presets} go=${go} />${bar}`;
}

(route().table ? loadTable : loadHome)();
applyTileStyle(savedTileStyle());
render(html`<${App} />`, document.getElementById("app"));
