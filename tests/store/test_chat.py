"""Chat lines kept with the games, on SQLite and PostgreSQL: each room apart, a player's own
lines, the lines around one, the retention delete (a table under an open report keeps its lines)
and the anonymisation when an account is deleted, through the accounts service's deletion."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy.exc import IntegrityError

from dominohall.hall.accounts import StoreAccounts
from dominohall.store import Store
from dominohall.store.chat import Room
from dominohall.store.store import StoredPlayer

pytestmark = pytest.mark.anyio

PLAYERS, SPECTATORS = Room.PLAYERS, Room.SPECTATORS


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    store = await Store.open(database_url)
    await store.add_player(StoredPlayer("ann", "Ann", "ann", "hash"))
    await store.add_player(StoredPlayer("bob", "Bob", "bob", "hash"))
    await store.add_player(StoredPlayer("gus", "Gus", None, None))
    yield store
    await store.close()


async def test_a_table_keeps_its_rooms_apart(store: Store) -> None:
    chat = store.chat
    first = await chat.add("t1", PLAYERS, "ann", 1.0, phrase="good_luck")
    await chat.add("t1", SPECTATORS, "gus", 2.0, text="Ann holds the double six")
    await chat.add("t1", PLAYERS, "bob", 3.0, text="gl hf")
    await chat.add("t2", PLAYERS, "bob", 4.0, text="another table")
    assert first.id > 0 and (first.text, first.phrase) == (None, "good_luck")
    players = await chat.of_table("t1", frozenset({PLAYERS}))
    assert [(line.player_id, line.text, line.phrase) for line in players] == [
        ("ann", None, "good_luck"),
        ("bob", "gl hf", None),
    ]
    both = await chat.of_table("t1")
    assert [line.at for line in both] == [1.0, 2.0, 3.0]
    assert both[1].room is SPECTATORS and both[1].text == "Ann holds the double six"
    assert await chat.line(first.id) == first
    assert await chat.of_table("t9") == []


async def test_a_line_is_a_text_or_a_phrase_never_both_nor_neither(store: Store) -> None:
    with pytest.raises(ValueError):
        await store.chat.add("t1", PLAYERS, "ann", 1.0)
    with pytest.raises(ValueError):
        await store.chat.add("t1", PLAYERS, "ann", 1.0, text="hi", phrase="hello")
    # The database holds to it too, whoever writes.
    from dominohall.store import schema

    async with store.engine.begin() as conn:
        with pytest.raises(IntegrityError):
            await conn.execute(
                schema.chat_lines.insert().values(
                    table_id="t1", room="players", player_id="ann", at=1.0
                )
            )


async def test_a_players_own_lines_across_tables(store: Store) -> None:
    await store.chat.add("t1", PLAYERS, "ann", 1.0, text="hello")
    await store.chat.add("t1", PLAYERS, "bob", 2.0, text="hi")
    await store.chat.add("t2", SPECTATORS, "ann", 3.0, phrase="well_played")
    mine = await store.chat.of_player("ann")
    assert [(line.table_id, line.room, line.text, line.phrase) for line in mine] == [
        ("t1", PLAYERS, "hello", None),
        ("t2", SPECTATORS, None, "well_played"),
    ]


async def test_the_lines_around_one_in_its_room(store: Store) -> None:
    ids = []
    for i in range(30):
        room = PLAYERS if i % 2 == 0 else SPECTATORS
        ids.append((await store.chat.add("t1", room, "ann", float(i), text=f"line {i}")).id)
    await store.chat.add("t2", PLAYERS, "ann", 99.0, text="elsewhere")
    middle = await store.chat.around(ids[14], lines=3)  # a players' line
    assert [line.text for line in middle] == [f"line {i}" for i in (8, 10, 12, 14, 16, 18, 20)]
    first = await store.chat.around(ids[1], lines=2)  # a spectators' line, at the start
    assert [line.text for line in first] == ["line 1", "line 3", "line 5"]
    assert await store.chat.around(123456789) == []


async def test_lines_older_than_the_retention_go(store: Store) -> None:
    for at in (1.0, 2.0, 3.0, 4.0):
        await store.chat.add("t1", PLAYERS, "ann", at, text=f"at {at}")
    assert await store.chat.forget_before(3.0) == 2
    assert [line.at for line in await store.chat.of_table("t1")] == [3.0, 4.0]
    assert await store.chat.forget_before(3.0) == 0


async def test_a_table_under_an_open_report_keeps_its_lines(store: Store) -> None:
    await store.chat.add("t1", PLAYERS, "ann", 1.0, text="before it")
    rude = await store.chat.add("t1", PLAYERS, "bob", 2.0, text="something rude")
    await store.chat.add("t2", PLAYERS, "bob", 2.0, text="elsewhere")
    report = await store.moderation.report("ann", "bob", "insult", 3.0, line_id=rude.id)
    assert await store.chat.forget_before(10.0) == 1  # t2's line only
    assert len(await store.chat.of_table("t1")) == 2
    assert await store.moderation.close_report(report.id, "op", "warned", 11.0)
    assert await store.chat.forget_before(10.0) == 2


async def test_a_deleted_accounts_lines_stay_said_by_nobody(store: Store) -> None:
    await store.chat.add("t1", PLAYERS, "ann", 1.0, text="my secret plan")
    await store.chat.add("t1", PLAYERS, "bob", 2.0, text="hi Ann")
    await store.chat.add("t2", SPECTATORS, "ann", 3.0, phrase="good_game")
    await StoreAccounts(store).delete_account("ann")
    assert await store.chat.of_player("ann") == []
    lines = await store.chat.of_table("t1")
    assert [(line.player_id, line.text) for line in lines] == [
        (None, "my secret plan"),
        ("bob", "hi Ann"),
    ]
    assert (await store.chat.of_table("t2"))[0].player_id is None


async def test_a_forgotten_guests_lines_stay_said_by_nobody(store: Store) -> None:
    await store.chat.add("t1", SPECTATORS, "gus", 1.0, text="watching")
    await store.moderation.mute("ann", "gus", 1.0)
    later = 10.0**10
    assert await store.forget_guests(later, later) == 1
    [line] = await store.chat.of_table("t1")
    assert line.player_id is None and line.text == "watching"
    assert await store.moderation.muted_by("ann") == set()
