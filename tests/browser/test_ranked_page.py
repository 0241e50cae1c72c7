"""Play ranked from the home page: two accounts queue, meet at a table, and the end-of-game screen
shows each one's rating change; quick play shows the wait and offers a computer later; a game
aborted by an absent player says why and offers to look again, not a rematch."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import httpx

from dominohall.cli.serve import database_url_for
from dominohall.hall.ratings import NEW, Skill
from dominohall.store import Store
from dominohall.store.ratings import StoredRating
from web.live import Player

from .conftest import DESKTOP, PHONE_390, Hall
from .players import Person
from .tables import post
from .test_profiles import _run


def _account(browser: Any, hall: Hall, username: str, size: dict[str, int]) -> Person:
    person = Person.open(browser.new_context(viewport=size), hall.url)
    person.sign_in(username.title())
    post(person, "/api/accounts", {"username": username, "password": "correct horse"})
    person.page.goto(hall.url + "/")
    person.page.wait_for_selector(f"text=@{username}")
    return person


def _cookie(person: Person) -> str:
    [cookie] = [c for c in person.page.context.cookies() if c["name"] == "dominohall"]
    return f"dominohall={cookie['value']}"


def _me(person: Person) -> dict[str, Any]:
    return dict(person.page.request.get(person.base + "/api/me").json()["player"])


def _put_rating(hall: Hall, rating: StoredRating) -> None:
    """A rating set straight in the running hall's database."""

    async def put() -> None:
        store = await Store.open(database_url_for(hall.data))
        try:
            await store.ratings.put(rating)
        finally:
            await store.close()

    _run(put)


def test_two_accounts_play_ranked_from_the_page_and_see_their_rating_changes(
    hall: Hall, browser: Any, artifacts: Path
) -> None:
    ann = _account(browser, hall, "rita", DESKTOP)
    bob = _account(browser, hall, "sam", PHONE_390)
    # Rita has a settled all-fives rating; Sam is new to the pool.
    rita = StoredRating(_me(ann)["id"], "all-fives", "real-time", 26.5, 2.0, 14, 0.0)
    _put_rating(hall, rita)
    for person in (ann, bob):
        page = person.page
        page.select_option("#rk-pool", "all-fives")
        page.select_option("#rk-players", "2")
    ann.page.click("button.play-ranked")
    ann.page.wait_for_selector(".seeking .queue-wait")
    assert "1 waiting for this game" in ann.page.inner_text(".seeking .queue-size")
    ann.page.screenshot(path=str(artifacts / "ranked-seeking.png"))
    bob.page.click("button.play-ranked")
    for person in (ann, bob):
        person.page.wait_for_url(re.compile(r"/t/[A-Za-z0-9]+$"), timeout=5000)
    table = ann.page.url.rsplit("/", 1)[1]
    assert bob.page.url.endswith(f"/t/{table}")
    # The table says it is rated, and each card shows its player's rating in the pool.
    shown = {"Rita": Skill(rita.mu, rita.sigma, rita.games).label, "Sam": NEW.label}
    for person in (ann, bob):
        page = person.page
        page.wait_for_selector(".player .seat-rating")
        assert page.is_visible(".topbar .rated") and "Rated" in page.inner_text(".topbar .rated")
        for name, label in shown.items():
            card = page.locator(f".player[aria-label^='{name}']")
            assert label in card.inner_text().split("·")[-1], (name, card.inner_text())
            assert f"rated {label}" in str(card.get_attribute("aria-label"))
    ann.page.screenshot(path=str(artifacts / "ranked-table-1280.png"))
    bob.page.screenshot(path=str(artifacts / "ranked-table-390.png"))
    # My games marks the game as ranked.
    mine = ann.page.context.new_page()
    mine.goto(hall.url + "/my-games")
    row = mine.wait_for_selector(f"li[data-table='{table}']")
    assert "ranked" in row.inner_text()
    mine.close()
    # The moves are made by programs on the same seats; the pages follow the game to its end.
    ws = f"ws://127.0.0.1:{hall.port}/ws/tables/{table}"
    players = [Player(ws, _cookie(p)) for p in (ann, bob)]

    async def play() -> None:
        await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), timeout=60)

    _run(play)
    for person in (ann, bob):
        person.page.wait_for_selector(".game-end .rating-changes li", timeout=5000)
        changes = person.page.inner_text(".game-end .rating-changes")
        assert "Rita" in changes and "Sam" in changes
        assert re.search(r"[+−]\d+", changes), changes
    ann.page.screenshot(path=str(artifacts / "ranked-game-end-1280.png"))
    bob.page.screenshot(path=str(artifacts / "ranked-game-end-390.png"))
    for person in (ann, bob):
        assert person.errors == []
        person.page.context.close()


def test_quick_play_shows_the_wait_and_when_a_computer_is_offered(
    hall: Hall, browser: Any, artifacts: Path
) -> None:
    person = Person.open(browser.new_context(viewport=PHONE_390), hall.url)
    person.sign_in("Gwen")
    page = person.page
    assert page.is_disabled("button.play-ranked")  # a guest plays quick play only
    page.select_option("#rk-pool", "partnership")
    assert page.is_disabled("#rk-players")
    page.click("button.quick-play")
    page.wait_for_selector(".seeking")
    assert "Quick play: Partnership, 4 players" in page.inner_text(".seeking h2")
    offered = page.inner_text(".seeking")
    assert re.search(r"A computer opponent is offered in (1\d|20) s", offered), offered
    page.screenshot(path=str(artifacts / "quick-play-seeking-390.png"))
    page.click("button.cancel-seek")
    page.wait_for_selector("button.quick-play")
    status = page.request.get(hall.url + "/api/ranked/queue").json()
    assert status["seeking"] is None
    assert person.errors == []
    page.context.close()


def test_an_aborted_game_says_why_and_offers_to_look_again_not_a_rematch(
    hall: Hall, browser: Any, artifacts: Path
) -> None:
    rita = _account(browser, hall, "vera", PHONE_390)
    # Her opponent is only a program that seeks and leaves: no page, no socket at the table.
    made = httpx.post(
        hall.url + "/api/accounts",
        json={"username": "walt", "password": "correct horse", "name": "Walt"},
    )
    assert made.status_code == 200, made.text
    walt = {"Cookie": f"dominohall={made.cookies['dominohall']}"}
    page = rita.page
    page.select_option("#rk-pool", "block")
    page.click("button.play-ranked")
    page.wait_for_selector(".seeking")
    seek = {"pool": "block", "players": 2}
    table = httpx.post(hall.url + "/api/ranked/queue", json=seek, headers=walt).json()["table"]
    page.wait_for_url(re.compile(f"/t/{table}$"), timeout=5000)
    # Walt never opened the table: his card says he is away.
    away = page.wait_for_selector('.player.away[data-seat="1"]')
    mark = away.evaluate("e => getComputedStyle(e.querySelector('.name'), '::after').content")
    assert mark == '" (away)"', mark
    assert "Walt, away" in (away.get_attribute("aria-label") or "")
    left = httpx.post(hall.url + f"/api/tables/{table}/leave", json={}, headers=walt)
    assert left.status_code == 200, left.text
    page.wait_for_selector(".game-end", timeout=5000)
    assert page.inner_text(".game-end h2") == "Game aborted"
    why = page.inner_text(".game-end .why")
    assert why == "Walt left the table before their first turn, so the game ends here, unrated."
    assert page.query_selector(".game-end button.rematch") is None
    assert page.query_selector(".game-end .rating-changes") is None
    page.screenshot(path=str(artifacts / "ranked-aborted-390.png"))
    page.click(".game-end button.look-again")
    page.wait_for_selector(".seeking", timeout=5000)
    assert "Block" in page.inner_text(".seeking h2")
    status = page.request.get(hall.url + "/api/ranked/queue").json()
    assert status["seeking"]["pool"] == "block" and status["seeking"]["players"] == 2
    page.click("button.cancel-seek")
    page.wait_for_selector("button.play-ranked")
    assert rita.errors == []
    page.context.close()


def test_an_arena_game_shows_each_players_league_at_the_table(
    hall: Hall, browser: Any, artifacts: Path
) -> None:
    ann = _account(browser, hall, "ursa", DESKTOP)
    bob = _account(browser, hall, "vigo", PHONE_390)
    for person in (ann, bob):  # the arena is for settled ratings
        _put_rating(hall, StoredRating(_me(person)["id"], "draw", "real-time", 25.0, 2.0, 12, 0.0))
        person.page.select_option("#rk-pool", "draw")
        person.page.check("#rk-arena")
    bob.page.screenshot(path=str(artifacts / "arena-choice-390.png"))
    for person in (ann, bob):
        person.page.click("button.play-ranked")
    for person in (ann, bob):
        person.page.wait_for_url(re.compile(r"/t/[A-Za-z0-9]+$"), timeout=5000)
        person.page.wait_for_selector(".player .seat-rating")
        assert "Arena" in person.page.inner_text(".topbar .arena")
        for name in ("Ursa", "Vigo"):
            card = person.page.locator(f".player[aria-label^='{name}']")
            assert "1500 · Bronze 0" in card.inner_text(), card.inner_text()
    ann.page.screenshot(path=str(artifacts / "arena-table-1280.png"))
    bob.page.screenshot(path=str(artifacts / "arena-table-390.png"))
    # The leaderboard page has the pool's arena season.
    ann.page.goto(hall.url + "/leaderboard/draw")
    ann.page.wait_for_selector(".arena-season h2")
    assert "Arena: season 1" in ann.page.inner_text(".arena-season h2")
    ann.page.screenshot(path=str(artifacts / "arena-leaderboard-1280.png"))
    for person in (ann, bob):
        assert person.errors == []
        person.page.context.close()
