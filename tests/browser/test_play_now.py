"""Play now: one click against a Normal computer player, or S1's choices in one step (any
preset, 1-3 computer players, one level for all or one each, the preset's targets)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import SIZES, Hall
from .players import Person


def seated(person: Person) -> dict[str, Any]:
    table_id = person.page.url.rsplit("/", 1)[1]
    answer = person.page.request.get(f"{person.base}/api/tables/{table_id}")
    return dict(answer.json()["table"])


@pytest.mark.parametrize("size", SIZES)
def test_play_now_in_one_click_or_with_every_choice(
    hall: Hall, browser: Any, artifacts: Path, size: dict[str, int]
) -> None:
    context = browser.new_context(viewport=size)
    person = Person.open(context, hall.url)
    person.sign_in("Ann")
    page = person.page

    page.click("button:has-text('Play with bots')")  # the default: one click
    page.wait_for_selector(".table")
    table = seated(person)
    assert table["preset"] == "draw" and table["target"] == 50
    assert [s["bot"] for s in table["seats"]] == [None, "normal"]

    page.goto(hall.url + "/")
    page.select_option("#quick-game", "spinner-fives")
    targets = page.eval_on_selector_all("#quick-target option", "os => os.map((o) => o.value)")
    assert targets == ["100", "150", "200"]  # that preset's list (RULES.md 6)
    page.select_option("#quick-target", "150")
    page.select_option("#quick-count", "3")
    page.check("#quick-each")
    for seat, level in enumerate(["easy", "hard", "normal"], start=1):
        page.select_option(f"#quick-level{seat}", level)
    page.screenshot(path=str(artifacts / f"play-now-{size['width']}.png"), full_page=True)
    page.click("button:has-text('Play with bots')")
    page.wait_for_selector(".table")
    table = seated(person)
    assert table["preset"] == "spinner-fives" and table["target"] == 150
    assert [s["bot"] for s in table["seats"]] == [None, "easy", "hard", "normal"]

    page.goto(hall.url + "/")
    page.select_option("#quick-game", "partnership")  # four players: three computer players
    assert page.eval_on_selector_all("#quick-count option", "os => os.map((o) => o.value)") == ["3"]
    page.select_option("#quick-level", "easy")
    page.click("button:has-text('Play with bots')")
    page.wait_for_selector(".table")
    assert [s["bot"] for s in seated(person)["seats"]] == [None, "easy", "easy", "easy"]
    assert person.errors == []
    context.close()
