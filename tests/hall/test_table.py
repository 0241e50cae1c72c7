"""The table as a state machine: decide a command into events, apply them, refuse a wrong one."""

from __future__ import annotations

import random

import pytest

from dominohall.hall import HallError, Options, Phase, TableState
from dominohall.hall import commands as c
from dominohall.hall.events import (
    Created,
    Moved,
    Ready,
    SeatAtStart,
    SeatKind,
    Started,
    from_body,
)
from dominohall.hall.table import WrongTransition
from dominohall.rules import DRAW, Hand

ANN, BOB = "p_ann", "p_bob"


def _table(at: float = 0.0) -> tuple[TableState, random.Random]:
    state, rng = TableState("t1"), random.Random(3)
    seats = (SeatAtStart(SeatKind.HUMAN, ANN, "Ann"), SeatAtStart(SeatKind.EMPTY))
    _apply(state, [Created(Options(seats=2), seats)], at)
    _apply(state, state.decide(c.Join(BOB, "Bob"), rng), at)
    _apply(state, state.decide(c.Start(ANN), rng), at)
    return state, rng


def _apply(state: TableState, events: list, at: float = 0.0) -> None:
    for event in events:
        state.apply(event, at)


def _mover(state: TableState) -> str:
    return ANN if state.turn == 0 else BOB


def _first_move(state: TableState):
    assert state.hand is not None
    return state.hand.legal_moves()[0]


def test_a_move_is_made_once_on_the_table_s_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    state, rng = _table()
    pushes: list[object] = []
    real_push = Hand.push
    monkeypatch.setattr(
        Hand, "push", lambda hand, move: (pushes.append(move), real_push(hand, move))
    )
    move = _first_move(state)
    events = state.decide(c.MakeMove(_mover(state), move), rng)
    assert [type(e) for e in events] == [Moved]
    assert state.deciding and state.version == 4  # made on the hand, not yet applied
    _apply(state, events)
    assert pushes == [move], "the move was pushed more than once"
    assert not state.deciding and state.version == 5
    assert state.log[-1]["play"] and state.log[-1]["by"] == "player"


def test_an_abandoned_decision_leaves_the_table_as_it_was() -> None:
    state, rng = _table()
    hand = state.hand
    assert hand is not None
    before = (list(hand.history), list(hand.holdings), hand.turn)
    state.decide(c.MakeMove(_mover(state), _first_move(state)), rng)
    state.abandon()
    assert (list(hand.history), list(hand.holdings), hand.turn) == before
    assert not state.deciding


def test_a_refused_command_names_what_was_wrong_and_changes_nothing() -> None:
    state, rng = _table()
    other = BOB if _mover(state) == ANN else ANN
    with pytest.raises(HallError) as refused:
        state.decide(c.MakeMove(other, _first_move(state)), rng)
    assert refused.value.code == "not_your_turn"
    with pytest.raises(HallError) as refused:
        state.decide(c.MakeMove(_mover(state), DRAW), rng)  # the lead cannot draw
    assert refused.value.code == "illegal_move"
    assert not state.deciding and state.version == 4


def test_apply_refuses_an_event_the_phase_does_not_allow() -> None:
    state, _rng = _table()
    with pytest.raises(WrongTransition):
        state.apply(Ready(0), 1.0)  # Next hand is pressed between hands only
    with pytest.raises(WrongTransition):
        state.apply(Started(), 1.0)
    seating = TableState("t2")
    with pytest.raises(WrongTransition):
        seating.apply(Started(), 0.0)  # a table begins with its creation
    assert state.phase is Phase.PLAYING and state.version == 4


def test_the_replayed_log_is_the_live_table() -> None:
    """A whole hand decided and applied live; its stored bodies replay to the same table."""
    state, rng = TableState("t1"), random.Random(5)
    seats = (SeatAtStart(SeatKind.HUMAN, ANN, "Ann"), SeatAtStart(SeatKind.HUMAN, BOB, "Bob"))
    events: list = [Created(Options(seats=2), seats)]
    _apply(state, events)
    events += state.decide(c.Start(ANN), rng)
    _apply(state, events[1:])
    while state.phase is Phase.PLAYING:
        moves = state.decide(c.MakeMove(_mover(state), _first_move(state), until_fits=True), rng)
        events += moves
        _apply(state, moves)
    bodies = [event.to_body() for event in events]
    assert [from_body(body) for body in bodies] == events
    live = TableState.replay("t1", [(i + 1, 0.0, body) for i, body in enumerate(bodies)])
    assert live.version == state.version and live.phase is state.phase
    assert live.game is not None and state.game is not None
    assert live.game.scores == state.game.scores
    assert live.log == state.log
