"""Hard's worker processes live no longer than the server that started them, even after kill -9."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from .live import Budget, LiveServer, Player

pytestmark = [
    pytest.mark.timeout(120),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc"),
]


def children() -> dict[int, int]:
    """Every process's parent, by pid."""
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        parents[int(stat.parent.name)] = int(fields[1])
    return parents


def descendants(pid: int) -> set[int]:
    parents = children()
    found: set[int] = set()
    while True:
        more = {p for p, parent in parents.items() if (parent == pid or parent in found)}
        if more <= found:
            return found
        found |= more


def alive(pids: set[int]) -> set[int]:
    return {pid for pid in pids if Path(f"/proc/{pid}").exists() and not _zombie(pid)}


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def test_no_worker_outlives_a_killed_server(tmp_path):
    server = LiveServer(tmp_path)
    server.start()
    try:
        cookie = server.guest("Ann")
        table = server.post(cookie, "/api/play-with-bots", {"bot": "hard"})["table"]["id"]
        player = Player(server.ws_url(table), cookie)
        asyncio.run(player.play(Budget(4)))  # Hard thinks in a worker between these moves
        assert server.process is not None
        started = descendants(server.process.pid)
        # the forkserver and the resource tracker, and Hard's worker under the forkserver
        assert len(started) >= 3, started
    finally:
        server.kill()
    for _ in range(200):
        if not alive(started):
            break
        time.sleep(0.05)
    survivors = alive(started)
    for pid in survivors:  # leave none behind when this fails (checking the pid is still ours)
        with contextlib.suppress(OSError):
            if sys.prefix.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                os.kill(pid, signal.SIGKILL)
    assert not survivors, f"still running after the server was killed: {survivors}"
