"""Points: what a play scores from the open ends, rounding, and the end-of-hand bonus."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .layout import Layout
from .presets import Bonus, Count, CountValue, Preset

# Looked up once: reading an enum member off its class is as dear as a function call, and these
# are read on every play of a counting preset (and every play a bot tries out).
_NONE, _HEADERS = Count.NONE, Count.HEADERS
_FIVES, _THREES, _FIVES_THREES = Count.FIVES, Count.THREES, Count.FIVES_THREES
_UNITS = CountValue.UNITS
_OTHERS_R5, _ALL_UNITS, _TEAM = Bonus.OTHERS_R5, Bonus.ALL_UNITS, Bonus.TEAM
_NET_UNITS, _NET_PENALTY = Bonus.NET_UNITS, Bonus.NET_PENALTY


def round_to_five(x: int) -> int:
    """Round to the nearest five: remainders 0-2 down, 3-4 up (23 -> 25, 22 -> 20).

    >>> round_to_five(23), round_to_five(22), round_to_five(-23)
    (25, 20, -25)
    """
    if x < 0:
        return -round_to_five(-x)
    return (x + 2) // 5 * 5


def in_units(x: int) -> int:
    """A bonus in units: round_to_five(x) / 5."""
    return round_to_five(x) // 5


def score_of_total(count: Count, value: CountValue, total: int) -> int:
    """What a play scores when the ends that count add up to ``total`` (not for headers).

    >>> score_of_total(Count.FIVES_THREES, CountValue.UNITS, 15)
    8
    >>> score_of_total(Count.THREES, CountValue.UNITS, 15)
    5
    >>> score_of_total(Count.FIVES, CountValue.FULL, 15)
    15
    """
    if total <= 0:
        return 0
    units = value is _UNITS
    if count is _FIVES:
        return 0 if total % 5 else (total // 5 if units else total)
    if count is _THREES:
        return 0 if total % 3 else (total // 3 if units else total)
    if count is _FIVES_THREES:
        points = 0
        if total % 5 == 0:
            points += total // 5 if units else total
        if total % 3 == 0:
            points += total // 3 if units else total
        return points
    return 0


def play_score(preset: Preset, layout: Layout) -> int:
    """What the play just laid scores (0 when its preset does not count the ends)."""
    count = preset.count
    if count is _NONE:
        return 0
    if count is _HEADERS:
        best = layout.header_count()
        return best if best >= 2 else 0
    return score_of_total(count, preset.count_value, layout.count_total())


class BonusCount(NamedTuple):
    """How a hand's winner's bonus is counted (RULES.md 4), step by step: what the hand ends
    with, and what a client words (it never counts a bonus itself)."""

    counted: tuple[int, ...]  # the seats whose pips are counted (the others, a team, everyone)
    pips: int  # their pips together
    own: int | None  # net rules: the winner's own pips, taken off; None in the others
    net: int | None  # net rules: ``pips`` less ``own``; None in the others
    rounded: int | None  # to the nearest five, where the rule rounds; None where it does not
    units: bool  # the rounded number is divided by five
    bonus: int  # what the rule gives the winner


def count_bonus(rule: Bonus, winner: int, pips: Sequence[int], sides: Sequence[int]) -> BonusCount:
    """The bonus of ``rule`` for ``winner`` from the pips each seat holds (``sides[seat]``: its
    scoring side, a team in partnership).

    >>> count_bonus(Bonus.NET_UNITS, 0, [3, 9, 11], [0, 1, 2])
    BonusCount(counted=(1, 2), pips=20, own=3, net=17, rounded=15, units=True, bonus=3)
    >>> count_bonus(Bonus.TEAM, 1, [3, 4, 3, 2], [0, 1, 0, 1]).bonus
    6
    """
    n = len(pips)
    if rule is _ALL_UNITS:
        counted = tuple(range(n))
    elif rule is _TEAM:
        counted = tuple([s for s in range(n) if sides[s] != sides[winner]])
    else:
        counted = tuple([s for s in range(n) if s != winner])
    total = 0
    for seat in counted:
        total += pips[seat]
    if rule is _NET_UNITS or rule is _NET_PENALTY:
        own = pips[winner]
        net = total - own
        return BonusCount(counted, total, own, net, round_to_five(net), True, in_units(net))
    if rule is _ALL_UNITS:
        return BonusCount(counted, total, None, None, round_to_five(total), True, in_units(total))
    if rule is _OTHERS_R5:
        rounded = round_to_five(total)
        return BonusCount(counted, total, None, None, rounded, False, rounded)
    # others, team: the pips as they are.
    return BonusCount(counted, total, None, None, None, False, total)


def penalty(rule: Bonus, pips: int) -> int:
    """What a seat that did not win loses for the ``pips`` it holds (``net_penalty``: in units)."""
    return in_units(pips) if rule is _NET_PENALTY else 0
