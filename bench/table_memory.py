"""The memory a live table takes in the process that holds it: turn-based games of two people
(Draw to 100, a move a day), each a few moves in, held in one hall on a SQLite file. Prints the
process's resident memory before and after, and what that is a table (docs/scaling.md).

    .venv/bin/python bench/table_memory.py --tables 2000 --moves 6
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import tempfile
from pathlib import Path

from dominohall.hall import ManualClock, Options, Person
from dominohall.hall.views import state_for
from dominohall.hall.wiring import HallSettings, open_hall
from dominohall.rules import DRAW, Move

PAGE = os.sysconf("SC_PAGE_SIZE")


def resident_bytes() -> int:
    gc.collect()
    return int(Path("/proc/self/statm").read_text().split()[1]) * PAGE


def first_move(moves: dict) -> tuple[Move, bool]:  # type: ignore[type-arg]
    if moves["lead"]:
        return Move.lead(moves["lead"][0]), False
    if moves["play"]:
        return Move.play(moves["play"][0]["tile"], moves["play"][0]["arms"][0]), False
    if moves["draw"]:
        return DRAW, True
    return Move.pass_(), False


async def run(tables: int, moves: int, folder: Path) -> None:
    settings = HallSettings(
        f"sqlite+aiosqlite:///{folder / 'hall.db'}",
        clock=ManualClock(),
        bot_delay=0,
        rng=random.Random(1),
        heartbeat=False,
    )
    opened = await open_hall(settings)
    hall = opened.hall
    before = resident_bytes()
    for t in range(tables):
        ann, bob = Person(f"p{t}a", "Ann"), Person(f"p{t}b", "Bob")
        state = await hall.create_table(ann, Options.choose("draw", 100, timer="day"))
        await hall.join(bob, state.id, None)
        await hall.start_game(ann, state.id)
        for _ in range(moves):
            state = (await hall.room(state.id)).state
            if state.turn is None:
                break
            mover = ann if state.seat_of(ann.id) == state.turn else bob
            view = state_for(state, state.turn, player=None, name=None, connected=set(), now=0.0)
            move, until_fits = first_move(view["hand"]["moves"])
            await hall.play(mover, state.id, move, until_fits=until_fits)
    after = resident_bytes()
    held = len(list(hall.rooms))
    print(f"{held} live turn-based tables held, {moves} moves each")
    print(f"resident memory: {before / 2**20:.1f} MiB before, {after / 2**20:.1f} MiB after")
    print(f"{(after - before) / held / 1024:.1f} KiB a table")
    await opened.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--moves", type=int, default=6)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(args.tables, args.moves, Path(folder)))


if __name__ == "__main__":
    main()
