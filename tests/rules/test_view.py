"""What one seat may know (DESIGN.md): its own tiles, the table, counts, the public history."""

from __future__ import annotations

from dominohall.rules import Hand, Move, mask_of

from .deals import make_hand, play, public_state, tiles


def two_deals_alike_in_public() -> tuple[Hand, Hand]:
    """Two hands whose public story is the same, with different hidden tiles: seat 1 holds
    other tiles and draws other tiles (2-2 or 3-3) before the 6-2 it plays."""
    a = make_hand("draw", ["6-6 1-1 4-0", "1-0 2-1 5-0"], "2-2 6-2 5-5 4-4")
    b = make_hand("draw", ["6-6 1-1 4-0", "1-0 3-1 5-1"], "3-3 6-2 4-4 5-5")
    for hand in (a, b):
        play(hand, "6-6", "draw", "draw", "6-2@1")
    return a, b


def test_a_view_holds_nothing_hidden_other_seats_tiles_and_the_boneyard_order_absent() -> None:
    a, b = two_deals_alike_in_public()
    assert a.holdings[1] != b.holdings[1] and a.boneyard_left != b.boneyard_left
    for seat in (0, None):
        assert public_state(a.view(seat)) == public_state(b.view(seat))
    assert public_state(a.view(1)) != public_state(b.view(1))  # seat 1 sees its own tiles


def test_a_view_shows_own_tiles_counts_of_others_and_of_the_boneyard() -> None:
    a, _ = two_deals_alike_in_public()
    view = a.view(0)
    assert view.holding == mask_of(tiles("1-1 4-0"))
    assert view.tile_counts == (2, 4)
    assert view.boneyard_count == 2
    assert view.revealed is None
    assert a.view(None).holding == 0


def test_a_view_shows_own_draws_and_hides_others_draws() -> None:
    a, _ = two_deals_alike_in_public()
    own = [p.move for p in a.view(1).history]
    other = [p.move for p in a.view(0).history]
    spectator = [p.move for p in a.view(None).history]
    assert own == [Move.lead("6-6"), Move.draw("2-2"), Move.draw("6-2"), Move.play("6-2", 1)]
    assert other == [Move.lead("6-6"), Move.draw(), Move.draw(), Move.play("6-2", 1)]
    assert spectator == other
    assert all(p.move.tile == -1 for p in a.view(0).history[1:3])
    assert [p.seat for p in a.view(0).history] == [0, 1, 1, 1]
    assert a.view(0).history[1].numbers_open == [6]


def test_a_view_reveals_every_hand_once_the_hand_is_over() -> None:
    hand = make_hand("block", ["6-6", "5-4 3-2"])
    play(hand, "6-6")
    view = hand.view(1)
    assert view.revealed == (0, mask_of(tiles("5-4 3-2")))
    assert view.result == hand.result


def test_a_views_legal_moves_are_the_hands_for_the_seat_to_move_and_none_for_others() -> None:
    hand = make_hand("draw", ["6-6 1-1", "6-1 2-1 6-3"], "3-3")
    play(hand, "6-6")
    assert hand.view(1).my_turn
    assert hand.view(1).legal_moves() == hand.legal_moves()
    assert hand.view(0).legal_moves() == []
    assert hand.view(None).legal_moves() == []


def test_a_view_of_the_leader_shows_the_tile_it_must_open_with() -> None:
    hand = make_hand("draw", ["6-6 1-1", "6-1 2-1"], "3-3", must_lead=tiles("6-6")[0])
    assert hand.view(0).legal_moves() == [Move.lead("6-6")]
    assert hand.view(1).must_lead == -1


def test_a_views_layout_is_a_copy() -> None:
    hand = make_hand("block", ["6-6 1-1", "6-1 2-1"])
    play(hand, "6-6")
    view = hand.view(1)
    view.layout.place(tiles("6-1")[0], 0)
    assert hand.layout.tips[0] == 6 and len(hand.layout.chain) == 1


def test_a_view_with_a_guess_at_the_hidden_tiles_is_a_hand_to_search_from() -> None:
    a, b = two_deals_alike_in_public()
    view = a.view(0)
    guess = view.hand_with(list(b.holdings), b.boneyard_left)
    assert (guess.turn, guess.layout.open_arms, guess.scores) == (0, [0, 1], [0, 0])
    assert guess.legal_moves() == a.legal_moves() == view.legal_moves()
    assert guess.legal_moves() == [Move.draw()]
    guess.push(Move.draw())  # the guess decides what seat 0 draws: 4-4 here, 5-5 in truth
    assert guess.holdings[0] == mask_of(tiles("1-1 4-0 4-4"))
    assert guess.pop() == Move.draw("4-4")
    assert guess.holdings[0] == view.holding
