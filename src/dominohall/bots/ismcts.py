"""Information-set Monte Carlo tree search (single observer), for Hard.

One tree over the moves the players choose, seen from Hard's seat. Each iteration deals the
hidden tiles afresh (``inference``), walks down the tree choosing, at every real choice, the move
with the best upper confidence bound among those legal in this deal (each child counts how often
it was available: the other seats' moves differ from deal to deal), adds one node, finishes the
hand by the quick policy (``playout``) and credits the outcome to the nodes on the way. A seat's
moves are judged for its own side (a partner's for ours, an opponent's against).

Unlike a search per guessed deal, a move is chosen without knowing that deal's hidden tiles, so
the search does not credit itself (or the others) with knowledge nobody has (strategy fusion).
"""

from __future__ import annotations

import math
import random

from ..rules import Hand, Move
from .playout import judge, play_out, unwind

# The outcome (points, see ``judge``) that counts as a full win for the bound; beyond it, no more.
REWARD_SCALE = 40.0
# Exploration: the weight of the bound's confidence term.
EXPLORATION = 0.7


def key_of(move: Move) -> int:
    """A small int naming a play (tile and arm; arm 7 for the lead): hashing a ``Move`` itself
    costs a tuple of its fields each time. Real choices are always plays (a draw or a pass is
    only ever the one legal move)."""
    return move.tile << 3 | (7 if move.arm is None else move.arm)


class Node:
    __slots__ = ("children", "visits", "total", "available")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.total = 0.0  # sum of outcomes, for the side of the seat that made this node's move
        self.available = 1


class Search:
    """One decision's tree. ``iterate`` runs one iteration on a freshly dealt ``hand`` and
    returns the work done (positions visited)."""

    def __init__(
        self,
        root_moves: list[Move],
        side: int,
        before: tuple[int, ...],
        win_value: float,
        hand_value: float,
        rng: random.Random,
    ) -> None:
        self.root = Node()
        self.root_moves = root_moves
        self.side = side
        self.before = before
        self.win_value = win_value
        self.hand_value = hand_value
        self.rng = rng

    def iterate(self, hand: Hand) -> int:
        side_of = hand.preset.side_of
        node = self.root
        path: list[Node] = []  # each node entered
        pushed = 0
        moves: list[Move] | None = self.root_moves
        while hand.result is None:
            if moves is None:
                moves = hand.legal_moves()
            if len(moves) == 1:
                hand.push(moves[0])
                pushed += 1
                moves = None
                continue
            mover = side_of(hand.turn)
            children = node.children
            keys = [key_of(m) for m in moves]
            untried = []
            for m, k in zip(moves, keys, strict=True):
                child = children.get(k)
                if child is None:
                    untried.append((m, k))
                else:
                    child.available += 1
            if untried:
                move, k = untried[int(self.rng.random() * len(untried))]
                child = children[k] = Node()
                hand.push(move)
                pushed += 1
                path.append(child)
                break
            sign = 1.0 if mover == self.side else -1.0
            best, best_child, best_score = moves[0], children[keys[0]], float("-inf")
            for m, k in zip(moves, keys, strict=True):
                child = children[k]
                score = sign * child.total / child.visits + EXPLORATION * math.sqrt(
                    math.log(child.available) / child.visits
                )
                if score > best_score:
                    best, best_child, best_score = m, child, score
            node = best_child
            hand.push(best)
            pushed += 1
            path.append(node)
            moves = None
        made = play_out(hand) if hand.result is None else 0
        value = judge(hand, self.side, self.before, self.win_value, self.hand_value)
        unwind(hand, made + pushed)
        reward = max(-1.0, min(1.0, value / REWARD_SCALE))
        for child in path:
            child.visits += 1
            child.total += reward
        return made + pushed

    def best(self) -> int:
        """The root move tried most (its index in ``root_moves``)."""
        children = self.root.children

        def visits(i: int) -> tuple[int, float]:
            child = children.get(key_of(self.root_moves[i]))
            return (0, 0.0) if child is None else (child.visits, child.total)

        return max(range(len(self.root_moves)), key=visits)
