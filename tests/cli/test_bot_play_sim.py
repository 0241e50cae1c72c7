"""The sim, bot and play commands, driven through click's test runner."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

import dominohall.cli.bot as cli_bot
from dominohall.bots.hard import HardBot
from dominohall.bots.match import series_game, wilson
from dominohall.cli.bot import bot
from dominohall.cli.play import play
from dominohall.cli.sim import sim
from dominohall.rules import Game, Move, View
from dominohall.rules.record import parse_record, record_of, replay


def run_sim(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(sim, [*args, "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert isinstance(report, dict)
    return report


def test_sim_reports_each_bot_with_an_interval() -> None:
    report = run_sim("--preset", "block", "--bots", "normal,easy", "--games", "12", "--seed", "3")
    assert report["games"] == 12
    bots = report["bots"]
    assert isinstance(bots, list)
    assert [b["name"] for b in bots] == ["normal", "easy"]
    for b in bots:
        assert set(b) == {
            "name",
            "wins",
            "win_rate",
            "ci95",
            "points_per_hand",
            "decision_mean_s",
            "decision_p95_s",
        }
        low, high = b["ci95"]
        assert low <= b["win_rate"] <= high
        assert b["win_rate"] == b["wins"] / 12
        assert b["decision_mean_s"] > 0 and b["decision_p95_s"] > 0
    assert bots[0]["wins"] + bots[1]["wins"] <= 12


def test_sim_is_the_same_with_the_same_seed_and_any_number_of_workers() -> None:
    args = ("--preset", "all-fives", "--bots", "hard,normal", "--games", "4", "--seed", "8")
    one = run_sim(*args)
    two = run_sim(*args, "--workers", "2")
    for key in ("wins", "points_per_hand"):
        assert [b[key] for b in bots_of(one)] == [b[key] for b in bots_of(two)]


def test_a_series_run_in_parts_adds_up_to_the_whole():
    args = ("--preset", "draw", "--bots", "easy,normal", "--seed", "3")
    whole = run_sim(*args, "--games", "6")
    parts = [run_sim(*args, "--games", "2", "--first-game", str(g)) for g in (0, 2, 4)]
    assert [p["first_game"] for p in parts] == [0, 2, 4]
    for b, name in enumerate(["easy", "normal"]):
        assert bots_of(whole)[b]["name"] == name
        assert bots_of(whole)[b]["wins"] == sum(bots_of(p)[b]["wins"] for p in parts)


def bots_of(report: dict[str, object]) -> list[dict[str, object]]:
    bots = report["bots"]
    assert isinstance(bots, list)
    return bots


def test_sim_rotates_seats_over_the_same_deal() -> None:
    # (Easy against Normal: which bots sit where is the question, not how they play.)
    first = series_game("draw", ["easy", "normal"], 5, 0)
    second = series_game("draw", ["easy", "normal"], 5, 1)
    assert first.seats == ["easy", "normal"] and second.seats == ["normal", "easy"]
    pair = series_game("partnership", ["easy", "normal"], 5, 1)
    assert pair.seats == ["normal", "easy", "normal", "easy"]


def test_sim_refuses_unknown_bots_and_wrong_player_counts() -> None:
    runner = CliRunner()
    assert runner.invoke(sim, ["--bots", "hard,genius"]).exit_code == 2
    result = runner.invoke(sim, ["--preset", "partnership", "--bots", "hard,normal,easy"])
    assert result.exit_code == 2
    assert "partnership is played by 4 players" in result.output


def test_wilson_interval() -> None:
    low, high = wilson(600, 1000)
    assert round(low, 3) == 0.569 and round(high, 3) == 0.630
    assert wilson(0, 0) == (0.0, 1.0)


def position(preset: str, seed: int, moves: int) -> tuple[dict[str, object], int]:
    game = Game(preset, 2, rng=random.Random(seed))
    hand = game.start_hand()
    rng = random.Random(seed)
    for _ in range(moves):
        hand.push(rng.choice(hand.legal_moves()))
    record = record_of(game, ["a", "b"])
    return {**record, "seat": hand.turn}, hand.turn


def test_bot_answers_each_line_with_a_legal_move_or_an_error() -> None:
    lines = []
    for seed in range(6):
        obj, _ = position("all-fives" if seed % 2 else "draw", seed, 4 + seed)
        lines.append(json.dumps(obj))
    lines.insert(2, "{not json")
    lines.insert(4, json.dumps({"format": "dominohall-record/1", "seat": 0}))
    result = CliRunner().invoke(bot, ["--bot", "hard", "--seed", "1"], input="\n".join(lines))
    assert result.exit_code == 0
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers) == len(lines)
    assert "not JSON" in answers[2]["error"]
    assert "preset" in answers[4]["error"]
    assert [i for i, reply in enumerate(answers) if "error" in reply] == [2, 4]
    for line, reply in zip(lines, answers, strict=True):
        if "error" in reply:
            continue  # the two bad lines, checked above
        obj = json.loads(line)
        hand = replay(parse_record({k: v for k, v in obj.items() if k != "seat"})).hand
        assert hand is not None and reply["seat"] == hand.turn
        move = Move.parse(reply, draw_tile_required=False)
        assert move in hand.legal_moves()


def tile_names(text: str) -> list[str]:
    return text.split(" ")


def test_bot_says_draw_without_naming_the_tile_and_refuses_the_wrong_seat() -> None:
    # Draw: seat 0 leads 6-6 and seat 1 holds no six, so it must draw.
    dealt = [tile_names("6-6 1-1 4-0 5-5 3-3 2-0 1-0"), tile_names("2-1 5-0 3-1 4-2 4-3 5-2 5-4")]
    boneyard = tile_names("3-2 6-2 6-5 4-4 0-0 6-1 2-2 6-0 6-3 6-4 5-1 3-0 5-3 4-1")
    record = {
        "format": "dominohall-record/1",
        "preset": "draw",
        "players": ["a", "b"],
        "hands": [
            {
                "dealt": dealt,
                "boneyard": boneyard,
                "moves": [{"seat": 0, "play": "6-6"}],
            }
        ],
    }
    lines = [json.dumps({**record, "seat": 1}), json.dumps({**record, "seat": 0})]
    result = CliRunner().invoke(bot, ["--bot", "normal"], input="\n".join(lines) + "\n")
    first, second = (json.loads(x) for x in result.stdout.splitlines())
    assert first == {"seat": 1, "draw": True}
    assert second == {"error": "it is seat 1's turn, not seat 0's"}


def test_play_runs_a_whole_game_in_the_terminal() -> None:
    result = CliRunner().invoke(
        play, ["--preset", "all-fives", "--opponents", "normal", "--seed", "2"], input="1\n" * 500
    )
    assert result.exit_code == 0, result.output
    assert "Your tiles:" in result.output
    assert "The game is over" in result.output


def test_play_in_partnership_seats_three_bots() -> None:
    result = CliRunner().invoke(
        play, ["--preset", "partnership", "--opponents", "easy", "--seed", "1"], input="1\n" * 600
    )
    assert result.exit_code == 0, result.output
    assert "Seat 3 (easy)" in result.output and "team" in result.output


def test_bot_hands_hard_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[HardBot] = []

    class Recorded(HardBot):
        def choose(self, view: View) -> Move:
            made.append(self)
            return super().choose(view)

    monkeypatch.setattr(cli_bot, "HardBot", Recorded)
    obj, seat = position("draw", 3, 6)
    result = CliRunner().invoke(bot, ["--budget", "0.05", "--seed", "2"], input=json.dumps(obj))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["seat"] == seat
    assert [(b.budget, b.time_cap) for b in made] == [(0.05, 0.1)]
    refused = CliRunner().invoke(bot, ["--budget", "0"], input=json.dumps(obj))
    assert refused.exit_code != 0 and "--budget" in refused.output
