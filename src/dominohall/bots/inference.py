"""Who can hold each hidden tile, from what one seat has seen; and deals of the hidden tiles.

A seat sees its own tiles, the layout, how many tiles each other seat holds, the boneyard's size,
and the public history. A pass proves that the passer held no tile showing a number at the open
ends; so does a draw (one draws only when nothing fits). A tile drawn later is unknown again, but
only partly: a drawn tile that is kept did not fit the ends of that turn either.

>>> from dominohall.rules import PRESETS, Hand, Move, parse_tile as t
>>> deal = ["6-6 6-5 6-4 6-3 6-2", "4-4 5-5 3-3 2-2 1-1", "6-1 6-0 5-3 5-2 5-1"]
>>> held = [{t(name) for name in tiles.split()} for tiles in deal]
>>> rest = [tile for tile in range(28) if not any(tile in h for h in held)]
>>> hand = Hand(PRESETS["block"], held, rest, leader=1)
>>> hand.push(Move.lead("4-4"))  # seat 2 has no four: it passes
>>> hand.push(Move.pass_())
>>> knowledge = infer(hand.view(0))
>>> knowledge.can_hold(2, t("4-1")), knowledge.can_hold(1, t("4-1")), knowledge.places_of(t("4-1"))
(False, True, [1, 3])
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..rules import MoveKind, View
from ..rules.game import shuffle_values
from ..rules.tiles import ALL_TILES, BIT, FITTING, TileSet, tiles_of


class InconsistentViewError(ValueError):
    """The view's tile counts do not add up to the tiles it does not show (a corrupt view)."""


@dataclass(frozen=True)
class Knowledge:
    """What one seat knows of the hidden tiles.

    ``places`` are the seats ``0..players-1`` and the boneyard (``players``). ``counts[p]`` is how
    many hidden tiles place ``p`` holds (0 for the seat itself), ``lacks[s]`` the tiles proven not
    to be in seat ``s``'s hand.
    """

    seat: int
    players: int
    hidden: TileSet
    counts: tuple[int, ...]
    lacks: tuple[TileSet, ...]

    @property
    def boneyard(self) -> int:
        """The place number of the boneyard."""
        return self.players

    def can_hold(self, place: int, tile: int) -> bool:
        return bool(self.possible(place) & BIT[tile])

    def possible(self, place: int) -> TileSet:
        """The hidden tiles that ``place`` (a seat, or the boneyard) may hold."""
        if self.counts[place] == 0:
            return 0
        if place == self.players:
            return self.hidden
        return self.hidden & ~self.lacks[place]

    def places_of(self, tile: int) -> list[int]:
        """The places that may hold a hidden ``tile``."""
        return [p for p in range(self.players + 1) if self.can_hold(p, tile)]


def infer(view: View) -> Knowledge:
    """What ``view.seat`` knows of the hidden tiles, from its view alone."""
    if view.seat is None:
        raise ValueError("a spectator's view has no seat to infer for")
    seat, players = view.seat, view.players
    on_table = 0
    for tile, _, _ in view.layout.chain:
        on_table |= BIT[tile]
    hidden = ALL_TILES & ~on_table & ~view.holding
    counts = [0 if s == seat else view.tile_counts[s] for s in range(players)]
    counts.append(view.boneyard_count)
    if sum(counts) != hidden.bit_count():
        raise InconsistentViewError(
            f"the view hides {hidden.bit_count()} tiles but its counts add up to {sum(counts)}"
        )
    lacks = [0] * players
    history = view.history
    for i, public in enumerate(history):
        s, kind = public.seat, public.move.kind
        if kind is MoveKind.PLAY:
            continue
        void = FITTING[public.open_numbers]  # every tile showing a number open then
        if kind is MoveKind.PASS:
            lacks[s] |= void
            continue
        # A draw: nothing fitted before it. The drawn tile is played at once if it fits, so a
        # tile is kept only when it did not fit: what was proven about other numbers is lost.
        follow = history[i + 1] if i + 1 < len(history) else None
        played_at_once = (
            follow is not None and follow.seat == s and follow.move.kind is MoveKind.PLAY
        )
        lacks[s] = lacks[s] | void if played_at_once else void
    return Knowledge(seat, players, hidden, tuple(counts), tuple(lacks))


class DealSampler:
    """Deals of the hidden tiles that agree with a ``Knowledge``: exact counts, no void broken.

    Tiles are placed one at a time, most constrained first, each at a place chosen with odds in
    proportion to the room left there (uniform when nothing is proven). Before a tile is placed, a
    Hall-type check (for every set of places, the tiles that can only go there fit in them) makes
    sure that the rest can still be placed, so the sampler never needs to backtrack.
    """

    def __init__(
        self, knowledge: Knowledge, rng: random.Random, *, ordered_boneyard: bool = True
    ) -> None:
        self.knowledge = knowledge
        self.rng = rng
        # Whether the boneyard's order matters (someone may still draw): else it is left sorted,
        # and a shuffle a deal is saved.
        self.ordered_boneyard = ordered_boneyard
        # Places with room; a tile's options as a bitmask over them.
        self.places = [p for p in range(knowledge.players + 1) if knowledge.counts[p] > 0]
        self.tiles = tiles_of(knowledge.hidden)
        options: dict[int, int] = {}
        for tile in self.tiles:
            mask = 0
            for i, p in enumerate(self.places):
                if knowledge.can_hold(p, tile):
                    mask |= 1 << i
            options[tile] = mask
        self.options = options
        self.constrained = any(m != (1 << len(self.places)) - 1 for m in options.values())
        if not self._feasible(self._groups(self.tiles), [knowledge.counts[p] for p in self.places]):
            raise InconsistentViewError("no deal of the hidden tiles agrees with the history")

    def _groups(self, tiles: list[int]) -> dict[int, int]:
        groups: dict[int, int] = {}
        for tile in tiles:
            m = self.options[tile]
            groups[m] = groups.get(m, 0) + 1
        return groups

    def _feasible(self, groups: dict[int, int], room: list[int]) -> bool:
        """For every set of places, the tiles that can only go there must fit in them."""
        n = len(room)
        for subset in range(1, 1 << n):
            need = 0
            for m, c in groups.items():
                if m & ~subset == 0:
                    need += c
            if need:
                have = 0
                for i in range(n):
                    if subset >> i & 1:
                        have += room[i]
                if need > have:
                    return False
        return True

    def sample(self) -> tuple[list[TileSet], list[int]]:
        """Every seat's tiles (the seat itself gets 0: the caller knows its own) and a boneyard
        in a random draw order (in tile order when ``ordered_boneyard`` is False)."""
        knowledge, rng = self.knowledge, self.rng
        places = self.places
        room = [knowledge.counts[p] for p in places]
        tiles = self.tiles[:]
        shuffle_values(tiles, rng)
        placed = [0] * len(places)
        if not self.constrained:
            self._fill(tiles, room, placed)
        else:
            options = self.options
            tiles.sort(key=lambda t: options[t].bit_count())
            groups = self._groups(tiles)
            anywhere = (1 << len(places)) - 1
            for n, tile in enumerate(tiles):
                mask = options[tile]
                if mask == anywhere:
                    # The rest may go anywhere (they come last): any filling of the room left
                    # is feasible, and placing them one by one in proportion to the room is
                    # the same as dealing them, shuffled, into it.
                    self._fill(tiles[n:], room, placed)
                    break
                groups[mask] -= 1
                choices = [i for i in range(len(places)) if mask >> i & 1 and room[i] > 0]
                while True:
                    if len(choices) == 1:
                        i = choices[0]
                        break
                    i = rng.choices(choices, weights=[room[c] for c in choices])[0]
                    room[i] -= 1
                    if self._feasible(groups, room):
                        room[i] += 1
                        break
                    room[i] += 1
                    choices.remove(i)
                room[i] -= 1
                placed[i] |= BIT[tile]
        return self._split(placed)

    @staticmethod
    def _fill(tiles: list[int], room: list[int], placed: list[int]) -> None:
        """Deal ``tiles`` (already shuffled) into the room left at each place, in order."""
        start = 0
        for i, r in enumerate(room):
            for tile in tiles[start : start + r]:
                placed[i] |= BIT[tile]
            start += r

    def _split(self, placed: list[int]) -> tuple[list[TileSet], list[int]]:
        knowledge, rng, places = self.knowledge, self.rng, self.places
        holdings = [0] * knowledge.players
        boneyard: list[int] = []
        for i, p in enumerate(places):
            if p == knowledge.players:
                boneyard = tiles_of(placed[i])
                if self.ordered_boneyard:
                    shuffle_values(boneyard, rng)
            else:
                holdings[p] = placed[i]
        return holdings, boneyard
