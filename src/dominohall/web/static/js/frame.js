// The frame of the pages beyond home and the table (profiles, games, leaderboards, history,
// settings, My games): their stylesheet, the links along the top, the title. Small on purpose:
// home loads it (through My games); the rest of what those pages share is in pages.js.
import { useEffect } from "preact/hooks";
import { html } from "./ui.js";
import { setTitle } from "./pagetitle.js";
import { GamesBadge } from "./playerchannel.js";

let styled = false;
/** Load pages.css once (the table screen never needs it). */
export function useStyles() {
  if (styled) return;
  styled = true;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("../pages.css", import.meta.url).href; // under this release's prefix
  document.head.appendChild(link);
}

/** An in-page link: follows with history.pushState through go(). */
export function Link({ href, go, children, cls = "", current = false }) {
  return html`<a href=${href} class=${cls} aria-current=${current ? "page" : undefined} onClick=${(e) => {
    if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    go(href);
  }}>${children}</a>`;
}

export function Frame({ title, go, me, children }) {
  useStyles();
  useEffect(() => {
    setTitle(`${title} · Domino Hall`);
    return () => setTitle("Domino Hall");
  }, [title]);
  return html`<main class="page">
    <nav class="crumbs" aria-label="Hall">
      <${Link} href="/" go=${go}>Domino Hall</${Link}>
      <${Link} href="/leaderboard" go=${go}>Leaderboards</${Link}>
      ${me && html`<${Link} href="/history" go=${go}>Game history</${Link}>`}
      ${me && !me.guest && html`<${Link} href=${"/@/" + me.username} go=${go}>Your profile</${Link}>`}
      ${me && html`<${Link} href="/settings" go=${go}>Settings</${Link}>`}
      ${me && html`<span class="crumbs-end"><${GamesBadge} go=${go} /></span>`}
    </nav>
    ${children}
  </main>`;
}
