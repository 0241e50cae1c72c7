"""What one seat may know of its table: the one place where the table's truth is cut down.

No other seat's tile and no boneyard order leave here before the hand is over; a drawn tile is
shown only to the seat that drew it. ``hall/views.py`` serialises what these return, nothing more.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from ..rules import Move
from ..rules.moves import MoveKind
from ..rules.tiles import RANK, tiles_of
from . import messages
from .event_view import written_all
from .events import Moved
from .table import Phase, TableState
from .table.happened import Happened
from .view_cache import Written

# Event fields no client ever sees: the deal, and who a person is behind their seat.
_SECRET = {"dealt", "boneyard", "player", "options", "seats"}
_WITH_SECRETS = {"created", "joined", "dealt", "renamed"}


def public_event(state: TableState, entry: Happened, seat: int | None) -> messages.Event:
    """What happened (``entry``) as ``seat`` may see it (None: a spectator): a draw shows its
    tile only to the seat that drew it. Made once per entry (shared: not to be changed)."""
    return public_events(state, (entry,), seat)[0]


def public_events(
    state: TableState, entries: Iterable[Happened], seat: int | None
) -> list[messages.Event]:
    """``public_event`` of each entry."""
    return seen_by(written_all(state, entries), seat)


def seen_by(written: Iterable[Written], seat: int | None) -> list[messages.Event]:
    """What ``seat`` may see of entries as written (the same for many seats: written once)."""
    out = []
    for one in written:
        cut = one.cut
        if cut is None:
            cut = one.cut = _cut(one.entry, one.whole)
        out.append(one.whole if cut[0] == seat else cut[1])
    return out


def _cut(entry: Happened, whole: messages.Event) -> tuple[int, messages.Event]:
    """The seat that sees the whole event (-1: none), and what the others see."""
    event = entry.event
    if isinstance(event, Moved):
        if event.move.kind is MoveKind.DRAW and whole["kind"] == "move":  # (it is: a Moved's)
            return event.seat, _draw_hidden(whole)
        return -1, whole
    if event.kind in _WITH_SECRETS:
        return -1, _secrets_left_out(whole)
    return -1, whole


def _draw_hidden(event: messages.MoveEvent) -> messages.MoveEvent:
    return {**event, "draw": True}


def _secrets_left_out(event: messages.Event) -> messages.Event:
    # The event as stored less what no client sees: the protocol's event of its kind.
    return cast(messages.Event, {k: v for k, v in event.items() if k not in _SECRET})


def own_tiles(state: TableState, seat: int | None) -> list[int]:
    """The tiles ``seat`` holds now, heaviest first (none for a spectator)."""
    hand = state.hand
    if seat is None or hand is None:
        return []
    return sorted(tiles_of(hand.holdings[seat]), key=lambda t: -RANK[t])


def moves_of(state: TableState, seat: int | None) -> list[Move] | None:
    """The legal moves of ``seat`` when it is to move in a hand being played, else None."""
    hand = state.hand
    if hand is None or seat is None or state.phase is not Phase.PLAYING or hand.over:
        return None
    return hand.legal_moves() if hand.turn == seat else None
