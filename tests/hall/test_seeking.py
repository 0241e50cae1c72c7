"""The matchmaker in the hall: a real-time seek lasts while its player is there (their own socket
open, or a look at the queue within 20 s), then a 15 s grace; a turn-based seek waits on."""

from __future__ import annotations

import pytest

from dominohall.hall import ManualClock
from dominohall.hall.seeking import AWAY_GRACE, POLL_KEEPS, Matchmaker

from .helpers import ANN, BOB, running_hall

pytestmark = pytest.mark.anyio
TICK_AND_A_BIT = 0.6  # a pairing round, where an away seeker is let go


async def _seek(matchmaker: Matchmaker, person, speed: str = "real-time") -> None:
    await matchmaker.seek(person, account=True, pool="draw", players=2, speed=speed, ranked=True)


async def test_a_seek_lasts_while_any_of_its_players_pages_is_open(tmp_path):
    clock = ManualClock()
    async with running_hall(tmp_path, clock) as hall:
        matchmaker = Matchmaker(hall)
        matchmaker.start()
        await _seek(matchmaker, ANN)
        matchmaker.socket_opened(ANN.id)
        matchmaker.socket_opened(ANN.id)  # two tabs
        matchmaker.socket_closed(ANN.id)
        await clock.advance(300.0)
        assert await matchmaker.seeking(ANN.id) is not None
        matchmaker.socket_closed(ANN.id)  # the last one
        await clock.advance(AWAY_GRACE)
        assert await matchmaker.seeking(ANN.id) is not None  # back within the grace: kept
        await clock.advance(TICK_AND_A_BIT)
        assert await matchmaker.seeking(ANN.id) is None
        matchmaker.stop()


async def test_a_look_at_the_queue_counts_as_there_for_20_s(tmp_path):
    clock = ManualClock()
    async with running_hall(tmp_path, clock) as hall:
        matchmaker = Matchmaker(hall)
        matchmaker.start()
        await _seek(matchmaker, ANN)  # the seek itself is a look
        await clock.advance(POLL_KEEPS + AWAY_GRACE - 1.0)
        await matchmaker.looked(ANN.id)
        await clock.advance(POLL_KEEPS + AWAY_GRACE - 1.0)
        assert await matchmaker.seeking(ANN.id) is not None
        await clock.advance(1.0 + TICK_AND_A_BIT)
        assert await matchmaker.seeking(ANN.id) is None
        # A turn-based seek waits for days, page open or not.
        await _seek(matchmaker, BOB, speed="turn-based")
        await clock.advance(3600.0)
        assert await matchmaker.seeking(BOB.id) is not None
        matchmaker.stop()


async def test_the_pairing_rounds_sleep_while_nobody_seeks(tmp_path, monkeypatch):
    clock = ManualClock()
    async with running_hall(tmp_path, clock) as hall:
        matchmaker = Matchmaker(hall)
        rounds: list[float] = []
        real_pair = matchmaker.pair

        async def counted_pair():
            rounds.append(clock.now())
            return await real_pair()

        monkeypatch.setattr(matchmaker, "pair", counted_pair)
        matchmaker.start()
        await clock.advance(60.0)
        assert rounds == []  # an empty queue: no round at all
        await _seek(matchmaker, ANN, speed="turn-based")
        await clock.advance(2.0)
        assert len(rounds) >= 4  # the seek's own, then every half second while Ann seeks
        await matchmaker.cancel(ANN.id)
        await clock.advance(TICK_AND_A_BIT)
        seen = len(rounds)
        await clock.advance(60.0)
        assert len(rounds) == seen  # asleep again
        matchmaker.stop()
