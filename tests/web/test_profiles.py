"""A profile's numbers: all games together and per game, rates rounded, none where nothing was
played yet."""

from __future__ import annotations

from dominohall.rules import get_preset
from dominohall.store.history import PresetStats
from dominohall.web.profiles import stats_json


def stats(preset: str, games: int, won: int, lost: int, hands: int, points: int) -> PresetStats:
    return PresetStats(
        preset, games, won, lost, hands, points, hands_out=hands // 2, hands_block=1, timeouts=2
    )


def test_the_totals_add_up_every_game_and_each_game_keeps_its_own_numbers():
    numbers = stats_json([stats("draw", 3, 2, 1, 9, 100), stats("muggins", 4, 1, 2, 7, 45)])
    assert {k: numbers[k] for k in ("games", "won", "lost", "hands_won_out", "timeouts")} == {
        "games": 7,
        "won": 3,
        "lost": 3,
        "hands_won_out": 4 + 3,
        "timeouts": 4,
    }
    assert numbers["hands_won_block"] == 2
    assert numbers["win_rate"] == round(3 / 7, 3)
    draw, muggins = numbers["presets"]
    assert draw["preset"] == "draw" and draw["preset_name"] == get_preset("draw").name
    assert muggins["preset_name"] == get_preset("muggins").name
    assert (draw["games"], draw["won"], draw["win_rate"]) == (3, 2, round(2 / 3, 3))
    assert (muggins["hands"], muggins["points"]) == (7, 45)
    assert muggins["points_per_hand"] == round(45 / 7, 2)


def test_a_player_with_no_games_has_no_rates_only_zeros():
    assert stats_json([]) == {
        "games": 0,
        "won": 0,
        "lost": 0,
        "win_rate": None,
        "finished": 0,
        "finished_share": None,
        "hands_won_out": 0,
        "hands_won_block": 0,
        "timeouts": 0,
        "presets": [],
    }
    [draw] = stats_json([stats("draw", 0, 0, 0, 0, 0)])["presets"]
    assert draw["win_rate"] is None and draw["points_per_hand"] is None


def test_the_share_of_games_finished_leaves_out_those_walked_away_from():
    walked = PresetStats("draw", 4, 1, 2, 9, 40, 1, 1, 0, walked_out=1)
    numbers = stats_json([walked, stats("muggins", 4, 1, 2, 7, 45)])
    assert (numbers["finished"], numbers["finished_share"]) == (7, round(7 / 8, 3))
    draw, muggins = numbers["presets"]
    assert (draw["finished"], draw["finished_share"]) == (3, 0.75)
    assert muggins["finished_share"] == 1.0
