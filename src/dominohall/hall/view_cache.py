"""Parts of a table's JSON made once and shared by every socket on it: at one version (the
table's meta, the seats, the game, the counts), and across versions the layout's JSON, kept up
as tiles are laid, and each entry of what happened as clients see it (``event_view.py``). Kept
here, beside the table and not on it: the table knows no JSON."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar
from weakref import WeakKeyDictionary, ref

from . import messages
from .table import TableState
from .table.happened import Happened
from .table.state import TAIL


class Written:
    """One entry of what happened as written (``event_view.py``): its whole event (shared by
    every reader, so never to be changed); what a seat sees of it (``seat_view.py``: the seat
    that sees the whole, -1 for none, and what the others see) and what ``since_your_move``
    lists of it (``turn_view.py``), each made once."""

    __slots__ = ("entry", "whole", "cut", "since")

    def __init__(self, entry: Happened, whole: messages.Event) -> None:
        self.entry = entry
        self.whole = whole
        self.cut: tuple[int, messages.Event] | None = None
        self.since: messages.SinceEntry | None = None


class ViewCache:
    def __init__(self) -> None:
        self.version = -1
        self.parts: dict[object, Any] = {}
        self.shown_layout: object = None  # views.ShownLayout, once a tile is laid
        # What happened, as clients see it (``event_view.py``), by the entry's identity.
        self.entries: dict[int, Written] = {}
        # This hand's log as each seat sees it (``views.py``): the log it was made of, and it.
        self.logs: dict[int | None, tuple[list[Happened], list[messages.Event]]] = {}
        self.entries_limit = 2 * TAIL + 64  # (then those the table no longer keeps go)


T = TypeVar("T")

# Weak: a table let go by the hall takes its cache with it.
_caches: WeakKeyDictionary[TableState, ViewCache] = WeakKeyDictionary()
# The table asked for last, and its cache: a message asks many times in a row for one table.
_last: tuple[ref[TableState], ViewCache] | None = None


def cache_of(state: TableState) -> ViewCache:
    """The table's cache, emptied of the parts made at an older version."""
    global _last
    if _last is not None and _last[0]() is state:
        cache = _last[1]
    else:
        found = _caches.get(state)
        cache = found if found is not None else _caches.setdefault(state, ViewCache())
        _last = (ref(state), cache)
    if cache.version != state.version:
        cache.version = state.version
        cache.parts.clear()
    return cache


def cached(state: TableState, key: object, make: Callable[[], T]) -> T:
    """A part of the JSON at the table's version, made once for every socket (each key is
    always made by the same ``make``: so the part kept is of its type)."""
    parts = cache_of(state).parts
    if key not in parts:
        parts[key] = make()
    part: T = parts[key]
    return part
