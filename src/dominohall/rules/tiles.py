"""Tiles of the double-six set as small integers, with the lookup tables the engine is built on.

A tile is an int 0..27: the tile ``high-low`` (``high >= low``) is ``high * (high + 1) // 2 + low``,
so ``0-0`` is 0 and ``6-6`` is 27. A set of tiles (a player's hand, the boneyard) is a 28-bit mask.

>>> parse_tile("6-4") == parse_tile("4-6")
True
>>> tile_name(parse_tile("4-6"))
'6-4'
>>> PIPS[parse_tile("6-6")]
12
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import reduce
from operator import or_

from .errors import InvalidTileError

Tile = int
TileSet = int  # a bitmask of tiles

NUMBERS = range(7)
TILE_COUNT = 28
ALL_TILES: TileSet = (1 << TILE_COUNT) - 1


def make_tile(a: int, b: int) -> Tile:
    """The tile with halves ``a`` and ``b`` (in either order)."""
    high, low = (a, b) if a >= b else (b, a)
    return high * (high + 1) // 2 + low


HIGH: tuple[int, ...] = tuple(h for h in NUMBERS for _ in range(h + 1))
LOW: tuple[int, ...] = tuple(low for h in NUMBERS for low in range(h + 1))
PIPS: tuple[int, ...] = tuple(HIGH[t] + LOW[t] for t in range(TILE_COUNT))
IS_DOUBLE: tuple[bool, ...] = tuple(HIGH[t] == LOW[t] for t in range(TILE_COUNT))
BIT: tuple[int, ...] = tuple(1 << t for t in range(TILE_COUNT))

# SUIT[n]: the seven tiles showing the number n.
SUIT: tuple[TileSet, ...] = tuple(
    sum(BIT[t] for t in range(TILE_COUNT) if n in (HIGH[t], LOW[t])) for n in NUMBERS
)
# FITTING[numbers]: every tile showing one of the numbers in a 7-bit mask of numbers.
FITTING: tuple[TileSet, ...] = tuple(
    reduce(or_, (SUIT[n] for n in NUMBERS if numbers >> n & 1), 0) for numbers in range(1 << 7)
)
DOUBLES: TileSet = sum(BIT[t] for t in range(TILE_COUNT) if IS_DOUBLE[t])

# OTHER_HALF[t][n]: the half of t that is not n (t must show n); -1 where t does not show n.
OTHER_HALF: tuple[tuple[int, ...], ...] = tuple(
    tuple(LOW[t] if n == HIGH[t] else HIGH[t] if n == LOW[t] else -1 for n in NUMBERS)
    for t in range(TILE_COUNT)
)

# RANK[t]: the tile order of RULES.md ("heaviest"): more pips first, then the larger half.
RANK: tuple[int, ...] = tuple(PIPS[t] * 8 + HIGH[t] for t in range(TILE_COUNT))


def tiles_of(mask: TileSet) -> list[Tile]:
    """The tiles in a mask, lightest index first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def iter_tiles(mask: TileSet) -> Iterator[Tile]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(tiles: list[Tile] | tuple[Tile, ...] | set[Tile]) -> TileSet:
    mask = 0
    for t in tiles:
        mask |= BIT[t]
    return mask


# Pips of every set of the first 14 tiles, and of the last 14: a mask's pips in two lookups.
_PIPS_LOW: tuple[int, ...] = tuple(
    sum(PIPS[t] for t in range(14) if m >> t & 1) for m in range(1 << 14)
)
_PIPS_HIGH: tuple[int, ...] = tuple(
    sum(PIPS[t + 14] for t in range(14) if m >> t & 1) for m in range(1 << 14)
)


def pips_of(mask: TileSet) -> int:
    """The pips of a set of tiles.

    >>> pips_of(mask_of([make_tile(6, 6), make_tile(1, 0)]))
    13
    """
    return _PIPS_LOW[mask & 0x3FFF] + _PIPS_HIGH[mask >> 14]


def pips_each(masks: Iterable[TileSet]) -> list[int]:
    """The pips of each set of tiles (as ``pips_of``, in one call: the end of every hand).

    >>> pips_each([mask_of([make_tile(6, 6)]), 0])
    [12, 0]
    """
    low, high = _PIPS_LOW, _PIPS_HIGH
    return [low[mask & 0x3FFF] + high[mask >> 14] for mask in masks]


def heaviest(mask: TileSet) -> Tile:
    """The heaviest tile of a non-empty mask by the tile order."""
    return max(iter_tiles(mask), key=RANK.__getitem__)


def tile_name(tile: Tile, first: int | None = None) -> str:
    """``"6-4"``; with ``first``, that half is written first (a lead's orientation)."""
    high, low = HIGH[tile], LOW[tile]
    if first is not None and first == low:
        return f"{low}-{high}"
    return f"{high}-{low}"


def parse_halves(text: object) -> tuple[int, int]:
    """The two halves of a tile string ``"a-b"`` in the order written."""
    if not isinstance(text, str):
        raise InvalidTileError(f"a tile is a string like '6-4', not {text!r}")
    parts = text.split("-")
    if len(parts) != 2 or not all(len(p) == 1 and p in "0123456" for p in parts):
        raise InvalidTileError(f"{text!r} is not a double-six tile (write it like '6-4')")
    return int(parts[0]), int(parts[1])


def parse_tile(text: object) -> Tile:
    a, b = parse_halves(text)
    return make_tile(a, b)


def double_of(n: int) -> Tile:
    return make_tile(n, n)
