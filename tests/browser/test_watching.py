"""Watching a game on the page, at 1280 and 390 px: the top bar says "Watching" with the players
and whose turn, no tiles of a hand and no Draw or Pass; the player sees how many watch."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import DESKTOP, SIZES, Hall
from .players import Person
from .tables import new_table, open_table, play_now, post


@pytest.mark.parametrize("size", SIZES)
def test_a_watcher_is_told_so_and_the_player_sees_how_many_watch(
    hall: Hall, browser: Any, artifacts: Path, size: dict[str, int]
) -> None:
    ann, cy = (Person.open(browser.new_context(viewport=size), hall.url) for _ in range(2))
    ann.sign_in("Ann")
    cy.sign_in("Cy")
    table = play_now(ann, "draw")
    open_table(ann, table)
    assert ann.page.locator(".watching-badge").count() == 0  # a player is not watching
    open_table(cy, table)
    badge = cy.page.wait_for_selector(".topbar .watching-badge")
    assert badge.inner_text() == "Watching"
    info = cy.page.inner_text(".topbar .watching-info")
    assert info.startswith("2 players"), info
    cy.page.wait_for_selector(".topbar .watchers[data-watchers='1']")
    assert cy.page.inner_text(".topbar .watchers") == "· 1 watching"
    ann.page.wait_for_selector(".topbar .watchers[data-watchers='1']")
    # A watcher holds no tile and is offered no move.
    assert cy.page.locator(".hand .hand-tile").count() == 0
    assert cy.page.locator(".actions button.draw, .actions button.pass").count() == 0
    # The whole badge is on the screen, inside the top bar.
    box = badge.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]
    # Ann plays on; the watcher follows, and the turn in the top bar follows too.
    version = cy.version()
    for _ in range(2):
        if ann.play_turn() == "game_over":
            break
    cy.wait_moved_on(version)
    assert cy.page.locator(".hand .hand-tile").count() == 0
    name = "desktop" if size["width"] >= 1000 else "phone"
    cy.page.screenshot(path=str(artifacts / f"watching-{name}.png"))
    ann.page.screenshot(path=str(artifacts / f"watched-{name}.png"))
    # The watcher leaves: the player sees nobody watching.
    cy.page.goto(f"{hall.url}/")
    ann.page.wait_for_selector(".topbar .watchers", state="detached")
    assert not ann.errors and not cy.errors, (ann.errors, cy.errors)


def test_a_private_game_tells_a_link_holder_why_they_cannot_watch(hall: Hall, browser: Any) -> None:
    ann, cy = (Person.open(browser.new_context(viewport=DESKTOP), hall.url) for _ in range(2))
    ann.sign_in("Ann")
    cy.sign_in("Cy")
    table = new_table(ann, seats=2, private=True, bots=[None, "normal"])
    post(ann, f"/api/tables/{table}/start")
    cy.page.goto(f"{hall.url}/t/{table}")
    cy.page.wait_for_selector("text=only its players can watch it")
    assert cy.page.locator(".table").count() == 0
