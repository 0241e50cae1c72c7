"""The WebSocket protocol of docs/protocol.md: one socket per client, its audience's message after
every change of its table (made by the hall: ``hall.table_feed``).

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
from ..hall.table_feed import Audience, TableChange, addressed
from ..hall.views import PROTOCOL
from ..rules import DRAW, InvalidTileError, Move
from ..rules.tiles import parse_halves
from .api import current_player
from .fields import Fields
from .messages import as_text, read_messages

log = logging.getLogger("dominohall.web")

NO_TABLE = 4404
_KINDS = ("hello", "resync", "play", "draw", "pass", "next_hand", "leave", "ping")


class Client:
    """One open socket on one table. It is sent what the table publishes for its audience
    (``hall.table_feed``), and asks the hall for the whole state when it has nothing to update
    from: on hello and resync, after a gap, when its person's seat changed."""

    # Changes waiting beyond this (a socket far behind its table) give way to the whole state.
    MOST_WAITING = 64

    def __init__(
        self, ws: WebSocket, hall: Hall, room: Room, seat: int | None, person: Person | None
    ):
        self.ws = ws
        self.hall = hall
        self.room = room  # the handle of this socket's presence at the table; never read
        self.table_id = room.id
        self.seat = seat  # the seat whose presence this socket counts
        self.person = person
        self.player = person.id if person is not None else None
        self.name = person.name if person is not None else None
        self.audience: Audience | None = None  # whose messages it is sent, from its first state
        self.greeted = False
        self.sent_version = -1  # the table's version this socket was last sent
        self.full = False  # the whole state is owed (on resync, or too far behind)
        self.told_closed = False
        self.outbox: list[dict[str, Any]] = []
        self.changes: list[TableChange] = []
        self.wake = asyncio.Event()

    # What the table's channel brings ------------------------------------------------------
    def changed(self, change: TableChange | SeatPresence) -> None:
        """A change of the table (sent as its audience's message), or who is connected."""
        if isinstance(change, SeatPresence):
            if self.greeted:
                self.post({"type": "presence", "seat": change.seat, "connected": change.connected})
            return
        if not self.greeted:
            return  # hello brings the whole state
        self.changes.append(change)
        if len(self.changes) > self.MOST_WAITING:
            self.changes.clear()
            self.full = True
        self.wake.set()

    def post(self, message: dict[str, Any]) -> None:
        self.outbox.append(message)
        self.wake.set()

    # Sending ----------------------------------------------------------------------------
    async def write(self) -> None:
        try:
            await self._write()
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass  # the socket closed under us; the reader sees that too
        except Exception:
            # Nothing more would reach this socket: close it, so that its client reconnects.
            log.exception("socket on table %s: writing failed", self.table_id)
            with contextlib.suppress(Exception):
                await self.ws.close(code=1011)
            raise

    async def _write(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            while self.outbox or self.changes or self.full:
                if self.outbox:
                    await self.ws.send_text(as_text(self.outbox.pop(0)))
                elif self.full:
                    self.full = False
                    self.changes.clear()
                    await self._send_state(since=None)
                else:
                    await self._send_change(self.changes.pop(0))

    async def _send_change(self, change: TableChange) -> None:
        if change.version <= self.sent_version:
            return  # (already in a whole state sent since)
        audience = change.audience_of(self.player)
        message = change.messages.get(audience)
        if message is None or audience != self.audience or change.base != self.sent_version:
            # Nothing to update from: the whole state, with the events since the last one sent.
            await self._send_state(since=self.sent_version)
            return
        self.sent_version = change.version
        await self.ws.send_text(as_text(addressed(message, self.player, self.name)))
        if change.closed:
            await self._tell_closed()

    async def _send_state(self, since: int | None) -> None:
        seen = await self.hall.view(self.table_id, self.player, since)
        self._become(seen.audience)
        self.sent_version = seen.version
        await self.ws.send_text(as_text(addressed(seen.message, self.player, self.name)))
        if seen.closed:
            await self._tell_closed()

    async def _tell_closed(self) -> None:
        if not self.told_closed:
            self.told_closed = True
            reason = "everyone left before the start: the table is closed"
            await self.ws.send_text(as_text({"type": "closed", "reason": reason}))

    def _become(self, audience: Audience) -> None:
        """Be sent ``audience``'s messages from now on: a spectator who joined sits; a player
        who is out watches."""
        if audience == self.audience:
            return
        if self.audience is not None:
            self.hall.unlisten(self.room, self.audience)
        self.hall.listen(self.room, audience)
        self.audience = audience
        if audience.seat != self.seat:
            self.hall.reseat(self.room, self.seat, audience.seat)
            self.seat = audience.seat

    def stop(self) -> None:
        if self.audience is not None:
            self.hall.unlisten(self.room, self.audience)
            self.audience = None

    # Receiving --------------------------------------------------------------------------
    async def read(self) -> None:
        await read_messages(self.ws, _KINDS, self.handle, self.post, f"table {self.table_id}")

    async def handle(self, message: Fields, request_id: Any) -> None:
        kind = message.obj["type"]
        if kind == "ping":
            self.post({"type": "pong", "id": request_id})
            return
        if kind == "hello":
            # Any "version" is allowed and ignored (docs/protocol.md 3.1): the whole state follows.
            await self.greet()
            return
        if kind == "resync":
            if not self.greeted:
                raise HallError("hello_first", 'say hello first: {"type": "hello"}')
            self.full = True
            self.wake.set()
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

        table_id = self.table_id
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

    async def greet(self) -> None:
        """The first answer to hello: who you are, then the whole state (again on a second hello)."""
        seen = await self.hall.view(self.table_id, self.player)
        self._become(seen.audience)
        self.greeted = True
        self.changes.clear()
        self.sent_version = seen.version
        you = {"seat": seen.audience.seat, "player": self.player, "name": self.name}
        self.post({"type": "welcome", "protocol": PROTOCOL, "version": seen.version, "you": you})
        self.post(addressed(seen.message, self.player, self.name))
        if seen.closed:
            self.told_closed = True
            reason = "everyone left before the start: the table is closed"
            self.post({"type": "closed", "reason": reason})


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
        client.stop()
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
