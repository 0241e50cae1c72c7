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

import orjson
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from ..hall import Hall, HallError, Person, Room
from ..rules import DRAW, InvalidTileError, Move
from ..rules.tiles import parse_halves
from .api import current_player
from .fields import Fields, parse, shown
from .views import public_event, state_for

log = logging.getLogger("dominohall.web")

NO_TABLE = 4404
_KINDS = ("hello", "play", "draw", "pass", "next_hand", "leave", "ping")


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
        self.sent_version = 0
        self.gap = False
        self.told_closed = False
        self.outbox: list[dict[str, Any]] = []
        self.dirty = False
        self.wake = asyncio.Event()

    # Sending ----------------------------------------------------------------------------
    def post(self, message: dict[str, Any]) -> None:
        self.outbox.append(message)
        self.wake.set()

    def changed(self, _version: int) -> None:
        self.dirty = True
        self.wake.set()

    async def write(self) -> None:
        # The socket may close under us; the reader sees that too.
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            await self._write()

    async def _write(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            while self.outbox or (self.dirty and self.greeted):
                if self.outbox:
                    await self.ws.send_text(_json(self.outbox.pop(0)))
                    continue
                if self.room.state.deciding:
                    break  # a move's commit is under way: its publish wakes this writer again
                self.dirty = False
                await self.ws.send_text(_json(self.state_message()))
                if self.room.state.closed and not self.told_closed:
                    self.told_closed = True
                    reason = "everyone left before the start: the table is closed"
                    await self.ws.send_text(_json({"type": "closed", "reason": reason}))

    def state_message(self) -> dict[str, Any]:
        state = self.room.state
        seat = self._seat_now()
        if self.gap:
            events: list[dict[str, Any]] = []
        else:
            events = []
            for event in reversed(state.tail):  # the newest are at the end: stop at the seen
                if event["version"] <= self.sent_version:
                    break
                events.append(public_event(event, seat))
            events.reverse()
        message = {
            "type": "state",
            "version": state.version,
            "events": events,
            "gap": self.gap,
            "state": state_for(
                state,
                seat,
                player=self.person.id if self.person else None,
                name=self.person.name if self.person else None,
                connected=self.room.connected(),
                now=self.hall.clock.now(),
            ),
        }
        self.gap = False
        self.sent_version = state.version
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
        while True:
            frame = await self.ws.receive()
            if frame["type"] == "websocket.disconnect":
                return
            request_id: Any = None
            try:
                text = frame.get("text")
                if text is None:
                    raise HallError("bad_message", "messages are JSON in text frames, not binary")
                message = parse(text)
                request_id = _id_of(message)  # echoed by the error too, whatever else is wrong
                await self.handle(_checked(message), request_id)
            except HallError as exc:
                self.post({"type": "error", "id": request_id, **exc.to_json()})
            except Exception:  # noqa: BLE001 - e.g. the disk: nothing was applied, say so
                log.exception("request on table %s failed", self.room.id)
                failed = HallError("server_error", "the hall could not do that just now: try again")
                self.post({"type": "error", "id": request_id, **failed.to_json()})

    async def handle(self, message: Fields, request_id: Any) -> None:
        kind = message.obj["type"]
        if kind == "ping":
            self.post({"type": "pong", "id": request_id})
            return
        if kind == "hello":
            self.greet(message.integer("version", minimum=0) or 0)
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

    def greet(self, since: int) -> None:
        state = self.room.state
        oldest = state.tail[0]["version"] if state.tail else 1
        self.sent_version = min(since, state.version)
        # A version beyond the table's was seen on another history (a database restored from a
        # backup): the client must replace what it shows, as after a gap.
        self.gap = since > state.version or (since < state.version and since + 1 < oldest)
        self.greeted = True
        self.post(
            {
                "type": "welcome",
                "version": state.version,
                "you": {
                    "seat": self._seat_now(),
                    "player": self.person.id if self.person else None,
                    "name": self.person.name if self.person else None,
                },
            }
        )
        self.changed(state.version)


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


def _json(message: dict[str, Any]) -> str:
    # orjson: a state is encoded for every seat after every change, ten times faster than json.
    return orjson.dumps(message).decode()


def _valid_id(request_id: object) -> bool:
    if isinstance(request_id, str):
        return len(request_id) <= 64
    return isinstance(request_id, int | float) and not isinstance(request_id, bool)


def _id_of(message: object) -> Any:
    """The message's ``id`` when it is a valid one, to repeat in the answer; else None."""
    if isinstance(message, dict) and _valid_id(message.get("id")):
        return message["id"]
    return None


def _checked(message: object) -> Fields:
    fields = Fields(message, "bad_message", "a message")
    request_id = fields.obj.get("id")
    if request_id is not None and not _valid_id(request_id):
        raise HallError("bad_message", "'id' is a string of at most 64 characters or a number")
    kind = fields.obj.get("type")
    if not isinstance(kind, str) or kind not in _KINDS:
        raise HallError(
            "bad_message", f"unknown message type {shown(kind)} (known: {', '.join(_KINDS)})"
        )
    return fields


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
