"""The swiss (docs/tournaments.md): score groups, no repeated opponents, byes, a no-show withdrawn,
and the standings with their tie-breaks, computed by hand for a small case."""

from __future__ import annotations

import random

import pytest

from dominohall.hall.tournament.swiss import Swiss, SwissError


def _pairs(games) -> list[tuple[str, str]]:
    return [(g.a, g.b) for g in games]


def test_five_entrants_three_rounds_by_hand() -> None:
    s = Swiss(["A", "B", "C", "D", "E"], rounds=3)
    # Round 1, all on 0 in seed order: neighbours paired, the last seed has the bye.
    assert _pairs(s.pair()) == [("A", "B"), ("C", "D")] and s.byes == [(1, "E")]
    s.record("A", "B", 50, 30, "A")
    s.record("D", "C", 45, 20, "D")  # (either order names the game)
    # Points A2 B0 C0 D2 E2. On 2: D (+25), A (+20), E (0); on 0: B (-20), C (-25).
    assert [r.id for r in s.standings()] == ["D", "A", "E", "B", "C"]
    # D-A and B-C would repeat nothing but leave E without a partner of its score and with no
    # second bye: D-A, E-B (a score gap), C's bye (the lowest score group's lowest placed).
    assert _pairs(s.pair()) == [("D", "A"), ("E", "B")] and s.byes[-1] == (2, "C")
    s.record("D", "A", 60, 50, "D")
    s.record("E", "B", 30, 30, None)
    # Points D4 E3 A2 C2 B1; A (+10) above C (-25).
    assert [r.id for r in s.standings()] == ["D", "E", "A", "C", "B"]
    assert _pairs(s.pair()) == [("D", "E"), ("A", "C")] and s.byes[-1] == (3, "B")
    s.record("D", "E", 40, 55, "E")
    s.record("A", "C", 30, 100, "C")
    assert s.finished
    table = {r.id: r for r in s.standings()}
    assert {k: r.points for k, r in table.items()} == {"E": 5, "D": 4, "C": 4, "B": 3, "A": 2}
    assert {k: r.difference for k, r in table.items()} == {
        "E": 15,
        "D": 25 + 10 - 15,
        "C": -25 + 70,
        "B": -20,
        "A": 20 - 10 - 70,
    }
    # Sonneborn-Berger: the final points of each opponent beaten, half of each drawn.
    assert {k: r.sonneborn_berger for k, r in table.items()} == {
        "E": 3 / 2 + 4,
        "D": 4 + 2,
        "C": 2,
        "B": 5 / 2,
        "A": 3,
    }
    # D and C are tied on 4: D beat C (head to head), which goes before C's better difference.
    assert (table["D"].head_to_head, table["C"].head_to_head) == (2, 0)
    assert [r.id for r in s.standings()] == ["E", "D", "C", "B", "A"]
    with pytest.raises(SwissError, match="all 3 rounds are paired"):
        s.pair()


def test_the_difference_then_sonneborn_berger_break_ties_without_head_to_head() -> None:
    s = Swiss(["W", "X", "Y", "Z"], rounds=2)
    assert _pairs(s.pair()) == [("W", "X"), ("Y", "Z")]
    s.record("W", "X", 50, 40, "W")
    s.record("Y", "Z", 50, 40, "Y")
    # W and Y tied on everything but the seed: W first; the round pairs them, and X with Z.
    assert _pairs(s.pair()) == [("W", "Y"), ("X", "Z")]
    s.record("W", "Y", 50, 50, None)
    s.record("X", "Z", 41, 40, "X")
    rows = {r.id: r for r in s.standings()}
    # W and Y on 3 (+10 each, their draw heads nothing); Y's SB: half W (3) + Z (0) = 1.5,
    # W's: X (2) + half Y (3) = 3.5.
    assert (rows["W"].sonneborn_berger, rows["Y"].sonneborn_berger) == (3.5, 1.5)
    assert [r.id for r in s.standings()] == ["W", "Y", "X", "Z"]
    t = Swiss(["W", "X", "Y", "Z"], rounds=1)
    t.pair()
    t.record("W", "X", 50, 40, "W")
    t.record("Y", "Z", 50, 30, "Y")
    assert [r.id for r in t.standings()] == ["Y", "W", "X", "Z"]  # +20 before +10


def test_a_no_show_is_withdrawn_after_the_round_and_the_rest_get_a_bye() -> None:
    s = Swiss(["A", "B", "C", "D"], rounds=3)
    s.pair()
    s.no_show("B", "A")
    s.record("C", "D", 50, 10, "C")
    games = s.pair()
    assert all("B" not in (g.a, g.b) for g in games) and len(games) == 1
    assert s.byes[-1][1] not in ("B",) and [r.id for r in s.standings()][-1] == "B"
    assert next(r for r in s.standings() if r.id == "B").withdrawn


@pytest.mark.parametrize("seed", range(15))
def test_no_repeats_one_bye_each_and_every_active_entrant_plays(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(3, 12)
    names = [f"p{i}" for i in range(n)]
    rounds = min(n - 1, rng.randint(1, 5))
    s = Swiss(names, rounds)
    met: set[frozenset[str]] = set()
    while not s.finished:
        games = s.pair()
        byes = [who for r, who in s.byes if r == s.round]
        seated = [x for g in games for x in (g.a, g.b)] + byes
        assert sorted(seated) == sorted(names) and len(byes) == n % 2
        for g in games:
            assert frozenset((g.a, g.b)) not in met
            met.add(frozenset((g.a, g.b)))
            winner = rng.choice([g.a, g.b, None])
            s.record(g.a, g.b, rng.randint(0, 60), rng.randint(0, 60), winner)
    assert len({who for _, who in s.byes}) == len(s.byes)
    total = sum(r.points for r in s.standings())
    assert total == 2 * (len(s.games) + len(s.byes))


def test_bad_swiss_and_results_are_refused() -> None:
    with pytest.raises(SwissError):
        Swiss(["A"], rounds=1)
    with pytest.raises(SwissError, match="4 entrants play 1 to 3 rounds"):
        Swiss(["A", "B", "C", "D"], rounds=4)
    s = Swiss(["A", "B", "C", "D"], rounds=2)
    s.pair()
    with pytest.raises(SwissError, match="'A'-'C' is not a game of round 1"):
        s.record("A", "C", 1, 0, "A")
    with pytest.raises(SwissError, match="round 1 is not over"):
        s.pair()


def test_a_swiss_read_back_from_its_json_goes_on_alike() -> None:
    import json

    s = Swiss(["A", "B", "C", "D", "E"], rounds=3)
    s.pair()
    s.record("A", "B", 50, 30, "A")
    s.no_show("D", "C")
    t = Swiss.from_json(json.loads(json.dumps(s.to_json())))
    assert t.to_json() == s.to_json() and t.standings() == s.standings()
    assert _pairs(t.pair()) == _pairs(s.pair()) and t.byes == s.byes
