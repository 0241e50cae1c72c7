"""A hall on a hand-driven clock (over SQLite or PostgreSQL), and small moves for tests."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from dominohall.hall import Hall, HallError, ManualClock, Options, Person
from dominohall.hall.options import BotLevel
from dominohall.hall.views import state_for
from dominohall.hall.wiring import HallSettings, running
from dominohall.rules import DRAW, Move

ANN = Person("p_ann", "Ann")
BOB = Person("p_bob", "Bob")
CID = Person("p_cid", "Cid")
DEE = Person("p_dee", "Dee")
PEOPLE = [ANN, BOB, CID, DEE]


@contextlib.asynccontextmanager
async def running_hall(
    database: str | Path, clock: ManualClock | None = None, seed: int = 1
) -> AsyncIterator[Hall]:
    """A hall on ``database``: a URL (the `database_url` fixture's), or a folder for SQLite."""
    url = database if isinstance(database, str) else f"sqlite+aiosqlite:///{database / 'hall.db'}"
    settings = HallSettings(
        url, clock=clock or ManualClock(), bot_delay=0, rng=random.Random(seed), heartbeat=False
    )
    async with running(settings) as opened:
        yield opened.hall


async def idle(hall: Hall) -> None:
    """Wait until no computer player is about to move."""
    while True:
        tasks = [r.bot_task for r in hall.rooms if r.bot_task and not r.bot_task.done()]
        if not tasks:
            return
        await asyncio.gather(*tasks, return_exceptions=True)


async def started_table(
    hall: Hall, people: list[Person], bots: list[str | None] | None = None, **options: Any
) -> str:
    """A started table: ``people`` in seats 0.., computer players after them."""
    bots = bots or []
    seats = len(people) + len(bots)
    levels = [None] * len(people) + [BotLevel(b) if b else None for b in bots]
    state = await hall.create_table(people[0], Options.choose(seats=seats, **options), levels)
    for person in people[1:]:
        await hall.join(person, state.id, None)
    await hall.start_game(people[0], state.id)
    for person in people:
        await hall.connect(state.id, person)
    await idle(hall)
    return state.id


async def view(hall: Hall, table_id: str, person: Person | None) -> dict[str, Any]:
    room = await hall.room(table_id)
    seat = room.state.seat_of(person.id) if person else None
    return state_for(
        room.state,
        seat,
        player=person.id if person else None,
        name=person.name if person else None,
        connected=room.connected(),
        now=hall.clock.now(),
        ratings=room.ratings,
    )


async def whose_turn(hall: Hall, table_id: str, people: list[Person]) -> Person:
    room = await hall.room(table_id)
    turn = room.state.turn
    assert turn is not None, "no hand is being played"
    return next(p for p in people if room.state.seat_of(p.id) == turn)


def first_move(seen: dict[str, Any]) -> Move:
    """The first legal move of a seat's view (a lead, a play, a draw or a pass)."""
    moves = seen["hand"]["moves"]
    if moves["lead"]:
        return Move.lead(moves["lead"][0])
    if moves["play"]:
        first = moves["play"][0]
        return Move.play(first["tile"], first["arms"][0])
    return DRAW if moves["draw"] else Move.pass_()


async def play_first(hall: Hall, table_id: str, person: Person) -> int:
    """Make the first legal move shown to ``person`` (drawing until something fits)."""
    move = first_move(await view(hall, table_id, person))
    version = await hall.play(person, table_id, move, until_fits=move == DRAW)
    await idle(hall)
    return version


def early_once(by: float = 0.001) -> Callable[[float], float]:
    """A ManualClock wake-up that comes ``by`` seconds early the first time a moment is asked for
    (as uvloop wakes ``call_later`` callbacks up to a millisecond early), on time when asked again."""
    asked: set[float] = set()

    def wake(when: float) -> float:
        if when in asked:
            return when
        asked.add(when)
        return when - by

    return wake


def jittered(seed: int, by: float = 0.001) -> Callable[[float], float]:
    """A ManualClock wake-up anywhere from ``by`` seconds early to ``by`` seconds late."""
    rng = random.Random(seed)
    return lambda when: when + rng.uniform(-by, by)


async def refused(code: str, call: Awaitable[object]) -> HallError:
    """The refusal ``call`` ends in, checked to have ``code``."""
    with pytest.raises(HallError) as caught:
        await call
    assert caught.value.code == code, caught.value
    return caught.value
