"""What the store refuses."""

from __future__ import annotations


class Conflict(Exception):
    """Another writer already took that version of the table, or that username: nothing was
    written."""


class StoreClosed(Exception):
    """The store was closed (the hall is stopping) before these events were written: nothing of
    them was committed."""


class Fenced(Exception):
    """The table's lease no longer carries the fencing token the write came with (another
    process took the table over, or the lease was released): nothing was written. Unlike a
    Conflict, trying again is no use: the writer no longer owns the table."""

    @classmethod
    def lost(cls, table_id: str, token: int) -> Fenced:
        return cls(f"table {table_id}: its lease no longer carries token {token}")
