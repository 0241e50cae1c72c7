"""The tournament page during a demo arena of computer entrants (`dominohall tournament demo`
against the running hall), at 1280 and 390 px: the countdown, the standings, the games in
progress to watch, pushed by the tournament's socket (no asking again), nothing wider than the
phone; home lists the tournament."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from .conftest import DESKTOP, PHONE_390, Hall


def test_the_tournament_page_during_an_arena(browser: Any, hall: Hall) -> None:
    command = Path(sys.executable).parent / "dominohall"
    made = subprocess.run(
        [str(command), "tournament", "demo", "--data", str(hall.data), "--entrants", "4"]
        + ["--minutes", "5", "--cap", "1", "--name", "Demo arena"],
        capture_output=True,
        check=True,
    )
    tid = json.loads(made.stdout)["id"]
    asked: list[str] = []  # the page asks nothing: its socket pushes
    sockets: list[str] = []
    for size in (DESKTOP, PHONE_390):
        context = browser.new_context(viewport=size)
        page = context.new_page()
        page.on("request", lambda r: asked.append(r.url) if "/api/tournaments/" in r.url else None)
        page.on("websocket", lambda ws: sockets.append(ws.url))
        page.goto(f"{hall.url}/tournaments/{tid}")
        page.wait_for_selector("h1:has-text('Demo arena')")
        page.wait_for_selector("text=Ends in", timeout=15_000)  # started by the hall's step
        assert page.locator("tbody tr").count() == 4
        # The games in progress, each a link to watch it.
        page.wait_for_selector("section:has(#g-h) a[href^='/t/']", timeout=10_000)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        if size is DESKTOP:
            page.wait_for_timeout(3500)  # (the old page asked again every 3 s)
            assert asked == [] and any(u.endswith(f"/ws/tournaments/{tid}") for u in sockets)
        if size is DESKTOP:
            page.goto(hall.url + "/")
            page.wait_for_selector(f"a[href='/tournaments/{tid}']")
        context.close()
