"""A player's own socket (docs/protocol.md 8): one per open page, whatever the page shows.

It carries the player's channel of the broker (``seated``, ``your_turn``, ``invitation``,
``reminder``, ``table_over`` notices, as the hall tells them) and keeps the player's list of
tables current: the whole list on connect, and again whenever one of those tables changes (it
listens to the channel of every table the player sits at), so a page's "your turn" badge is
always right without asking.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from ..hall import Hall, messages
from ..hall.listing import Listing
from ..hall.notices import (
    Missed,
    MutesChanged,
    PlayerNotice,
    Reminder,
    TableNotice,
    YourTurn,
)
from ..hall.table_feed import TableChange
from .api import client_address, current_player
from .fields import Fields
from .language import language_of
from .live_sockets import LiveSockets
from .messages import as_text, read_messages
from .notices import notice_json

log = logging.getLogger("dominohall.web")

NOT_SIGNED_IN = 4401
_KINDS = ("ping",)
# What changes with the clock alone is not a change worth a message.
_TICKING = ("left",)
# Notices whose news the table's change brings to the list too (any other: the hall is asked).
_LISTED_BY_CHANGES = (YourTurn, Reminder)


class PlayerClient:
    """One open player socket: notices as they come, the list when it changes.

    The list is the hall's (``Hall.listings_of``) when the socket opens and after a notice that
    may add a table; after that, each change of one of its tables brings that table's listing
    (several processes: the change carries it, so no table is asked for). On one process a
    change carries none, and the hall is asked again (its tables are all in memory)."""

    def __init__(self, ws: WebSocket, hall: Hall, player: str) -> None:
        self.ws = ws
        self.hall = hall
        self.player = player
        self.outbox: list[messages.PlayerSocketMessage] = []
        self.dirty = True  # the list is sent first of all
        # The player's tables as last heard: table id -> its listing and their seat (None: the
        # hall is to be asked).
        self.listings: dict[str, tuple[Listing, int]] | None = None
        self.wake = asyncio.Event()
        self.watching: dict[str, Callable[[], None]] = {}  # table id -> stop listening
        self.last_sent: list[dict[str, object]] | None = None  # (without what ticks)

    # What wakes the writer ---------------------------------------------------------------
    def notice(self, notice: PlayerNotice) -> None:
        if isinstance(notice, MutesChanged):  # (the hall's own, for its chat: not the page's)
            return
        # A notice on the player's own channel is theirs to see (the hall tells each player only
        # what their seat may know), so it goes out whole.
        self.outbox.append({"type": "notice", "notice": notice_json(notice)})
        if not isinstance(notice, _LISTED_BY_CHANGES):
            self.listings = None  # seated at a new table, say: the hall is asked
        self.dirty = True
        self.wake.set()

    def changed(self, change: TableChange | TableNotice) -> None:
        """A table of the player's changed (a notice, presence or chat, changes nothing in the
        list)."""
        if isinstance(change, Missed):  # Redis was away: the list asked for again
            self.listings = None
            self.dirty = True
            self.wake.set()
            return
        if not isinstance(change, TableChange):
            return
        if change.listing is None or self.listings is None:
            self.listings = None
        else:
            self._take(change, change.listing)
        self.dirty = True
        self.wake.set()

    def _take(self, change: TableChange, listing: Listing) -> None:
        assert self.listings is not None
        seat = change.audience_of(self.player).seat
        if seat is None or listing.finished:
            self.listings.pop(change.table_id, None)  # left, out, or over: off the list
        else:
            self.listings[change.table_id] = (listing, seat)

    # Writing -----------------------------------------------------------------------------
    async def write(self) -> None:
        try:
            await self._write()
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass  # the socket closed under us; the reader sees that too
        except Exception:
            log.exception("player socket of %s: writing failed", self.player)
            raise

    async def _write(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            while self.outbox:
                await self.ws.send_text(as_text(self.outbox.pop(0)))
            if self.dirty:
                self.dirty = False
                if self.listings is None:
                    asked = await self.hall.listings_of(self.player)
                    if self.listings is None and not self.dirty:  # (else: asked again)
                        self.listings = {
                            listing.summary["id"]: (listing, seat) for listing, seat in asked
                        }
                if self.listings is not None:
                    message = self.tables_message(self.listings)
                    if message is not None:
                        await self.ws.send_text(as_text(message))

    def tables_message(
        self, listings: dict[str, tuple[Listing, int]]
    ) -> messages.TablesMessage | None:
        """The list as it is now, or None when only the time left changed since the last one."""
        now = self.hall.clock.now()
        ordered = sorted(listings.values(), key=lambda mine: mine[0].urgency(mine[1]))
        tables = [listing.entry(seat, now) for listing, seat in ordered]
        self._watch(set(listings))
        unticked = [{k: v for k, v in t.items() if k not in _TICKING} for t in tables]
        if unticked == self.last_sent:
            return None
        self.last_sent = unticked
        return {
            "type": "tables",
            "tables": tables,
            "your_turn": sum(t["your_turn"] for t in tables),
            "now": now,
        }

    def _watch(self, table_ids: set[str]) -> None:
        for table_id in table_ids - self.watching.keys():
            self.watching[table_id] = self.hall.follow_listing(table_id, self.changed)
        for table_id in self.watching.keys() - table_ids:
            self.watching.pop(table_id)()

    def stop(self) -> None:
        for stop_listening in self.watching.values():
            stop_listening()
        self.watching.clear()

    # Reading -----------------------------------------------------------------------------
    async def read(self) -> None:
        await read_messages(
            self.ws,
            _KINDS,
            self._pong,
            self.post,
            f"the socket of {self.player}",
            language_of(self.ws),
        )

    async def _pong(self, _message: Fields, request_id: messages.RequestId) -> None:
        self.post({"type": "pong", "id": request_id})

    def post(self, message: messages.PlayerSocketMessage) -> None:
        self.outbox.append(message)
        self.wake.set()


async def player_socket(ws: WebSocket) -> None:
    # An upgrade from another site's page was refused already (web/crossorigin.py).
    hall: Hall = ws.app.state.hall
    player = await current_player(ws)
    await ws.accept()
    if player is None:
        await ws.close(code=NOT_SIGNED_IN, reason="sign in first")
        return
    live: LiveSockets = ws.app.state.live_sockets
    held = await live.admit(ws, player.id, client_address(ws))
    if held is None:
        return  # (closed: a banned account, or too many sockets from its address)
    try:
        await _for_player(ws, hall, player.id)
    finally:
        await live.release(held)


async def _for_player(ws: WebSocket, hall: Hall, player_id: str) -> None:
    client = PlayerClient(ws, hall, player_id)
    stop_hearing = hall.broker.listen(player_id, client.notice)
    matchmaker = ws.app.state.matchmaker
    matchmaker.socket_opened(player_id)  # a seek stays while its player's page is open
    client.wake.set()
    writer = asyncio.create_task(client.write())
    try:
        await client.read()
    except (WebSocketDisconnect, WebSocketDisconnected):
        pass
    except Exception:
        log.exception("player socket of %s failed", player_id)
    finally:
        stop_hearing()
        matchmaker.socket_closed(player_id)
        client.stop()
        writer.cancel()
