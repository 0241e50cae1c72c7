"""The game of many hands: dealing, who leads, running scores, and when the game ends.

>>> import random
>>> from dominohall.rules import PRESETS
>>> game = Game(PRESETS["draw"], 2, rng=random.Random(1))
>>> hand = game.start_hand()
>>> while not game.finished:
...     if hand.over:
...         hand = game.start_hand()
...     hand.push(hand.legal_moves()[0])
...     if hand.over:
...         game.end_hand()
>>> game.winner in (0, 1) and max(game.scores) >= 50
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import NamedTuple

from .errors import ConfigError, IllegalMoveError
from .hand import Hand
from .presets import FirstLead, GameEnd, NextLead, Preset, get_preset
from .tiles import ALL_TILES, BIT, DOUBLES, RANK, TILE_COUNT, TileSet, double_of, iter_tiles

SECURE = random.SystemRandom()

# Looked up once: reading an enum member off its class is as dear as a function call.
_HIGHEST_DOUBLE, _HOLDER_6_6 = FirstLead.HIGHEST_DOUBLE, FirstLead.HOLDER_6_6
_AFTER_OPENER = NextLead.AFTER_OPENER


ORDERINGS = math.factorial(TILE_COUNT)  # every order of the 28 tiles


def _digit_pairs() -> tuple[tuple[int, int, int, tuple[tuple[int, int], ...]], ...]:
    """The swaps of a Fisher-Yates shuffle taken two at a time, each pair decoded by a table.

    For positions i and i-1 (i = 27, 25, ..., 1) the two swap partners j <= i and m <= i-1 are
    the digits of one number below (i+1)*i; the table holds them for every such number.
    """
    pairs = []
    for i in range(TILE_COUNT - 1, 0, -2):
        size = (i + 1) * i
        pairs.append((i, i - 1, size, tuple((r % (i + 1), r // (i + 1)) for r in range(size))))
    return tuple(pairs)


PAIR_DIGITS = _digit_pairs()


def shuffled_set(rng: random.Random, loose: int = 0) -> list[int]:
    """The 28 tiles in a uniformly random order, except that the first ``loose`` come in no
    particular order (they are dealt to one hand, a set): that takes fewer random digits."""
    order = list(range(TILE_COUNT))
    shuffle_in_place(order, rng, loose)
    return order


def shuffle_in_place(order: list[int], rng: random.Random, loose: int = 0) -> None:
    """Shuffle 28 values uniformly, leaving the first ``loose`` in no particular order.

    One uniform number (a single call to the random source, so one read of the system's secure
    source in play) is split into the independent digits of a Fisher-Yates shuffle, two digits
    per division.
    """
    pairs = PAIR_DIGITS[: (TILE_COUNT - loose + 1) // 2]  # every position from loose on
    # rng.randrange(orders), inlined (the same draws, so the same deals for a seed): it is a
    # third of the cost of a shuffle, most of it in the checks of its arguments.
    orders = _ORDERS_OF[len(pairs)]
    size_bits = _ORDER_BITS[len(pairs)]
    code = rng.getrandbits(size_bits)
    while code >= orders:
        code = rng.getrandbits(size_bits)
    for i, k, size, table in pairs:
        code, r = divmod(code, size)
        j, m = table[r]
        order[i], order[j] = order[j], order[i]
        order[k], order[m] = order[m], order[k]


def shuffle_values(values: list[int], rng: random.Random) -> None:
    """Shuffle a list of at most 28 values uniformly, in the same way: one uniform number split
    into the digits of a Fisher-Yates shuffle. Several times faster than ``random.shuffle``, which
    calls into the generator once a value (Hard shuffles the hidden tiles of every guessed deal).
    """
    top = len(values) - 1  # the positions top, top - 1, ..., 1 each take a digit
    if top < 1:
        return
    if top >= TILE_COUNT:
        raise ValueError(f"shuffle_values takes at most {TILE_COUNT} values, not {top + 1}")
    # PAIR_DIGITS pairs the positions (27, 26), (25, 24), ..., (1, 0); an even top takes its
    # digit alone first, and the pairs go on from the one holding top - 1.
    single = top + 1 if top % 2 == 0 else 1
    first = (TILE_COUNT - 1 - top + (single > 1)) // 2
    orders = _ORDERS_FROM[first] * single
    size_bits = orders.bit_length()
    code = rng.getrandbits(size_bits)  # rng.randrange(orders), inlined as in shuffle_in_place
    while code >= orders:
        code = rng.getrandbits(size_bits)
    if single > 1:
        code, j = divmod(code, single)
        values[top], values[j] = values[j], values[top]
    for i, k, size, table in PAIR_DIGITS[first:]:
        code, r = divmod(code, size)
        j, m = table[r]
        values[i], values[j] = values[j], values[i]
        values[k], values[m] = values[m], values[k]


# _ORDERS_OF[n]: how many shuffles the first n pairs of digits can make (28! for all fourteen).
_ORDERS_OF = [math.prod(size for _, _, size, _ in PAIR_DIGITS[:n]) for n in range(15)]
assert _ORDERS_OF[-1] == ORDERINGS
_ORDER_BITS = [orders.bit_length() for orders in _ORDERS_OF]
# _ORDERS_FROM[p]: how many shuffles the pairs from PAIR_DIGITS[p] on can make.
_ORDERS_FROM = [math.prod(size for _, _, size, _ in PAIR_DIGITS[p:]) for p in range(15)]

_TILE_OF_BIT = {bit: tile for tile, bit in enumerate(BIT)}


def deal(preset: Preset, players: int, rng: random.Random) -> tuple[list[TileSet], list[int]]:
    """Shuffle and deal: each seat's tiles as a mask, and the boneyard in draw order."""
    size = preset.hand_size(players)
    # The tiles' bits are shuffled, so that a hand's mask is the sum of its slice.
    bits = list(BIT)
    shuffle_in_place(bits, rng, loose=size)  # seat 0 gets the first tiles
    dealt = players * size
    holdings = [sum(bits[start : start + size]) for start in range(0, dealt, size)]
    return holdings, list(map(_TILE_OF_BIT.__getitem__, bits[dealt:]))


def draw_lots(players: int, rng: random.Random) -> int:
    """Each player draws a tile from the shuffled set; the highest tile leads (RULES.md 3, lot)."""
    drawn = rng.sample(range(TILE_COUNT), players)
    return max(range(players), key=lambda s: RANK[drawn[s]])


class LeadRule(NamedTuple):
    """Who opens a hand: a seat fixed by the rules, or one left to chance among ``choices``."""

    leader: int | None  # fixed by the rules, or None when chance decides
    must_lead: int  # the tile the leader must open with, or -1
    choices: tuple[int, ...]  # the seats chance may pick (when leader is None)
    by: str  # how: "highest_double", "lot", "random", "after_opener", ...


def forced_lead(preset: Preset, holdings: Sequence[TileSet]) -> tuple[int, int]:
    """(leader, tile) when the first lead is forced by the deal (highest double, 6-6)."""
    if preset.first_lead is _HOLDER_6_6:
        six = double_of(6)
        for seat, held in enumerate(holdings):
            if held & BIT[six]:
                return seat, six
        raise ConfigError("nobody holds 6-6, so nobody can open")
    held_doubles = 0
    for held in holdings:
        held_doubles |= held & DOUBLES
    if held_doubles:
        best_double = held_doubles.bit_length() - 1  # doubles are numbered in rising order
        for seat, held in enumerate(holdings):
            if held & BIT[best_double]:
                return seat, best_double
    best = max(
        ((t, seat) for seat, held in enumerate(holdings) for t in iter_tiles(held)),
        key=lambda ts: RANK[ts[0]],
    )
    return best[1], best[0]


class Game:
    """A game of ``players`` seats under one preset, hand after hand until it ends."""

    def __init__(
        self,
        preset: Preset | str,
        players: int,
        target: int | None = None,
        *,
        rng: random.Random | None = None,
    ) -> None:
        self.preset = preset = get_preset(preset) if isinstance(preset, str) else preset
        self.target = target = preset.default_target if target is None else target
        if players not in preset.players or target not in preset.targets:
            preset.check_players(players)  # raises, saying which is wrong
            preset.check_target(target)
        self.players = players
        self.rng = rng if rng is not None else SECURE
        self.hands: list[Hand] = []
        self._scores: list[int] = [0] * preset.sides(players)
        self.finished = False
        self.winner: int | None = None  # a seat (partnership: the lower seat of the winning team)

    @property
    def hand(self) -> Hand | None:
        return self.hands[-1] if self.hands else None

    @property
    def scores(self) -> list[int]:
        """Running scores per side (teams in partnership), mid-hand included."""
        return list(self.hands[-1].scores) if self.hands else list(self._scores)

    def seat_scores(self) -> list[int]:
        """Scores per seat (in partnership each seat shows its team's score)."""
        scores = self.scores
        return [scores[self.preset.side_of(s)] for s in range(self.players)]

    def lead_rule(self, holdings: Sequence[TileSet]) -> LeadRule:
        """Who opens the next hand, for a deal of ``holdings``."""
        preset, n = self.preset, self.players
        fixed = self._fixed_lead(holdings)
        if not self.hands:
            if fixed is not None:
                return LeadRule(fixed[0], fixed[1], (fixed[0],), preset.first_lead)
            return LeadRule(None, -1, tuple(range(n)), preset.first_lead)
        rule = preset.next_lead
        if fixed is not None:
            last = self.hands[-1].result
            by = "last_winner" if last is not None and last.winner is not None else rule
            return LeadRule(fixed[0], -1, (fixed[0],), by)
        if rule is NextLead.LOT:
            return LeadRule(None, -1, tuple(range(n)), rule)
        return LeadRule(None, -1, tuple(self.hands[-1].tied_for_fewest()), rule)

    def _fixed_lead(self, holdings: Sequence[TileSet]) -> tuple[int, int] | None:
        """(the seat that opens, the tile it must open with or -1) when the rules decide who
        opens the next hand; None when chance does."""
        if not self.hands:
            first = self.preset.first_lead
            if first is _HIGHEST_DOUBLE or first is _HOLDER_6_6:
                return forced_lead(self.preset, holdings)
            return None
        result = self.hands[-1].result
        assert result is not None
        if result.winner is not None:
            return result.winner, -1
        if self.preset.next_lead is _AFTER_OPENER:
            return (self.hands[-1].leader + 1) % self.players, -1
        return None

    def choose_leader(self, rule: LeadRule, rng: random.Random | None = None) -> int:
        """The seat that opens under ``rule``, chance drawn from ``rng`` (the game's own if None)."""
        rng = rng or self.rng
        if rule.leader is not None:
            return rule.leader
        if rule.by == "lot":
            return draw_lots(self.players, rng)
        return rng.choice(rule.choices)

    def start_hand(
        self,
        holdings: Sequence[TileSet] | None = None,
        boneyard: Sequence[int] | None = None,
        leader: int | None = None,
    ) -> Hand:
        """Deal (or take the given deal) and open the next hand.

        A given ``leader`` is checked against the rules; where chance decides, it must be one of
        the seats chance may pick.
        """
        if self.finished:
            raise IllegalMoveError("the game is over: no more hands")
        if self.hands and self.hands[-1].result is None:
            raise IllegalMoveError("the current hand is not over")
        if holdings is None:
            dealt, bones = deal(self.preset, self.players, self.rng)
        else:
            dealt, bones = list(holdings), list(boneyard or [])
            check_deal(self.preset, self.players, dealt, bones)
        fixed = self._fixed_lead(dealt)
        if fixed is not None and (leader is None or leader == fixed[0]):
            leader, must_lead = fixed  # the common case, without building a LeadRule
        else:
            rule = self.lead_rule(dealt)
            if leader is None:
                leader = self.choose_leader(rule)
            elif leader not in rule.choices:
                if len(rule.choices) == 1:
                    who = f"seat {rule.choices[0]} opens"
                else:
                    who = f"one of seats {list(rule.choices)} opens"
                raise IllegalMoveError(f"seat {leader} may not open this hand: by {rule.by}, {who}")
            must_lead = rule.must_lead
        hand = Hand(
            self.preset,
            dealt,
            bones,
            leader,
            scores=self.hands[-1].scores if self.hands else self._scores,  # Hand copies them
            target=self.target,
            must_lead=must_lead,
        )
        self.hands.append(hand)
        return hand

    def end_hand(self) -> None:
        """Settle the finished current hand: take its scores and see whether the game is over."""
        hand = self.hands[-1]
        if hand.result is None:
            raise IllegalMoveError("the hand is not over")
        self._scores = list(hand.scores)
        side = self._winning_side(hand)
        if side is not None:
            self._finish(side)

    def ends_with(self, hand: Hand) -> bool:
        """Whether settling ``hand`` (the current hand, over) ends the game; nothing changes."""
        return hand.result is not None and self._winning_side(hand) is not None

    def _winning_side(self, hand: Hand) -> int | None:
        """The side that wins the game once ``hand`` (over) is settled; None: the game goes on."""
        scores = hand.scores
        preset = self.preset
        if hand.reached_target is not None:
            return hand.reached_target
        if preset.game_end is GameEnd.EXACT:
            return None
        reached = max(scores) >= self.target
        fell = preset.floor is not None and min(scores) <= preset.floor
        if not (reached or fell):
            return None
        best = max(scores)
        leaders = [side for side, s in enumerate(scores) if s == best]
        # A tie for the highest score plays another hand.
        return leaders[0] if len(leaders) == 1 else None

    def _finish(self, side: int) -> None:
        self.finished = True
        self.winner = side  # the side's lower seat is the side's number, also in partnership


def check_deal(
    preset: Preset, players: int, holdings: Sequence[TileSet], boneyard: Sequence[int]
) -> None:
    """A deal must hold the 28 tiles once each, in the preset's hand sizes."""
    size = preset.hand_size(players)
    if len(holdings) != players:
        raise ConfigError(f"the deal has {len(holdings)} hands for {players} players")
    seen = 0
    for seat, held in enumerate(holdings):
        if held.bit_count() != size:
            raise ConfigError(f"seat {seat} is dealt {held.bit_count()} tiles, not {size}")
        if seen & held:
            raise ConfigError(f"seat {seat} is dealt a tile that another seat holds too")
        seen |= held
    for t in boneyard:
        if seen & BIT[t]:
            raise ConfigError("a tile of the boneyard is also in a hand, or twice in the boneyard")
        seen |= BIT[t]
    if seen != ALL_TILES:
        raise ConfigError("the deal and boneyard are not the 28 tiles of the set")


__all__ = ["Game", "LeadRule", "deal", "draw_lots", "check_deal", "forced_lead", "DOUBLES"]
