"""Arena seasons' ends (docs/arena.md), on SQLite and PostgreSQL: a season that ended while the
hall was down ends when it starts again, once (trophies, badges, relegation), and a turn-based
arena game running at the end counts as lost by the seat that used the most time; a real-time
one counts for the season it started in (the next begun on time, the last ended once it is
counted); two halls starting together on one database end it once."""

from __future__ import annotations

import asyncio
import dataclasses
import random

import pytest
from sqlalchemy import insert, select

from dominohall.hall import ManualClock, Options, Person
from dominohall.hall import commands as c
from dominohall.hall.arena import League
from dominohall.hall.events import SeatAtStart, SeatKind
from dominohall.hall.ratings import Speed
from dominohall.hall.seasons import DAY, arena_game, following, settle, settled_places
from dominohall.hall.table import TableState
from dominohall.hall.wiring import HallSettings, open_hall, running
from dominohall.store import Store, schema
from dominohall.store.arena import Season, SeasonStanding

from .helpers import ANN, BOB, DEE, idle
from .test_table_rules import play_to_the_end

pytestmark = pytest.mark.anyio
SEASON_DAYS = 0.5
EVA = Person("p_eva", "Eva")


def settings_of(url: str, clock: ManualClock, process: str = "a") -> HallSettings:
    return HallSettings(
        url,
        clock=clock,
        bot_delay=0,
        rng=random.Random(1),
        heartbeat=False,
        season_days=SEASON_DAYS,
        process_id=process,
    )


# (player, league, points, season mu, games) in draw real-time's season 1
STANDINGS = [
    ("p_eva", League.ELITE, 0, 31.0, 30),
    ("p_fay", League.ELITE, 0, 33.0, 25),
    ("p_gus", League.ELITE, 0, 29.0, 40),
    ("p_hal", League.ELITE, 0, 27.0, 20),
    ("p_ida", League.DIAMOND, 4, 26.0, 15),
    ("p_jon", League.GOLD, 2, 25.0, 5),
    ("p_kim", League.SILVER, 0, 25.0, 0),  # carried over, no game this season: no badge
]


async def seed(store: Store) -> None:
    async with store.engine.begin() as conn:
        await conn.execute(
            insert(schema.arena_standings),
            [
                {
                    "pool": "draw",
                    "speed": "real-time",
                    "season": 1,
                    "player_id": p,
                    "league": int(league),
                    "points": points,
                    "mu": mu,
                    "sigma": 3.0,
                    "games": games,
                    "wins": games // 2,
                    "losses": games - games // 2,
                }
                for p, league, points, mu, games in STANDINGS
            ],
        )


async def rows(store: Store, table: schema.Table, **where: object) -> list[dict[str, object]]:
    c = table.c
    query = select(table).where(*(c[k] == v for k, v in where.items()))
    async with store.engine.connect() as conn:
        return [dict(r._mapping) for r in await conn.execute(query)]


async def check_ended_once(store: Store) -> None:
    awards = await rows(store, schema.arena_awards, pool="draw", speed="real-time")
    got = sorted(
        (a["rank"], a["player_id"], League(a["league"]).title, a["trophy"]) for a in awards
    )
    assert got == [
        (1, "p_fay", "Elite", 1),
        (2, "p_eva", "Elite", 2),
        (3, "p_gus", "Elite", 3),
        (4, "p_hal", "Elite", None),
        (5, "p_ida", "Diamond", None),
        (6, "p_jon", "Gold", None),
    ]
    seasons = await rows(store, schema.arena_seasons, pool="draw", speed="real-time")
    assert [(s["number"], s["closed_at"] is not None) for s in seasons] == [(1, True), (2, False)]
    nxt = await rows(store, schema.arena_standings, pool="draw", speed="real-time", season=2)
    leagues = {s["player_id"]: League(s["league"]) for s in nxt}
    assert leagues == {
        "p_eva": League.GOLD,
        "p_fay": League.GOLD,
        "p_gus": League.GOLD,
        "p_hal": League.GOLD,
        "p_ida": League.SILVER,
        "p_jon": League.BRONZE,
        "p_kim": League.BRONZE,
    }
    assert {(s["points"], s["games"], s["mu"]) for s in nxt} == {(0, 0, 25.0)}


async def test_a_season_that_ended_while_the_hall_was_down_ends_once_when_it_starts(
    database_url: str,
):
    clock = ManualClock()
    started = clock.now()
    async with running(settings_of(database_url, clock)) as opened:
        await seed(opened.store)
        # A turn-based arena game: Ann and Bob; whoever leads has used the time when it ends.
        state = await opened.hall.open_pairing(
            "draw", [ANN, BOB], speed=Speed.TURN_BASED, arena=True
        )
        assert state.options.arena
        leader = state.turn
        await clock.advance(3 * 3600.0)  # the leader thinks for 3 hours; then the hall stops
    clock.t = started + SEASON_DAYS * DAY + 3600.0  # the hall down at the season's end
    for _ in range(2):  # started again, and again: the season ended once
        async with running(settings_of(database_url, clock)) as opened:
            await check_ended_once(opened.store)
            counted = await rows(opened.store, schema.arena_results, table_id=state.id)
            places = {r["player_id"]: (r["season"], r["place"]) for r in counted}
            slow, quick = (ANN, BOB) if leader == 0 else (BOB, ANN)
            assert places == {slow.id: (1, 2), quick.id: (1, 1)}
            tb = await rows(opened.store, schema.arena_awards, speed="turn-based")
            assert {(a["player_id"], a["league"], a["rank"]) for a in tb} == {
                (quick.id, League.BRONZE, 1),
                (slow.id, League.BRONZE, 2),
            }
            # The game itself plays on, not yet finished.
            assert await opened.store.table_finished(state.id) is False
            # The next season runs from the last one's end.
            current = await opened.seasons.season("draw", "real-time", None)
            assert current is not None and current.number == 2
            assert current.starts_at == started + SEASON_DAYS * DAY


@pytest.mark.postgresql
async def test_two_halls_starting_together_end_a_season_once(postgres_database: str):
    clock = ManualClock()
    async with running(settings_of(postgres_database, clock)) as opened:
        await seed(opened.store)
    clock.t += SEASON_DAYS * DAY + 60.0
    a, b = await asyncio.gather(
        open_hall(settings_of(postgres_database, clock, "a")),
        open_hall(dataclasses.replace(settings_of(postgres_database, clock, "b"))),
    )
    try:
        # Each looks again (the other may hold the claim, or have ended it already).
        await a.seasons.claim.release()
        await b.seasons.look()
        await check_ended_once(a.store)
    finally:
        await asyncio.gather(a.close(), b.close())


def standing(player: str, league: League, points: int, mu: float, games: int) -> SeasonStanding:
    return SeasonStanding(player, int(league), points, mu, 3.0, games, games // 2, games // 2)


def test_a_seasons_end_ranks_awards_and_relegates():
    awards, leagues = settle(
        [
            standing("d", League.DIAMOND, 5, 40.0, 9),
            standing("e2", League.ELITE, 0, 28.0, 9),
            standing("e1", League.ELITE, 0, 30.0, 9),
            standing("b", League.BRONZE, 0, 20.0, 0),  # no game: no badge, still relegated
            standing("p", League.PLATINUM, 1, 26.0, 3),
        ]
    )
    assert awards == [
        ("e1", League.ELITE, 1, 1),
        ("e2", League.ELITE, 2, 2),
        ("d", League.DIAMOND, 3, None),
        ("p", League.PLATINUM, 4, None),
    ]
    assert dict(leagues) == {
        "e1": League.GOLD,
        "e2": League.GOLD,
        "d": League.SILVER,
        "p": League.BRONZE,
        "b": League.BRONZE,
    }


def test_the_next_season_skips_the_seasons_the_hall_was_down_through():
    season = Season("draw", "real-time", 3, 0.0, 100.0, None)
    assert following(season, 100.0, 100.0) == (100.0, 200.0)
    assert following(season, 150.0, 100.0) == (100.0, 200.0)
    assert following(season, 350.0, 100.0) == (300.0, 400.0)


def partnership_in_the_arena() -> TableState:
    """A turn-based partnership arena table, started at time 0."""
    options = Options("partnership", 100, 4, "day", False, "partnership", arena=True)
    seats = tuple(SeatAtStart(SeatKind.HUMAN, f"p_{n}", n) for n in ("a", "b", "c", "d"))
    state = TableState("t1")
    for event in state.decide(c.Open(options, seats, start=True), random.Random(2)):
        state.apply(event, 0.0)
    return state


def test_a_game_running_at_the_end_is_lost_by_the_team_that_used_the_most_time():
    state = partnership_in_the_arena()
    first = state.turn
    assert first is not None
    places = settled_places(state, 5000.0)
    assert [places[s] for s in range(4)] == [1 if s % 2 != first % 2 else 3 for s in range(4)]
    game = arena_game(state, places)
    assert game is not None and game.places == tuple(places) and game.speed == "turn-based"
    # The first seat plays after 3000 s; the next then thinks until the end at 8000 (5000 s),
    # unless the hall was down from 5500: then only 2500 s count, and the first is the slower.
    player = state.seats[first].player
    assert player is not None
    move = next(iter(state.hand.legal_moves()))
    for event in state.decide(c.MakeMove(player, move), random.Random(1)):
        state.apply(event, 3000.0)
    second = state.turn
    assert second is not None and second % 2 != first % 2
    assert (state.time_used(first, 8000.0), state.time_used(second, 8000.0)) == (3000.0, 5000.0)
    assert settled_places(state, 8000.0)[second] == 3
    down = settled_places(state, 8000.0, down_since=5500.0)
    assert (down[first], down[second]) == (3, 1)


async def test_a_real_time_arena_game_ending_after_the_end_counts_for_its_season(
    database_url: str,
):
    clock = ManualClock()
    end = clock.now() + SEASON_DAYS * DAY
    async with running(settings_of(database_url, clock)) as opened:
        await seed(opened.store)
        hall, seasons = opened.hall, opened.seasons
        clock.t = end - 60.0
        old = await hall.open_pairing("draw", [ANN, BOB], speed=Speed.REAL_TIME, arena=True)
        for person in (ANN, BOB):
            await hall.connect(old.id, person)
        clock.t = end + 1.0
        await seasons.once()
        # The next season has begun on time; the last waits for the game started in it.
        current = await seasons.season("draw", "real-time", None)
        assert current is not None and (current.number, current.starts_at) == (2, end)
        first = await rows(opened.store, schema.arena_seasons, speed="real-time", number=1)
        assert [s["closed_at"] for s in first if s["pool"] == "draw"] == [None]
        # Eva (Elite in season 1) plays in season 2 before season 1 has ended.
        new = await hall.open_pairing("draw", [EVA, DEE], speed=Speed.REAL_TIME, arena=True)
        for person in (EVA, DEE):
            await hall.connect(new.id, person)
        await play_to_the_end(hall, new.id, [EVA, DEE])  # started after the end: season 2
        await play_to_the_end(hall, old.id, [ANN, BOB])  # started before it: season 1
        await idle(hall)
        await seasons.once()
        counted = await rows(opened.store, schema.arena_results, pool="draw", speed="real-time")
        assert {(r["player_id"], r["season"]) for r in counted} == {
            (ANN.id, 1),
            (BOB.id, 1),
            (EVA.id, 2),
            (DEE.id, 2),
        }
        # Season 1 ended once its game was counted: Ann and Bob have its badges too.
        awards = await rows(opened.store, schema.arena_awards, pool="draw", speed="real-time")
        assert {ANN.id, BOB.id} <= {a["player_id"] for a in awards}
        nxt = await rows(opened.store, schema.arena_standings, season=2, speed="real-time")
        by_player = {s["player_id"]: s for s in nxt if s["pool"] == "draw"}
        # Eva's game of season 2 kept, in the league relegation gives her (Gold, not Bronze).
        eva = by_player[EVA.id]
        assert (eva["league"], eva["games"]) == (League.GOLD, 1)
        assert eva["points"] == 2 * eva["wins"]  # (+2 a win, a loss at 0 stays 0)
