"""What the live region says (js/announcer.js): each line of the log once, again only when its
words change, then the hand's end and whose turn it is when they change."""

from __future__ import annotations

from typing import Any

NEWS = """async (steps) => {
  const { newsOf } = await import('/static/js/announcer.js');
  const said = new Map(), last = { ending: '', turn: '' };
  return steps.map(([lines, ending, turn]) => newsOf(lines, ending, turn, said, last));
}"""


def line(key: int, kind: str, text: str) -> dict[str, Any]:
    return {"key": key, "kind": kind, "text": text}


def test_each_line_is_said_once_and_again_when_its_words_change(page: Any) -> None:
    lead = line(3, "play", "Bob leads 6-6.")
    draw = line(4, "draw", "You draw a tile (5-1).")
    drew = line(4, "draw", "You draw 2 tiles (5-1, 6-2).")
    out = [line(6, "play", "You play 6-2 on a 6."), line(6, "over", "You go out and score 9.")]
    steps = [
        [[lead], "", "Your turn: choose a lit tile."],
        [[lead, draw], "", "Your turn: choose a lit tile."],
        [[lead, drew], "", "Your turn: choose a lit tile."],
        [[lead, drew, *out], "Hand 1 is over. Scores: You 9, Bob 0.", ""],
        [[lead, drew, *out], "Hand 1 is over. Scores: You 9, Bob 0.", ""],
    ]
    assert page.evaluate(NEWS, steps) == [
        ["Bob leads 6-6.", "Your turn: choose a lit tile."],
        ["You draw a tile (5-1).", "Your turn: choose a lit tile."],
        ["You draw 2 tiles (5-1, 6-2).", "Your turn: choose a lit tile."],
        # One version, two lines: both are said (a play that goes out, and the hand's end).
        [
            "You play 6-2 on a 6.",
            "You go out and score 9.",
            "Hand 1 is over. Scores: You 9, Bob 0.",
        ],
        [],
    ]


def test_whose_turn_follows_each_move_even_in_the_same_words(page: Any) -> None:
    """Your move and the answer rendered at once: the turn is yours again, and said again."""
    yours, theirs = "Your turn: choose a lit tile.", "Bob to play…"
    mine, bobs = line(3, "play", "You lead 6-6."), line(4, "play", "Bob plays 6-1 on a 6.")
    steps = [
        [[], "", yours],
        [[mine, bobs], "", yours],
        [[mine, bobs], "", yours],
        [[mine, bobs], "", theirs],
    ]
    assert page.evaluate(NEWS, steps) == [
        [yours],
        ["You lead 6-6.", "Bob plays 6-1 on a 6.", yours],
        [],
        [theirs],
    ]
