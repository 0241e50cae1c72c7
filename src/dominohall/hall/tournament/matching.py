"""A maximum matching of least cost: as many pairs as the allowed pairings let, and among those
the pairs that cost least in total (both tournament kinds pair with it).

It is Edmonds' blossom algorithm (``networkx.max_weight_matching`` with ``maxcardinality``), each
pair's weight a constant less its cost, so that the heaviest of the largest matchings is the
cheapest. The weights are integers: the algorithm is then exact (no float ties).

>>> least_cost_matching(["a", "b", "c", "d"], {("a", "b"): 1, ("c", "d"): 1, ("a", "c"): 0})
[('a', 'b'), ('c', 'd')]
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

import networkx as nx

K = TypeVar("K", bound=Hashable)


class PairingError(ValueError):
    """An allowed pairing that names someone not waiting, or a negative cost."""


def least_cost_matching(nodes: Sequence[K], costs: Mapping[tuple[K, K], int]) -> list[tuple[K, K]]:
    """The pairs of a maximum matching of least total cost over the allowed pairings ``costs``
    (each unordered pair once, a cost >= 0); each pair in the order of ``nodes``, the pairs too."""
    order = {node: i for i, node in enumerate(nodes)}
    if not costs:
        return []
    top = max(costs.values()) + 1
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    for (a, b), cost in costs.items():
        if a not in order or b not in order or a == b:
            raise PairingError(f"pairing {a!r}-{b!r} is not between two waiting entrants")
        if cost < 0:
            raise PairingError(f"pairing {a!r}-{b!r} costs {cost}: a cost is 0 or more")
        graph.add_edge(a, b, weight=top - cost)
    pairs = nx.max_weight_matching(graph, maxcardinality=True)
    ordered = [(a, b) if order[a] < order[b] else (b, a) for a, b in pairs]
    return sorted(ordered, key=lambda pair: order[pair[0]])


def matching_cost(pairs: Sequence[tuple[K, K]], costs: Mapping[tuple[K, K], int]) -> int:
    """What ``pairs`` cost, each looked up either way round."""
    return sum(costs[(a, b)] if (a, b) in costs else costs[(b, a)] for a, b in pairs)
