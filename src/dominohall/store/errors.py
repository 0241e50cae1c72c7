"""What the store refuses, and what says the database cannot be reached."""

from __future__ import annotations

import errno
import socket

import asyncpg  # type: ignore[import-untyped]
from sqlalchemy.exc import DBAPIError


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


class StoreUnavailable(Exception):
    """The database could not be reached (PostgreSQL stopped, restarting, cut off): the call
    did nothing, or, if the connection dropped while a write was being committed, nobody can
    tell until the database is back (the table's log then says). Trying again later is safe."""


# asyncpg's errors that say the server went away or is not taking connections yet.
_GONE = (
    StoreUnavailable,
    ConnectionError,  # refused, reset, aborted, a broken pipe
    TimeoutError,
    socket.gaierror,  # the host's name not found
    asyncpg.PostgresConnectionError,  # (CannotConnectNowError: starting up, shutting down)
    asyncpg.ConnectionDoesNotExistError,  # closed in the middle of a call
    asyncpg.AdminShutdownError,  # terminated by the server's shutdown
)

_NO_ROUTE = frozenset({errno.EHOSTUNREACH, errno.ENETUNREACH, errno.ENETDOWN, errno.ETIMEDOUT})


def unreachable(error: BaseException) -> bool:
    """Whether ``error`` says the database could not be reached (rather than refusing the
    call): a connection refused or cut, a server shutting down or starting up."""
    seen: set[int] = set()
    at: BaseException | None = error
    while at is not None and id(at) not in seen:
        seen.add(id(at))
        if isinstance(at, _GONE):
            return True
        if isinstance(at, OSError) and at.errno in _NO_ROUTE:  # (not a disk full, say)
            return True
        if isinstance(at, DBAPIError):
            if at.connection_invalidated:
                return True
            orig = at.orig
            if isinstance(orig, BaseException) and unreachable(orig):
                return True
        at = at.__cause__ or at.__context__
    return False


def unavailable_or_not(error: BaseException) -> BaseException:
    """``error`` as the store raises it: ``StoreUnavailable`` when it says the database could
    not be reached, else itself."""
    if isinstance(error, StoreUnavailable) or not unreachable(error):
        return error
    translated = StoreUnavailable(f"the database cannot be reached just now: {error}")
    translated.__cause__ = error
    return translated
