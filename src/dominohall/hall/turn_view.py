"""What a turn-based table's view adds (docs/protocol.md, ``turn_based``): each player's clock,
vacations, the game's duration so far, and for a seated player what happened since their last
move (a player opening the table days later sees it at a glance)."""

from __future__ import annotations

from typing import Any

from .event_view import written_all
from .events import Moved
from .options import TurnBasedClock
from .table import TableState
from .table.happened import Happened


def clock_json(clock: TurnBasedClock) -> dict[str, Any]:
    """A turn-based clock as tables and the page's choices show it."""
    return {
        "id": clock.id,
        "speed": "turn-based",
        "name": clock.name,
        "increment": clock.increment,
        "cap": clock.cap,
    }


SINCE_KINDS = {"move", "hand_over", "dealt", "out", "vacation", "game_over"}
SINCE_MOST = 60  # events listed at most (the oldest are left out)


def turn_based_json(state: TableState, seat: int | None, now: float) -> dict[str, Any] | None:
    """The ``turn_based`` part of a table's state (None: a real-time table)."""
    clock = state.options.turn_based
    if clock is None:
        return None
    clocks = []
    if state.clocks:
        for s in state.seats:
            running = s.seat == state.turn and s.is_person
            clocks.append(
                {
                    "seat": s.seat,
                    "left": state.clock_left(s.seat, now),
                    "running": running,
                    "deadline": state.turn_deadline if running else None,
                    "vacation_until": state.on_vacation(s.seat, now),
                }
            )
    return {
        **clock_json(clock),
        "clocks": clocks,
        "started_at": state.started_at,
        "duration": state.duration(now),
        "since_your_move": since_last_move(state, seat) if seat is not None else None,
    }


def since_last_move(state: TableState, seat: int) -> list[dict[str, Any]]:
    """The public events since ``seat`` last ended a turn (since the start if it never did):
    the others' moves (a draw without its tile), hands over, deals, people out, vacations."""
    last = state.last_turn_of.get(seat, 0)
    since: list[Happened] = []
    for entry in reversed(state.tail):  # the newest first, back to the seat's last turn
        if entry.version <= last or len(since) == SINCE_MOST:
            break
        event = entry.event
        if event.kind not in SINCE_KINDS or (isinstance(event, Moved) and event.seat == seat):
            continue  # (their own forced moves or draws: they know)
        since.append(entry)
    since.reverse()
    seen = []
    for one in written_all(state, since):
        public = one.forms.get("since")
        if public is None:
            public = one.forms["since"] = _public(one.whole)
        seen.append(public)
    return seen


def _public(event: dict[str, Any]) -> dict[str, Any]:
    kind = event["kind"]
    if kind == "move" and "draw" in event:
        return {**event, "draw": True}
    if kind == "dealt":
        return {"version": event["version"], "kind": kind, "hand": event["hand"]}
    if kind == "hand_over":
        result = event["result"]
        return {
            "version": event["version"],
            "kind": kind,
            "hand": event["hand"],
            "winner": result["winner"],
            "points": result["points"],
        }
    return event
