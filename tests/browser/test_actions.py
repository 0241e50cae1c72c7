"""Choosing an end (by button and on the layout), Cancel, Draw until it fits, Pass, Next hand."""

from __future__ import annotations

from typing import Any

from .conftest import DESKTOP, Hall
from .players import Person, start_table

MAX_TURNS = 600


def lit_tiles(person: Person) -> list[str]:
    return [
        str(t)
        for t in person.page.eval_on_selector_all(
            ".hand-tile.fits", "bs => bs.map(b => b.dataset.tile)"
        )
    ]


def log_text(person: Person) -> str:
    return str(person.page.inner_text(".log"))


def boneyard(person: Person) -> int:
    return int(person.page.inner_text(".boneyard").split()[-1])


def choose_end(person: Person, tile: str, by_board: bool) -> None:
    """A tile that fits two ends: Cancel puts it back, then it goes where it is sent."""
    page = person.page
    version = person.version()
    ends = page.eval_on_selector_all(".end-choice", "bs => bs.length")
    assert ends >= 2
    assert page.eval_on_selector_all(".board .slot", "gs => gs.length") == ends
    page.click("button.cancel")
    page.wait_for_selector(".end-choice", state="detached")
    assert page.query_selector(".board .slot") is None
    assert person.version() == version  # nothing was sent
    assert tile in person.hand_tiles()
    person.seen.add("cancel")

    page.click(f".hand-tile[data-tile='{tile}']")
    page.wait_for_selector(".end-choice")
    size = person.layout_size()
    if by_board:
        page.click(".board .slot >> nth=-1")
        person.seen.add("end_by_board")
    else:
        page.click(".end-choice >> nth=-1")
        person.seen.add("end_by_button")
    person.wait_moved_on(version)
    assert tile not in person.hand_tiles()
    assert person.layout_size() > size  # the computer may have answered already
    assert f"You play {tile} on a" in log_text(person)


def draw_until_fits(person: Person) -> None:
    """One click on Draw keeps drawing until a tile fits (or the boneyard is empty)."""
    page = person.page
    version = person.version()
    assert not lit_tiles(person)
    assert page.query_selector("button.pass") is None
    before = len(person.hand_tiles())
    left = boneyard(person)
    page.click("button.draw")
    person.wait_moved_on(version)
    page.wait_for_function(
        "() => document.querySelector('.hand-tile.fits') || document.querySelector('button.pass')"
        " || document.querySelector('.table').dataset.myTurn !== 'true'"
    )
    drawn = len(person.hand_tiles()) - before
    assert drawn >= 1
    assert boneyard(person) == left - drawn
    assert page.query_selector("button.draw") is None
    if left > drawn:
        # Something fits now: the last tile drawn, and only that one may be played.
        assert lit_tiles(person), "drew, the boneyard is not empty, yet nothing is lit"
    what = "a tile" if drawn == 1 else f"{drawn} tiles"
    assert f"You draw {what}" in log_text(person)
    person.seen.add("draw")


def pass_turn(person: Person) -> None:
    page = person.page
    version = person.version()
    assert not lit_tiles(person)
    assert page.query_selector("button.draw") is None
    page.click("button.pass")
    person.wait_moved_on(version)
    assert "You pass on" in log_text(person)
    person.seen.add("pass")


def next_hand(person: Person) -> None:
    page = person.page
    dialog = page.inner_text(".hand-end")
    assert "Hand " in dialog
    assert page.eval_on_selector_all(".hand-end .reveal li", "ls => ls.length") == 2
    assert "Next hand in" in dialog
    # The dialog folds away to show the layout, and comes back.
    page.click("button:has-text('Show the table')")
    page.wait_for_selector(".hand-end-bar")
    assert page.query_selector(".overlay.hand-end") is None
    page.click("button:has-text('Show the hands')")
    page.wait_for_selector(".overlay.hand-end")
    page.click(".hand-end .next-hand")
    page.wait_for_selector(".hand-end", state="detached")
    person.seen.add("next_hand")


def play_until_seen(person: Person, wanted: set[str]) -> None:
    """Play by clicking, checking each action the turn calls for, until all of `wanted` happened."""
    for turn in range(MAX_TURNS):
        if wanted <= person.seen:
            return
        situation = person.wait_situation()
        page = person.page
        if situation == "game_over":
            page.click(".game-end button:has-text('Back to the hall')")
            start_table(person, "draw" if "draw" in wanted else "block", 50)
            continue
        if situation == "hand_over":
            next_hand(person)
            continue
        if page.query_selector("button.draw"):
            draw_until_fits(person)
            continue
        if page.query_selector("button.pass"):
            pass_turn(person)
            continue
        tile = lit_tiles(person)[0]
        version = person.version()
        if person.click_tile(f".hand-tile[data-tile='{tile}']"):
            choose_end(person, tile, by_board=turn % 2 == 0)
        else:
            person.wait_moved_on(version)
    raise AssertionError(f"in {MAX_TURNS} turns saw only {sorted(person.seen)}")


def test_choosing_an_end_cancel_draw_and_next_hand(hall: Hall, browser: Any) -> None:
    context = browser.new_context(viewport=DESKTOP)
    person = Person.open(context, hall.url)
    person.sign_in("Ann")
    start_table(person, "draw", 50)
    play_until_seen(person, {"cancel", "end_by_board", "end_by_button", "draw", "next_hand"})
    assert person.errors == []
    context.close()


def test_pass_when_nothing_fits(hall: Hall, browser: Any) -> None:
    context = browser.new_context(viewport=DESKTOP)
    person = Person.open(context, hall.url)
    person.sign_in("Ann")
    start_table(person, "block", 50)
    play_until_seen(person, {"pass"})
    assert person.errors == []
    context.close()


def test_playing_with_the_keyboard_only(hall: Hall, browser: Any) -> None:
    """Tab into the hand, arrows to a lit tile, Enter plays it, 1 picks an end, D draws."""
    context = browser.new_context(viewport=DESKTOP)
    person = Person.open(context, hall.url)
    person.sign_in("Ann")
    start_table(person, "draw", 100)
    page = person.page
    in_hand = "() => document.activeElement && document.activeElement.matches('.hand-tile')"
    on_lit = "() => document.activeElement && document.activeElement.matches('.hand-tile.fits')"
    moves = 0
    ways: set[str] = set()
    while (moves < 4 or "tile" not in ways) and moves < 30:
        situation = person.wait_situation()
        if situation != "my_turn":
            break
        version = person.version()
        if page.query_selector("button.draw"):
            page.keyboard.press("d")
            ways.add("draw")
        elif page.query_selector("button.pass"):
            page.keyboard.press("p")
            ways.add("pass")
        else:
            ways.add("tile")
            for _ in range(30):
                if page.evaluate(in_hand):
                    break
                page.keyboard.press("Tab")
            assert page.evaluate(in_hand), "Tab never reached the hand"
            for _ in range(20):
                if page.evaluate(on_lit):
                    break
                page.keyboard.press("ArrowRight")
            assert page.evaluate(on_lit), "the arrows never reached a lit tile"
            if person.pick_tile(lambda: page.keyboard.press("Enter")):
                page.keyboard.press("Escape")
                page.wait_for_selector(".end-choice", state="detached")
                page.keyboard.press("Enter")
                page.wait_for_selector(".end-choice")
                page.keyboard.press("1")
        person.wait_moved_on(version)
        moves += 1
    assert "tile" in ways  # a tile was played by Tab, arrows and Enter
    assert person.errors == []
    context.close()
