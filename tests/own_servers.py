"""Servers of a test's own, for the tests that stop and start them (never the machine's shared
ones): a Redis (``redis-server --port``) and a PostgreSQL cluster (``initdb``/``pg_ctl``, run as
the ``postgres`` user, since ``initdb`` refuses root), each on a spare loopback port."""

from __future__ import annotations

import asyncio
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from redis_service import redis_reachable

WAIT = 10.0  # seconds a server may take to start before the test fails


def spare_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class OwnRedis:
    """A redis-server of the test's own, stopped (``kill -9``) and started again on one port."""

    def __init__(self, *options: str) -> None:
        """``options``: more of redis-server's command line (``--user ...``, say)."""
        if shutil.which("redis-server") is None:
            pytest.skip("redis-server is not on PATH: this test runs a Redis of its own")
        self.port = spare_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.options = options
        self.server: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", *self.options]
        self.server = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )

    def stop(self) -> None:
        if self.server is not None:
            self.server.kill()
            self.server.wait(10)
            self.server = None

    async def up(self) -> None:
        """Wait until it answers."""
        for _ in range(int(WAIT / 0.05)):
            if await redis_reachable(self.url):
                return
            await asyncio.sleep(0.05)
        pytest.fail(f"the test's Redis at {self.url} did not start within {WAIT} s")


def _as_postgres(*command: str) -> None:
    subprocess.run(
        ["runuser", "-u", "postgres", "--", *command],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


class OwnPostgres:
    """A PostgreSQL cluster of the test's own in a temporary folder (``initdb`` once), started
    and stopped (``immediate``: as a crash) with ``pg_ctl``; ``url`` is its ``postgres``
    database, migrated by whoever opens a store on it first."""

    def __init__(self) -> None:
        if shutil.which("initdb") is None or shutil.which("pg_ctl") is None:
            pytest.skip("initdb and pg_ctl are not on PATH: this test runs a PostgreSQL of its own")
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("no 'postgres' user to run a PostgreSQL of the test's own")
        self.folder = Path(tempfile.mkdtemp(prefix="dominohall-pg-"))
        os.chown(self.folder, user.pw_uid, user.pw_gid)
        self.data = self.folder / "data"
        self.port = spare_port()
        self.url = f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"
        # (no fsync: a test's crash is the server's, never the machine's)
        _as_postgres("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")

    def start(self) -> None:
        options = f"-p {self.port} -h 127.0.0.1 -k {self.folder} -c fsync=off"
        log = str(self.folder / "log")
        _as_postgres("pg_ctl", "-D", str(self.data), "-w", "-l", log, "-o", options, "start")

    def stop(self) -> None:
        """Stopped at once, as by a crash: what was committed is kept, connections cut."""
        _as_postgres("pg_ctl", "-D", str(self.data), "-w", "-m", "immediate", "stop")

    def remove(self) -> None:
        subprocess.run(
            [
                "runuser",
                "-u",
                "postgres",
                "--",
                "pg_ctl",
                "-D",
                str(self.data),
                "-m",
                "immediate",
                "stop",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture
def own_postgres() -> Iterator[OwnPostgres]:
    """A PostgreSQL of the test's own, started."""
    server = OwnPostgres()
    try:
        server.start()
        yield server
    finally:
        server.remove()


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    """A Redis of the test's own, started (``await own_redis.up()`` before use)."""
    server = OwnRedis()
    try:
        server.start()
        yield server
    finally:
        server.stop()
