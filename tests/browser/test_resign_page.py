"""The Resign button (docs/protocol.md 4): "Resign this game?" first, Keep playing changes
nothing; in partnership the partner's Accept / Decline and the asker's wait; at 1280 and 390 px."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import SIZES, Hall
from .players import Person
from .tables import new_table, open_table, play_now, post, shot

# Every control of an open dialog inside the viewport (a phone's too): nothing to scroll to.
IN_VIEW = """(selector) => {
  const box = document.querySelector(selector).getBoundingClientRect();
  const { innerWidth: w, innerHeight: h } = window;
  const out = [...document.querySelectorAll(selector + ' button')].filter((b) => {
    const r = b.getBoundingClientRect();
    return r.left < 0 || r.right > w || r.top < 0 || r.bottom > h || r.height < 40;
  });
  return out.length === 0 && box.width <= w;
}"""


def confirm_opens(person: Person, selector: str = ".resign-confirm") -> None:
    page = person.page
    page.click(".topbar button.resign")
    page.wait_for_selector(selector)
    # Keep playing has the focus: a slip of Enter keeps the game going.
    page.wait_for_function("() => document.activeElement?.matches('.resign-keep')")
    assert page.inner_text(f"{selector} h2") == "Resign this game?"
    assert page.evaluate(IN_VIEW, selector)


@pytest.mark.parametrize("size", SIZES)
def test_resign_asks_first_then_forfeits(
    hall: Hall, browser: Any, artifacts: Path, size: dict[str, int]
) -> None:
    context = browser.new_context(viewport=size)
    ann = Person.open(context, hall.url)
    ann.sign_in("Ann")
    open_table(ann, play_now(ann, "draw"))
    page = ann.page
    version = ann.version()
    confirm_opens(ann)
    assert "your opponent wins" in page.inner_text(".resign-confirm")
    shot(ann, artifacts, f"resign-confirm-{size['width']}")
    page.click(".resign-keep")
    page.wait_for_selector(".resign-confirm", state="detached")
    assert page.query_selector(".game-end") is None and ann.version() == version
    confirm_opens(ann)
    page.keyboard.press("Escape")  # as Keep playing
    page.wait_for_selector(".resign-confirm", state="detached")
    confirm_opens(ann)
    page.click(".resign-confirm .resign-yes")
    page.wait_for_selector(".game-end")
    assert "Normal wins by forfeit" in page.inner_text(".game-end h2")
    assert "Ann (you) resigned." in page.inner_text(".game-end .why")
    assert page.query_selector(".topbar button.resign") is None  # over: Leave again
    assert ann.errors == []
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_in_partnership_the_partner_answers(
    hall: Hall, browser: Any, artifacts: Path, size: dict[str, int]
) -> None:
    ann = Person.open(browser.new_context(viewport=size), hall.url)
    cid = Person.open(browser.new_context(viewport=size), hall.url)
    ann.sign_in("Ann")
    cid.sign_in("Cid")
    table = new_table(
        ann, preset="partnership", seats=4, timer="relaxed", bots=[None, "normal", None, "normal"]
    )
    post(cid, f"/api/tables/{table}/join", {"seat": 2})
    post(ann, f"/api/tables/{table}/start")
    for person in (ann, cid):
        open_table(person, table)

    # Ann asks; Cid declines: the game goes on, and Ann is told.
    confirm_opens(ann)
    assert "Your partner is asked first" in ann.page.inner_text(".resign-confirm")
    ann.page.click(".resign-confirm .resign-yes")
    ann.page.wait_for_selector(".resign-waiting")
    assert "Asking your partner Cid to resign" in ann.page.inner_text(".resign-waiting")
    assert ann.page.is_disabled(".topbar button.resign")  # one request at a time
    cid.page.wait_for_selector(".resign-asked")
    cid.page.wait_for_function("() => document.activeElement?.matches('.resign-decline')")
    assert "Ann asks to resign" in cid.page.inner_text(".resign-asked h2")
    assert cid.page.evaluate(IN_VIEW, ".resign-asked")
    shot(cid, artifacts, f"resign-asked-{size['width']}")
    shot(ann, artifacts, f"resign-waiting-{size['width']}")
    cid.page.click(".resign-decline")
    cid.page.wait_for_selector(".resign-asked", state="detached")
    ann.page.wait_for_selector(".resign-waiting", state="detached")
    ann.page.wait_for_selector("text=Your partner declined: the game goes on.")
    assert ann.page.query_selector(".game-end") is None

    # Asked again, Cid accepts: the team loses the game.
    confirm_opens(ann)
    ann.page.click(".resign-confirm .resign-yes")
    cid.page.click(".resign-asked .resign-accept")
    for person in (ann, cid):
        person.page.wait_for_selector(".game-end")
        assert "win by forfeit" in person.page.inner_text(".game-end h2")
    assert "Ann resigned, and Cid (you) agreed." in cid.page.inner_text(".game-end .why")
    assert ann.errors == [] and cid.errors == []
    for person in (ann, cid):
        person.page.context.close()
