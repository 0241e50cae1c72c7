"""The options of RULES.md 2 and the twelve presets of RULES.md 3, checked against the tables."""

from __future__ import annotations

import pytest

from dominohall.rules import PRESET_LIST, PRESETS, ConfigError, Game, get_preset

# RULES.md 3, row by row: drawing, layout, count, count_value, first_lead, next_lead, bonus,
# game_end, targets, default target. A preset with count `none` has no count value in the table;
# the engine keeps `full` there, which changes nothing.
TABLE = {
    "draw": ("until_fits", "line", "none", None, "highest_double", "after_opener", "others",
             "hand_end", (50, 100, 200), 50),
    "block": ("none", "line", "none", None, "highest_double", "after_opener", "others",
              "hand_end", (50, 100, 200), 50),
    "all-fives": ("until_fits", "line", "fives", "full", "highest_double", "after_opener",
                  "others_r5", "immediate", (50, 100, 200), 50),
    "spinner-fives": ("until_fits", "first_double_spinner", "fives", "full", "lot", "lot",
                      "all_units", "hand_end_highest", (100, 150, 200), 100),
    "muggins": ("until_fits", "line", "fives", "full", "lot", "lot", "all_units",
                "hand_end_highest", (100, 150, 200), 100),
    "five-up": ("until_fits", "all_doubles_spinners", "fives", "full", "lot", "lot", "all_units",
                "hand_end_highest", (100, 150, 200), 100),
    "cross-fives": ("until_fits", "first_double_spinner", "fives", "units", "random",
                    "random_among_tied", "net_units", "hand_end_highest", (30, 60, 90), 30),
    "cross-threes": ("until_fits", "first_double_spinner", "threes", "units", "random",
                     "random_among_tied", "net_units", "hand_end_highest", (50, 100, 150), 50),
    "cross-fives-threes": ("until_fits", "first_double_spinner", "fives_threes", "units",
                           "random", "random_among_tied", "net_units", "exact", (61,), 61),
    "cross-bergen": ("until_fits", "first_double_spinner", "headers", None, "random",
                     "random_among_tied", "net_units", "hand_end_highest", (100, 200), 100),
    "cross-draw": ("until_fits", "first_double_spinner", "none", None, "random",
                   "random_among_tied", "net_penalty", "hand_end_highest", (50,), 50),
    "partnership": ("none", "line", "none", None, "holder_6_6", "after_opener", "team",
                    "hand_end", (100, 200), 100),
}  # fmt: skip


def test_presets_are_the_twelve_of_the_rules_with_exactly_those_ids() -> None:
    assert [p.id for p in PRESET_LIST] == list(TABLE)
    assert set(PRESETS) == set(TABLE)


@pytest.mark.parametrize("preset_id", list(TABLE))
def test_preset_options_match_the_rules_table(preset_id: str) -> None:
    drawing, layout, count, value, first, next_, bonus, end, targets, default = TABLE[preset_id]
    p = PRESETS[preset_id]
    assert p.drawing.value == drawing
    assert p.layout.value == layout
    assert p.count.value == count
    if value is not None:
        assert p.count_value.value == value
    assert p.first_lead.value == first
    assert p.next_lead.value == next_
    assert p.bonus.value == bonus
    assert p.game_end.value == end
    assert p.targets == targets
    assert p.default_target == default
    assert p.as_dict()["id"] == preset_id


@pytest.mark.parametrize("preset_id", list(TABLE))
def test_reserve_is_zero_in_all_presets(preset_id: str) -> None:
    assert PRESETS[preset_id].reserve == 0


def test_only_cross_draw_has_the_minus_25_floor() -> None:
    assert {p.id: p.floor for p in PRESET_LIST if p.floor is not None} == {"cross-draw": -25}


@pytest.mark.parametrize("preset_id", [p for p in TABLE if p != "partnership"])
def test_hand_size_7_each_with_2_players_5_each_with_3_or_4(preset_id: str) -> None:
    p = PRESETS[preset_id]
    assert p.players == (2, 3, 4)
    assert [p.hand_size(n) for n in (2, 3, 4)] == [7, 5, 5]
    assert not p.teams


def test_partnership_is_4_players_7_tiles_each_in_teams_0_2_and_1_3() -> None:
    p = PRESETS["partnership"]
    assert p.players == (4,)
    assert p.hand_size(4) == 7
    assert [p.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert p.as_dict()["teams"] == [[0, 2], [1, 3]]
    with pytest.raises(ConfigError, match="4"):
        Game("partnership", 2)


@pytest.mark.parametrize("players", [1, 5])
def test_two_three_or_four_players(players: int) -> None:
    with pytest.raises(ConfigError):
        Game("draw", players)


def test_a_table_may_pick_only_a_listed_target() -> None:
    assert Game("muggins", 2, target=150).target == 150
    assert Game("muggins", 2).target == 100
    with pytest.raises(ConfigError, match="100, 150, 200"):
        Game("muggins", 2, target=120)
    with pytest.raises(ConfigError):
        Game("cross-fives-threes", 2, target=60)


def test_unknown_preset_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="unknown preset"):
        get_preset("dominoes")
