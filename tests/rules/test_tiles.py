"""Tiles of the double-six set and the tile order (RULES.md 1)."""

from __future__ import annotations

import itertools

import pytest

from dominohall.rules import (
    PIPS,
    RANK,
    InvalidTileError,
    heaviest,
    make_tile,
    mask_of,
    parse_tile,
    pips_of,
    tile_name,
)
from dominohall.rules.tiles import ALL_TILES, TILE_COUNT

from .deals import tiles


def test_double_six_set_has_28_tiles_each_pair_of_numbers_once() -> None:
    pairs = {make_tile(a, b) for a in range(7) for b in range(a, 7)}
    assert pairs == set(range(TILE_COUNT))
    assert TILE_COUNT == 28
    assert mask_of(list(range(TILE_COUNT))) == ALL_TILES


def test_a_tile_is_the_same_whichever_half_is_written_first() -> None:
    assert parse_tile("6-4") == parse_tile("4-6") == make_tile(4, 6)
    assert tile_name(parse_tile("4-6")) == "6-4"


def test_a_leads_first_half_can_be_named() -> None:
    assert tile_name(parse_tile("6-4"), first=4) == "4-6"
    assert tile_name(parse_tile("6-4"), first=6) == "6-4"


@pytest.mark.parametrize("text", ["7-1", "6", "6-4-1", "a-b", "66", " 6-4", "-1-0", 64, None])
def test_only_double_six_tiles_parse(text: object) -> None:
    with pytest.raises(InvalidTileError):
        parse_tile(text)


def test_pips_of_a_hand_sum_both_halves_of_every_tile() -> None:
    assert PIPS[parse_tile("6-6")] == 12
    assert PIPS[parse_tile("0-0")] == 0
    assert pips_of(mask_of(tiles("6-6 5-4 3-0"))) == 12 + 9 + 3


def test_tile_order_higher_pip_total_first() -> None:
    assert RANK[parse_tile("5-3")] > RANK[parse_tile("6-1")]  # 8 pips beat 7
    assert heaviest(mask_of(tiles("6-1 5-3 0-0"))) == parse_tile("5-3")


def test_tile_order_equal_totals_larger_half_first() -> None:
    """6-1 > 5-2 > 4-3 (RULES.md 1)."""
    order = sorted(tiles("4-3 6-1 5-2"), key=RANK.__getitem__, reverse=True)
    assert order == tiles("6-1 5-2 4-3")


def test_tile_order_doubles_have_no_extra_rank() -> None:
    """3-3 and 4-2 both have 6 pips: the larger half (4) decides, so 4-2 is heavier than 3-3."""
    assert RANK[parse_tile("4-2")] > RANK[parse_tile("3-3")]
    assert RANK[parse_tile("5-1")] > RANK[parse_tile("4-2")]
    assert heaviest(mask_of(tiles("3-3 4-2"))) == parse_tile("4-2")


def test_tile_order_is_total_no_two_tiles_tie() -> None:
    assert len(set(RANK)) == TILE_COUNT
    for a, b in itertools.combinations(range(TILE_COUNT), 2):
        pa, pb = PIPS[a], PIPS[b]
        if pa != pb:
            assert (RANK[a] > RANK[b]) == (pa > pb)
        else:
            high_a = max(int(h) for h in tile_name(a).split("-"))
            high_b = max(int(h) for h in tile_name(b).split("-"))
            assert (RANK[a] > RANK[b]) == (high_a > high_b)
