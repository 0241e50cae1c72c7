"""How long ``dominohall serve`` takes to be ready after a restart with many live turn-based
tables, the memory each idle one takes, and what the first command at a table still asleep
costs (issue 23; docs/scaling.md).

It plays a few template games in a hall (turn-based Draw to 100 of two people, a few moves each),
copies their logs into N tables directly in a SQLite file (each copy with players of its own),
with the note the hall wrote for each template's table to sleep on (``hall/dormancy.py``;
``--eager``: without, so that every table is read from its log at start, as before the notes),
then starts ``serve`` on that file twice (the second start is a restart after a clean stop) and
once on an empty one, timing each from the process's start to its first ``/healthz`` answer (the
hall answers once it is ready to serve) and reading its resident memory then; at the restart,
it asks ``GET /api/tables/ID`` of a few tables still asleep (each read from its log then).
Last, in this process, a hall on the same file times a move at each of a few tables asleep (the
table loaded, resumed and the move committed).

With ``--database-url`` (a PostgreSQL server), the same hall is then copied into a database of
the run's own (``dominohall copy-database``, timed) and started on it twice the same way (one
process, no Redis); the database is dropped after.

    .venv/bin/python bench/turn_based_start.py --tables 100000
    .venv/bin/python bench/turn_based_start.py --tables 100000 \
        --database-url postgresql+asyncpg://postgres@127.0.0.1:5432/postgres
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from dominohall.cli.bench.ports import free_port
from dominohall.hall import Options, Person, TableState
from dominohall.hall.views import state_for
from dominohall.hall.wiring import HallSettings, open_hall
from dominohall.rules import DRAW, Move

CLI = Path(sys.executable).with_name("dominohall")
LOBBY_WAIT = 30.0  # seconds after ready before the memory is read again
TEMPLATES = 8
TEMPLATE_PEOPLE = ("p_tpl_ann", "p_tpl_bob")


async def templates(database: Path, moves: int) -> None:
    """``TEMPLATES`` turn-based games, each ``moves`` moves in, by the same two people."""
    settings = HallSettings(
        f"sqlite+aiosqlite:///{database}", bot_delay=0, rng=random.Random(1), heartbeat=False
    )
    opened = await open_hall(settings)
    hall = opened.hall
    ann, bob = Person(TEMPLATE_PEOPLE[0], "Ann"), Person(TEMPLATE_PEOPLE[1], "Bob")
    for _ in range(TEMPLATES):
        state = await hall.create_table(ann, Options.choose("draw", 100, timer="day"))
        await hall.join(bob, state.id, None)
        await hall.start_game(ann, state.id)
        for _ in range(moves):
            state = (await hall.room(state.id)).state
            if state.turn is None:
                break
            mover = ann if state.seat_of(ann.id) == state.turn else bob
            view = state_for(state, state.turn, player=None, name=None, connected=set(), now=0.0)
            offered = view["hand"]["moves"]
            if offered["lead"]:
                move: Move = Move.lead(offered["lead"][0])
            elif offered["play"]:
                move = Move.play(offered["play"][0]["tile"], offered["play"][0]["arms"][0])
            else:
                move = DRAW if offered["draw"] else Move.pass_()
            await hall.play(mover, state.id, move, until_fits=move == DRAW)
    await opened.close()


def own(text: str, ann: str, bob: str) -> str:
    """A template's text with its two people replaced by a copy's."""
    return text.replace(TEMPLATE_PEOPLE[0], ann).replace(TEMPLATE_PEOPLE[1], bob)


def copy_tables(database: Path, tables: int, notes: bool) -> None:
    """``tables`` live tables copied from the templates, each with two players of its own (and
    each template's note to sleep on, with ``notes``)."""
    db = sqlite3.connect(database)
    try:
        ids = [row[0] for row in db.execute("SELECT id FROM tables")]
        wakes = {
            row[0]: row[1:]
            for row in db.execute(
                "SELECT table_id, version, wake_at, players, lobby, listing, owed FROM table_wakes"
            )
        }
        logs = {
            table: db.execute(
                "SELECT version, at, body FROM events WHERE table_id = ? ORDER BY version",
                (table,),
            ).fetchall()
            for table in ids
        }
        now = time.time()
        players, seats, rows, made, noted = [], [], [], [], []
        for n in range(tables):
            template = ids[n % len(ids)]
            table = f"t{n:07d}"
            ann, bob = f"p{n:07d}a", f"p{n:07d}b"
            made.append((table, now))
            players += [(ann, "Ann", now), (bob, "Bob", now)]
            seats += [(ann, table), (bob, table)]
            for version, at, body in logs[template]:
                rows.append((table, version, at, own(body, ann, bob)))
            if notes and template in wakes:
                version, wake_at, people, lobby, listing, owed = wakes[template]
                if lobby is not None:
                    lobby = own(lobby, ann, bob).replace(template, table)
                listing = own(listing, ann, bob).replace(template, table)
                people = own(people, ann, bob)
                noted.append((table, version, wake_at, people, lobby, listing, owed))
        with db:
            db.executemany("INSERT INTO tables (id, created_at) VALUES (?, ?)", made)
            db.executemany("INSERT INTO players (id, name, created_at) VALUES (?, ?, ?)", players)
            db.executemany("INSERT INTO seats (player_id, table_id) VALUES (?, ?)", seats)
            db.executemany(
                "INSERT INTO events (table_id, version, at, body) VALUES (?, ?, ?, ?)", rows
            )
            db.executemany(
                "INSERT INTO table_wakes "
                "(table_id, version, wake_at, players, lobby, listing, owed) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                noted,
            )
            # The templates are left out: only the copies are measured.
            for table in ids:
                db.execute("DELETE FROM events WHERE table_id = ?", (table,))
                db.execute("DELETE FROM seats WHERE table_id = ?", (table,))
                db.execute("DELETE FROM tables WHERE id = ?", (table,))
                db.execute("DELETE FROM table_wakes WHERE table_id = ?", (table,))
        print(
            f"{tables} tables made, {len(rows)} events ({len(rows) / tables:.1f} a table), "
            f"{len(noted)} with a note to sleep on"
        )
    finally:
        db.close()


def resident_mib(pid: int) -> float:
    pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    import os

    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) the process has used so far: what its start cost, less
    the time it waited for the cores (the machine is shared)."""
    import os

    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start(
    data: Path, label: str, cold: list[str] | None = None, database_url: str | None = None
) -> tuple[float, float]:
    """``serve`` on ``data`` (or ``database_url``): seconds to its first /healthz answer, and
    its memory then (MiB), and again once the lobby's board has the tables asleep; then each
    ``cold`` table asked for over HTTP, timed; then stopped cleanly."""
    port = free_port()
    command = [str(CLI), "serve", "--host", "127.0.0.1", "--port", str(port), "--data", str(data)]
    if database_url is not None:
        command += ["--database-url", database_url]
    command += ["--log-level", "warning"]
    began = time.monotonic()
    log = data / f"serve-{label.replace(' ', '-').replace(',', '')}.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        while True:
            if process.poll() is not None:
                tail = log.read_text(errors="replace").splitlines()[-30:]
                raise SystemExit(f"serve exited ({label}):\n" + "\n".join(tail))
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        ready = time.monotonic() - began
        memory = resident_mib(process.pid)
        print(f"{label}: {cpu_seconds(process.pid):.1f} s of CPU until ready")
        time.sleep(LOBBY_WAIT)  # the lobby entries of the tables asleep go on its board now
        print(f"{label}: {resident_mib(process.pid):.0f} MiB resident {LOBBY_WAIT:.0f} s later")
        looks = []
        for table in cold or []:
            asked = time.monotonic()
            answer = httpx.get(f"http://127.0.0.1:{port}/api/tables/{table}", timeout=60)
            assert answer.status_code == 200, answer.text
            looks.append(1000 * (time.monotonic() - asked))
        if looks:
            print(f"{label}: GET /api/tables/ID of a table asleep: {spread(looks)}")
    finally:
        process.terminate()
        stopping = time.monotonic()
        process.wait(600)
    errors = sum(line.startswith(b"ERROR") for line in log.read_bytes().splitlines())
    print(
        f"{label}: ready after {ready:.1f} s, {memory:.0f} MiB resident "
        f"(stopped in {time.monotonic() - stopping:.1f} s; {errors} errors logged)"
    )
    return ready, memory


def spread(ms: list[float]) -> str:
    ordered = sorted(ms)
    return f"p50 {ordered[len(ordered) // 2]:.1f} ms, max {ordered[-1]:.1f} ms ({len(ms)} tables)"


async def first_moves(database: Path, tables: list[str]) -> None:
    """In this process: a hall on ``database`` started (timed), then a move at each of
    ``tables`` (asleep) timed from the call to its commit; the move chosen beforehand from the
    table's log, so that only the hall's own work is timed."""
    settings = HallSettings(f"sqlite+aiosqlite:///{database}", bot_delay=0, heartbeat=False)
    began = time.monotonic()
    opened = await open_hall(settings)
    print(f"in process: hall started in {time.monotonic() - began:.1f} s")
    hall = opened.hall
    took = []
    try:
        for table in tables:
            assert hall.rooms.is_asleep(table), f"{table} is not asleep"
            state = TableState.replay(table, await hall.store.events(table))
            assert state.turn is not None
            player = state.seats[state.turn].player
            assert player is not None
            mover = Person(player, "Someone")
            view = state_for(state, state.turn, player=None, name=None, connected=set(), now=0.0)
            offered = view["hand"]["moves"]
            if offered["play"]:
                move: Move = Move.play(offered["play"][0]["tile"], offered["play"][0]["arms"][0])
            else:
                move = DRAW if offered["draw"] else Move.pass_()
            asked = time.monotonic()
            await hall.play(mover, table, move, until_fits=move == DRAW)
            took.append(1000 * (time.monotonic() - asked))
    finally:
        await opened.close()
    print(f"in process: a move at a table asleep (loaded, resumed, committed): {spread(took)}")


def on_postgresql(full: Path, tables: int, server: str, cold: list[str]) -> None:
    """The hall in ``full`` copied into a database of its own on ``server``, started twice."""
    from dominohall.cli.bench.parts import PostgresDatabase

    database = PostgresDatabase(server)
    asyncio.run(database.create(migrated=False))
    try:
        began = time.monotonic()
        source = f"sqlite+aiosqlite:///{full / 'dominohall.db'}"
        copy = [str(CLI), "copy-database", "--from", source, "--to", database.url]
        subprocess.run(copy, check=True, stdout=subprocess.DEVNULL)
        print(f"PostgreSQL: copied in {time.monotonic() - began:.0f} s")
        start(full, f"PostgreSQL, {tables} tables, first start", database_url=database.url)
        start(full, f"PostgreSQL, {tables} tables, restart", cold, database_url=database.url)
    finally:
        asyncio.run(database.drop())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100_000)
    parser.add_argument("--moves", type=int, default=6)
    parser.add_argument("--cold", type=int, default=20, help="tables asleep asked for, timed")
    parser.add_argument(
        "--eager", action="store_true", help="no notes: every table read from its log at start"
    )
    parser.add_argument("--database-url", help="a PostgreSQL server to start the hall on too")
    args = parser.parse_args()
    rng = random.Random(7)
    picked = rng.sample(range(args.tables), min(args.cold * 2, args.tables))
    looked = [f"t{n:07d}" for n in picked[: args.cold]]
    moved = [f"t{n:07d}" for n in picked[args.cold :]]
    with tempfile.TemporaryDirectory(prefix="dominohall-turn-based-") as folder:
        empty, full = Path(folder) / "empty", Path(folder) / "full"
        empty.mkdir()
        full.mkdir()
        _, base = start(empty, "no tables")
        asyncio.run(templates(full / "dominohall.db", args.moves))
        copy_tables(full / "dominohall.db", args.tables, notes=not args.eager)
        first, memory = start(full, f"{args.tables} tables, first start")
        again, memory_again = start(full, f"{args.tables} tables, restart", looked)
        per_table = (memory_again - base) * 1024 / args.tables
        print(f"memory a live idle table: {per_table:.2f} KiB (resident, less the empty hall's)")
        if args.database_url is not None:
            on_postgresql(full, args.tables, args.database_url, looked)
        if not args.eager:
            asyncio.run(first_moves(full / "dominohall.db", moved))


if __name__ == "__main__":
    main()
