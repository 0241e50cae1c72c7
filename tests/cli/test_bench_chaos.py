"""``dominohall bench chaos``, short: two real ``dominohall serve`` processes on a fresh
PostgreSQL database and the machine's Redis, a few games played by people over WebSockets, two
``kill -9``s (each process started again). What a kill must not cost is checked from the store;
no time is asserted (the figures are the benchmark's)."""

from __future__ import annotations

import socket

import pytest

from dominohall.cli.bench.chaos import ChaosSettings, run_chaos

pytestmark = [pytest.mark.postgresql, pytest.mark.timeout(240)]


def _reachable(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def test_killing_processes_loses_no_game_move_or_deadline() -> None:
    if not (_reachable(5432) and _reachable(6379)):
        pytest.skip("PostgreSQL (5432) and Redis (6379) on 127.0.0.1 are needed")
    settings = ChaosSettings(
        processes=2,
        games=4,
        kills=2,
        every=2.5,
        lease_seconds=1.5,
        pace=0.3,
        target=50,
        finish_seconds=150,
        seed=23,
    )
    report = run_chaos(settings)
    assert report.problems == []
    assert report.games_by_rules == report.games_finished == report.records_ok == 4
    assert report.acks > 0 and report.acks_lost == 0
    assert report.tables_interleaved == 0
    assert report.hands_dealt_twice == report.timer_fired_twice == 0
    assert report.gaps_not_healed == 0
    # Each kill hit something, and every table it held was owned again and played on.
    assert len(report.per_kill) == 2
    assert report.tables_affected > 0
    assert report.not_owned_again == report.no_move_after_kill == 0
    assert report.owners_per_table_max >= 2  # some table's commits went on under a new token
