"""The challenges service (``hall/challenges.py``) on a hall of its own: a challenge outlives a
restart (stored; its expiry set again at start), the rate limit per player, an end written once,
and an account's deletion taking its challenges and follows with it."""

from __future__ import annotations

from pathlib import Path

import pytest

from dominohall.hall import ManualClock
from dominohall.hall.abandonment import HeldBack, after_abandoning
from dominohall.hall.challenges import ChallengeLimited, Challenger, Challenging, Expiry
from dominohall.hall.notices import Challenged, ChallengeOver
from dominohall.hall.options import Options
from dominohall.hall.wiring import HallSettings, running
from dominohall.store.deletion import delete_account
from dominohall.store.store import StoredPlayer
from dominohall.web.ratelimit import Limit, MemoryBuckets

pytestmark = pytest.mark.anyio

ANN = Challenger("p_ann", "Ann", "ann")
BOB = Challenger("p_bob", "Bob", "bob")
CID = Challenger("p_cid", "Cid", "cid")
CASUAL = Options.choose(seats=2)


def _settings(database_url: str, clock: ManualClock) -> HallSettings:
    return HallSettings(database_url, clock=clock, bot_delay=0, heartbeat=False)


async def test_a_challenge_outlives_a_restart_and_expires_after_it(tmp_path: Path) -> None:
    # (SQLite here; the two-process test runs challenges on PostgreSQL.)
    database_url = f"sqlite+aiosqlite:///{tmp_path / 'h.db'}"
    clock = ManualClock()
    async with running(_settings(database_url, clock)) as opened:
        for person in (ANN, BOB):
            await opened.store.add_player(
                StoredPlayer(person.id, person.name, person.username, "h")
            )
        service = Challenging(opened.store, opened.hall, expiry=Expiry(real_time=60))
        sent = await service.challenge(ANN, "bob", CASUAL)
        service.stop()
    await clock.advance(10)
    async with running(_settings(database_url, clock)) as opened:
        heard: list[object] = []
        opened.hall.broker.listen(BOB.id, heard.append)
        service = Challenging(opened.store, opened.hall, expiry=Expiry(real_time=60))
        await service.start()
        [kept] = await service.open_of(BOB.id)
        assert (kept.id, kept.expires_at) == (sent.id, sent.expires_at)
        await clock.advance(50)
        assert heard == [ChallengeOver(sent.id, "expired", None)]
        assert await service.open_of(BOB.id) == []
        service.stop()


async def test_the_rate_limit_an_end_written_once_and_deletion(tmp_path: Path) -> None:
    clock = ManualClock()
    async with running(_settings(f"sqlite+aiosqlite:///{tmp_path / 'h.db'}", clock)) as opened:
        store = opened.store
        for person in (ANN, BOB, CID):
            await store.add_player(StoredPlayer(person.id, person.name, person.username, "h"))
        limit = MemoryBuckets(Limit(1, 3600), clock.now)
        service = Challenging(store, opened.hall, limit)
        told: list[object] = []
        opened.hall.broker.listen(BOB.id, told.append)
        sent = await service.challenge(ANN, "bob", CASUAL)
        assert isinstance(told[0], Challenged)
        with pytest.raises(ChallengeLimited) as limited:
            await service.challenge(ANN, "cid", CASUAL)
        assert limited.value.code == "too_many_challenges" and limited.value.retry_after == 3600
        await service.challenge(BOB, "cid", CASUAL)  # (per player: Bob has his own)

        # Cancelled, then declined: the second finds it over, and nothing more is told.
        await service.cancel(ANN.id, sent.id)
        with pytest.raises(Exception) as late:
            await service.decline(BOB.id, sent.id)
        assert getattr(late.value, "code", None) == "challenge_over"
        assert [n for n in told if isinstance(n, ChallengeOver)] == [
            ChallengeOver(sent.id, "cancelled", None)
        ]

        await store.follows.follow(ANN.id, BOB.id, clock.now())
        await store.follows.follow(BOB.id, ANN.id, clock.now())
        await delete_account(store.engine, BOB.id)
        assert await store.challenges.of_player(BOB.id) == []
        assert await store.challenges.of_player(CID.id) == []  # Bob's to Cid went too
        assert await store.follows.followed_by(ANN.id) == []
        assert await store.follows.followed_by(BOB.id) == []
        service.stop()


async def test_a_player_held_back_for_walking_away_neither_sends_nor_plays_a_real_time_one(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    async with running(_settings(f"sqlite+aiosqlite:///{tmp_path / 'h.db'}", clock)) as opened:
        store = opened.store
        for person in (ANN, BOB):
            await store.add_player(StoredPlayer(person.id, person.name, person.username, "h"))
        service = Challenging(store, opened.hall)
        open_to_ann = await service.challenge(BOB, "ann", CASUAL)
        # Ann walks away from a real-time game: held back (hall/abandonment.py).
        await store.abandonments.strike(ANN.id, "t_left", "left", clock.now(), after_abandoning)
        with pytest.raises(HeldBack):
            await service.challenge(ANN, "bob", CASUAL)
        with pytest.raises(HeldBack):
            await service.accept(ANN.id, open_to_ann.id)  # (a table for both: none opened)
        assert [c.id for c in await service.open_of(ANN.id)] == [open_to_ann.id]
        await service.challenge(ANN, "bob", Options.choose(seats=2, timer="day"))  # turn-based
        service.stop()
