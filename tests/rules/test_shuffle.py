"""The shuffle is uniform: every tile equally likely at every position that matters, and pairs of
positions (the digits decoded two at a time) independent. ``shuffle_values`` (short lists) too."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from dominohall.rules.game import shuffle_values, shuffled_set
from dominohall.rules.tiles import TILE_COUNT

SHUFFLES = 30_000


def chi_square(counts: Counter[object], cells: int, total: int) -> float:
    expected = total / cells
    return sum((counts.get(c, 0) - expected) ** 2 / expected for c in range(cells))


def critical(dof: int) -> float:
    """A chi-square bound that a uniform source exceeds about once in a million runs."""
    return dof + 5 * (2 * dof) ** 0.5


@pytest.mark.parametrize("loose", [0, 5, 7])
def test_every_tile_is_equally_likely_at_every_settled_position(loose: int) -> None:
    rng = random.Random(2026)
    at = Counter()
    hand = Counter()
    for _ in range(SHUFFLES):
        order = shuffled_set(rng, loose)
        assert sorted(order) == list(range(TILE_COUNT))
        for position in range(loose, TILE_COUNT):
            at[(position - loose) * TILE_COUNT + order[position]] += 1
        hand.update(order[:loose])
    settled = TILE_COUNT - loose
    assert chi_square(at, settled * TILE_COUNT, SHUFFLES * settled) < critical(settled * 27)
    if loose:  # the loose tiles (one hand) are a uniformly random set too
        assert chi_square(hand, TILE_COUNT, SHUFFLES * loose) < critical(27)


@pytest.mark.parametrize(("first", "second"), [(27, 26), (26, 25), (8, 7)])
def test_two_positions_are_independent(first: int, second: int) -> None:
    rng = random.Random(7)
    pairs = Counter()
    for _ in range(SHUFFLES):
        order = shuffled_set(rng, 7)
        pairs[order[first] * TILE_COUNT + order[second]] += 1
    assert all(pairs[t * TILE_COUNT + t] == 0 for t in range(TILE_COUNT))
    distinct = [a * TILE_COUNT + b for a in range(TILE_COUNT) for b in range(TILE_COUNT) if a != b]
    expected = SHUFFLES / len(distinct)
    statistic = sum((pairs[c] - expected) ** 2 / expected for c in distinct)
    assert statistic < critical(len(distinct) - 1)


@pytest.mark.parametrize("length", [2, 3, 4])
def test_shuffle_values_makes_every_order_of_a_short_list_equally_likely(length: int) -> None:
    # Lengths 3 and 4 exercise both starts: an even top position alone, and an odd one paired.
    rng = random.Random(length)
    orders = {order: i for i, order in enumerate(itertools.permutations(range(length)))}
    seen = Counter()
    for _ in range(SHUFFLES):
        values = list(range(length))
        shuffle_values(values, rng)
        seen[orders[tuple(values)]] += 1
    assert chi_square(seen, len(orders), SHUFFLES) < critical(len(orders) - 1)


@pytest.mark.parametrize("length", [0, 1, 13, 21, 28])
def test_shuffle_values_keeps_the_values_and_moves_each_anywhere(length: int) -> None:
    rng = random.Random(3)
    at = Counter()
    for _ in range(SHUFFLES // 10):
        values = [10 * v for v in range(length)]
        shuffle_values(values, rng)
        assert sorted(values) == [10 * v for v in range(length)]
        at.update(position * length + v // 10 for position, v in enumerate(values))
    if length > 1:
        cells = length * length
        assert chi_square(at, cells, SHUFFLES // 10 * length) < critical(cells - 1)


def test_shuffle_values_refuses_more_than_a_set() -> None:
    with pytest.raises(ValueError, match="at most 28 values, not 29"):
        shuffle_values(list(range(29)), random.Random(1))
