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
from dominohall.hall.table import WrongTransition, breakdown_of
from dominohall.rules import DRAW, Hand
from rules.deals import make_hand, play

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


# The hand's breakdown: why it ended so, and the bonus as the rules counted it ---------------


def _ended(preset: str, holdings: list[str], moves: str, **kwargs: object) -> Hand:
    hand = make_hand(preset, holdings, **kwargs)
    play(hand, *moves.split())
    assert hand.over
    return hand


def _bonus(
    counted, pips, value, *, own=None, rounded=None, units=False, scored=None, not_scored=None
):
    scored = value if scored is None else scored
    net = None if own is None else pips - own
    return {
        "counted": counted, "pips": pips, "own": own, "net": net, "rounded": rounded, "units": units,
        "value": value, "scored": scored, "not_scored": not_scored,
    }  # fmt: skip


TEAMS = [{"team": 0, "seats": [0, 2]}, {"team": 1, "seats": [1, 3]}]


def _teams(pips: list[int]) -> list[dict[str, object]]:
    return [{**team, "pips": p} for team, p in zip(TEAMS, pips, strict=True)]


@pytest.mark.parametrize(
    ("preset", "holdings", "moves", "kwargs", "expected"),
    [
        # Draw: Ann goes out; the pips left in Bob's hand.
        ("draw", ["6-6", "5-4 3-2"], "6-6", {},
         {"why": "out", "bonus": _bonus([1], 14, 14)}),
        # Block, blocked: Ann holds the fewest (3 against 4 and 12).
        ("block", ["1-1 3-0", "2-2", "6-6"], "1-1 pass pass pass", {},
         {"why": "fewest_pips", "bonus": _bonus([1, 2], 16, 16)}),
        # Block, blocked: Ann and Bob tie at 4 pips: no winner.
        ("block", ["1-1 4-0", "2-2", "6-6"], "1-1 pass pass pass", {},
         {"why": "tie", "tied": [0, 1]}),
        # All Fives: 14 to the nearest five.
        ("all-fives", ["6-6", "5-4 3-2"], "6-6", {},
         {"why": "out", "bonus": _bonus([1], 14, 15, rounded=15)}),
        # Muggins, blocked: Bob wins, and every pip left counts, his own too: 18 -> 20 -> 4.
        ("muggins", ["5-0 6-6", "4-2"], "5-0 pass pass", {},
         {"why": "fewest_pips", "bonus": _bonus([0, 1], 18, 4, rounded=20, units=True)}),
        # Cross Fives: the opponents' 15 less Ann's own 0, in units.
        ("cross-fives", ["6-6", "5-4 3-2", "1-0"], "6-6", {},
         {"why": "out", "bonus": _bonus([1, 2], 15, 3, own=0, rounded=15, units=True)}),
        # Cross Draw, blocked: 43 - 3 = 40 -> 8; Bob loses 20 -> 4, Cy 23 -> 25 -> 5.
        ("cross-draw", ["1-1 3-0", "5-5 6-4", "6-6 6-5"], "1-1 pass pass pass", {},
         {"why": "fewest_pips", "penalties": [0, 4, 5],
          "bonus": _bonus([1, 2], 43, 8, own=3, rounded=40, units=True)}),
        # Cross Fives and Threes to exactly 61: 60 + the lead's 4 + the bonus 3 would pass it.
        ("cross-fives-threes", ["6-6", "5-4 3-2"], "6-6", {"scores": [60, 0], "target": 61},
         {"why": "out",
          "bonus": _bonus([1], 14, 3, own=0, rounded=15, units=True, scored=0,
                          not_scored="past_target")}),
        # All Fives to 50: the 5-5 lead reaches it mid-hand.
        ("all-fives", ["5-5 1-0", "6-6 6-4"], "5-5", {"scores": [45, 0], "target": 50},
         {"why": "cut_short"}),
        # Partnership: Ann goes out; the other team's pips (Bob's 9 and Di's 1).
        ("partnership", ["6-6", "5-4", "3-2", "1-0"], "6-6", {},
         {"why": "out", "teams": _teams([5, 10]), "bonus": _bonus([1, 3], 10, 10)}),
        # Partnership, blocked with 3, 4, 3 and 2 pips left: the two teams tie at 6.
        ("partnership", ["6-6 2-1", "3-1", "3-0", "1-1"], "6-6 pass pass pass pass", {},
         {"why": "team_tie", "teams": _teams([6, 6])}),
        # Partnership, blocked: team 0 holds 5 against 9; Cy, its member with fewer pips, wins.
        ("partnership", ["6-6 2-1", "3-1", "2-0", "4-1"], "6-6 pass pass pass pass", {},
         {"why": "fewest_team_pips", "teams": _teams([5, 9]), "bonus": _bonus([1, 3], 9, 9)}),
    ],
)  # fmt: skip
def test_the_breakdown_of_a_hand_is_the_rules_count(preset, holdings, moves, kwargs, expected):
    hand = _ended(preset, holdings, moves, **kwargs)
    empty = {"why": None, "tied": None, "teams": None, "bonus": None, "penalties": None}
    assert breakdown_of(hand) == {**empty, **expected}
    count = expected.get("bonus")
    assert hand.result.bonus == (count["scored"] if count else 0)  # the rules' own result
    if expected["why"] == "fewest_team_pips":
        assert hand.result.winner == 2


def test_a_hand_over_carries_its_breakdown():
    state, rng = _table()
    while state.phase is Phase.PLAYING:
        hand = state.hand
        move = DRAW if hand.legal_moves() == [DRAW] else hand.legal_moves()[0]
        player = ANN if hand.turn == 0 else BOB
        _apply(state, state.decide(c.MakeMove(player, move), rng))
    ended = next(e for e in reversed(state.tail) if e["kind"] == "hand_over")
    assert ended["result"]["breakdown"] == breakdown_of(state.game.hands[-1])
    assert ended["result"]["breakdown"]["why"] in ("out", "fewest_pips", "tie")
