// A message with parts of the page in it (a name in bold, a link): the catalog keeps the
// sentence whole, and each {part} goes where the reader's language puts it.
import { _ } from "./i18n.js";
import { html } from "./ui.js";

/** `_html("Playing as {name}.", { name: html`<strong>${me.name}</strong>` })`: an array for a template. */
export const _html = (id, parts) =>
  _(id).split(/\{(\w+)\}/).map((piece, i) => (i % 2 ? (piece in parts ? parts[piece] : `{${piece}}`) : piece));

// The parts are made outside the call: Babel's extractor takes a template literal among a call's
// arguments for its message (docs/translating.md).
export const strong = (text) => html`<strong>${text}</strong>`;
