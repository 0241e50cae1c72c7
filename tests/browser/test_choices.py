"""The page's choices are the hall's (GET /api/presets): every pool of Play ranked with its player
counts and speeds, every timer and computer level of New table and Play now, the pools of the
leaderboard and how long a nickname may be; a hall that offers other ones is shown those, so no copy of them lives in the page (issue
22)."""

from __future__ import annotations

import json
from typing import Any

import httpx

from .conftest import DESKTOP, Hall
from .players import Person
from .tables import new_table, post

OPTIONS = "os => os.map((o) => [o.value, o.textContent])"


def _options(page: Any, select: str) -> list[tuple[str, str]]:
    return [(v, t) for v, t in page.eval_on_selector_all(f"{select} option", OPTIONS)]


def _home(browser: Any, hall: Hall, answer: dict[str, Any] | None = None) -> Person:
    """The home page, with the hall's ``/api/presets`` answer replaced by ``answer`` if given."""
    person = Person.open(browser.new_context(viewport=DESKTOP), hall.url)
    if answer is not None:
        body = json.dumps(answer)
        person.page.route(
            "**/api/presets",
            lambda route: route.fulfill(status=200, content_type="application/json", body=body),
        )
    person.page.goto(hall.url + "/")
    person.page.wait_for_selector("#rk-pool")
    return person


def _check_choices(person: Person, answer: dict[str, Any]) -> None:
    page = person.page
    _, most = answer["lengths"]["name"]
    page.fill("#nick", "n" * most)
    assert not page.query_selector(".name-length")
    page.fill("#nick", "n" * (most + 1))
    assert f"at most {most} characters" in page.inner_text(".name-length")
    page.fill("#nick", "")
    pools, timers = answer["pools"], {t["id"]: t for t in answer["timers"]}
    assert _options(page, "#rk-pool") == [(p["id"], p["name"]) for p in pools]
    for pool in pools:
        page.select_option("#rk-pool", pool["id"])
        players = _options(page, "#rk-players")
        assert [int(v) for v, _ in players] == pool["players"], pool["id"]
        assert all(("teams" in words) == pool["teams"] for _, words in players), players
        speeds = _options(page, "#rk-speed")
        assert [v for v, _ in speeds] == list(pool["timers"]), pool["id"]
        for (_, words), timer in zip(speeds, pool["timers"].values(), strict=True):
            assert timers[timer]["name"] in words, words
    levels = [(level["id"], level["name"]) for level in answer["levels"]]
    assert _options(page, "#quick-level") == levels
    assert _options(page, "#seat1") == [("", "A person")] + [
        (v, f"Computer: {n}") for v, n in levels
    ]
    shown = _options(page, "#timer")
    assert [v for v, _ in shown] == list(timers)
    for value, words in shown:
        timer = timers[value]
        assert timer["name"] in words
        if timer["speed"] == "real-time":
            assert f"{timer['turn_seconds']:g} s" in words
    page.goto(person.base + "/leaderboard")
    page.wait_for_selector("nav[aria-label=Pools] a")
    tabs = page.eval_on_selector_all(
        "nav[aria-label=Pools] a", "as => as.map((a) => a.textContent)"
    )
    assert tabs == [p["name"] for p in pools]
    assert page.inner_text("h1") == f"Leaderboard: {pools[0]['name']}"
    # The host's computer players at a table still seating.
    post(person, "/api/guest", {"name": "Ann"})
    page.goto(f"{person.base}/t/{new_table(person, timer=answer['timers'][0]['id'])}")
    page.wait_for_selector("#bot-level")
    assert _options(page, "#bot-level") == levels
    assert person.errors == []


def test_the_page_offers_the_halls_pools_and_timers(hall: Hall, browser: Any) -> None:
    answer = httpx.get(hall.url + "/api/presets").json()
    person = _home(browser, hall)
    howto = person.page.text_content("details.howto:has-text('Partnership') p") or ""
    assert "Teams 1+3 and 2+4: the team that goes out" in howto, howto
    _check_choices(person, answer)
    person.page.context.close()


def test_a_hall_with_other_pools_and_timers_is_shown_those(hall: Hall, browser: Any) -> None:
    answer = httpx.get(hall.url + "/api/presets").json()
    draw, _block, fives, pairs = answer["pools"]
    answer["pools"] = [
        {**fives, "name": "Fives for the club", "players": [3]},
        {**draw, "players": [2, 4], "timers": {"real-time": "relaxed"}},
        pairs,
    ]
    answer["timers"] = [
        {**t, "name": "Steady", "turn_seconds": 30.0} if t["id"] == "relaxed" else t
        for t in answer["timers"]
        if t["id"] != "quick"
    ]
    answer["lengths"] = {**answer["lengths"], "name": [1, 8], "password": [12, 200]}
    answer["levels"] = [{"id": "normal", "name": "Steady"}, {"id": "hard", "name": "Hard"}]
    for preset in answer["presets"]:  # partners sitting side by side, for once
        preset["teams"] = preset["teams"] and [[0, 1], [2, 3]]
    person = _home(browser, hall, answer)
    howto = person.page.text_content("details.howto:has-text('Partnership') p") or ""
    assert "Teams 1+2 and 3+4: the team that goes out" in howto, howto
    _check_choices(person, answer)
    # The leaderboard says who is on it by the hall's numbers too.
    board = {"pool": "draw", "speed": "real-time", "pools": [], "players": []}
    body = json.dumps({**board, "min_games": 7, "days": 14})
    person.page.route(
        "**/api/leaderboard/**",
        lambda route: route.fulfill(status=200, content_type="application/json", body=body),
    )
    person.page.goto(hall.url + "/leaderboard/draw")
    note = person.page.inner_text(".card .note")
    assert "with 7 or more rated games who played in the last 14 days" in note
    # Settings says how long a new password must be by the hall's number.
    post(person, "/api/accounts", {"username": "pia-choices", "password": "correct horse"})
    person.page.goto(hall.url + "/settings")
    label = person.page.inner_text("label[for=set-new]")
    assert label == f"New password ({answer['lengths']['password'][0]} characters or more)"
    person.page.context.close()
