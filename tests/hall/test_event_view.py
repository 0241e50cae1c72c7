"""What happened at a table as clients see it: each entry the table keeps written as the
protocol's event (docs/protocol.md 3), made once per entry and shared; a hand's end and the
game's end from their typed values."""

from __future__ import annotations

import random

import pytest

from dominohall.hall import Options, Phase, TableState
from dominohall.hall import commands as c
from dominohall.hall.event_view import (
    breakdown_json,
    event_json,
    game_json,
    hand_result_json,
    shown,
    shown_all,
    written,
    written_all,
)
from dominohall.hall.events import Created, Moved, Out, OutReason, SeatAtStart, SeatKind
from dominohall.hall.seat_view import public_event
from dominohall.hall.table.happened import (
    Closed,
    GameOver,
    HandOver,
    Happened,
    HostChanged,
    hand_result,
)
from dominohall.hall.view_cache import cache_of
from dominohall.rules import DRAW, Hand, Move
from rules.deals import make_hand, play

ANN, BOB = "p_ann", "p_bob"


def _played(preset: str = "draw", seats: int = 2, target: int = 100) -> TableState:
    """A table whose game was played to its end with the first legal move each turn."""
    state, rng = TableState("t1"), random.Random(3)
    people = (SeatAtStart(SeatKind.HUMAN, ANN, "Ann"), SeatAtStart(SeatKind.EMPTY))
    for event in [Created(Options(preset=preset, seats=seats, target=target), people)]:
        state.apply(event, 0.0)
    for command in (c.Join(BOB, "Bob"), c.Start(ANN)):
        for event in state.decide(command, rng):
            state.apply(event, 0.0)
    at = 0.0
    while state.phase is not Phase.FINISHED:
        at += 1.0
        if state.phase is Phase.BETWEEN_HANDS:
            command: c.Command = c.DealNextHand(None)
        else:
            hand = state.hand
            move = DRAW if hand.legal_moves() == [DRAW] else hand.legal_moves()[0]
            command = c.MakeMove(ANN if hand.turn == 0 else BOB, move)
        for event in state.decide(command, rng):
            state.apply(event, at)
    return state


def test_an_event_is_shown_as_stored_with_the_version_and_what_the_rules_made_of_it():
    state = TableState("t1")
    play = Happened(5, Moved(0, 1, Move.play("6-4", 1)), scored=10)
    assert shown(state, play) == {
        "version": 5, "kind": "move", "seat": 0, "play": "6-4", "arm": 1, "hand": 1,
        "by": "player", "scored": 10,
    }  # fmt: skip
    passed = Happened(6, Moved(1, 1, Move.pass_()), scored=0, open=(2, 6))
    assert shown(state, passed) == {
        "version": 6, "kind": "move", "seat": 1, "pass": True, "hand": 1, "by": "player",
        "scored": 0, "open": [2, 6],
    }  # fmt: skip
    assert list(shown(state, passed)) == [
        "version",
        "kind",
        "seat",
        "pass",
        "hand",
        "by",
        "scored",
        "open",
    ]  # the wire's order of keys
    out = Happened(7, Out(1, OutReason.LEFT))
    assert shown(state, out) == {"version": 7, "kind": "out", "seat": 1, "reason": "left"}
    assert shown(state, Happened(2, HostChanged(1))) == {"version": 2, "kind": "host", "seat": 1}
    assert shown(state, Happened(2, Closed())) == {"version": 2, "kind": "closed"}


def test_an_entry_is_written_once_for_every_socket():
    state = TableState("t1")
    entry = Happened(5, Moved(0, 1, Move.draw("6-4")), scored=0)
    first = shown(state, entry)
    assert shown(state, entry) is first
    assert written(state, entry).whole is first and written(state, entry).entry is entry
    hidden = public_event(state, entry, 1)  # a form cut from it, made once too
    assert public_event(state, entry, None) is hidden and hidden == {**first, "draw": True}
    assert [w.whole for w in written_all(state, [entry, entry])] == [first, first]
    # An equal entry is another happening (another table's, say): its own JSON.
    assert shown(state, Happened(5, Moved(0, 1, Move.draw("6-4")), scored=0)) is not first


def test_the_entries_a_table_no_longer_keeps_are_let_go():
    state = _played()
    kept = len(state.tail) + len(state.log)
    for version in range(1000):  # entries of no table: never kept by it
        shown(state, Happened(version, Closed()))
    assert len(cache_of(state).entries) <= 2 * (kept + 1000 // 2) + 64
    for entry in (*state.tail, *state.log):
        shown(state, entry)
    assert len(cache_of(state).entries) < 2 * kept + 1000


def test_a_hand_over_and_the_game_over_are_written_from_their_typed_values():
    state = _played()
    ended = [e for e in state.tail if isinstance(e.event, HandOver)]
    assert ended
    last_hand = ended[-1].event
    assert isinstance(last_hand, HandOver) and last_hand.hand == len(state.game.hands) - 1
    assert last_hand.result == hand_result(state.game.hands[-1])
    assert shown(state, ended[-1]) == {
        "version": ended[-1].version,
        "kind": "hand_over",
        "hand": last_hand.hand,
        "result": hand_result_json(last_hand.result),
    }
    over = state.tail[-1]
    assert isinstance(over.event, GameOver) and over.event == state.game_over
    assert shown(state, over) == {
        "version": state.version,
        "kind": "game_over",
        "result": game_json(state),
    }
    assert game_json(state) == {
        "over": True,
        "winner": state.result["winner"],
        "reason": "rules",
        "placed_last": [],
        "scores": state.game.seat_scores(),
        "record": "/games/t1/record",
        "duration": state.duration(0.0),
    }
    assert [e["kind"] for e in shown_all(state, state.log)][-1] == "hand_over"


def test_no_game_no_game_over():
    state = TableState("t1")
    assert game_json(state) is None


def test_a_hand_result_reveals_every_hand_heaviest_tile_first():
    hand = _ended("draw", ["6-6", "5-4 3-2"], "6-6")
    result = hand_result_json(hand_result(hand))
    assert result["revealed"] == [[], ["5-4", "3-2"]]
    assert result["winner"] == 0 and result["blocked"] is False and result["cut_short"] is False
    assert result["pips"] == [0, 14] and result["bonus_rule"] == hand.preset.bonus.value
    assert list(result) == [
        "winner", "blocked", "bonus", "bonus_rule", "cut_short", "revealed", "pips", "points",
        "breakdown",
    ]  # fmt: skip


def test_event_json_is_not_cached():
    entry = Happened(3, Closed())
    assert event_json("t1", entry) is not event_json("t1", entry)


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
    assert breakdown_json(hand_result(hand)) == {**empty, **expected}
    count = expected.get("bonus")
    assert hand.result.bonus == (count["scored"] if count else 0)  # the rules' own result
    if expected["why"] == "fewest_team_pips":
        assert hand.result.winner == 2
