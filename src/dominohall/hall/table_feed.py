"""What a table publishes after each change, for the socket tier: the change's version and, for
each audience listening, the message it is sent (docs/protocol.md: an ``update``, or the whole
``state`` at a hand's start), made once at the version it describes. The first state a socket
is sent (on hello, on resync, after it fell behind or its seat changed) comes from ``view``, a
query to the table's owner, never from the table's memory: a socket tier in another process
serves a table from these two alone.

An audience is who a message is made for: a seat's person, or someone watching (who may have
been taken out of a seat). Messages carry no person: the socket fills in ``you.player`` and
``you.name`` of the one it serves (``addressed``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .errors import HallError
from .event_view import written_all
from .events import Dealt
from .listing import Listing
from .messages import Event, StateMessage, TableMessage, You
from .seat_view import public_events, seen_by
from .table import Phase, TableState
from .table.happened import Happened
from .views import laid_count, state_for, timeouts_of, update_for


@dataclass(frozen=True)
class Audience:
    """Whom a message is for: the person at ``seat``, or a watcher (``seat`` None) who was
    taken out of seat ``was`` (None: anyone else watching)."""

    seat: int | None
    was: int | None = None


WATCHER = Audience(None)


@dataclass(frozen=True)
class Before:
    """What the sockets were last sent of a table: its version, the tiles of its layout, each
    seat's timeouts (an update says only what changed since)."""

    version: int
    laid: int
    timeouts: tuple[int, ...]

    @classmethod
    def of(cls, state: TableState) -> Before:
        return cls(state.version, laid_count(state), timeouts_of(state))


@dataclass(frozen=True)
class TableChange:
    """One change of a table as the socket tier receives it.

    ``base``: the version its messages update from (a socket that was sent another asks for the
    whole state); ``messages``: each listening audience's message; ``people``: each person's
    audience, seated or taken out (never sent to a client: the socket finds its own in it);
    ``listing``: the table as its people's "My games" lists show it (several processes only: a
    player's socket on one process keeps its list from these; on one process it asks the hall)."""

    table_id: str
    version: int
    base: int
    closed: bool
    people: Mapping[str, Audience]
    messages: Mapping[Audience, TableMessage]
    listing: Listing | None = None
    # Whether sockets of no person at the table (the ``WATCHER`` audience) may be sent it
    # (``open_to_anyone``): one that may not is closed (``web/socket.py``).
    watchable: bool = True

    def audience_of(self, player: str | None) -> Audience:
        return audience_of(self.people, player)


@dataclass(frozen=True)
class Seen:
    """The answer to ``view``: the whole state as an audience sees it."""

    version: int
    audience: Audience
    closed: bool
    message: StateMessage


def audience_of(people: Mapping[str, Audience], player: str | None) -> Audience:
    return people.get(player, WATCHER) if player is not None else WATCHER


NOT_OPEN = (
    "only its players and those its host lets in may watch this table's game"
    " (a private table is closed to watchers unless its host opens it)"
)


def open_to_anyone(state: TableState) -> bool:
    """Whether someone who is not a person at the table may be sent it: its game is open to
    watchers, or it is seating with a free seat (a link holder sees the seats, to join one)."""
    seating = state.phase is Phase.SEATING and bool(state.free_seats())
    return state.options.watchable or seating


def check_watcher(state: TableState, audience: Audience) -> None:
    """HallError ``not_open_to_watchers`` when ``audience`` may not be sent the table."""
    if audience == WATCHER and not open_to_anyone(state):
        raise HallError("not_open_to_watchers", NOT_OPEN)


def people_of(state: TableState) -> dict[str, Audience]:
    """Each person's audience: their seat, or the seat they were taken out of."""
    people: dict[str, Audience] = {}
    for seat in state.seats:
        if seat.player is None:
            continue
        if seat.is_person:
            people[seat.player] = Audience(seat.seat)
        elif seat.out is not None:
            people.setdefault(seat.player, Audience(None, seat.seat))
    return people


def change_of(
    state: TableState,
    before: Before | None,
    audiences: set[Audience],
    *,
    connected: set[int],
    now: float,
    ratings: dict[str, str] | None,
    listed: bool = False,
    watching: int = 0,
) -> TableChange:
    """The change from ``before`` to the table as it is now (``before`` None: unknown, as after
    a reload; every socket then asks for the whole state); ``listed``: with its ``listing``."""
    messages: dict[Audience, TableMessage] = {}
    events = _events_since(state, before.version) if before is not None else None
    if before is not None and events is not None:
        dealt = any(isinstance(e.event, Dealt) for e in events)
        written = written_all(state, events)  # once for every audience
        for audience in audiences:
            seen = seen_by(written, audience.seat)
            if dealt:  # a new hand: the whole state, with what led to it
                messages[audience] = _state_message(
                    state, audience, seen, connected, now, ratings, watching
                )
                continue
            messages[audience] = update_for(
                state,
                audience.seat,
                seen,
                laid=before.laid,
                timeouts=before.timeouts,
                player=None,
                name=None,
                was=audience.was,
                connected=connected,
                now=now,
                ratings=ratings,
            )
    return TableChange(
        state.id,
        state.version,
        before.version if before is not None else -1,
        state.closed,
        people_of(state),
        messages,
        Listing.of(state) if listed else None,
        open_to_anyone(state),
    )


def view(
    state: TableState,
    audience: Audience,
    since: int | None,
    *,
    connected: set[int],
    now: float,
    ratings: dict[str, str] | None,
    watching: int = 0,
) -> Seen:
    """The whole state as ``audience`` sees it; ``since``: the version the socket was last sent,
    to list the events after it (none when they are no longer all kept, or on hello);
    ``watching``: how many sockets without a seat watch the table."""
    check_watcher(state, audience)
    events = _events_since(state, since) if since is not None else None
    seen = public_events(state, events or (), audience.seat)
    message = _state_message(state, audience, seen, connected, now, ratings, watching)
    return Seen(state.version, audience, state.closed, message)


def addressed(message: TableMessage, player: str | None, name: str | None) -> TableMessage:
    """``message`` for one person of its audience: ``you`` names them (a shallow copy: the
    message itself is shared by every socket of the audience)."""
    if player is None:
        return message
    if message["type"] == "state":
        inner = message["state"]
        you: You = {**inner["you"], "player": player, "name": name}
        return {**message, "state": {**inner, "you": you}}
    if "you" in message:
        return {**message, "you": {**message["you"], "player": player, "name": name}}
    return message


def _state_message(
    state: TableState,
    audience: Audience,
    events: list[Event],
    connected: set[int],
    now: float,
    ratings: dict[str, str] | None,
    watching: int = 0,
) -> StateMessage:
    whole = state_for(
        state,
        audience.seat,
        player=None,
        name=None,
        was=audience.was,
        connected=connected,
        now=now,
        ratings=ratings,
        watching=watching,
    )
    return {"type": "state", "version": state.version, "events": events, "state": whole}


def _events_since(state: TableState, version: int) -> list[Happened] | None:
    """What happened at the table after ``version``; None when it is no longer all kept."""
    events: list[Happened] = []
    for entry in reversed(state.tail):  # the newest are at the end
        if entry.version <= version:
            events.reverse()
            return events
        events.append(entry)
    return None if events else []
