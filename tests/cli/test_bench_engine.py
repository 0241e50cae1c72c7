"""``dominohall bench engine`` prints its figures (it asserts nothing about speed)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from dominohall.cli.main import main


def test_bench_engine_json_reports_hands_and_moves_per_second() -> None:
    result = CliRunner().invoke(
        main,
        [
            "bench",
            "engine",
            "--preset",
            "partnership",
            "--players",
            "4",
            "--seconds",
            "0.2",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["hands"] > 0 and figures["moves"] >= figures["hands"] * 4
    assert figures["hands_per_s"] > 0 and figures["moves_per_s"] > figures["hands_per_s"]


def test_bench_engine_rejects_a_player_count_the_preset_does_not_allow() -> None:
    result = CliRunner().invoke(
        main, ["bench", "engine", "--preset", "partnership", "--players", "2"]
    )
    assert result.exit_code != 0
    assert "partnership is played by 4 players, not 2" in result.output
