// The one place the page binds htm to Preact, so every module writes markup the same way.
import { h, render } from "preact";
import htm from "htm";

export const html = htm.bind(h);
export { render };
