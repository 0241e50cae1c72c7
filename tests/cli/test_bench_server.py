"""``dominohall bench server --json`` prints its figures as one JSON object (it asserts nothing
about speed): a real ``dominohall serve`` and the echo server, each measured for a moment."""

from __future__ import annotations

import json

from click.testing import CliRunner

from dominohall.cli.main import main


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


def test_bench_server_refuses_several_workers_without_redis() -> None:
    result = CliRunner().invoke(main, ["bench", "server", "--workers", "2"])
    assert result.exit_code == 2 and "--redis-url" in result.output
