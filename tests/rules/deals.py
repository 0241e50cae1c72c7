"""Explicit deals for the rules tests: tiles and moves written as in a game record ("6-4")."""

from __future__ import annotations

import dataclasses

from dominohall.rules import (
    PRESETS,
    Game,
    Hand,
    Layout,
    Move,
    View,
    mask_of,
    parse_tile,
    tile_name,
    tiles_of,
)
from dominohall.rules.layout import FIELDS
from dominohall.rules.tiles import TILE_COUNT


def tiles(text: str) -> list[int]:
    """``"6-6 5-0"`` -> the tiles, in the order written."""
    return [parse_tile(name) for name in text.split()]


def names(mask: int) -> str:
    """The tiles of a mask as text, in index order (``"5-0 6-6"``)."""
    return " ".join(tile_name(t) for t in tiles_of(mask))


def make_hand(
    preset: str,
    holdings: list[str],
    boneyard: str = "",
    leader: int = 0,
    **kwargs: object,
) -> Hand:
    """A hand from an explicit deal (any tiles, not necessarily the whole set)."""
    return Hand(
        PRESETS[preset],
        [tiles(held) for held in holdings],
        tiles(boneyard),
        leader,
        **kwargs,  # type: ignore[arg-type]
    )


def move(text: str) -> Move:
    """``"draw"``, ``"pass"``, a lead ``"5-3"`` (5 faces arm 0) or a play ``"5-0@1"`` (on arm 1)."""
    if text in ("draw", "pass"):
        return Move.draw() if text == "draw" else Move.pass_()
    if "@" in text:
        tile, arm = text.split("@")
        return Move.play(tile, int(arm))
    return Move.lead(text)


def play(hand: Hand, *moves: str) -> None:
    for text in moves:
        hand.push(move(text))


def full_deal(players_tiles: list[str], boneyard_first: str = "") -> tuple[list[int], list[int]]:
    """A deal of the whole set: the given hands; the boneyard starts with ``boneyard_first`` and
    goes on with the remaining tiles, lightest index first."""
    holdings = [mask_of(tiles(held)) for held in players_tiles]
    first = tiles(boneyard_first)
    used = set(first)
    for held in holdings:
        used.update(tiles_of(held))
    rest = [t for t in range(TILE_COUNT) if t not in used]
    return holdings, first + rest


def settle(game: Game, hand: Hand) -> None:
    """Let ``hand`` (from an explicit deal, with the game's scores) be the game's current hand
    once it is over, and settle it as the game does after every hand."""
    assert hand.over
    game.hands.append(hand)
    ends = game.ends_with(hand)  # asked first: it changes nothing, and says what end_hand does
    game.end_hand()
    assert ends == game.finished


def snapshot(hand: Hand) -> tuple[object, ...]:
    """Everything a hand's state is made of, to compare before a push and after its pop."""
    lay = hand.layout
    return (
        list(hand.holdings),
        hand.drawn,
        list(hand.boneyard),
        hand.turn,
        hand.passes,
        list(hand.scores),
        list(hand.points),
        hand.result,
        hand.reached_target,
        list(hand.history),
        lay.lead_tile,
        lay.lead_first,
        list(lay.tips),
        list(lay.ends),
        list(lay.waiting_ends),
        list(lay.open_arms),
        lay.open_suits,
        lay.lead_spinner_waiting,
        lay.next_arm,
        lay.spinners,
        list(lay.chain),
        lay.count_total() if not lay.empty else 0,
        hand.legal_moves(),
    )


def public_state(view: View) -> dict[str, object]:
    """Every field of a view, the layout taken apart (a Layout compares by identity)."""
    state = {f.name: getattr(view, f.name) for f in dataclasses.fields(view)}
    layout = state.pop("layout")
    assert isinstance(layout, Layout)
    state["layout"] = {name: getattr(layout, name) for name in ("kind", *FIELDS)}
    return state
