"""How a table's changes reach the sockets watching it. In-memory here; one process holds a table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

Listener = Callable[[int], None]


class Broker(Protocol):
    def publish(self, table_id: str, version: int) -> None:
        """Tell every listener of the table that it changed (``version`` is its version now)."""
        ...

    def subscribe(self, table_id: str, listener: Listener) -> Callable[[], None]:
        """Listen to a table's changes; returns the function that stops listening."""
        ...


class MemoryBroker:
    def __init__(self) -> None:
        self._listeners: dict[str, set[Listener]] = {}

    def publish(self, table_id: str, version: int) -> None:
        for listener in list(self._listeners.get(table_id, ())):
            listener(version)

    def subscribe(self, table_id: str, listener: Listener) -> Callable[[], None]:
        self._listeners.setdefault(table_id, set()).add(listener)

        def unsubscribe() -> None:
            listeners = self._listeners.get(table_id)
            if listeners is not None:
                listeners.discard(listener)
                if not listeners:
                    del self._listeners[table_id]

        return unsubscribe
