"""Which ends a tile is worth asking about: the ends of `moves.play[].ends` (docs/protocol.md).

Ends alike for the player (the same number, the same points now and the same game after) are
one choice, so that a tile fitting two of them is played without a question. Two ends with the
same number are alike when
- neither ends in a double: a plain end counts its number once, and the tile laid on either
  leaves the same open numbers; or
- both are ends of the same double: the lead double's two sides, or a spinner's two ends;
- in a line that counts nothing, any two: the open numbers are then all that matters.
An end on a double beside a plain end of its number is not alike: the double counts both halves,
or a spinner opens more arms once covered, so points and what follows differ.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import Preset
from ..rules.presets import Count, LayoutKind
from ..rules.tiles import IS_DOUBLE, parse_tile
from . import messages


def _piece_at(layout: messages.Layout, arm: int) -> str | None:
    """The tile lying at an open arm's end (a layout's JSON, ``layout_view.layout_json``): its
    last tile, else the tile it starts from (the lead for arms 0 and 1, the spinner for a
    spinner's ends); None when the layout does not say."""
    arms = {a["arm"]: a for a in layout["arms"]}
    lead = layout["lead"]["tile"] if layout["lead"] else None
    at = arms.get(arm)
    if at is not None and at["tiles"]:
        return at["tiles"][-1]["tile"]
    start = at["from"] if at is not None else None
    if start is None or start["arm"] is None:
        return lead
    root = arms.get(start["arm"])
    return root["tiles"][start["index"]]["tile"] if root is not None else None


def end_choices(layout: messages.Layout, arms: Sequence[int], preset: Preset) -> list[int]:
    """One arm for each set of alike ends among ``arms`` (the lowest of each), in arm order."""
    arms = sorted(arms)
    if len(arms) < 2:
        return arms
    numbers = {end["arm"]: end["number"] for end in layout["open_ends"]}
    only_numbers = preset.layout is LayoutKind.LINE and preset.count is Count.NONE
    seen: set[tuple[str, object]] = set()
    choices = []
    for arm in arms:
        piece = _piece_at(layout, arm)
        key: tuple[str, object]
        if piece is None:
            key = ("arm", arm)  # not known: asked about
        elif only_numbers or not IS_DOUBLE[parse_tile(piece)]:
            key = ("end", numbers.get(arm))
        else:
            key = ("double", parse_tile(piece))
        if key not in seen:
            seen.add(key)
            choices.append(arm)
    return choices
