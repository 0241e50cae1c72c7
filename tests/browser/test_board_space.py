"""The board gets the room on the table's screen at every size and for every kind of table
(real-time, turn-based, ranked turn-based), and the hand stays whole and easy to touch (issue 21:
the turn-based clocks stretched the player cards and pushed the board into a strip; phones held
sideways had tiles 10 px tall and cut the 11th tile of a hand in half)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from web.live import Budget, Player

from .conftest import Hall
from .players import Person
from .tables import new_table, open_table, play_now, post
from .test_profiles import _run
from .test_ranked_page import _account, _cookie

PHONE = {"width": 390, "height": 844}
SIDEWAYS = {"width": 844, "height": 390}  # a phone held sideways
SIZES = [PHONE, SIDEWAYS, {"width": 1280, "height": 800}, {"width": 1920, "height": 1080}]

# The board's share of the screen's height; the short side of every tile on it as drawn; each
# hand tile's button (its touch target) and whether the tile is whole on the screen.
MEASURE = """() => {
  const W = window.innerWidth, H = window.innerHeight;
  const board = document.querySelector('.board').getBoundingClientRect();
  const hand = document.querySelector('.hand').getBoundingClientRect();
  const tiles = [...document.querySelectorAll('.board .placed rect.body')]
    .map((t) => t.getBoundingClientRect());
  const buttons = [...document.querySelectorAll('.hand-tile')].map((b) => {
    const r = b.getBoundingClientRect();
    const t = b.querySelector('.tile-image').getBoundingClientRect();
    const whole = t.left >= -0.5 && t.right <= W + 0.5 && t.top >= hand.top - 0.5 && t.bottom <= hand.bottom + 0.5
      && t.bottom <= H + 0.5;
    return { width: r.width, height: r.height, whole };
  });
  return {
    share: board.height / H,
    tiles: tiles.map((r) => Math.min(r.width, r.height)),
    buttons,
    sideways: document.documentElement.scrollWidth > W,
  };
}"""


def _play_first_moves(hall: Hall, table: str, people: list[Person], moves: int) -> None:
    """The people at a table make its first `moves` moves (the computer players theirs)."""
    ws = f"ws://127.0.0.1:{hall.port}/ws/tables/{table}"
    budget = Budget(moves)
    players = [Player(ws, _cookie(person)) for person in people]

    async def play() -> None:
        await asyncio.wait_for(asyncio.gather(*(p.play(budget) for p in players)), timeout=30)

    _run(play)


def _measure(person: Person, table: str, size: dict[str, int], artifacts: Path, name: str) -> Any:
    page = person.page
    page.set_viewport_size(size)
    open_table(person, table)  # a reload at this size
    page.wait_for_selector(".board .placed", state="attached")
    page.wait_for_timeout(200)  # the board's size observed, the layout drawn for it
    page.screenshot(
        path=str(artifacts / f"board-space-{name}-{size['width']}x{size['height']}.png")
    )
    return page.evaluate(MEASURE)


def test_the_board_gets_the_room_at_every_size_for_every_kind_of_table(
    hall: Hall, browser: Any, artifacts: Path
) -> None:
    ann = _account(browser, hall, "tess", PHONE)
    bob = _account(browser, hall, "ugo", PHONE)
    ann.page.emulate_media(reduced_motion="reduce")  # the camera in place at once
    real_time = play_now(ann, "draw")
    turn_based = new_table(ann, preset="draw", timer="day", bots=[None, "normal"])
    post(ann, f"/api/tables/{turn_based}/start")
    for person in (ann, bob):
        post(person, "/api/ranked/queue", {"pool": "draw", "players": 2, "speed": "turn-based"})
    [ranked] = [
        t["id"]
        for t in ann.page.request.get(hall.url + "/api/me/tables").json()["tables"]
        if t["id"] not in (real_time, turn_based)
    ]
    _play_first_moves(hall, real_time, [ann], 1)
    _play_first_moves(hall, turn_based, [ann], 1)
    _play_first_moves(hall, ranked, [ann, bob], 2)
    tables = {"real-time": real_time, "turn-based": turn_based, "ranked": ranked}
    for size in SIZES:
        for name, table in tables.items():
            found = _measure(ann, table, size, artifacts, name)
            where = (name, size)
            assert found["share"] >= 0.45, (where, found["share"])
            assert found["tiles"] and min(found["tiles"]) >= 24, (where, found["tiles"])
            assert not found["sideways"], where
            assert all(b["whole"] for b in found["buttons"]), (where, found["buttons"])
            if size in (PHONE, SIDEWAYS):
                # Each hand tile's touch target is at least 44 px each way.
                assert min(min(b["width"], b["height"]) for b in found["buttons"]) >= 44, where
    assert ann.errors == []
    for person in (ann, bob):
        person.page.context.close()
