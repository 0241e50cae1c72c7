"""A rematch at a game's end: the same options and seats, a new table once every person accepts.

The offer lives in the finished table's own log (``rematch`` and ``rematch_table`` events), so a
restart keeps it. It is made to the people seated at the end; it ends when one of them leaves.
"""

from __future__ import annotations

from typing import Any, Protocol

from .. import commands as c
from ..errors import HallError
from ..events import Event, Rematch, RematchTable, SeatAtStart, SeatKind
from .parts import Phase, Seat


class FinishedTable(Protocol):
    """What the rematch's rules read of a table (``TableState`` is one)."""

    @property
    def phase(self) -> Phase: ...
    @property
    def seats(self) -> list[Seat]: ...
    @property
    def result(self) -> dict[str, Any] | None: ...
    @property
    def rematch_accepted(self) -> set[int]: ...
    @property
    def rematch_ended(self) -> int | None: ...
    @property
    def rematch_table(self) -> str | None: ...
    def people(self) -> list[Seat]: ...
    def seat_of(self, player: str) -> int | None: ...


def _still_seated(seat: Seat) -> bool:
    """A person still at the table at the game's end: not gone out of it, though maybe having
    resigned the game that ended (2 players, a partnership: nobody took their seat over)."""
    return seat.is_person and seat.out in (None, "resigned")


def rematch_people(state: FinishedTable) -> list[int]:
    """The seats whose person is asked: the people still seated when the game ended (one who
    resigned it included)."""
    return [s.seat for s in state.seats if _still_seated(s)]


def rematch_open(state: FinishedTable) -> bool:
    """Whether the offer stands: a game ended with people seated, nobody left, no table yet.
    An aborted game offers none: someone was absent from its start, and would be again."""
    return (
        state.phase is Phase.FINISHED
        and state.result is not None
        and state.result["reason"] != "aborted"
        and bool(rematch_people(state))
        and state.rematch_ended is None
        and state.rematch_table is None
    )


def rematch_seats(state: FinishedTable) -> tuple[SeatAtStart, ...]:
    """The new table's seats: each person and computer player where they sat; a seat whose
    person went out keeps the computer player that took it over."""
    seats = []
    for s in state.seats:
        if _still_seated(s):
            seats.append(SeatAtStart(SeatKind.HUMAN, s.player, s.name))
        else:
            bot = s.bot or "normal"
            seats.append(SeatAtStart(SeatKind.BOT, None, bot.title(), bot))
    return tuple(seats)


def decide_rematch(
    state: FinishedTable, command: c.AnswerRematch | c.GoneAfterTheEnd
) -> list[Event]:
    """The events of an answer to the offer, or of a person gone from the finished table."""
    if isinstance(command, c.GoneAfterTheEnd):
        if rematch_open(state) and command.seat in rematch_people(state):
            return [Rematch(command.seat, False)]
        return []
    if state.phase is not Phase.FINISHED or state.result is None:
        raise HallError("not_over", "a rematch is offered once the game is over")
    seat = state.seat_of(command.player)
    if seat is None or seat not in rematch_people(state):
        raise HallError("not_seated", "only the people seated at the end are asked")
    if state.rematch_table is not None:
        return []
    if not rematch_open(state) and not command.accept:
        # Leaving an offer that has ended is already done: the page that says "no" as it goes
        # may be overtaken by its own socket closing, which ended the offer (GoneAfterTheEnd).
        return []
    if state.result["reason"] == "aborted":
        raise HallError("rematch_over", "an aborted game offers no rematch: look for a game again")
    if not rematch_open(state):
        who = state.seats[state.rematch_ended or 0].name
        raise HallError("rematch_over", "{name} left: the rematch offer has ended", name=who)
    said_before = seat in state.rematch_accepted
    events: list[Event] = [] if command.accept and said_before else [Rematch(seat, command.accept)]
    if command.accept and set(rematch_people(state)) <= state.rematch_accepted | {seat}:
        # The last acceptance: the new table is named in the same change (a log from an older
        # hall may hold every acceptance without it: the next yes names it).
        if not command.new_table:
            raise ValueError("the last acceptance of a rematch needs the new table's id")
        events.append(RematchTable(command.new_table))
    return events
