"""The least-cost maximum matching (``tournament/matching.py``): as many pairs as the allowed
pairings let before any saving in cost, the cheapest of those (checked against every matching of
small cases), pairs in the entrants' order, and the pairings refused."""

from __future__ import annotations

import itertools
import random

import pytest

from dominohall.hall.tournament.matching import PairingError, least_cost_matching, matching_cost

Costs = dict[tuple[str, str], int]


def _cheapest_largest(nodes: list[str], costs: Costs) -> tuple[int, int]:
    """(the most pairs, their least cost) over every matching of ``costs``, by brute force."""
    best = (0, 0)
    edges = list(costs)
    for size in range(len(nodes) // 2, 0, -1):
        for chosen in itertools.combinations(edges, size):
            used = [node for pair in chosen for node in pair]
            if len(set(used)) == len(used):
                cost = sum(costs[pair] for pair in chosen)
                if best[0] < size or cost < best[1]:
                    best = (size, cost)
        if best[0]:
            return best
    return best


def test_more_pairs_come_before_a_cheaper_pair() -> None:
    """The one free pairing a-b would leave c and d without a game: two dear pairs are taken."""
    costs = {("a", "b"): 0, ("a", "c"): 7, ("b", "d"): 9}
    pairs = least_cost_matching(["a", "b", "c", "d"], costs)
    assert pairs == [("a", "c"), ("b", "d")]
    assert matching_cost(pairs, costs) == 16


def test_the_matching_is_the_cheapest_of_the_largest_on_small_random_cases() -> None:
    """Random allowed pairings among 4 to 7 entrants: as many pairs, and as cheap, as the best
    matching found by trying them all."""
    rng = random.Random(7)
    for _ in range(40):
        nodes = [f"e{i}" for i in range(rng.randint(4, 7))]
        costs = {
            pair: rng.randint(0, 9)
            for pair in itertools.combinations(nodes, 2)
            if rng.random() < 0.6
        }
        pairs = least_cost_matching(nodes, costs)
        used = [node for pair in pairs for node in pair]
        assert len(set(used)) == len(used)  # nobody twice
        assert all(pair in costs for pair in pairs)  # only allowed pairings, in their order
        assert (len(pairs), matching_cost(pairs, costs)) == _cheapest_largest(nodes, costs)


def test_pairs_come_in_the_entrants_order_whichever_way_their_costs_name_them() -> None:
    """Each pair is ordered as the entrants are, the pairs by their first; an odd one out is
    left unpaired; the cost is looked up either way round."""
    costs = {("e", "b"): 1, ("d", "a"): 1, ("c", "e"): 5}
    pairs = least_cost_matching(["a", "b", "c", "d", "e"], costs)
    assert pairs == [("a", "d"), ("b", "e")]
    assert matching_cost(pairs, costs) == 2
    assert least_cost_matching(["a", "b"], {}) == []  # no pairing allowed: no pairs


@pytest.mark.parametrize(
    ("costs", "said"),
    [
        ({("a", "x"): 1}, "not between two waiting entrants"),
        ({("a", "a"): 1}, "not between two waiting entrants"),
        ({("a", "b"): -1}, "a cost is 0 or more"),
    ],
)
def test_a_pairing_with_someone_not_waiting_or_a_negative_cost_is_refused(
    costs: Costs, said: str
) -> None:
    with pytest.raises(PairingError, match=said):
        least_cost_matching(["a", "b"], costs)
