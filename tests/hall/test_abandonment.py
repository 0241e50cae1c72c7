"""Abandonment (docs/protocol.md 4): the rule (a hold of 10 min, doubled with each strike, 24 h
at most, forgiven by games played to the end or a quiet week), and the hall holding a player
back from new real-time games with people after walking away, not after resigning; stored, so
a restarted hall still holds them."""

from __future__ import annotations

from pathlib import Path

import pytest

from dominohall.hall import ManualClock, Options
from dominohall.hall.abandonment import (
    FORGIVING_GAMES,
    FORGIVING_SECONDS,
    HeldBack,
    after_abandoning,
    hold_seconds,
)
from dominohall.hall.options import BotLevel
from dominohall.store.abandonment import Standing

from .helpers import ANN, BOB, CID, running_hall, started_table

pytestmark = pytest.mark.anyio


def test_each_strike_doubles_the_hold_up_to_a_day() -> None:
    standing = Standing()
    holds = []
    for n in range(10):
        standing = after_abandoning(standing, 1000.0 * n)
        holds.append(standing.until - standing.last_at)
    assert holds[:4] == [600.0, 1200.0, 2400.0, 4800.0]
    assert holds[-1] == 86400.0 == hold_seconds(40)
    assert standing.strikes == 10 and standing.finished_since == 0


def test_games_played_to_the_end_or_a_quiet_week_forgive_the_strikes() -> None:
    twice = after_abandoning(after_abandoning(Standing(), 0.0), 10.0)
    assert twice.strikes == 2
    almost = Standing(2, 10.0, twice.until, FORGIVING_GAMES - 1)
    assert after_abandoning(almost, 20.0).strikes == 3
    forgiven = Standing(2, 10.0, twice.until, FORGIVING_GAMES)
    assert after_abandoning(forgiven, 20.0).strikes == 1
    assert after_abandoning(twice, 10.0 + FORGIVING_SECONDS).strikes == 1
    assert after_abandoning(twice, 10.0 + FORGIVING_SECONDS - 1).strikes == 3


async def test_leaving_a_game_with_people_holds_back_from_new_real_time_games(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    async with running_hall(tmp_path, clock) as hall:
        table = await started_table(hall, [ANN, BOB, CID])
        await hall.resign(CID, table)  # conceding in the open: never a strike
        await hall.create_table(CID, Options.choose(seats=2))
        await hall.leave(ANN, table)
        left_at = clock.now()
        with pytest.raises(HeldBack) as held:
            await hall.create_table(ANN, Options.choose(seats=2))
        assert held.value.code == "held_back" and held.value.until == left_at + 600
        assert held.value.to_json()["until"] == left_at + 600
        assert "in 10 min" in held.value.message
        other = await hall.create_table(BOB, Options.choose(seats=2))  # Bob stayed
        with pytest.raises(HeldBack):
            await hall.join(ANN, other.id, None)
        with pytest.raises(HeldBack):
            await hall.abandonment.check(ANN.id)  # (the queues ask this: seeking.py)
        # What harms nobody stays open: computer players only, and turn-based games.
        await hall.play_with_bots(ANN, [BotLevel.EASY])
        await hall.create_table(ANN, Options.choose(seats=2, timer="day"))
    # Stored: a hall started again on the same database still holds Ann, until the hold ends
    # (Bob, put out meanwhile for his lost connection, had no person left to play with).
    async with running_hall(tmp_path, clock) as hall:
        with pytest.raises(HeldBack):
            await hall.join(ANN, other.id, None)
        await clock.advance(600.0)
        again = await hall.create_table(BOB, Options.choose(seats=2))
        assert await hall.join(ANN, again.id, None) == 1


async def test_a_game_against_computer_players_alone_is_no_strike(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        table = await started_table(hall, [ANN], bots=["easy"])
        await hall.leave(ANN, table)
        await hall.create_table(ANN, Options.choose(seats=2))
