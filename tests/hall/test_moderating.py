"""The operators' moderation (``moderating.py``), over the store on a hand-driven clock: who is
found and who is an operator, time-outs by their minutes (0 lifts one), bans of an account and
of the addresses given or seen lately, a rename logged with both names, reports read newest first
with the chat around them and closed once, each refusal with its code and nothing written; and
the log followed by a process (``Follower``): each entry applied once from where it started, a
ban handing the account's table over, a rename shown at the table, a failing listener stopping
no other entry."""

from __future__ import annotations

import contextlib
import math
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from databases import sqlite_url
from dominohall.hall import ManualClock
from dominohall.hall.moderating import (
    ADDRESS_DAYS,
    DAY,
    LONGEST_TIME_OUT_MINUTES,
    MAX_REASON,
    Action,
    Follower,
    Moderating,
    line_json,
)
from dominohall.hall.wiring import HallSettings, OpenHall, running
from dominohall.store import Store
from dominohall.store.chat import ChatLine, Room
from dominohall.store.store import StoredPlayer

from .helpers import ANN as ANN_SEATED
from .helpers import BOB as BOB_SEATED
from .helpers import refused, started_table

pytestmark = pytest.mark.anyio

ANN = StoredPlayer("p_ann", "Ann", "ann", "hash")
BOB = StoredPlayer("p_bob", "Bob", "bob", "hash")
GUEST = StoredPlayer("p_gus", "Guest 12", None, None)
OLGA = StoredPlayer("p_op", "Olga", "olga", "hash")  # the operator


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    """SQLite: the decisions here are the hall's (the store's rows are tested on both backends
    in tests/store/test_moderation.py; the follower below runs on both)."""
    store = await Store.open(sqlite_url(tmp_path))
    for player in (ANN, BOB, GUEST, OLGA):
        await store.add_player(player)
    yield store
    await store.close()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def mod(store: Store, clock: ManualClock) -> Moderating:
    return Moderating(store, clock)


async def test_players_are_found_by_username_or_id_and_operators_are_named_from_them(
    mod: Moderating,
) -> None:
    assert await mod.player(" ANN ") == ANN  # a username as typed
    assert await mod.player("p_gus") == GUEST  # a guest by its id
    missing = await refused("no_player", mod.player("zed"))
    assert missing.params == {"who": "zed"}
    await refused("not_operator", mod.operator("olga"))
    await refused("account_needed", mod.add_operator("p_gus"))  # no password to sign in with
    assert await mod.add_operator("olga") == OLGA
    assert await mod.operator("olga") == OLGA and await mod.is_operator(OLGA.id)
    assert await mod.operators() == [OLGA]
    refusal = await refused("not_operator", mod.remove_operator("ann"))
    assert refusal.message == "Ann (@ann) is not an operator"
    assert await mod.remove_operator("olga") == OLGA
    assert await mod.operators() == [] and not await mod.is_operator(OLGA.id)
    # Both changes logged, from the command line (no operator acting).
    log = await mod.log()
    assert [(a.action, a.subject_id, a.actor_id) for a in log] == [
        ("remove_operator", OLGA.id, None),
        ("add_operator", OLGA.id, None),
    ]
    assert await mod.name_of(None) == "(command line)"
    assert await mod.name_of(GUEST.id) == "Guest 12 (p_gus)"
    assert await mod.name_of("p_gone") == "p_gone"  # (an account since deleted)


async def test_a_time_out_lasts_its_minutes_and_zero_lifts_it(
    mod: Moderating, clock: ManualClock
) -> None:
    for minutes in (-1.0, math.nan, math.inf, LONGEST_TIME_OUT_MINUTES + 1):
        await refused("bad_request", mod.time_out(BOB.id, minutes, OLGA.id, "spam"))
    for reason in ("  ", "x" * (MAX_REASON + 1)):
        await refused("bad_request", mod.time_out(BOB.id, 15, OLGA.id, reason))
    await refused("no_player", mod.time_out("p_zed", 15, OLGA.id, "spam"))
    assert await mod.log() == []  # nothing written by a refusal

    start = clock.now()
    given = await mod.time_out(BOB.id, 15, OLGA.id, "  spam  ")
    assert (given.until, given.reason, given.by_id) == (start + 15 * 60, "spam", OLGA.id)
    await clock.advance(15 * 60 - 1)
    assert await mod.timed_out(BOB.id) == given
    await clock.advance(1)
    assert await mod.timed_out(BOB.id) is None  # over on the minute
    await mod.time_out(BOB.id, 60, OLGA.id, "spam again")
    assert await mod.timed_out(BOB.id) is not None
    lifted = await mod.time_out(BOB.id, 0, OLGA.id, "appealed")
    assert lifted.until == clock.now() and await mod.timed_out(BOB.id) is None
    assert [a.action for a in await mod.log()] == ["time_out"] * 3
    assert await mod.timed_out(ANN.id) is None


async def test_a_ban_covers_the_addresses_given_and_those_seen_lately(
    mod: Moderating, clock: ManualClock
) -> None:
    await mod.saw_address(BOB.id, "10.0.0.1")
    await clock.advance(ADDRESS_DAYS * DAY + 1)  # forgotten at the next sign-in, anyone's
    await mod.saw_address(BOB.id, "10.0.0.2")
    await clock.advance(1)
    await mod.saw_address(BOB.id, "10.0.0.3")
    assert [a.address for a in await mod.addresses_of(BOB.id)] == ["10.0.0.3", "10.0.0.2"]

    for address in ("", "10.0.0.9 x", "x" * 65):
        refusal = await refused("bad_request", mod.ban(BOB.id, OLGA.id, "abuse", [address]))
        assert refusal.params == {"address": address}
    await refused("bad_request", mod.ban(BOB.id, OLGA.id, " "))
    await refused("no_player", mod.ban("p_zed", OLGA.id, "abuse"))
    assert await mod.banned(BOB.id) is None

    ban = await mod.ban(BOB.id, OLGA.id, "abuse", [" 192.0.2.7 ", "10.0.0.2"], with_addresses=True)
    assert ban.addresses == {"192.0.2.7", "10.0.0.2", "10.0.0.3"}  # (each once; not the old one)
    assert await mod.banned(BOB.id) == ban
    assert await mod.banned_address("10.0.0.3") == ban
    assert await mod.banned_address("10.0.0.1") is None
    refusal = await refused("already_banned", mod.ban(BOB.id, OLGA.id, "abuse"))
    assert refusal.message == "Bob (@bob) is banned already"
    more = await mod.ban(BOB.id, OLGA.id, "another address", ["198.51.100.1"])  # allowed
    assert await mod.banned_address("198.51.100.1") == more

    assert await mod.unban(BOB.id, OLGA.id, "appeal granted") == 2  # every ban of his lifted
    assert await mod.banned(BOB.id) is None and await mod.banned_address("10.0.0.3") is None
    await refused("not_banned", mod.unban(BOB.id, OLGA.id, "twice"))
    await refused("not_banned", mod.unban(GUEST.id, OLGA.id, "never was"))
    assert [a.action for a in await mod.log()] == ["unban", "ban", "ban"]


async def test_a_rename_is_made_and_logged_with_both_names(mod: Moderating, store: Store) -> None:
    renamed = await mod.rename(BOB.id, "Player 7", OLGA.id, "offensive name")
    assert renamed == StoredPlayer(BOB.id, "Player 7", "bob", "hash")
    assert await store.player(BOB.id) == renamed
    [entry] = await mod.log()
    assert (entry.action, entry.actor_id, entry.subject_id, entry.reason) == (
        "rename",
        OLGA.id,
        BOB.id,
        "offensive name",
    )
    assert entry.detail == {"from": "Bob", "to": "Player 7"}
    await refused("bad_request", mod.rename(ANN.id, "Anna", OLGA.id, ""))
    assert (await store.player(ANN.id)) == ANN  # unchanged, nothing logged
    assert await mod.log(before=entry.id) == []


async def test_reports_are_read_newest_first_with_the_chat_around_and_closed_once(
    mod: Moderating, store: Store
) -> None:
    said = [
        await store.chat.add("t1", Room.PLAYERS, who, float(i), text=f"line {i}")
        for i, who in enumerate([ANN.id, BOB.id, "p_gone", BOB.id])
    ]
    about_line = await store.moderation.report(ANN.id, BOB.id, "insults", 10.0, said[1].id)
    about_player = await store.moderation.report(GUEST.id, BOB.id, "cheating", 11.0)

    seen = await mod.reports()
    assert [s.report.id for s in seen] == [about_player.id, about_line.id]  # newest first
    whole, line = seen
    assert (whole.reporter, whole.reported, whole.names) == (GUEST, BOB, {})
    assert [c.text for c in line.report.context] == ["line 0", "line 1", "line 2", "line 3"]
    assert line.names == {ANN.id: "Ann", BOB.id: "Bob", "p_gone": "Deleted player"}
    assert line_json(said[2], line.names) == {
        "id": said[2].id,
        "table": "t1",
        "room": "players",
        "player": "p_gone",
        "name": "Deleted player",
        "text": "line 2",
        "phrase": None,
        "at": 2.0,
    }
    no_one = ChatLine(99, "t1", Room.SPECTATORS, None, None, "gg", 3.0)  # a deleted sayer
    assert line_json(no_one, line.names)["name"] == "Deleted player"

    await mod.close_report(about_line.id, OLGA.id, "warned Bob")
    assert [s.report.id for s in await mod.reports()] == [about_player.id]
    refusal = await refused("no_report", mod.close_report(about_line.id, OLGA.id, "again"))
    assert refusal.params == {"report_id": about_line.id}
    closed = await mod.report(about_line.id)  # still read, closed
    assert (closed.report.closed_by, closed.names[BOB.id]) == (OLGA.id, "Bob")
    await refused("no_report", mod.report(999))
    await refused("bad_request", mod.close_report(about_player.id, OLGA.id, ""))
    assert [a.action for a in await mod.log()] == ["close_report"]


# The log followed ---------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def _hall(database_url: str) -> AsyncIterator[OpenHall]:
    """A hall whose own follower is stopped: only the test's follower applies entries."""
    settings = HallSettings(
        database_url, clock=ManualClock(), bot_delay=0, rng=random.Random(1), heartbeat=False
    )
    async with running(settings) as opened:
        await opened.follower.stop()
        for player in (ANN, BOB, OLGA):
            await opened.store.add_player(player)
        yield opened


async def test_the_follower_applies_each_entry_once_from_where_it_started(
    database_url: str,
) -> None:
    async with _hall(database_url) as opened:
        hall, mod = opened.hall, opened.moderating
        await mod.time_out(ANN.id, 5, OLGA.id, "before this process started")
        follower = Follower(hall)
        await follower.start()
        await follower.stop()  # (the rounds run by hand from here)
        assert await follower.catch_up() == 0  # what came before the start is not applied

        heard: list[Action] = []

        async def hear(action: Action) -> None:
            heard.append(action)

        async def fail(action: Action) -> None:
            raise RuntimeError("a listener's fault")

        follower.listen(hear)
        follower.listen(fail)
        table = await started_table(hall, [ANN_SEATED, BOB_SEATED])
        await mod.time_out(BOB.id, 15, OLGA.id, "spam")
        await mod.rename(BOB.id, "Player 7", OLGA.id, "offensive")
        await mod.ban(ANN.id, OLGA.id, "abuse")
        assert await follower.catch_up() == 3  # each failing listener stopped no other entry
        assert [a.action for a in heard] == ["time_out", "rename", "ban"]
        state = (await hall.room(table)).state
        # The rename shown at the table; the banned account out of its game, as if it left.
        assert state.seats[1].name == "Player 7"
        assert (state.seats[0].player, state.seats[0].out) == (ANN.id, "left")
        assert state.seats[1].out is None
        version = state.version
        assert await follower.catch_up() == 0  # nothing applied twice
        assert follower.last_id == heard[-1].id and len(heard) == 3
        assert (await hall.room(table)).state.version == version
