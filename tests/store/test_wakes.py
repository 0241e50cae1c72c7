"""The notes of turn-based tables asleep (``store/wakes.py``): a note is current only while no
event came after its version and its table is live; each start's stretch down is kept once,
from the later of the last heartbeat and the last stretch, and owed to the notes made before."""

from __future__ import annotations

import pytest

from dominohall.store import Store
from dominohall.store.wakes import owed_since

pytestmark = pytest.mark.anyio


async def table(store: Store, table_id: str, events: int, at: float) -> None:
    await store.add_table(table_id, at)
    await store.append(table_id, 1, [{"kind": "x"}] * events, at)


async def test_a_note_is_current_until_its_table_moves_on_or_finishes(store: Store) -> None:
    await table(store, "t1", 3, 100.0)
    await store.wakes.note("t1", 3, 500.0, ["p_ann", "p_bob"], {"id": "t1"}, {"turn": 0})
    [wake] = await store.wakes.asleep()
    assert (wake.table_id, wake.version, wake.at, wake.wake_at) == ("t1", 3, 100.0, 500.0)
    assert wake.players == ("p_ann", "p_bob") and wake.lobby == '{"id": "t1"}'
    assert wake.owed == 0.0
    assert await store.wakes.current("t1") == wake
    assert await store.wakes.listings(["t1", "t2"]) == {"t1": ({"turn": 0}, 0.0, 100.0)}
    await store.append("t1", 4, [{"kind": "x"}], 120.0)  # moved on after its note
    assert await store.wakes.asleep() == [] and await store.wakes.current("t1") is None
    assert await store.wakes.listings(["t1"]) == {}
    await store.wakes.note("t1", 4, None, ["p_ann"], None, {})  # noted again
    assert [w.wake_at for w in await store.wakes.asleep()] == [None]
    await store.finish_table("t1", 130.0, None)
    assert await store.wakes.asleep() == []


async def test_each_start_adds_the_stretch_down_once_from_the_last_heartbeat(
    store: Store,
) -> None:
    assert await store.wakes.downtimes(1000.0) == []  # (never alive: no stretch to count)
    await store.set_meta("alive_at", "800.0")
    assert await store.wakes.downtimes(1000.0) == [(800.0, 1000.0)]
    # A start cut short before its first heartbeat: the next counts on from the last start.
    assert await store.wakes.downtimes(1050.0) == [(800.0, 1000.0), (1000.0, 1050.0)]
    await store.set_meta("alive_at", "2000.0")
    windows = await store.wakes.downtimes(2500.0)
    assert windows[-1] == (2000.0, 2500.0) and len(windows) == 3
    # A note made at 900 is owed what came after it; one made at 2100, nothing of these.
    assert owed_since(900.0, windows) == pytest.approx(100.0 + 50.0 + 500.0)
    assert owed_since(2600.0, windows) == 0.0


async def test_a_takeover_or_an_outage_is_owed_in_the_note_until_it_is_noted_again(
    store: Store,
) -> None:
    await table(store, "t1", 1, 900.0)
    await store.wakes.note("t1", 1, None, [], None, {})
    await store.wakes.owe(["t1", "t2"], 7.0)
    assert (await store.wakes.current("t1")).owed == pytest.approx(7.0)  # type: ignore[union-attr]
    await store.wakes.note("t1", 1, None, [], None, {})  # noted again: nothing owed
    assert (await store.wakes.current("t1")).owed == 0.0  # type: ignore[union-attr]
