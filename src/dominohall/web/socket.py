"""The WebSocket protocol of docs/protocol.md: one socket per client, its audience's message after
every change of its table (made by the hall: ``hall.table_feed``).

The socket layer only checks the shape of messages and passes them to the hall; it knows no rules.
Acks and errors are sent before any later state, so a client sees its ack before the state
showing its move.

Chat (``hall/chat.py``) rides the same socket: a line said is told on the table's channel, and
each socket passes it on if its reader reads that room (a seat: the players'; a watcher: the
spectators') and has not muted the sayer. On hello, after the state, the room's last lines
(when it has any: a table nobody chatted at costs its sockets no message).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from ..hall import Hall, HallError, Person, messages
from ..hall.chat import ChatRoom, Hidden, Speaker, TableChat
from ..hall.errors import STORE_UNAVAILABLE, StoreUnavailable, store_unavailable
from ..hall.notices import (
    ChatSaid,
    Missed,
    ResignAsked,
    ResignDeclined,
    SeatPresence,
    TableNotice,
    Watchers,
)
from ..hall.table_feed import NOT_OPEN as NOT_OPEN_WORDS
from ..hall.table_feed import WATCHER, Audience, TableChange, addressed
from ..hall.views import PROTOCOL
from ..rules import DRAW, InvalidTileError, Move
from ..rules.tiles import parse_halves
from .api import client_address, current_player
from .fields import Fields
from .language import language_of, refusal
from .live_sockets import REFUSED, LiveSockets, OpenSocket
from .messages import as_text, read_messages
from .notices import chat_history_json, chat_json

log = logging.getLogger("dominohall.web")

NO_TABLE = 4404
# The table's owner cannot be reached just now (its process died and its lease has not expired
# yet, or the table moved): a socket that cannot be sent the whole state is closed with 1013
# (try again later), for its client to reconnect, rather than left open with no state to play
# from, which nothing would bring.
TRY_AGAIN = 1013
# The table's owner, or the database, away just now: its client is to come back (close 1013).
OWNER_AWAY = frozenset({"owner_unreachable", "not_owner", STORE_UNAVAILABLE})
_KINDS = (
    "hello",
    "resync",
    "play",
    "draw",
    "pass",
    "next_hand",
    "leave",
    "resign",
    "resign_answer",
    "ping",
    "chat",
)
_ROOMS = {"players": ChatRoom.PLAYERS, "spectators": ChatRoom.SPECTATORS}


class Client:
    """One open socket on one table. It is sent what the table publishes for its audience
    (``hall.table_feed``), and asks the hall for the whole state when it has nothing to update
    from: on hello and resync, after a gap, when its person's seat changed."""

    # Changes waiting beyond this (a socket far behind its table) give way to the whole state.
    MOST_WAITING = 64

    def __init__(
        self,
        ws: WebSocket,
        hall: Hall,
        table_id: str,
        seat: int | None,
        person: Person | None,
        chat: TableChat,
        speaker: Speaker | None = None,
    ):
        self.ws = ws
        self.hall = hall
        self.table_id = table_id
        self.seat = seat  # the seat whose presence this socket counts
        self.person = person
        self.player = person.id if person is not None else None
        self.name = person.name if person is not None else None
        self.audience: Audience | None = None  # whose messages it is sent, from its first state
        self.greeted = False
        self.sent_version = -1  # the table's version this socket was last sent
        self.full = False  # the whole state is owed (on resync, or too far behind)
        self.told_closed = False
        self.outbox: list[messages.TableSocketMessage] = []
        self.changes: list[TableChange] = []
        self.early: list[TableChange] = []  # changes told before hello was answered
        # Commands of this socket's not answered yet: the table's changes wait meanwhile, so
        # that its ack comes before the update showing it even when the command went to
        # another process and the change came back over Redis first.
        self.commanding = 0
        self.wake = asyncio.Event()
        self.chat = chat
        self.speaker = speaker  # who writes in the chat (None: not signed in, reads only)
        self.hidden = Hidden()  # the players whose lines this reader does not see
        # Lines told while the room's last lines are read: sent after them, in order.
        self.chat_held: list[ChatSaid] | None = None
        self.held: tuple[LiveSockets, OpenSocket] | None = None  # (an operator's time-out told)

    # What the table's channel brings ------------------------------------------------------
    def changed(self, change: TableChange | TableNotice) -> None:
        """A change of the table (sent as its audience's message), who is connected, or a
        chat line."""
        if isinstance(change, ChatSaid):
            if self.chat_held is not None:
                self.chat_held.append(change)
            elif self.greeted:
                self._pass_on(change)
            return
        if isinstance(change, SeatPresence):
            if self.greeted:
                self.post({"type": "presence", "seat": change.seat, "connected": change.connected})
            return
        if isinstance(change, Watchers):
            if self.greeted:
                self.post({"type": "watchers", "count": change.count})
            return
        if isinstance(change, ResignAsked | ResignDeclined):
            self._pass_on_resign(change)
            return
        if isinstance(change, Missed):
            # Redis was away: changes may be lost with no later one to show the gap soon.
            if self.greeted:
                self.changes.clear()
                self.full = True  # (the whole state, asked of the owner now)
                self.wake.set()
            return
        if not self.greeted:
            # Kept until hello's state is sent: a change made while that state was read (asked
            # of the table's owner, maybe on another process) may be newer than the state.
            self.early.append(change)
            del self.early[: -self.MOST_WAITING]  # (more: a gap, which the state fills)
            return
        self.changes.append(change)
        if len(self.changes) > self.MOST_WAITING:
            self.changes.clear()
            self.full = True
        self.wake.set()

    # Chat -------------------------------------------------------------------------------
    @property
    def chat_room(self) -> ChatRoom:
        """The room this socket reads: a seat's person the players', anyone else the
        spectators' (a person taken out of a seat too)."""
        seated = self.audience is not None and self.audience.seat is not None
        return ChatRoom.PLAYERS if seated else ChatRoom.SPECTATORS

    def _pass_on(self, said: ChatSaid) -> None:
        if said.room == self.chat_room.value and said.player not in self.hidden:
            self.post(chat_json(said))

    async def _send_chat_history(self) -> None:
        """The last lines of this socket's room, if it has any, then those told meanwhile (held
        until then)."""
        self.chat_held = []
        try:
            if self.player is not None:
                self.hidden = await self.chat.reader(self.player)
            room = self.chat_room
            lines = await self.chat.recent(self.table_id, room, self.hidden)
        finally:
            held, self.chat_held = self.chat_held, None
        if lines:  # (none: nothing is sent, so a client that shows no chat reads nothing new)
            self.post(chat_history_json(room, lines))
        sent = {line.id for line in lines}
        for said in held:
            if said.id not in sent:
                self._pass_on(said)

    def _pass_on_resign(self, news: ResignAsked | ResignDeclined) -> None:
        """A resign request's news, to the sockets of its team's two seats only (the others
        never learn that a team thought of resigning)."""
        seat = self.audience.seat if self.audience is not None else None
        if not self.greeted or seat not in (news.seat, news.partner):
            return  # (a socket not greeted yet finds a pending request in its first state)
        if isinstance(news, ResignAsked):
            self.post(
                {
                    "type": "resign_asked",
                    "seat": news.seat,
                    "partner": news.partner,
                    "deadline": news.deadline,
                    "seconds": news.seconds,
                }
            )
        else:
            self.post(
                {
                    "type": "resign_declined",
                    "seat": news.seat,
                    "partner": news.partner,
                    "why": news.why,
                }
            )

    def post(self, message: messages.TableSocketMessage) -> None:
        self.outbox.append(message)
        self.wake.set()

    # Sending ----------------------------------------------------------------------------
    async def write(self) -> None:
        try:
            await self._write()
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass  # the socket closed under us; the reader sees that too
        except Exception as error:
            if isinstance(error, StoreUnavailable):
                error = store_unavailable()
            if isinstance(error, HallError) and error.code in OWNER_AWAY:
                with contextlib.suppress(Exception):
                    await self.ws.close(code=TRY_AGAIN)
                return
            if isinstance(error, HallError) and error.code == "not_open_to_watchers":
                with contextlib.suppress(Exception):
                    await _refuse_watching(self.ws, error)
                return
            # Nothing more would reach this socket: close it, so that its client reconnects.
            log.exception("socket on table %s: writing failed", self.table_id)
            with contextlib.suppress(Exception):
                await self.ws.close(code=1011)
            raise

    async def _write(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            while self.outbox or ((self.changes or self.full) and not self.commanding):
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
        if audience == WATCHER and not change.watchable:
            raise HallError("not_open_to_watchers", NOT_OPEN_WORDS)
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
        seen = await self.hall.owner.view(self.table_id, self.player, since)
        room = self.chat_room
        await self._become(seen.audience)
        self.sent_version = seen.version
        await self.ws.send_text(as_text(addressed(seen.message, self.player, self.name)))
        if seen.closed:
            await self._tell_closed()
        if self.chat_room is not room:
            await self._send_chat_history()  # a spectator sat down, or a player went out

    async def _tell_closed(self) -> None:
        if not self.told_closed:
            self.told_closed = True
            reason = "everyone left before the start: the table is closed"
            await self.ws.send_text(as_text({"type": "closed", "reason": reason}))

    async def _become(self, audience: Audience) -> None:
        """Be sent ``audience``'s messages from now on: a spectator who joined sits; a player
        who is out watches."""
        if audience == self.audience:
            return
        if self.audience is not None:
            self.hall.unlisten(self.table_id, self.audience)
        self.hall.listen(self.table_id, audience)
        self.audience = audience
        if audience.seat != self.seat:
            await self.hall.reseat(self.table_id, self.seat, audience.seat)
            self.seat = audience.seat

    def stop(self) -> None:
        if self.audience is not None:
            self.hall.unlisten(self.table_id, self.audience)
            self.audience = None

    # Receiving --------------------------------------------------------------------------
    async def read(self) -> None:
        await read_messages(
            self.ws, _KINDS, self.handle, self.post, f"table {self.table_id}", language_of(self.ws)
        )

    async def handle(self, message: Fields, request_id: messages.RequestId) -> None:
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
        if kind == "chat":
            await self.say(message)
            return
        person = self.person
        if person is None and kind in ("leave", "resign", "resign_answer"):
            raise HallError("not_seated", "you have no seat at this table")
        if person is None:
            raise HallError("spectator", "you have no seat at this table: you may watch, not play")

        def ack(version: int) -> None:
            self.post({"type": "ack", "id": request_id, "version": version})

        self.commanding += 1
        try:
            await self._command(kind, message, person, ack)
        finally:
            self.commanding -= 1
            self.wake.set()

    async def _command(
        self, kind: str, message: Fields, person: Person, ack: Callable[[int], None]
    ) -> None:
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
        elif kind == "resign":
            await self.hall.resign(person, table_id, on_commit=ack)
        elif kind == "resign_answer":
            accept = message.flag("accept", required=True)
            await self.hall.answer_resign(person, table_id, accept is True, on_commit=ack)

    async def say(self, message: Fields) -> None:
        """A chat line; the sender gets it back in the room as everyone does (no ack)."""
        name = message.text("room", required=True)
        room = _ROOMS.get(name or "")
        if room is None:
            raise HallError(
                "bad_message", '"room" is "players" or "spectators", not {name!r}', name=name
            )
        text, phrase = message.text("text"), message.text("phrase")
        if (text is None) == (phrase is None):
            raise HallError("bad_message", 'a chat message has a "text" or a "phrase", one of them')
        if self.speaker is None:
            raise HallError("chat_not_allowed", "sign in (as a guest or with an account) to chat")
        await self.chat.say(self.speaker, self.table_id, room, text=text, phrase=phrase)

    async def greet(self) -> None:
        """The first answer to hello: who you are, the whole state (again on a second hello),
        then the chat's last lines."""
        try:
            try:
                seen = await self.hall.owner.view(self.table_id, self.player)
            except StoreUnavailable:
                raise store_unavailable() from None
        except HallError as error:
            if error.code == "not_open_to_watchers":
                await _refuse_watching(self.ws, error)
                return
            if error.code not in OWNER_AWAY:
                raise
            await self.ws.close(code=TRY_AGAIN)
            return
        await self._become(seen.audience)
        self.greeted = True
        waiting, self.early = [*self.early, *self.changes], []
        self.changes = [change for change in waiting if change.version > seen.version]
        self.sent_version = seen.version
        you: messages.WelcomeYou = {
            "seat": seen.audience.seat,
            "player": self.player,
            "name": self.name,
        }
        self.post({"type": "welcome", "protocol": PROTOCOL, "version": seen.version, "you": you})
        self.post(addressed(seen.message, self.player, self.name))
        if seen.closed:
            self.told_closed = True
            reason = "everyone left before the start: the table is closed"
            self.post({"type": "closed", "reason": reason})
        await self._send_chat_history()
        if self.held is not None:
            live, socket = self.held
            await live.tell_time_out(socket)


async def _refuse_watching(ws: WebSocket, error: HallError) -> None:
    """A socket that may not watch its table (a private game: docs/protocol.md 3): an error
    saying why, then closed (``REFUSED``)."""
    await ws.send_text(as_text({"type": "error", "id": None, **refusal(error, language_of(ws))}))
    await ws.close(code=REFUSED, reason="not open to watchers")


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
    speaker = Speaker(player.id, player.name, player.username) if player is not None else None
    await ws.accept()
    live: LiveSockets = ws.app.state.live_sockets
    held = await live.admit(ws, person.id if person is not None else None, client_address(ws))
    if held is None:
        return  # (closed: a banned account, or too many sockets from its address)
    try:
        await _on_table(ws, hall, person, speaker, (live, held))
    finally:
        await live.release(held)


async def _on_table(
    ws: WebSocket,
    hall: Hall,
    person: Person | None,
    speaker: Speaker | None,
    held: tuple[LiveSockets, OpenSocket],
) -> None:
    table_id = ws.path_params["table_id"]
    try:
        try:
            seat = await hall.connect(table_id, person)
        except StoreUnavailable:
            raise store_unavailable() from None
    except HallError as error:
        if error.code == "not_open_to_watchers":
            await _refuse_watching(ws, error)
            return
        # A table whose owner is away just now exists: its client is to come back, not told
        # there is no such table.
        await ws.close(code=TRY_AGAIN if error.code in OWNER_AWAY else NO_TABLE)
        return
    client = Client(ws, hall, table_id, seat, person, ws.app.state.chat, speaker)
    client.held = held
    held[1].tell = client.post
    unsubscribe = hall.broker.subscribe(table_id, client.changed)
    writer = asyncio.create_task(client.write())
    try:
        # Hello's state is read once the changes after it are heard here (on several processes
        # the table's channel must be subscribed first): a change made between the two would
        # show as no gap, and its socket would wait for the next one (maybe for its own move).
        await hall.broker.subscribed(table_id)
        await client.read()
    except (WebSocketDisconnect, WebSocketDisconnected):
        pass
    except Exception:
        log.exception("socket on table %s failed", table_id)
    finally:
        unsubscribe()
        writer.cancel()
        client.stop()
        await hall.disconnect(table_id, client.seat)


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
