"""The live lobby on the home page, at 1280 and 390 px: a table opened in another browser context
appears without a reload, then, once started, is a game to watch with its Watch link; the
people online are counted; nothing is wider than the screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import SIZES, Hall
from .players import Person
from .tables import new_table, post


@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_shows_a_table_opened_elsewhere_without_a_reload(
    hall: Hall, browser: Any, artifacts: Path, size: dict[str, int]
) -> None:
    viewer, ann = (Person.open(browser.new_context(viewport=size), hall.url) for _ in range(2))
    viewer.sign_in("Vi")
    ann.sign_in("Ann")
    viewer.page.wait_for_selector("#people-h")
    viewer.page.wait_for_selector("[data-online]:not([data-online='0'])")  # (Vi at least)
    navigations: list[str] = []
    viewer.page.on("framenavigated", lambda frame: navigations.append(frame.url))
    table = new_table(ann, preset="draw", seats=2, bots=[None, None])
    # Ann's table, pushed to the viewer's page, with its seats and Ann's rating in the pool.
    join = viewer.page.wait_for_selector("[data-list='open'] li:has(button[aria-label*='Ann'])")
    assert "Ann (1500?)" in join.inner_text() and "1 seat free" in join.inner_text()
    # Ann puts a computer in the free seat and starts: a game to watch, with a link to it.
    post(ann, f"/api/tables/{table}/bots", {"seat": 1, "bot": "normal"})
    post(ann, f"/api/tables/{table}/start")
    watch = viewer.page.wait_for_selector(f"a[href='/t/{table}']:has-text('Watch')")
    assert viewer.page.locator("[data-list='open'] li:has(button[aria-label*='Ann'])").count() == 0
    assert navigations == []  # (no reload)
    # Everything fits the screen's width.
    wide = viewer.page.evaluate("document.documentElement.scrollWidth")
    assert wide <= size["width"], wide
    box = watch.bounding_box()
    assert box is not None and box["x"] + box["width"] <= size["width"]
    name = "desktop" if size["width"] >= 1000 else "phone"
    viewer.page.screenshot(path=str(artifacts / f"lobby-{name}.png"), full_page=True)
    watch.click()
    viewer.page.wait_for_selector(".topbar .watching-badge")
    assert not viewer.errors and not ann.errors, (viewer.errors, ann.errors)
