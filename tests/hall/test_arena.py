"""The arena's rules as tables of cases (docs/arena.md): a place's outcome, its points in each
league, the floor, climbing, Elite, relegation and trophies."""

from __future__ import annotations

import pytest

from dominohall.hall.arena import (
    CLIMB,
    League,
    Outcome,
    Standing,
    outcome,
    points_for,
    relegated,
    trophy,
)
from dominohall.hall.ratings import RatingError

B, S, G, P, D, E = League
WIN, AHEAD, EVEN, LOSS = Outcome.WIN, Outcome.AHEAD, Outcome.EVEN, Outcome.LOSS


@pytest.mark.parametrize(
    ("places", "teams", "outcomes"),
    [
        ([1, 2], False, [WIN, LOSS]),
        ([1, 1], False, [EVEN, EVEN]),  # a draw
        ([2, 1, 3], False, [EVEN, WIN, LOSS]),  # 2nd of three: even
        ([1, 1, 3], False, [WIN, WIN, LOSS]),  # sharing first beats the rest
        ([1, 2, 2], False, [WIN, LOSS, LOSS]),
        ([4, 1, 2, 3], False, [LOSS, WIN, AHEAD, EVEN]),  # 2nd of four ahead, 3rd even
        ([1, 2, 2, 4], False, [WIN, EVEN, EVEN, LOSS]),  # above one, below one
        ([1, 3, 1, 3], True, [WIN, LOSS, WIN, LOSS]),  # partnership: the team's place
        ([3, 1, 3, 1], True, [LOSS, WIN, LOSS, WIN]),
    ],
)
def test_a_place_is_an_outcome(places, teams, outcomes):
    assert [outcome(places, s, teams=teams) for s in range(len(places))] == outcomes


def test_a_seat_outside_the_game_has_no_outcome():
    with pytest.raises(RatingError, match="seat 2 of a 2-seat game"):
        outcome([1, 2], 2)


@pytest.mark.parametrize(
    ("league", "win", "ahead", "even", "loss"),
    [
        (B, 2, 1, 0, -1),
        (S, 2, 1, 0, -1),
        (G, 2, 1, 0, -1),
        (P, 1, 0, 0, -1),
        (D, 1, 0, 0, -1),
        (E, 1, 0, 0, -1),
    ],
)
def test_points_per_league(league, win, ahead, even, loss):
    got = [points_for(league, o) for o in (WIN, AHEAD, EVEN, LOSS)]
    assert got == [win, ahead, even, loss]


@pytest.mark.parametrize(
    ("before", "result", "after"),
    [
        (Standing(B, 0), WIN, Standing(B, 2)),
        (Standing(B, 0), LOSS, Standing(B, 0)),  # never below the league's floor
        (Standing(G, 1), LOSS, Standing(G, 0)),
        (Standing(S, 3), AHEAD, Standing(S, 4)),
        (Standing(B, CLIMB - 2), WIN, Standing(S, 0)),  # climbs, counting from 0 again
        (Standing(G, CLIMB - 1), WIN, Standing(P, 0)),  # (a win's second point is not carried)
        (Standing(P, CLIMB - 1), WIN, Standing(D, 0)),
        (Standing(P, 3), AHEAD, Standing(P, 3)),
        (Standing(D, CLIMB - 1), WIN, Standing(E, 0)),
        (Standing(D, 0), LOSS, Standing(D, 0)),  # no fall from a league within a season
        (Standing(E, 0), LOSS, Standing(E, 0)),  # Elite: the season rating orders it
        (Standing(E, 0), WIN, Standing(E, 0)),
    ],
)
def test_a_standing_after_a_game(before, result, after):
    assert before.after(result) == after


def test_from_bronze_to_elite_takes_wins():
    """Wins only: 3 a league up to Gold (+2 each), 6 a league from Platinum (+1 each)."""
    standing, wins = Standing(), 0
    while standing.league is not E:
        standing, wins = standing.after(WIN), wins + 1
    assert wins == 3 * 3 + 2 * 6


@pytest.mark.parametrize(
    ("league", "next_season"), [(E, G), (D, S), (P, B), (G, B), (S, B), (B, B)]
)
def test_relegation(league, next_season):
    assert relegated(league) is next_season


def test_trophies_go_to_the_first_three_of_elite():
    assert [trophy(r) for r in (1, 2, 3, 4)] == [1, 2, 3, None]


def test_labels():
    assert [Standing(G, 4).label, Standing(E, 0).label] == ["Gold 4", "Elite"]
