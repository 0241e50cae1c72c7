// The tab's title: what the page shows, after the count of games waiting for you ("(3) Domino Hall"),
// so a tab in the background says at a glance that games wait.

let base = "Domino Hall";
let count = 0;

function show() {
  document.title = count > 0 ? `(${count}) ${base}` : base;
}

/** What the page shows now ("Domino Hall" when nothing in particular). */
export function setTitle(text) {
  base = text || "Domino Hall";
  show();
}

/** How many of your games wait for you (the player's socket says). */
export function setWaitingCount(n) {
  count = n;
  show();
}
