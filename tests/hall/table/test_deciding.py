"""Deciding: every kind of command has its decider, a computer player's or the timer's moves are
the caller's choice (the table knows no bots), and choosing a turn leaves the table as it was."""

from __future__ import annotations

import random
import typing

import pytest

from dominohall.hall import HallError, Options, TableState
from dominohall.hall import commands as c
from dominohall.hall.events import Moved, MovedBy, SeatAtStart, SeatKind
from dominohall.hall.table.deciding import DECIDERS, chosen_turn
from dominohall.rules import DRAW, View

ANN = "p_ann"


def test_every_command_but_open_has_one_decider():
    kinds = set(typing.get_args(c.Command))
    assert set(DECIDERS) == kinds - {c.Open}


def _against_a_computer(seed: int = 3) -> TableState:
    state, rng = TableState("t1"), random.Random(seed)
    seats = (
        SeatAtStart(SeatKind.HUMAN, ANN, "Ann"),
        SeatAtStart(SeatKind.BOT, None, "Easy", "easy"),
    )
    for event in state.decide(c.Open(Options(seats=2, preset="draw"), seats, start=True), rng):
        state.apply(event, 0.0)
    return state


def _first(view: View):
    return view.legal_moves()[0]


def test_a_chosen_turn_is_a_whole_turn_tried_and_taken_back():
    state = _against_a_computer()
    seat = state.turn
    assert seat is not None
    before = (state.version, list(state.hand.history), state.hand.holdings[:])
    moves = chosen_turn(state, seat, _first)
    assert moves and all(m == DRAW or m.kind is DRAW.kind for m in moves[:-1])
    assert moves[-1].kind is not DRAW.kind  # a play or a pass ends it
    assert (state.version, list(state.hand.history), state.hand.holdings[:]) == before
    assert chosen_turn(state, 1 - seat, _first) == ()  # not that seat's turn


def test_a_computer_turn_plays_the_moves_it_carries_and_only_its_own():
    state = _against_a_computer()
    while state.turn != 1:  # the person plays until it is the computer player's turn
        mover = state.turn
        moves = chosen_turn(state, mover, _first)
        for event in state.decide(c.MakeMove(ANN, moves[0]), random.Random(1)):
            state.apply(event, 0.0)
    moves = chosen_turn(state, 1, _first)
    events = state.decide(c.ComputerTurn(1, state.version, moves), random.Random(1))
    assert [(e.seat, e.move, e.by) for e in events if isinstance(e, Moved)] == [
        (1, m, MovedBy.BOT) for m in moves
    ]
    assert state.decide(c.ComputerTurn(1, state.version - 1, moves), random.Random(1)) == []
    with pytest.raises(HallError) as refused:  # more moves than its turn: not its to make
        state.decide(c.ComputerTurn(1, state.version, moves + moves), random.Random(1))
    assert refused.value.code == "illegal_move"


def test_the_timer_plays_the_autoplay_it_carries_or_nothing():
    state = _against_a_computer()
    if state.turn != 0:
        moves = chosen_turn(state, 1, _first)
        for event in state.decide(c.ComputerTurn(1, state.version, moves), random.Random(1)):
            state.apply(event, 0.0)
    late = state.turn_deadline + 1
    with pytest.raises(HallError):  # no autoplay given: the turn would not end
        state.decide(c.TurnTimeUp(late), random.Random(1))
    moves = chosen_turn(state, 0, _first)
    events = state.decide(c.TurnTimeUp(late, moves), random.Random(1))
    assert [(e.move, e.by) for e in events if isinstance(e, Moved)] == [
        (m, MovedBy.TIMER) for m in moves
    ]
    assert state.decide(c.TurnTimeUp(late - 2, moves), random.Random(1)) == []  # not yet
