"""A challenge in the browser, at 1280 and 390 px: Ann opens Bob's profile, follows him and
challenges him to a casual game; Bob's page (any page: his home) shows the challenge, he accepts,
and both pages open the table where both sit."""

from __future__ import annotations

import itertools
from typing import Any

import httpx
import pytest

from .conftest import SIZES, Hall
from .players import Person

_names = itertools.count()


def _signed_in(hall: Hall, browser: Any, size: dict[str, int], username: str) -> Person:
    made = httpx.post(
        hall.url + "/api/accounts",
        json={"username": username, "password": "correct horse", "name": username.title()},
    )
    assert made.status_code == 200, made.text
    context = browser.new_context(viewport=size)
    cookie = made.cookies["dominohall"]
    context.add_cookies([{"name": "dominohall", "value": cookie, "url": hall.url}])
    return Person.open(context, hall.url)


@pytest.mark.parametrize("size", SIZES)
def test_a_challenge_sent_from_a_profile_is_accepted(
    hall: Hall, browser: Any, size: dict[str, int]
) -> None:
    n = next(_names)
    ann = _signed_in(hall, browser, size, f"chann{n}")
    bob = _signed_in(hall, browser, size, f"chbob{n}")
    try:
        bob.page.goto(hall.url + "/")
        bob.page.wait_for_selector("#app main")
        ann.page.goto(f"{hall.url}/@/chbob{n}")
        ann.page.get_by_role("button", name="Follow").click()
        ann.page.get_by_role("button", name="Following ✓").wait_for()
        ann.page.get_by_role("button", name="Challenge", exact=True).click()
        form = ann.page.get_by_role("form", name=f"Challenge Chbob{n}")
        form.get_by_label("Timer").select_option("relaxed")
        form.get_by_role("button", name="Send the challenge").click()
        ann.page.get_by_text(f"You challenged Chbob{n}").wait_for()

        bar = bob.page.get_by_role("region", name="Challenges")
        bar.get_by_text(f"Chann{n} challenges you").wait_for()
        box = bar.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]
        bar.get_by_role("button", name="Accept").click()

        for person in (ann, bob):
            person.page.wait_for_url(f"{hall.url}/t/*")
            person.page.wait_for_selector(".hand-tile")
        assert ann.page.url == bob.page.url
        assert bob.page.get_by_role("region", name="Challenges").count() == 0
        assert not ann.errors and not bob.errors, ann.errors + bob.errors
    finally:
        ann.page.context.close()
        bob.page.context.close()
