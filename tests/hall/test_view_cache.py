"""The JSON parts kept beside a table: made once a version, each table its own, gone with it."""

from __future__ import annotations

import gc
import random
import weakref
from collections.abc import Callable

from dominohall.hall import Options, TableState
from dominohall.hall import commands as c
from dominohall.hall.events import Created, SeatAtStart, SeatKind
from dominohall.hall.view_cache import cache_of, cached


def a_table(table_id: str = "t1") -> TableState:
    """A new table of two seats, Ann's (version 1)."""
    state = TableState(table_id)
    seats = (SeatAtStart(SeatKind.HUMAN, "p_ann", "Ann"), SeatAtStart(SeatKind.EMPTY))
    state.apply(Created(Options.choose(seats=2), seats), 0.0)
    return state


def bob_joins(state: TableState) -> None:
    for event in state.decide(c.Join("p_bob", "Bob"), random.Random(1)):
        state.apply(event, 0.0)


def counted(made: list[str], name: str) -> Callable[[], dict[str, str]]:
    """A maker of a part that notes each time it is called."""

    def make() -> dict[str, str]:
        made.append(name)
        return {"part": name}

    return make


def test_a_part_is_made_once_a_version_and_again_once_the_table_moves_on() -> None:
    state, made = a_table(), list[str]()
    first = cached(state, "seats", counted(made, "seats"))
    assert cached(state, "seats", counted(made, "seats")) is first
    assert cached(state, "meta", counted(made, "meta")) == {"part": "meta"}
    assert made == ["seats", "meta"]
    bob_joins(state)
    assert state.version == 2
    again = cached(state, "seats", counted(made, "seats"))
    assert again is not first and made == ["seats", "meta", "seats"]
    assert "meta" not in cache_of(state).parts  # the older version's parts all went


def test_each_table_has_its_own_parts_a_replayed_copy_too() -> None:
    one, other, made = a_table("t1"), a_table("t2"), list[str]()
    copy = a_table("t1")  # the same table at the same version, another object (read off a log)
    for state in (one, other, copy, one, other, copy):  # asked in turn, each kept
        cached(state, "seats", counted(made, state.id))
    assert made == ["t1", "t2", "t1"]
    assert len({id(cache_of(s)) for s in (one, other, copy)}) == 3
    # A table that moved on while another was asked loses its parts all the same.
    bob_joins(one)
    cached(other, "seats", counted(made, "t2"))
    cached(one, "seats", counted(made, "t1"))
    assert made == ["t1", "t2", "t1", "t1"]


def test_what_is_kept_across_versions_stays_when_the_table_moves_on() -> None:
    state = a_table()
    cache = cache_of(state)
    cache.shown_layout = layout = object()
    cache.logs[0] = ([], [])
    cached(state, "seats", lambda: [])
    bob_joins(state)
    assert cache_of(state) is cache
    assert cache.version == 2 and cache.parts == {}
    assert cache.shown_layout is layout and 0 in cache.logs


def test_a_table_let_go_takes_its_cache_with_it() -> None:
    state, other = a_table("t1"), a_table("t2")
    kept = weakref.ref(cache_of(state))
    cache_of(other)  # the last asked is another table now
    assert cache_of(state) is kept()  # found again while the table lives
    cache_of(other)
    del state
    gc.collect()
    assert kept() is None
