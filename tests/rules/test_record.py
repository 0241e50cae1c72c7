"""The game record: reading, writing, checking (DESIGN.md, "The game record")."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from dominohall.cli.main import main
from dominohall.rules import PRESETS, Game
from dominohall.rules.record import (
    RecordFormatError,
    check_record,
    dumps,
    loads,
    parse_record,
    record_of,
    replay,
)

DESIGN_EXAMPLE: dict[str, Any] = {
    "format": "dominohall-record/1",
    "preset": "draw",
    "target": 50,
    "players": ["Ann", "Bob"],
    "hands": [
        {
            "dealt": [
                ["6-6", "5-5", "3-3", "5-1", "3-2", "1-0", "2-0"],
                ["6-4", "5-4", "4-4", "6-1", "2-2", "3-1", "6-0"],
            ],
            "boneyard": ["5-0", "4-2", "0-0", "1-1", "2-1", "3-0", "4-0",
                         "4-1", "4-3", "5-2", "5-3", "6-2", "6-3", "6-5"],
            "leader": 0,
            "moves": [
                {"seat": 0, "play": "6-6"},
                {"seat": 1, "play": "6-4", "arm": 1},
                {"seat": 0, "draw": "5-0"},
                {"seat": 0, "draw": "4-2"},
                {"seat": 0, "play": "4-2", "arm": 1},
            ],
        }
    ],
}  # fmt: skip


def random_game(preset: str, players: int, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game(preset, players, rng=rng)
    while not game.finished:
        hand = game.start_hand()
        while not hand.over:
            hand.push(rng.choice(hand.legal_moves()))
        game.end_hand()
        assert len(game.hands) < 300
    return game


def names(n: int) -> list[str]:
    return [f"P{i}" for i in range(n)]


def run_check(tmp_path: Path, record: object) -> tuple[int, dict[str, Any]]:
    path = tmp_path / "game.json"
    path.write_text(record if isinstance(record, str) else json.dumps(record))
    result = CliRunner().invoke(main, ["record", "check", str(path), "--json"])
    return result.exit_code, json.loads(result.output)


def test_design_example_is_a_legal_partial_record() -> None:
    report = check_record(DESIGN_EXAMPLE)
    assert report == {
        "ok": True,
        "preset": "draw",
        "scores": [0, 0],
        "finished": False,
        "winner": None,
        "hands": [{"winner": None, "blocked": False, "bonus": 0, "points": [0, 0]}],
    }


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_game_of_every_preset_round_trips_and_checks(preset: str) -> None:
    players = PRESETS[preset].players[0]
    game = random_game(preset, players, seed=11)
    record = record_of(game, names(players))
    report = check_record(loads(dumps(record)))
    assert report["ok"] and report["finished"]
    assert report["winner"] == game.winner
    assert report["scores"] == game.seat_scores()
    assert len(report["hands"]) == len(game.hands)


@settings(max_examples=25, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    seed=st.integers(0, 10_000),
    data=st.data(),
)
def test_write_read_check_round_trips(preset: str, seed: int, data: st.DataObject) -> None:
    players = data.draw(st.sampled_from(PRESETS[preset].players))
    game = random_game(preset, players, seed)
    record = record_of(game, names(players))
    again = replay(parse_record(loads(dumps(record))))
    assert record_of(again, names(players)) == record
    assert again.seat_scores() == game.seat_scores()
    assert again.winner == game.winner


def test_record_stopped_mid_game_reports_state_so_far() -> None:
    game = random_game("muggins", 3, seed=5)
    record = record_of(game, names(3))
    record["hands"][0]["moves"] = record["hands"][0]["moves"][:14]
    del record["hands"][1:]
    report = check_record(record)
    # The points so far, from the engine: its first hand taken back to the same move.
    first = game.hands[0]
    while len(first.history) > 14:
        first.pop()
    assert any(first.points)  # plays have scored by then
    assert report["ok"] and not report["finished"] and report["winner"] is None
    assert report["hands"] == [
        {"winner": None, "blocked": False, "bonus": 0, "points": first.points}
    ]


def test_result_and_takeovers_are_reported_as_given() -> None:
    record = copy.deepcopy(DESIGN_EXAMPLE)
    record["result"] = {"reason": "forfeit", "winner": 1, "placed_last": [0]}
    record["takeovers"] = [{"seat": 0, "hand": 0, "move": 2, "bot": "normal"}]
    report = check_record(record)
    assert report["result"] == record["result"]
    assert report["takeovers"] == record["takeovers"]
    assert report["finished"] is False  # judged by the rules alone


def test_a_resignation_s_fields_are_reported_as_given() -> None:
    """docs/record.md: ``resigned`` and ``agreed`` in the result, ``out`` in a takeover; the
    format stays dominohall-record/1 (a record without them reads as before, above)."""
    record = copy.deepcopy(DESIGN_EXAMPLE)
    record["result"] = {"reason": "forfeit", "winner": 0, "placed_last": [1], "resigned": 1}
    record["takeovers"] = [{"seat": 1, "hand": 0, "move": 2, "bot": "normal", "out": "resigned"}]
    assert record["format"] == "dominohall-record/1"
    report = check_record(loads(dumps(record)))
    assert report["ok"] and report["result"] == record["result"]
    assert report["takeovers"] == record["takeovers"]


# Exit status 2: not a record at all -----------------------------------------------------------


def _broken(change: str) -> object:
    record: Any = copy.deepcopy(DESIGN_EXAMPLE)
    hand = record["hands"][0]
    if change == "no format":
        del record["format"]
    elif change == "unknown format":
        record["format"] = "dominohall-record/9"
    elif change == "unknown preset":
        record["preset"] = "chess"
    elif change == "five players":
        record["players"] = ["a", "b", "c", "d", "e"]
    elif change == "target not allowed":
        record["target"] = 60
    elif change == "no boneyard":
        del hand["boneyard"]
    elif change == "tile twice":
        hand["boneyard"][0] = "6-6"
    elif change == "wrong hand size":
        hand["boneyard"].append(hand["dealt"][0].pop())
    elif change == "not a tile":
        hand["dealt"][0][0] = "7-1"
    elif change == "two kinds":
        hand["moves"][1] = {"seat": 1, "play": "6-4", "arm": 1, "pass": True}
    elif change == "no kind":
        hand["moves"][1] = {"seat": 1}
    elif change == "seat out of range":
        hand["moves"][1]["seat"] = 2
    elif change == "arm not integer":
        hand["moves"][1]["arm"] = "1"
    elif change == "pass not true":
        hand["moves"].append({"seat": 1, "pass": 1})
    elif change == "bad tile in move":
        hand["moves"][1]["play"] = "64"
    elif change == "missing lot leader":
        record["preset"] = "muggins"
        record["target"] = 100
        del hand["leader"]
    return record


@pytest.mark.parametrize(
    "change",
    [
        "no format",
        "unknown format",
        "unknown preset",
        "five players",
        "target not allowed",
        "no boneyard",
        "tile twice",
        "wrong hand size",
        "not a tile",
        "two kinds",
        "no kind",
        "seat out of range",
        "arm not integer",
        "pass not true",
        "bad tile in move",
        "missing lot leader",
    ],
)
def test_not_a_record_exits_2_with_an_error(tmp_path: Path, change: str) -> None:
    code, out = run_check(tmp_path, _broken(change))
    assert code == 2
    assert out["ok"] is False and out["error"]
    assert set(out) == {"ok", "error"}


def test_bad_json_exits_2(tmp_path: Path) -> None:
    code, out = run_check(tmp_path, '{"format": ')
    assert code == 2 and "JSON" in out["error"]


def test_missing_target_means_the_default() -> None:
    record = copy.deepcopy(DESIGN_EXAMPLE)
    del record["target"]
    assert check_record(record)["ok"]


def test_shape_is_checked_before_any_move_is_replayed(tmp_path: Path) -> None:
    record: Any = copy.deepcopy(DESIGN_EXAMPLE)
    record["hands"][0]["moves"][1]["seat"] = 0  # illegal: wrong seat
    record["hands"].append(copy.deepcopy(record["hands"][0]))
    record["hands"][1]["moves"][0] = {"seat": 0, "play": "9-9"}  # malformed
    code, _ = run_check(tmp_path, record)
    assert code == 2


# Exit status 1: an illegal move ------------------------------------------------------------


def _illegal(change: str) -> tuple[object, int, int]:
    record: Any = copy.deepcopy(DESIGN_EXAMPLE)
    moves = record["hands"][0]["moves"]
    if change == "wrong seat":
        moves[1]["seat"] = 0
        return record, 0, 1
    if change == "play without arm":
        del moves[1]["arm"]
        return record, 0, 1
    if change == "arm on the lead":
        moves[0]["arm"] = 0
        return record, 0, 0
    if change == "arm not open":
        moves[1]["arm"] = 2
        return record, 0, 1
    if change == "does not fit":
        moves[4]["arm"] = 0
        return record, 0, 4
    if change == "draw names another tile":
        moves[2]["draw"] = "4-2"
        return record, 0, 2
    if change == "draw while able":
        moves.insert(1, {"seat": 1, "draw": "5-0"})
        return record, 0, 1
    if change == "pass while able":
        moves[1] = {"seat": 1, "pass": True}
        return record, 0, 1
    if change == "must play the drawn tile":
        moves[4] = {"seat": 0, "draw": "0-0"}
        return record, 0, 4
    if change == "tile not in hand":
        moves[1]["play"] = "6-5"
        return record, 0, 1
    if change == "must lead highest double":
        moves[0]["play"] = "5-5"
        return record, 0, 0
    if change == "wrong leader":
        record["hands"][0]["leader"] = 1
        return record, 0, 0
    if change == "hand after unfinished hand":
        record["hands"].append(copy.deepcopy(record["hands"][0]))
        return record, 0, 5
    raise AssertionError(change)


@pytest.mark.parametrize(
    "change",
    [
        "wrong seat",
        "play without arm",
        "arm on the lead",
        "arm not open",
        "does not fit",
        "draw names another tile",
        "draw while able",
        "pass while able",
        "must play the drawn tile",
        "tile not in hand",
        "must lead highest double",
        "wrong leader",
        "hand after unfinished hand",
    ],
)
def test_illegal_move_exits_1_with_its_place(tmp_path: Path, change: str) -> None:
    record, hand, move = _illegal(change)
    code, out = run_check(tmp_path, record)
    assert code == 1
    assert out["ok"] is False
    assert (out["hand"], out["move"]) == (hand, move)
    assert out["error"]


def test_move_after_the_game_ended_is_illegal(tmp_path: Path) -> None:
    game = random_game("draw", 2, seed=3)
    record = record_of(game, names(2))
    last = record["hands"][-1]
    n = len(last["moves"])
    last["moves"].append({"seat": 0, "pass": True})
    code, out = run_check(tmp_path, record)
    assert code == 1 and (out["hand"], out["move"]) == (len(record["hands"]) - 1, n)


def test_hand_after_the_game_is_over_is_reported_at_move_0(tmp_path: Path) -> None:
    game = random_game("draw", 2, seed=3)
    record = record_of(game, names(2))
    record["hands"].append(copy.deepcopy(record["hands"][-1]))
    code, out = run_check(tmp_path, record)
    assert code == 1 and (out["hand"], out["move"]) == (len(record["hands"]) - 1, 0)


def test_partnership_reports_team_scores_per_seat() -> None:
    game = random_game("partnership", 4, seed=8)
    report = check_record(record_of(game, names(4)))
    scores = report["scores"]
    assert scores[0] == scores[2] and scores[1] == scores[3]
    assert report["winner"] in (0, 1)
    for hand in report["hands"]:
        assert hand["points"][0] == hand["points"][2]


def test_parse_record_names_what_is_wrong() -> None:
    with pytest.raises(RecordFormatError, match="boneyard"):
        parse_record(_broken("no boneyard"))


def test_record_cli_random_and_show(tmp_path: Path) -> None:
    runner = CliRunner()
    made = runner.invoke(main, ["record", "random", "--preset", "five-up", "--seed", "4"])
    assert made.exit_code == 0
    path = tmp_path / "five-up.json"
    path.write_text(made.output)
    checked = runner.invoke(main, ["record", "check", str(path)])
    assert checked.exit_code == 0 and "legal five-up record" in checked.output
    shown = runner.invoke(main, ["record", "show", str(path)])
    assert shown.exit_code == 0
    assert "Hand 1" in shown.output and "lead [" in shown.output


def test_presets_cli_lists_all_twelve() -> None:
    out = CliRunner().invoke(main, ["presets", "--json"])
    assert out.exit_code == 0
    data = json.loads(out.output)
    assert [p["id"] for p in data] == list(PRESETS)
    assert {p["id"]: p["default_target"] for p in data}["cross-fives-threes"] == 61


def test_documented_example_is_a_finished_legal_game() -> None:
    path = Path(__file__).parents[2] / "docs" / "examples" / "block-full-game.json"
    report = check_record(loads(path.read_text()))
    assert report["ok"] and report["finished"] and report["winner"] == 1
    assert report["scores"] == [4, 61]


def test_record_show_stops_at_an_illegal_move_and_says_where(tmp_path: Path) -> None:
    record, hand, move = _illegal("wrong leader")
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    shown = CliRunner().invoke(main, ["record", "show", str(path)])
    assert shown.exit_code == 1
    assert f"hand {hand}, move {move}: seat 1 may not open this hand" in shown.output
