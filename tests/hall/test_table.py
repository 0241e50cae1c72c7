"""The table as a state machine: decide a command into events, apply them, refuse a wrong one."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dominohall.hall import HallError, Options, Phase, TableState
from dominohall.hall import commands as c
from dominohall.hall.computer import turn_of
from dominohall.hall.event_view import breakdown_json, shown
from dominohall.hall.events import (
    Created,
    Dealt,
    Moved,
    Ready,
    SeatAtStart,
    SeatKind,
    Started,
    from_body,
)
from dominohall.hall.options import BotLevel
from dominohall.hall.table import WrongTransition
from dominohall.hall.table.happened import hand_result
from dominohall.hall.views import state_for
from dominohall.rules import DRAW, PASS, Move, tile_name
from rules.deals import snapshot as deals_snapshot

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


def test_a_table_is_opened_by_deciding_open_and_only_so() -> None:
    rng = random.Random(5)
    fresh = TableState("t9")
    with pytest.raises(HallError) as refused:
        fresh.decide(c.Join(BOB, "Bob"), rng)
    assert (refused.value.code, refused.value.message) == ("no_table", "table t9 is not open yet")
    seats = (
        SeatAtStart(SeatKind.HUMAN, ANN, "Ann"),
        SeatAtStart(SeatKind.BOT, None, "Easy", "easy"),
    )
    events = fresh.decide(c.Open(Options(seats=2), seats, start=True), rng)
    assert [type(e) for e in events] == [Created, Started, Dealt]
    assert fresh.version == 0 and fresh.seats == []  # decided, not applied
    _apply(fresh, events)
    assert fresh.phase is Phase.PLAYING and fresh.version == 3
    with pytest.raises(HallError) as refused:
        fresh.decide(c.Open(Options(seats=2), seats), rng)
    assert (refused.value.code, refused.value.message) == (
        "bad_request",
        "table t9 is open already",
    )
    waiting = TableState("t8")
    assert [type(e) for e in waiting.decide(c.Open(Options(seats=2), seats), rng)] == [Created]


def test_deciding_a_move_leaves_the_table_as_it_was_until_its_events_are_applied() -> None:
    state, rng = _table()
    hand = state.hand
    assert hand is not None
    before = (list(hand.history), list(hand.holdings), hand.turn, state.version)
    move = _first_move(state)
    events = state.decide(c.MakeMove(_mover(state), move), rng)
    assert [type(e) for e in events] == [Moved]
    # Decided, not applied (its commit would be under way): the table is still version 4.
    assert (list(hand.history), list(hand.holdings), hand.turn, state.version) == before
    _apply(state, events)
    assert state.version == 5 and hand.history[-1][1] == move
    assert shown(state, state.log[-1])["play"] and shown(state, state.log[-1])["by"] == "player"


def test_a_decision_never_applied_leaves_nothing_behind() -> None:
    # As when the store refuses the events: the same command decided again decides the same.
    state, rng = _table()
    mover, move = _mover(state), _first_move(state)
    chance = rng.getstate()
    first = state.decide(c.MakeMove(mover, move), rng)
    rng.setstate(chance)
    assert state.decide(c.MakeMove(mover, move), rng) == first


def test_a_refused_command_names_what_was_wrong_and_changes_nothing() -> None:
    state, rng = _table()
    other = BOB if _mover(state) == ANN else ANN
    with pytest.raises(HallError) as refused:
        state.decide(c.MakeMove(other, _first_move(state)), rng)
    assert refused.value.code == "not_your_turn"
    with pytest.raises(HallError) as refused:
        state.decide(c.MakeMove(_mover(state), DRAW), rng)  # the lead cannot draw
    assert refused.value.code == "illegal_move"
    assert state.version == 4 and state.hand is not None and state.hand.history == []


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


def test_a_hand_over_carries_its_breakdown():
    state, rng = _table()
    while state.phase is Phase.PLAYING:
        hand = state.hand
        move = DRAW if hand.legal_moves() == [DRAW] else hand.legal_moves()[0]
        player = ANN if hand.turn == 0 else BOB
        _apply(state, state.decide(c.MakeMove(player, move), rng))
    ended = shown(state, next(e for e in reversed(state.tail) if e.kind == "hand_over"))
    assert ended["result"]["breakdown"] == breakdown_json(hand_result(state.game.hands[-1]))
    assert ended["result"]["breakdown"]["why"] in ("out", "fewest_pips", "tie")


# A refused command changes nothing (issue 21) ---------------------------------------------

STRANGER = "p_cid"
PLAYERS = [ANN, BOB, STRANGER, "p_dee"]
TILE_NAMES = [tile_name(t) for t in range(28)]
EVERY_MOVE = [DRAW, PASS] + [
    move
    for name in TILE_NAMES
    for move in (Move.lead(name), Move.lead(name[::-1]), *(Move.play(name, a) for a in range(5)))
]
# Tables of every kind of play: real time and turn-based, with computer players and teams.
TABLES = [
    Options(preset="draw", seats=2),
    Options(preset="block", seats=3, timer="day"),
    Options(preset="all-fives", seats=3, ranked="all-fives"),
    Options(preset="partnership", target=100, seats=4, timer="quick"),
]


def table_snapshot(state: TableState, now: float) -> object:
    """Everything the table is made of: its fields, its hand, its game record, every seat's view
    and its deadlines."""
    fields = {k: copy.deepcopy(v) for k, v in vars(state).items() if k != "game"}
    seats = [None, *range(len(state.seats))]
    views = [
        state_for(state, s, player=None, name=None, connected=set(range(4)), now=now) for s in seats
    ]
    hand = deals_snapshot(state.hand) if state.hand is not None else None
    return fields, hand, state.record(), views, state.deadlines(), state.version, state.phase


def _commands(state: TableState, now: float) -> st.SearchStrategy[c.Command]:
    """Any command a client or the hall could send this table now, mostly wrong ones."""
    player = st.sampled_from(PLAYERS)
    client_seat = st.integers(-1, 4)
    seat = st.integers(0, len(state.seats) - 1)  # the hall's own commands name real seats
    version = st.sampled_from([state.version, state.version - 1, state.version + 1, 0])
    when = st.sampled_from([now - 1.0, now, now + 13.0, now + 26.0, now + 4 * 86400.0])
    move = st.sampled_from(EVERY_MOVE)
    hand, turn = state.hand, state.turn
    if hand is not None and turn is not None and hand.legal_moves():
        # Often a move that the rules allow now, from the seat to move or another.
        mover = state.seats[turn].player
        player = st.sampled_from([p for p in PLAYERS if p != mover]) | st.just(mover or ANN)
        move = st.sampled_from(hand.legal_moves()) | move
    return st.one_of(
        st.builds(c.Join, player, st.just("Name"), st.none() | client_seat),
        st.builds(c.SeatBot, player, client_seat, st.sampled_from(list(BotLevel))),
        st.builds(c.Remove, player, client_seat),
        st.builds(c.Start, player),
        st.builds(c.Leave, player),
        st.builds(c.MakeMove, player, move, st.booleans(), st.none() | version),
        st.builds(c.PressNextHand, player),
        st.builds(c.AnswerRematch, player, st.booleans(), st.just("rematch1")),
        st.builds(c.Open, st.sampled_from(TABLES), st.just(()), st.booleans()),
        st.builds(c.GoneAfterTheEnd, seat),
        st.builds(c.ComputerTurn, seat, version, st.tuples() | st.tuples(move)),
        st.builds(c.TurnTimeUp, when, st.tuples() | st.tuples(move)),
        st.just(c.MakeForcedMoves()),
        st.builds(c.Remind, when),
        st.builds(c.SetVacation, player, when, when),
        st.builds(c.DealNextHand, st.none() | when),
        st.builds(c.GraceOver, seat),
        st.builds(c.Resume, st.sampled_from([0.0, 5.0])),
    )  # fmt: skip


def _onward(state: TableState) -> c.Command | None:
    """The command that takes the table on towards the game's end (seat, start, play, ...)."""
    host = state.seats[state.host].player if state.host is not None else None
    if state.phase is Phase.SEATING:
        free = state.free_seats()
        if not free:
            return c.Start(host or ANN)
        if free[0] == 1:
            return c.Join(BOB, "Bob")
        return c.SeatBot(host or ANN, free[0], BotLevel.NORMAL)
    if state.phase is Phase.BETWEEN_HANDS:
        waiting = [s for s in state.people() if not s.ready]
        return c.PressNextHand(waiting[0].player) if waiting else c.DealNextHand()
    turn = state.turn
    if state.phase is not Phase.PLAYING or turn is None:
        return None
    seat = state.seats[turn]
    if not seat.is_person:
        return c.ComputerTurn(turn, state.version, turn_of(state, turn))
    return c.MakeMove(seat.player, state.hand.legal_moves()[0])


def _near(state: TableState, onward: c.Command) -> st.SearchStrategy[c.Command]:
    """Commands a little off the one that takes the table on: the likeliest to be refused late
    (another player, a stale version, drawing on, a computer player's stale or odd move)."""
    player = st.sampled_from(PLAYERS)
    version = st.sampled_from([state.version - 1, state.version, state.version + 1])
    if isinstance(onward, c.MakeMove):
        return st.builds(
            c.MakeMove,
            st.just(onward.player) | player,
            st.just(onward.move) | st.sampled_from(EVERY_MOVE),
            st.booleans(),
            st.none() | version,
        )
    if isinstance(onward, c.ComputerTurn):
        seat = st.integers(0, len(state.seats) - 1)
        moves = st.just(onward.moves) | st.tuples(st.sampled_from(EVERY_MOVE))
        return st.builds(c.ComputerTurn, st.just(onward.seat) | seat, version, moves)
    return st.builds(c.PressNextHand, player) | st.builds(c.Start, player) | st.just(onward)


def _attempt(state: TableState, command: c.Command, rng: random.Random, now: float) -> bool:
    """Decide ``command``: refused (a HallError), deciding nothing or deciding events, the table
    is as it was; events decided are then applied, as once committed."""
    before = table_snapshot(state, now)
    try:
        events = state.decide(command, rng)
    except HallError:
        assert table_snapshot(state, now) == before, f"refused {command!r} changed the table"
        return False
    # Decided (with events or none), the table is as it was: only applying them changes it,
    # so a commit the store refuses needs nothing taken back.
    assert table_snapshot(state, now) == before, f"deciding {command!r} changed the table"
    if not events:
        return False
    _apply(state, events, now)
    return True


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**16), data=st.data())
def test_a_refused_command_leaves_the_table_as_it_was(table, seed, data):
    """Every kind of command, in every phase, from the creation to the game's end and after:
    one that is refused (or decides nothing) leaves the version and the whole table unchanged."""
    rng, now = random.Random(seed), 1_800_000_000.0
    state = TableState("t1")
    seats = (SeatAtStart(SeatKind.HUMAN, ANN, "Ann"),) + (SeatAtStart(SeatKind.EMPTY),) * (
        table.seats - 1
    )
    _apply(state, [Created(table, seats)], now)
    phases = set()
    for _ in range(400):
        phases.add(state.phase)
        _attempt(state, data.draw(_commands(state, now)), rng, now)
        now += data.draw(st.sampled_from([0.0, 1.0, 30.0]))
        onward = _onward(state)
        if onward is None:
            break
        _attempt(state, data.draw(_near(state, onward)), rng, now)
        _attempt(state, onward, rng, now)
    phases.add(state.phase)
    for _ in range(5):  # and after the end
        _attempt(state, data.draw(_commands(state, now)), rng, now)
    assert Phase.FINISHED in phases
