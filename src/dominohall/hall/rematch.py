"""A rematch at a game's end: the same options and seats, a new table once every person accepts.

The offer lives in the finished table's own log (``rematch`` and ``rematch_table`` events), so a
restart keeps it. It is made to the people seated at the end; it ends when one of them leaves.
"""

from __future__ import annotations

from typing import Any

from .table import Phase, TableState


def rematch_people(state: TableState) -> list[int]:
    """The seats whose person is asked: the people still seated when the game ended."""
    return [s.seat for s in state.people() if s.out is None]


def rematch_open(state: TableState) -> bool:
    """Whether the offer stands: a game ended with people seated, nobody left, no table yet."""
    return (
        state.phase is Phase.FINISHED
        and state.result is not None
        and bool(rematch_people(state))
        and state.rematch_ended is None
        and state.rematch_table is None
    )


def rematch_seats(state: TableState) -> list[dict[str, Any]]:
    """The new table's seats (as a ``created`` event has them): each person and computer player
    where they sat; a seat whose person went out keeps the computer player that took it over."""
    seats = []
    for s in state.seats:
        if s.is_person and s.out is None:
            seats.append({"kind": "human", "player": s.player, "name": s.name, "bot": None})
        else:
            bot = s.bot or "normal"
            seats.append({"kind": "bot", "player": None, "name": bot.title(), "bot": bot})
    return seats


def rematch_json(state: TableState) -> dict[str, Any] | None:
    """The offer as clients see it (None before the game's end or after a closed table)."""
    if state.phase is not Phase.FINISHED or state.result is None:
        return None
    return {
        "open": rematch_open(state),
        "people": rematch_people(state),
        "accepted": sorted(state.rematch_accepted),
        "ended_by": state.rematch_ended,
        "table": state.rematch_table,
    }
