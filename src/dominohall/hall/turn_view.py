"""What a turn-based table's view adds (docs/protocol.md, ``turn_based``): each player's clock,
vacations, the game's duration so far, and for a seated player what happened since their last
move (a player opening the table days later sees it at a glance)."""

from __future__ import annotations

from . import messages
from .event_view import written_all
from .events import Moved
from .options import TurnBasedClock
from .table import TableState
from .table.happened import Happened


def clock_json(clock: TurnBasedClock) -> messages.TurnBasedTimer:
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


def turn_based_json(state: TableState, seat: int | None, now: float) -> messages.TurnBased | None:
    """The ``turn_based`` part of a table's state (None: a real-time table)."""
    clock = state.options.turn_based
    if clock is None:
        return None
    clocks: list[messages.SeatClock] = []
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


def since_last_move(state: TableState, seat: int) -> list[messages.SinceEntry]:
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
        public = one.since
        if public is None:
            public = one.since = _public(one.whole)
        seen.append(public)
    return seen


def _public(event: messages.Event) -> messages.SinceEntry:
    """An event of ``SINCE_KINDS`` as ``since_your_move`` lists it."""
    if event["kind"] == "move":
        return {**event, "draw": True} if "draw" in event else event
    if event["kind"] == "dealt":
        return {"version": event["version"], "kind": "dealt", "hand": event["hand"]}
    if event["kind"] == "hand_over":
        result = event["result"]
        return {
            "version": event["version"],
            "kind": "hand_over",
            "hand": event["hand"],
            "winner": result["winner"],
            "points": result["points"],
        }
    if event["kind"] == "out" or event["kind"] == "vacation" or event["kind"] == "game_over":
        return event
    raise ValueError(f"{event['kind']} is not listed since a move")
