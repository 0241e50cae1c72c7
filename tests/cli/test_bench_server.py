"""``dominohall bench server --json`` prints its figures as one JSON object (it asserts nothing
about speed): a real ``dominohall serve`` and the echo server, each measured for a moment."""

from __future__ import annotations

import json
import subprocess

from click.testing import CliRunner

from dominohall.cli.main import main

from .test_backup import CLI


def test_bench_server_json_reports_moves_and_the_echo() -> None:
    # Run as a command, so that what the hall processes it starts print is seen too.
    args = ["bench", "server", "--tables", "2", "--seconds", "1", "--warmup", "0.5", "--json"]
    result = subprocess.run(
        [str(CLI), *args, "--clients", "1", "--rate", "20"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    # The JSON alone on standard output; the opening of each window said on standard error.
    report = json.loads(result.stdout)
    assert "measuring moves for 1 s" in result.stderr
    assert report["tables"] == 2 and report["rate"] == 20
    for part in ("moves", "echo"):
        figures = report[part]
        assert figures["count"] > 0, f"no {part} were measured"
        assert 0 < figures["p50_ms"] <= figures["p99_ms"]
    assert report["refused_moves"] == 0


def test_bench_server_refuses_several_workers_without_redis() -> None:
    result = CliRunner().invoke(main, ["bench", "server", "--workers", "2"])
    assert result.exit_code == 2 and "--redis-url" in result.output


def test_bench_server_refuses_a_socket_tier_without_a_shared_database() -> None:
    # Each process's own SQLite file would hold tables the others never find.
    args = ["bench", "server", "--socket-workers", "1", "--redis-url", "redis://127.0.0.1:6379/0"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert "--workers 1 and --socket-workers 1 needs --database-url" in result.output


def test_bench_server_refuses_a_socket_tier_without_a_game_tier() -> None:
    result = CliRunner().invoke(
        main, ["bench", "server", "--workers", "0", "--socket-workers", "1"]
    )
    assert result.exit_code == 2 and "--workers" in result.output
