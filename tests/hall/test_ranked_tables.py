"""Ranked tables in the hall: rated at the end with the result, aborted unrated on a first turn lost."""

from __future__ import annotations

import sqlite3

import pytest

from dominohall.hall import ManualClock, Phase
from dominohall.hall.errors import HallError
from dominohall.hall.ratings import NEW, Skill, placings, rate
from dominohall.hall.table.rematch import rematch_open
from dominohall.hall.table_feed import TableChange
from dominohall.store import ratings as stored_ratings
from dominohall.store.ratings import StoredRating

from .helpers import ANN, BOB, CID, idle, play_first, running_hall, started_table, view, whose_turn
from .test_table_rules import play_to_the_end

pytestmark = pytest.mark.anyio


async def _ranked(hall, pool, people):
    state = await hall.open_pairing(pool, people)
    for person in people:
        await hall.connect(state.id, person)
    await idle(hall)
    return state.id


async def test_a_ranked_game_played_to_the_end_changes_and_keeps_the_ratings(database_url: str):
    async with running_hall(database_url) as hall:
        table = await _ranked(hall, "draw", [ANN, BOB, CID])
        state = (await hall.room(table)).state
        assert state.options.ranked == "draw" and state.options.target == 50
        await play_to_the_end(hall, table, [ANN, BOB, CID])
        await idle(hall)
        places = placings(state.game.seat_scores(), state.result["winner"], [])
        expected = rate([NEW, NEW, NEW], places)
    async with running_hall(database_url) as hall:  # kept across a restart
        changes = await hall.store.ratings.changes(table)
        assert [c.player_id for c in changes] == [ANN.id, BOB.id, CID.id]
        assert [c.place for c in changes] == places
        assert [c.mu_after for c in changes] == pytest.approx([s.mu for s in expected])
        [ann] = await hall.store.ratings.of_player(ANN.id)
        assert (ann.pool, ann.speed, ann.games) == ("draw", "real-time", 1)
        winner = places.index(1)
        assert Skill(changes[winner].mu_after).shown > 1500


async def test_a_ranked_table_shows_each_players_rating_in_its_pool_and_a_casual_one_none(
    database_url: str,
):
    async with running_hall(database_url) as hall:
        settled = StoredRating(ANN.id, "draw", "real-time", 27.0, 2.0, 12, 0.0)
        await hall.store.ratings.put(settled)
        # Bob's only rating is another pool's: at a draw table he is new.
        await hall.store.ratings.put(StoredRating(BOB.id, "block", "real-time", 30.0, 2.0, 12, 0.0))
        table = await _ranked(hall, "draw", [ANN, BOB])
        state = await view(hall, table, BOB)
        assert state["table"]["ranked"] == "draw"
        assert [s["rating"] for s in state["seats"]] == [Skill(27.0, 2.0, 12).label, NEW.label]
        assert state["seats"][0]["rating"] == "1559"  # 1500 + round(2 * 29.4809), settled

        casual = await started_table(hall, [ANN, BOB], preset="draw")
        state = await view(hall, casual, ANN)
        assert state["table"]["ranked"] is None
        assert [s["rating"] for s in state["seats"]] == [None, None]


async def test_a_first_turn_lost_to_the_timer_aborts_the_game_unrated(database_url: str):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table = await _ranked(hall, "block", [ANN, BOB])
        state = (await hall.room(table)).state
        await whose_turn(hall, table, [ANN, BOB])
        await clock.advance(25.0)
        await idle(hall)
        assert state.phase is Phase.FINISHED and state.result["reason"] == "aborted"
        assert (await hall.room(table)).finish_stored  # with the timer's move, in its commit
        assert await hall.store.table_finished(table)
        assert await hall.store.ratings.changes(table) == []
        assert await hall.store.ratings.of_player(ANN.id) == []
        # No rematch with someone who was absent from the start: the others seek again.
        assert not rematch_open(state)
        with pytest.raises(HallError, match="an aborted game offers no rematch") as refused:
            await hall.rematch(ANN, table, True)
        assert refused.value.code == "rematch_over" and state.rematch_accepted == set()


async def test_a_casual_game_is_not_rated(database_url: str):
    from .helpers import started_table

    async with running_hall(database_url) as hall:
        table = await started_table(hall, [ANN, BOB])
        await play_to_the_end(hall, table, [ANN, BOB])
        await idle(hall)
        assert await hall.store.table_finished(table)
        assert await hall.store.ratings.changes(table) == []


async def test_a_ranked_table_has_the_pools_player_count(database_url: str):
    async with running_hall(database_url) as hall:
        with pytest.raises(HallError, match="pool partnership seats"):
            await hall.open_pairing("partnership", [ANN, BOB])


async def test_the_game_over_is_published_only_once_its_result_and_ratings_are_stored(tmp_path):
    async with running_hall(tmp_path) as hall:
        table = await _ranked(hall, "draw", [ANN, BOB])
        state = (await hall.room(table)).state
        database = sqlite3.connect(tmp_path / "hall.db")  # what another reader sees, at once
        published = hall.broker.publish
        stored_at_publication = {}

        def publish(table_id: str, change: TableChange) -> None:
            if table_id == table and state.phase is Phase.FINISHED:
                q = "SELECT (SELECT finished_at FROM tables WHERE id = ?),"
                q += " (SELECT count(*) FROM games WHERE table_id = ?),"
                q += " (SELECT count(*) FROM rating_changes WHERE table_id = ?)"
                row = database.execute(q, (table, table, table)).fetchone()
                stored_at_publication.setdefault(change.version, row)
            published(table_id, change)

        hall.broker.publish = publish
        await play_to_the_end(hall, table, [ANN, BOB])
        await idle(hall)
        database.close()
        [(finished_at, games, ratings)] = stored_at_publication.values()
        assert finished_at == state.finished_at and games == 1 and ratings == 2


async def test_the_last_move_its_result_and_ratings_are_one_transaction(
    database_url: str, monkeypatch: pytest.MonkeyPatch
):
    async with running_hall(database_url) as hall:
        table = await _ranked(hall, "draw", [ANN, BOB])
        store = hall.store
        state = (await hall.room(table)).state
        apply = stored_ratings.apply

        async def fails(*args, **kwargs):
            raise OSError("the disk is full")

        monkeypatch.setattr(stored_ratings, "apply", fails)
        with pytest.raises(OSError, match="the disk is full"):
            await play_to_the_end(hall, table, [ANN, BOB])
        # None of it stored, and the move that would have ended the game taken back.
        assert state.phase is not Phase.FINISHED
        assert len(await store.events(table)) == state.version
        assert not await store.table_finished(table)
        assert await store.record(table) is None
        assert await store.ratings.changes(table) == []
        monkeypatch.setattr(stored_ratings, "apply", apply)
        await play_to_the_end(hall, table, [ANN, BOB])  # the same move again: now it ends it
        await idle(hall)
    for _ in range(2):  # restarted (twice): the result and its rating change, exactly once
        async with running_hall(database_url) as hall:
            assert await hall.store.table_finished(table)
            assert len(await hall.store.ratings.changes(table)) == 2
            [ann] = await hall.store.ratings.of_player(ANN.id)
            assert ann.games == 1


async def test_leaving_before_ones_first_turn_aborts_but_later_is_rated(database_url: str):
    async with running_hall(database_url) as hall:
        table = await _ranked(hall, "draw", [ANN, BOB, CID])
        state = (await hall.room(table)).state
        mover = await whose_turn(hall, table, [ANN, BOB, CID])
        await hall.leave(next(p for p in (ANN, BOB, CID) if p is not mover), table)
        await idle(hall)
        assert state.result["reason"] == "aborted"
        assert await hall.store.ratings.changes(table) == []

        table = await _ranked(hall, "draw", [ANN, BOB, CID])
        state = (await hall.room(table)).state
        for _ in range(3):  # everyone ends a first turn
            await play_first(hall, table, await whose_turn(hall, table, [ANN, BOB, CID]))
        assert state.phase is Phase.PLAYING  # three tiles down: the hand goes on
        leaver = await whose_turn(hall, table, [ANN, BOB, CID])
        await hall.leave(leaver, table)
        await idle(hall)  # the computer player that took the seat moves
        await play_to_the_end(hall, table, [p for p in (ANN, BOB, CID) if p is not leaver])
        await idle(hall)
        assert state.result["reason"] != "aborted"
        changes = await hall.store.ratings.changes(table)
        assert len(changes) == 3
        assert max(c.place for c in changes) == changes[state.placed_last[0]].place
