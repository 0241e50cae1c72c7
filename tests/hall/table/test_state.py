"""A table's state and its queries: who sits where, whose turn it is, which clock runs and
until when (a real-time timer, the wait between hands, a turn-based clock paused by a
vacation), the deadlines it keeps, a partner, a game's duration."""

from __future__ import annotations

import random

from dominohall.hall import Options, Phase, TableState
from dominohall.hall import commands as c
from dominohall.hall.events import (
    Created,
    Out,
    OutReason,
    Ready,
    Reminded,
    Removed,
    SeatAtStart,
    SeatKind,
    Vacation,
)
from dominohall.hall.notices import ResignAsked
from dominohall.hall.table.applying import note
from dominohall.hall.table.clocks import Due
from dominohall.rules import DRAW

ANN, BOB, CY, DI = "p_ann", "p_bob", "p_cy", "p_di"
NAMES = {ANN: "Ann", BOB: "Bob", CY: "Cy", DI: "Di"}
DAY = 86400.0


def _seated(options: Options, *players: str | None) -> TableState:
    """A table created with these people (None: an empty seat)."""
    state = TableState("t1")
    seats = tuple(
        SeatAtStart(SeatKind.HUMAN, p, NAMES[p]) if p else SeatAtStart(SeatKind.EMPTY)
        for p in players
    )
    state.apply(Created(options, seats), 0.0)
    return state


def _started(options: Options, *players: str, at: float = 100.0) -> TableState:
    """A table of these people whose game started (and first hand was dealt) at ``at``."""
    state = _seated(options, *players)
    for event in state.decide(c.Start(players[0]), random.Random(5)):
        state.apply(event, at)
    return state


def test_a_table_before_its_start_runs_no_clock_and_closes_when_its_last_person_goes():
    state = _seated(Options(seats=2), ANN, None)
    assert state.hand is None and state.turn is None and not state.clock_running
    assert state.deadlines() == {} and state.clock_deadline() is None
    assert not state.waits_for(0) and state.waits_until(0) is None
    assert state.free_seats() == [1] and state.player_names() == ["Ann", ""]
    assert [s.seat for s in state.people()] == [0]
    assert state.duration(50.0) is None and state.partner_of(0) is None
    assert not state.closed
    state.apply(Removed(0), 1.0)
    assert state.phase is Phase.FINISHED and state.closed


def test_a_person_taken_out_of_the_game_still_was_seated_but_plays_no_seat():
    state = _started(Options(seats=3), ANN, BOB, CY)
    assert (state.seat_of(ANN), state.seat_of(BOB), state.seat_of("p_nobody")) == (0, 1, None)
    state.apply(Out(1, OutReason.LEFT), 110.0)
    assert state.seats[1].kind is SeatKind.BOT and state.seats[1].player == BOB
    assert state.seat_of(BOB) is None and state.was_seated(BOB) == 1
    assert state.was_seated("p_nobody") is None
    assert [s.seat for s in state.people()] == [0, 2] and state.free_seats() == []


def test_a_person_s_real_time_turn_runs_out_its_timer_after_the_turn_began():
    state = _started(Options(seats=3, timer="normal"), ANN, BOB, CY, at=100.0)
    turn = state.turn
    assert turn is not None and state.clock_running
    other = (turn + 1) % 3
    assert state.turn_deadline == 125.0  # the Normal timer: 25 s a turn
    assert state.deadlines() == {Due.TURN: 125.0} and state.clock_deadline() == 125.0
    assert state.waits_for(turn) and state.waits_until(turn) == 125.0
    assert not state.waits_for(other) and state.waits_until(other) is None
    assert state.reminder_at is None and not state.reminded_this_turn  # real time: none
    assert state.duration(130.0) == 30.0
    # The seat to move is taken over by a computer player: no clock runs for it.
    state.apply(Out(turn, OutReason.LEFT), 105.0)
    assert state.turn == turn and not state.clock_running
    assert state.deadlines() == {} and state.clock_deadline() is None


def test_between_hands_the_table_waits_for_each_person_until_they_press_next_hand():
    state = _started(Options(seats=2, target=100), ANN, BOB, at=0.0)
    rng = random.Random(1)
    while state.phase is Phase.PLAYING:  # the first legal move each turn, at 40 s
        hand = state.hand
        moves = hand.legal_moves()
        move = DRAW if moves == [DRAW] else moves[0]
        for event in state.decide(c.MakeMove(ANN if hand.turn == 0 else BOB, move), rng):
            state.apply(event, 40.0)
    assert state.phase is Phase.BETWEEN_HANDS, "the first hand ended the game"
    assert state.turn is None and state.clock_running
    assert state.next_hand_deadline == 60.0  # the Normal wait: 20 s
    assert state.deadlines() == {Due.NEXT_HAND: 60.0} and state.clock_deadline() == 60.0
    assert state.waits_for(0) and state.waits_until(0) == 60.0
    state.apply(Ready(0), 45.0)
    assert not state.waits_for(0) and state.waits_until(0) is None
    assert state.waits_for(1) and state.waits_until(1) == 60.0


def test_a_turn_based_clock_is_charged_its_turn_and_paused_by_a_vacation():
    state = _started(Options(seats=2, timer="day"), ANN, BOB, at=0.0)
    turn = state.turn
    assert turn is not None
    other = 1 - turn
    assert state.turn_deadline == DAY
    assert state.reminder_at == DAY - 0.75 * DAY  # a quarter of the 3-day cap left
    assert state.deadlines() == {Due.TURN: DAY, Due.REMINDER: 0.25 * DAY}
    assert state.clock_left(turn, 3600.0) == DAY - 3600.0
    assert state.clock_left(other, 3600.0) == DAY  # not its turn: its clock stands
    assert state.time_used(turn, 3600.0) == 3600.0 and state.time_used(other, 3600.0) == 0.0
    # A vacation of an hour, two hours from now: the clock pauses through it.
    state.apply(Vacation(turn, 7200.0, 10800.0), 3600.0)
    assert state.on_vacation(turn, 3600.0) is None and state.on_vacation(turn, 8000.0) == 10800.0
    assert state.turn_deadline == DAY + 3600.0
    assert state.clock_left(turn, 9000.0) == DAY - 7200.0  # 9000 s less the 1800 s away
    assert state.used(turn, 9000.0) == 7200.0
    state.apply(Reminded(turn), 0.3 * DAY)
    assert state.reminded_this_turn and state.reminder_at is None
    assert state.deadlines() == {Due.TURN: DAY + 3600.0}


def test_partners_sit_across_and_a_resign_request_keeps_its_own_deadline():
    state = _started(Options(preset="partnership", target=100, seats=4), ANN, BOB, CY, DI, at=0.0)
    assert [state.partner_of(s) for s in range(4)] == [2, 3, 0, 1]
    turn = state.turn
    assert turn is not None
    note(state, ResignAsked(turn, (turn + 2) % 4, deadline=30.0, seconds=30.0))
    assert state.deadlines() == {Due.RESIGN: 30.0, Due.TURN: 25.0}
    assert _seated(Options(seats=2), ANN, BOB).partner_of(0) is None  # no game, no partner


def test_a_finished_game_s_duration_stops_at_its_end():
    state = _started(Options(seats=2), ANN, BOB, at=100.0)
    state.apply(Out(0, OutReason.LEFT), 160.0)  # two seats: the other wins by forfeit
    assert state.phase is Phase.FINISHED and not state.closed
    assert state.duration(10_000.0) == 60.0
    assert state.turn is None and not state.clock_running and state.deadlines() == {}
