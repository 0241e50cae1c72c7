"""Whole games against computer players, by clicking only, each kind of layout once, at desktop
or at phone size."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, Hall
from .players import Person, play_with_bots, start_table


def check_game_over(person: Person) -> None:
    page = person.page
    title = page.inner_text("#game-end-h")
    assert "win" in title
    href = page.get_attribute(".game-end a.record", "href")
    assert href and href.startswith("/games/")
    answer = page.request.get(person.base + href)
    assert answer.ok
    record = json.loads(answer.text())
    assert record["format"] == "dominohall-record/1"


# Each kind of layout played whole once, the sizes shared out between them (every layout at
# both sizes is drawn in test_layout.py, test_board_space.py and test_five_up.py; six whole
# games took two minutes of the suite).
@pytest.mark.parametrize(
    ("preset", "target", "size"),
    [
        pytest.param("block", 50, PHONE, id="line-phone"),
        pytest.param("cross-fives", 30, DESKTOP, id="spinner-desktop"),
        pytest.param("five-up", None, PHONE, id="five-up-phone"),
    ],
)
def test_a_whole_game_by_clicking(
    hall: Hall,
    browser: Any,
    artifacts: Path,
    preset: str,
    target: int | None,
    size: dict[str, int],
) -> None:
    context = browser.new_context(viewport=size)
    person = Person.open(context, hall.url)
    person.sign_in("Ann")
    if target is None:
        play_with_bots(person, preset)
    else:
        start_table(person, preset, target)
    shot = artifacts / f"table-{preset}-{'phone' if size is PHONE else 'desktop'}.png"

    fullest = 0

    def take_screenshot_mid_hand(turn: int) -> None:
        # What a player sees mid-game: the fullest table seen on the player's turn with no dialog
        # open, retaken as it grows until nine tiles are down (short blocked hands may never get there).
        nonlocal fullest
        size = person.layout_size()
        if fullest >= 9 or size <= fullest or person.page.query_selector(".overlay"):
            return
        fullest = size
        person.page.wait_for_timeout(500)  # let the last play's animation finish
        person.page.screenshot(path=str(shot))

    if shot.exists():
        shot.unlink()
    person.play_game(on_turn=take_screenshot_mid_hand)
    check_game_over(person)
    assert shot.exists()
    assert person.errors == []
    context.close()
