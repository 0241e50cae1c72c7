"""What says the database could not be reached (``store/errors.py``), and what does not."""

from __future__ import annotations

import errno

from dominohall.store.errors import StoreUnavailable, unavailable_or_not, unreachable


def test_a_refused_or_cut_connection_is_the_database_away() -> None:
    assert unreachable(ConnectionRefusedError(errno.ECONNREFUSED, "refused"))
    assert unreachable(ConnectionResetError(errno.ECONNRESET, "reset"))
    assert unreachable(OSError(errno.EHOSTUNREACH, "no route to host"))
    assert unreachable(TimeoutError())
    wrapped = RuntimeError("while committing")
    wrapped.__cause__ = ConnectionRefusedError(errno.ECONNREFUSED, "refused")
    assert unreachable(wrapped)  # (found down the chain of causes)


def test_a_refusal_or_a_full_disk_is_not() -> None:
    assert not unreachable(OSError(errno.ENOSPC, "No space left on device"))
    assert not unreachable(ValueError("bad value"))
    error = ValueError("bad value")
    assert unavailable_or_not(error) is error


def test_the_store_says_so_in_one_way() -> None:
    refused = ConnectionRefusedError(errno.ECONNREFUSED, "refused")
    translated = unavailable_or_not(refused)
    assert isinstance(translated, StoreUnavailable) and translated.__cause__ is refused
