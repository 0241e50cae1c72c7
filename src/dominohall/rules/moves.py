"""Moves: play a tile (on an arm, or as the lead), draw one tile, pass.

Moves are small frozen values. Every move the engine can make exists once, built at import, so
that generating legal moves allocates nothing but the list.

>>> Move.play("6-4", arm=1)
Move.play('6-4', arm=1)
>>> Move.lead("4-6")
Move.lead('4-6')
>>> Move.parse({"seat": 0, "pass": True})
Move.pass_()
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from .errors import InvalidTileError
from .layout import MAX_ARMS
from .tiles import HIGH, TILE_COUNT, Tile, make_tile, parse_halves, parse_tile, tile_name


class InvalidMoveError(ValueError):
    """A move that is malformed (not a move at all), as opposed to one the rules forbid."""


class MoveKind(IntEnum):
    PLAY = 0
    DRAW = 1
    PASS = 2


@dataclass(frozen=True, slots=True)
class Move:
    kind: MoveKind
    tile: Tile = -1  # the tile played, or drawn (-1: a draw whose tile is not known)
    arm: int | None = None  # None for the lead
    first: int = -1  # the lead only: the half facing arm 0
    # The played tile's bit; 0 for a draw, a pass or a play of no tile. Hand.push() tests it
    # against the holding in one step, the hot path of every search.
    bit: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.kind is MoveKind.PLAY and 0 <= self.tile < TILE_COUNT:
            object.__setattr__(self, "bit", 1 << self.tile)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (a computer player's choice comes back from its worker) by what makes it: a
        # compiled class cannot be made empty and filled in.
        return (Move, (self.kind, self.tile, self.arm, self.first))

    # Constructors -----------------------------------------------------------------
    @classmethod
    def play(cls, tile: Tile | str, arm: int) -> Move:
        t = tile_of(tile)
        if not 0 <= arm < MAX_ARMS:
            return cls(MoveKind.PLAY, t, arm)
        return PLAYS[t][arm]

    @classmethod
    def lead(cls, tile: Tile | str, first: int | None = None) -> Move:
        if isinstance(tile, str):
            a, b = parse_halves(tile)
            return cls(MoveKind.PLAY, make_tile(a, b), None, a)
        tile = tile_of(tile)
        return cls(MoveKind.PLAY, tile, None, HIGH[tile] if first is None else first)

    @classmethod
    def draw(cls, tile: Tile | str | None = None) -> Move:
        if tile is None:
            return DRAW
        return DRAWS[tile_of(tile)]

    @classmethod
    def pass_(cls) -> Move:
        return PASS

    # Properties -------------------------------------------------------------------
    @property
    def is_play(self) -> bool:
        return self.kind is MoveKind.PLAY

    @property
    def is_lead(self) -> bool:
        return self.kind is MoveKind.PLAY and self.arm is None

    def __repr__(self) -> str:
        if self.kind is MoveKind.PASS:
            return "Move.pass_()"
        if self.kind is MoveKind.DRAW:
            return "Move.draw()" if self.tile < 0 else f"Move.draw({tile_name(self.tile)!r})"
        if self.arm is None:
            return f"Move.lead({tile_name(self.tile, self.first)!r})"
        return f"Move.play({tile_name(self.tile)!r}, arm={self.arm})"

    def __str__(self) -> str:
        if self.kind is MoveKind.PASS:
            return "pass"
        if self.kind is MoveKind.DRAW:
            return "draw" if self.tile < 0 else f"draw {tile_name(self.tile)}"
        if self.arm is None:
            return f"lead {tile_name(self.tile, self.first)}"
        return f"{tile_name(self.tile)} on arm {self.arm}"

    # Record notation --------------------------------------------------------------
    def to_json(self, seat: int) -> dict[str, object]:
        if self.kind is MoveKind.PASS:
            return {"seat": seat, "pass": True}
        if self.kind is MoveKind.DRAW:
            return {"seat": seat, "draw": tile_name(self.tile) if self.tile >= 0 else True}
        if self.arm is None:
            return {"seat": seat, "play": tile_name(self.tile, self.first)}
        return {"seat": seat, "play": tile_name(self.tile), "arm": self.arm}

    @classmethod
    def parse(cls, obj: object, *, draw_tile_required: bool = True) -> Move:
        """A move in record notation; raises InvalidMoveError naming what is malformed.

        The seat is checked by the caller (it must be an int; its range depends on the game).
        """
        if not isinstance(obj, dict):
            raise InvalidMoveError(f"a move is a JSON object, not {obj!r}")
        kinds = [k for k in ("play", "draw", "pass") if k in obj]
        if len(kinds) != 1:
            raise InvalidMoveError(
                f"a move has exactly one of 'play', 'draw', 'pass' (found {kinds or 'none'})"
            )
        kind = kinds[0]
        # An "arm" of null is no arm; any other arm must be an integer (on a draw or a pass,
        # where no arm means anything, an integer arm is ignored).
        arm = obj.get("arm")
        if arm is not None and (not isinstance(arm, int) or isinstance(arm, bool)):
            raise InvalidMoveError(f"'arm' must be an integer, not {arm!r}")
        try:
            if kind == "pass":
                if obj["pass"] is not True:
                    raise InvalidMoveError(f"'pass' must be true, not {obj['pass']!r}")
                return PASS
            if kind == "draw":
                if obj["draw"] is True and not draw_tile_required:
                    return DRAW
                return DRAWS[parse_tile(obj["draw"])]
            a, b = parse_halves(obj["play"])
        except InvalidTileError as exc:
            raise InvalidMoveError(str(exc)) from None
        tile = make_tile(a, b)
        if arm is None:
            return cls(MoveKind.PLAY, tile, None, a)
        return cls.play(tile, arm)


def tile_of(tile: Tile | str) -> Tile:
    """A tile given as a string or an int; an int outside 0..27 (even -1) names no tile."""
    if isinstance(tile, str):
        return parse_tile(tile)
    if not 0 <= tile < TILE_COUNT:
        raise InvalidTileError(f"{tile} is not a tile (tiles are the ints 0..27)")
    return tile


DRAW = Move(MoveKind.DRAW)
PASS = Move(MoveKind.PASS)
DRAWS: tuple[Move, ...] = tuple(Move(MoveKind.DRAW, t) for t in range(TILE_COUNT))
PLAYS: tuple[tuple[Move, ...], ...] = tuple(
    tuple(Move(MoveKind.PLAY, t, k) for k in range(MAX_ARMS)) for t in range(TILE_COUNT)
)
# The lead as legal_moves() offers it: the high half facing arm 0 (any orientation is legal).
LEADS: tuple[Move, ...] = tuple(Move(MoveKind.PLAY, t, None, HIGH[t]) for t in range(TILE_COUNT))

__all__ = ["Move", "MoveKind", "InvalidMoveError", "DRAW", "PASS", "PLAYS", "LEADS", "DRAWS"]
