"""Email notices' own words: the time left as a player reads it, and which turn of a game a
notice is for (so that each turn is emailed once, whatever the restarts)."""

from __future__ import annotations

import pytest

from dominohall.hall import Options
from dominohall.hall.mail_notices import time_left, turn_of

from .helpers import ANN, BOB, play_first, running_hall, started_table, whose_turn

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    ("seconds", "said"),
    [
        (0, "0 s"),
        (-5, "0 s"),
        (24.2, "25 s"),  # rounded up: never less time than there is
        (60, "1 min"),
        (12 * 60 + 59.5, "13 min"),
        (3600, "1 h"),
        (4 * 3600 + 12 * 60, "4 h 12 min"),
        (86400, "1 day"),
        (86400 + 3 * 3600 + 59, "1 day 3 h"),
        (2 * 86400 + 3 * 3600, "2 days 3 h"),
        (3 * 86400, "3 days"),
    ],
)
def test_the_time_left_is_said_in_its_two_largest_units_at_most(seconds, said):
    assert time_left(seconds) == said


@pytest.mark.parametrize(
    ("seconds", "tag", "said"),
    [
        (86400, "es", "1 día"),
        (2 * 86400 + 3600, "es", "2 días 1 h"),
        (86400 + 1, "pt-BR", "1 dia"),  # two units at most: the second is not said
        (3 * 86400 + 7200, "pt-BR", "3 dias 2 h"),
        (12 * 60, "es", "12 min"),
    ],
)
def test_the_time_left_is_said_in_the_players_language(seconds, tag, said):
    assert time_left(seconds, tag) == said


async def test_a_turn_is_named_by_its_hand_and_the_moves_made_in_it(database_url: str):
    async with running_hall(database_url) as hall:
        seating = await hall.create_table(ANN, Options())
        assert turn_of(seating) == ""  # no game yet
        table = await started_table(hall, [ANN, BOB])
        state = (await hall.room(table)).state
        assert turn_of(state) == "1.0"
        await play_first(hall, table, await whose_turn(hall, table, [ANN, BOB]))
        assert turn_of(state) == "1.1"
