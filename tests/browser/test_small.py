"""The smaller things players met (issue 9): the invitation, the timer for those who join, Copy
link, Ebony's dimmed tiles, hand tiles on a desktop, the line's first corner, player cards for
a screen reader, and focus after the nickname and at the game's start."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .chains import random_chain
from .conftest import DESKTOP, SIZES, Hall
from .pixels import contrast_of
from .players import Person
from .tables import new_table, open_table, play_now

FOCUS = "() => document.activeElement && document.activeElement !== document.body"


@pytest.mark.parametrize("size", SIZES)
def test_an_invitation_says_what_and_who_then_keeps_focus(
    hall: Hall, browser: Any, artifacts: Path, size: dict[str, int]
) -> None:
    host_context = browser.new_context(viewport=DESKTOP)
    host_context.grant_permissions(["clipboard-read", "clipboard-write"], origin=hall.url)
    ann = Person.open(host_context, hall.url)
    ann.sign_in("Ann")
    table = new_table(ann, preset="all-fives", target=100, seats=2, timer="relaxed")
    open_table_seating = f"{hall.url}/t/{table}"
    ann.page.goto(open_table_seating)
    ann.page.click("button.copy")
    ann.page.wait_for_selector(".copied:has-text('Link copied.')")
    assert ann.page.inner_text("button.copy") == "Copied ✓"
    assert ann.page.evaluate("navigator.clipboard.readText()") == open_table_seating

    context = browser.new_context(viewport=size)
    bob = Person.open(context, hall.url)
    page = bob.page
    page.goto(open_table_seating)
    page.wait_for_selector(".invitation:has-text('Hosted by Ann')")
    words = page.inner_text(".invitation")
    assert "All Fives" in words and "to 100 points" in words and "Relaxed (50 s a turn)" in words
    assert page.evaluate("() => document.activeElement.id") == "nick"
    page.screenshot(path=str(artifacts / f"invitation-{size['width']}.png"))
    # One step: the nickname, and Bob sits in the free seat (no "Sit here" to press after it).
    assert page.inner_text("form button.primary") == "Sit down"
    page.fill("#nick", "Bob")
    page.press("#nick", "Enter")
    page.wait_for_selector("text=Waiting for the host to start the game")
    assert "Seat 2: Bob" in page.inner_text("ul[aria-label=Seats]")
    assert not page.query_selector("button:has-text('Sit here')")
    assert page.evaluate(FOCUS), "focus was lost after the nickname"
    assert "Turn timer: Relaxed (50 s a turn)" in page.inner_text(".timer-words")
    ann.page.wait_for_selector("text=Bob")
    ann.page.click("button:has-text('Start the game')")
    for person in (ann, bob):
        person.page.wait_for_selector(".table .hand-tile")
        person.page.wait_for_function(FOCUS)  # at the game's start focus is on the table
        assert person.page.evaluate("() => !!document.activeElement.closest('.table')")
    assert ann.errors == [] and bob.errors == []
    host_context.close()
    context.close()


def wait_dimmed_tile(person: Person) -> Any:
    """A table on my turn with a tile that does not fit beside one that does (a turn with
    nothing that fits, only Draw, dims every tile: no lit tile to compare with)."""
    for _ in range(12):
        open_table(person, play_now(person, "draw"))
        person.page.wait_for_selector(".table[data-my-turn=true]")
        dim = person.page.query_selector(".hand-tile.dim")
        if dim and person.page.query_selector(".hand-tile.fits"):
            return dim
    raise AssertionError("no dimmed tile beside a fitting one in 12 tables")


@pytest.mark.parametrize("size", SIZES)
def test_dimmed_ebony_tiles_can_be_read(
    hall: Hall, browser: Any, artifacts: Path, size: dict[str, int]
) -> None:
    context = browser.new_context(viewport=size)
    person = Person.open(context, hall.url)
    person.sign_in("Ann")
    person.page.evaluate("localStorage.setItem('dominohall.tileStyle', 'ebony')")
    dim = wait_dimmed_tile(person)
    lit = person.page.query_selector(".hand-tile.fits")
    person.page.mouse.move(0, 0)
    person.page.evaluate("document.activeElement && document.activeElement.blur()")
    dimmed, fitting = contrast_of(person.page, dim), contrast_of(person.page, lit)
    # The pips of a tile set back stay nearly as clear as a lit tile's (they were a third).
    assert dimmed >= 10 and dimmed >= 0.7 * fitting, (dimmed, fitting)
    person.page.screenshot(path=str(artifacts / f"ebony-dim-{size['width']}.png"))
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_hand_tiles_are_big_on_a_desktop_and_all_fit_a_phone(
    hall: Hall, browser: Any, artifacts: Path, size: dict[str, int]
) -> None:
    context = browser.new_context(viewport=size)
    person = Person.open(context, hall.url)
    person.sign_in("Ann")
    open_table(person, play_now(person, "draw"))
    page = person.page
    box = page.query_selector(".hand-tile .tile-image").bounding_box()
    if size is DESKTOP:
        assert box["width"] >= 48 and box["height"] >= 92, box  # as long as a board tile
    else:
        assert box["height"] >= 56, box
    seven = page.eval_on_selector(".hand", "h => h.scrollWidth <= h.clientWidth")
    assert seven, "the hand scrolls sideways"
    page.screenshot(path=str(artifacts / f"hand-tiles-{size['width']}.png"))
    context.close()


# How far the line ran from the lead (in tile units) before its first corner.
FIRST_CORNER = """async ([chains, w, h]) => {
  const { layOut, boxFor } = await import('/static/js/layout.js');
  const box = boxFor(w, h, 'line');
  return chains.map((chain) => {
    const lay = layOut(chain, 'line', box);
    const first = {};
    for (const t of lay.tiles) {
      if (t.i === 0) continue;
      const arm = chain[t.i].arm;
      if (first[arm] === undefined) first[arm] = t.heading;
      if (t.heading !== first[arm]) {
        const before = layOut(chain.slice(0, t.i), 'line', box).bbox;
        return Math.max(-before.x0, before.x1);
      }
    }
    return null;
  });
}"""


def test_the_line_turns_its_first_corner_at_the_board_s_side_on_a_desktop(
    hall: Hall, browser: Any
) -> None:
    """Drawn at the largest size (46 px a unit, the lead in the middle), the line runs most of
    the way to the board's side before it turns: it once turned after 5 tiles with half the
    board empty. And it turns before it would run off the board: a line that ran on (issue 21)
    made the camera shrink every tile of a long line while most of the board's height stayed
    empty."""
    context = browser.new_context(viewport=DESKTOP)
    person = Person.open(context, hall.url)
    person.sign_in("Ann")
    open_table(person, play_now(person, "draw"))
    board = person.page.query_selector(".board").bounding_box()
    chains = [random_chain("draw", seed) for seed in range(40)]
    reach = person.page.evaluate(FIRST_CORNER, [chains, board["width"], board["height"]])
    shares = sorted(r * 46 / (board["width"] / 2) for r in reach if r is not None)
    assert len(shares) > 30
    assert shares[0] >= 0.7 and shares[-1] <= 1, shares
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_player_cards_read_as_a_list_of_players(
    hall: Hall, browser: Any, size: dict[str, int]
) -> None:
    context = browser.new_context(viewport=size)
    person = Person.open(context, hall.url)
    person.sign_in("Ann")
    open_table(person, play_now(person, "all-fives", bots=["easy", "hard"]))
    page = person.page
    players = page.get_by_role("list", name="Players")
    items = players.get_by_role("listitem")
    assert items.count() == 3
    me = players.get_by_role("listitem", name=re.compile(r"^Ann \(you\): score 0, \d+ tiles"))
    assert me.count() == 1
    assert players.get_by_role("listitem", name=re.compile(r"^Hard, computer: score")).count() == 1
    # The lines inside are for the eye only: a screen reader reads each card once.
    tree = players.aria_snapshot().splitlines()
    assert tree[0].startswith('- list "Players"')
    roles = [line.strip().removeprefix("- ").strip("'").split(" ")[0] for line in tree[1:]]
    assert roles == ["listitem"] * 3, tree  # three lines, nothing read inside a card
    context.close()
