"""The tournaments as sockets are told them (``tournament_feed.py``, over ``tournament_news.py``):
a listener gets the tournament whole, then again at each change that shows, never a push that
changes nothing; and on two processes (PostgreSQL and the machine's Redis), a join made on one
process and a step run on the other reach a listener on either."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from typing import Any

import pytest

from dominohall.hall import HallError, ManualClock, Options
from dominohall.hall.options import capped
from dominohall.hall.tournament_feed import TournamentFeed
from dominohall.hall.tournament_news import MemoryTournamentNews
from dominohall.hall.tournaments import Plan
from dominohall.hall.wiring import HallSettings, open_hall, running

from .helpers import ANN, BOB
from .test_lobby_feed import Heard
from .test_owners import settings

pytestmark = pytest.mark.anyio


def _last(heard: Heard) -> dict[str, Any]:
    return heard.pushes[-1]["tournament"] if heard.pushes else {}


async def test_a_listener_gets_the_whole_then_each_change_that_shows(tmp_path) -> None:
    clock = ManualClock(1_000_000.0)
    quick = HallSettings(
        f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}",
        clock=clock,
        bot_delay=0,
        heartbeat=False,
        tournament_every=None,
        lobby_push=0.01,
    )
    async with running(quick) as opened:
        service, feed = opened.tournaments, opened.tournament_feed
        assert service is not None and feed is not None
        plan = Plan("Friday arena", "arena", Options(), clock.now() + 60, minutes=30)
        tid = (await service.create(None, plan))["id"]
        heard = Heard()
        whole, stop = await feed.listen(tid, heard)
        assert whole["type"] == "tournament" and whole["tournament"]["entrants"] == 0
        await service.join(ANN, tid)
        await heard.until(lambda: _last(heard).get("entrants") == 1)
        assert [r["name"] for r in _last(heard)["standings"]] == ["Ann"]
        # A step before the start saves nothing new: nothing pushed.
        pushed = len(heard.pushes)
        await service.step(tid)
        await asyncio.sleep(0.1)
        assert len(heard.pushes) == pushed
        stop()  # no more pushes once it stopped listening
        await service.join(BOB, tid)
        await asyncio.sleep(0.1)
        assert len(heard.pushes) == pushed
        with pytest.raises(HallError) as missing:
            await feed.listen("nothere", heard)
        assert missing.value.code == "no_tournament"


async def test_memory_news_tells_each_follower_the_id() -> None:
    news = MemoryTournamentNews()
    ids: list[str] = []
    news.follow(ids.append, lambda: None)
    await news.changed("t1")
    assert ids == ["t1"]

    async def read(tid: str) -> dict[str, Any]:
        return {"id": tid}

    feed = TournamentFeed(news, read, push_every=0.0)
    feed.start()
    try:
        heard = Heard()
        whole, _ = await feed.listen("t2", heard)
        assert whole == {"type": "tournament", "tournament": {"id": "t2"}}
        await news.changed("t2")  # saved, but the same as the whole it was sent: no push
        await asyncio.sleep(0.05)
        assert heard.pushes == []
    finally:
        await feed.stop()


@pytest.mark.postgresql
async def test_changes_on_either_process_reach_a_listener_on_the_other(
    postgres_database: str, redis_prefix: str
) -> None:
    clock = ManualClock(2_000_000.0)

    def quick(process: str) -> HallSettings:
        made = settings(postgres_database, redis_prefix, clock, process)
        return replace(made, lobby_push=0.01, tournament_every=None)

    a, b = await asyncio.gather(open_hall(quick("hall-a")), open_hall(quick("hall-b")))
    try:
        assert a.tournaments is not None and b.tournaments is not None
        assert a.tournament_feed is not None and b.tournament_feed is not None
        plan = Plan("Across", "arena", capped(Options(), 5), clock.now(), minutes=10)
        tid = (await a.tournaments.create(None, plan))["id"]
        on_a, on_b = Heard(), Heard()
        await a.tournament_feed.listen(tid, on_a)
        await b.tournament_feed.listen(tid, on_b)
        await asyncio.sleep(0.2)  # (each process's reader in place in Redis)
        await b.tournaments.join(ANN, tid)  # on B, heard on A
        await on_a.until(lambda: _last(on_a).get("entrants") == 1)
        await a.tournaments.seat_computers(tid, 1)
        await a.tournaments.step(tid)  # on A (the runner's process), heard on B
        await on_b.until(lambda: _last(on_b).get("status") == "running")
        [game] = _last(on_b)["games"]
        assert ANN.id in game["players"] and game["link"] == f"/t/{game['table']}"
        assert json.dumps(_last(on_a)) == json.dumps(_last(on_b))
    finally:
        await asyncio.gather(a.close(), b.close())
