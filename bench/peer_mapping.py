"""How tiles and moves read in the two public dominoes programs the peer matches play against.

Pure functions over plain values, so that the mapping is tested without either library
(``tests/bots/test_peer_mapping.py``):

- OpenSpiel's ``python_block_dominoes``: a tile is a pair of floats ``(low, high)``, a move is
  ``(player, tile, edge)`` where ``edge`` is the open number it covers (``None`` for the lead);
  player 0 always leads, and a player who cannot play is skipped (no pass action).
- abw333's ``dominoes``: a tile is a ``Domino(first, second)`` (equal either way round), a move is
  ``(domino, left)``: the end of the line it goes on. Its ``Board`` keeps the lead as laid, so the
  lead's ``first`` half is the left end.

Our line has two arms; which arm is "left" does not matter to the future of a hand (only the two
numbers showing do), so a move is mapped by the number it covers, and a peer's move back to the
arm showing that number (the first such arm when both show it).
"""

from __future__ import annotations

from dominohall.rules.layout import Layout
from dominohall.rules.moves import Move, MoveKind
from dominohall.rules.tiles import HIGH, LOW, OTHER_HALF, make_tile

Pair = tuple[int, int]


def pair_of(tile: int) -> Pair:
    """Our tile as ``(low, high)``, the order OpenSpiel's deck uses."""
    return LOW[tile], HIGH[tile]


def tile_of_pair(a: float, b: float) -> int:
    """A peer's tile (either half first, ints or floats) as our tile."""
    return make_tile(int(a), int(b))


def covered_number(layout: Layout, move: Move) -> int | None:
    """The open number ``move`` covers; None for the lead. Raises on a draw or a pass."""
    if move.kind is not MoveKind.PLAY:
        raise ValueError(f"{move} covers no number: only plays map to a peer's moves")
    if move.arm is None:
        return None
    return layout.tips[move.arm]


def move_covering(layout: Layout, tile: int, number: int | None, first: int | None = None) -> Move:
    """Our move laying ``tile`` on the arm showing ``number`` (the lead when ``number`` is None,
    ``first`` facing arm 0). Raises ValueError when no open arm shows ``number`` or the tile does
    not show it: the peer's move is then illegal here."""
    if number is None:
        if not layout.empty:
            raise ValueError(f"a lead of {pair_of(tile)} after the lead")
        return Move.lead(tile, HIGH[tile] if first is None else first)
    if OTHER_HALF[tile][number] < 0:
        raise ValueError(f"tile {pair_of(tile)} does not show {number}")
    for arm in layout.open_arms:
        if layout.tips[arm] == number:
            return Move.play(tile, arm)
    raise ValueError(f"no open end shows {number} (ends {open_ends(layout)})")


def open_ends(layout: Layout) -> list[int]:
    """The numbers at the open ends, sorted (as OpenSpiel keeps ``open_edges``)."""
    return sorted(layout.tips[arm] for arm in layout.open_arms)


def abw_end(layout: Layout, move: Move, left_end: int | None, right_end: int | None) -> bool:
    """abw333's ``left`` flag for our ``move``, given that board's two ends (None: empty board).

    The lead goes "left" (abw333 lays the first domino as given). Otherwise the move goes on the
    abw333 end showing the number our arm shows; left when both do, as abw333 lists only that one.
    """
    number = covered_number(layout, move)
    if number is None:
        return True
    if left_end == number:
        return True
    if right_end == number:
        return False
    raise ValueError(f"neither abw333 end ({left_end}, {right_end}) shows {number}")


def referee(holding: int, layout: Layout, move: Move) -> None:
    """An independent check of one move in the line, from first principles: a played tile is
    held and shows the number it covers; a pass is made only when no held tile shows an open
    number. Raises AssertionError naming the fault. (The engine checks too; this does not use it.)
    """
    ends = open_ends(layout)
    held = [t for t in range(28) if holding >> t & 1]
    if move.kind is MoveKind.PASS:
        fits = [t for t in held if not ends or HIGH[t] in ends or LOW[t] in ends]
        assert not fits, f"a pass while holding {[pair_of(t) for t in fits]} on ends {ends}"
        return
    assert move.kind is MoveKind.PLAY, f"{move}: only plays and passes in these matches"
    assert move.tile in held, f"{pair_of(move.tile)} is not held"
    if not ends:
        return
    assert move.arm is not None, "a second lead"
    number = layout.tips[move.arm]
    assert number in (HIGH[move.tile], LOW[move.tile]), (
        f"{pair_of(move.tile)} laid on an end showing {number}"
    )
