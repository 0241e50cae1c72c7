"""Moderation on two processes (PostgreSQL + Redis): an action written by the command line (a
store of its own, no hall) reaches both halls through the moderation log each follows: a ban
hands the account's table over through its owner, once, whichever process's follower reads it
first; a time-out is heard by both; a rename shows at the table through its owner, once. And
the delay, measured: each hall's follower, left to its own rounds (every second), hears an
action within 5 s (the goal), reported by the test."""

from __future__ import annotations

import asyncio
import time

import pytest

from dominohall.hall import ManualClock
from dominohall.hall.clock import SystemClock
from dominohall.hall.moderating import Action, Moderating
from dominohall.store import Store
from dominohall.store.store import StoredPlayer

from .helpers import ANN, BOB
from .test_owners import open_tables, two_halls

pytestmark = [pytest.mark.anyio, pytest.mark.postgresql]


async def test_a_ban_and_a_time_out_reach_both_processes(
    postgres_database: str, redis_prefix: str
) -> None:
    clock = ManualClock()
    command_line = await Store.open(postgres_database)  # as `dominohall mod` opens it
    try:
        for person in (ANN, BOB):
            await command_line.add_player(StoredPlayer(person.id, person.name, None, None))
        await command_line.add_player(StoredPlayer("p_op", "Olga", "olga", "hash"))
        mod = Moderating(command_line, SystemClock())
        op = await mod.add_operator("olga")
        async with two_halls(postgres_database, redis_prefix, clock) as (a, b):
            [table_id] = await open_tables(a, 1)
            heard: dict[str, list[tuple[Action, float]]] = {"a": [], "b": []}
            for name, hall in (("a", a), ("b", b)):

                async def hear(action: Action, name: str = name) -> None:
                    heard[name].append((action, time.time()))

                hall.follower.listen(hear)

            # A time-out: both processes hear it, each on its own rounds; the delay measured.
            written = time.time()
            await mod.time_out(BOB.id, 15, op.id, "spam")
            async with asyncio.timeout(5):  # the goal: under 5 s
                while not (heard["a"] and heard["b"]):
                    await asyncio.sleep(0.05)
            delays = [heard[n][0][1] - written for n in ("a", "b")]
            print(f"time-out heard after {delays[0]:.2f} s (a) and {delays[1]:.2f} s (b)")
            assert [heard[n][0][0].action for n in ("a", "b")] == ["time_out", "time_out"]

            # A rename: B's follower asks the table's owner; the seat shows the new name at
            # once, in the table's log (so on both); A's follower then finds nothing to change.
            version = (await a.hall.owner.table(table_id)).version
            await mod.rename(BOB.id, "Player 7", op.id, "offensive")
            await b.follower.catch_up()
            for hall in (a, b):
                state = await hall.hall.owner.table(table_id)
                assert (state.seats[1].name, state.version) == ("Player 7", version + 1)
            await a.follower.catch_up()
            assert (await a.hall.owner.table(table_id)).version == version + 1

            # A ban: B's follower reads it first (made to, for the order), and hands Ann's
            # table over through its owner, A; A's follower finds the seat already out.
            await mod.ban(ANN.id, op.id, "abuse")
            await b.follower.catch_up()
            state = await b.hall.owner.table(table_id)
            assert state.seats[0].out is not None and state.seats[1].out is None
            await a.follower.catch_up()
            assert (await a.hall.owner.table(table_id)).seats[0].out == state.seats[0].out
            assert [x.action for x, _ in heard["a"]] == ["time_out", "rename", "ban"]
            assert [x.action for x, _ in heard["b"]] == ["time_out", "rename", "ban"]

    finally:
        await command_line.close()
