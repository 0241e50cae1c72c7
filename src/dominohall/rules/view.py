"""What one seat may know: its own tiles, the table, how many tiles others hold, the public history.

A ``View`` holds nothing hidden: another seat's tiles and the boneyard order are not in it (until the
hand is over, when every hand is shown). Bots and the server's clients only ever get views.
"""

from __future__ import annotations

from dataclasses import dataclass

from .hand import Hand, HandResult, legal_moves_of
from .layout import Layout
from .moves import DRAW, Move, MoveKind
from .presets import Drawing, Preset
from .tiles import TileSet, pips_of, tiles_of


@dataclass(frozen=True)
class PublicMove:
    """A move as the table saw it. A draw shows its tile only to the seat that drew it."""

    seat: int
    move: Move
    open_numbers: int  # bitmask of the numbers at the open ends when the move was made

    @property
    def numbers_open(self) -> list[int]:
        return [n for n in range(7) if self.open_numbers >> n & 1]


@dataclass(frozen=True)
class View:
    preset: Preset
    players: int
    seat: int | None  # None: a spectator
    target: int
    scores: tuple[int, ...]  # per side (teams in partnership)
    points: tuple[int, ...]  # this hand, per side
    holding: TileSet  # the seat's own tiles (0 for a spectator)
    tile_counts: tuple[int, ...]
    boneyard_count: int
    layout: Layout  # a copy: changing it changes nothing
    turn: int
    leader: int
    passes: int  # passes in a row just now
    must_lead: int  # the tile this seat must open with, or -1
    history: tuple[PublicMove, ...]
    result: HandResult | None
    revealed: tuple[TileSet, ...] | None  # every seat's tiles, once the hand is over
    reached_target: int | None = None

    @classmethod
    def of(cls, hand: Hand, seat: int | None) -> View:
        history = tuple(
            PublicMove(s, DRAW if m.kind is MoveKind.DRAW and s != seat else m, suits)
            for s, m, suits, *_ in hand.history
        )
        over = hand.result is not None
        return cls(
            preset=hand.preset,
            players=hand.players,
            seat=seat,
            target=hand.target,
            scores=tuple(hand.scores),
            points=tuple(hand.points),
            holding=hand.holdings[seat] if seat is not None else 0,
            tile_counts=tuple(h.bit_count() for h in hand.holdings),
            boneyard_count=len(hand.boneyard) - hand.drawn,
            layout=hand.layout.copy(),
            turn=hand.turn,
            leader=hand.leader,
            passes=hand.passes,
            must_lead=hand.must_lead if seat == hand.leader else -1,
            history=history,
            result=hand.result,
            revealed=tuple(hand.holdings) if over else None,
            reached_target=hand.reached_target,
        )

    @property
    def my_turn(self) -> bool:
        return self.result is None and self.seat == self.turn

    @property
    def tiles(self) -> list[int]:
        return tiles_of(self.holding)

    @property
    def drawable(self) -> int:
        return self.boneyard_count - self.preset.reserve

    def legal_moves(self) -> list[Move]:
        """The legal moves of this seat when it is its turn ([] otherwise)."""
        if not self.my_turn:
            return []
        can_draw = self.preset.drawing is Drawing.UNTIL_FITS and self.drawable > 0
        return legal_moves_of(self.layout, self.holding, self.must_lead, can_draw)

    def fitting(self) -> TileSet:
        return self.layout.fitting(self.holding)

    def hand_with(self, holdings: list[TileSet], boneyard: list[int]) -> Hand:
        """A full hand that agrees with this view and a guess at the hidden tiles (for search).

        ``holdings`` gives every seat's tiles (this seat's own must match the view), ``boneyard``
        the undrawn tiles in a guessed order. Moves can then be pushed and popped from here.
        """
        if self.seat is not None and holdings[self.seat] != self.holding:
            raise ValueError("the guess must give this seat its own tiles")
        hand = Hand(
            self.preset,
            holdings,
            boneyard,
            self.leader,
            scores=list(self.scores),
            target=self.target,
            must_lead=self.must_lead,
        )
        hand.layout = self.layout.copy()
        hand.turn = self.turn
        hand.passes = self.passes
        hand.points = list(self.points)
        return hand

    def pips(self) -> int:
        return pips_of(self.holding)
