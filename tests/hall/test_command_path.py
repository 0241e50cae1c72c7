"""The table's owner (``hall/command_path.py``): every change of a table goes through it. Outside
the owner no module of ``hall`` takes a table's lock or commits its events (a check of the
sources); the owner opens tables, runs a command sent by id, settles a table on request, runs
what follows a change under its own hold, and looks at ``unless`` once the lock is held."""

from __future__ import annotations

import ast
import asyncio
import random
from pathlib import Path

import pytest

from dominohall.hall import HallError, Options, Phase
from dominohall.hall import commands as c
from dominohall.hall.command_path import CommandPath, Run
from dominohall.hall.events import Created, Event, Resumed, SeatAtStart, SeatKind
from dominohall.hall.rooms import Room, Rooms

from .helpers import ANN, BOB, CID, running_hall
from .test_after_game import finished_game

pytestmark = pytest.mark.anyio

HALL = Path(__file__).parents[2] / "src" / "dominohall" / "hall"
OWNER = {"command_path.py"}  # the owner itself: the one place that holds a table's lock
# The owner's parts that fire only where the table is held: its own way in, and nothing else.
OWNER_PARTS = {"timers.py", "computer.py"}
COMMITTING = {"run", "commit", "_run", "_commit", "_follow"}


def trespasses(path: Path) -> list[str]:
    """What ``path`` does that only the table's owner may: take a table's lock, run or commit a
    command on the path directly, or use the owner's own way in (its parts only)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        where = f"{path.name}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Attribute) and node.attr == "lock":
            found.append(f"{where} takes a table's lock")
        if isinstance(node, ast.Attribute):  # called or handed on (``run=self.path.run``)
            target = node.value
            called_on = target.attr if isinstance(target, ast.Attribute) else ""
            called_on = target.id if isinstance(target, ast.Name) else called_on
            if node.attr in COMMITTING and called_on in {"path", "owner"}:
                found.append(f"{where} uses {called_on}.{node.attr}")
            if node.attr == "run_owned" and path.name not in OWNER_PARTS:
                found.append(f"{where} uses the owner's own way in")
    return found


def test_no_module_but_the_owner_takes_a_lock_or_commits():
    modules = [p for p in sorted(HALL.glob("*.py")) if p.name not in OWNER]
    assert len(modules) > 30
    assert [t for p in modules for t in trespasses(p)] == []


def test_the_check_finds_a_lock_and_a_direct_run(tmp_path: Path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        "async def f(room, path, owner):\n"
        "    async with room.lock:\n"
        "        await path.run(room, 1)\n"
        "        await self.path.commit(room, [])\n"
        "        await owner.run_owned(room, 1)\n"
        "    Timers(run=path.run)\n"
    )
    assert sorted(trespasses(bad)) == [
        "bad.py:2 takes a table's lock",
        "bad.py:3 uses path.run",
        "bad.py:4 uses path.commit",
        "bad.py:5 uses the owner's own way in",
        "bad.py:6 uses path.run",
    ]


def two_seats() -> c.Open:
    seats = (SeatAtStart(SeatKind.HUMAN, ANN.id, ANN.name), SeatAtStart(SeatKind.EMPTY))
    return c.Open(Options.choose(seats=2), seats)


class Followed:
    """An owner's ``after_commit`` that notes each call, with the lock's state then."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, list[Event], bool]] = []
        self.then: list[c.Command] = []  # commands to run under the owner's hold, once each

    async def __call__(self, room: Room, events: list[Event], run: Run) -> None:
        self.calls.append((room.id, events, room.lock.locked()))
        while self.then:
            await run(self.then.pop(0))


async def owner_of(hall) -> tuple[CommandPath, Followed]:
    followed = Followed()
    path = CommandPath(
        hall.store,
        Rooms(hall.store),
        clock=hall.clock,
        broker=hall.broker,
        rng=random.Random(1),
        after_commit=followed,
    )
    return path, followed


async def test_a_table_is_opened_and_changed_by_its_id_and_followed_under_its_lock(
    database_url: str,
):
    async with running_hall(database_url) as hall:
        path, followed = await owner_of(hall)
        state = await path.open("t_owner1", two_seats())
        assert state.version == 1 and state.phase is Phase.SEATING
        assert [(t, [type(e) for e in events], locked) for t, events, locked in followed.calls] == [
            ("t_owner1", [Created], True)
        ]
        assert await path.table("t_owner1") is state
        after = await path.send("t_owner1", c.Join(BOB.id, BOB.name))
        assert after is state and state.seat_of(BOB.id) == 1 and state.version == 2
        assert len(await hall.store.events("t_owner1")) == 2
        with pytest.raises(HallError, match="taken"):
            await path.send("t_owner1", c.Join(CID.id, CID.name, 1))
        with pytest.raises(HallError) as refused:
            await path.send("t_nowhere", c.Join(BOB.id, BOB.name))
        assert refused.value.code == "no_table"


async def test_settle_follows_a_command_that_changed_nothing(database_url: str):
    async with running_hall(database_url) as hall:
        path, followed = await owner_of(hall)
        await path.open("t_owner2", two_seats())
        followed.calls.clear()
        committed: list[int] = []
        await path.send("t_owner2", c.Resume(0.0), committed.append)  # nothing to give back
        assert followed.calls == [] and committed == [1]
        await path.send("t_owner2", c.Resume(0.0), settle=True)
        assert followed.calls == [("t_owner2", [], True)]


async def test_what_follows_runs_the_commands_owed_under_the_same_hold(database_url: str):
    async with running_hall(database_url) as hall:
        path, followed = await owner_of(hall)
        state = await path.open("t_owner3", two_seats())
        followed.calls.clear()
        followed.then = [c.Join(BOB.id, BOB.name)]  # owed: run under the owner's hold
        await path.send("t_owner3", c.Resume(0.0), settle=True)
    assert state.seat_of(BOB.id) == 1
    assert [(len(events), locked) for _, events, locked in followed.calls] == [(0, True), (1, True)]


async def test_run_owned_looks_at_unless_once_it_holds_the_lock_and_returns_the_events(
    database_url: str,
):
    async with running_hall(database_url) as hall:
        path, _ = await owner_of(hall)
        await path.open("t_owner4", two_seats())
        room = path.rooms.get("t_owner4")
        assert room is not None
        back = False
        await room.lock.acquire()  # the table is busy when the command comes
        waiting = asyncio.create_task(path.run_owned(room, c.GraceOver(0), unless=lambda r: back))
        await asyncio.sleep(0)
        back = True  # the person came back meanwhile
        room.lock.release()
        assert await waiting == []
        assert room.state.seat_of(ANN.id) == 0 and room.state.version == 1
        # A running clock is given back a downtime: the events committed are returned.
        await path.send("t_owner4", c.Join(BOB.id, BOB.name))
        await path.send("t_owner4", c.Start(ANN.id))
        events = await path.run_owned(room, c.Resume(5.0))
        assert events == [Resumed(5.0)]


async def test_a_refused_answer_leaves_a_finished_table_out_of_memory(database_url: str):
    async with running_hall(database_url) as hall:
        table, _ = await finished_game(hall, [ANN, BOB], [])
        hall.rooms.let_go(await hall.room(table))  # nobody looks at it any more
        with pytest.raises(HallError, match="only the people seated"):
            await hall.path.send(table, c.AnswerRematch(CID.id, True, "t_new"))
        assert hall.rooms.get(table) is None
        state = await hall.path.send(table, c.AnswerRematch(ANN.id, True, "t_new"))
        assert hall.rooms.get(table) is not None and state.rematch_accepted == {0}
        assert state.rematch_table is None and hall.rooms.get("t_new") is None
