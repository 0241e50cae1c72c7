"""Scoring you can see: "+10" by the tile when a play scores, a log whose every line is true
(going out was counted twice), and a phone log that can be read over the tiles."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .conftest import DESKTOP, SIZES, Hall
from .players import Person
from .tables import open_table, play_now

LOG = "() => [...document.querySelectorAll('.log li')].map((l) => l.textContent)"
POP = """() => { const pop = document.querySelector('.board .score-pop');
  return pop ? pop.textContent : null; }"""
# How far the "+10" stands from the tile just laid, in that tile's lengths (0: touching).
POP_GAP = """() => {
  const pop = document.querySelector('.board .score-pop').getBoundingClientRect();
  const tile = document.querySelector('.board .tile-in.fresh').getBoundingClientRect();
  const dx = Math.max(tile.left - pop.right, pop.left - tile.right, 0);
  const dy = Math.max(tile.top - pop.bottom, pop.top - tile.bottom, 0);
  return Math.hypot(dx, dy) / Math.max(tile.width, tile.height);
}"""


def play_until_hand_over(person: Person, on_turn: Any = None) -> None:
    for _ in range(200):
        if person.page.query_selector(".hand-end, .game-end"):
            return
        if on_turn:
            on_turn()
        person.play_turn()
    raise AssertionError("the hand did not end")


def check_log_adds_up(person: Person) -> list[str]:
    """Each player's "scores N" in the log add up to what the hand's end says they scored."""
    page = person.page
    page.wait_for_selector(".hand-end .reveal, .game-end")
    if page.query_selector(".game-end"):
        page.click(".game-end summary")  # the last hand, folded in the game's end
    lines = page.evaluate(LOG)
    reveal = page.eval_on_selector_all(
        ".reveal li",
        "ls => ls.map((l) => [l.querySelector('.who').textContent,"
        " l.querySelector('.note').textContent])",
    )
    for who, text in reveal:
        subject = "You" if who.endswith("(you)") else who
        scored = sum(
            int(m[1])
            for line in lines
            if line.startswith(subject + " ")
            for m in [re.search(r"scores? (\d+)", line)]
            if m
        )
        shown = int(re.search(r"this hand \+?(-?\d+)", text)[1])
        assert scored == shown, (who, lines, text)
    return list(lines)


@pytest.mark.parametrize("size", SIZES)
def test_a_scoring_play_shows_plus_points_and_the_log_adds_up(
    hall: Hall, browser: Any, artifacts: Path, size: dict[str, int]
) -> None:
    context = browser.new_context(viewport=size)
    person = Person.open(context, hall.url)
    person.sign_in("Ann")
    open_table(person, play_now(person, "all-fives", target=200))
    page = person.page
    seen: list[str] = []

    person.wait_situation()
    before_the_page = set(page.evaluate(LOG))  # (the live region tells what comes after)

    def look() -> None:
        person.wait_situation()
        pop = page.evaluate(POP)
        if pop is None or seen:
            return
        # The pop stands by the tile that scored while that play is the last one; a screen
        # reader hears the play with its points from the table's live region.
        last = [line for line in page.evaluate(LOG) if " play" in line or " lead" in line][-1]
        if last in before_the_page:
            return  # a computer's lead that scored before the page was open: wait for another
        points = re.search(r"scores? (\d+)", last)
        assert points, (pop, last)
        assert pop == f"+{points[1]}", (pop, last)
        assert page.is_visible(".board .score-pop")
        assert page.evaluate(POP_GAP) < 0.5
        said = page.text_content(".announcer") or ""
        assert f"scores {points[1]}" in said or f"score {points[1]}" in said, said
        seen.append(pop)
        page.screenshot(path=str(artifacts / f"score-pop-{size['width']}.png"))

    for _hand in range(4):
        play_until_hand_over(person, look)
        check_log_adds_up(person)
        if seen or page.query_selector(".game-end"):
            break
        person.play_turn()  # Next hand
    assert seen, "no play scored in four hands"

    if size is not DESKTOP:
        # On a phone the log opens over the tiles: it must not be see-through.
        page.click(".hand-end .close")
        page.click("button.log-toggle")
        page.wait_for_selector(".log.open")
        alpha = page.evaluate(
            """() => { const c = getComputedStyle(document.querySelector('.log.open')).backgroundColor;
                       const m = c.match(/rgba?\\(([^)]+)\\)/)[1].split(',');
                       return m.length === 4 ? Number(m[3]) : 1; }"""
        )
        assert alpha == 1
        page.screenshot(path=str(artifacts / f"log-open-{size['width']}.png"))
    assert person.errors == []
    context.close()


def test_in_draw_a_play_scores_nothing_and_going_out_is_counted_once(
    hall: Hall, browser: Any, artifacts: Path
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    person = Person.open(context, hall.url)
    person.sign_in("Ann")
    open_table(person, play_now(person, "draw", target=200))
    page = person.page
    for _hand in range(6):
        play_until_hand_over(person)
        lines = check_log_adds_up(person)
        assert not [line for line in lines if " play" in line and "score" in line], lines
        if "go out" in page.inner_text("#hand-end-h") or "goes out" in page.inner_text(
            "#hand-end-h"
        ):
            break  # a hand won by going out: the case once counted twice
        person.play_turn()  # Next hand
    else:
        raise AssertionError("six blocked hands in a row")
    person.page.screenshot(path=str(artifacts / "log-draw-hand-end.png"))
    assert person.errors == []
    context.close()
