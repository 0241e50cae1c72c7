"""What happened at a table, as typed values: a hand's end counted from the rules (who won, each
seat's tiles, pips and points, a partnership's teams, a blocked tie, a net penalty rule's
losses), and an entry's kind taken from its event or note."""

from __future__ import annotations

import pytest

from dominohall.hall.events import Moved, Out, OutReason
from dominohall.hall.table.happened import (
    Closed,
    GameOver,
    HandOver,
    Happened,
    HostChanged,
    TeamPips,
    hand_result,
)
from dominohall.rules import Bonus, Hand, Move, mask_of
from rules.deals import make_hand, play, tiles


def _ended(preset: str, holdings: list[str], moves: str, **kwargs: object) -> Hand:
    hand = make_hand(preset, holdings, **kwargs)
    play(hand, *moves.split())
    assert hand.over
    return hand


def test_a_hand_won_by_going_out_reveals_each_seat_s_tiles_pips_and_points():
    hand = _ended("draw", ["6-6", "5-4 3-2"], "6-6")
    result = hand_result(hand)
    assert (result.winner, result.blocked, result.cut_short) == (0, False, False)
    assert result.holdings == (0, mask_of(tiles("5-4 3-2")))
    assert result.pips == (0, 14)
    assert result.bonus == 14 and result.bonus_rule is Bonus.OTHERS
    assert result.points == (hand.points[0], hand.points[1]) and result.points[0] >= 14
    assert result.count is not None and result.count.counted == (1,) and result.count.pips == 14
    assert result.teams is None and result.tied is None and result.penalties is None


def test_a_blocked_tie_names_the_seats_tied_for_fewest_pips_and_no_winner():
    hand = _ended("block", ["1-1 4-0", "2-2", "6-6"], "1-1 pass pass pass")
    result = hand_result(hand)
    assert (result.winner, result.blocked) == (None, True)
    assert result.tied == (0, 1) and result.pips == (4, 4, 12)
    assert result.bonus == 0 and result.count is None and result.penalties is None


def test_a_partnership_s_hand_counts_each_team_s_pips_and_gives_partners_the_same_points():
    hand = _ended("partnership", ["6-6", "5-4", "3-2", "1-0"], "6-6")
    result = hand_result(hand)
    assert result.teams == (TeamPips(0, (0, 2), 5), TeamPips(1, (1, 3), 10))
    assert result.winner == 0 and result.tied is None
    assert result.points[0] == result.points[2] and result.points[1] == result.points[3]
    blocked = hand_result(
        _ended("partnership", ["6-6 2-1", "3-1", "3-0", "1-1"], "6-6 pass pass pass pass")
    )
    assert blocked.winner is None and blocked.tied is None  # teams tie: no seats named
    assert blocked.teams == (TeamPips(0, (0, 2), 6), TeamPips(1, (1, 3), 6))


def test_a_net_penalty_rule_says_what_each_loser_lost_and_the_winner_nothing():
    # Cross Draw, blocked: Bob loses 20 pips -> 4, Cy 23 -> 25 -> 5 (RULES.md 4).
    hand = _ended("cross-draw", ["1-1 3-0", "5-5 6-4", "6-6 6-5"], "1-1 pass pass pass")
    result = hand_result(hand)
    assert result.bonus_rule is Bonus.NET_PENALTY and result.winner == 0
    assert result.penalties == (0, 4, 5)


def test_a_hand_cut_short_by_the_target_has_no_winner_and_no_tie():
    hand = _ended("all-fives", ["5-5 1-0", "6-6 6-4"], "5-5", scores=[45, 0], target=50)
    result = hand_result(hand)
    assert result.cut_short and result.winner is None
    assert result.tied is None and result.count is None


def test_an_entry_s_kind_is_its_event_s_or_its_note_s():
    over = GameOver("rules", 0, (), (100, 40), 60.0)
    assert over.resigned is None  # (a game not ended by a resignation)
    entries = [
        Happened(1, Moved(0, 1, Move.play("6-4", 1)), scored=10),
        Happened(2, Out(1, OutReason.LEFT)),
        Happened(3, HostChanged(1)),
        Happened(3, Closed()),
        Happened(4, HandOver(0, hand_result(_ended("draw", ["6-6", "5-4"], "6-6")))),
        Happened(5, over),
    ]
    kinds = [e.kind for e in entries]
    assert kinds == ["move", "out", "host", "closed", "hand_over", "game_over"]
    with pytest.raises(AttributeError):  # what happened is kept as it was
        entries[0].scored = 11  # type: ignore[misc]
