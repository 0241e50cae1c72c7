"""A table's options: chosen with the game's own defaults, refused by name when not offered; the
timer sets the speed; computer players' levels and seats."""

from __future__ import annotations

import pytest

from dominohall.hall.errors import HallError
from dominohall.hall.options import (
    NEXT_HAND_SECONDS,
    TURN_BASED,
    TURN_SECONDS,
    BotLevel,
    Options,
    check_table_bots,
)
from dominohall.rules import PRESETS, get_preset


def refusal(call, *args, **kwargs) -> str:
    with pytest.raises(HallError) as refused:
        call(*args, **kwargs)
    assert refused.value.code == "bad_option"
    return refused.value.message


@pytest.mark.parametrize("preset", list(PRESETS))
def test_each_game_defaults_to_its_own_target_and_seats(preset):
    rules = get_preset(preset)
    chosen = Options.choose(preset=preset)
    assert chosen == Options(
        preset, rules.default_target, 4 if rules.teams else 2, "normal", False, None
    )


def test_nothing_chosen_is_a_casual_public_draw_game_on_the_normal_timer():
    assert Options.choose() == Options()
    assert Options.choose(private=True).private is True


def test_what_the_hall_does_not_offer_is_refused_saying_what_it_does():
    assert "unknown game 'chess' (known: draw, block" in refusal(Options.choose, preset="chess")
    assert refusal(Options.choose, preset="draw", target=75) == "Draw plays to 50, 100, 200, not 75"
    message = refusal(Options.choose, preset="partnership", seats=2)
    assert message == "Partnership seats 4 players, not 2"
    message = refusal(Options.choose, timer="blitz")
    assert message.startswith("the turn timer is one of normal, relaxed, quick, day")
    assert message.endswith("(GET /api/timers), not 'blitz'")


def test_a_turn_based_timer_makes_a_turn_based_table_with_no_wait_between_hands():
    for timer, clock in TURN_BASED.items():
        options = Options.choose(timer=timer)
        assert options.speed == "turn-based"
        assert options.turn_based is clock
        assert options.turn_seconds == clock.increment < clock.cap
        assert options.next_hand_seconds == 0.0
    for timer, seconds in TURN_SECONDS.items():
        options = Options.choose(timer=timer)
        assert options.speed == "real-time"
        assert options.turn_based is None
        assert options.turn_seconds == seconds
        assert options.next_hand_seconds == NEXT_HAND_SECONDS[timer] > 0


def test_options_survive_json_and_only_a_ranked_table_says_its_pool():
    casual = Options.choose(preset="muggins", target=150, seats=3, timer="quick", private=True)
    assert "ranked" not in casual.to_json()
    assert Options.from_json(casual.to_json()) == casual
    ranked = Options(ranked="draw-2")
    assert ranked.to_json()["ranked"] == "draw-2"
    assert Options.from_json(ranked.to_json()) == ranked


def test_a_private_table_is_closed_to_watchers_unless_its_host_opens_it():
    assert Options.choose().watchable and not Options.choose(private=True).watchable
    opened = Options.choose(private=True, open_to_watchers=True)
    closed = Options.choose(open_to_watchers=False)
    assert opened.watchable and not closed.watchable
    for options in (opened, closed):
        assert Options.from_json(options.to_json()) == options
    # A table stored before the option (its log's options without it) keeps the default.
    assert "open_to_watchers" not in Options.choose(private=True).to_json()


def test_a_computer_players_level_is_named_and_a_bad_one_is_refused_saying_where():
    assert BotLevel.named("hard") is BotLevel.HARD
    message = refusal(BotLevel.named, "expert", "seat 2: ")
    assert message == "seat 2: a computer player is easy, normal or hard, not 'expert'"


def test_computer_players_are_one_per_seat_and_never_in_the_creators_seat():
    options = Options.choose(seats=3)
    check_table_bots(options, [None, BotLevel.EASY, None])
    assert "one entry per seat (3)" in refusal(check_table_bots, options, [None, BotLevel.EASY])
    message = refusal(check_table_bots, options, [BotLevel.EASY, None, None])
    assert message == "seat 0 is yours: it cannot hold a computer player"
