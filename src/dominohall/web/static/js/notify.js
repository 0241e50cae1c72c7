// A browser notification for a notice of the player's socket while the page is hidden; loaded
// only once the player turned notifications on (My games), so other pages do not carry it.
import { _ } from "./i18n.js";
import { presetName } from "./names.js";

const TITLES = {
  your_turn: () => _("Your turn"),
  reminder: () => _("Your clock is running low"),
  invitation: (n) =>
    n.reason === "rematch" ? _("{name} wants a rematch", { name: n.from })
      : n.reason === "tournament" ? _("Your next game in {tournament}", { tournament: n.from })
        : _("A game was found for you"),
};

export function notify(notice, tables) {
  const title = TITLES[notice.kind];
  if (!document.hidden || !title || Notification.permission !== "granted") return;
  const t = tables.find((x) => x.id === notice.table);
  const others = t ? t.seats.filter((s) => s.seat !== t.seat && s.kind === "human").map((s) => s.name) : [];
  const game = t && presetName(t.preset, t.preset_name);
  const body = !t ? _("Domino Hall")
    : others.length ? _("{game} to {target} with {players}", { game, target: t.target, players: others.join(", ") })
      : _("{game} to {target}", { game, target: t.target });
  // One per table: a later one (or another tab's copy) replaces it, by its tag.
  const shown = new Notification(title(notice), { body, tag: `dominohall-${notice.table}` });
  shown.onclick = () => {
    window.focus();
    location.assign(`/t/${notice.table}`);
  };
}
