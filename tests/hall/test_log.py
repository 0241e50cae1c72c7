"""The event log: racing moves, one winner; the table replayed from the log is the table."""

from __future__ import annotations

import asyncio
import random

import pytest

from dominohall.hall import HallError, ManualClock, TableState, commands
from dominohall.hall.event_view import shown_all
from dominohall.hall.views import state_for
from dominohall.hall.wiring import HallSettings, running
from dominohall.rules import Move
from dominohall.store import Conflict, Store

from .helpers import ANN, BOB, play_first, running_hall, started_table, view, whose_turn
from .test_table import table_snapshot

pytestmark = pytest.mark.anyio


async def test_of_two_racing_moves_exactly_one_lands(database_url: str):
    async with running_hall(database_url) as hall:
        table = await started_table(hall, [ANN, BOB])
        mover = await whose_turn(hall, table, [ANN, BOB])
        tile = (await view(hall, table, mover))["hand"]["moves"]["lead"][0]
        version = (await hall.room(table)).state.version
        results = await asyncio.gather(
            hall.play(mover, table, Move.lead(tile)),
            hall.play(mover, table, Move.lead(tile)),
            return_exceptions=True,
        )
        assert sorted(type(r).__name__ for r in results) == ["HallError", "int"]
        assert [r.code for r in results if isinstance(r, HallError)] == ["not_your_turn"]
        events = await hall.store.events(table)
        assert [e for _, _, e in events if e["kind"] == "move"] != []
        assert len(events) == version + 1


async def test_a_move_against_an_old_version_is_stale(database_url: str):
    async with running_hall(database_url) as hall:
        table = await started_table(hall, [ANN, BOB])
        mover = await whose_turn(hall, table, [ANN, BOB])
        tile = (await view(hall, table, mover))["hand"]["moves"]["lead"][0]
        version = (await hall.room(table)).state.version
        with pytest.raises(HallError) as refused:
            await hall.play(mover, table, Move.lead(tile), version=version - 1)
        assert refused.value.code == "stale"
        assert await hall.play(mover, table, Move.lead(tile), version=version) == version + 1


async def test_two_halls_on_one_log_cannot_both_write_a_version(database_url: str):
    async with running_hall(database_url) as first:
        table = await started_table(first, [ANN, BOB])
        mover = await whose_turn(first, table, [ANN, BOB])
        tile = (await view(first, table, mover))["hand"]["moves"]["lead"][0]
        settings = HallSettings(database_url, clock=ManualClock(), bot_delay=0, heartbeat=False)
        async with running(settings) as opened:
            second = opened.hall
            await first.play(mover, table, Move.lead(tile))
            with pytest.raises(HallError) as refused:
                await second.play(mover, table, Move.lead(tile))
            assert refused.value.code == "stale"
            # The second hall took the log as it is, and now agrees with the first.
            assert (await second.room(table)).state.version == (
                await first.room(table)
            ).state.version


async def test_the_store_refuses_a_version_twice(database_url: str):
    store = await Store.open(database_url)
    try:
        await store.add_table("t", 0.0)
        await store.append("t", 1, [{"kind": "a"}, {"kind": "b"}], 0.0)
        with pytest.raises(Conflict):
            await store.append("t", 2, [{"kind": "c"}], 0.0)
        assert [body for _, _, body in await store.events("t")] == [{"kind": "a"}, {"kind": "b"}]
    finally:
        await store.close()


async def test_a_table_replayed_from_its_log_shows_every_seat_the_same(database_url: str):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table = await started_table(hall, [ANN, BOB], preset="all-fives")
        rng = random.Random(5)
        for _ in range(rng.randrange(10, 30)):
            room = await hall.room(table)
            if room.state.turn is None:
                break
            await play_first(hall, table, await whose_turn(hall, table, [ANN, BOB]))
        live = room.state
        replayed = TableState.replay(table, await hall.store.events(table))
        for seat in (0, 1, None):
            kw = {"player": None, "name": None, "connected": set(), "now": clock.now()}
            assert state_for(replayed, seat, **kw) == state_for(live, seat, **kw)


@pytest.mark.parametrize(("preset", "counts"), [("draw", False), ("all-fives", True)])
async def test_a_play_scores_its_count_and_going_out_scores_the_bonus_once(
    database_url: str, preset, counts
):
    """Each move's `scored` is the play's count alone; the hand's bonus is in `hand_over` only,
    so that the log adds up to the hand's points (it once counted going out twice)."""
    async with running_hall(database_url, seed=5) as hall:
        table = await started_table(hall, [ANN, BOB], preset=preset, target=200)
        state = (await hall.room(table)).state
        hands = 0
        while hands < 3 and state.result is None:
            if state.hand is not None and state.hand.over:
                log = shown_all(state, state.log)
                result = log[-1]["result"]
                for seat in (0, 1):
                    plays = [e["scored"] for e in log if e["kind"] == "move" and e["seat"] == seat]
                    if not counts:
                        assert set(plays) <= {0}
                    bonus = result["bonus"] if result["winner"] == seat else 0
                    assert sum(plays) + bonus == result["points"][seat]
                hands += 1
                for person in (ANN, BOB):
                    await hall.next_hand(person, table)
                continue
            await play_first(hall, table, await whose_turn(hall, table, [ANN, BOB]))
        assert hands == 3


async def test_a_move_whose_caller_is_cancelled_mid_write_is_kept_as_the_log_keeps_it(tmp_path):
    """A caller cancelled (a shutdown) while its move is being written: the store's writer goes
    on and commits it, so the table in memory takes it too; else the next move would find the
    log ahead of the table, be refused as stale, and see the table jump a version."""
    async with running_hall(tmp_path) as hall:
        table = await started_table(hall, [ANN, BOB])
        room = await hall.room(table)
        mover = await whose_turn(hall, table, [ANN, BOB])
        tile = (await view(hall, table, mover))["hand"]["moves"]["lead"][0]
        version = room.state.version
        real = hall.store.start_append
        writing, release, landed = asyncio.Event(), asyncio.Event(), []

        async def written_later(*args, **kwargs):
            await release.wait()
            await real(*args, **kwargs)

        def start_append(*args, **kwargs):  # as the writer thread does: whoever waits or not
            writing.set()
            landed.append(asyncio.ensure_future(written_later(*args, **kwargs)))
            return landed[-1]

        hall.store.start_append = start_append
        playing = asyncio.create_task(hall.play(mover, table, Move.lead(tile)))
        await writing.wait()
        playing.cancel()
        await asyncio.sleep(0)
        release.set()
        with pytest.raises(asyncio.CancelledError):
            await playing
        await landed[0]
        hall.store.start_append = real
        assert [v for v, _, _ in await hall.store.events(table)][-1] == version + 1
        assert room.state.version == version + 1
        await play_first(hall, table, await whose_turn(hall, table, [ANN, BOB]))  # not stale
        assert room.state.version > version + 1


async def test_a_refused_command_writes_nothing_and_publishes_nothing(tmp_path):
    """Through the command path: a refusal leaves the log, the table and its channel alone."""
    async with running_hall(tmp_path) as hall:
        table = await started_table(hall, [ANN, BOB])
        room = await hall.room(table)
        mover = await whose_turn(hall, table, [ANN, BOB])
        waiting = BOB if mover is ANN else ANN
        tile = (await view(hall, table, mover))["hand"]["moves"]["lead"][0]
        wrong = "6-6" if tile != "6-6" else "0-0"
        refusals = [
            commands.MakeMove(waiting.id, Move.lead(tile)),  # not your turn
            commands.MakeMove(mover.id, Move.lead(wrong)),  # not the tile to lead
            commands.MakeMove(mover.id, Move.lead(tile), version=room.state.version - 1),
            commands.MakeMove("p_cid", Move.lead(tile)),  # a spectator
            commands.PressNextHand(mover.id),  # no hand is over
            commands.Join("p_cid", "Cid"),  # the game has started
            commands.Start(ANN.id),
            commands.Remove(ANN.id, 1),
        ]
        heard: list[object] = []
        hall.broker.subscribe(table, heard.append)
        logged = await hall.store.events(table)
        before = table_snapshot(room.state, hall.clock.now())
        for command in refusals:
            with pytest.raises(HallError):
                await hall.path.send(table, command)
        assert heard == [] and await hall.store.events(table) == logged
        assert table_snapshot(room.state, hall.clock.now()) == before
