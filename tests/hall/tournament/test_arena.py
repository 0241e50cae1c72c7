"""The arena (docs/tournaments.md): points and streaks, the allowed pairings, each round a maximum
matching of least cost (checked against an exact search of our own), and a simulated tournament of
64 players on a hand-driven clock."""

from __future__ import annotations

import doctest
import random
from functools import lru_cache

import pytest

from dominohall.hall.tournament import arena, matching
from dominohall.hall.tournament.arena import Arena, ArenaError, Outcome, outcomes_by_place, points


def test_the_examples_in_the_modules_run() -> None:
    for module in (arena, matching):
        result = doctest.testmod(module, report=False)
        assert result.attempted > 0 and result.failed == 0


def best_by_search(nodes: list[str], costs: dict[tuple[str, str], int]) -> tuple[int, int]:
    """(the most pairs, their least cost) by exhaustive search: the first node left unpaired or
    paired with each allowed partner in turn (no blossoms: independent of ``matching.py``)."""
    index = {n: i for i, n in enumerate(nodes)}
    edges = {(index[a], index[b]): c for (a, b), c in costs.items()}
    edges |= {(j, i): c for (i, j), c in edges.items()}

    @lru_cache(maxsize=200_000)
    def go(remaining: frozenset[int]) -> tuple[int, int]:
        if len(remaining) < 2:
            return (0, 0)
        first = min(remaining)
        rest = remaining - {first}
        best = go(rest)
        for other in rest:
            cost = edges.get((first, other))
            if cost is not None:
                n, neg = go(rest - {other})
                best = max(best, (n + 1, neg - cost))
        return best

    pairs, neg = go(frozenset(range(len(nodes))))
    assert go.cache_info().currsize < 200_000, "the search grew too large to be exhaustive"
    return pairs, -neg


def test_points_double_on_fire_until_a_game_is_not_won() -> None:
    a = Arena(0.0, 3600.0)
    a.join("ann", 1500, 0.0)
    a.join("bob", 1500, 0.0)
    sequence = [Outcome.WIN, Outcome.WIN, Outcome.WIN, Outcome.DRAW, Outcome.WIN, Outcome.LOSS]
    got = []
    for i, outcome in enumerate(sequence):
        a.opened(f"g{i}", ["ann", "bob"])
        other = {Outcome.WIN: Outcome.LOSS, Outcome.DRAW: Outcome.DRAW, Outcome.LOSS: Outcome.WIN}
        got.append(a.finish(f"g{i}", {"ann": outcome, "bob": other[outcome]}, 1.0)["ann"])
    # two wins, then on fire: 4; a draw on fire is 2 and ends the run; then 2 again, then 0
    assert got == [2, 2, 4, 2, 2, 0]
    assert a.entrants["ann"].score == 12 and a.entrants["ann"].streak == 0
    assert (points(Outcome.DRAW, 1), points(Outcome.LOSS, 3)) == (1, 0)
    assert outcomes_by_place({"a": 1, "b": 2, "c": 2, "d": 4}) == {
        "a": Outcome.WIN,
        "b": Outcome.DRAW,
        "c": Outcome.DRAW,
        "d": Outcome.LOSS,
    }


def test_the_last_opponent_is_never_met_again_unless_only_two_are_active() -> None:
    a = Arena(0.0, 3600.0)
    for who in ("ann", "bob", "cy"):
        a.join(who, 1500, 0.0)
    a.opened("g1", ["ann", "bob"])
    a.finish("g1", {"ann": Outcome.WIN, "bob": Outcome.LOSS}, 5.0)
    a.pause("cy")  # cy playing elsewhere or paused: only ann and bob active
    assert [p.entrants for p in a.pair(5.0)] == [("ann", "bob")]
    a.join("cy", 1500, 5.0)  # three active: ann and bob may not meet again
    a.opened("g2", ["bob", "cy"])  # (cy busy; ann and bob the only ones waiting)
    assert a.pair(6.0) == []
    a.finish("g2", {"bob": Outcome.WIN, "cy": Outcome.LOSS}, 7.0)
    assert [set(p.entrants) for p in a.pair(7.0)] == [{"ann", "cy"}]


def _play_table(a: Arena, game: str, table: tuple[str, ...], now: float) -> None:
    a.opened(game, table)
    places = {who: i + 1 for i, who in enumerate(table)}
    a.finish(game, outcomes_by_place(places), now)


def test_a_table_of_four_is_never_the_same_last_table_unless_only_four_are_active() -> None:
    a = Arena(0.0, 3600.0, seats=4)
    for who in "abcd":
        a.join(who, 1500, 0.0)
    [first] = a.pair(0.0)
    _play_table(a, "g1", first.entrants, 5.0)
    [again] = a.pair(5.0)  # only four active: the same table again
    assert set(again.entrants) == set("abcd")
    _play_table(a, "g2", again.entrants, 6.0)
    a.join("e", 1400, 6.0)  # five active: not abcd again, so e sits in
    [table] = a.pair(6.0)
    assert "e" in table.entrants and not a.same_table_again(table.entrants)
    a.opened("g3", table.entrants)
    assert a.pair(7.0) == []  # (one left waiting: no table)


def test_tables_of_three_mix_players_who_have_not_just_met() -> None:
    a = Arena(0.0, 3600.0, seats=3)
    for i, who in enumerate("abcdef"):
        a.join(who, 2000 - i, 0.0)
    first = [p.entrants for p in a.pair(0.0)]
    assert first == [("a", "b", "c"), ("d", "e", "f")]  # by rank at the start
    for k, table in enumerate(first):
        _play_table(a, f"g{k}", table, 5.0)
    second = [set(p.entrants) for p in a.pair(5.0)]
    assert len(second) == 2
    for table in second:  # each new table: two of one last table at most (one repeat)
        assert max(len(table & set("abc")), len(table & set("def"))) == 2


@pytest.mark.parametrize("seats", [3, 4])
@pytest.mark.parametrize("seed", range(3))
def test_no_table_of_three_or_four_repeats_an_entrants_last_table(seats: int, seed: int) -> None:
    rng = random.Random(seed)
    a = Arena(0.0, 36_000.0, seats=seats)
    for i in range(rng.randrange(seats + 1, 3 * seats)):
        a.join(f"p{i}", rng.randrange(1200, 1800), 0.0)
    now, opened, n = 0.0, 0, 0
    for _ in range(60):
        for pairing in a.pair(now):
            assert not a.same_table_again(pairing.entrants)
            a.opened(f"g{n}", pairing.entrants)
            n += 1
            opened += 1
        for game, table in list(a.games.items()):
            if rng.random() < 0.5:
                order = list(table)
                rng.shuffle(order)
                a.finish(game, outcomes_by_place({w: i + 1 for i, w in enumerate(order)}), now)
        now += 5.0
    assert opened > 20  # (the rule never stalled the arena)


def test_a_pairing_is_allowed_within_the_windows_and_costs_rank_and_rating_gaps() -> None:
    a = Arena(0.0, 3600.0)
    for i in range(10):
        a.join(f"p{i}", 2000 - 10 * i, 0.0)  # ranks 0..9 by rating
    costs = a.allowed(0.0)
    assert ("p0", "p6") in costs and ("p0", "p7") not in costs  # windows 3 + 3
    assert costs[("p0", "p6")] == 100 * 6 + 6
    a.entrants["p0"].waiting_since = -20.0  # waited 20 s: two ranks wider
    assert ("p0", "p8") in a.allowed(0.0) and ("p0", "p9") not in a.allowed(0.0)


def test_pairings_close_before_the_end_and_a_game_running_at_the_end_counts() -> None:
    a = Arena(100.0, 1000.0, closing=60.0)
    a.join("ann", 1500, 0.0)
    a.join("bob", 1500, 0.0)
    assert a.pair(50.0) == []  # before the start
    assert a.cap_at(900.0) == 2 and a.cap_at(900.0, 1) == 1 and a.cap_at(999.5) == 1
    assert [p.entrants for p in a.pair(939.0)] == [("ann", "bob")]
    a.opened("g", ["ann", "bob"])
    a.finish("g", {"ann": Outcome.LOSS, "bob": Outcome.WIN}, 1100.0)  # after the end: counts
    assert a.entrants["bob"].score == 2
    assert a.pair(940.0) == []  # pairings closed
    with pytest.raises(ArenaError):
        a.join("cy", 1500, 1000.0)


def test_no_entrant_is_in_two_games_and_results_name_the_game_players() -> None:
    a = Arena(0.0, 100.0)
    for who in ("ann", "bob", "cy"):
        a.join(who, 1500, 0.0)
    a.opened("g1", ["ann", "bob"])
    with pytest.raises(ArenaError, match="'ann' is playing 'g1' already"):
        a.opened("g2", ["ann", "cy"])
    with pytest.raises(ArenaError, match="was played by"):
        a.finish("g1", {"ann": Outcome.WIN, "cy": Outcome.LOSS}, 1.0)


@pytest.mark.parametrize("seed", range(40))
def test_each_round_pairs_as_many_as_allowed_at_the_least_cost(seed: int) -> None:
    rng = random.Random(seed)
    a = Arena(0.0, 3600.0)
    n = rng.randint(2, 11)
    for i in range(n):
        a.join(f"p{i}", rng.randint(1200, 1800), -rng.uniform(0, 40))
        a.entrants[f"p{i}"].score = rng.randint(0, 8)
        others = [f"p{j}" for j in range(n) if j != i]
        a.entrants[f"p{i}"].last_opponents = frozenset(rng.sample(others, 1))
    for i in rng.sample(range(n), rng.randint(0, n // 3)):
        a.pause(f"p{i}")
    costs = a.allowed(0.0)
    round_ = a.pair(0.0)
    ranks = a.ranks()
    waiting = sorted((e.id for e in a.waiting()), key=ranks.__getitem__)
    assert (len(round_), sum(p.cost for p in round_)) == best_by_search(waiting, costs)
    seen = [x for p in round_ for x in p.entrants]
    assert len(seen) == len(set(seen)) and set(seen) <= set(waiting)


def _recompute(log: list[dict[str, Outcome]]) -> dict[str, int]:
    """The scores again, from each game's results in the order they ended."""
    score: dict[str, int] = {}
    run: dict[str, int] = {}
    for game in log:
        for who, outcome in game.items():
            value = {Outcome.WIN: 2, Outcome.DRAW: 1, Outcome.LOSS: 0}[outcome]
            if run.get(who, 0) >= 2:
                value *= 2
            score[who] = score.get(who, 0) + value
            run[who] = run.get(who, 0) + 1 if outcome is Outcome.WIN else 0
    return score


def test_a_simulated_arena_of_64_players() -> None:
    rng = random.Random(2025)
    start, end = 0.0, 1800.0
    a = Arena(start, end, closing=30.0)
    for i in range(64):
        a.join(f"p{i:02}", rng.gauss(1500, 200), start)
    running: dict[str, tuple[float, tuple[str, ...]]] = {}  # game -> (when it ends, players)
    log: list[dict[str, Outcome]] = []
    busy: set[str] = set()
    rounds = checked = 0
    now, number = start, 0
    while now < end + 600 and (now < end or running):
        for game, (ends, players) in sorted(running.items()):
            if ends <= now:
                del running[game]
                roll = rng.random()
                first, second = (
                    (Outcome.DRAW, Outcome.DRAW)
                    if roll < 0.1
                    else (Outcome.WIN, Outcome.LOSS)
                    if roll < 0.55
                    else (Outcome.LOSS, Outcome.WIN)
                )
                outcome = {players[0]: first, players[1]: second}
                a.finish(game, outcome, now)
                log.append(outcome)
                busy -= set(players)
        if rng.random() < 0.01:  # someone pauses, someone comes back
            who = rng.choice(sorted(a.entrants))
            if a.entrants[who].paused:
                if now < end:
                    a.join(who, a.entrants[who].rating, now)
            else:
                a.pause(who)
        costs = a.allowed(now)
        ranks = a.ranks()  # (the search in rank order: the allowed pairings lie near its diagonal)
        waiting = sorted((e.id for e in a.waiting()), key=ranks.__getitem__)
        round_ = a.pair(now)
        if now >= a.closes:
            assert round_ == []
        else:
            rounds += 1
            assert len(waiting) < 40 or rounds == 1  # (the search below stays small)
            best = best_by_search(waiting, costs)
            checked += 1
            assert (len(round_), sum(p.cost for p in round_)) == best
        for p in round_:
            assert not busy & set(p.entrants), "a player in two games at once"
            number += 1
            game = f"g{number}"
            a.opened(game, p.entrants)
            busy |= set(p.entrants)
            # a game lasts 1 to 6 minutes; its cap would end it by the tournament's end + a hand
            length = rng.uniform(60, 360)
            capped_end = now + a.cap_at(now) * 60 + rng.uniform(0, 90)
            running[game] = (min(now + length, capped_end), p.entrants)
        now += 2.0  # a pairing round every 2 s
    assert not running and checked == rounds > 800
    assert number > 200 and len(log) == number  # every game counted, those over the end too
    scores = _recompute(log)
    assert {e.id: e.score for e in a.entrants.values() if e.games} == scores
    table = a.standings()
    assert [e.score for e in table] == sorted((e.score for e in table), reverse=True)
    assert any(4 in e.sheet for e in table)  # someone was on fire


def test_an_arena_read_back_from_its_json_goes_on_alike() -> None:
    import json

    rng = random.Random(7)
    a = Arena(0.0, 600.0, closing=20.0)
    for i in range(12):
        a.join(f"p{i}", rng.randint(1300, 1700), 0.0)
    for n, p in enumerate(a.pair(0.0)):
        a.opened(f"g{n}", p.entrants)
    a.finish("g0", dict(zip(a.games["g0"], (Outcome.WIN, Outcome.LOSS), strict=True)), 30.0)
    a.pause("p11")
    b = Arena.from_json(json.loads(json.dumps(a.to_json())))
    assert b.to_json() == a.to_json()
    assert a.pair(40.0) == b.pair(40.0) and a.standings() == b.standings()
