"""``dominohall bench chaos``: hall processes killed (``kill -9``) while people play, and what
the store says afterwards: no game lost.

It makes a fresh PostgreSQL database, starts N ``dominohall serve`` processes on it and on Redis
(a key prefix of its own) with a short lease, seats two people at each of G tables (clients of
``chaos_players.py``, each through a random process), and while they play kills a random process
every few seconds, K times, starting it again at once. Once the kills are over the people play
on at once until every game is over. Then, from the database:

- every game finished by the rules: its log replayed by the rules engine (``TableState.replay``)
  ends the game with reason "rules", and its stored record checks (``rules/record.py``);
- no acknowledged move lost: each ``ack`` a client got names a version whose event is that
  seat's move (or Next hand), as asked;
- one owner at a time: by version, a table's fencing tokens never go down (two owners' commits
  never interleaved);
- no deadline fired twice: each hand dealt once, and no seat's turn played twice by its timer;
- every gap a client saw healed by the state its ``resync`` brought.

With ``--graceful`` it is a rolling restart instead: each process in turn is stopped with SIGTERM
(a clean shutdown, as systemd stops a unit), waited for, and started again; the same checks hold,
and it reports how soon after each process ended its tables were owned again (a clean stop gives
their leases up: nobody waits for them to expire).

And the figures: from each kill to the killed process's tables owned again (their lease taken
with a new token) and to the first move acknowledged again at each (committed under the new
token), p50 and max. The checks are checks: the command exits with status 1 when one fails.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import click

from .chaos_players import Ack, Pace, Person
from .ports import free_port

SLACK_SECONDS = 5.0  # a dead process's tables should be owned again within the lease + this


@dataclass(frozen=True)
class ChaosSettings:
    processes: int = 3
    games: int = 50
    kills: int = 10
    every: float = 4.0  # seconds between two kills
    lease_seconds: float = 2.0
    pace: float = 1.0  # seconds between a table's moves while the kills go on
    target: int = 100  # the games' target (Draw to this)
    postgres: str = "postgres@127.0.0.1:5432"  # user@host:port, trust or a password in it
    redis_url: str = "redis://127.0.0.1:6379/0"
    finish_seconds: float = 300.0  # the most the games may take to finish after the kills
    seed: int | None = None
    keep: bool = False  # keep the database and the processes' logs
    graceful: bool = False  # a rolling restart: SIGTERM each process in turn, not kill -9
    logs: Path | None = None  # where the processes' logs go (None: a temporary folder)


@dataclass
class Kill:
    """One ``kill -9`` (or SIGTERM): when, which process, the live tables it held (id ->
    token), and how long a SIGTERM took to end the process."""

    at: float
    process: int
    pid: int
    tables: dict[str, int]
    stopped_after: float = 0.0
    owned_again: dict[str, float] = field(default_factory=dict)  # id -> seconds after the kill
    first_move: dict[str, float] = field(default_factory=dict)  # id -> seconds after the kill


@dataclass
class Report:
    """What the run found; ``ok`` when every check holds."""

    processes: int
    games: int
    kills: int
    lease_seconds: float
    graceful: bool = False
    seconds: float = 0.0
    games_finished: int = 0
    games_by_rules: int = 0
    records_ok: int = 0
    acks: int = 0
    acks_lost: int = 0
    moves: int = 0  # moves in the logs
    tables_interleaved: int = 0  # tables whose tokens went down somewhere
    owners_per_table_max: int = 0  # the most tokens one table's events carry
    hands_dealt_twice: int = 0
    timer_fired_twice: int = 0
    timer_moves: int = 0
    gaps: int = 0
    gaps_healed: int = 0
    gaps_not_healed: int = 0
    quiet_resyncs: int = 0
    connections: int = 0
    dropped: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    tables_affected: int = 0  # (kill, table) pairs: a live table held by the killed process
    not_owned_again: int = 0
    owned_again_late: int = 0  # owned again later than the lease + SLACK_SECONDS
    stop_max: float | None = None  # graceful: the longest SIGTERM -> process ended
    # graceful: from the stopped process's end to its tables owned again (seconds, p50 and max)
    after_exit_p50: float | None = None
    after_exit_max: float | None = None
    no_move_after_kill: int = 0  # affected tables where no move was acknowledged again
    owned_again_p50: float | None = None
    owned_again_max: float | None = None
    first_move_p50: float | None = None
    first_move_max: float | None = None
    # Each kill: the process, the live tables it held, the slowest of them owned again and
    # played again (seconds after the kill).
    per_kill: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # what failed, table by table

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "ok": self.ok}


class HallProcess:
    """One ``dominohall serve`` on a loopback port of its own, started again on the same port."""

    def __init__(self, index: int, command: list[str], port: int, log: Path) -> None:
        self.index = index
        self.command = command
        self.port = port
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None
        self.ready = False

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self) -> None:
        self.ready = False
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                self.command,
                stdout=log,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONWARNINGS": "ignore"},
            )

    async def wait_ready(self, seconds: float = 60.0) -> None:
        import httpx

        deadline = time.monotonic() + seconds
        async with httpx.AsyncClient(timeout=1) as client:
            while time.monotonic() < deadline:
                if self.process is None or self.process.poll() is not None:
                    raise click.ClickException(f"hall process {self.index} exited: see {self.log}")
                try:
                    answer = await client.get(f"http://127.0.0.1:{self.port}/healthz")
                    if answer.status_code == 200:
                        self.ready = True
                        return
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.05)
        raise click.ClickException(f"hall process {self.index} did not start: see {self.log}")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no lease given up, no last write."""
        assert self.process is not None
        self.ready = False
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    async def terminate(self) -> float:
        """SIGTERM, and the seconds until the process ended (its clean shutdown: sockets
        closed, leases given up)."""
        assert self.process is not None
        self.ready = False
        at = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        await asyncio.to_thread(self.process.wait)  # (the people in this loop play on)
        return time.monotonic() - at

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def _pid_of(owner: str) -> int | None:
    """The pid in a process's name (``host-pid-random``: ``ownership.new_process_id``)."""
    parts = owner.rsplit("-", 2)
    return int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else None


def percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


class Chaos:
    """One run: the database, the processes, the people, the kills, then the checks."""

    def __init__(self, settings: ChaosSettings, say: Callable[[str], None]) -> None:
        self.settings = settings
        self.say = say
        self.rng = random.Random(settings.seed)
        self.database = f"dh_chaos_{uuid.uuid4().hex[:12]}"
        self.url = f"postgresql+asyncpg://{settings.postgres}/{self.database}"
        self.prefix = f"chaos:{uuid.uuid4().hex[:12]}:"
        self.halls: list[HallProcess] = []
        self.people: list[Person] = []
        self.kills: list[Kill] = []
        self.pace = Pace(settings.pace)
        self.monitor: Any = None  # an asyncpg connection: the leases as they are
        self._monitoring = asyncio.Lock()  # (one query at a time on that connection)

    # The run ----------------------------------------------------------------------------------
    async def run(self) -> Report:
        s = self.settings
        report = Report(s.processes, s.games, s.kills, s.lease_seconds, s.graceful)
        logs = s.logs or Path(tempfile.mkdtemp(prefix="dominohall-chaos-"))
        logs.mkdir(parents=True, exist_ok=True)
        await self._create_database()
        try:
            self.monitor = await _connect(s.postgres, self.database)
            self._start_halls(logs)
            await asyncio.gather(*(hall.wait_ready() for hall in self.halls))
            self.say(f"{s.processes} hall processes up; seating {s.games} games ...")
            tables = await self._seat_games()
            started = time.monotonic()
            playing = [asyncio.create_task(person.play()) for person in self.people]
            await self._kill_now_and_then()
            self.pace.seconds = 0.0  # the kills are over: play on at once to the end
            self.say("kills over; the games play on to their end ...")
            done, _ = await asyncio.wait(playing, timeout=s.finish_seconds)
            for task in playing:
                task.cancel()
            await asyncio.gather(*playing, return_exceptions=True)
            report.seconds = round(time.monotonic() - started, 1)
            await self._check(tables, report)
        finally:
            if self.monitor is not None:
                await self.monitor.close()
            for hall in self.halls:
                hall.stop()
            await self._forget_redis()
            if not s.keep:
                await self._drop_database()
                if s.logs is None:
                    shutil.rmtree(logs, ignore_errors=True)
            else:
                self.say(f"kept: database {self.database}, logs in {logs}")
        return report

    async def _create_database(self) -> None:
        from ...store import Store

        await self._as_admin(f'CREATE DATABASE "{self.database}"')
        store = await Store.open(self.url)  # migrated once, before several processes start
        await store.close()

    async def _drop_database(self) -> None:
        await self._as_admin(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')

    async def _as_admin(self, statement: str) -> None:
        """A statement run on the server's own ``postgres`` database (one about databases)."""
        admin = await _connect(self.settings.postgres, "postgres")
        try:
            await admin.execute(statement)
        finally:
            await admin.close()

    async def _forget_redis(self) -> None:
        import redis.asyncio as redis

        client = redis.Redis.from_url(self.settings.redis_url)
        try:
            keys = [key async for key in client.scan_iter(match=f"{self.prefix}*")]
            if keys:
                await client.delete(*keys)
        finally:
            await client.aclose()

    def _start_halls(self, logs: Path) -> None:
        s = self.settings
        for index in range(s.processes):
            port = free_port()
            data = logs / f"hall-{index}"
            data.mkdir(exist_ok=True)
            # The interpreter running this command, so that the processes run the same code.
            command = [sys.executable, "-c", "from dominohall.cli.main import main; main()"]
            command += ["serve", "--host", "127.0.0.1", "--port", str(port), "--data", str(data)]
            command += ["--database-url", self.url, "--redis-url", s.redis_url]
            command += ["--redis-prefix", self.prefix, "--lease-seconds", str(s.lease_seconds)]
            # (CHAOS_LOG_LEVEL=info: uvicorn's shutdown steps in the logs kept by --keep)
            command += [
                "--log-level",
                os.environ.get("CHAOS_LOG_LEVEL", "warning"),
                "--bot-delay",
                "0",
            ]
            # Every table is seated from one address at once: no table limits.
            command += ["--table-limit", "off", "--open-tables", "0", "--account-limit", "off"]
            hall = HallProcess(index, command, port, logs / f"hall-{index}.log")
            hall.start()
            self.halls.append(hall)

    @property
    def ports(self) -> list[int]:
        return [hall.port for hall in self.halls]

    async def _seat_games(self) -> list[str]:
        """Two guests at each table, each through a random process; each table started."""
        import httpx

        limit = asyncio.Semaphore(8)
        options = {"preset": "draw", "target": self.settings.target, "timer": "relaxed"}

        def base() -> str:
            return f"http://127.0.0.1:{self.rng.choice(self.ports)}"

        async def guest(client: httpx.AsyncClient, name: str) -> str:
            answer = await client.post(base() + "/api/guest", json={"name": name})
            answer.raise_for_status()
            return str(answer.cookies["dominohall"])

        async def one() -> tuple[str, list[str]]:
            async with (
                limit,
                httpx.AsyncClient(timeout=30) as a,
                httpx.AsyncClient(timeout=30) as b,
            ):
                cookies = [await guest(a, "Ann"), await guest(b, "Bob")]
                made = await a.post(base() + "/api/tables", json=options)
                made.raise_for_status()
                table = str(made.json()["table"]["id"])
                (await b.post(base() + f"/api/tables/{table}/join", json={})).raise_for_status()
                (await a.post(base() + f"/api/tables/{table}/start")).raise_for_status()
                return table, cookies

        seated = await asyncio.gather(*(one() for _ in range(self.settings.games)))
        for table, cookies in seated:
            for cookie in cookies:
                rng = random.Random(self.rng.random())
                person = Person(table, f"dominohall={cookie}", self.ports, self.pace, rng)
                self.people.append(person)
        return [table for table, _ in seated]

    async def _kill_now_and_then(self) -> None:
        s = self.settings
        watching = []
        restarting: list[asyncio.Task[None]] = []
        for number in range(s.kills):
            await asyncio.sleep(s.every)
            ready = [hall for hall in self.halls if hall.ready]
            while not ready:
                await asyncio.sleep(0.1)
                ready = [hall for hall in self.halls if hall.ready]
            holding = await self._holders()
            if s.graceful:
                # Each process in turn, the next once the last is up again (a rolling restart).
                hall = self.halls[number % len(self.halls)]
                await asyncio.gather(*restarting)
            else:
                # A random process among those playing tables (a process just started may hold
                # none yet: killing it would test nothing).
                hall = self.rng.choice([h for h in ready if h.pid in holding] or ready)
            held = holding.get(hall.pid, {})
            at = time.time()
            kill = Kill(at, hall.index, hall.pid, held)
            self.kills.append(kill)
            watching.append(asyncio.create_task(self._watch(kill)))
            if s.graceful:
                kill.stopped_after = await hall.terminate()
            else:
                hall.kill()
            what = "stop (SIGTERM)" if s.graceful else "kill"
            self.say(
                f"{what} {number + 1}/{s.kills}: process {hall.index} ({len(held)} live tables)"
            )
            hall.start()
            restarting.append(asyncio.create_task(hall.wait_ready()))
        await asyncio.gather(*restarting)
        await asyncio.gather(*watching)

    async def _holders(self) -> dict[int, dict[str, int]]:
        """The live tables each process holds (pid -> table id -> token)."""
        rows = await self._fetch(
            "SELECT l.name, l.owner, l.token FROM leases l JOIN tables t ON t.id = l.name "
            "WHERE l.kind = 'table' AND l.owner IS NOT NULL AND t.finished_at IS NULL"
        )
        holding: dict[int, dict[str, int]] = {}
        for row in rows:
            pid = _pid_of(row["owner"])
            if pid is not None:
                holding.setdefault(pid, {})[row["name"]] = row["token"]
        return holding

    async def _fetch(self, query: str, *arguments: Any) -> Any:
        async with self._monitoring:
            return await self.monitor.fetch(query, *arguments)

    async def _watch(self, kill: Kill) -> None:
        """The killed process's tables, looked at until each is leased with a new token (or
        finished, which only an owner can do)."""
        waiting = dict(kill.tables)
        deadline = time.monotonic() + self.settings.lease_seconds + 60
        while waiting and time.monotonic() < deadline:
            rows = await self._fetch(
                "SELECT name, owner, token FROM leases WHERE kind = 'table' AND name = ANY($1)",
                list(waiting),
            )
            now = time.time()
            for row in rows:
                if row["owner"] is not None and row["token"] > waiting[row["name"]]:
                    kill.owned_again[row["name"]] = now - kill.at
                    del waiting[row["name"]]
            await asyncio.sleep(0.05)

    # The checks -------------------------------------------------------------------------------
    async def _check(self, tables: list[str], report: Report) -> None:
        from ...store import Store

        acks: dict[str, list[Ack]] = {table: [] for table in tables}
        for person in self.people:
            stats = person.stats
            for ack in stats.acks:
                acks[ack.table].append(ack)
            report.acks += len(stats.acks)
            report.gaps += stats.gaps
            report.gaps_healed += stats.healed
            report.gaps_not_healed += stats.waiting_for_state
            report.quiet_resyncs += stats.quiet
            report.connections += stats.connections
            report.dropped += stats.dropped
            for code, count in stats.refused.items():
                report.refused[code] = report.refused.get(code, 0) + count
        if report.gaps_not_healed:
            report.problems.append(f"{report.gaps_not_healed} clients left with a gap not healed")
        store = await Store.open(self.url)
        try:
            tokens_of: dict[str, dict[int, int | None]] = {}
            for table in tables:
                tokens = await store.table_leases.tokens(table)
                tokens_of[table] = dict(tokens)
                await self._check_table(store, table, tokens, acks[table], report)
        finally:
            await store.close()
        self._failover(tokens_of, acks, report)

    async def _check_table(
        self,
        store: Any,
        table: str,
        tokens: list[tuple[int, int | None]],
        acks: list[Ack],
        report: Report,
    ) -> None:
        from ...hall.table import Phase, TableState
        from ...rules.record import check_record

        problems = report.problems
        events = await store.events(table)
        try:
            state = TableState.replay(table, events)
        except Exception as exc:  # noqa: BLE001 - reported: the log does not replay
            problems.append(f"table {table}: its log does not replay: {exc}")
            return
        if state.phase is Phase.FINISHED:
            report.games_finished += 1
            over = state.game_over
            if over is not None and over.reason == "rules":
                report.games_by_rules += 1
            else:
                problems.append(f"table {table}: game over not by the rules ({over})")
            record = await store.record(table)
            checked = check_record(record) if record is not None else {"ok": False}
            if checked.get("ok") and checked.get("finished"):
                report.records_ok += 1
            else:
                problems.append(f"table {table}: its record does not check: {checked}")
        else:
            problems.append(f"table {table}: not finished (phase {state.phase.value})")
        # One owner at a time: the tokens never go down, version after version.
        seen = [token for _, token in tokens]
        if None in seen or any(b < a for a, b in zip(seen, seen[1:], strict=False)):  # type: ignore[operator]
            report.tables_interleaved += 1
            problems.append(f"table {table}: tokens interleaved: {tokens}")
        report.owners_per_table_max = max(report.owners_per_table_max, len(set(seen)))
        bodies = {version: body for version, _, body in events}
        # Each acknowledged request is in the log, as asked.
        for ack in acks:
            body = bodies.get(ack.version)
            if not _answers(body, ack):
                report.acks_lost += 1
                problems.append(
                    f"table {table}: ack of {ack.request} at {ack.version} lost: {body}"
                )
        # No deadline fired twice: each hand dealt once; no seat's turn played twice by the timer.
        dealt = [body["hand"] for body in bodies.values() if body["kind"] == "dealt"]
        if dealt != list(range(len(dealt))):
            report.hands_dealt_twice += 1
            problems.append(f"table {table}: hands dealt {dealt}")
        last_turn: tuple[int, str] | None = None  # the seat of the turn before, and by what
        for body in bodies.values():
            if body["kind"] == "dealt":
                last_turn = None
            if body["kind"] != "move":
                continue
            report.moves += 1
            turn = (body["seat"], body["by"])
            if body["by"] == "timer":
                report.timer_moves += 1
                if last_turn is not None and last_turn == turn and "draw" not in body:
                    # (a timer's turn may draw, then play: one turn)
                    report.timer_fired_twice += 1
                    problems.append(f"table {table}: seat {turn[0]}'s timer played twice")
            last_turn = turn if "draw" not in body else last_turn or turn

    def _failover(
        self,
        tokens_of: dict[str, dict[int, int | None]],
        acks: dict[str, list[Ack]],
        report: Report,
    ) -> None:
        limit = self.settings.lease_seconds + SLACK_SECONDS
        owned, moved = [], []
        for number, kill in enumerate(self.kills, 1):
            for table, token in kill.tables.items():
                report.tables_affected += 1
                seconds = kill.owned_again.get(table)
                if seconds is None:
                    report.not_owned_again += 1
                    report.problems.append(f"kill {number}: table {table} not owned again")
                else:
                    owned.append(seconds)
                    report.owned_again_late += seconds > limit

                tokens = tokens_of.get(table, {})
                after = [
                    ack.at - kill.at
                    for ack in acks.get(table, [])
                    if ack.at > kill.at and (tokens.get(ack.version) or 0) > token
                ]
                if after:
                    kill.first_move[table] = min(after)
                    moved.append(min(after))
                else:
                    report.no_move_after_kill += 1
                    report.problems.append(f"kill {number}: no move acknowledged again at {table}")
            report.per_kill.append(
                {
                    "process": kill.process,
                    "stopped_after": _rounded(kill.stopped_after),
                    "tables": len(kill.tables),
                    "owned_again_max": _rounded(max(kill.owned_again.values(), default=None)),
                    "first_move_max": _rounded(max(kill.first_move.values(), default=None)),
                }
            )
        after_exit = [
            max(0.0, seconds - kill.stopped_after)
            for kill in self.kills
            for seconds in kill.owned_again.values()
        ]
        if self.settings.graceful:
            report.after_exit_p50 = _rounded(percentile(after_exit, 50))
            report.after_exit_max = _rounded(max(after_exit, default=None))
        if self.settings.graceful:
            report.stop_max = _rounded(max((k.stopped_after for k in self.kills), default=None))
        report.owned_again_p50 = _rounded(percentile(owned, 50))
        report.owned_again_max = _rounded(max(owned, default=None))
        report.first_move_p50 = _rounded(percentile(moved, 50))
        report.first_move_max = _rounded(max(moved, default=None))


def _answers(body: dict[str, Any] | None, ack: Ack) -> bool:
    """Whether the event at an ack's version is the request acknowledged."""
    if body is None:
        return False
    request = ack.request
    if request["type"] == "next_hand":
        return bool(body["kind"] == "ready" and body["seat"] == ack.seat)
    if body["kind"] != "move" or body["seat"] != ack.seat or body["by"] != "player":
        return False
    if request["type"] == "play":
        return "play" in body and sorted(body["play"].split("-")) == sorted(
            request["tile"].split("-")
        )
    return request["type"] in body  # "draw" or "pass"


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


async def _connect(postgres: str, database: str) -> Any:
    import asyncpg  # type: ignore[import-untyped]

    return await asyncpg.connect(f"postgresql://{postgres}/{database}", timeout=10)


def run_chaos(settings: ChaosSettings, say: Callable[[str], None] = lambda _: None) -> Report:
    """One chaos run (``bench chaos``, and its short version in the tests)."""
    return asyncio.run(Chaos(settings, say).run())


def _print(report: Report, settings: ChaosSettings) -> None:
    r = report
    echo = click.echo
    stops = "clean stops (SIGTERM), in turn" if r.graceful else "kills"
    echo(
        f"{r.processes} processes, {r.games} games, {r.kills} {stops} (every {settings.every:g} s), "
        f"lease {r.lease_seconds:g} s, {r.seconds:g} s of play, {os.cpu_count()} cores"
    )
    echo(
        f"games finished by the rules: {r.games_by_rules}/{r.games} "
        f"(records checked: {r.records_ok}); moves in the logs: {r.moves}"
    )
    echo(f"acknowledged requests: {r.acks}, lost: {r.acks_lost}")
    echo(
        f"tokens interleaved: {r.tables_interleaved} tables "
        f"(at most {r.owners_per_table_max} owners a table)"
    )
    echo(
        f"deadlines fired twice: {r.hands_dealt_twice} deals, {r.timer_fired_twice} timer turns "
        f"({r.timer_moves} timer moves)"
    )
    echo(
        f"gaps: {r.gaps} seen, {r.gaps_healed} healed by resync, {r.gaps_not_healed} not; "
        f"quiet resyncs: {r.quiet_resyncs}"
    )
    echo(f"sockets: {r.connections} opened, {r.dropped} dropped; refused: {r.refused or 'none'}")
    limit = r.lease_seconds + SLACK_SECONDS
    echo(
        f"tables held by a killed process: {r.tables_affected}; owned again: p50 "
        f"{_seconds(r.owned_again_p50)}, max {_seconds(r.owned_again_max)} "
        f"({r.owned_again_late} later than {limit:g} s, {r.not_owned_again} never)"
    )
    if r.graceful:
        echo(
            f"SIGTERM -> process ended: at most {_seconds(r.stop_max)}; its tables owned again "
            f"after it ended: p50 {_seconds(r.after_exit_p50)}, max {_seconds(r.after_exit_max)}"
        )
    echo(
        f"kill -> first move acknowledged again: p50 {_seconds(r.first_move_p50)}, "
        f"max {_seconds(r.first_move_max)} ({r.no_move_after_kill} tables with none)"
    )
    for problem in r.problems[:20]:
        echo(f"PROBLEM {problem}")
    echo("ok" if r.ok else f"FAILED: {len(r.problems)} problems")


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f} s"


@click.command()
@click.option("--processes", default=3, show_default=True, help="Hall processes.")
@click.option("--games", default=50, show_default=True, help="Games (two people each).")
@click.option("--kills", default=10, show_default=True, help="Processes killed, one at a time.")
@click.option("--every", default=4.0, show_default=True, help="Seconds between two kills.")
@click.option("--lease-seconds", default=2.0, show_default=True, help="The processes' lease.")
@click.option(
    "--pace",
    default=1.0,
    show_default=True,
    help="Seconds between a table's moves while the kills go on (then at once).",
)
@click.option("--target", default=100, show_default=True, help="The games' target (Draw).")
@click.option(
    "--postgres",
    default="postgres@127.0.0.1:5432",
    show_default=True,
    help="USER[:PASSWORD]@HOST:PORT of a PostgreSQL that may create a database (dropped after).",
)
@click.option("--redis-url", default="redis://127.0.0.1:6379/0", show_default=True)
@click.option(
    "--finish-seconds",
    default=300.0,
    show_default=True,
    help="The most the games may take to finish once the kills are over.",
)
@click.option("--seed", type=int, default=None, help="Seed of the random choices.")
@click.option("--keep", is_flag=True, help="Keep the database and the processes' logs.")
@click.option(
    "--graceful",
    is_flag=True,
    help="A rolling restart: SIGTERM each process in turn (waited for), not kill -9.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object at the end.")
def chaos(
    processes: int,
    games: int,
    kills: int,
    every: float,
    lease_seconds: float,
    pace: float,
    target: int,
    postgres: str,
    redis_url: str,
    finish_seconds: float,
    seed: int | None,
    keep: bool,
    graceful: bool,
    as_json: bool,
) -> None:
    """Kill -9 hall processes (or restart them in turn: --graceful) while games are played: no
    game, move or deadline lost."""
    settings = ChaosSettings(
        processes=processes,
        games=games,
        kills=kills,
        every=every,
        lease_seconds=lease_seconds,
        pace=pace,
        target=target,
        postgres=postgres,
        redis_url=redis_url,
        finish_seconds=finish_seconds,
        seed=seed,
        keep=keep,
        graceful=graceful,
    )
    report = run_chaos(settings, (lambda _: None) if as_json else click.echo)
    if as_json:
        click.echo(json.dumps(report.to_json()))
    else:
        _print(report, settings)
    if not report.ok:
        sys.exit(1)
