"""The notes of turn-based tables asleep (``store/wakes.py``): a note is current only while no
event came after its version and its table is live; a start's downtime is owed once to each,
counted from the later of the note and the last heartbeat, never twice for one stretch."""

from __future__ import annotations

import pytest

from dominohall.store import Store

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
    assert await store.wakes.listings(["t1", "t2"]) == {"t1": ({"turn": 0}, 0.0)}
    await store.append("t1", 4, [{"kind": "x"}], 120.0)  # moved on after its note
    assert await store.wakes.asleep() == [] and await store.wakes.current("t1") is None
    await store.wakes.note("t1", 4, None, ["p_ann"], None, {})  # noted again
    assert [w.wake_at for w in await store.wakes.asleep()] == [None]
    await store.finish_table("t1", 130.0, None)
    assert await store.wakes.asleep() == []


async def test_a_starts_downtime_is_owed_once_from_the_later_of_note_and_heartbeat(
    store: Store,
) -> None:
    await table(store, "old", 1, 100.0)  # noted long before the hall's last heartbeat
    await table(store, "new", 1, 900.0)  # noted after it (a heartbeat is a second apart)
    for table_id in ("old", "new"):
        await store.wakes.note(table_id, 1, None, [], None, {})
    await store.set_meta("alive_at", "800.0")
    await store.wakes.owe_downtime(1000.0)
    owed = {w.table_id: w.owed for w in await store.wakes.asleep()}
    assert owed == {"old": pytest.approx(200.0), "new": pytest.approx(100.0)}
    # A start cut short before its heartbeat: the next counts on from the last start only.
    await store.wakes.owe_downtime(1050.0)
    owed = {w.table_id: w.owed for w in await store.wakes.asleep()}
    assert owed == {"old": pytest.approx(250.0), "new": pytest.approx(150.0)}
    await store.wakes.owe(["new"], 7.0)
    assert (await store.wakes.current("new")).owed == pytest.approx(157.0)  # type: ignore[union-attr]
    await store.wakes.note("new", 1, None, [], None, {})  # noted again: nothing owed
    assert (await store.wakes.current("new")).owed == 0.0  # type: ignore[union-attr]
