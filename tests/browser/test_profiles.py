"""Profiles, a leaderboard and a game's replay in the browser, after a real ranked game."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from dominohall.cli.serve import database_url_for
from dominohall.store import Store
from dominohall.store.ratings import StoredRating
from dominohall.store.store import StoredPlayer
from web.live import Player

from .conftest import SIZES, Hall
from .players import Person

LEADERS = 6  # seeded players with enough games to be on the draw leaderboard


def _run(main: Callable[[], Awaitable[None]]) -> None:
    """Run async code beside Playwright's own event loop (which holds this thread)."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, main()).result()


def _account(hall: Hall, username: str) -> tuple[str, str]:
    answer = httpx.post(
        hall.url + "/api/accounts",
        json={"username": username, "password": "correct horse", "name": username.title()},
    )
    assert answer.status_code == 200, answer.text
    return f"dominohall={answer.cookies['dominohall']}", answer.json()["player"]["id"]


def _paired(hall: Hall, *cookies: str) -> str | None:
    """Each player seeks a ranked Draw game for two; the table the last seek was paired at."""
    for cookie in cookies:
        answer = httpx.post(
            hall.url + "/api/ranked/queue",
            json={"pool": "draw", "players": 2},
            headers={"Cookie": cookie},
        )
        assert answer.status_code == 200, answer.text
    return answer.json()["table"]


def _seed(hall: Hall) -> None:
    """Players with settled draw ratings, straight in the running hall's database."""

    async def seed() -> None:
        store = await Store.open(database_url_for(hall.data))
        try:
            for i in range(LEADERS):
                player = f"p_leader{i}"
                await store.add_player(StoredPlayer(player, f"Leader {i}", f"leader{i}", None))
                mu = 24.0 + i
                await store.ratings.put(
                    StoredRating(player, "draw", "real-time", mu, 2.0, 20 + i, time.time())
                )
        finally:
            await store.close()

    _run(seed)


def ranked_game(hall: Hall) -> dict[str, Any]:
    """Pia and Quin play a ranked draw game to the end over WebSockets; the board is seeded
    (the fixture ``ranked`` of conftest.py: once a hall, for this module and the languages')."""
    _seed(hall)
    (pia, _), (quin, _) = _account(hall, "pia"), _account(hall, "quin")
    table = _paired(hall, pia, quin)
    assert table
    ws = f"ws://127.0.0.1:{hall.port}/ws/tables/{table}"
    players = [Player(ws, c) for c in (pia, quin)]

    async def play() -> None:
        await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), timeout=60)

    _run(play)
    for _ in range(50):  # the result is stored just after the last move's state
        game = httpx.get(f"{hall.url}/api/games/{table}")
        if game.status_code == 200:
            _aborted_game(hall, pia)
            return {"table": table, **game.json()}
        time.sleep(0.05)
    raise AssertionError(game.text)


def _aborted_game(hall: Hall, pia: str) -> None:
    """Pia is paired with Rue, of the same rating, and leaves at once: aborted, in her games."""
    rue, rue_id = _account(hall, "rue")
    pia_id = httpx.get(hall.url + "/api/me", headers={"Cookie": pia}).json()["player"]["id"]

    async def same() -> None:
        store = await Store.open(database_url_for(hall.data))
        try:
            [skill] = await store.ratings.of_player(pia_id)
            await store.ratings.put(StoredRating(rue_id, "draw", "real-time", skill.mu, 2.0, 1, 0))
        finally:
            await store.close()

    _run(same)
    table = _paired(hall, pia, rue)
    answer = httpx.post(f"{hall.url}/api/tables/{table}/leave", json={}, headers={"Cookie": pia})
    assert answer.status_code == 200, answer.text
    for _ in range(50):
        game = httpx.get(f"{hall.url}/api/games/{table}")
        if game.status_code == 200:
            assert game.json()["game"]["reason"] == "aborted"
            return
        time.sleep(0.05)
    raise AssertionError(game.text)


@pytest.mark.parametrize("size", SIZES)
def test_a_profile_shows_ratings_with_a_chart_stats_and_recent_games(
    hall: Hall, browser: Any, artifacts: Path, ranked: dict[str, Any], size: dict[str, int]
) -> None:
    context = browser.new_context(viewport=size)
    person = Person.open(context, hall.url)
    page = person.page

    def settled_later(route: Any) -> None:  # a hall that settles ratings later than this one
        answer = route.fetch().json()
        route.fulfill(json={**answer, "provisional_games": answer["provisional_games"] + 5})

    page.route(re.compile(r"/api/players/pia$", re.IGNORECASE), settled_later)
    page.goto(hall.url + "/@/PIA")
    page.wait_for_selector(".chart .line")
    profile = httpx.get(hall.url + "/api/players/pia").json()
    [draw] = profile["ratings"]
    assert page.inner_text("h1") == "Pia"
    assert page.inner_text(".rating[data-pool=draw] .rating-big") == draw["label"]
    assert draw["provisional"]  # the page says after how many games it is not, as the hall does
    title = page.get_attribute(".rating[data-pool=draw] .rating-big", "title")
    assert title == f"Provisional: fewer than {profile['provisional_games'] + 5} rated games"
    # The line runs from 1500 through one point per rated game.
    assert page.locator(".chart .dot").count() == len(draw["history"]) + 1
    stats = page.inner_text(".numbers")
    assert "Games\n1" in stats or "Games 1" in stats.replace("\n", " ")
    link = page.wait_for_selector(f".games-list a[href='/games/{ranked['table']}']")
    # Every game's outcome ("Aborted" too) stays clear of the game beside it, and the statistics
    # per game show all their columns.
    page.wait_for_selector(".games-list .outcome:text-is('Aborted')")
    overlaps = page.eval_on_selector_all(
        ".games-list li",
        """lis => lis.filter((li) => {
          const outcome = li.querySelector('.outcome');
          const next = outcome.nextElementSibling.getBoundingClientRect();
          return outcome.scrollWidth > outcome.clientWidth
            || outcome.getBoundingClientRect().right > next.left;
        }).map((li) => li.textContent)""",
    )
    assert overlaps == []
    cut = page.eval_on_selector(".stats-card .scroll-x", "s => s.scrollWidth - s.clientWidth")
    assert cut <= 0, f"the statistics per game are cut by {cut} px"
    page.screenshot(path=str(artifacts / f"profile-{size['width']}.png"), full_page=True)
    link.click()
    page.wait_for_selector(".replay-where")
    assert page.url.endswith(f"/games/{ranked['table']}")
    assert person.errors == []
    context.close()


def test_the_leaderboard_lists_players_best_first_by_pool(
    hall: Hall, browser: Any, artifacts: Path, ranked: dict[str, Any]
) -> None:
    context = browser.new_context(viewport=SIZES[0].values[0])
    person = Person.open(context, hall.url)
    page = person.page
    page.goto(hall.url + "/leaderboard/draw")
    page.wait_for_selector(".leaderboard tbody tr")
    board = httpx.get(hall.url + "/api/leaderboard/draw").json()["players"]
    rows = page.locator(".leaderboard tbody tr")
    assert rows.count() == len(board) >= LEADERS
    assert [rows.nth(i).locator("a").inner_text() for i in range(rows.count())] == [
        p["name"] for p in board
    ]
    assert rows.nth(0).locator("a").inner_text() == f"Leader {LEADERS - 1}"
    page.screenshot(path=str(artifacts / "leaderboard.png"), full_page=True)
    page.click(".tabs a:has-text('Block')")
    page.wait_for_selector("text=No one qualifies yet.")
    assert page.url.endswith("/leaderboard/block")
    assert page.inner_text(".tabs:not(.speeds) a[aria-current=page]") == "Block"
    page.click(".speeds a:has-text('Turn-based')")
    page.wait_for_selector("text=Turn-based ranked games.")
    assert page.url.endswith("/leaderboard/block?speed=turn-based")
    assert person.errors == []
    context.close()


AT = """() => {
  const where = document.querySelector('.replay-where');
  return [where.dataset.hand, where.dataset.move];
}"""


@pytest.mark.parametrize("size", SIZES)
def test_a_replay_steps_move_by_move_to_the_end(
    hall: Hall, browser: Any, artifacts: Path, ranked: dict[str, Any], size: dict[str, int]
) -> None:
    context = browser.new_context(viewport=size)
    person = Person.open(context, hall.url)
    page = person.page
    page.goto(f"{hall.url}/games/{ranked['table']}")
    page.wait_for_selector(".replay-where")
    hands = ranked["replay"]["hands"]
    game = ranked["game"]
    # The board is in view as the page opens, and the game's facts are set apart by " · ".
    board = page.locator(".replay-board").bounding_box()
    assert board and board["y"] >= 0 and board["y"] + board["height"] <= size["height"], board
    facts = page.inner_text("header .note")
    assert re.fullmatch(r"Ranked \(Draw\)( · [^·]+)+", facts), facts
    assert page.locator(".game-players tbody tr").count() == 2
    changes = [page.inner_text(f".game-players tr[data-seat='{s}'] .rating-change") for s in (0, 1)]
    for text, rating in zip(
        changes, sorted(ranked["ratings"], key=lambda r: r["seat"]), strict=True
    ):
        assert str(rating["after"]) in text and f"{abs(rating['change'])}" in text
    assert page.get_attribute("a[download]", "href") == f"/games/{ranked['table']}/record"

    def at() -> tuple[int, int]:  # (one round trip: it is asked at every move)
        hand, move = page.evaluate(AT)
        return int(hand), int(move)

    def tiles_on_board(n: int) -> None:
        page.wait_for_function(
            "n => document.querySelectorAll('.replay-board .placed').length === n",
            arg=n,
            timeout=3000,
        )

    page.locator("body").click(position={"x": 1, "y": 1})  # the keys go to the page
    for h, hand in enumerate(hands):
        for m in range(len(hand["positions"])):
            assert at() == (h, m)
            if m in (0, len(hand["positions"]) // 2):
                tiles_on_board(len(hand["positions"][m]["layout"]["chain"]))
            if (h, m) == (0, len(hand["positions"]) // 2):
                page.screenshot(
                    path=str(artifacts / f"replay-mid-{size['width']}.png"), animations="disabled"
                )
            if h < len(hands) - 1 or m < len(hand["positions"]) - 1:
                page.keyboard.press("ArrowRight")
    last = hands[-1]["positions"][-1]
    tiles_on_board(len(last["layout"]["chain"]))
    assert page.is_disabled("button[aria-label='Next move']")
    scores = [page.inner_text(f".replay-seat[data-seat='{s}'] .score") for s in (0, 1)]
    assert scores == [str(s) for s in last["scores"]] == [str(p["score"]) for p in game["players"]]
    assert "won" in page.inner_text(".replay-move")
    page.screenshot(
        path=str(artifacts / f"replay-end-{size['width']}.png"),
        full_page=True,
        animations="disabled",
    )
    # Back a hand with the arrow key, and a move back with the button.
    page.keyboard.press("Home")
    assert at() == (len(hands) - 1, 0)
    if len(hands) > 1:
        page.keyboard.press("ArrowUp")
        assert at() == (len(hands) - 2, 0)
        if len(hands) > 2:
            page.click("button[aria-label='Previous move']")
            assert at() == (len(hands) - 3, len(hands[-3]["positions"]) - 1)
        else:  # at the very first position: nothing before it (a click would wait for ever)
            assert page.is_disabled("button[aria-label='Previous move']")
            assert at() == (0, 0)
    # A position's address opens the replay there; Play steps by itself until paused.
    page.goto("about:blank")  # else only the hash changes, and the page stays
    page.goto(f"{hall.url}/games/{ranked['table']}#h1m3")
    page.wait_for_selector(".replay-where[data-move='3']")
    page.click("button.autoplay")
    page.wait_for_selector(".replay-where[data-move='4']", timeout=3000)
    page.click("button.autoplay")
    assert page.get_attribute("button.autoplay", "aria-pressed") == "false"
    assert page.url.endswith(f"#h1m{at()[1]}")
    assert person.errors == []
    context.close()


def test_a_game_not_over_sends_you_to_its_table(hall: Hall, browser: Any) -> None:
    context = browser.new_context(viewport=SIZES[1].values[0])
    person = Person.open(context, hall.url)
    person.sign_in("Tess")
    table = person.page.request.post(hall.url + "/api/tables", data={}).json()["table"]["id"]
    person.page.goto(f"{hall.url}/games/{table}")
    link = person.page.wait_for_selector("a:has-text('Go to the table')")
    assert "not over yet" in person.page.inner_text("[role=alert]")
    link.click()
    person.page.wait_for_url(f"**/t/{table}")
    context.close()
