"""``dominohall bench server --json`` prints its figures as one JSON object (it asserts nothing
about speed): a real ``dominohall serve`` and the echo server, each measured for a moment."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from dominohall.cli.main import main
from redis_service import REDIS_URL


def test_bench_server_json_reports_moves_and_the_echo() -> None:
    args = ["bench", "server", "--tables", "2", "--seconds", "1", "--warmup", "0.5", "--json"]
    result = CliRunner().invoke(main, [*args, "--clients", "1", "--rate", "20"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["tables"] == 2 and report["rate"] == 20
    for part in ("moves", "echo"):
        figures = report[part]
        assert figures["count"] > 0, f"no {part} were measured"
        assert 0 < figures["p50_ms"] <= figures["p99_ms"]
    assert report["refused_moves"] == 0


@pytest.mark.postgresql
def test_bench_server_on_two_processes_reports_each_parts_cpu_per_move() -> None:
    """``--workers 2`` on PostgreSQL (a database of the run's own, dropped after) and Redis:
    moves made through both processes, and the CPU per move of the hall processes, PostgreSQL
    and Redis, summed."""
    args = ["bench", "server", "--tables", "2", "--seconds", "1", "--warmup", "0.5", "--json"]
    args += ["--clients", "1", "--rate", "20", "--workers", "2", "--no-echo"]
    args += ["--database-url", "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres"]
    result = CliRunner().invoke(main, [*args, "--redis-url", REDIS_URL])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert (report["workers"], report["database"], report["redis"]) == (2, "postgresql", True)
    assert report["moves"]["count"] > 0 and report["refused_moves"] == 0
    assert report["echo"] is None
    cpu = report["cpu_per_move_ms"]
    assert cpu["hall"] > 0 and cpu["postgresql"] > 0 and cpu["redis"] >= 0
    assert cpu["total"] == pytest.approx(cpu["hall"] + cpu["postgresql"] + cpu["redis"], abs=0.01)


def test_bench_server_refuses_several_workers_without_redis() -> None:
    result = CliRunner().invoke(main, ["bench", "server", "--workers", "2"])
    assert result.exit_code == 2 and "--redis-url" in result.output
