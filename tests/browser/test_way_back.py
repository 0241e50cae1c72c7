"""A way back: the hall page lists the games you sit at, from the hall (GET /api/me/tables), so
a closed tab or another device never costs a game for lack of a link."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import DESKTOP, SIZES, Hall
from .players import Person
from .tables import play_now, post


@pytest.mark.parametrize("size", SIZES)
def test_return_to_your_game_from_another_device(
    hall: Hall, browser: Any, artifacts: Path, size: dict[str, int]
) -> None:
    username = f"ann_{size['width']}"
    first = browser.new_context(viewport=DESKTOP)
    ann = Person.open(first, hall.url)
    ann.sign_in("Ann")
    post(ann, "/api/accounts", {"username": username, "password": "correct horse"})
    table = play_now(ann, "all-fives")
    first.close()  # the tab is gone, and with it anything the browser remembered

    other = browser.new_context(viewport=size)
    again = Person.open(other, hall.url)
    page = again.page
    page.goto(hall.url + "/")
    page.click("button:has-text('Sign in')")
    page.fill("#user", username)
    page.fill("#pass", "correct horse")
    page.click("form button[type=submit]")
    link = page.wait_for_selector("a:has-text('Return to your game')")
    assert "All Fives" in page.inner_text(".my-tables")
    page.screenshot(path=str(artifacts / f"way-back-{size['width']}.png"), full_page=True)
    link.click()
    page.wait_for_selector(".table .player.me")
    assert page.url.endswith(f"/t/{table}")
    assert "Ann" in page.inner_text(".player.me")
    assert again.errors == []
    other.close()
