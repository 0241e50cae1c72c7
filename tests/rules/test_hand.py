"""One hand: playing, drawing, passing, blocking, going out, and push/pop (RULES.md 1, 4)."""

from __future__ import annotations

import pytest

from dominohall.rules import ConfigError, HandOverError, IllegalMoveError, Move

from .deals import make_hand, move, names, play, snapshot, tiles


def test_turns_go_0_1_2_3_0() -> None:
    hand = make_hand("block", ["6-6 1-0", "6-5 1-1", "5-4 2-2", "4-3 3-3"])
    seats = []
    for text in ("6-6", "6-5@1", "5-4@1", "4-3@1", "pass"):
        seats.append(hand.turn)
        hand.push(move(text))
    assert seats == [0, 1, 2, 3, 0]
    assert hand.turn == 1


def test_the_leader_opens_the_hand_with_a_tile_not_a_draw_or_a_pass() -> None:
    hand = make_hand("draw", ["1-0 6-6", "5-5"], "3-3", leader=1)
    assert hand.turn == 1
    assert hand.legal_moves() == [Move.lead("5-5")]
    with pytest.raises(IllegalMoveError, match="must lead a tile"):
        hand.push(Move.draw())
    with pytest.raises(IllegalMoveError, match="must lead a tile"):
        hand.push(Move.pass_())


def test_the_leader_may_lead_any_tile_either_half_facing_arm_0() -> None:
    hand = make_hand("block", ["6-4 1-0", "5-5"])
    assert hand.legal_moves() == [Move.lead("1-0"), Move.lead("6-4")]
    play(hand, "4-6")
    assert (hand.layout.tips[0], hand.layout.tips[1]) == (4, 6)
    with pytest.raises(ConfigError):
        make_hand("block", ["6-4", "5-5"], leader=2)


def test_the_lead_has_no_arm_and_every_other_play_names_one() -> None:
    hand = make_hand("block", ["6-6 1-0", "6-5"])
    with pytest.raises(IllegalMoveError, match="not played on an arm"):
        hand.push(Move.play("6-6", 0))
    play(hand, "6-6")
    with pytest.raises(IllegalMoveError, match="needs an arm"):
        hand.push(Move.lead("6-5"))


def test_a_tile_is_played_onto_an_open_end_matching_one_of_its_halves() -> None:
    hand = make_hand("block", ["6-3 1-0", "3-2 4-4 6-0"], leader=0)
    play(hand, "6-3")
    assert hand.legal_moves() == [Move.play("6-0", 0), Move.play("3-2", 1)]
    with pytest.raises(IllegalMoveError, match="does not fit arm 0, whose open end is 6"):
        hand.push(Move.play("3-2", 0))
    with pytest.raises(IllegalMoveError, match="arm 2 is not open"):
        hand.push(Move.play("6-0", 2))
    with pytest.raises(IllegalMoveError, match="does not hold 1-0"):
        hand.push(Move.play("1-0", 0))


@pytest.mark.parametrize("arm", [0, 1])
def test_a_tile_that_fits_two_ends_is_placed_at_the_end_the_player_chooses(arm: int) -> None:
    hand = make_hand("block", ["6-6 1-0", "6-4 2-2"])
    play(hand, "6-6")
    assert hand.legal_moves() == [Move.play("6-4", 0), Move.play("6-4", 1)]
    play(hand, f"6-4@{arm}")
    assert hand.layout.tips[arm] == 4
    assert hand.layout.tips[1 - arm] == 6


def test_must_play_a_fitting_tile_no_pass_while_able() -> None:
    hand = make_hand("block", ["6-6 1-0", "6-1 2-2"])
    play(hand, "6-6")
    with pytest.raises(IllegalMoveError, match=r"may not pass while able to play \(6-1 fits\)"):
        hand.push(Move.pass_())
    assert Move.pass_() not in hand.legal_moves()


def test_no_draw_while_able_to_play() -> None:
    hand = make_hand("draw", ["6-6 1-0", "6-1 2-2"], "3-3 4-4")
    play(hand, "6-6")
    with pytest.raises(IllegalMoveError, match=r"may not draw while able to play \(6-1 fits\)"):
        hand.push(Move.draw())
    assert Move.draw() not in hand.legal_moves()
    assert hand.drawn == 0


def test_draw_until_it_fits_one_tile_at_a_time_without_ending_the_turn() -> None:
    hand = make_hand("draw", ["6-6 1-1", "1-0 2-1"], "2-2 3-1 6-2 5-5")
    play(hand, "6-6")
    assert hand.legal_moves() == [Move.draw()]
    play(hand, "draw")
    assert (hand.turn, hand.drawn, names(hand.holdings[1])) == (1, 1, "1-0 2-1 2-2")
    assert hand.legal_moves() == [Move.draw()]
    play(hand, "draw")
    assert (hand.turn, hand.drawn) == (1, 2)
    play(hand, "draw")
    assert (hand.turn, hand.drawn) == (1, 3)
    assert hand.boneyard_left == tiles("5-5")
    assert hand.legal_moves() == [Move.play("6-2", 0), Move.play("6-2", 1)]


def test_draw_until_it_fits_and_must_play_it() -> None:
    hand = make_hand("draw", ["6-6 1-1", "1-0 2-1"], "2-2 6-2 5-5")
    play(hand, "6-6", "draw", "draw")
    with pytest.raises(IllegalMoveError, match="must play the drawn tile 6-2"):
        hand.push(Move.draw())
    with pytest.raises(IllegalMoveError, match="must play the drawn tile 6-2"):
        hand.push(Move.pass_())
    play(hand, "6-2@1")
    assert hand.turn == 0
    assert hand.layout.tips[1] == 2


def test_a_draw_takes_the_next_tile_of_the_boneyard() -> None:
    hand = make_hand("draw", ["6-6 1-1", "1-0 2-1"], "2-2 6-2")
    play(hand, "6-6")
    with pytest.raises(IllegalMoveError, match="next tile of the boneyard is 2-2"):
        hand.push(Move.draw("6-2"))
    hand.push(Move.draw("2-2"))
    assert hand.move_stack[-1] == Move.draw("2-2")


def test_pass_only_with_an_empty_boneyard() -> None:
    hand = make_hand("draw", ["6-6 1-1", "1-0 2-1"], "2-2")
    play(hand, "6-6")
    with pytest.raises(IllegalMoveError, match="may not pass while the boneyard has tiles"):
        hand.push(Move.pass_())
    play(hand, "draw")
    assert hand.legal_moves() == [Move.pass_()]
    with pytest.raises(IllegalMoveError, match="nothing left to draw"):
        hand.push(Move.draw())
    play(hand, "pass")
    assert (hand.turn, hand.passes) == (0, 1)


def test_a_pass_is_a_move_of_its_own_also_after_drawing_the_boneyard_empty() -> None:
    hand = make_hand("draw", ["6-6 1-1", "1-0 2-1"], "2-2 3-3")
    play(hand, "6-6", "draw", "draw", "pass")
    assert hand.move_stack == [Move.lead("6-6"), Move.draw("2-2"), Move.draw("3-3"), Move.pass_()]
    assert [seat for seat, *_ in hand.history] == [0, 1, 1, 1]


def test_no_drawing_in_block_pass_when_nothing_fits() -> None:
    hand = make_hand("block", ["6-6 1-1", "1-0 2-1"], "2-2 6-2")
    play(hand, "6-6")
    assert hand.legal_moves() == [Move.pass_()]
    with pytest.raises(IllegalMoveError, match="no drawing in block"):
        hand.push(Move.draw())


@pytest.mark.parametrize(
    ("holdings", "winner"),
    [
        (["1-1 6-6", "5-5"], 1),
        (["1-1 6-6", "5-5", "4-4"], 2),
        (["1-1 6-6", "5-5", "4-4", "3-3"], 3),
    ],
)
def test_blocked_hand_after_n_passes_in_a_row(holdings: list[str], winner: int) -> None:
    """Every seat passes, one after another; the sole player with the fewest pips wins."""
    n = len(holdings)
    hand = make_hand("block", holdings)
    play(hand, "1-1", *["pass"] * (n - 1))
    assert not hand.over and hand.passes == n - 1
    play(hand, "pass")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.blocked) == (winner, True)
    assert hand.legal_moves() == []


def test_blocked_hand_needs_the_passes_in_a_row_a_play_starts_the_count_again() -> None:
    hand = make_hand("block", ["1-1 6-6", "5-5", "1-2 4-4"])
    play(hand, "1-1", "pass", "1-2@0", "pass", "pass")
    assert not hand.over  # three passes so far, but a play came between them
    play(hand, "pass")
    assert hand.result is not None and hand.result.blocked


def test_blocked_hand_in_a_drawing_preset_comes_only_with_an_empty_boneyard() -> None:
    hand = make_hand("draw", ["1-1 6-6", "4-4"], "5-5")
    play(hand, "1-1", "draw", "pass")
    assert hand.legal_moves() == [Move.pass_()]
    play(hand, "pass")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.blocked, hand.result.bonus) == (0, True, 18)


def test_blocked_ties_give_no_winner_and_nobody_scores_the_bonus() -> None:
    hand = make_hand("block", ["1-1 4-0", "2-2", "6-6"], scores=[7, 8, 9])
    play(hand, "1-1", "pass", "pass", "pass")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.blocked, hand.result.bonus) == (None, True, 0)
    assert hand.scores == [7, 8, 9]
    assert hand.tied_for_fewest() == [0, 1]


def test_going_out_ends_the_hand_and_the_player_who_went_out_wins() -> None:
    hand = make_hand("block", ["6-6 6-1", "6-5 2-2"])
    play(hand, "6-6", "6-5@1", "6-1@0")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.blocked, hand.result.bonus) == (0, False, 4)
    assert hand.over and hand.legal_moves() == []
    with pytest.raises(HandOverError, match="over"):
        hand.push(Move.play("2-2", 0))


def test_going_out_wins_even_when_another_player_holds_fewer_pips() -> None:
    hand = make_hand("block", ["6-6 6-5", "6-0 0-0"])
    play(hand, "6-6", "6-0@0", "6-5@1")
    assert hand.result is not None and hand.result.winner == 0
    assert hand.result.bonus == 0


def test_push_pop_restores_the_hand_move_by_move() -> None:
    """A hand of All Fives with a scoring lead, draws, a pass and going out, undone move by move."""
    hand = make_hand("all-fives", ["5-5 5-0 0-3", "1-1 2-1"], "4-4 5-3 6-6")
    states = [snapshot(hand)]
    for text in ("5-5", "draw", "draw", "5-3@1", "5-0@0", "draw", "pass", "0-3@0"):
        hand.push(move(text))
        states.append(snapshot(hand))
    assert hand.result is not None and hand.result.winner == 0
    assert hand.points == [10 + 25, 0]  # the 5-5 lead, then 1-1 2-1 4-4 6-6 = 25 pips
    moves = hand.move_stack
    while hand.history:
        states.pop()
        assert hand.pop() == moves.pop()
        assert snapshot(hand) == states[-1]
    assert hand.scores == [0, 0] and hand.result is None


def test_push_pop_restores_a_blocked_hand() -> None:
    hand = make_hand("cross-draw", ["1-1 3-0", "5-5 6-4", "6-6 6-5"], scores=[1, 2, 3])
    play(hand, "1-1", "pass", "pass")
    before = snapshot(hand)
    play(hand, "pass")
    assert hand.over and hand.scores != [1, 2, 3]
    assert hand.pop() == Move.pass_()
    assert snapshot(hand) == before
