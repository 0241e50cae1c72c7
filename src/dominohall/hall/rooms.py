"""The tables this process holds: each one's state with its lock and its sockets, loaded from its
log when first asked for, and let go when its game is over and nobody looks at it. Some are
asleep (``dormancy.py``): held, but out of memory until something needs them, when the hall's
``waker`` loads and resumes them (a mere look, ``look``, reads the log and leaves them asleep).
An index from each player to the tables they play at, awake or asleep, answers "my tables"
without looking at every table."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field

from ..store import Store
from .errors import HallError
from .messages import LobbyTable
from .table import Phase, TableState
from .table_feed import Audience


@dataclass
class Room:
    """A table in memory with what the hall keeps around it: its lock, sockets, computer player."""

    state: TableState
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # The seats with a connection on some process, as the owner last read them (``presence``),
    # and whether one of them is through another process (looked at again on each round).
    attended: frozenset[int] = frozenset()
    attended_elsewhere: bool = False
    watching: int = 0  # the sockets without a seat on every process, as the owner last counted
    seats_lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one look at them at a time
    # Audience -> sockets sent its messages (each change is made for these audiences only).
    listening: dict[Audience, int] = field(default_factory=dict)
    # What this process last put on the lobby's board for the table (``lobby.py``), whether it
    # put anything yet (a table taken over is put again at its first change), and the shown
    # ratings of its people, read once each when they sat down.
    lobby_entry: LobbyTable | None = None
    lobby_put: bool = False
    lobby_ratings: dict[str, str | None] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    saved_finish: bool = False  # the store has the finished game (or knows the table closed)
    # The commit of the events that ended the game stored its end with them (Store.append).
    finish_stored: bool = False
    told_turn: tuple[float, int] | None = None  # the turn its person was last told of
    # A ranked table's players' shown ratings by player id, as the hall read them from the
    # store when the table was first watched (not in the log: the store has the ratings).
    ratings: dict[str, str] | None = None
    # Asleep (``dormancy.py``): the version its note in the store was written at, and when
    # it was last changed or looked up (it falls asleep once unused for the idle time).
    noted: int | None = None
    touched: float = 0.0

    @property
    def id(self) -> str:
        return self.state.id

    def connected(self) -> set[int]:
        return set(self.attended)

    def listen(self, audience: Audience) -> None:
        self.listening[audience] = self.listening.get(audience, 0) + 1

    def unlisten(self, audience: Audience) -> None:
        left = self.listening.get(audience, 0) - 1
        if left > 0:
            self.listening[audience] = left
        else:
            self.listening.pop(audience, None)


class Rooms:
    """Every table this process holds, by id."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._rooms: dict[str, Room] = {}
        self._asleep: set[str] = set()  # held here, out of memory (``dormancy.py``)
        # Loads and resumes a table asleep (the hall's; it puts the room back with ``add``).
        self.waker: Callable[[str], Awaitable[Room]] | None = None
        self._waking: dict[str, asyncio.Future[Room]] = {}
        self._tables_of: dict[str, set[str]] = {}  # player -> ids of the tables they play at
        self._players_at: dict[str, frozenset[str]] = {}  # table id -> its players, as indexed

    def __iter__(self) -> Iterator[Room]:
        return iter(list(self._rooms.values()))

    def get(self, table_id: str) -> Room | None:
        """The table if it is in memory now."""
        return self._rooms.get(table_id)

    def add(self, room: Room) -> Room:
        self._asleep.discard(room.id)
        held = self._rooms.setdefault(room.id, room)
        if held is room:
            self.seats_changed(room)
        return held

    def let_go(self, room: Room) -> None:
        """Forget a table (it loads again from its log if someone asks for it)."""
        if self._rooms.get(room.id) is room:
            del self._rooms[room.id]
            self._index(room.id, frozenset())

    def played_by(self, player: str) -> list[Room]:
        """The tables in memory at which ``player`` plays a seat (not one they were taken out of)."""
        rooms = (self._rooms.get(table_id) for table_id in self._tables_of.get(player, ()))
        return [room for room in rooms if room is not None]

    def asleep_of(self, player: str) -> list[str]:
        """The ids of the tables asleep at which ``player`` plays a seat."""
        return [t for t in self._tables_of.get(player, ()) if t in self._asleep]

    # Asleep ---------------------------------------------------------------------------------
    def sleep(self, table_id: str, players: frozenset[str]) -> None:
        """Hold a table out of memory (its room, if any, dropped; its people still indexed)."""
        self._rooms.pop(table_id, None)
        self._asleep.add(table_id)
        self._index(table_id, players)

    def is_asleep(self, table_id: str) -> bool:
        return table_id in self._asleep

    def forget_asleep(self, table_id: str) -> None:
        """A table asleep no longer held here (its lease lost)."""
        if table_id in self._asleep:
            self._asleep.discard(table_id)
            self._index(table_id, frozenset())

    def asleep_ids(self) -> list[str]:
        return list(self._asleep)

    def seats_changed(self, room: Room) -> None:
        """Bring the index up to date after a change that may have seated or unseated someone."""
        if self._rooms.get(room.id) is room:
            self._index(room.id, _players_of(room.state))

    def _index(self, table_id: str, players: frozenset[str]) -> None:
        before = self._players_at.get(table_id, frozenset())
        if players == before:
            return
        for player in before - players:
            tables = self._tables_of[player]
            tables.discard(table_id)
            if not tables:
                del self._tables_of[player]
        for player in players - before:
            self._tables_of.setdefault(player, set()).add(table_id)
        if players:
            self._players_at[table_id] = players
        else:
            self._players_at.pop(table_id, None)

    async def load(self, table_id: str) -> Room:
        """The table, from memory or its log; HallError ``no_table`` when there is none."""
        room = self._rooms.get(table_id)
        if room is not None:
            return room
        if table_id in self._asleep and self.waker is not None:
            return await self._wake(table_id, self.waker)
        events = await self.store.events(table_id) if len(table_id) <= 32 else []
        if not events:
            raise HallError("no_table", "there is no table {table!r}", table=table_id)
        state = TableState.replay(table_id, events)
        if state.phase is Phase.FINISHED:
            return Room(state, saved_finish=True)  # to look at; nothing keeps it in memory
        return self.add(Room(state))

    async def look(self, table_id: str) -> TableState:
        """The table as it is now, to look at, without waking it: one asleep has not changed
        since it fell asleep (any command wakes it), so it is read from its log and left
        asleep (its downtime owed is given back only when it wakes). Otherwise as ``load``."""
        if table_id in self._asleep and table_id not in self._rooms:
            return TableState.replay(table_id, await self.store.events(table_id))
        return (await self.load(table_id)).state

    async def _wake(self, table_id: str, waker: Callable[[str], Awaitable[Room]]) -> Room:
        """A table asleep, loaded once however many ask at the same time (a caller cancelled
        does not stop it: the others wait for it too)."""
        waking = self._waking.get(table_id)
        if waking is None:
            waking = asyncio.ensure_future(waker(table_id))
            self._waking[table_id] = waking
            waking.add_done_callback(lambda _: self._waking.pop(table_id, None))
        return await asyncio.shield(waking)


def _players_of(state: TableState) -> frozenset[str]:
    """The people playing a seat of the table (as ``TableState.seat_of`` finds them)."""
    return frozenset(seat.player for seat in state.people() if seat.player)
