"""Timeouts explained (RULES.md 6): a first timeout warns that the next puts you out; a person
who is out watches while the others play on; when the last person is out the game ends as
abandoned and says why; after the end no one is "to play" and the turn marker is gone.

Ann (desktop) and Bob (phone) sit with a computer player on a Quick timer and never move; the
one not yet out then leaves (a fourth timeout would only cost the suite 12.5 s: the words of a
game abandoned after two timeouts are checked by ``test_the_game_end_says_why_it_ended``)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from .conftest import DESKTOP, PHONE_390, Hall
from .players import Person
from .tables import new_table, open_table, post

WARNING = "If it runs out on your next turn too, you are out of the game."
WATCHING = "You are out of the game (you ran out of time twice): you are watching"
TIMER_MS = 12500
NOTICE = "() => { const n = document.querySelector('.notice'); return n ? n.textContent : null; }"


def test_timeouts_warn_put_out_then_the_game_is_abandoned(
    hall: Hall, browser: Any, artifacts: Path
) -> None:
    contexts = [browser.new_context(viewport=DESKTOP), browser.new_context(viewport=PHONE_390)]
    ann, bob = (Person.open(c, hall.url) for c in contexts)
    ann.sign_in("Ann")
    bob.sign_in("Bob")
    table = new_table(ann, preset="draw", seats=3, bots=[None, None, "easy"], timer="quick")
    post(bob, f"/api/tables/{table}/join")
    post(ann, f"/api/tables/{table}/start")
    for person in (ann, bob):
        open_table(person, table)
    # Each is warned after a first timeout; the first out watches while the other plays on.
    warned: set[str] = set()
    watching: dict[str, int] = {}  # who watched, from which version
    deadline = time.monotonic() + 6 * TIMER_MS / 1000
    while time.monotonic() < deadline and len(watching) < 2:
        for name, person in (("desktop", ann), ("phone", bob)):
            page = person.page
            notice = page.evaluate(NOTICE)
            if notice and WARNING in notice and name not in warned:
                warned.add(name)
                page.screenshot(path=str(artifacts / f"timeout-warning-{name}.png"))
            if notice and notice.startswith(WATCHING) and name not in watching:
                watching[name] = person.version()
                assert page.query_selector(".hand-tile.fits") is None  # nothing to play now
                page.screenshot(path=str(artifacts / f"out-watching-{name}.png"))
        if watching:
            break
        time.sleep(0.2)
    assert warned == {"desktop", "phone"}
    assert len(watching) == 1  # the first out; the last one out ends the game
    name, since = next(iter(watching.items()))
    out, last = (ann, bob) if name == "desktop" else (bob, ann)
    # The last person out (gone): the game ends as abandoned, and says why.
    post(last, f"/api/tables/{table}/leave")
    for person in (ann, bob):
        person.page.wait_for_selector(".game-end", timeout=TIMER_MS)
        page = person.page
        assert page.inner_text("#game-end-h") == "Game abandoned"
        why = page.inner_text(".game-end .why")
        assert "left the table" in why and "no person was left" in why
        assert "to play" not in page.inner_text(".actions .status")
        assert page.query_selector(".player.turn") is None
    assert out.version() > since  # the first out saw the game go on
    ann.page.screenshot(path=str(artifacts / "abandoned-desktop.png"))
    bob.page.screenshot(path=str(artifacts / "abandoned-phone.png"))
    record = ann.page.request.get(f"{hall.url}/games/{table}/record").json()
    assert record["result"]["reason"] == "abandoned"
    assert ann.errors == [] and bob.errors == []
    for c in contexts:
        c.close()


GAME_END = """async ([game, reasons, you]) => {
  const { gameEndWords } = await import('/static/js/handend.js');
  const seats = reasons.map((r, s) => ({ seat: s, team: null, out_reason: r }));
  return gameEndWords(game, seats, you, (s) => ['Ann', 'Bob', 'Cid'][s], false);
}"""


def test_the_game_end_says_why_it_ended(page: Any) -> None:
    forfeit = {"winner": 1, "reason": "forfeit", "placed_last": [0]}
    assert page.evaluate(GAME_END, [forfeit, ["left", None], 1]) == [
        "You win by forfeit!",
        "Ann left the table.",
    ]
    assert page.evaluate(GAME_END, [forfeit, ["disconnected", None], 0]) == [
        "Bob wins by forfeit",
        "Ann lost the connection for over a minute.",
    ]
    abandoned = {"winner": None, "reason": "abandoned", "placed_last": [1, 0]}
    title, why = page.evaluate(GAME_END, [abandoned, ["left", "timeout", None], None])
    assert title == "Game abandoned" and why.startswith("Ann left the table, and no person")
    title, why = page.evaluate(GAME_END, [abandoned, ["timeout", "timeout", None], 0])
    assert why == "Ann ran out of time twice, and no person was left at the table."
    rules = {"winner": 2, "reason": "rules", "placed_last": []}
    assert page.evaluate(GAME_END, [rules, [None, None, None], 0]) == ["Cid wins", ""]
