"""What the page says in words: the open ends a pass was made on, and how a bonus was counted."""

from __future__ import annotations

from typing import Any

import pytest

from dominohall.hall.event_view import hand_result_json
from dominohall.hall.table.happened import hand_result
from rules.deals import make_hand, play

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


# The hand-end dialog drawn in the page from a result the hall made (hand_result_json): its title
# and the paragraph of why and how much, as a player reads them.
HAND_END = """async ([result, teams]) => {
  const { h, render } = await import('preact');
  const { HandEnd } = await import('/static/js/handend.js');
  const names = ['Ann', 'Bob', 'Cy', 'Di'];
  const seats = result.pips.map((_, s) => ({seat: s, score: 0, team: teams ? s % 2 : null}));
  const state = {hand: {number: 0, result}, next_hand: null, you: {seat: null}, seats};
  const box = document.createElement('div');
  document.body.append(box);
  render(h(HandEnd, {state, nameOf: (s) => names[s], receivedAt: 0, teams}), box);
  await new Promise((r) => setTimeout(r, 0));
  const words = [box.querySelector('h2').innerText, box.querySelector('.dialog p').innerText];
  render(null, box);
  box.remove();
  return words.map((w) => w.replace(/\\s+/g, ' ').trim());
}"""


def hand_end_words(page: Any, preset: str, holdings: list[str], moves: str, **kw: Any) -> list[str]:
    hand = make_hand(preset, holdings, **kw)
    play(hand, *moves.split())
    result = hand_result_json(hand_result(hand))
    return page.evaluate(HAND_END, [result, preset == "partnership"])  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("preset", "holdings", "moves", "kw", "title", "words"),
    [
        # Issue 21: 3, 4, 3 and 2 pips left: the two teams tie at 6, not "two or more players".
        ("partnership", ["6-6 2-1", "3-1", "3-0", "1-1"], "6-6 pass pass pass pass", {},
         "Hand 1: Blocked: no winner",
         "The two teams tie at 6 pips each (Ann 3 + Cy 3, Bob 4 + Di 2), so nobody scores the "
         "bonus."),
        ("partnership", ["6-6 2-1", "3-1", "2-0", "4-1"], "6-6 pass pass pass pass", {},
         "Hand 1: Cy wins the blocked hand",
         "Ann and Cy hold fewer pips: 5 (Ann 3 + Cy 2) against 9 (Bob 4 + Di 5). Bonus: 9 — the "
         "other team's pips: Bob (4) + Di (5) = 9."),
        ("partnership", ["6-6", "5-4", "3-2", "1-0"], "6-6", {},
         "Hand 1: Ann goes out",
         "Bonus: 10 — the other team's pips: Bob (9) + Di (1) = 10."),
        ("block", ["1-1 4-0", "2-2", "6-6"], "1-1 pass pass pass", {},
         "Hand 1: Blocked: no winner",
         "Ann and Bob tie for the fewest pips (4 each), so nobody scores the bonus."),
        ("all-fives", ["6-6", "5-4 3-2"], "6-6", {},
         "Hand 1: Ann goes out",
         "Bonus: 15 — the pips left in the other hands: Bob (14) = 14, to the nearest five: 15."),
        ("muggins", ["5-0 6-6", "4-2"], "5-0 pass pass", {},
         "Hand 1: Bob wins the blocked hand",
         "Bob holds the fewest pips (6). Bonus: 4 — all pips left: Ann (12) + Bob (6) = 18, to "
         "the nearest five: 20, divided by 5: 4."),
        ("cross-draw", ["1-1 3-0", "5-5 6-4", "6-6 6-5"], "1-1 pass pass pass", {},
         "Hand 1: Ann wins the blocked hand",
         "Ann holds the fewest pips (3). Bonus: 8 — opponents' pips: Bob (20) + Cy (23) = 43 − "
         "own 3 = 40, to the nearest five: 40, divided by 5: 8. Every other player loses their "
         "own pips in fives: Bob −4, Cy −5."),
        ("cross-fives-threes", ["6-6", "5-4 3-2"], "6-6", {"scores": [60, 0], "target": 61},
         "Hand 1: Ann goes out",
         "Bonus: 0 — opponents' pips: Bob (14) = 14 − own 0 = 14, to the nearest five: 15, "
         "divided by 5: 3. Not scored: it would have taken the score past the target."),
        ("all-fives", ["5-5 1-0", "6-6 6-4"], "5-5", {"scores": [45, 0], "target": 50},
         "Hand 1: The game ended mid-hand",
         "A score reached the target during the hand, which ends the game at once: nobody "
         "scores the bonus."),
    ],
)  # fmt: skip
def test_the_hand_end_words_what_the_hall_counted(
    page: Any, preset: str, holdings: list[str], moves: str, kw: Any, title: str, words: str
) -> None:
    assert hand_end_words(page, preset, holdings, moves, **kw) == [title, words]
