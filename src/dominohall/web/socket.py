"""The WebSocket protocol of docs/protocol.md: one socket per client, a seat's view after every change.

The socket layer only checks the shape of messages and passes them to the hall; it knows no rules.
Acks and errors are sent before any later state, so a client sees its ack before the state
showing its move.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from ..hall import Hall, HallError, Person, Room
from ..hall.notices import SeatPresence
from ..hall.seat_view import public_event
from ..rules import DRAW, InvalidTileError, Move
from ..rules.tiles import parse_halves
from .api import current_player
from .fields import Fields
from .messages import as_text, read_messages
from .views import PROTOCOL, laid_count, state_for, timeouts_of, update_for

log = logging.getLogger("dominohall.web")

NO_TABLE = 4404
_KINDS = ("hello", "resync", "play", "draw", "pass", "next_hand", "leave", "ping")


class Client:
    """One open socket on one table."""

    def __init__(
        self, ws: WebSocket, hall: Hall, room: Room, seat: int | None, person: Person | None
    ):
        self.ws = ws
        self.hall = hall
        self.room = room
        self.seat = seat
        self.person = person
        self.greeted = False
        self.sent_version = 0  # the table's version this socket was last sent
        self.sent_seat: int | None = seat  # the seat whose view it was sent
        self.laid = 0  # how many tiles of the hand's layout it was sent
        self.timeouts: tuple[int, ...] = ()  # each seat's timeouts it was sent
        self.full = False  # the whole state is owed (on hello, on resync)
        self.told_closed = False
        self.outbox: list[dict[str, Any]] = []
        self.dirty = False
        self.wake = asyncio.Event()

    # Sending ----------------------------------------------------------------------------
    def post(self, message: dict[str, Any]) -> None:
        self.outbox.append(message)
        self.wake.set()

    def changed(self, change: int | SeatPresence) -> None:
        """The table's channel: a new version (sent as an update), or who is connected."""
        if isinstance(change, int):
            self.dirty = True
        elif self.greeted:
            self.post({"type": "presence", "seat": change.seat, "connected": change.connected})
            return
        self.wake.set()

    async def write(self) -> None:
        try:
            await self._write()
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass  # the socket closed under us; the reader sees that too
        except Exception:
            # Nothing more would reach this socket: close it, so that its client reconnects.
            log.exception("socket on table %s: writing failed", self.room.id)
            with contextlib.suppress(Exception):
                await self.ws.close(code=1011)
            raise

    async def _write(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            while self.outbox or (self.dirty and self.greeted):
                if self.outbox:
                    await self.ws.send_text(as_text(self.outbox.pop(0)))
                    continue
                self.dirty = False
                message = self.next_message()
                if message is not None:
                    await self.ws.send_text(as_text(message))
                if self.room.state.closed and not self.told_closed:
                    self.told_closed = True
                    reason = "everyone left before the start: the table is closed"
                    await self.ws.send_text(as_text({"type": "closed", "reason": reason}))

    def next_message(self) -> dict[str, Any] | None:
        """What this socket is sent for the versions it has not seen: the events as an update,
        or the whole state (after a gap, at a hand's start, when its seat changed)."""
        state = self.room.state
        if state.version == self.sent_version and not self.full:
            return None
        seat = self._seat_now()
        events = None if self.full else self._events_since(self.sent_version, seat)
        if (
            self.full
            or seat != self.sent_seat
            or events is None
            or any(e["kind"] == "dealt" for e in events)
        ):
            return self.state_message(events or [])
        message = update_for(
            state,
            seat,
            events,
            laid=self.laid,
            timeouts=self.timeouts,
            player=self.person.id if self.person else None,
            name=self.person.name if self.person else None,
            connected=self.room.connected(),
            now=self.hall.clock.now(),
            ratings=self.room.ratings,
        )
        self.sent_version = state.version
        self.laid = laid_count(state)
        self.timeouts = timeouts_of(state)
        return message

    def _events_since(self, version: int, seat: int | None) -> list[dict[str, Any]] | None:
        """The table's events after ``version`` as ``seat`` sees them; None when they are no
        longer all kept (the socket fell too far behind)."""
        events: list[dict[str, Any]] = []
        for event in reversed(self.room.state.tail):  # the newest are at the end
            if event["version"] <= version:
                events.reverse()
                return events
            events.append(public_event(event, seat))
        return None if events else []

    def state_message(self, events: list[dict[str, Any]]) -> dict[str, Any]:
        """The whole state; ``events``: what led to it from the client's version, when it takes
        an update's place (a hand's start, a seat changed; none on hello or resync)."""
        state = self.room.state
        seat = self._seat_now()
        message = {
            "type": "state",
            "version": state.version,
            "events": events,
            "state": state_for(
                state,
                seat,
                player=self.person.id if self.person else None,
                name=self.person.name if self.person else None,
                connected=self.room.connected(),
                now=self.hall.clock.now(),
                ratings=self.room.ratings,
            ),
        }
        self.full = False
        self.sent_version = state.version
        self.sent_seat = seat
        self.laid = laid_count(state)
        self.timeouts = timeouts_of(state)
        return message

    def _seat_now(self) -> int | None:
        """The seat this socket plays now: a spectator who joined sits; a player who is out watches."""
        seat = self.room.state.seat_of(self.person.id) if self.person else None
        if seat != self.seat:
            self.hall.reseat(self.room, self.seat, seat)
            self.seat = seat
        return seat

    # Receiving --------------------------------------------------------------------------
    async def read(self) -> None:
        await read_messages(self.ws, _KINDS, self.handle, self.post, f"table {self.room.id}")

    async def handle(self, message: Fields, request_id: Any) -> None:
        kind = message.obj["type"]
        if kind == "ping":
            self.post({"type": "pong", "id": request_id})
            return
        if kind == "hello":
            # Any "version" is allowed and ignored (docs/protocol.md 3.1): the whole state follows.
            self.greet()
            return
        if kind == "resync":
            if not self.greeted:
                raise HallError("hello_first", 'say hello first: {"type": "hello"}')
            self.resync()
            return
        if not self.greeted:
            raise HallError("hello_first", 'say hello first: {"type": "hello", "version": 0}')
        person = self.person
        if person is None and kind == "leave":
            raise HallError("not_seated", "you have no seat at this table")
        if person is None:
            raise HallError("spectator", "you have no seat at this table: you may watch, not play")

        def ack(version: int) -> None:
            self.post({"type": "ack", "id": request_id, "version": version})

        table_id = self.room.id
        if kind in ("play", "draw", "pass"):
            until_fits = message.flag("until_fits") if kind == "draw" else None
            await self.hall.play(
                person,
                table_id,
                _move_of(kind, message),
                until_fits=until_fits is True,
                version=message.integer("version", minimum=0),
                on_commit=ack,
            )
        elif kind == "next_hand":
            await self.hall.next_hand(person, table_id, on_commit=ack)
        elif kind == "leave":
            await self.hall.leave(person, table_id, on_commit=ack)

    def greet(self) -> None:
        """The first answer to hello: who you are, then the whole state."""
        state = self.room.state
        self.greeted = True
        self.post(
            {
                "type": "welcome",
                "protocol": PROTOCOL,
                "version": state.version,
                "you": {
                    "seat": self._seat_now(),
                    "player": self.person.id if self.person else None,
                    "name": self.person.name if self.person else None,
                },
            }
        )
        self.resync()

    def resync(self) -> None:
        """Send the whole state next (a client that saw a gap in the versions asks for it)."""
        self.full = True
        self.dirty = True
        self.wake.set()


def _move_of(kind: str, message: Fields) -> Move:
    """The move a play, draw or pass message asks for (its shape only: the rules are the hall's)."""
    if kind == "draw":
        return DRAW
    if kind == "pass":
        return Move.pass_()
    tile = message.text("tile", required=True)
    arm = message.integer("arm", minimum=0)
    try:
        a, b = parse_halves(tile)
    except InvalidTileError as exc:
        raise HallError("bad_tile", str(exc)) from None
    return Move.lead(f"{a}-{b}") if arm is None else Move.play(f"{a}-{b}", arm)


async def table_socket(ws: WebSocket) -> None:
    # An upgrade from another site's page was refused already (web/crossorigin.py).
    hall: Hall = ws.app.state.hall
    player = await current_player(ws)
    person = Person(player.id, player.name) if player is not None else None
    await ws.accept()
    try:
        room, seat = await hall.connect(ws.path_params["table_id"], person)
    except HallError:
        await ws.close(code=NO_TABLE)
        return
    client = Client(ws, hall, room, seat, person)
    unsubscribe = hall.broker.subscribe(room.id, client.changed)
    writer = asyncio.create_task(client.write())
    try:
        await client.read()
    except (WebSocketDisconnect, WebSocketDisconnected):
        pass
    except Exception:
        log.exception("socket on table %s failed", room.id)
    finally:
        unsubscribe()
        writer.cancel()
        await hall.disconnect(room, client.seat)


class OneLineForTextNotUtf8(logging.Filter):
    """uvicorn logs a traceback for each text frame that is not UTF-8 (it closes the socket with
    1007); that is the client's fault, so one warning line says it instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        decoding = record.exc_info and isinstance(record.exc_info[1], UnicodeDecodeError)
        if decoding and str(record.msg).startswith("Invalid UTF-8"):
            record.msg, record.args = "a text frame that is not UTF-8: closed with 1007", ()
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def log_frames_not_utf8_in_one_line() -> None:
    server_log = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, OneLineForTextNotUtf8) for f in server_log.filters):
        server_log.addFilter(OneLineForTextNotUtf8())
