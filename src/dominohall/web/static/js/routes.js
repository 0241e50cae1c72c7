// The pages beyond home and the table: which one an address shows, each loaded when first
// needed (import()), so that home and the table screen do not carry them.
import { useEffect, useState } from "preact/hooks";
import { html } from "./ui.js";
import { _ } from "./i18n.js";

const PAGES = [
  [/^\/@\/([^/]+)\/?$/, () => import("./profile.js"), "ProfilePage", (m) => ({ username: decodeURIComponent(m[1]) })],
  [/^\/games\/([A-Za-z0-9]+)\/?$/, () => import("./replay.js"), "GamePage", (m) => ({ gameId: m[1] })],
  [/^\/leaderboard(?:\/([a-z-]+))?\/?$/, () => import("./leaderboard.js"), "LeaderboardPage", (m) => ({ pool: m[1] || null })],
  [/^\/history\/?$/, () => import("./profile.js"), "HistoryPage", () => ({})],
  [/^\/settings\/?$/, () => import("./settings.js"), "SettingsPage", () => ({})],
  [/^\/my-games\/?$/, () => import("./mygames.js"), "MyGamesPage", () => ({})],
  [/^\/mod\/?$/, () => import("./moderation.js"), "ModerationPage", () => ({})],
  [/^\/tournaments\/([A-Za-z0-9]+)\/?$/, () => import("./tournament.js"), "TournamentPage", (m) => ({ tournamentId: m[1] })],
];

/** The page an address names ({load, name, props}), or null for home and tables. */
export function pageAt(path) {
  for (const [pattern, load, name, props] of PAGES) {
    const m = path.match(pattern);
    if (m) return { load, name, props: props(m), key: path };
  }
  return null;
}

export function LazyPage({ page, ...common }) {
  const [loaded, setLoaded] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    let live = true;
    page.load().then((module) => live && setLoaded(() => module[page.name])).catch((e) => live && setError(e.message));
    return () => { live = false; };
  }, [page.name]);
  if (error) return html`<main class="home"><p class="error" role="alert">${error}</p></main>`;
  if (!loaded) return html`<main class="home"><p role="status">${_("Loading…")}</p></main>`;
  const Page = loaded;
  return html`<${Page} ...${common} ...${page.props} />`;
}
