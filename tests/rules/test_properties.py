"""Invariants of the engine over random deals and random legal play (hypothesis)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from dominohall.rules import (
    PRESET_LIST,
    Game,
    Hand,
    HandOverError,
    IllegalMoveError,
    Move,
    MoveKind,
    Preset,
    play_score,
)
from dominohall.rules.layout import MAX_ARMS
from dominohall.rules.moves import DRAW, PASS
from dominohall.rules.presets import Drawing, GameEnd
from dominohall.rules.tiles import ALL_TILES, BIT, HIGH, LOW, PIPS, TILE_COUNT, tiles_of

from .deals import public_state, snapshot

TABLES = [(p, n) for p in PRESET_LIST for n in p.players]
TABLE_IDS = [f"{p.id}-{n}" for p, n in TABLES]
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
MAX_MOVES = 200  # 28 plays, at most 21 draws, and fewer than n passes between two plays


def random_hand(preset: Preset, players: int, seed: int) -> tuple[Hand, random.Random]:
    game = Game(preset, players, rng=random.Random(seed))
    return game.start_hand(), random.Random(seed + 1)


def random_hand_cut(
    preset: Preset, players: int, seed: int, stop: int, *, over_too: bool = False
) -> tuple[Hand, random.Random]:
    """A random hand played to its end, then taken back to ``stop`` moves modulo its length:
    mid-hand whatever ``stop`` is (or, with ``over_too``, over once in a while)."""
    hand, rng = random_hand(preset, players, seed)
    while not hand.over:
        hand.push(rng.choice(hand.legal_moves()))
    cut = stop % (len(hand.history) + (1 if over_too else 0))
    while len(hand.history) > cut:
        hand.pop()
    return hand, rng


def accounted_for(hand: Hand) -> None:
    """Holdings, the undrawn boneyard and the tiles laid are the 28 tiles, each once."""
    seen: list[int] = []
    for held in hand.holdings:
        seen += tiles_of(held)
    seen += hand.boneyard_left
    seen += [tile for tile, _, _ in hand.layout.chain]
    assert sorted(seen) == list(range(TILE_COUNT))


def candidates(hand: Hand) -> list[Move]:
    """Every move that could be written: each tile as a lead either way round or on each arm
    number, a draw, a pass."""
    moves = [DRAW, PASS]
    for tile in range(TILE_COUNT):
        moves += [Move.lead(tile, HIGH[tile]), Move.lead(tile, LOW[tile])]
        moves += [Move.play(tile, arm) for arm in range(MAX_ARMS)]
    return moves


def expected_moves(hand: Hand) -> set[tuple[object, ...]]:
    """The legal moves as RULES.md 1 reads, with the open ends from the second reading below."""
    held = tiles_of(hand.holdings[hand.turn])
    layout = hand.layout
    if layout.empty:
        if hand.must_lead >= 0:
            return {("lead", hand.must_lead)}
        return {("lead", t) for t in held}
    reading = SecondReading(hand.preset, layout.chain)
    fits: set[tuple[object, ...]] = {
        ("play", t, arm)
        for t in held
        for arm in reading.open
        if reading.ends[arm][0] in (HIGH[t], LOW[t])
    }
    if fits:
        return fits
    can_draw = hand.preset.drawing is Drawing.UNTIL_FITS and hand.drawable > 0
    return {("draw",)} if can_draw else {("pass",)}


def key(move: Move) -> tuple[object, ...]:
    """A move up to the lead's orientation (either half may face arm 0)."""
    if move.kind is MoveKind.DRAW:
        return ("draw",)
    if move.kind is MoveKind.PASS:
        return ("pass",)
    if move.arm is None:
        return ("lead", move.tile)
    return ("play", move.tile, move.arm)


def play_out(hand: Hand, rng: random.Random, check: bool = False) -> int:
    """Random legal moves to the end of the hand; returns how many were made."""
    for count in range(MAX_MOVES):
        if hand.over:
            return count
        if check:
            accounted_for(hand)
        hand.push(rng.choice(hand.legal_moves()))
    raise AssertionError(f"the hand did not end within {MAX_MOVES} moves")


def game_hands(preset: Preset, players: int, seed: int, limit: int = 30) -> Iterator[Hand]:
    """The hands of a random game, each for the caller to play out (the game settles them)."""
    game = Game(preset, players, rng=random.Random(seed))
    for _ in range(limit):
        if game.finished:
            return
        hand = game.start_hand()
        yield hand
        assert hand.over
        game.end_hand()


@settings(max_examples=200, deadline=None)
@given(table=st.sampled_from(TABLES), seed=SEEDS)
def test_the_28_tiles_are_always_all_accounted_for(table: tuple[Preset, int], seed: int) -> None:
    hand, rng = random_hand(*table, seed)
    play_out(hand, rng, check=True)
    accounted_for(hand)


@settings(max_examples=200, deadline=None)
@given(table=st.sampled_from(TABLES), seed=SEEDS)
def test_push_then_pop_restores_the_state_exactly(table: tuple[Preset, int], seed: int) -> None:
    hand, rng = random_hand(*table, seed)
    states = [snapshot(hand)]
    while not hand.over:
        for move in hand.legal_moves():
            # A draw comes back naming the tile it drew.
            made = Move.draw(hand.boneyard_left[0]) if move.kind is MoveKind.DRAW else move
            hand.push(move)
            assert hand.pop() == made
            assert snapshot(hand) == states[-1]
        hand.push(rng.choice(hand.legal_moves()))
        states.append(snapshot(hand))
    while hand.history:
        states.pop()
        hand.pop()
        assert snapshot(hand) == states[-1]


@settings(max_examples=100, deadline=None)
@given(table=st.sampled_from(TABLES), seed=SEEDS)
def test_every_legal_move_fits_and_every_fitting_move_is_legal(
    table: tuple[Preset, int], seed: int
) -> None:
    """legal_moves() against a brute force over every (tile, arm), the lead either way round, a
    draw and a pass, through is_legal and push. legal_moves() offers each lead once (its high
    half facing arm 0); the other orientation is legal too, so leads are compared by tile."""
    hand, rng = random_hand(*table, seed)
    every = candidates(hand)
    while not hand.over:
        offered = hand.legal_moves()
        assert len(set(offered)) == len(offered)
        legal = []
        for move in every:
            if hand.is_legal(move):
                legal.append(move)
                before = snapshot(hand)
                hand.push(move)
                hand.pop()
                assert snapshot(hand) == before
            elif move.kind is MoveKind.PLAY and not hand.holdings[hand.turn] & BIT[move.tile]:
                continue  # a tile the player does not hold: checked cheaply below
            else:
                with pytest.raises(IllegalMoveError):
                    hand.push(move)
        assert {key(m) for m in legal} == {key(m) for m in offered} == expected_moves(hand)
        assert all(hand.is_legal(m) for m in offered)
        hand.push(rng.choice(offered))
    assert not any(hand.is_legal(m) for m in every)
    with pytest.raises(HandOverError):
        hand.push(PASS)


@pytest.mark.parametrize(("preset", "players"), TABLES, ids=TABLE_IDS)
@settings(max_examples=30, deadline=None)
@given(seed=SEEDS)
def test_every_random_hand_of_every_preset_ends(preset: Preset, players: int, seed: int) -> None:
    hand, rng = random_hand(preset, players, seed)
    play_out(hand, rng)
    result = hand.result
    assert result is not None
    if result.cut_short:
        assert preset.game_end in (GameEnd.IMMEDIATE, GameEnd.EXACT)
        assert hand.reached_target is not None
    elif result.blocked:
        assert hand.passes == players
        if preset.drawing is Drawing.UNTIL_FITS:
            assert hand.drawable == 0
    else:
        assert result.winner is not None and hand.holdings[result.winner] == 0
    held = 0
    for h in hand.holdings:
        held |= h
    assert (
        held
        | sum(BIT[t] for t in hand.boneyard_left)
        | sum(BIT[t] for t, _, _ in hand.layout.chain)
        == ALL_TILES
    )


# Cross Draw's game is a random walk between the -25 floor and the target: with 2 players, 3 of
# 2,000 random games took over 200 hands (the longest 231). 1,000 keeps chance from failing the
# test while a game that can never end still does.
MAX_HANDS = 1000


def play_game(preset: Preset, players: int, seed: int) -> Game:
    game = Game(preset, players, rng=random.Random(seed))
    rng = random.Random(seed + 1)
    for _ in range(MAX_HANDS):
        hand = game.start_hand()
        play_out(hand, rng)
        game.end_hand()
        if game.finished:
            return game
        assert not should_end(game), f"the game should have ended: {game.scores}"
    raise AssertionError(f"the game did not end within {MAX_HANDS} hands")


def should_end(game: Game) -> bool:
    """Whether RULES.md 5 ends the game with these scores at the end of a hand."""
    scores, target, preset = game.scores, game.target, game.preset
    if preset.game_end is GameEnd.EXACT:
        return target in scores
    if preset.game_end is GameEnd.IMMEDIATE:
        return max(scores) >= target
    fell = preset.floor is not None and min(scores) <= preset.floor
    return (max(scores) >= target or fell) and scores.count(max(scores)) == 1


@pytest.mark.parametrize(("preset", "players"), TABLES, ids=TABLE_IDS)
@settings(max_examples=8, deadline=None)
@given(seed=SEEDS)
def test_random_games_end_within_a_bounded_number_of_hands(
    preset: Preset, players: int, seed: int
) -> None:
    game = play_game(preset, players, seed)
    scores = game.scores
    assert game.winner is not None
    winner_side = preset.side_of(game.winner)
    assert game.winner == min(s for s in range(players) if preset.side_of(s) == winner_side)
    if preset.game_end is GameEnd.EXACT:
        assert scores[winner_side] == game.target
        assert max(scores) == game.target
    elif preset.game_end is GameEnd.IMMEDIATE:
        assert scores[winner_side] >= game.target
    else:
        assert scores.count(max(scores)) == 1 and scores[winner_side] == max(scores)
        fell = preset.floor is not None and min(scores) <= preset.floor
        assert max(scores) >= game.target or fell


# A second reading of the layout -------------------------------------------------------------


class SecondReading:
    """The layout rebuilt from its chain of tiles, straight from RULES.md 2 and DESIGN.md: which
    arms are open, the number at each open end, and the count of the ends."""

    def __init__(self, preset: Preset, chain: list[tuple[int, int, int]]) -> None:
        kind = preset.layout.value
        lead, _, first = chain[0]
        self.lead = lead
        self.ends: dict[int, tuple[int, int | None]] = {
            0: (first, None),
            1: (other(lead, first), None),
        }
        self.open = [0, 1]
        spinners = 0

        def is_spinner(tile: int) -> bool:
            double = HIGH[tile] == LOW[tile]
            return double and (kind == "all_doubles_spinners" or (kind != "line" and not spinners))

        next_arm = 2
        lead_ends_waiting = is_spinner(lead)
        if lead_ends_waiting:
            spinners += 1
            next_arm = 4
        waiting: dict[int, int] = {}  # arm -> the first of the two arms its end spinner opens
        for tile, arm, facing in chain[1:]:
            assert arm in self.open and self.ends[arm][0] == facing
            if arm in waiting:  # this tile covers the far side of the spinner at the arm's end
                ends = waiting.pop(arm)
                self.open += [ends, ends + 1]
            self.ends[arm] = (other(tile, facing), tile)
            if is_spinner(tile):
                spinners += 1
                waiting[arm] = next_arm
                self.ends[next_arm] = self.ends[next_arm + 1] = (facing, None)
                next_arm += 2
            if lead_ends_waiting and self.ends[0][1] is not None and self.ends[1][1] is not None:
                lead_ends_waiting = False
                self.open += [2, 3]
                self.ends[2] = self.ends[3] = (first, None)

    def faces(self) -> list[int]:
        """The numbers showing at the ends that count, a double's number twice."""
        faces: list[int] = []
        lead_double = HIGH[self.lead] == LOW[self.lead]
        lead_counted = False
        for arm in self.open:
            number, last = self.ends[arm]
            if last is None and arm >= 2:
                continue  # a spinner's end with no tile on it yet
            if last is None and lead_double:
                if not lead_counted:
                    faces += [number, number]
                    lead_counted = True
            elif last is not None and HIGH[last] == LOW[last]:
                faces += [number, number]
            else:
                faces.append(number)
        return faces

    def score(self, preset: Preset) -> int:
        faces = self.faces()
        total = sum(faces)
        units = preset.count_value.value == "units"
        count = preset.count.value
        if count == "headers":
            best = max(faces.count(n) for n in range(7))
            return best if best >= 2 else 0
        points = 0
        for divisor, counted in ((5, ("fives", "fives_threes")), (3, ("threes", "fives_threes"))):
            if count in counted and total > 0 and total % divisor == 0:
                points += total // divisor if units else total
        return points


def other(tile: int, number: int) -> int:
    return LOW[tile] if HIGH[tile] == number else HIGH[tile]


@settings(max_examples=150, deadline=None)
@given(table=st.sampled_from(TABLES), seed=SEEDS)
def test_open_ends_and_counts_agree_with_a_second_reading_of_the_rules(
    table: tuple[Preset, int], seed: int
) -> None:
    """After every play of a random game: the open arms and their numbers, the count, and the
    points the play scored (none where an exact target would be passed), as a second reading
    rebuilt from the chain of tiles says."""
    preset, players = table
    rng = random.Random(seed + 1)
    for hand in game_hands(preset, players, seed):
        while not hand.over:
            seat = hand.turn
            side = preset.side_of(seat)
            before = hand.scores[side]
            move = rng.choice(hand.legal_moves())
            hand.push(move)
            if move.kind is not MoveKind.PLAY:
                continue
            reading = SecondReading(preset, hand.layout.chain)
            layout = hand.layout
            assert sorted(layout.open_arms) == sorted(reading.open)
            assert {k: layout.tips[k] for k in layout.open_arms} == {
                k: reading.ends[k][0] for k in reading.open
            }
            if preset.count.value == "none":
                continue
            score = reading.score(preset)
            if preset.count.value != "headers":
                assert layout.count_total() == sum(reading.faces())
            assert play_score(preset, layout) == score
            if not hand.holdings[seat]:
                continue  # going out: the count and the bonus together, checked below
            if preset.game_end is GameEnd.EXACT and before + score > hand.target:
                score = 0
            assert hand.scores[side] - before == score


# A second reading of the end of a hand ------------------------------------------------------


def nearest_five(x: int) -> int:
    return x - x % 5 + (5 if x % 5 >= 3 else 0)


def expected_end(preset: Preset, pips: list[int], out: int | None) -> tuple[int | None, list[int]]:
    """(winner, points each side gains from the bonus and penalties) by RULES.md 4, for a hand
    that ``out`` went out of, or that blocked (``out`` None) with ``pips`` left in each hand."""
    n = len(pips)
    sides = 2 if preset.teams else n
    gains = [0] * sides
    bonus = preset.bonus.value
    if bonus == "team":
        team = [pips[0] + pips[2], pips[1] + pips[3]]
        if out is not None:
            side = out % 2
            winner: int | None = out
        elif team[0] == team[1]:
            return None, gains
        else:
            side = 0 if team[0] < team[1] else 1
            winner = side if pips[side] <= pips[side + 2] else side + 2
        gains[side] = team[1 - side]
        return winner, gains
    if out is not None:
        winner = out
    else:
        fewest = min(pips)
        if pips.count(fewest) > 1:
            return None, gains
        winner = pips.index(fewest)
    others = sum(pips) - pips[winner]
    gains[winner] = {
        "others": others,
        "others_r5": nearest_five(others),
        "all_units": nearest_five(sum(pips)) // 5,
        "net_units": nearest_five(others - pips[winner]) // 5,
        "net_penalty": nearest_five(others - pips[winner]) // 5,
    }[bonus]
    if bonus == "net_penalty":
        for seat in range(n):
            if seat != winner:
                gains[seat] -= nearest_five(pips[seat]) // 5
    return winner, gains


@settings(max_examples=150, deadline=None)
@given(table=st.sampled_from(TABLES), seed=SEEDS)
def test_the_end_of_every_hand_agrees_with_a_second_reading_of_the_rules(
    table: tuple[Preset, int], seed: int
) -> None:
    """For every hand of a random game: the winner, and what the last move scored: the
    going-out play's count plus the bonus (or a blocked hand's bonus), the penalties, and
    nothing at all where that would pass an exact target."""
    preset, players = table
    rng = random.Random(seed + 1)
    for hand in game_hands(preset, players, seed):
        while True:
            before = list(hand.scores)
            seat = hand.turn
            move = rng.choice(hand.legal_moves())
            hand.push(move)
            if hand.over:
                break
        result = hand.result
        assert result is not None
        if result.cut_short:
            assert hand.reached_target is not None
            continue  # the game ended on a play's count (see test_game)
        pips = [sum(PIPS[t] for t in tiles_of(h)) for h in hand.holdings]
        out = None if result.blocked else seat
        assert result.blocked == (move.kind is MoveKind.PASS)
        winner, gains = expected_end(preset, pips, out)
        assert result.winner == winner
        count = play_score(preset, hand.layout) if out is not None else 0
        side = preset.side_of(seat if winner is None else winner)
        gains[side] += count
        expected = [b + g for b, g in zip(before, gains, strict=True)]
        if preset.game_end is GameEnd.EXACT and expected[side] > hand.target:
            expected[side] = before[side]  # the count and the bonus form one score: thrown away
            assert result.bonus == 0
        elif winner is not None:
            assert result.bonus == gains[side] - count
        assert hand.scores == expected


@settings(max_examples=100, deadline=None)
@given(table=st.sampled_from(TABLES), seed=SEEDS, stop=st.integers(min_value=0, max_value=60))
def test_a_view_with_the_true_hidden_tiles_plays_on_exactly_like_the_hand(
    table: tuple[Preset, int], seed: int, stop: int
) -> None:
    """What a bot searches from (``view.hand_with``) is the hand itself when its guess is right."""
    hand, rng = random_hand_cut(*table, seed, stop)
    assert not hand.over
    view = hand.view(hand.turn)
    guess = view.hand_with(list(hand.holdings), hand.boneyard_left)
    while not hand.over:
        assert guess.legal_moves() == hand.legal_moves() == view.legal_moves()
        move = rng.choice(hand.legal_moves())
        hand.push(move)
        guess.push(move)
        view = hand.view(hand.turn)
    assert (guess.result, guess.scores, guess.points) == (hand.result, hand.scores, hand.points)


@settings(max_examples=150, deadline=None)
@given(
    table=st.sampled_from(TABLES),
    seed=SEEDS,
    stop=st.integers(min_value=1, max_value=60),
    shuffle=SEEDS,
)
def test_a_view_is_the_same_whatever_the_tiles_hidden_from_its_seat_are(
    table: tuple[Preset, int], seed: int, stop: int, shuffle: int
) -> None:
    """Shuffle the tiles a seat cannot see (other hands, the boneyard) in the deal and replay the
    same public moves: where that replay is legal, the seat's view does not change."""
    preset, players = table
    hand, rng = random_hand_cut(preset, players, seed, stop, over_too=True)
    event("over" if hand.over else "mid-hand")
    viewer = rng.randrange(players)
    hidden = [t for s in range(players) if s != viewer for t in tiles_of(hand.holdings[s])]
    hidden += hand.boneyard_left
    if hand.over:
        hidden = hand.boneyard_left  # once the hand is over every hand is shown
    moved = hidden[:]
    random.Random(shuffle).shuffle(moved)
    assume(moved != hidden)  # a shuffle that changes nothing tests nothing
    swap = dict(zip(hidden, moved, strict=True))
    dealt = [
        held if s == viewer else sum(BIT[swap.get(t, t)] for t in tiles_of(held))
        for s, held in enumerate(hand.dealt)
    ]
    other = Hand(
        preset,
        dealt,
        [swap.get(t, t) for t in hand.boneyard],
        hand.leader,
        target=hand.target,
        must_lead=hand.must_lead,
    )
    try:
        for seat, move, *_ in hand.history:
            other.push(DRAW if move.kind is MoveKind.DRAW and seat != viewer else move)
    except IllegalMoveError:
        event("not the same story")
        return  # the shuffled tiles would have changed what was legal
    event("replayed")
    assert public_state(hand.view(viewer)) == public_state(other.view(viewer))
