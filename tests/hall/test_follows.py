"""Follows (``follows.py``): between accounts only, never oneself, refused by a player who blocked
the follower (and ended by the block); the players one follows by username, each online or not
since the moment followed, with the tables they play that anyone may watch and no other."""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator

import pytest

from dominohall.hall import ManualClock, Options, Person
from dominohall.hall.follows import Followed, Following
from dominohall.hall.wiring import HallSettings, OpenHall, running
from dominohall.store.store import StoredPlayer

from .helpers import refused

pytestmark = pytest.mark.anyio

ANN = StoredPlayer("p_ann", "Ann", "ann", "hash")
BOB = StoredPlayer("p_bob", "Bob", "bob", "hash")
CID = StoredPlayer("p_cid", "Cid", "cid", "hash")
GUEST = StoredPlayer("p_gus", "Guest 12", None, None)


@contextlib.asynccontextmanager
async def _opened(database_url: str, clock: ManualClock) -> AsyncIterator[OpenHall]:
    settings = HallSettings(
        database_url, clock=clock, bot_delay=0, rng=random.Random(1), heartbeat=False
    )
    async with running(settings) as opened:
        for player in (ANN, BOB, CID, GUEST):
            await opened.store.add_player(player)
        yield opened


def _following(opened: OpenHall) -> Following:
    return Following(opened.store, opened.hall, opened.online)


async def test_a_follow_is_between_two_accounts_and_a_block_refuses_and_ends_it(
    database_url: str,
) -> None:
    async with _opened(database_url, ManualClock()) as opened:
        following = _following(opened)
        assert await following.follow(ANN, "bob") == BOB
        assert await following.follows(ANN.id, BOB.id)
        assert not await following.follows(BOB.id, ANN.id)  # (one way)
        await following.follow(ANN, "bob")  # again: nothing changes
        await refused("account_needed", following.follow(GUEST, "bob"))
        await refused("bad_request", following.follow(ANN, "ann"))
        missing = await refused("no_player", following.follow(ANN, "zed"))
        assert missing.params == {"username": "zed"}
        await refused("no_player", following.follow(ANN, GUEST.id))  # a guest has no name
        # Bob blocks Ann: her follow ends, and a new one is refused, naming him.
        await opened.store.moderation.block(BOB.id, ANN.id, opened.hall.clock.now())
        assert not await following.follows(ANN.id, BOB.id)
        refusal = await refused("follow_refused", following.follow(ANN, "bob"))
        assert refusal.message == "you cannot follow bob"
        # Unfollowing: by username, refused for no one.
        await following.follow(ANN, "cid")
        assert await following.unfollow(ANN, "cid") == CID
        assert not await following.follows(ANN.id, CID.id)
        await refused("no_player", following.unfollow(ANN, "zed"))


async def test_the_followed_are_shown_online_or_not_with_the_tables_anyone_may_watch(
    database_url: str,
) -> None:
    clock = ManualClock()
    async with _opened(database_url, clock) as opened:
        following, hall = _following(opened), opened.hall
        await following.follow(ANN, "cid")
        followed_cid_at = clock.now()
        await clock.advance(60)  # (before Bob's tables: unattended, they close after 25 s)
        bob = Person(BOB.id, BOB.name)
        tables = {
            name: (await hall.create_table(bob, options)).id
            for name, options in {
                "public": Options.choose(),
                "private": Options.choose(private=True),
                "private, watchable": Options.choose(private=True, open_to_watchers=True),
                "closed to watchers": Options.choose(open_to_watchers=False),
            }.items()
        }
        await following.follow(ANN, "bob")
        opened.online.arrived(CID.id)

        [shown_bob, shown_cid] = await following.followed(ANN.id)  # by username
        assert [table["id"] for table in shown_bob.playing] == [tables["public"]]
        assert shown_bob == Followed("bob", "Bob", clock.now(), False, shown_bob.playing)
        assert shown_cid == Followed("cid", "Cid", followed_cid_at, True, [])
        assert await following.followed(BOB.id) == []  # (one way)

        # Bob's public table finished (here: closed, its host gone): no longer shown.
        await hall.leave(bob, tables["public"])
        opened.online.left(CID.id)
        [shown_bob, shown_cid] = await following.followed(ANN.id)
        assert shown_bob.playing == [] and not shown_cid.online
