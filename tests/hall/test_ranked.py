"""A ranked table's end as a rating change (``ranked.py``): every person seated at the start
rated in the pool and speed of the table, placed as RULES.md 6 says (a seat out of the game
last, a partnership's partners together), nothing for a casual, unfinished or aborted table;
and each seat's rating as players read it, in the table's own pool and speed."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Sequence

import pytest

from dominohall.hall.events import SeatKind
from dominohall.hall.options import Options
from dominohall.hall.ranked import rated_result, shown_ratings
from dominohall.hall.ratings import MU, NEW, SIGMA, Skill
from dominohall.hall.table import TableState
from dominohall.hall.table.parts import Phase, Seat
from dominohall.rules import PRESETS
from dominohall.rules.game import Game
from dominohall.store import Store
from dominohall.store.ratings import StoredRating

pytestmark = pytest.mark.anyio

ANN, BOB, CID, DEE = "p_ann", "p_bob", "p_cid", "p_dee"


def _played(preset: str, players: int, seed: int = 1) -> Game:
    """A game of ``preset`` played to its end, each seat making its first legal move."""
    game = Game(PRESETS[preset], players, rng=random.Random(seed))
    hand = game.start_hand()
    while not game.finished:
        if hand.over:
            hand = game.start_hand()
        hand.push(hand.legal_moves()[0])
        if hand.over:
            game.end_hand()
    return game


def _table(
    seats: Sequence[Seat],
    *,
    ranked: str | None = "draw",
    timer: str = "normal",
    game: Game | None = None,
    reason: str | None = "rules",
    placed_last: Sequence[int] = (),
) -> TableState:
    """A table with these seats and options; finished for ``reason`` (None: still playing)."""
    state = TableState("t1")
    preset = ranked or "draw"
    state.options = Options(
        preset, PRESETS[preset].default_target, len(seats), timer, False, ranked
    )
    state.seats = list(seats)
    state.game = game
    if reason is not None and game is not None:
        state.phase = Phase.FINISHED
        state.result = {"reason": reason, "winner": game.winner, "placed_last": list(placed_last)}
    return state


def _person(seat: int, player: str) -> Seat:
    return Seat(seat, SeatKind.HUMAN, player, player[2:].title())


def test_every_person_seated_at_the_start_is_rated_by_place() -> None:
    """A three-player draw game: a seat a computer took over is still its person's, rated; a
    seat out of the game is placed last whatever its score (here the one that scored most)."""
    game = _played("draw", 3)
    assert game.seat_scores() == [0, 0, 99] and game.winner == 2
    taken_over = Seat(2, SeatKind.BOT, CID, "Cid", bot="normal", out="left")
    state = _table([_person(0, ANN), _person(1, BOB), taken_over], game=game)
    rated = rated_result(state)
    assert rated is not None
    assert (rated.pool, rated.speed, rated.players) == ("draw", "real-time", (ANN, BOB, CID))
    assert rated.places == (2, 2, 1)  # the winner first, the others tied on 0
    assert rated.new == (MU, SIGMA)
    [winner_mu, _] = rated.update([(MU, SIGMA, 0)] * 3)[2]
    assert winner_mu > MU

    out_first = _table([_person(0, ANN), _person(1, BOB), taken_over], game=game, placed_last=[2])
    rated = rated_result(out_first)
    assert rated is not None and rated.places == (1, 1, 3)


def test_partners_share_their_place_and_a_turn_based_table_rates_its_own_speed() -> None:
    game = _played("partnership", 4)
    assert game.seat_scores() == [84, 134, 84, 134]
    people = [_person(i, p) for i, p in enumerate((ANN, BOB, CID, DEE))]
    rated = rated_result(_table(people, ranked="partnership", game=game))
    assert rated is not None and rated.places == (3, 1, 3, 1)
    # Bob out of the game first: his team is placed below, partner and all.
    rated = rated_result(_table(people, ranked="partnership", game=game, placed_last=[1]))
    assert rated is not None and rated.places == (1, 3, 1, 3)
    rated = rated_result(_table(people, ranked="partnership", timer="day", game=game))
    assert rated is not None and (rated.pool, rated.speed) == ("partnership", "turn-based")


def test_a_casual_unfinished_aborted_or_unmatched_table_is_not_rated() -> None:
    game = _played("draw", 2)
    people = [_person(0, ANN), _person(1, BOB)]
    assert rated_result(_table(people, game=game)) is not None  # (the case the others vary)
    assert rated_result(_table(people, ranked=None, game=game)) is None
    assert rated_result(_table(people, game=game, reason=None)) is None
    assert rated_result(_table(people, game=game, reason="aborted")) is None
    assert rated_result(_table(people, game=None)) is None  # closed before any game
    # A computer player seated from the start (no person's id): not a table matchmaking made.
    computer = Seat(1, SeatKind.BOT, None, "Normal", bot="normal")
    assert rated_result(_table([people[0], computer], game=game)) is None


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    store = await Store.open(database_url)
    yield store
    await store.close()


async def test_each_seat_shows_its_rating_in_the_tables_pool_and_speed(store: Store) -> None:
    """Ann's draw rating at real time is shown; Bob's ratings are of another pool and of
    another speed, so he is new here; a casual table shows none."""
    await store.ratings.put(StoredRating(ANN, "draw", "real-time", 27.0, 2.0, 12, 0.0))
    await store.ratings.put(StoredRating(BOB, "block", "real-time", 30.0, 2.0, 12, 0.0))
    await store.ratings.put(StoredRating(BOB, "draw", "turn-based", 31.0, 2.0, 12, 0.0))
    empty = Seat(2, SeatKind.EMPTY)
    seats = [_person(0, ANN), _person(1, BOB), empty]
    shown = await shown_ratings(store.ratings, _table(seats, reason=None))
    assert shown == {ANN: Skill(27.0, 2.0, 12).label, BOB: NEW.label}
    assert shown[ANN] == "1559" and shown[BOB] == "1500?"
    turn_based = await shown_ratings(store.ratings, _table(seats, timer="day", reason=None))
    assert turn_based == {ANN: NEW.label, BOB: Skill(31.0, 2.0, 12).label}
    assert await shown_ratings(store.ratings, _table(seats, ranked=None, reason=None)) == {}
