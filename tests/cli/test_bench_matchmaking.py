"""``dominohall bench matchmaking`` prints its figures (it asserts nothing about speed)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from dominohall.cli.main import main


def test_bench_matchmaking_json_reports_waits_and_gaps() -> None:
    args = ["bench", "matchmaking", "--seekers", "80", "--seconds", "5", "--json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    # Everyone is seated but a few left over in a pool too small to fill a game.
    assert figures["seekers"] - 12 <= figures["seated"] <= figures["seekers"]
    assert figures["games"] >= figures["seated"] // 4
    assert 0 <= figures["wait_p50_s"] <= figures["wait_p99_s"]
    assert figures["mean_rating_gap"] >= 0
