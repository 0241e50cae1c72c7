"""``bench/parts.py``: each part's CPU over a window, read from /proc, a part per tier of the
hall when the socket tier runs apart."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time

import pytest

from dominohall.cli.bench.parts import PartsCpu, cpu_seconds, per_move

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="Linux /proc")


def test_each_tier_is_its_own_part_and_counts_only_its_processes() -> None:
    # A busy child as the socket tier, this (mostly sleeping) process as the game tier. The
    # window lasts until the child has spun 0.1 s of CPU, however loaded the machine is.
    spin = "print('spinning', flush=True)\nwhile True: pass"
    busy = subprocess.Popen([sys.executable, "-c", spin], stdout=subprocess.PIPE)
    try:
        assert busy.stdout is not None and busy.stdout.readline() == b"spinning\n"
        parts = PartsCpu({"game": [os.getpid()], "sockets": [busy.pid]}, None, None)
        asyncio.run(parts.start())
        begun = cpu_seconds(busy.pid)
        assert begun is not None
        while (cpu_seconds(busy.pid) or 0.0) - begun < 0.1:
            time.sleep(0.02)
        used = asyncio.run(parts.stop())
    finally:
        busy.kill()
        busy.communicate()  # (its pipe closed)
    assert set(used) == {"game", "sockets"}
    assert used["sockets"] >= 0.1
    assert used["game"] < used["sockets"]


def test_per_move_gives_each_part_and_their_total_in_ms() -> None:
    assert per_move({"game": 0.5, "sockets": 0.25}, 1000) == {
        "game": 0.5,
        "sockets": 0.25,
        "total": 0.75,
    }
    assert per_move({"game": 1.0}, 0) == {}
