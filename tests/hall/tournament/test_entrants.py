"""Entrants as players or fixed pairs, and a pairs tournament seated as partnership teams."""

from __future__ import annotations

import doctest

import pytest

from dominohall.hall.tournament import entrants
from dominohall.hall.tournament.entrants import Entrant, EntrantError, seats_of
from dominohall.hall.tournament.swiss import Swiss


def test_the_examples_in_the_module_run() -> None:
    result = doctest.testmod(entrants, report=False)
    assert result.attempted > 0 and result.failed == 0


def test_a_pairs_swiss_pairs_teams_and_seats_each_pair_opposite() -> None:
    pairs = [Entrant(("ann", "bob")), Entrant(("cy", "di")), Entrant(("ed", "flo"))]
    by_id = {p.id: p for p in pairs}
    s = Swiss([p.id for p in pairs], rounds=2)
    games = s.pair()
    assert [(g.a, g.b) for g in games] == [("ann+bob", "cy+di")] and s.byes == [(1, "ed+flo")]
    seats = seats_of([by_id[games[0].a], by_id[games[0].b]], 4)
    assert seats == ["ann", "cy", "bob", "di"]  # seats 0, 2 one team; 1, 3 the other
    s.record("ann+bob", "cy+di", 100, 70, "ann+bob")
    games = s.pair()
    # ed+flo (2, the bye) meets ann+bob (2); cy+di, who has met ann+bob, sits out with a bye.
    assert [(g.a, g.b) for g in games] == [("ann+bob", "ed+flo")] and s.byes[-1] == (2, "cy+di")
    assert seats_of([by_id["ann+bob"], by_id["ed+flo"]], 4) == ["ann", "ed", "bob", "flo"]


def test_entrants_that_are_not_one_player_or_a_pair_are_refused() -> None:
    with pytest.raises(EntrantError):
        Entrant(("ann", "ann"))
    with pytest.raises(EntrantError):
        Entrant(())
    with pytest.raises(EntrantError, match="two pairs play at a table of four"):
        seats_of([Entrant(("a", "b")), Entrant(("c", "d"))], 2)
    with pytest.raises(EntrantError, match="do not fill a table of 4"):
        seats_of([Entrant(("a",)), Entrant(("c", "d"))], 4)
