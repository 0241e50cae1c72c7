"""The hall's own CPU per move, without sockets: games played through ``Hall.play`` on a SQLite
file, each move followed by what the socket layer builds for every seat after each change
(protocol 2: the seat's update, or its whole state at a hand's start). The figure is this process's CPU time (not wall time), so a machine loaded by other
work changes it less than it changes latencies.

    .venv/bin/python bench/hall_moves.py --tables 50 --moves 4000 [--json]

With ``--database-url postgresql+asyncpg://...`` (a database of the run's own on that server,
dropped after) and ``--redis-url``, the hall runs as one process of several would (leases,
fencing, the Redis broker). ``--together`` moves at once (each round's moves of that many
tables sent together, as moves of different tables arriving within a commit's time would be):
the store's group commit then shares a transaction between them. Each part's CPU per move is
reported too (``cli/bench/parts.py``: this process, PostgreSQL's processes, the Redis server).

Run it against another checkout with ``PYTHONPATH=that/src`` to compare two versions.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from dominohall.cli.bench.parts import (
    PartsCpu,
    PostgresDatabase,
    listening_pid,
    per_move,
    redis_port,
)
from dominohall.hall import ManualClock, Options, Person
from dominohall.hall.seat_view import public_events
from dominohall.hall.views import laid_count, state_for, timeouts_of, update_for
from dominohall.hall.wiring import HallSettings, open_hall
from dominohall.rules import DRAW, Move


def _first_move(moves: dict) -> tuple[Move, bool]:
    """The first move offered, and whether a draw keeps drawing until a tile fits."""
    if moves["lead"]:
        return Move.lead(moves["lead"][0]), False
    if moves["play"]:
        return Move.play(moves["play"][0]["tile"], moves["play"][0]["arms"][0]), False
    if moves["draw"]:
        return DRAW, True
    return Move.pass_(), False


async def run(
    tables: int,
    moves: int,
    folder: Path,
    database_url: str | None = None,
    redis_url: str | None = None,
    together: int = 1,
    database: PostgresDatabase | None = None,
) -> dict[str, Any]:
    clock = ManualClock()
    settings = HallSettings(
        database_url or f"sqlite+aiosqlite:///{folder / 'hall.db'}",
        clock=clock,
        bot_delay=0,
        rng=random.Random(1),
        heartbeat=False,
        redis_url=redis_url,
        redis_prefix=f"bench-moves:{random.getrandbits(40):x}:",
    )
    opened = await open_hall(settings)
    hall = opened.hall
    people = [(Person(f"p{t}a", "Ann"), Person(f"p{t}b", "Bob")) for t in range(tables)]
    ids = []
    for ann, bob in people:
        state = await hall.create_table(ann, Options.choose("draw", 200))
        await hall.join(bob, state.id, None)
        await hall.start_game(ann, state.id)
        for person in (ann, bob):
            await hall.connect(state.id, person)  # Next hand deals once everyone connected pressed
        ids.append(state.id)
    made = 0
    laids: dict[str, int] = {}  # tiles of each table's layout its sockets were sent
    redis_pid = None
    if redis_url is not None and (port := redis_port(redis_url)) is not None:
        redis_pid = listening_pid(port)
    parts = PartsCpu([os.getpid()], database, redis_pid)  # this process, PostgreSQL, Redis
    await parts.start()
    cpu = time.process_time()
    while made < moves:
        before = made
        pairs = list(zip(ids, people, strict=True))
        for start in range(0, len(pairs), together):
            made += sum(
                await asyncio.gather(
                    *(_move(hall, t, pair, laids) for t, pair in pairs[start : start + together])
                )
            )
        if made == before and all((await hall.room(t)).state.turn is None for t in ids):
            break  # every game is over
    cpu = time.process_time() - cpu
    used = await parts.stop()
    await opened.close()
    return {
        "moves": made,
        "cpu_seconds": round(cpu, 3),
        "cpu_ms_per_move": cpu / made * 1000,
        "parts_ms_per_move": per_move(used, made),
    }


async def _move(
    hall: Any, table_id: str, pair: tuple[Person, Person], laids: dict[str, int]
) -> int:
    """One move at a table (or its Next hand pressed), and every socket's message after it;
    how many moves were made (0 or 1)."""
    room = await hall.room(table_id)
    state = room.state
    if state.phase.value == "between_hands":
        for person in pair:
            await hall.next_hand(person, table_id)
        laids[table_id] = 0  # a new hand: its sockets get its whole state
        return 0
    if state.turn is None:
        return 0
    mover = next(p for p in pair if state.seat_of(p.id) == state.turn)
    view = state_for(state, state.turn, player=None, name=None, connected=set(), now=0.0)
    move, until_fits = _first_move(view["hand"]["moves"])
    before = state.version
    await hall.play(mover, table_id, move, until_fits=until_fits)
    for seat in range(len(state.seats)):  # every socket's message after the change
        new = [e for e in state.tail if e.version > before]
        events = public_events(state, new, seat)
        if any(e["kind"] == "dealt" for e in events):
            state_for(state, seat, player=None, name=None, connected=set(), now=0.0)
            continue
        update_for(
            state,
            seat,
            events,
            laid=laids.get(table_id, 0),
            timeouts=timeouts_of(state),
            player=None,
            name=None,
            connected=set(),
            now=0.0,
        )
    laids[table_id] = laid_count(state)
    return 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--moves", type=int, default=4000)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--redis-url", default=None)
    parser.add_argument("--together", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    database = None
    if args.database_url is not None and args.database_url.startswith("postgresql"):
        database = PostgresDatabase(args.database_url)
        asyncio.run(database.create())
    try:
        with tempfile.TemporaryDirectory(prefix="dominohall-moves-") as folder:
            url = database.url if database is not None else args.database_url
            result = asyncio.run(
                run(
                    args.tables,
                    args.moves,
                    Path(folder),
                    url,
                    args.redis_url,
                    args.together,
                    database,
                )
            )
    finally:
        if database is not None:
            asyncio.run(database.drop())
    if args.json:
        print(json.dumps(result))
    else:
        parts = ", ".join(f"{k} {v:.3f}" for k, v in result["parts_ms_per_move"].items())
        print(
            f"{result['moves']} moves: {result['cpu_ms_per_move']:.3f} ms of CPU per move "
            f"(by part, ms: {parts})"
        )


if __name__ == "__main__":
    main()
