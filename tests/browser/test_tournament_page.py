"""The tournament page during a demo arena of computer entrants (`dominohall tournament demo`
against the running hall), at 1280 and 390 px: the countdown, the standings, the games in
progress to watch, pushed by the tournament's socket (no asking again); a player who joins has
their game opened by itself, and the page links it; nothing wider than the phone; home lists the
tournament. A finished one (played on a hand-driven clock before its hall serves): the podium
and every game played, each to its replay."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

from dominohall.cli.serve import database_url_for
from dominohall.hall import ManualClock, Options
from dominohall.hall.tournaments import Plan
from dominohall.hall.wiring import HallSettings, running
from hall.helpers import idle

from .conftest import DESKTOP, PHONE_390, Hall


def test_the_tournament_page_during_an_arena(browser: Any, hall: Hall) -> None:
    command = Path(sys.executable).parent / "dominohall"
    made = subprocess.run(
        [str(command), "tournament", "demo", "--data", str(hall.data), "--entrants", "5"]
        + ["--minutes", "5", "--cap", "1", "--name", "Demo arena"],
        capture_output=True,
        check=True,
    )
    tid = json.loads(made.stdout)["id"]
    asked: list[str] = []  # the page asks nothing: its socket pushes
    sockets: list[str] = []
    for size in (DESKTOP, PHONE_390):
        context = browser.new_context(viewport=size)
        if size is DESKTOP:  # signed in: Ann joins
            made_ann = httpx.post(
                hall.url + "/api/accounts",
                json={"username": "tourn_ann", "password": "correct horse", "name": "Ann"},
            )
            cookie = made_ann.cookies["dominohall"]
            context.add_cookies([{"name": "dominohall", "value": cookie, "url": hall.url}])
        page = context.new_page()
        page.on("request", lambda r: asked.append(r.url) if "/api/tournaments/" in r.url else None)
        page.on("websocket", lambda ws: sockets.append(ws.url))
        page.goto(f"{hall.url}/tournaments/{tid}")
        page.wait_for_selector("h1:has-text('Demo arena')")
        page.wait_for_selector("text=Ends in", timeout=15_000)  # started by the hall's step
        assert page.locator("tbody tr").count() == (5 if size is DESKTOP else 6)
        # The games in progress, each a link to watch it.
        page.wait_for_selector("section:has(#g-h) a[href^='/t/']", timeout=10_000)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        if size is DESKTOP:
            page.wait_for_timeout(3500)  # (the old page asked again every 3 s)
            assert asked == [] and any(u.endswith(f"/ws/tournaments/{tid}") for u in sockets)
            # Ann joins: paired with the computer entrant waiting, her game opens by itself;
            # back on the tournament's page, it says where her game is.
            page.click("button:has-text('Join')")
            page.wait_for_url(f"{hall.url}/t/*", timeout=10_000)
            table = page.url.rsplit("/", 1)[1]
            page.goto(f"{hall.url}/tournaments/{tid}")
            page.wait_for_selector(f".your-game a[href='/t/{table}']")
            assert page.locator("button:has-text('Pause')").count() == 1
            page.goto(hall.url + "/")
            page.wait_for_selector(f"a[href='/tournaments/{tid}']")
        context.close()


async def _finished_swiss(data: Path) -> str:
    """A swiss of three computer entrants played to its end on a hand-driven clock, in the
    hall's database (before its server starts): two rounds, a game and a bye each."""
    clock = ManualClock(time.time() - 3600)  # (an hour ago: its steps stay in the past)
    settings = HallSettings(
        database_url_for(data),
        data=data,
        clock=clock,
        bot_delay=0,
        heartbeat=False,
        tournament_every=None,
    )
    async with running(settings) as opened:
        service = opened.tournaments
        assert service is not None
        plan = Plan("Finished swiss", "swiss", Options(), clock.now(), rounds=2)
        tid = str((await service.create(None, plan))["id"])
        await service.seat_computers(tid, 3)
        for _ in range(100):
            await service.step(tid)
            if (await service.get(tid))["status"] == "finished":
                return tid
            await idle(opened.hall)
            await clock.advance(10.0)
    raise AssertionError("the swiss did not finish")


def test_a_finished_tournament_shows_its_podium_and_every_game(
    browser: Any, tmp_path: Path
) -> None:
    with ThreadPoolExecutor(1) as thread:  # (its own event loop, beside Playwright's)
        tid = thread.submit(asyncio.run, _finished_swiss(tmp_path)).result()
    server = Hall(tmp_path)
    server.start()
    try:
        for size in (DESKTOP, PHONE_390):
            context = browser.new_context(viewport=size)
            page = context.new_page()
            page.goto(f"{server.url}/tournaments/{tid}")
            page.wait_for_selector("text=Finished.")
            podium = page.locator("ol.podium li")
            assert podium.count() == 3 and podium.first.inner_text().startswith("1st")
            games = page.locator("section:has(#p-h) a[href^='/games/']")
            assert games.count() == 2  # every game played, to its replay
            assert page.locator("#g-h").count() == 0  # none in progress once over
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            if size is DESKTOP:
                games.first.click()
                page.wait_for_url(f"{server.url}/games/*")
                page.wait_for_selector("text=Draw")
            context.close()
    finally:
        server.stop()
