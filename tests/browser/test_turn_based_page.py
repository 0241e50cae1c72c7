"""A turn-based table on the page: made from the Home form's "1 move per day", each player's
clock in days and hours, the game's duration, and what happened since your last move."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .conftest import DESKTOP, Hall
from .players import Person
from .tables import open_table, post


def test_a_turn_based_table_shows_clocks_duration_and_news(
    hall: Hall, browser: Any, artifacts: Path
) -> None:
    ann, bob = (Person.open(browser.new_context(viewport=DESKTOP), hall.url) for _ in range(2))
    ann.sign_in("Ann")
    bob.sign_in("Bob")
    page = ann.page
    page.wait_for_selector("#timer option[value='day']", state="attached")
    page.select_option("#game", "block")
    page.select_option("#seats", "2")
    page.select_option("#seat1", "")  # a person
    page.select_option("#timer", "day")
    page.click("button:has-text('Create table')")
    page.wait_for_selector("text=Share this link")
    table = page.url.rsplit("/", 1)[1]
    summary = page.request.get(f"{hall.url}/api/tables/{table}").json()["table"]
    assert summary["timer"] == "day" and summary["speed"] == "turn-based"
    post(bob, f"/api/tables/{table}/join")
    post(ann, f"/api/tables/{table}/start")
    for person in (ann, bob):
        open_table(person, table)
        person.page.wait_for_selector(".turn-based .tb-clock >> nth=1")
        clocks = person.page.inner_text(".tb-clocks")
        assert "Ann" in clocks and "Bob" in clocks
        assert "23 h 59 min left" in clocks or "1 d 0 h left" in clocks, clocks
        assert "Game duration:" in person.page.inner_text(".tb-speed")
        assert "to move" in person.page.inner_text(".tb-clock.running")
    mine = ann.page.request.get(f"{hall.url}/api/me/tables").json()["tables"][0]
    mover, other = (ann, bob) if mine["your_turn"] else (bob, ann)
    mover.play_turn()
    other.page.wait_for_selector(".tb-since li")
    news = other.page.inner_text(".tb-since")
    name = "Ann" if mover is ann else "Bob"
    assert f"{name} played" in news, news
    other.page.screenshot(path=str(artifacts / "turn-based-table.png"))
    # Ann goes on vacation from the settings page; Bob sees it on the table as it happens.
    page.goto(f"{hall.url}/settings")
    page.wait_for_selector(".vacation:has-text('21 days in any 365 days')")
    page.fill("#vacation-days", "2")
    page.click("button:has-text('Start a vacation')")
    page.wait_for_selector(".vacation:has-text('On vacation until')")
    assert "19 left" in page.inner_text(".vacation")
    bob.page.wait_for_selector(".tb-clock[data-seat='0'] .tb-vacation")
    assert "on vacation until" in bob.page.inner_text(".tb-clock[data-seat='0']")
    page.click("button:has-text('End my vacation now')")
    page.wait_for_selector("button:has-text('Start a vacation')")
    bob.page.wait_for_selector(".tb-clock[data-seat='0'] .tb-vacation", state="detached")
