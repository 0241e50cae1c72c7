"""Ranked ratings: openskill's own numbers, placings of RULES.md section 6, the shown rating."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from dominohall.hall import ratings
from dominohall.hall.ratings import (
    NEW,
    POINTS_PER_MU,
    POOLS,
    RatingError,
    Skill,
    placings,
    rate,
    shown,
)


def test_the_examples_in_the_module_run() -> None:
    result = doctest.testmod(ratings, report=False)
    assert result.attempted > 0 and result.failed == 0


def test_the_pools_are_rules_section_6() -> None:
    assert {p: (POOLS[p].target, POOLS[p].players) for p in POOLS} == {
        "draw": (50, (2, 3, 4)),
        "block": (50, (2, 3, 4)),
        "all-fives": (50, (2, 3, 4)),
        "partnership": (100, (4,)),
    }
    assert POOLS["partnership"].teams and not POOLS["draw"].teams


SKILLS = [Skill(25.0, 8.333, 0), Skill(31.2, 4.1, 30), Skill(18.5, 6.0, 4), Skill(27.0, 2.5, 200)]


def _direct(sides: list[list[Skill]], ranks: list[int]) -> list[list[float]]:
    """Each side's players' new (mu, sigma), flat, as openskill's defaults compute them."""
    model = PlackettLuce()
    out = model.rate(
        [[model.rating(mu=s.mu, sigma=s.sigma) for s in side] for side in sides], ranks=ranks
    )
    return [[x for r in side for x in (r.mu, r.sigma)] for side in out]


def _flat(skills: list[Skill]) -> list[float]:
    return [x for s in skills for x in (s.mu, s.sigma)]


@pytest.mark.parametrize(
    "places",
    [[1, 2], [2, 1], [1, 1], [2, 1, 3], [1, 1, 3], [3, 1, 4, 2], [1, 2, 2, 4], [4, 3, 2, 1]],
)
def test_updates_equal_openskill_for_2_3_and_4_players(places: list[int]) -> None:
    before = SKILLS[: len(places)]
    after = rate(before, places)
    expected = _direct([[s] for s in before], places)
    assert _flat(after) == pytest.approx([x for side in expected for x in side])
    assert [s.games for s in after] == [s.games + 1 for s in before]


@pytest.mark.parametrize("places", [[1, 2, 1, 2], [2, 1, 2, 1], [1, 1, 1, 1]])
def test_updates_equal_openskill_for_partnership_teams(places: list[int]) -> None:
    after = rate(SKILLS, places, teams=True)
    expected = _direct([[SKILLS[0], SKILLS[2]], [SKILLS[1], SKILLS[3]]], [places[0], places[1]])
    team_a, team_b = expected  # seats 0 and 2, seats 1 and 3
    assert _flat(after) == pytest.approx(team_a[:2] + team_b[:2] + team_a[2:] + team_b[2:])


def test_partners_must_share_a_place() -> None:
    with pytest.raises(RatingError, match="partners must share a place"):
        rate(SKILLS, [1, 2, 3, 4], teams=True)


def test_placings_put_seats_out_last_the_first_out_lowest() -> None:
    assert placings([10, 50, 40, 45], winner=1, out=[3, 2]) == [2, 1, 3, 4]
    # The rules' winner comes first even with a lower score (an exact target, a block).
    assert placings([30, 31], winner=0) == [1, 2]
    assert placings([20, 20, 5], winner=None) == [1, 1, 3]


def test_placings_of_partnership_teams() -> None:
    assert placings([100, 40, 100, 40], winner=0, teams=True) == [1, 3, 1, 3]
    # Seat 3 went out: its team is placed below, whatever the score.
    assert placings([40, 90, 40, 90], winner=None, out=[3], teams=True) == [1, 3, 1, 3]


def test_placings_refuse_a_seat_that_is_not_there() -> None:
    with pytest.raises(RatingError, match="winner 3 is not a seat of a 3-player game"):
        placings([1, 2, 3], winner=3)
    with pytest.raises(RatingError, match=r"seats out \[1, 1\]"):
        placings([1, 2, 3], winner=0, out=[1, 1])


def test_a_new_player_shows_1500_provisional() -> None:
    assert NEW.shown == 1500 and NEW.label == "1500?"
    assert Skill(27.0, 3.0, 40).label == str(shown(27.0))


def test_the_shown_rating_is_docs_formula_with_its_rounding() -> None:
    # docs/ratings.md: 1500 + floor((mu - 25) * 29.4809 + 0.5), the factor 400 / (ln 10 beta sqrt 2).
    assert abs(POINTS_PER_MU - 29.4809) < 5e-5
    assert shown(23.287371) == 1450  # 29.5 points per mu would show 1449
    half = 0.5 / POINTS_PER_MU  # the mu whose product is exactly a half either side
    assert shown(25.0 + half * 1.000001) == 1501 and shown(25.0 + half * 0.999999) == 1500
    assert shown(25.0 - half * 0.999999) == 1500 and shown(25.0 - half * 1.000001) == 1499


skills = st.builds(
    Skill,
    mu=st.floats(0.0, 50.0),
    sigma=st.floats(0.5, 25 / 3),
    games=st.integers(0, 500),
)


@given(
    st.lists(skills, min_size=2, max_size=4),
    st.data(),
)
def test_a_win_never_shows_a_loss_nor_a_loss_a_gain(
    before: list[Skill], data: st.DataObject
) -> None:
    n = len(before)
    scores = data.draw(st.lists(st.integers(-25, 200), min_size=n, max_size=n))
    winner = data.draw(st.none() | st.integers(0, n - 1))
    out = data.draw(st.permutations(range(n)).map(lambda p: p[: data.draw(st.integers(0, n - 1))]))
    places = placings(scores, winner, out)
    after = rate(before, places)
    for seat in range(n):
        change = after[seat].shown - before[seat].shown
        if places[seat] == 1 and places.count(1) == 1:
            assert change >= 0, (places, seat)
        if places[seat] == max(places) and places.count(max(places)) == 1:
            assert change <= 0, (places, seat)
        # Whatever the place, the shown change never goes against the skill's own move.
        assert change * (after[seat].mu - before[seat].mu) >= 0


@given(st.floats(-100, 150), st.floats(-100, 150))
def test_the_shown_rating_follows_mu_only(a: float, b: float) -> None:
    if a <= b:
        assert shown(a) <= shown(b)
    assert Skill(a, 8.0, 0).shown == Skill(a, 1.0, 99).shown
