"""Two ``dominohall bench server`` runs at once, to compare two set-ups on a machine whose
speed drifts by half within minutes (docs/scaling.md): both runs share the machine's speed of
the moment, so their CPU per move compares where two runs one after the other do not.

Each side is a source tree and a store: ``sqlite``, or ``pg`` (PostgreSQL + Redis). Each side's
figures are its bench's own (``cli/bench/parts.py``): its hall processes, its own database's
PostgreSQL backends, and its Redis server, for a ``pg`` side a server of its own (the first
side the machine's, at 6379; the second one started on a spare port for the run). Only
PostgreSQL's shared processes (WAL writer, checkpointer) are counted in both sides' figures,
about a thousandth of a millisecond a move. The two windows open a few seconds apart (each
bench sets its tables up at its own pace); the gap is printed. It prints numbers; it passes or
fails nothing.

    .venv/bin/python bench/side_by_side.py --a .:sqlite --b .:pg
    .venv/bin/python bench/side_by_side.py --a .:pg --b ../other-tree:pg --tables 500
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from dominohall.cli.bench.ports import free_port

HERE = Path(__file__).resolve().parent.parent
POSTGRES = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"


@dataclass
class Side:
    name: str
    tree: Path
    store: str  # "sqlite" or "pg"
    redis_port: int
    errors: Path  # the bench's standard error: it says there when its window opens
    process: subprocess.Popen[bytes] | None = None
    window_opened: float | None = None


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


def wait_for_windows(sides: list[Side]) -> None:
    """Note when each side's window opens; a side whose bench ends before that says why."""
    while any(side.window_opened is None for side in sides):
        for side in sides:
            assert side.process is not None
            if side.window_opened is None and "measuring" in side.errors.read_text():
                side.window_opened = time.monotonic()
            elif side.window_opened is None and side.process.poll() is not None:
                raise SystemExit(f"{side.name}: {side.errors.read_text().strip()}")
        time.sleep(0.2)


def report(side: Side, run: dict[str, object]) -> None:
    moves = run["moves"]
    cpu = run["cpu_per_move_ms"]
    assert isinstance(moves, dict) and isinstance(cpu, dict)
    parts = " + ".join(
        f"{part} {cpu.get(part, 0.0):.3f}" for part in ("hall", "postgresql", "redis")
    )
    print(
        f"{side.name} {side.tree} {side.store}: {moves['per_second']:.0f} moves/s, CPU a move:"
        f" {parts} = {cpu['total']:.3f} ms; p50 {moves['p50_ms']} ms, p99 {moves['p99_ms']} ms,"
        f" {run['refused_moves']} refused"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--a", required=True, help="TREE:STORE, STORE sqlite or pg")
    parser.add_argument("--b", required=True, help="TREE:STORE, STORE sqlite or pg")
    parser.add_argument("--tables", type=int, default=500, help="each side's (and moves/s)")
    parser.add_argument("--seconds", type=float, default=40.0)
    options = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="side-by-side-"))
    own_redis_port = free_port()
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
    try:
        for side in sides:
            start(side, options.tables, options.seconds)
        wait_for_windows(sides)
        for side in sides:
            assert side.process is not None
            out, _ = side.process.communicate()
            if side.process.returncode != 0:  # (failed after its window opened: no JSON)
                raise SystemExit(f"{side.name}: {side.errors.read_text().strip()}")
            report(side, json.loads(out))
        a, b = (side.window_opened or 0.0 for side in sides)
        print(f"(the windows opened {abs(a - b):.1f} s apart, of {options.seconds:g} s each)")
    finally:
        for side in sides:
            if side.process is not None and side.process.poll() is None:
                side.process.terminate()
        own_redis.terminate()
        own_redis.wait()


if __name__ == "__main__":
    main()
