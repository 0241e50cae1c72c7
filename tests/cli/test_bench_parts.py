"""``bench/parts.py``: each part's CPU over a window, read from /proc, a part per tier of the
hall when the socket tier runs apart."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time

import pytest

from dominohall.cli.bench.parts import PartsCpu, per_move

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="Linux /proc")


def test_each_tier_is_its_own_part_and_counts_only_its_processes() -> None:
    # A busy child as the socket tier, this (sleeping) process as the game tier.
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        parts = PartsCpu({"game": [os.getpid()], "sockets": [busy.pid]}, None, None)
        asyncio.run(parts.start())
        time.sleep(0.3)
        used = asyncio.run(parts.stop())
    finally:
        busy.kill()
        busy.wait()
    assert set(used) == {"game", "sockets"}
    assert used["sockets"] > 0.05  # (the child spun the whole window: some 0.3 s of CPU)
    assert used["game"] < used["sockets"]


def test_per_move_gives_each_part_and_their_total_in_ms() -> None:
    assert per_move({"game": 0.5, "sockets": 0.25}, 1000) == {
        "game": 0.5,
        "sockets": 0.25,
        "total": 0.75,
    }
    assert per_move({"game": 1.0}, 0) == {}
