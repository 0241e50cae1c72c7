// A browser notification for a notice of the player's socket while the page is hidden; loaded
// only once the player turned notifications on (My games), so other pages do not carry it.
const TITLES = {
  your_turn: () => "Your turn",
  reminder: () => "Your clock is running low",
  invitation: (n) => (n.reason === "rematch" ? `${n.from} wants a rematch` : n.reason === "tournament" ? `Your next game in ${n.from}` : "A game was found for you"),
};

export function notify(notice, tables) {
  const title = TITLES[notice.kind];
  if (!document.hidden || !title || Notification.permission !== "granted") return;
  const t = tables.find((x) => x.id === notice.table);
  const others = t ? t.seats.filter((s) => s.seat !== t.seat && s.kind === "human").map((s) => s.name) : [];
  const body = t ? `${t.preset_name} to ${t.target}` + (others.length ? ` with ${others.join(", ")}` : "") : "Domino Hall";
  // One per table: a later one (or another tab's copy) replaces it, by its tag.
  const shown = new Notification(title(notice), { body, tag: `dominohall-${notice.table}` });
  shown.onclick = () => {
    window.focus();
    location.assign(`/t/${notice.table}`);
  };
}
