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


def _paired(person: Person) -> str:
    """The table the ranked queue paired a person at (it pairs every half second)."""
    for _ in range(100):
        status = person.page.request.get(person.base + "/api/ranked/queue").json()
        if status["table"]:
            return str(status["table"])
        person.page.wait_for_timeout(100)
    raise AssertionError(f"not paired: {status}")


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
    ranked = _paired(ann)
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


# The table screen drawn by the page's own Game from a real state of the table, with a longer
# hand than the deal gives (Draw hands grow past 11) and, at a turn-based table, `since` moves
# told in "Since your last move": each tile's place, the hand's and the board's.
LONG_HAND = """async ([table, count, since]) => {
  const { html, render } = await import('/static/js/ui.js');
  const { Game } = await import('/static/js/game.js');
  const state = await new Promise((resolve) => {
    const ws = new WebSocket(`ws://${location.host}/ws/tables/${table}`);
    ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', version: 0 }));
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.type === 'state') { ws.close(); resolve({ ...m.state, version: m.version }); }
    };
  });
  const laid = new Set(state.hand.layout.chain.map((p) => p.tile));
  const tiles = [];
  for (let a = 6; a >= 0; a--) for (let b = a; b >= 0; b--) {
    if (!laid.has(`${a}-${b}`)) tiles.push(`${a}-${b}`);
  }
  state.hand = { ...state.hand, tiles: tiles.slice(0, count) };
  if (since) {
    const moves = Array.from({ length: since }, (_, i) => (
      { kind: 'move', version: 1000 + i, seat: 1, play: '3-0', pass: i % 2 === 1, draw: false }));
    state.turn_based = { ...state.turn_based, since_your_move: moves };
  }
  let host = document.querySelector('#long-hand');
  if (!host) {
    host = document.createElement('div');
    host.id = 'long-hand';
    host.style.cssText = 'position:fixed;inset:0;z-index:50;display:flex;flex-direction:column';
    document.body.append(host);
  }
  render(null, host);
  const socket = { request: () => new Promise(() => {}) };
  render(html`<${Game} state=${state} kind="line" preset=${{ drawing: 'until_fits' }} receivedAt=${0}
    socket=${socket} onError=${() => {}} goHome=${() => {}} go=${() => {}} status="open" />`, host);
  await new Promise((r) => setTimeout(r, 200));
  const hand = host.querySelector('.hand');
  const box = hand.getBoundingClientRect();
  const whole = (t) => t.left >= -0.5 && t.right <= innerWidth + 0.5 && t.top >= box.top - 0.5
    && t.bottom <= box.bottom + 0.5 && t.bottom <= innerHeight + 0.5;
  const images = () => [...hand.querySelectorAll('.hand-tile .tile-image')].map((i) => i.getBoundingClientRect());
  const seen = images().map(whole);
  // Scrolled to its end (a hand too long for its place scrolls), the last tile is whole.
  hand.scrollTop = hand.scrollHeight;
  const last = whole(images()[count - 1]);
  return {
    tiles: host.querySelectorAll('.hand-tile').length,
    seen, last,
    scrolls: hand.scrollHeight > hand.clientHeight + 1,
    buttons: [...hand.querySelectorAll('.hand-tile')].map((b) => {
      const r = b.getBoundingClientRect();
      return Math.min(r.width, r.height);
    }),
    share: host.querySelector('.board').getBoundingClientRect().height / innerHeight,
  };
}"""


def test_a_long_hand_on_a_phone_shows_every_tile_whole(
    hall: Hall, browser: Any, artifacts: Path
) -> None:
    person = Person.open(browser.new_context(viewport=PHONE), hall.url)
    person.sign_in("Vera")
    table = play_now(person, "draw")
    page = person.page
    for size in (PHONE, SIDEWAYS):
        page.set_viewport_size(size)
        for count in (11, 15, 21):
            found = page.evaluate(LONG_HAND, [table, count, 0])
            where = (size, count)
            page.screenshot(
                path=str(artifacts / f"long-hand-{count}-{size['width']}x{size['height']}.png")
            )
            assert found["tiles"] == count
            assert min(found["buttons"]) >= 44, where  # touch targets
            assert found["last"], where
            if count <= 15 or size == PHONE:
                assert all(found["seen"]), (where, found["seen"])  # wrapped rows, all in view
                assert not found["scrolls"], where
            assert found["share"] >= 0.45, (where, found["share"])
    assert person.errors == []
    person.page.context.close()


def test_a_message_on_a_phone_held_sideways_leaves_the_column_of_tiles_clear(
    hall: Hall, browser: Any
) -> None:
    """Issue 21: the error toast stood centred on the screen, 120 px from the bottom, over the
    column that holds your tiles; it now stands at the foot of the board."""
    context = browser.new_context(viewport=SIDEWAYS)
    person = Person.open(context, hall.url)
    person.sign_in("Tove")
    open_table(person, play_now(person, "five-up", target=100))
    # The page's toast, as tablepage.js shows a refused move, with a long message.
    found = person.page.evaluate(
        """() => {
          const toast = document.createElement('div');
          toast.className = 'toast';
          toast.setAttribute('role', 'alert');
          toast.textContent = 'That tile does not fit the end you chose: pick another end or tile.';
          document.body.append(toast);
          const rect = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
          const out = { toast: rect(toast), board: rect(document.querySelector('.board')),
            column: ['.players', '.actions', '.hand'].map((s) => rect(document.querySelector(s))) };
          toast.remove();
          return out;
        }"""
    )
    left, top, right, bottom = found["toast"]
    b_left, b_top, b_right, b_bottom = found["board"]
    assert b_left <= left and right <= b_right and b_top <= top and bottom <= b_bottom, found
    for c_left, c_top, c_right, c_bottom in found["column"]:
        assert right <= c_left or left >= c_right or bottom <= c_top or top >= c_bottom, found
    assert person.errors == []
    context.close()


def test_a_turn_based_table_on_a_phone_keeps_the_board_s_room_beside_a_long_hand(
    hall: Hall, browser: Any, artifacts: Path
) -> None:
    """The turn-based strip (clocks, what happened since your move) stays short on a phone
    whatever it holds: with four players, a long "since" list and a hand of two rows, the
    board keeps its share (a Draw hand of 11 beside the strip took it under 45%)."""
    person = Person.open(browser.new_context(viewport=PHONE), hall.url)
    person.sign_in("Wim")
    table = new_table(
        person, preset="draw", timer="day", seats=4, bots=[None, "normal", "easy", "easy"]
    )
    post(person, f"/api/tables/{table}/start")
    open_table(person, table)
    page = person.page
    page.wait_for_selector(".turn-based .tb-clock >> nth=3")
    for count, since in ((11, 2), (11, 12), (15, 12)):
        found = page.evaluate(LONG_HAND, [table, count, since])
        page.screenshot(path=str(artifacts / f"turn-based-long-hand-{count}-{since}.png"))
        where = (count, since)
        assert found["tiles"] == count
        assert min(found["buttons"]) >= 44, where
        assert all(found["seen"]) and not found["scrolls"], (where, found["seen"])
        assert found["share"] >= 0.45, (where, found["share"])
    assert person.errors == []
    person.page.context.close()
