"""Points: what a play scores from the open ends, rounding, and the end-of-hand bonus."""

from __future__ import annotations

from .layout import Layout
from .presets import Count, CountValue, Preset

# Looked up once: reading an enum member off its class is as dear as a function call, and these
# are read on every play of a counting preset (and every play a bot tries out).
_NONE, _HEADERS = Count.NONE, Count.HEADERS
_FIVES, _THREES, _FIVES_THREES = Count.FIVES, Count.THREES, Count.FIVES_THREES
_UNITS = CountValue.UNITS


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
