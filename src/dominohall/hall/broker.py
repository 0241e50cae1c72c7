"""How changes reach who listens: a table's channel (its sockets: each change with the messages
its audiences are sent, ``table_feed.TableChange``) and each player's own channel
(seated, "your turn", invitations, reminders, a game's end: what that player may know, and the
player's socket passes it on as it is). In memory here, where one process holds every table; a
Redis implementation of ``Broker`` can take its place without changing callers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

from .notices import PlayerNotice, TableNotice
from .table_feed import TableChange

# A table's listener gets each change of the table, or an unversioned notice.
Listener = Callable[[TableChange | TableNotice], None]
PlayerListener = Callable[[PlayerNotice], None]
L = TypeVar("L")


class Broker(Protocol):
    def publish(self, table_id: str, change: TableChange) -> None:
        """Tell every listener of the table how it changed."""
        ...

    def notify(self, table_id: str, notice: TableNotice) -> None:
        """Tell every listener of the table something that is not a change of its log
        (who is connected, a chat line)."""
        ...

    def subscribe(self, table_id: str, listener: Listener) -> Callable[[], None]:
        """Listen to a table's changes; returns the function that stops listening."""
        ...

    def heard_elsewhere(self, table_id: str) -> bool:
        """Whether another process may hear the table's changes (as Redis last counted who
        heard one; not yet counted: it may). When not, the changes go to the other processes
        without their messages (a listener there that came since asks for the whole state)."""
        ...

    def asked_from_elsewhere(self, table_id: str) -> None:
        """Another process asked the owner about the table (its first state for a socket
        there, a command, who is connected there): its changes go whole again, until Redis
        counts nobody hearing them."""
        ...

    async def subscribed(self, table_id: str) -> None:
        """Wait until a table's listeners added so far hear whatever is published from now on
        (several processes: the table's channel subscribed): a socket's first state is read
        after it, so that no change falls between that state and the changes it hears."""
        ...

    def tell(self, player: str, notice: PlayerNotice) -> None:
        """Send a notice to every listener of the player's own channel."""
        ...

    def listen(self, player: str, listener: PlayerListener) -> Callable[[], None]:
        """Listen to a player's own channel; returns the function that stops listening."""
        ...


class Channels(Generic[L]):
    """Listeners by channel name."""

    def __init__(self) -> None:
        self.listeners: dict[str, set[L]] = {}

    def add(self, key: str, listener: L) -> Callable[[], None]:
        self.listeners.setdefault(key, set()).add(listener)

        def remove() -> None:
            listeners = self.listeners.get(key)
            if listeners is not None:
                listeners.discard(listener)
                if not listeners:
                    del self.listeners[key]

        return remove

    def of(self, key: str) -> list[L]:
        return list(self.listeners.get(key, ()))


class MemoryBroker:
    def __init__(self) -> None:
        self._tables = Channels[Listener]()
        self._players = Channels[PlayerListener]()

    def publish(self, table_id: str, change: TableChange) -> None:
        for listener in self._tables.of(table_id):
            listener(change)

    def notify(self, table_id: str, notice: TableNotice) -> None:
        for listener in self._tables.of(table_id):
            listener(notice)

    def subscribe(self, table_id: str, listener: Listener) -> Callable[[], None]:
        return self._tables.add(table_id, listener)

    def heard_elsewhere(self, table_id: str) -> bool:
        return False  # (one process: there is no elsewhere)

    def asked_from_elsewhere(self, table_id: str) -> None:
        pass

    async def subscribed(self, table_id: str) -> None:
        return  # (in place at once)

    def tell(self, player: str, notice: PlayerNotice) -> None:
        for listener in self._players.of(player):
            listener(notice)

    def listen(self, player: str, listener: PlayerListener) -> Callable[[], None]:
        return self._players.add(player, listener)
