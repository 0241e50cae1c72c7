"""A turn-based clock's arithmetic: vacations pause it, what was given back is not charged, a
turn's end adds the increment up to the cap, a reminder never comes during a vacation."""

from __future__ import annotations

from dominohall.hall.options import TurnBasedClock
from dominohall.hall.table.clocks import (
    left_after_turn,
    on_vacation_until,
    overlap,
    remind_at,
    runs_out_at,
    used,
)

DAY = 86400.0
CLOCK = TurnBasedClock("day", "A day a move", DAY, 3 * DAY)


def test_overlap_is_the_part_of_a_span_inside_the_window():
    assert overlap(10, 20, None) == 0.0
    assert overlap(10, 20, (15, 30)) == 5.0
    assert overlap(10, 20, (0, 12)) == 2.0
    assert overlap(10, 20, (12, 14)) == 2.0
    assert overlap(10, 20, (20, 30)) == 0.0  # touching is not inside
    assert overlap(10, float("inf"), (15, 30)) == 15.0  # a vacation still to come


def test_a_turn_is_charged_its_time_but_not_the_credit_nor_the_vacation():
    assert used(100, since=40, credit=0, vacation=None) == 60
    assert used(100, since=40, credit=15, vacation=None) == 45
    assert used(100, since=40, credit=0, vacation=(50, 70)) == 40
    assert used(45, since=40, credit=10, vacation=None) == 0.0  # never below nothing


def test_a_turn_s_end_adds_the_increment_up_to_the_cap():
    assert left_after_turn(DAY, 0.25 * DAY, CLOCK) == 1.75 * DAY
    assert left_after_turn(2.9 * DAY, 0.0, CLOCK) == 3 * DAY  # capped
    assert left_after_turn(DAY, 5 * DAY, CLOCK) == DAY  # ran dry: the increment alone


def test_a_vacation_moves_the_clock_s_end_and_the_reminder_past_it():
    assert runs_out_at(since=0, credit=0, left=DAY, vacation=None) == DAY
    assert runs_out_at(since=0, credit=60, left=DAY, vacation=(3600, 7200)) == DAY + 3660
    out = runs_out_at(0, 0, DAY, None)
    assert remind_at(out, CLOCK, None) == DAY - 0.75 * DAY
    assert remind_at(out, CLOCK, (0, 0.5 * DAY)) == 0.5 * DAY  # not while away


def test_on_vacation_until_its_end_only_while_within_it():
    assert on_vacation_until(None, 5) is None
    assert on_vacation_until((10, 20), 9.9) is None
    assert on_vacation_until((10, 20), 10) == 20
    assert on_vacation_until((10, 20), 20) is None
