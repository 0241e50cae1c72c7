"""The parts a hall's move spends CPU in, for ``dominohall bench server``: the hall processes, the
PostgreSQL processes serving the run's own database (its backends, and the server's background
processes: WAL writer, checkpointer, ...), and the Redis server; each part's CPU read from Linux's
/proc, so that a move's cost is summed over every process it touches, not only the hall's.

The run gets a database of its own on the PostgreSQL named by ``--database-url`` (made, migrated
by the first hall process, dropped after) and a key prefix of its own on Redis (its keys deleted
after), so that several runs, or a hall already there, never meet.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

TICKS = os.sysconf("SC_CLK_TCK")
# PostgreSQL's processes that serve every database: their work for the run is a share of theirs
# (the WAL writer flushes the run's commits; counted whole, so an upper bound when idle else).
SHARED_BACKENDS = ("walwriter", "checkpointer", "background writer", "autovacuum launcher")


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) a process has used; None once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICKS


def listening_pid(port: int) -> int | None:
    """The process listening on a loopback TCP ``port`` (its socket's inode among its open
    files), if this user may read its files: the Redis server's CPU is read through it."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            local, state, inode = fields[1], fields[3], fields[9]
            if state == "0A" and int(local.rsplit(":", 1)[1], 16) == port:  # 0A: LISTEN
                inodes.add(f"socket:[{inode}]")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            for fd in (entry / "fd").iterdir():
                if os.readlink(fd) in inodes:
                    return int(entry.name)
        except OSError:
            continue
    return None


class PostgresDatabase:
    """A fresh database for one run on the server of a ``postgresql+asyncpg://`` URL."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.name = f"dh_bench_{uuid.uuid4().hex[:12]}"
        self.url = urlunsplit(parts._replace(path=f"/{self.name}"))
        # asyncpg's own form of the server's URL, on its maintenance database.
        admin = parts._replace(scheme="postgresql", path="/postgres")
        self._admin = urlunsplit(admin)

    async def create(self, *, migrated: bool = True) -> None:
        """The database made (``migrated``: and the hall's schema in it; else left empty, for
        ``dominohall copy-database``)."""
        from ...store import Store

        await self._as_admin(f'CREATE DATABASE "{self.name}"')
        if migrated:
            store = await Store.open(self.url)  # migrated once, before the processes start
            await store.close()

    async def drop(self) -> None:
        await self._as_admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')

    async def _as_admin(self, statement: str) -> None:
        import asyncpg  # type: ignore[import-untyped]

        conn = await asyncpg.connect(self._admin, timeout=10)
        try:
            await conn.execute(statement)
        finally:
            await conn.close()

    async def pids(self) -> list[int]:
        """The server processes working for this database now, and the shared ones."""
        import asyncpg

        conn = await asyncpg.connect(self._admin, timeout=10)
        try:
            rows = await conn.fetch(
                "SELECT pid FROM pg_stat_activity WHERE (datname = $1 AND pid <> "
                "pg_backend_pid()) OR backend_type = ANY($2::text[])",
                self.name,
                list(SHARED_BACKENDS),
            )
        finally:
            await conn.close()
        return [int(row["pid"]) for row in rows]


async def forget_redis(url: str, prefix: str) -> None:
    """Delete the run's keys (those under its prefix)."""
    import redis.asyncio as redis

    client = redis.Redis.from_url(url)
    try:
        keys = [key async for key in client.scan_iter(match=f"{prefix}*")]
        if keys:
            await client.delete(*keys)
    finally:
        await client.aclose()


class PartsCpu:
    """Each part's CPU seconds over a window: ``start`` then ``stop`` (a PostgreSQL backend that
    appears meanwhile counts from zero; one that ends meanwhile is lost, a small undercount)."""

    def __init__(
        self,
        halls: dict[str, list[int]],
        database: PostgresDatabase | None,
        redis_pid: int | None,
    ) -> None:
        """``halls``: the hall's processes by part (``hall``; or ``game`` and ``sockets`` with
        a socket tier apart)."""
        self.halls = halls
        self.database = database
        self.redis_pid = redis_pid
        self._before: dict[str, dict[int, float]] = {}

    async def _read(self) -> dict[str, dict[int, float]]:
        parts: dict[str, list[int]] = dict(self.halls)
        if self.database is not None:
            parts["postgresql"] = await self.database.pids()
        if self.redis_pid is not None:
            parts["redis"] = [self.redis_pid]
        read: dict[str, dict[int, float]] = {}
        for part, pids in parts.items():
            times = {pid: cpu_seconds(pid) for pid in pids}
            read[part] = {pid: t for pid, t in times.items() if t is not None}
        return read

    async def start(self) -> None:
        self._before = await self._read()

    async def stop(self) -> dict[str, float]:
        after = await self._read()
        used: dict[str, float] = {}
        for part, times in after.items():
            before = self._before.get(part, {})
            used[part] = sum(t - before.get(pid, 0.0) for pid, t in times.items())
        return used


def redis_port(url: str) -> int | None:
    """The port of a Redis on this machine's loopback (None: elsewhere, its CPU not read)."""
    parts = urlsplit(url)
    if parts.hostname not in {"127.0.0.1", "localhost", "::1"}:
        return None
    return parts.port or 6379


def per_move(used: dict[str, float], moves: int) -> dict[str, Any]:
    """Each part's CPU in ms a move, and their sum."""
    if not moves:
        return {}
    figures = {part: round(seconds / moves * 1000, 4) for part, seconds in used.items()}
    figures["total"] = round(sum(used.values()) / moves * 1000, 4)
    return figures
