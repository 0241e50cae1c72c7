"""Moderation's rows on SQLite and PostgreSQL: mutes and blocks, reports (which mute too) with
the chat around a reported line, time-outs by ``now``, bans by account and address, operators,
the log of every operator's action, and what an account's deletion leaves."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from dominohall.hall.accounts import StoreAccounts
from dominohall.store import Store
from dominohall.store.chat import Room
from dominohall.store.store import StoredPlayer

pytestmark = pytest.mark.anyio


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    store = await Store.open(database_url)
    for pid in ("ann", "bob", "cid", "op"):
        await store.add_player(StoredPlayer(pid, pid.title(), pid, "hash"))
    yield store
    await store.close()


async def test_mutes_and_blocks_are_each_players_own(store: Store) -> None:
    mod = store.moderation
    await mod.mute("ann", "bob", 1.0)
    await mod.mute("ann", "bob", 2.0)  # again: no harm
    await mod.block("ann", "cid", 1.0)
    await mod.block("ann", "cid", 2.0)
    assert await mod.muted_by("ann") == {"bob", "cid"}  # a block hides chat too
    assert await mod.mutes_of("ann") == {"bob"}
    assert await mod.blocked_by("ann") == {"cid"}
    assert await mod.blocks("ann", "cid") and not await mod.blocks("cid", "ann")
    assert not await mod.blocks("ann", "bob")
    assert await mod.muted_by("bob") == set()  # for Ann only
    await mod.unmute("ann", "bob")
    await mod.unblock("ann", "cid")
    assert await mod.muted_by("ann") == set()
    assert not await mod.blocks("ann", "cid")


async def test_a_report_mutes_the_reported_for_the_reporter(store: Store) -> None:
    mod = store.moderation
    line = await store.chat.add("t1", Room.PLAYERS, "bob", 1.0, text="rude words")
    report = await mod.report("ann", "bob", "insults", 2.0, line_id=line.id)
    assert (report.reporter_id, report.reported_id, report.line_id) == ("ann", "bob", line.id)
    assert await mod.muted_by("ann") == {"bob"}
    await mod.report("ann", "bob", "again", 3.0)  # a player as a whole; already muted: fine
    assert [r.reason for r in await mod.reports_by("ann")] == ["insults", "again"]
    assert await mod.reports_by("bob") == []


async def test_open_reports_come_with_the_chat_around_the_line(store: Store) -> None:
    mod, chat = store.moderation, store.chat
    said = [
        await chat.add("t1", Room.PLAYERS, who, float(i), text=f"{who} {i}")
        for i, who in enumerate(["ann", "bob", "ann", "bob", "cid"])
    ]
    await chat.add("t1", Room.SPECTATORS, "op", 2.5, text="another room")
    first = await mod.report("ann", "bob", "insult", 10.0, line_id=said[3].id)
    second = await mod.report("cid", "ann", "cheating", 11.0)
    reports = await mod.open_reports(context=2)
    assert [r.id for r in reports] == [first.id, second.id]
    assert [line.text for line in reports[0].context] == ["bob 1", "ann 2", "bob 3", "cid 4"]
    assert reports[1].context == []
    assert await mod.close_report(first.id, "op", "warned bob", 12.0)
    assert not await mod.close_report(first.id, "op", "twice", 13.0)
    assert [r.id for r in await mod.open_reports()] == [second.id]
    [closed, _] = await mod.reports_by("ann") + await mod.reports_by("cid")
    assert (closed.closed_at, closed.closed_by) == (12.0, "op")


async def test_a_time_out_holds_until_its_end(store: Store) -> None:
    mod = store.moderation
    assert await mod.timed_out("bob", 100.0) is None
    await mod.time_out("bob", 100.0 + 15 * 60, "op", "spam", 100.0)
    assert await mod.timed_out("bob", 99.0) is None  # not yet given
    held = await mod.timed_out("bob", 100.0)
    assert held is not None and (held.until, held.by_id, held.reason) == (1000.0, "op", "spam")
    assert await mod.timed_out("bob", 999.9) is not None
    assert await mod.timed_out("bob", 1000.0) is None  # over at its end
    assert await mod.timed_out("ann", 500.0) is None
    # A later one replaces it: longer, or lifted early (until now).
    await mod.time_out("bob", 5000.0, "op", "spam again", 500.0)
    assert (await mod.timed_out("bob", 2000.0)).until == 5000.0  # type: ignore[union-attr]
    await mod.time_out("bob", 600.0, "op", "lifted: a mistake", 600.0)
    assert await mod.timed_out("bob", 600.0) is None


async def test_a_ban_holds_its_player_and_addresses_until_unbanned(store: Store) -> None:
    mod = store.moderation
    assert await mod.banned("bob") is None
    ban = await mod.ban("bob", "op", "harassment", 1.0, addresses=["203.0.113.7", "2001:db8::1"])
    held = await mod.banned("bob")
    assert held == ban and held.addresses == {"203.0.113.7", "2001:db8::1"}
    assert (await mod.banned_address("2001:db8::1")) == ban
    assert await mod.banned_address("198.51.100.1") is None
    assert await mod.banned("ann") is None
    assert await mod.unban("bob", "op", "appeal granted", 2.0) == 1
    assert await mod.banned("bob") is None
    assert await mod.banned_address("203.0.113.7") is None
    assert await mod.unban("bob", "op", "again", 3.0) == 0
    await mod.ban("bob", "op", "back at it", 4.0)
    assert (await mod.banned("bob")).reason == "back at it"  # type: ignore[union-attr]


async def test_operators_are_set_and_unset(store: Store) -> None:
    mod = store.moderation
    assert not await mod.is_operator("op")
    await mod.add_operator("op", 1.0)
    await mod.add_operator("op", 2.0)  # already one: nothing more logged
    await mod.add_operator("ann", 3.0, by_id="op")
    assert await mod.is_operator("op") and await mod.operators() == ["op", "ann"]
    await mod.remove_operator("ann", 4.0, by_id="op")
    await mod.remove_operator("ann", 5.0, by_id="op")
    assert await mod.operators() == ["op"]
    log = await mod.log_after()
    assert [(a.actor_id, a.action, a.subject_id, a.at) for a in log] == [
        (None, "add_operator", "op", 1.0),
        ("op", "add_operator", "ann", 3.0),
        ("op", "remove_operator", "ann", 4.0),
    ]


async def test_every_operators_action_is_logged_in_order(store: Store, other: Store) -> None:
    mod = store.moderation
    report = await mod.report("ann", "bob", "spam", 1.0)
    await mod.mute("cid", "bob", 1.0)  # a player's own choices are not the log's
    await mod.block("cid", "ann", 1.0)
    await mod.time_out("bob", 900.0, "op", "spam", 2.0)
    await mod.close_report(report.id, "op", "timed out", 3.0)
    await mod.ban("bob", "op", "spam after a time-out", 4.0, addresses=["203.0.113.7"])
    await mod.unban("bob", "op", "appeal", 5.0)
    await mod.log("op", "reset_name", "cid", "offensive name", 6.0, {"was": "Rude"})
    log = await mod.log_after()
    assert [(a.action, a.actor_id, a.subject_id, a.reason) for a in log] == [
        ("time_out", "op", "bob", "spam"),
        ("close_report", "op", "bob", "timed out"),
        ("ban", "op", "bob", "spam after a time-out"),
        ("unban", "op", "bob", "appeal"),
        ("reset_name", "op", "cid", "offensive name"),
    ]
    assert log[0].detail == {"until": 900.0}
    assert log[1].detail == {"report": report.id}
    assert log[2].detail["addresses"] == ["203.0.113.7"]
    assert log[4].detail == {"was": "Rude"}
    # Another process reads on from the last entry it saw.
    assert [a.action for a in await other.moderation.log_after(log[2].id)] == [
        "unban",
        "reset_name",
    ]
    assert await other.moderation.log_after(log[-1].id) == []


async def test_a_deleted_account_leaves_its_reports_and_bans_but_not_its_mutes(
    store: Store,
) -> None:
    mod = store.moderation
    await mod.mute("ann", "bob", 1.0)
    await mod.block("bob", "ann", 1.0)
    await mod.block("cid", "bob", 1.0)
    await mod.report("ann", "cid", "rude", 2.0)  # mutes Cid for Ann too
    await mod.time_out("ann", 9000.0, "op", "spam", 3.0)
    await mod.ban("ann", "op", "evading", 4.0, addresses=["203.0.113.7"])
    await StoreAccounts(store).delete_account("ann")
    assert await mod.muted_by("ann") == set()
    assert await mod.muted_by("bob") == set()  # Bob's block of Ann: gone with her
    assert await mod.blocked_by("cid") == {"bob"}  # others' choices about others stay
    assert await mod.timed_out("ann", 5.0) is None
    assert [r.reason for r in await mod.open_reports()] == ["rude"]
    assert await mod.banned_address("203.0.113.7") is not None
    assert [a.action for a in await mod.log_after()] == ["time_out", "ban"]
