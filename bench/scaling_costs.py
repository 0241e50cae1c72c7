"""What one move costs each part of a hall on several processes: the hall processes' CPU, Redis
commands and bytes, PostgreSQL transactions and rows (the figures of docs/scaling.md).

It plays whole games through ``dominohall bench chaos --kills 0`` (real ``serve`` processes
over PostgreSQL and Redis, people on WebSockets through any process) against a Redis server of
its own on a spare port, so that Redis's counters hold this run only, and reads PostgreSQL's
counters of the run's own database. It prints numbers; it passes or fails nothing.

    .venv/bin/python bench/scaling_costs.py --processes 2 --games 40
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]

from dominohall.cli.bench.parts import cpu_seconds
from dominohall.cli.bench.ports import free_port


class CpuWatch(threading.Thread):
    """The CPU time of every process whose command line names ``mark``, read until it ends."""

    def __init__(self, mark: str) -> None:
        super().__init__(daemon=True)
        self.mark = mark
        self.seen: dict[int, float] = {}
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.2):
            for entry in Path("/proc").iterdir():
                if not entry.name.isdigit():
                    continue
                try:
                    command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                except OSError:
                    continue
                if "serve" in command and self.mark in command:
                    used = cpu_seconds(int(entry.name))
                    if used is not None:
                        self.seen[int(entry.name)] = used


def redis_info(port: int, section: str) -> str:
    return subprocess.run(
        ["redis-cli", "-p", str(port), "INFO", section], capture_output=True, text=True, check=True
    ).stdout


async def postgres_counts(database: str) -> dict[str, int]:
    conn = await asyncpg.connect(user="postgres", host="127.0.0.1", database=database)
    try:
        events = await conn.fetchval("SELECT count(*) FROM events")
        moves = await conn.fetchval(
            "SELECT count(*) FROM events WHERE body::json->>'kind' = 'move'"
        )
        tables = await conn.fetchval("SELECT count(*) FROM tables")
        await conn.execute("SELECT pg_stat_force_next_flush()")
        row = await conn.fetchrow(
            "SELECT xact_commit, tup_inserted, tup_updated, tup_deleted, blks_hit + blks_read"
            " AS blocks FROM pg_stat_database WHERE datname = $1",
            database,
        )
    finally:
        await conn.close()
    return {"events": events, "moves": moves, "tables": tables, **dict(row)}


async def drop(database: str) -> None:
    conn = await asyncpg.connect(user="postgres", host="127.0.0.1", database="postgres")
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
    finally:
        await conn.close()


def main() -> None:
    import asyncio

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--target", type=int, default=100)
    args = parser.parse_args()

    port = free_port()
    folder = tempfile.mkdtemp(prefix="dominohall-scaling-")
    redis = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            folder,
        ],
        stdout=subprocess.DEVNULL,
    )
    try:
        for _ in range(50):
            if (
                subprocess.run(
                    ["redis-cli", "-p", str(port), "PING"], capture_output=True
                ).returncode
                == 0
            ):
                break
            time.sleep(0.1)
        watch = CpuWatch(f"127.0.0.1:{port}")
        watch.start()
        started = time.monotonic()
        run = subprocess.run(
            [
                ".venv/bin/dominohall",
                "bench",
                "chaos",
                "--kills",
                "0",
                "--processes",
                str(args.processes),
                "--games",
                str(args.games),
                "--target",
                str(args.target),
                "--redis-url",
                f"redis://127.0.0.1:{port}/0",
                "--keep",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        seconds = time.monotonic() - started
        watch.done.set()
        watch.join()
        kept = re.search(r"kept: database (\S+), logs in (\S+)", run.stdout)
        if run.returncode != 0 or kept is None:
            raise SystemExit(f"the chaos run failed:\n{run.stdout}\n{run.stderr}")
        database, logs = kept.group(1), kept.group(2)
        commands = redis_info(port, "commandstats")
        stats = redis_info(port, "stats")
    finally:
        redis.terminate()
        redis.wait()
        shutil.rmtree(folder, ignore_errors=True)
    counts = asyncio.run(postgres_counts(database))
    asyncio.run(drop(database))
    shutil.rmtree(logs, ignore_errors=True)

    moves = counts["moves"]
    calls = {name: int(n) for name, n in re.findall(r"cmdstat_([a-z|]+):calls=(\d+)", commands)}
    net_in = int(re.search(r"total_net_input_bytes:(\d+)", stats).group(1))
    net_out = int(re.search(r"total_net_output_bytes:(\d+)", stats).group(1))
    cpu = sum(watch.seen.values())
    print(
        f"{args.processes} hall processes, {counts['tables']} tables, {moves} moves "
        f"({counts['events']} events) in {seconds:.1f} s (the games' whole life, seating included)"
    )
    print(f"hall processes' CPU: {cpu:.1f} s in all, {1000 * cpu / moves:.2f} ms a move")
    print(
        f"Redis: {sum(calls.values()) / moves:.1f} commands a move, "
        f"{net_in / moves:.0f} bytes in and {net_out / moves:.0f} bytes out a move"
    )
    for name, n in sorted(calls.items(), key=lambda item: -item[1])[:12]:
        print(f"  {name:<18} {n / moves:7.2f} a move")
    print(
        f"PostgreSQL: {counts['xact_commit'] / moves:.2f} transactions a move, "
        f"{counts['tup_inserted'] / moves:.2f} rows inserted, "
        f"{counts['tup_updated'] / moves:.2f} updated, {counts['tup_deleted'] / moves:.2f} deleted, "
        f"{counts['blocks'] / moves:.1f} blocks touched a move"
    )


if __name__ == "__main__":
    main()
