"""Parts of a table's JSON made once and shared by every socket on it: at one version (the
table's meta, the seats, the game, the counts), and across versions the layout's JSON, kept up
as tiles are laid. Kept here, beside the table and not on it: the table knows no JSON."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

from ..hall import TableState


class ViewCache:
    def __init__(self) -> None:
        self.version = -1
        self.parts: dict[object, Any] = {}
        self.shown_layout: object = None  # views.ShownLayout, once a tile is laid

    def get(self, key: object, make: Callable[[], Any]) -> Any:
        if key not in self.parts:
            self.parts[key] = make()
        return self.parts[key]


# Weak: a table let go by the hall takes its cache with it.
_caches: WeakKeyDictionary[TableState, ViewCache] = WeakKeyDictionary()


def cache_of(state: TableState) -> ViewCache:
    """The table's cache, emptied of the parts made at an older version."""
    cache = _caches.get(state)
    if cache is None:
        cache = _caches[state] = ViewCache()
    if cache.version != state.version:
        cache.version = state.version
        cache.parts.clear()
    return cache


def cached(state: TableState, key: object, make: Callable[[], Any]) -> Any:
    """A part of the JSON at the table's version, made once for every socket."""
    return cache_of(state).get(key, make)
