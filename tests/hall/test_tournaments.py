"""Tournaments run over real tables (on SQLite and PostgreSQL, a hand-driven clock): computer
players entered as entrants play an arena and a swiss through the hall's seating, the games'
results counted; a person is seated at a paired table and told; the creation limit; a restart;
a turn-based tournament's table asleep stays so across the steps, its game's end still taken in."""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest

from dominohall.hall import Hall, HallError, ManualClock, Options, messages
from dominohall.hall.abandonment import HeldBack, after_abandoning
from dominohall.hall.notices import Invitation
from dominohall.hall.options import capped
from dominohall.hall.table import TableState
from dominohall.hall.tournaments import CREATE_LIMIT, Plan, Tournaments, rated_options
from dominohall.hall.wiring import HallSettings, running

from .helpers import ANN, BOB, idle, play_first, whose_turn
from .test_messages import problems
from .test_table_rules import play_to_the_end

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
        day = Options.choose(seats=2, timer="day")
        slow = Plan("Slow", "swiss", day, clock.now(), rounds=2, round_days=3)
        await service.join(ANN, (await service.create(None, slow))["id"])


async def test_a_rated_tournament_plays_ranked_games_of_its_pool(database_url: str) -> None:
    clock = ManualClock(5_000_000.0)
    async with running_hall(database_url, clock) as hall:
        service = _service(hall)
        for options, words in (
            (Options.choose(preset="draw", target=100), "of draw plays to 50, not 100"),
            (Options.choose(preset="draw", timer="quick"), "timer is normal at its speed"),
            (Options.choose(preset="muggins"), "a pool.s preset"),
        ):
            with pytest.raises(HallError, match=words) as refused:
                rated_options(options)
            assert refused.value.code == "bad_option"
        casual = Plan("Sly", "swiss", replace(Options(), ranked="draw"), clock.now(), rounds=1)
        with pytest.raises(HallError, match="only a rated tournament's games are ranked"):
            await service.create(None, casual)
        options = rated_options(Options.choose(preset="draw"))
        plan = Plan("Rated swiss", "swiss", options, clock.now(), rounds=1, rated=True)
        made = await service.create(None, plan)
        assert made["rated"] is True and made["options"]["ranked"] == "draw"
        with pytest.raises(HallError, match="no computer players"):
            await service.seat_computers(made["id"], 2)
        await service.join(ANN, made["id"])
        await service.join(BOB, made["id"])
        await service.step(made["id"])
        [game] = (await service.get(made["id"]))["games"]
        table = game["table"]
        for person in (ANN, BOB):
            await hall.connect(table, person)
        await play_to_the_end(hall, table, [ANN, BOB])
        await idle(hall)
        await service.step(made["id"])
        over = await service.get(made["id"])
        assert over["status"] == "finished" and over["played"][0]["game"] == table
        changes = await hall.store.ratings.changes(table)  # rated as a ranked game is
        assert sorted(c.player_id for c in changes) == sorted([ANN.id, BOB.id])
        for person in (ANN, BOB):
            [rating] = await hall.store.ratings.of_player(person.id)
            assert (rating.pool, rating.speed, rating.games) == ("draw", "real-time", 1)


async def test_a_turn_based_swiss_settles_a_game_running_at_its_rounds_deadline(
    database_url: str,
) -> None:
    clock = ManualClock(6_000_000.0)
    async with running_hall(database_url, clock) as hall:
        service = _service(hall)
        day = Options.choose(timer="day")
        for bad, words in (
            (Plan("Slow", "swiss", day, clock.now(), rounds=1), "rounds last 1 to 30 days"),
            (Plan("Fast", "swiss", Options(), clock.now(), rounds=1, round_days=2), "turn-based"),
        ):
            with pytest.raises(HallError, match=words):
                await service.create(None, bad)
        plan = Plan("Slow swiss", "swiss", day, clock.now(), rounds=1, round_days=1)
        tid = (await service.create(None, plan))["id"]
        await service.join(ANN, tid)
        await service.join(BOB, tid)
        await service.step(tid)
        paired = await service.get(tid)
        assert paired["round_deadline"] == clock.now() + 86400.0
        table = paired["games"][0]["table"]
        first = await whose_turn(hall, table, [ANN, BOB])
        await clock.advance(3600.0)  # the first to move takes an hour
        await play_first(hall, table, first)
        second = await whose_turn(hall, table, [ANN, BOB])
        assert second != first
        await clock.advance(600.0)  # the other ten minutes
        await play_first(hall, table, second)
        await service.step(tid)  # before the deadline: nothing settled
        assert (await service.get(tid))["played"] == []
        await clock.advance(86400.0 - 3600.0 - 600.0)  # the round's deadline: the game runs on
        assert (await hall.room(table)).state.result is None
        await service.step(tid)
        over = await service.get(tid)
        assert over["status"] == "finished"
        [played] = over["played"]
        assert played["settled"] is True
        # Whoever used the most time by the deadline lost it (the first: 1 h and their turn).
        places = dict(zip(played["entrants"], played["places"], strict=True))
        who = await whose_turn(hall, table, [ANN, BOB])
        assert who == first and places == {first.name: 2, second.name: 1}
        assert [r["entrant"] for r in over["standings"]] == [second.id, first.id]
        assert (await hall.room(table)).state.result is None  # the game itself plays on


async def test_a_turn_based_tournaments_table_asleep_stays_asleep_across_its_steps(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = ManualClock(6_500_000.0)
    async with running_hall(database_url, clock) as hall:
        service = _service(hall)
        plan = Plan(
            "Slow", "swiss", Options.choose(timer="day"), clock.now(), rounds=1, round_days=3
        )
        tid = (await service.create(None, plan))["id"]
        await service.join(ANN, tid)
        await service.join(BOB, tid)
        await service.step(tid)
        [game] = (await service.get(tid))["games"]
        table = game["table"]
        assert hall.idle_seconds is not None
        await clock.advance(hall.idle_seconds + 1)
        assert await hall.sleep_idle() == 1
        looks: list[str] = []
        look = hall.rooms.look

        async def counted(table_id: str) -> TableState:
            looks.append(table_id)
            return await look(table_id)

        monkeypatch.setattr(hall.rooms, "look", counted)
        for _ in range(4):  # read from its log once, then known unchanged while it sleeps
            await service.step(tid)
            await clock.advance(60.0)
            assert hall.rooms.is_asleep(table) and hall.rooms.get(table) is None
        assert looks == [table]
        await _service(hall).step(tid)  # a service just started looks once at every table
        assert looks == [table, table] and hall.rooms.is_asleep(table)
        # A resignation wakes the table and ends its game: the next step takes it in.
        await hall.resign(ANN, table)
        assert not hall.rooms.is_asleep(table)
        await service.step(tid)
        over = await service.get(tid)
        assert over["status"] == "finished" and over["games"] == []
        [played] = over["played"]
        places = dict(zip(played["entrants"], played["places"], strict=True))
        assert places == {ANN.name: 2, BOB.name: 1} and not played["settled"]


async def test_a_rated_game_aborted_by_an_absent_player_is_their_no_show(database_url: str) -> None:
    clock = ManualClock(7_000_000.0)
    async with running_hall(database_url, clock) as hall:
        service = _service(hall)
        options = rated_options(Options.choose(preset="block"))
        plan = Plan("Rated block", "swiss", options, clock.now(), rounds=1, rated=True)
        tid = (await service.create(None, plan))["id"]
        await service.join(ANN, tid)
        await service.join(BOB, tid)
        await service.step(tid)
        [game] = (await service.get(tid))["games"]
        absent = await whose_turn(hall, game["table"], [ANN, BOB])
        await clock.advance(25.0)  # their first turn runs out: a ranked game is aborted
        await idle(hall)
        assert (await hall.room(game["table"])).state.result["reason"] == "aborted"
        await service.step(tid)
        over = await service.get(tid)
        rows = {r["entrant"]: r for r in over["standings"]}
        present = BOB if absent == ANN else ANN
        assert rows[absent.id]["withdrawn"] is True and rows[absent.id]["points"] == 0
        assert rows[present.id]["points"] == 2  # the win
        [played] = over["played"]
        places = dict(zip(played["entrants"], played["places"], strict=True))
        assert places == {absent.name: 2, present.name: 1}
