// The tab's title: the count of games waiting for you, then what the page shows ("(3) Domino Hall").
import { _ } from "./i18n.js";

let base = _("Domino Hall");
let count = 0;
const show = () => (document.title = count > 0 ? `(${count}) ${base}` : base);

export function setTitle(text) {
  base = text || _("Domino Hall");
  show();
}

export function setWaitingCount(n) {
  count = n;
  show();
}
