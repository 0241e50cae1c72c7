"""Moves and their record notation (DESIGN.md, "The game record")."""

from __future__ import annotations

import pytest

from dominohall.rules import InvalidMoveError, InvalidTileError, Move, MoveKind, parse_tile


@pytest.mark.parametrize(
    ("move", "notation"),
    [
        (Move.lead("4-6"), {"seat": 0, "play": "4-6"}),
        (Move.lead("6-4"), {"seat": 0, "play": "6-4"}),
        (Move.play("6-4", 3), {"seat": 0, "play": "6-4", "arm": 3}),
        (Move.draw("5-0"), {"seat": 0, "draw": "5-0"}),
        (Move.pass_(), {"seat": 0, "pass": True}),
    ],
)
def test_moves_are_written_and_read_in_record_notation(
    move: Move, notation: dict[str, object]
) -> None:
    assert move.to_json(0) == notation
    assert Move.parse(notation) == move


def test_the_leads_first_half_faces_arm_0_elsewhere_either_order_names_the_same_tile() -> None:
    assert Move.parse({"seat": 0, "play": "4-6"}).first == 4
    assert Move.parse({"seat": 0, "play": "4-6", "arm": 1}) == Move.play("6-4", 1)
    assert Move.lead("4-6") != Move.lead("6-4")
    assert Move.lead("4-6").tile == parse_tile("6-4")


def test_a_moves_repr_is_the_code_that_makes_it() -> None:
    for move in (
        Move.lead("4-6"),
        Move.play("6-4", 1),
        Move.draw("5-0"),
        Move.draw(),
        Move.pass_(),
    ):
        assert eval(repr(move), {"Move": Move}) == move


def test_a_draw_need_not_name_its_tile_where_the_reader_allows_it() -> None:
    move = Move.parse({"seat": 1, "draw": True}, draw_tile_required=False)
    assert (move.kind, move.tile) == (MoveKind.DRAW, -1)


@pytest.mark.parametrize(
    "notation",
    [
        {"seat": 0},
        {"seat": 0, "play": "6-4", "pass": True},
        {"seat": 0, "pass": False},
        {"seat": 0, "pass": True, "arm": "1"},
        {"seat": 0, "draw": "5-0", "arm": 1.5},
        {"seat": 0, "draw": True},
        {"seat": 0, "play": "7-4", "arm": 1},
        {"seat": 0, "play": "6-4", "arm": "1"},
        {"seat": 0, "play": "6-4", "arm": True},
        {"seat": 0, "play": 64},
        ["play", "6-4"],
    ],
)
def test_a_malformed_move_is_an_invalid_move_error(notation: object) -> None:
    with pytest.raises(InvalidMoveError):
        Move.parse(notation)


@pytest.mark.parametrize("tile", [-1, 28, 100])
def test_a_tile_number_outside_0_to_27_names_no_tile(tile: int) -> None:
    """-1 is not 6-6 (a negative index must not wrap round to the last tile)."""
    with pytest.raises(InvalidTileError):
        Move.play(tile, 0)
    with pytest.raises(InvalidTileError):
        Move.lead(tile)
    with pytest.raises(InvalidTileError):
        Move.draw(tile)
