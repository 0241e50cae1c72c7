"""What one seat may know of its table: the one place where the table's truth is cut down.

No other seat's tile and no boneyard order leave here before the hand is over; a drawn tile is
shown only to the seat that drew it. ``web/views.py`` serialises what these return, nothing more.
"""

from __future__ import annotations

from typing import Any

from ..rules import Move
from ..rules.tiles import RANK, tiles_of
from .table import Phase, TableState

# Event fields no client ever sees: the deal, and who a person is behind their seat.
_SECRET = {"dealt", "boneyard", "player", "options", "seats"}
_WITH_SECRETS = {"created", "joined", "dealt"}


def public_event(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """An event as ``seat`` may see it (None: a spectator): a draw shows its tile only to the
    seat that drew it. Events with nothing to hide are returned as they are (not copied)."""
    kind = event["kind"]
    if kind == "move":
        if "draw" in event and event["seat"] != seat:
            return {**event, "draw": True}
        return event
    if kind in _WITH_SECRETS:
        return {k: v for k, v in event.items() if k not in _SECRET}
    return event


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
