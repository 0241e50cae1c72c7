"""The ``cap`` option (RULES.md 5): a capped game is played to its target or its minutes; the
hand under way when the cap passes is played out, then the highest score wins (equal: a draw)."""

from __future__ import annotations

import random

import pytest

from dominohall.hall import HallError, Options, Phase, TableState
from dominohall.hall import commands as c
from dominohall.hall.events import Created, SeatAtStart, SeatKind
from dominohall.hall.options import capped
from dominohall.hall.table.applying import capped_winner
from dominohall.rules import DRAW
from dominohall.rules.record import check_record

ANN, BOB = "p_ann", "p_bob"


def _capped_table(minutes: int | None, seed: int) -> tuple[TableState, random.Random]:
    state, rng = TableState("t1"), random.Random(seed)
    seats = (SeatAtStart(SeatKind.HUMAN, ANN, "Ann"), SeatAtStart(SeatKind.HUMAN, BOB, "Bob"))
    options = capped(Options(preset="draw", target=100, seats=2), minutes)
    state.apply(Created(options, seats), 0.0)
    for event in state.decide(c.Start(ANN), rng):
        state.apply(event, 0.0)
    return state, rng


def _play_hand(state: TableState, rng: random.Random, at: float) -> None:
    """Every move of the hand under way, each at time ``at``."""
    while state.phase is Phase.PLAYING:
        hand = state.hand
        assert hand is not None
        moves = hand.legal_moves()
        player = ANN if hand.turn == 0 else BOB
        move = DRAW if moves == [DRAW] else moves[0]
        for event in state.decide(c.MakeMove(player, move), rng):
            state.apply(event, at)


def _next_hand(state: TableState, rng: random.Random, at: float) -> None:
    for player in (ANN, BOB):
        if state.phase is not Phase.BETWEEN_HANDS:
            return
        for event in state.decide(c.PressNextHand(player), rng):
            state.apply(event, at)
    if state.phase is Phase.BETWEEN_HANDS:
        for event in state.decide(c.DealNextHand(), rng):
            state.apply(event, at)


def test_the_hand_under_way_when_the_cap_passes_is_played_out_then_the_highest_wins() -> None:
    state, rng = _capped_table(1, seed=4)
    _play_hand(state, rng, at=30.0)  # within the minute: the game goes on
    assert state.phase is Phase.BETWEEN_HANDS
    _next_hand(state, rng, at=50.0)
    assert state.phase is Phase.PLAYING
    hand = state.hand
    assert hand is not None
    # The cap passes mid-hand (61 s): every move of the hand is still played.
    _play_hand(state, rng, at=61.0)
    assert hand.over
    assert state.phase is Phase.FINISHED and state.game is not None
    assert not state.game.finished  # no one reached the target: the rules alone go on
    scores = state.game.scores
    assert max(scores) < 100
    assert state.result is not None and state.result["reason"] == "cap"
    assert state.result["winner"] == capped_winner(scores)
    assert state.game_over is not None and state.game_over.reason == "cap"
    record = state.record()
    assert record is not None and record["result"]["reason"] == "cap"
    report = check_record(record)
    assert report["ok"] and report["result"]["reason"] == "cap" and not report["finished"]


def test_an_uncapped_table_and_a_game_won_by_the_rules_end_as_before() -> None:
    state, rng = _capped_table(None, seed=4)
    _play_hand(state, rng, at=3600.0)
    assert state.phase is Phase.BETWEEN_HANDS  # hours of play: no cap, no end
    won, rng = _capped_table(600, seed=4)
    hands = 0
    while won.phase is not Phase.FINISHED:
        _play_hand(won, rng, at=10.0 * hands)
        _next_hand(won, rng, at=10.0 * hands)
        hands += 1
    assert won.result is not None and won.result["reason"] == "rules"


def test_the_highest_score_wins_and_equal_highest_is_a_draw() -> None:
    assert capped_winner([30, 41]) == 1
    assert capped_winner([12, 12]) is None
    assert capped_winner([20, 35, 35, 3]) is None
    assert capped_winner([60, 35, 35]) == 0


def test_a_cap_is_a_few_minutes_of_a_real_time_table_only() -> None:
    assert capped(Options(), 30).cap == 30
    assert Options.from_json(capped(Options(), 30).to_json()).cap == 30
    assert "cap" not in Options().to_json()  # tables stored before it read the same
    for bad, words in (
        (0, "a cap is 1 to 600 minutes, not 0"),
        (601, "a cap is 1 to 600 minutes, not 601"),
        (True, "a cap is 1 to 600 minutes, not True"),
    ):
        with pytest.raises(HallError) as refused:
            capped(Options(), bad)
        assert (refused.value.code, refused.value.message) == ("bad_option", words)
    with pytest.raises(HallError) as refused:
        capped(Options(timer="day"), 30)
    assert refused.value.message == "a turn-based game cannot be capped in minutes"
