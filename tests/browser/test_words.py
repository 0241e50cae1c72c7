"""What the page says in words: the open ends a pass was made on, and how a bonus was counted."""

from __future__ import annotations

from typing import Any

import pytest

LOG = """async ([log, chain]) => {
  const { logLines } = await import('/static/js/handlog.js');
  return logLines(log, chain, (s) => ['Ann', 'Bob'][s], 0).map((l) => l.text);
}"""


def test_the_log_says_the_numbers_the_hall_sent(page: Any) -> None:
    """A pass names the open numbers its event carries; a play the half it was laid on."""
    chain = [{"a": 6, "b": 4, "arm": None, "match": 6}, {"a": 4, "b": 2, "arm": 1, "match": 4}]
    log = [
        {"version": 3, "kind": "move", "seat": 0, "play": "6-4", "scored": 10},
        {"version": 4, "kind": "move", "seat": 1, "play": "4-2", "arm": 1, "scored": 0},
        {"version": 5, "kind": "move", "seat": 0, "pass": True, "open": [2, 6]},
    ]
    assert page.evaluate(LOG, [log, chain]) == [
        "You lead 6-4, scores 10.",
        "Bob plays 4-2 on a 4.",
        "You pass on 2 and 6.",
    ]


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
