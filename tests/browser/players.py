"""A person at the page, clicking: sign in, start games, and play turns by what the page lights up."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

TURN_TIMEOUT_MS = 15000

# What the page is waiting for, read from the DOM: my turn, a hand or game end, or nothing.
SITUATION = """() => {
  if (document.querySelector('.game-end')) return 'game_over';
  const next = document.querySelector('.hand-end .next-hand');
  if (next && !next.disabled) return 'hand_over';
  const table = document.querySelector('.table');
  if (!table || table.dataset.busy === 'true') return null;
  if (document.querySelector('.end-choice')) return 'choose_end';
  if (table.dataset.myTurn === 'true') return 'my_turn';
  return null;
}"""


@dataclass(eq=False)
class Person:
    """One browser page, with every console error and uncaught exception it saw."""

    page: Any
    base: str
    errors: list[str] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)

    @classmethod
    def open(cls, context: Any, base: str) -> Person:
        page = context.new_page()
        person = cls(page, base)
        page.on(
            "console", lambda m: m.type == "error" and person.errors.append(f"console: {m.text}")
        )
        page.on("pageerror", lambda e: person.errors.append(f"page: {e}"))
        page.set_default_timeout(TURN_TIMEOUT_MS)
        return person

    def sign_in(self, name: str) -> None:
        self.page.goto(self.base + "/")
        self.page.fill("#nick", name)
        self.page.click("button:has-text('Play as guest')")
        self.page.wait_for_selector(f"text=Playing as {name}")

    def version(self) -> int:
        return int(self.page.get_attribute(".table", "data-version") or 0)

    def hand_tiles(self) -> list[str]:
        return [
            str(t)
            for t in self.page.eval_on_selector_all(
                ".hand-tile", "bs => bs.map(b => b.dataset.tile)"
            )
        ]

    def layout_size(self) -> int:
        return int(self.page.eval_on_selector_all(".board .placed", "gs => gs.length"))

    def wait_situation(self, timeout: int = TURN_TIMEOUT_MS) -> str:
        handle = self.page.wait_for_function(SITUATION, timeout=timeout, polling=50)
        return str(handle.json_value())

    def wait_moved_on(self, version: int) -> None:
        """Wait until the table is past `version` (the move landed) and the page is not busy."""
        self.page.wait_for_function(
            """v => { const t = document.querySelector('.table');
                      return !t || (Number(t.dataset.version) > v && t.dataset.busy !== 'true'); }""",
            arg=version,
            polling=50,
        )

    def click_tile(self, selector: str) -> bool:
        """Click a tile in the hand; True when the page then asks for an end (it fits two)."""
        return self.pick_tile(lambda: self.page.click(selector))

    def pick_tile(self, action: Any) -> bool:
        """Pick a tile by `action` (a click, a key); True when the page asks for an end."""
        version = self.version()
        action()
        # The page answers after its next render: with end buttons, or by sending the move.
        handle = self.page.wait_for_function(
            """v => { if (document.querySelector('.end-choice')) return 'choose';
                      const t = document.querySelector('.table');
                      return (!t || t.dataset.busy === 'true' || Number(t.dataset.version) > v)
                        ? 'sent' : null; }""",
            arg=version,
            polling=20,
        )
        return handle.json_value() == "choose"

    def play_turn(self, choose_by_board: bool = False) -> str:
        """Make one move (or press Next hand) by clicking; says what it did."""
        situation = self.wait_situation()
        if situation == "game_over":
            return situation
        if situation == "hand_over":
            self.page.click(".hand-end .next-hand")
            # Either the next hand is dealt, or the others have yet to press it.
            self.page.wait_for_function(
                "() => { const b = document.querySelector('.hand-end .next-hand');"
                " return !b || b.disabled; }",
                polling=50,
            )
            self.seen.add("next_hand")
            return situation
        version = self.version()
        page = self.page
        if situation == "choose_end":
            self._choose_end(choose_by_board)
        elif page.query_selector(".hand-tile.fits"):
            if self.click_tile(".hand-tile.fits >> nth=0"):
                self._choose_end(choose_by_board)
                return "chose_end"
            self.seen.add("play")
        elif page.query_selector("button.draw"):
            page.click("button.draw")
            self.seen.add("draw")
        elif page.query_selector("button.pass"):
            page.click("button.pass")
            self.seen.add("pass")
        else:
            raise AssertionError("my turn, but nothing is lit and there is no Draw or Pass")
        self.wait_moved_on(version)
        return situation

    def _choose_end(self, by_board: bool) -> None:
        version = self.version()
        if by_board:
            self.page.click(".board .slot >> nth=0")
            self.seen.add("end_by_board")
        else:
            self.page.click(".end-choice >> nth=0")
            self.seen.add("end_by_button")
        self.wait_moved_on(version)

    def play_game(self, max_turns: int = 400, on_turn: Any = None) -> None:
        """Click through turns and hands until the game is over."""
        for turn in range(max_turns):
            if on_turn:
                on_turn(turn)
            if self.play_turn(choose_by_board=turn % 2 == 1) == "game_over":
                return
        raise AssertionError(f"the game did not end within {max_turns} turns")


def start_table(person: Person, preset: str, target: int) -> None:
    """Create a two-seat table against a Normal computer player from the Home form, and start."""
    page = person.page
    page.select_option("#game", preset)
    page.select_option("#target", str(target))
    page.select_option("#seats", "2")
    page.select_option("#seat1", "normal")
    page.click("button:has-text('Create table')")
    page.wait_for_selector("text=Share this link")
    page.click("button:has-text('Start the game')")
    page.wait_for_selector(".table")


def play_with_bots(person: Person, preset: str) -> None:
    person.page.select_option("#quick-game", preset)
    person.page.click("button:has-text('Play with bots')")
    person.page.wait_for_selector(".table")
