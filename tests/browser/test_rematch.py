"""Rematch at the game's end: the same options and seats (the computer player too) on a new
table, started once every person at the table accepts. Ann on a desktop, Bob on a phone."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from .conftest import DESKTOP, PHONE_390, Hall
from .players import SITUATION, Person
from .tables import new_table, open_table, post


def play_to_the_end(people: list[Person]) -> None:
    """Whoever is asked for something does it, until both see the game's end."""
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        if all(p.page.query_selector(".game-end") for p in people):
            return
        acted = False
        for person in people:
            if person.page.evaluate(SITUATION) in ("my_turn", "choose_end", "hand_over"):
                person.play_turn()
                acted = True
        if not acted:
            time.sleep(0.05)
    raise AssertionError("the game did not end in 4 minutes")


def test_a_rematch_starts_when_both_accept(hall: Hall, browser: Any, artifacts: Path) -> None:
    contexts = [browser.new_context(viewport=DESKTOP), browser.new_context(viewport=PHONE_390)]
    ann, bob = (Person.open(c, hall.url) for c in contexts)
    ann.sign_in("Ann")
    bob.sign_in("Bob")
    table = new_table(ann, preset="draw", target=50, seats=3, bots=[None, None, "easy"])
    post(bob, f"/api/tables/{table}/join")
    post(ann, f"/api/tables/{table}/start")
    for person in (ann, bob):
        open_table(person, table)
    play_to_the_end([ann, bob])

    ann.page.click(".game-end button.rematch")
    ann.page.wait_for_selector(".rematch-note:has-text('Waiting for Bob to accept')")
    bob.page.wait_for_selector(".rematch-note:has-text('Ann wants a rematch')")
    ann.page.screenshot(path=str(artifacts / "rematch-waiting-desktop.png"))
    bob.page.screenshot(path=str(artifacts / "rematch-offered-phone.png"))
    assert ann.page.url.endswith(f"/t/{table}")  # nothing starts before Bob accepts

    bob.page.click(".game-end button.rematch")
    for person in (ann, bob):
        person.page.wait_for_function(
            "t => !location.pathname.endsWith('/' + t) && document.querySelector('.table .hand')",
            arg=table,
        )
    new = ann.page.url.rsplit("/", 1)[1]
    assert bob.page.url.endswith("/t/" + new)
    summary = ann.page.request.get(f"{hall.url}/api/tables/{new}").json()["table"]
    assert summary["preset"] == "draw" and summary["target"] == 50 and summary["phase"] == "playing"
    assert [(s["kind"], s["name"]) for s in summary["seats"]] == [
        ("human", "Ann"),
        ("human", "Bob"),
        ("bot", "Easy"),
    ]
    assert ann.page.query_selector(".game-end") is None
    ann.page.screenshot(path=str(artifacts / "rematch-started-desktop.png"))
    bob.page.screenshot(path=str(artifacts / "rematch-started-phone.png"))
    assert ann.errors == [] and bob.errors == []
    for c in contexts:
        c.close()


def test_the_rematch_offer_ends_when_someone_leaves(
    hall: Hall, browser: Any, artifacts: Path
) -> None:
    contexts = [browser.new_context(viewport=PHONE_390), browser.new_context(viewport=DESKTOP)]
    ann, bob = (Person.open(c, hall.url) for c in contexts)
    ann.sign_in("Ann")
    bob.sign_in("Bob")
    table = new_table(ann, preset="draw", target=50, seats=2, bots=[None, None])
    post(bob, f"/api/tables/{table}/join")
    post(ann, f"/api/tables/{table}/start")
    for person in (ann, bob):
        open_table(person, table)
    # The game ends at once: Bob resigns (a whole game played through is the test above's).
    bob.page.click(".topbar button.resign")
    bob.page.click(".resign-confirm .resign-yes")
    for person in (ann, bob):
        person.page.wait_for_selector(".game-end button.rematch")

    ann.page.click(".game-end button.rematch")
    bob.page.wait_for_selector(".rematch-note:has-text('Ann wants a rematch')")
    bob.page.click(".game-end button:has-text('Back to the hall')")
    bob.page.wait_for_selector("text=Domino Hall")
    ann.page.wait_for_selector(".rematch-note:has-text('Bob left: there is no rematch.')")
    assert ann.page.query_selector(".game-end button.rematch") is None
    ann.page.screenshot(path=str(artifacts / "rematch-ended-phone.png"))
    assert ann.errors == [] and bob.errors == []
    for c in contexts:
        c.close()
