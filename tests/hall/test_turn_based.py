"""A player's turn-based play across tables: the limit of games at once, vacations (every clock
paused, opponents told, stored across a restart), and turn-based ranked play through the queue."""

from __future__ import annotations

import pytest

from dominohall.hall import Hall, ManualClock, Phase
from dominohall.hall.errors import HallError
from dominohall.hall.options import DAY, HOUR, Options
from dominohall.hall.seeking import Matchmaker
from dominohall.hall.turn_based import TurnBasedSettings

from .helpers import ANN, BOB, CID, DEE, Person, idle, play_first, running_hall, whose_turn
from .test_turn_based_tables import turn_based_table

pytestmark = pytest.mark.anyio


async def test_a_player_may_play_only_so_many_turn_based_games_at_once(database_url: str):
    async with running_hall(database_url) as hall:
        hall.turn_based.settings = TurnBasedSettings(games=2)
        first = await turn_based_table(hall, [ANN, BOB], preset="block")
        await turn_based_table(hall, [ANN, CID], preset="block")
        with pytest.raises(HallError) as refused:
            await hall.create_table(ANN, Options.choose(timer="day"))
        assert refused.value.code == "too_many_games"
        assert "2 turn-based games" in refused.value.message
        waiting = await hall.create_table(DEE, Options.choose(timer="three-days"))
        with pytest.raises(HallError, match="most one player may play at once"):
            await hall.join(ANN, waiting.id, None)
        # Real-time tables are not counted, and are not limited by it.
        await hall.create_table(ANN, Options.choose(timer="normal"))
        # A game that ends makes room for another.
        await hall.leave(BOB, first)
        assert (await hall.room(first)).state.phase is Phase.FINISHED
        await hall.join(ANN, waiting.id, None)


async def vacation_table(hall: Hall, clock: ManualClock) -> tuple[str, Person]:
    """A 2-player turn-based table where Ann is to move (Bob made the lead if he had it)."""
    table = await turn_based_table(hall, [ANN, BOB], preset="block", target=200)
    if await whose_turn(hall, table, [ANN, BOB]) is BOB:
        await clock.advance(HOUR)
        await play_first(hall, table, BOB)
    return table, ANN


async def test_a_vacation_pauses_every_turn_based_clock_of_its_player(database_url: str):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table, ann = await vacation_table(hall, clock)
        other = await turn_based_table(hall, [CID, ANN], preset="block", target=200)
        state = (await hall.room(table)).state
        seat = state.seat_of(ann.id)
        await clock.advance(2 * HOUR)
        left = state.clock_left(seat, clock.now())
        deadline = state.turn_deadline
        status = await hall.turn_based.start_vacation(ann.id, 3)
        assert status["on_vacation"] and status["end"] == clock.now() + 3 * DAY
        assert status["days_left"] == pytest.approx(21 - 3)
        # Both tables know it (opponents see it), and this turn's deadline moves three days.
        assert state.on_vacation(seat, clock.now()) == status["end"]
        other_state = (await hall.room(other)).state
        assert other_state.on_vacation(other_state.seat_of(ann.id), clock.now()) == status["end"]
        assert state.turn_deadline == pytest.approx(deadline + 3 * DAY)
        await clock.advance(2 * DAY)
        assert state.clock_left(seat, clock.now()) == pytest.approx(left), "the clock ran"
    clock.t += HOUR  # a restart in the middle of the vacation
    async with running_hall(database_url, clock) as hall:
        state = (await hall.room(table)).state
        assert (await hall.turn_based.vacation(ann.id))["on_vacation"]
        with pytest.raises(HallError, match="on vacation already"):
            await hall.turn_based.start_vacation(ann.id, 1)
        # Back early, after two days and an hour (the hour down was charged to no one).
        status = await hall.turn_based.end_vacation(ann.id)
        assert not status["on_vacation"]
        assert status["days_left"] == pytest.approx(21 - 2 - HOUR / DAY, abs=0.01)
        assert state.on_vacation(seat, clock.now()) is None
        assert state.clock_left(seat, clock.now()) == pytest.approx(left)
        await clock.advance(left - 1)
        assert state.phase is Phase.PLAYING
        await clock.advance(2)
        assert state.phase is Phase.FINISHED and state.result["reason"] == "forfeit"


async def test_a_vacation_is_taken_in_whole_days_within_the_year_s_allowance(database_url: str):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        hall.turn_based.settings = TurnBasedSettings(vacation_days=5)
        with pytest.raises(HallError, match="whole number of days"):
            await hall.turn_based.start_vacation(ANN.id, 1.5)
        with pytest.raises(HallError, match="5 days of vacation left"):
            await hall.turn_based.start_vacation(ANN.id, 6)
        await hall.turn_based.start_vacation(ANN.id, 4)
        await clock.advance(4 * DAY)
        assert not (await hall.turn_based.vacation(ANN.id))["on_vacation"]
        with pytest.raises(HallError, match="1 days of vacation left"):
            await hall.turn_based.start_vacation(ANN.id, 2)
        await clock.advance(365 * DAY)  # a year later the days are back
        assert (await hall.turn_based.vacation(ANN.id))["days_left"] == 5
        with pytest.raises(HallError, match="not on vacation"):
            await hall.turn_based.end_vacation(ANN.id)


async def test_a_game_begun_during_a_vacation_pauses_the_clock_until_it_ends(database_url: str):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        await hall.turn_based.start_vacation(BOB.id, 2)
        table = await turn_based_table(hall, [ANN, BOB], preset="block", target=200)
        state = (await hall.room(table)).state
        seat = state.seat_of(BOB.id)
        assert state.on_vacation(seat, clock.now()) == clock.now() + 2 * DAY
        if state.turn == seat:
            assert state.turn_deadline == pytest.approx(clock.now() + 3 * DAY)


async def test_turn_based_ranked_games_are_paired_by_the_queue_and_rated_apart(database_url: str):
    async with running_hall(database_url) as hall:
        matchmaker = Matchmaker(hall)
        tables = []
        for first, second in [(ANN, BOB), (ANN, CID)]:  # no limit of one unfinished game
            for person in (first, second):
                await matchmaker.seek(
                    person, account=True, pool="block", players=2, speed="turn-based", ranked=True
                )
            tables.append((await matchmaker.status(ANN.id)).table)
        assert tables[0] and tables[1] and tables[0] != tables[1]
        state = (await hall.room(tables[0])).state
        assert state.options.timer == "day" and state.options.ranked == "block"
        assert state.options.speed == "turn-based"
        while state.phase is not Phase.FINISHED:
            await play_first(hall, tables[0], await whose_turn(hall, tables[0], [ANN, BOB]))
            await idle(hall)
        [ann] = await hall.store.ratings.of_player(ANN.id)
        assert (ann.pool, ann.speed, ann.games) == ("block", "turn-based", 1)
