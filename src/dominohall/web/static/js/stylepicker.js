// The five tile styles as a row of buttons; the choice is kept in localStorage and applied to the
// whole page through a class on <body>.
import { useState } from "preact/hooks";
import { html } from "./ui.js";
import { TILE_STYLES, TileImage, saveTileStyle, savedTileStyle } from "./tile.js";
import { _ } from "./i18n.js";

const nameOf = (s) => _(s.name); // (marked in names.js)

export function applyTileStyle(id) {
  for (const s of TILE_STYLES) document.body.classList.toggle("style-" + s.id, s.id === id);
}

export function TileStylePicker({ compact = false }) {
  const [current, setCurrent] = useState(savedTileStyle());
  const choose = (id) => {
    saveTileStyle(id);
    applyTileStyle(id);
    setCurrent(id);
  };
  if (compact) {
    return html`<label class="sr-only" for="tile-style">${_("Tile style")}</label>
      <select id="tile-style" value=${current} onChange=${(e) => choose(e.target.value)} title=${_("Tile style")}>
        ${TILE_STYLES.map((s) => html`<option value=${s.id}>${nameOf(s)}</option>`)}
      </select>`;
  }
  return html`<div class="style-picker" role="group" aria-label=${_("Tile style")}>
    ${TILE_STYLES.map(
      (s) => html`<button
        type="button"
        aria-pressed=${current === s.id ? "true" : "false"}
        onClick=${() => choose(s.id)}
        class=${"style-" + s.id}
      >
        <${TileImage} a=${5} b=${3} />${nameOf(s)}
      </button>`,
    )}
  </div>`;
}
