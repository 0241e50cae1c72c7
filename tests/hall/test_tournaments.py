"""Tournaments run over real tables (on SQLite and PostgreSQL, a hand-driven clock): computer
players entered as entrants play an arena and a swiss through the hall's seating, the games'
results counted; a person is seated at a paired table and told; the creation limit; a restart."""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

from dominohall.hall import Hall, HallError, ManualClock, Options, messages
from dominohall.hall.abandonment import HeldBack, after_abandoning
from dominohall.hall.notices import Invitation
from dominohall.hall.options import capped
from dominohall.hall.tournaments import CREATE_LIMIT, Plan, Tournaments
from dominohall.hall.wiring import HallSettings, running

from .helpers import ANN, BOB, idle
from .test_messages import problems

pytestmark = pytest.mark.anyio


@contextlib.asynccontextmanager
async def running_hall(database: str, clock: ManualClock) -> AsyncIterator[Hall]:
    """A hall whose tournaments step only when the test steps them."""
    settings = HallSettings(
        database,
        clock=clock,
        bot_delay=0,
        rng=random.Random(1),
        heartbeat=False,
        tournament_every=None,
    )
    async with running(settings) as opened:
        yield opened.hall


def _service(hall: Any) -> Tournaments:
    return Tournaments(hall.store.tournaments, hall.owner, hall.broker, hall.clock)


async def _steps(hall: Any, service: Tournaments, tid: str, clock: ManualClock, n: int) -> None:
    for _ in range(n):
        await service.step(tid)
        await idle(hall)
        await clock.advance(10.0)


async def test_an_arena_of_computer_entrants_plays_real_capped_tables(database_url: str) -> None:
    clock = ManualClock(1_000_000.0)
    async with running_hall(database_url, clock) as hall:
        service = _service(hall)
        plan = Plan("Demo arena", "arena", capped(Options(), 2), clock.now(), minutes=5)
        made = await service.create(None, plan)
        tid = made["id"]
        entered = await service.seat_computers(tid, 4)
        await service.step(tid)
        first = await service.get(tid)
        assert first["status"] == "running" and len(first["games"]) == 2
        for answer in (made, entered, first):  # before the start, and an arena's rows
            assert problems(answer, messages.Tournament) == []
        for game in first["games"]:
            summary = await hall.summary(game["table"])
            assert summary["cap"] == 2 and [s["kind"] for s in summary["seats"]] == ["bot"] * 2
        await _steps(hall, service, tid, clock, 35)  # 350 s: past the end
        over = await service.get(tid)
        assert over["status"] == "finished" and over["games"] == []
        played = sum(row["games"] for row in over["standings"])
        assert played >= 4 and played % 2 == 0  # every game counted for its two entrants
        assert sum(row["points"] for row in over["standings"]) >= played  # 2 a win, 1 a draw each
        with pytest.raises(HallError) as late:
            await service.join(ANN, tid)
        assert late.value.code == "tournament_over"


async def test_a_person_is_seated_and_told_and_a_swiss_survives_a_restart(
    database_url: str,
) -> None:
    clock = ManualClock(2_000_000.0)
    async with running_hall(database_url, clock) as hall:
        service = _service(hall)
        plan = Plan("Club swiss", "swiss", Options(), clock.now() + 10, rounds=2)
        tid = (await service.create(ANN, plan))["id"]
        await service.join(ANN, tid)
        await service.seat_computers(tid, 2)
        with pytest.raises(HallError) as refused:
            await service.join(ANN, tid, BOB)
        assert refused.value.code == "bad_option"
        await service.step(tid)
        assert (await service.get(tid))["status"] == "created"  # not yet due
        told: list[object] = []
        hall.broker.listen(ANN.id, told.append)
        await clock.advance(10.0)
        await service.step(tid)
        started = await service.get(tid)
        assert started["round"] == 1 and len(started["games"]) == 1
        assert problems(started, messages.Tournament) == []  # a swiss' rows
        tables = await hall.tables_of(ANN.id)
        assert [t.id for t, _ in tables] == [started["games"][0]["table"]]
        assert Invitation("tournament", tables[0][0].id, "Club swiss") in told
    async with running_hall(database_url, clock) as hall:  # a restart: it goes on
        service = _service(hall)
        again = await service.get(tid)
        assert again["round"] == 1 and again["games"] == started["games"]
        await service.pause(ANN, tid)  # withdrawn: never paired again
        assert [
            s["withdrawn"] for s in (await service.get(tid))["standings"] if s["entrant"] == ANN.id
        ] == [True]


async def test_creation_is_limited_per_account_and_checked(database_url: str) -> None:
    clock = ManualClock(3_000_000.0)
    async with running_hall(database_url, clock) as hall:
        service = _service(hall)
        plan = Plan("Daily", "arena", Options(), clock.now(), minutes=30)
        for _ in range(CREATE_LIMIT):
            await service.create(BOB, plan)
        with pytest.raises(HallError) as refused:
            await service.create(BOB, plan)
        assert refused.value.code == "too_many_tournaments"
        await service.create(None, plan)  # the operator: no limit
        for bad, words in (
            (Plan("x", "arena", Options(), 0.0, minutes=30), "3 to 40 visible characters"),
            (Plan("Cup", "knockout", Options(), 0.0, minutes=30), "an arena or a swiss"),
            (Plan("Cup", "arena", Options(), 0.0, minutes=2), "5 to 1440 minutes"),
            (Plan("Cup", "swiss", Options(), 0.0, rounds=0), "1 to 15 rounds"),
        ):
            with pytest.raises(HallError, match=words):
                await service.create(None, bad)
        listed = await service.listed()
        hidden = Plan("Secret", "arena", Options(), clock.now(), minutes=30, invitation_only=True)
        secret = await service.create(None, hidden)
        assert secret["id"] not in [t["id"] for t in await service.listed()]
        assert len(await service.listed()) == len(listed)
        cancelled = await service.cancel(secret["id"])
        assert cancelled["status"] == "cancelled"
        lonely = Plan("Lonely swiss", "swiss", Options(), clock.now(), rounds=2)
        alone = (await service.create(None, lonely))["id"]
        await service.join(ANN, alone)
        await service.step(alone)  # one entrant at the start: nobody to play
        assert (await service.get(alone))["status"] == "cancelled"


async def test_a_swiss_of_fixed_pairs_seats_each_pair_opposite(database_url: str) -> None:
    clock = ManualClock(4_000_000.0)
    async with running_hall(database_url, clock) as hall:
        service = _service(hall)
        options = capped(Options.choose(preset="partnership"), 1)
        plan = Plan("Pairs swiss", "swiss", options, clock.now(), rounds=2, pairs=True)
        tid = (await service.create(None, plan))["id"]
        await service.seat_computers(tid, 3)  # three pairs: a bye each round
        await service.step(tid)
        first = await service.get(tid)
        [game] = first["games"]
        summary = await hall.summary(game["table"])
        names = [s["name"] for s in summary["seats"]]
        assert names == ["Normal 1a", "Normal 2a", "Normal 1b", "Normal 2b"]  # pairs opposite
        for _ in range(40):
            if (await service.get(tid))["status"] == "finished":
                break
            await _steps(hall, service, tid, clock, 1)
        over = await service.get(tid)
        assert over["status"] == "finished" and over["round"] == 2
        assert sorted(r["name"] for r in over["standings"]) == [
            "Normal 1a & Normal 1b",
            "Normal 2a & Normal 2b",
            "Normal 3a & Normal 3b",
        ]
        assert sum(r["points"] for r in over["standings"]) == 2 * (2 + 2)  # 2 games, 2 byes


async def test_a_player_held_back_for_walking_away_enters_only_turn_based_ones(
    tmp_path: Any,
) -> None:
    clock = ManualClock(3_000_000.0)
    async with running_hall(f"sqlite+aiosqlite:///{tmp_path / 'h.db'}", clock) as hall:
        service = Tournaments(
            hall.store.tournaments,
            hall.owner,
            hall.broker,
            hall.clock,
            held_back=hall.abandonment.check,
        )
        await hall.store.abandonments.strike(
            ANN.id, "t_left", "left", clock.now(), after_abandoning
        )
        live = await service.create(None, Plan("Live", "arena", Options(), clock.now(), minutes=30))
        with pytest.raises(HeldBack):
            await service.join(ANN, live["id"])
        slow = Plan("Slow", "swiss", Options.choose(seats=2, timer="day"), clock.now(), rounds=2)
        await service.join(ANN, (await service.create(None, slow))["id"])
