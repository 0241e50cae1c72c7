"""``dominohall bench server``: moves per second and move-to-ack times over loopback WebSockets.

Starts ``dominohall serve`` on a fresh SQLite file, seats two instant clients at each of N
tables, and measures for S seconds; then measures a raw WebSocket echo on the same stack
(``echo.py``) with as many sockets, the limit a move could reach. The clients run in processes of their own (they
share the machine with the server) and report the CPU the server spent per move.

With ``--database-url`` (PostgreSQL: a database of the run's own on that server, dropped after),
``--redis-url`` and ``--workers N`` it starts N ``serve`` processes as a hall of several
processes, each guest's socket on a random one of them, and reports the CPU per move of each part
(``parts.py``): the hall processes, PostgreSQL's processes, the Redis server. ``--socket-workers
M`` beside them starts M ``serve --sockets-only`` processes, the socket tier: the guests' HTTP and
sockets go to those only, the N processes play the tables (the game tier), and the hall's CPU per
move is reported for each tier (``game``, ``sockets``).
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from .clients import client_process
from .parts import PartsCpu, PostgresDatabase, forget_redis, listening_pid, per_move, redis_port
from .ports import free_port


def _percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def _cpu_seconds(pid: int) -> float | None:
    """CPU time a process has used (Linux /proc; None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Part:
    """One measured part (moves or echo), all client processes together."""

    seconds: float
    latencies: list[float]
    errors: int
    games_over: int
    not_by_rules: int
    server_cpu: float | None  # CPU seconds the server used in the window
    client_cpu: float | None  # CPU seconds the client processes used in the window
    parts_cpu: dict[str, float] = field(default_factory=dict)  # part -> CPU seconds (parts.py)


@dataclass(frozen=True)
class Setup:
    """The server being measured and how the clients drive it."""

    base: str
    ports: list[int]  # the processes the guests talk to (the socket tier's, if apart)
    server_pids: list[int]
    processes: int
    warmup: float
    seconds: float
    interval: float  # seconds between one table's moves (0: at once)


def _measure(setup: Setup, part: str, count: int, parts: PartsCpu | None = None) -> Part:
    """Run ``count`` tables or sockets spread over client processes, and measure a window
    (``parts``: each part's CPU too)."""
    context = multiprocessing.get_context("spawn")  # a clean interpreter: no inherited loop
    n = setup.processes
    shares = [count // n + (i < count % n) for i in range(n)]
    pipes, children = [], []
    for share in (s for s in shares if s):
        here, there = context.Pipe()
        args = (there, setup.base, setup.ports, part, share, setup.interval)
        child = context.Process(target=client_process, args=args, daemon=True)
        child.start()
        pipes.append(here)
        children.append(child)
    try:
        for pipe in pipes:
            if pipe.recv() != "ready":
                raise click.ClickException("a client process failed to start")
        start = time.monotonic() + setup.warmup
        end = start + setup.seconds
        for pipe in pipes:
            pipe.send((start, end))
        time.sleep(max(0.0, start - time.monotonic()))
        # On standard error, so that --json's output stays JSON (and a profiler can wait for it).
        click.echo(f"measuring {part} for {setup.seconds:g} s ...", err=True)
        pids = [c.pid or 0 for c in children]
        if parts is not None:
            asyncio.run(parts.start())
        server_before, clients_before = _cpu_total(setup.server_pids), _cpu_total(pids)
        time.sleep(max(0.0, end - time.monotonic()))
        server_after, clients_after = _cpu_total(setup.server_pids), _cpu_total(pids)
        used = asyncio.run(parts.stop()) if parts is not None else {}
        results = [pipe.recv() for pipe in pipes]
    except EOFError:
        raise click.ClickException("a client process died") from None
    finally:
        for child in children:
            child.join(30)
            if child.is_alive():
                child.kill()
    return Part(
        seconds=setup.seconds,
        latencies=[x for r in results for x in r["latencies"]],
        errors=sum(r["errors"] for r in results),
        games_over=sum(r["games_over"] for r in results),
        not_by_rules=sum(r["not_by_rules"] for r in results),
        server_cpu=_difference(server_before, server_after),
        client_cpu=_difference(clients_before, clients_after),
        parts_cpu=used,
    )


def _cpu_total(pids: list[int]) -> float | None:
    times = [_cpu_seconds(pid) for pid in pids]
    return None if None in times else sum(t for t in times if t is not None)


def _difference(before: float | None, after: float | None) -> float | None:
    return None if before is None or after is None else after - before


def _report(name: str, part: Part) -> str:
    ms = [x * 1000 for x in part.latencies]
    count = len(ms)
    mean = statistics.fmean(ms) if ms else 0.0
    return (
        f"{name:<22} {count / part.seconds:>9.0f}/s   p50 {_percentile(ms, 50):6.1f} ms   "
        f"p99 {_percentile(ms, 99):6.1f} ms   (n={count}, mean {mean:.1f} ms)"
    )


def _cpu_report(what: str, part: Part) -> str:
    """CPU per move (or echo) of the server and of the clients, and how busy each was."""
    count = len(part.latencies)
    lines = []
    for who, cpu in (("server", part.server_cpu), ("clients", part.client_cpu)):
        if cpu is not None and count:
            lines.append(
                f"{who} CPU per {what}: {cpu / count * 1000:.3f} ms "
                f"({cpu / part.seconds:.0%} of a core)"
            )
    return "; ".join(lines)


@click.command()
@click.option(
    "--tables", default=100, show_default=True, help="Concurrent tables (two clients each)."
)
@click.option("--seconds", default=10.0, show_default=True, help="Seconds to measure each part.")
@click.option("--warmup", default=2.0, show_default=True, help="Seconds of play before measuring.")
@click.option(
    "--clients",
    default=2,
    show_default=True,
    help="Client processes sharing the tables (the clients must not be what is measured).",
)
@click.option(
    "--rate",
    type=float,
    default=None,
    help="Moves per second the tables offer together, each table's moves evenly spaced (as "
    "people thinking). Default: every client answers at once, so the move->ack time is "
    "mostly the queue of the other tables' moves.",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    help="Hall processes (more than one needs --redis-url); each guest's socket on a random one.",
)
@click.option(
    "--socket-workers",
    default=0,
    show_default=True,
    help="Processes of a socket tier apart (serve --sockets-only), beside the --workers that "
    "play the tables; the guests' HTTP and sockets go to these only. Needs --redis-url and "
    "--database-url.",
)
@click.option(
    "--database-url",
    default=None,
    help="The hall's database. PostgreSQL (postgresql+asyncpg://USER@HOST:PORT/ANY): a database "
    "of the run's own is made on that server and dropped after. Default: a fresh SQLite file.",
)
@click.option(
    "--redis-url",
    default=None,
    help="Redis between the processes (keys under a prefix of the run's own, deleted after).",
)
@click.option("--no-echo", is_flag=True, help="Skip the raw WebSocket echo.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def server(
    tables: int,
    seconds: float,
    warmup: float,
    clients: int,
    rate: float | None,
    workers: int,
    socket_workers: int,
    database_url: str | None,
    redis_url: str | None,
    no_echo: bool,
    as_json: bool,
) -> None:
    """Moves/s and move->ack p50/p99 of the hall, next to a raw WebSocket echo; with
    --database-url, --redis-url and --workers, a hall of several processes, and the CPU per
    move of each part (hall processes, PostgreSQL, Redis); with --socket-workers too, the
    socket tier in processes of its own, and the CPU per move of each tier."""
    _check_processes(workers, socket_workers, database_url, redis_url)
    interval = tables / rate if rate else 0.0
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    postgres = None
    if database_url is not None and database_url.startswith("postgresql"):
        postgres = PostgresDatabase(database_url)
    with tempfile.TemporaryDirectory(prefix="dominohall-bench-") as folder:
        if postgres is not None:
            asyncio.run(postgres.create())
            database_url = postgres.url
        prefix = f"bench:{uuid.uuid4().hex[:12]}:"
        # The game tier first: a socket process opens each table through one of them.
        tiers = {"game": workers, "sockets": socket_workers}
        ports = {tier: [free_port() for _ in range(n)] for tier, n in tiers.items()}
        processes: dict[str, list[subprocess.Popen[bytes]]] = {tier: [] for tier in tiers}
        try:
            for tier, tier_ports in ports.items():
                for port in tier_ports:
                    data = Path(folder) / f"hall-{port}"
                    data.mkdir()
                    command = _serve(port, data, database_url, redis_url, prefix)
                    if tier == "sockets":
                        command.append("--sockets-only")
                    # (with --json, the hall's banner kept off standard output: JSON alone)
                    out = subprocess.DEVNULL if as_json else None
                    processes[tier].append(subprocess.Popen(command, env=env, stdout=out))
                for port, process in zip(tier_ports, processes[tier], strict=True):
                    _wait_for(f"http://127.0.0.1:{port}", process)
            if not as_json:
                click.echo(f"setting up {tables} tables in {clients} client processes ...")
            pids = {tier: [p.pid for p in ps] for tier, ps in processes.items() if ps}
            redis_port_ = redis_port(redis_url) if redis_url is not None else None
            redis_pid = listening_pid(redis_port_) if redis_port_ is not None else None
            # One part for the hall's processes, or one a tier when the socket tier is apart.
            halls = pids if socket_workers else {"hall": pids["game"]}
            parts = PartsCpu(halls, postgres, redis_pid)
            facing = ports["sockets"] or ports["game"]  # the processes the guests talk to
            base = f"http://127.0.0.1:{facing[0]}"
            every_pid = [pid for tier_pids in pids.values() for pid in tier_pids]
            setup = Setup(base, facing, every_pid, clients, warmup, seconds, interval)
            moves = _measure(setup, "moves", tables, parts)
        finally:
            started = [process for ps in processes.values() for process in ps]
            for process in started:
                process.terminate()
            for process in started:
                _stopped(process)
            if postgres is not None:
                asyncio.run(postgres.drop())
            if redis_url is not None:
                asyncio.run(forget_redis(redis_url, prefix))
    echo = None if no_echo else _echo(clients, warmup, seconds, interval, tables, env)
    setting = {
        "workers": workers,
        "socket_workers": socket_workers,
        "database": "postgresql" if postgres is not None else "sqlite",
        "redis": redis_url is not None,
    }
    cpu = per_move(moves.parts_cpu, len(moves.latencies))
    if as_json:
        click.echo(
            json.dumps(
                {
                    "tables": tables,
                    "rate": rate,
                    "seconds": seconds,
                    "cores": os.cpu_count(),
                    "client_processes": clients,
                    **setting,
                    "moves": _figures(moves),
                    "cpu_per_move_ms": cpu,
                    "echo": None if echo is None else _figures(echo),
                    "refused_moves": moves.errors,
                    "games_finished": moves.games_over // 2,
                    "games_not_by_rules": moves.not_by_rules // 2,
                }
            )
        )
        return
    offered = f"offered {rate:g} moves/s" if rate else "clients answer at once"
    click.echo(
        f"{tables} tables ({offered}), {2 * tables} sockets, {seconds:g} s each, "
        f"{os.cpu_count()} cores, {clients} client processes; {workers} hall processes"
        f"{f' + {socket_workers} of the socket tier' if socket_workers else ''} on "
        f"{setting['database']}{' + Redis' if redis_url else ''}"
    )
    click.echo(_report("moves (move -> ack)", moves))
    if echo is not None:
        click.echo(_report("raw echo (send -> echo)", echo))
    click.echo(_cpu_report("move (all its messages included)", moves))
    if echo is not None:
        click.echo(_cpu_report("echo", echo))
    click.echo("CPU per move by part: " + ", ".join(f"{k} {v:.3f} ms" for k, v in cpu.items()))
    click.echo(
        f"refused moves: {moves.errors}; games finished meanwhile: {moves.games_over // 2}"
        f" ({moves.not_by_rules // 2} not by the rules)"
    )


def _stopped(process: subprocess.Popen[bytes]) -> None:
    """Wait for a hall process told to stop; killed if it takes over 30 s (a loaded machine):
    the run's figures are taken already and must not be lost to a slow shutdown."""
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(30)


def _check_processes(
    workers: int, socket_workers: int, database_url: str | None, redis_url: str | None
) -> None:
    """Refuse a hall of processes that could not share its tables: several need Redis between
    them and one database (each process's own SQLite file would hold tables the others never
    find), and a socket tier needs a game tier to play its tables."""
    if workers < 1:
        raise click.BadParameter(
            "at least 1 (the processes that play the tables)", param_hint="--workers"
        )
    if socket_workers < 0:
        raise click.BadParameter("0 or more", param_hint="--socket-workers")
    if workers + socket_workers == 1:
        return
    several = (
        f"--workers {workers} and --socket-workers {socket_workers}"
        if socket_workers
        else f"--workers {workers}"
    )
    if redis_url is None:
        raise click.UsageError(f"{several} needs --redis-url (the processes share Redis)")
    if database_url is None:
        raise click.UsageError(
            f"{several} needs --database-url (the processes share one PostgreSQL database)"
        )


def _serve(
    port: int, data: Path, database_url: str | None, redis_url: str | None, prefix: str
) -> list[str]:
    """One hall process's command line."""
    cli = Path(sys.executable).with_name("dominohall")
    command = [str(cli), "serve", "--host", "127.0.0.1", "--port", str(port), "--data", str(data)]
    command += ["--bot-delay", "0", "--log-level", "warning"]
    # The benchmark seats every table from one address at once: no table limits.
    command += ["--table-limit", "off", "--open-tables", "0", "--sockets-per-address", "0"]
    if database_url is not None:
        command += ["--database-url", database_url]
    if redis_url is not None:
        command += ["--redis-url", redis_url, "--redis-prefix", prefix]
    return command


def _echo(
    clients: int, warmup: float, seconds: float, interval: float, tables: int, env: dict[str, str]
) -> Part:
    """The raw WebSocket echo on the hall's stack, with as many sockets as the tables had."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "dominohall.cli.bench.echo", str(port)]
    process = subprocess.Popen(command, env=env)
    try:
        _wait_for(base, process)
        setup = Setup(base, [port], [process.pid], clients, warmup, seconds, interval)
        return _measure(setup, "echo", 2 * tables)
    finally:
        process.terminate()
        process.wait(30)


def _figures(part: Part) -> dict[str, Any]:
    """One part's figures for ``--json`` (times in ms; CPU per move or echo; None if unknown)."""
    ms = [x * 1000 for x in part.latencies]
    count = len(ms)

    def per(cpu: float | None) -> float | None:
        return round(cpu / count * 1000, 4) if cpu is not None and count else None

    return {
        "count": count,
        "per_second": round(count / part.seconds, 1),
        "p50_ms": round(_percentile(ms, 50), 2) if ms else None,
        "p99_ms": round(_percentile(ms, 99), 2) if ms else None,
        "mean_ms": round(statistics.fmean(ms), 2) if ms else None,
        "server_cpu_ms": per(part.server_cpu),
        "clients_cpu_ms": per(part.client_cpu),
        "server_core_share": (
            round(part.server_cpu / part.seconds, 3) if part.server_cpu is not None else None
        ),
    }


def _wait_for(base: str, process: subprocess.Popen[bytes]) -> None:
    import httpx

    for _ in range(600):
        if process.poll() is not None:
            raise click.ClickException("the server did not start")
        try:
            if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise click.ClickException("the server did not answer /healthz")
