"""What the page is offered to choose: every timer once with its speed, the turn-based clocks
with their increment and cap, the ranked pools with their timers."""

from __future__ import annotations

from dominohall.hall.options import TIMERS, TURN_BASED, Options
from dominohall.hall.ratings import POOLS
from dominohall.web.offered import pools_json, timers_json


def test_the_timers_list_names_every_timer_once_with_its_speed():
    listed = timers_json()
    assert [t["id"] for t in listed] == list(TIMERS)
    assert {t["id"]: t["speed"] for t in listed} == {t: Options(timer=t).speed for t in TIMERS}
    day = next(t for t in listed if t["id"] == "day")
    assert day["increment"] == TURN_BASED["day"].increment
    assert day["cap"] == TURN_BASED["day"].cap


def test_each_pool_is_offered_with_its_game_and_timers():
    offered = pools_json()
    assert [p["id"] for p in offered] == list(POOLS)
    draw = next(p for p in offered if p["id"] == "draw")
    assert draw["name"] == "Draw" and draw["preset"] == "draw" and draw["players"] == [2, 3, 4]
    assert draw["timers"] == {"real-time": "normal", "turn-based": "day"}
