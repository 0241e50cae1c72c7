"""Two ``dominohall bench server`` runs at once, to compare two set-ups on a machine whose
speed drifts by half within minutes (docs/scaling.md): both runs share the machine's speed of
the moment, so their CPU per move compares where two runs one after the other do not.

Each side is a source tree and a store: ``sqlite``, or ``pg`` (PostgreSQL + Redis). A ``pg``
side gets a Redis server of its own (the first the machine's, at 6379; the second one started
on a spare port for the run), and its PostgreSQL CPU is read from the backends of its own
database (named in its hall's command line), so that each side's PostgreSQL and Redis CPU is
its own. The hall's CPU is the bench's. It prints numbers; it passes or fails nothing.

    .venv/bin/python bench/side_by_side.py --a .:sqlite --b .:pg
    .venv/bin/python bench/side_by_side.py --a .:pg --b ../other-tree:pg --tables 500
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TICKS = os.sysconf("SC_CLK_TCK")
HERE = Path(__file__).resolve().parent.parent
POSTGRES = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"


@dataclass
class Side:
    name: str
    tree: Path
    store: str  # "sqlite" or "pg"
    redis_port: int
    errors: Path
    process: subprocess.Popen[bytes] | None = None
    backends: list[int] = field(default_factory=list)  # its database's PostgreSQL backends
    redis_server: list[int] = field(default_factory=list)
    database: str | None = None


def cpu_seconds(pid: int) -> float:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0  # (ended: a backend closed during the window)
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def command_lines() -> dict[int, str]:
    lines = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                lines[int(entry)] = Path(f"/proc/{entry}/cmdline").read_text().replace("\0", " ")
            except OSError:
                continue
    return lines


def environment_of(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/environ").read_text()
    except OSError:
        return ""


def spare_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start(side: Side, tables: int, seconds: float) -> None:
    command = [
        str(HERE / ".venv/bin/dominohall"),
        *("bench", "server", "--tables", str(tables), "--rate", str(tables)),
        *("--seconds", str(seconds), "--no-echo", "--json"),
    ]
    if side.store == "pg":
        redis = f"redis://127.0.0.1:{side.redis_port}/0"
        command += ["--database-url", POSTGRES, "--redis-url", redis]
    # The side's own source first: its ``serve`` processes inherit it.
    env = {**os.environ, "PYTHONPATH": str(side.tree / "src")}
    with side.errors.open("w") as errors:
        side.process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=errors)


def find_parts(side: Side) -> None:
    """The side's PostgreSQL backends and Redis server, once its hall is up."""
    lines = command_lines()
    marker = f"PYTHONPATH={side.tree / 'src'}"
    for pid, line in lines.items():
        if "dominohall serve" in line and marker in environment_of(pid):
            found = re.search(r"/(dh_bench_\w+)", line)
            side.database = found.group(1) if found else None
    if side.store != "pg":
        return
    for pid, line in lines.items():
        backend = side.database is not None and line.startswith("postgres:")
        if backend and side.database in line:
            side.backends.append(pid)
        elif "redis-server" in line and f":{side.redis_port}" in line:
            side.redis_server.append(pid)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", required=True, help="TREE:STORE, STORE sqlite or pg")
    parser.add_argument("--b", required=True, help="TREE:STORE, STORE sqlite or pg")
    parser.add_argument("--tables", type=int, default=500, help="each side's (and moves/s)")
    parser.add_argument("--seconds", type=float, default=40.0)
    options = parser.parse_args()
    if options.seconds < 10:
        parser.error("--seconds: at least 10 (the window read here is 4 s shorter)")
    folder = Path(tempfile.mkdtemp(prefix="side-by-side-"))
    own_redis_port = spare_port()
    sides = []
    for name, spec, redis_port in (("a", options.a, 6379), ("b", options.b, own_redis_port)):
        tree, _, store = spec.rpartition(":")
        if store not in ("sqlite", "pg"):
            parser.error(f"--{name}: the store is sqlite or pg, not {store!r}")
        if not (Path(tree) / "src" / "dominohall").is_dir():
            parser.error(f"--{name}: {tree!r} is not a source tree of the hall (no src/dominohall)")
        errors = folder / f"{name}.err"
        sides.append(Side(name, Path(tree).resolve(), store, redis_port, errors))
    own_redis = subprocess.Popen(
        ["redis-server", "--port", str(own_redis_port), "--bind", "127.0.0.1"]
        + ["--save", "", "--appendonly", "no", "--dir", str(folder)],
        stdout=subprocess.DEVNULL,
    )
    if sides[0].tree == sides[1].tree and sides[0].store == sides[1].store == "pg":
        print("(one tree twice: its two halls are told apart by their databases only)")
    try:
        for side in sides:
            start(side, options.tables, options.seconds)
        # Both windows open (the bench says so on standard error), then a second more.
        while not all("measuring" in side.errors.read_text() for side in sides):
            for side in sides:
                assert side.process is not None
                if side.process.poll() is not None:  # ended before its window: say why
                    raise SystemExit(f"{side.name}: {side.errors.read_text().strip()}")
            time.sleep(0.2)
        time.sleep(1.0)
        for side in sides:
            find_parts(side)
        watched = [pid for side in sides for pid in side.backends + side.redis_server]
        before = {pid: cpu_seconds(pid) for pid in watched}
        began = time.monotonic()
        time.sleep(options.seconds - 4.0)  # within both windows
        after = {pid: cpu_seconds(pid) for pid in watched}
        elapsed = time.monotonic() - began
        for side in sides:
            assert side.process is not None
            out, _ = side.process.communicate()
            report(side, json.loads(out), before, after, elapsed)
    finally:
        for side in sides:
            if side.process is not None and side.process.poll() is None:
                side.process.terminate()
        own_redis.terminate()
        own_redis.wait()


def report(
    side: Side,
    run: dict[str, Any],
    before: dict[int, float],
    after: dict[int, float],
    elapsed: float,
) -> None:
    rate = run["moves"]["per_second"]

    def used(pids: list[int]) -> float:  # ms a move
        return sum(after[pid] - before[pid] for pid in pids) / elapsed / rate * 1000

    postgres, redis = used(side.backends), used(side.redis_server)
    hall = run["cpu_per_move_ms"]["hall"]
    print(
        f"{side.name} {side.tree} {side.store}: {rate:.0f} moves/s, CPU a move: hall {hall:.3f}"
        f" + PostgreSQL {postgres:.3f} + Redis {redis:.3f} = {hall + postgres + redis:.3f} ms;"
        f" p50 {run['moves']['p50_ms']} ms, p99 {run['moves']['p99_ms']} ms,"
        f" {run['refused_moves']} refused"
    )


if __name__ == "__main__":
    main()
