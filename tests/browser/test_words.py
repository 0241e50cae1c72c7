"""What the page says in words: the open ends a pass was made on, and how a bonus was counted."""

from __future__ import annotations

from typing import Any

import pytest

from .chains import open_numbers_by_play, random_chain

KINDS = {"draw": "line", "spinner-fives": "first_double_spinner", "five-up": "all_doubles_spinners"}


OPEN_NUMBERS = """async ([chain, kind]) => {
  const { openNumbersAfter } = await import('/static/js/handlog.js');
  return openNumbersAfter(chain, kind);
}"""


@pytest.mark.parametrize("preset", list(KINDS))
def test_the_log_knows_the_open_ends_as_the_engine_does(page: Any, preset: str) -> None:
    for seed in range(15):
        for players in (2, 4):
            chain = random_chain(preset, seed, players)
            ours = page.evaluate(OPEN_NUMBERS, [chain, KINDS[preset]])
            engine = open_numbers_by_play(preset, seed, players)
            assert [sorted(x) for x in ours] == [sorted(x) for x in engine]


BONUS = """async ([result, teams]) => {
  const { explainBonus } = await import('/static/js/handend.js');
  return explainBonus(result, (s) => ['Ann', 'Bob', 'Cy', 'Di'][s], teams);
}"""


def result(rule: str, winner: int | None, pips: list[int]) -> dict[str, Any]:
    return {"winner": winner, "bonus_rule": rule, "pips": pips, "bonus": 0}


@pytest.mark.parametrize(
    ("rule", "pips", "words", "value"),
    [
        ("others", [0, 12, 7], "Bob (12) + Cy (7) = 19.", 19),
        ("others_r5", [0, 12, 7], "= 19, to the nearest five: 20.", 20),
        ("others_r5", [0, 12, 10], "= 22, to the nearest five: 20.", 20),
        ("all_units", [3, 12, 7], "= 22, to the nearest five 20, divided by 5: 4.", 4),
        ("net_units", [3, 12, 7], "19 − own 3 = 16, to the nearest five 15, divided by 5: 3.", 3),
    ],
)
def test_how_a_bonus_was_counted(
    page: Any, rule: str, pips: list[int], words: str, value: int
) -> None:
    text, counted = page.evaluate(BONUS, [result(rule, 0, pips), False])
    assert text.endswith(words)
    assert counted == value


def test_a_team_scores_the_other_teams_pips(page: Any) -> None:
    text, counted = page.evaluate(BONUS, [result("team", 2, [5, 9, 0, 4]), True])
    assert text == "the other team's pips: Bob (9) + Di (4) = 13."
    assert counted == 13


def test_no_winner_no_bonus(page: Any) -> None:
    assert page.evaluate(BONUS, [result("others", None, [5, 5]), False]) == ["", 0]
