"""Smaller things players met (issue 21): an unknown table's link, a nickname that is too long,
a new table's seats waiting for people, and the hand's number in a phone's top bar."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import SIZES, Hall
from .players import Person
from .tables import open_table, play_now


@pytest.mark.parametrize("size", SIZES)
def test_a_first_visit_from_an_unknown_link_to_a_new_table_and_a_game(
    hall: Hall, browser: Any, artifacts: Path, size: dict[str, int]
) -> None:
    context = browser.new_context(viewport=size)
    person = Person.open(context, hall.url)
    page = person.page

    # A link to no table says so, and only that: no invitation, no form, nothing still loading.
    page.goto(hall.url + "/t/nosuchtable21")
    page.wait_for_selector("h1:has-text('Table not found')")
    words = page.inner_text("main")
    assert "There is no table at this link" in words
    assert "You are invited" not in words and "Looking up" not in words
    assert not page.query_selector("#nick")
    page.screenshot(path=str(artifacts / f"unknown-table-{size['width']}.png"))
    page.click("button:has-text('Back to the hall')")

    # A nickname that is too long is not cut short in silence: the page says so as it is typed,
    # and the hall refuses it, naming the limit.
    long = "Bartholomew Fitzgerald"
    page.fill("#nick", long)
    assert page.input_value("#nick") == long
    assert f"at most 20 characters; this one has {len(long)}" in page.inner_text(".name-length")
    page.click("button:has-text('Play as guest')")
    page.wait_for_selector(f"text=a name has 1 to 20 characters, not {len(long)}")
    assert not page.query_selector("text=Playing as")
    page.click("button:has-text('New account')")  # a username alike
    page.fill("#user", "bartholomew_fitzgerald")
    assert "A username has at most 20 characters; this one has 22" in page.inner_text(".card")
    assert page.input_value("#user") == "bartholomew_fitzgerald"
    page.click("button:has-text('Back')")
    page.fill("#nick", "Bart")
    assert not page.query_selector(".name-length")
    page.click("button:has-text('Play as guest')")
    page.wait_for_selector("text=Playing as Bart")

    # A new table is for people: every other seat waits for a person until the host picks a
    # computer for it.
    page.select_option("#game", "draw")
    for seats in (4, 2):
        page.select_option("#seats", str(seats))
        for seat in range(1, seats):
            assert page.input_value(f"#seat{seat}") == ""
            assert page.eval_on_selector(
                f"#seat{seat}", "s => s.selectedOptions[0].textContent"
            ) == ("A person")
    page.click("button:has-text('Create table')")
    page.wait_for_selector("text=Share this link")
    assert "Seat 2: free" in page.inner_text("ul[aria-label=Seats]")

    # The top bar says which hand is being played, on a phone too.
    open_table(person, play_now(person, "draw"))
    number = page.locator(".topbar .hand-no")
    assert number.is_visible() and number.inner_text() == "· Hand 1"
    box = number.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= size["width"], box
    page.screenshot(path=str(artifacts / f"topbar-hand-{size['width']}.png"))
    if size["width"] < 500:  # and on the same phone held sideways
        page.set_viewport_size({"width": size["height"], "height": size["width"]})
        assert number.is_visible() and number.inner_text() == "· Hand 1"
    # The browser logs the refused look-up and nickname (404, 400); nothing else went wrong.
    assert [e for e in person.errors if "Failed to load resource" not in e] == []
    context.close()
