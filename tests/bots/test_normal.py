"""Normal: heaviest tile first, most points first where plays score, and a sensible arm."""

from __future__ import annotations

from dominohall.bots.normal import NormalBot
from dominohall.rules import PRESETS, Hand, Move, parse_tile


def t(text: str) -> list[int]:
    return [parse_tile(x) for x in text.split()]


def test_normal_sheds_its_heaviest_tile() -> None:
    hand = Hand(PRESETS["block"], [t("6-4 5-4 4-1"), t("4-4 2-2")], [], leader=1)
    hand.push(Move.lead("4-4"))
    assert NormalBot().choose(hand.view(0)) == Move.play("6-4", arm=0)


def test_normal_takes_the_most_points_before_the_heaviest_tile() -> None:
    # All Fives: ends 4 and 1 after the 4-1 lead; 6-1 on the 1 end counts 10, 6-4 counts nothing.
    hand = Hand(
        PRESETS["all-fives"],
        [t("6-4 6-1 2-2"), t("4-1 3-3")],
        t("0-0"),
        leader=1,
    )
    hand.push(Move.lead("4-1"))
    assert NormalBot().choose(hand.view(0)) == Move.play("6-1", arm=1)


def test_normal_plays_where_the_next_seat_has_shown_it_has_nothing() -> None:
    # Block: seat 1 passes on 3|3. Later the ends are 3 and 6 and Normal's heaviest tile, 6-3,
    # fits both: on the 6 end it leaves 3|3, where seat 1 cannot play.
    hand = Hand(PRESETS["block"], [t("3-3 3-0 6-3 1-0 2-1"), t("6-0 5-5 4-4 2-2")], [], leader=0)
    hand.push(Move.lead("3-3"))
    hand.push(Move.pass_())
    hand.push(Move.play("3-0", arm=1))
    hand.push(Move.play("6-0", arm=1))
    view = hand.view(0)
    assert view.layout.open_numbers() == [3, 6]
    assert NormalBot().choose(view) == Move.play("6-3", arm=1)
