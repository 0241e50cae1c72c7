// The frame of the pages beyond home and the table (profiles, games, leaderboards, history,
// settings, My games): their stylesheet, the links along the top, the title. Small on purpose:
// home loads it (through My games); the rest of what those pages share is in pages.js.
import { useEffect } from "preact/hooks";
import { html } from "./ui.js";
import { setTitle } from "./pagetitle.js";
import { GamesBadge } from "./playerchannel.js";
import { _ } from "./i18n.js";
import { LanguageSwitch } from "./langswitch.js";

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
    setTitle(_("{page} · Domino Hall", { page: title }));
    return () => setTitle(_("Domino Hall"));
  }, [title]);
  return html`<main class="page">
    <nav class="crumbs" aria-label=${_("Hall")}>
      <${Link} href="/" go=${go}>${_("Domino Hall")}</${Link}>
      <${Link} href="/leaderboard" go=${go}>${_("Leaderboards")}</${Link}>
      ${me && html`<${Link} href="/history" go=${go}>${_("Game history")}</${Link}>`}
      ${me && !me.guest && html`<${Link} href=${"/@/" + me.username} go=${go}>${_("Your profile")}</${Link}>`}
      ${me && html`<${Link} href="/settings" go=${go}>${_("Settings")}</${Link}>`}
      <span class="crumbs-end">${me && html`<${GamesBadge} go=${go} />`}<${LanguageSwitch} /></span>
    </nav>
    ${children}
  </main>`;
}
