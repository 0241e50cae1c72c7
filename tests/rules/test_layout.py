"""The layout: arms and their numbers, spinners, and counting the open ends (RULES.md 2)."""

from __future__ import annotations

import pytest

from dominohall.rules import Layout, parse_tile
from dominohall.rules.presets import LayoutKind

LINE = LayoutKind.LINE
FIRST = LayoutKind.FIRST_DOUBLE_SPINNER
ALL = LayoutKind.ALL_DOUBLES_SPINNERS


def laid(kind: LayoutKind, lead: str, *plays: str) -> Layout:
    """A layout after the lead (its first half facing arm 0) and plays written ``"5-0@1"``."""
    layout = Layout(kind)
    a, _ = lead.split("-")
    layout.lead(parse_tile(lead), int(a))
    for text in plays:
        tile, arm = text.split("@")
        layout.place(parse_tile(tile), int(arm))
    return layout


def ends(layout: Layout) -> dict[int, int]:
    """Open arm -> the number at its open end."""
    return {arm: layout.tips[arm] for arm in layout.open_arms}


# Arms ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", list(LayoutKind))
def test_lead_opens_arms_0_and_1_its_first_half_facing_arm_0(kind: LayoutKind) -> None:
    assert ends(laid(kind, "3-6")) == {0: 3, 1: 6}
    assert ends(laid(kind, "6-3")) == {0: 6, 1: 3}


def test_an_arm_keeps_its_number_and_goes_on_through_each_tile() -> None:
    layout = laid(LINE, "6-3", "3-1@1", "1-5@1", "6-0@0")
    assert ends(layout) == {0: 0, 1: 5}
    assert [(arm, facing) for _, arm, facing in layout.chain] == [(-1, 6), (1, 3), (1, 1), (0, 6)]


def test_line_layout_has_two_ends_and_doubles_laid_across_open_no_extra_end() -> None:
    layout = laid(LINE, "5-5", "5-0@0", "5-3@1", "3-3@1", "3-1@1")
    assert ends(layout) == {0: 0, 1: 1}


def test_spinner_takes_tiles_on_its_two_sides_before_its_ends_open() -> None:
    layout = laid(FIRST, "5-5")
    assert layout.open_arms == [0, 1]
    layout.place(parse_tile("5-0"), 0)
    assert layout.open_arms == [0, 1]  # one side covered: its ends are still closed
    layout.place(parse_tile("5-3"), 1)
    assert ends(layout) == {0: 0, 1: 3, 2: 5, 3: 5}  # both sides covered: arms 2 and 3 open


def test_spinner_that_is_not_the_lead_opens_arms_2_and_3_once_its_far_side_is_covered() -> None:
    """6-5 leads; 5-5 is played on arm 1 (one side covered); arm 1 goes on through its far side."""
    layout = laid(FIRST, "6-5", "5-5@1")
    assert ends(layout) == {0: 6, 1: 5}
    layout.place(parse_tile("5-4"), 1)
    assert ends(layout) == {0: 6, 1: 4, 2: 5, 3: 5}


def test_first_double_spinner_later_doubles_are_laid_across_with_no_extra_ends() -> None:
    layout = laid(FIRST, "5-5", "5-0@0", "5-3@1", "3-3@1", "3-1@1", "0-0@0", "0-2@0")
    assert ends(layout) == {0: 2, 1: 1, 2: 5, 3: 5}


def test_first_double_spinner_the_first_double_played_later_is_the_spinner() -> None:
    """No double leads: the first double played, wherever, is the spinner; the second is not."""
    layout = laid(FIRST, "6-4", "4-4@1", "6-6@0", "4-1@1", "6-2@0")
    assert ends(layout) == {0: 2, 1: 1, 2: 4, 3: 4}


def test_first_double_spinner_vs_all_doubles_spinners_arm_numbering() -> None:
    """The same plays: under first_double_spinner 3-3 is laid across; under
    all_doubles_spinners it is a spinner whose ends take the next two unused numbers, 4 and 5."""
    plays = ("5-0@0", "5-3@1", "3-3@1", "3-1@1")
    first = laid(FIRST, "5-5", *plays)
    every = laid(ALL, "5-5", *plays)
    assert ends(first) == {0: 0, 1: 1, 2: 5, 3: 5}
    assert ends(every) == {0: 0, 1: 1, 2: 5, 3: 5, 4: 3, 5: 3}


def test_five_up_secondary_spinner_ends_open_only_once_its_far_side_is_covered() -> None:
    layout = laid(ALL, "5-5", "5-0@0", "5-3@1", "0-0@0")
    assert ends(layout) == {0: 0, 1: 3, 2: 5, 3: 5}  # 0-0 has one side covered: 4, 5 wait
    layout.place(parse_tile("0-6"), 0)
    assert ends(layout) == {0: 6, 1: 3, 2: 5, 3: 5, 4: 0, 5: 0}


def test_five_up_each_later_spinner_takes_the_next_two_unused_arm_numbers() -> None:
    """6-5 leads (no spinner); 5-5 on arm 1 takes arms 2, 3; 6-6 on arm 0 takes 4, 5; 4-4 on arm 1
    takes 6, 7; 2-2 played on arm 3 (a spinner's end) takes 8, 9 (numbers given when laid)."""
    layout = laid(ALL, "6-5", "5-5@1", "6-6@0", "5-4@1", "4-4@1", "5-2@3", "2-2@3")
    assert ends(layout) == {0: 6, 1: 4, 2: 5, 3: 2}
    layout.place(parse_tile("6-1"), 0)
    assert ends(layout) == {0: 1, 1: 4, 2: 5, 3: 2, 4: 6, 5: 6}
    layout.place(parse_tile("4-3"), 1)
    layout.place(parse_tile("2-0"), 3)
    assert ends(layout) == {0: 1, 1: 3, 2: 5, 3: 0, 4: 6, 5: 6, 6: 4, 7: 4, 8: 2, 9: 2}


def test_five_up_spinner_played_on_a_spinner_end() -> None:
    layout = laid(ALL, "5-5", "5-0@0", "5-3@1", "5-1@2", "1-1@2")
    assert ends(layout) == {0: 0, 1: 3, 2: 1, 3: 5}
    layout.place(parse_tile("1-2"), 2)
    assert ends(layout) == {0: 0, 1: 3, 2: 2, 3: 5, 4: 1, 5: 1}


def test_layout_copy_is_independent() -> None:
    layout = laid(FIRST, "5-5", "5-0@0")
    other = layout.copy()
    other.place(parse_tile("5-3"), 1)
    assert layout.open_arms == [0, 1] and len(layout.chain) == 2
    assert other.open_arms == [0, 1, 2, 3] and len(other.chain) == 3


# Counting the open ends ---------------------------------------------------------------------


def test_count_only_the_first_tile_down_counts_both_halves_once() -> None:
    """A 3-2 lead counts 5; a 5-5 lead counts 10, not 20."""
    assert laid(LINE, "3-2").count_total() == 5
    for kind in LayoutKind:
        assert laid(kind, "5-5").count_total() == 10


@pytest.mark.parametrize("kind", list(LayoutKind))
def test_double_lead_counted_once(kind: LayoutKind) -> None:
    """However many of its sides are open, a double counts its two halves once."""
    layout = laid(kind, "6-6")
    assert layout.count_total() == 12
    assert layout.header_count() == 2


@pytest.mark.parametrize("kind", list(LayoutKind))
def test_a_5_5_lead_with_5_0_on_one_side_counts_10(kind: LayoutKind) -> None:
    assert laid(kind, "5-5", "5-0@0").count_total() == 10
    assert laid(kind, "5-5", "5-0@1").count_total() == 10


def test_spinner_count_with_0_sides_covered_counts_both_halves() -> None:
    assert laid(FIRST, "5-5").count_total() == 10


def test_spinner_count_with_1_side_covered_counts_both_halves() -> None:
    assert laid(FIRST, "5-5", "5-0@0").count_total() == 10 + 0
    assert laid(FIRST, "5-5", "5-4@1").count_total() == 10 + 4


def test_spinner_count_with_2_sides_covered_counts_nothing_even_with_ends_open() -> None:
    layout = laid(FIRST, "5-5", "5-0@0", "5-3@1")
    assert layout.open_arms == [0, 1, 2, 3]
    assert layout.count_total() == 0 + 3


def test_spinner_count_with_3_sides_covered() -> None:
    assert laid(FIRST, "5-5", "5-0@0", "5-3@1", "5-1@2").count_total() == 0 + 3 + 1


def test_spinner_count_with_4_sides_covered() -> None:
    assert laid(FIRST, "5-5", "5-0@0", "5-3@1", "5-1@2", "5-2@3").count_total() == 0 + 3 + 1 + 2


def test_spinner_not_the_lead_counts_both_halves_until_its_far_side_is_covered() -> None:
    layout = laid(FIRST, "6-5", "5-5@1")
    assert layout.count_total() == 6 + 10
    layout.place(parse_tile("5-4"), 1)
    assert layout.count_total() == 6 + 4  # covered on both sides; arms 2, 3 bare
    layout.place(parse_tile("5-0"), 2)
    assert layout.count_total() == 6 + 4 + 0
    layout.place(parse_tile("5-1"), 3)
    assert layout.count_total() == 6 + 4 + 0 + 1


def test_spinner_end_arm_counts_only_once_a_tile_lies_there() -> None:
    layout = laid(FIRST, "6-6", "6-0@0", "6-1@1")
    assert layout.count_total() == 1
    layout.place(parse_tile("6-4"), 3)
    assert layout.count_total() == 1 + 4


def test_double_lying_at_an_arm_end_counts_both_halves() -> None:
    assert laid(LINE, "6-3", "3-3@1").count_total() == 6 + 6
    assert laid(FIRST, "5-5", "5-0@0", "5-3@1", "3-3@1").count_total() == 0 + 6
    assert laid(LINE, "6-3", "3-3@1", "3-2@1").count_total() == 6 + 2


def test_line_double_lead_with_both_sides_covered_counts_nothing() -> None:
    assert laid(LINE, "5-5", "5-0@0", "5-3@1").count_total() == 3


def test_five_up_secondary_spinner_counts_both_halves_until_both_sides_covered() -> None:
    layout = laid(ALL, "5-5", "5-0@0", "5-3@1", "3-3@1")
    assert layout.count_total() == 0 + 6
    layout.place(parse_tile("3-1"), 1)
    assert layout.count_total() == 0 + 1  # 3-3 covered on both sides; its ends 4, 5 bare


def test_headers_a_spinner_that_still_counts_shows_its_number_twice() -> None:
    assert laid(FIRST, "4-4").header_count() == 2
    assert laid(FIRST, "4-4", "4-1@0").header_count() == 2
    assert laid(FIRST, "4-4", "4-1@0", "4-2@1").header_count() == 1


def test_the_line_counts_its_ends_as_any_layout_does() -> None:
    """LineLayout's own count_total (a short cut) agrees with the general count of faces() at
    every position of random line hands, doubles at the ends and double leads included."""
    import random

    from dominohall.rules import Game
    from dominohall.rules.layout import LineLayout

    rng = random.Random(13)
    checked = doubles = 0
    for players in (2, 3, 4) * 100:
        hand = Game("all-fives", players, rng=rng).start_hand()
        assert isinstance(hand.layout, LineLayout)
        while hand.result is None:
            moves = hand.legal_moves()
            hand.push(moves[rng.randrange(len(moves))])
            layout = hand.layout
            assert layout.count_total() == Layout.count_total(layout)
            checked += 1
            doubles += any(layout.double_at(arm) for arm in layout.open_arms)
    assert checked > 3000 and doubles > 300  # the cases with doubles were reached
