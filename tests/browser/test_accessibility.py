"""The hall with a keyboard alone and a screen reader: a whole hand played by Tab, arrows, Enter
and Space (tiles, ends, Draw, Pass, the hand's end dialog, Next hand), the names of tiles and ends,
the live region's announcements, a visible focus, a lit tile marked by more than colour; the
game's end dialog by keys; and axe (axe-core, shipped inside axe-playwright-python: no network)
on the home, table (before the start, playing, the hand's and the game's end), My games, profile
and replay pages, with no serious or critical violation."""

from __future__ import annotations

import re
from typing import Any

from axe_playwright_python.sync_playwright import Axe

from .conftest import DESKTOP, PHONE_390, Hall
from .players import Person
from .tables import new_table, open_table, play_now, post

MAX_TURNS = 400
# What the keyboard test waits to have done: a tile played, an end chosen by its button and on
# the layout, a Draw, a Pass, a Next hand; and a lit tile seen beside an unlit one.
WANTED = {"tile", "end", "end_by_board", "draw", "pass", "next_hand", "lit_mark"}
TILE_NAME = re.compile(
    r"^\d-\d(, does not fit|, you may lead it|, fits the [a-z0-9 ]+ end( \d)?)?$"
)
LIT_NAME = re.compile(
    r"^\d-\d, (you may lead it|fits the [a-z]+ end( \d)?( and the [a-z]+ end( \d)?)*)$"
)

FOCUSED = """() => { const e = document.activeElement;
  if (!e || e === document.body) return null;
  const s = getComputedStyle(e);
  return { tag: e.tagName, cls: e.className && e.className.baseVal === undefined ? e.className : '',
           label: e.getAttribute('aria-label'), text: e.textContent.trim(),
           inDialog: !!e.closest('.hand-end, .game-end'),
           outline: s.outlineStyle, width: parseFloat(s.outlineWidth) }; }"""
SAID = "() => [...document.querySelectorAll('.announcer p')].map((p) => p.textContent)"
# Everything the live region says from now on, in order (it keeps only its last few messages).
LISTEN = """() => { window.said = [];
  new MutationObserver((changes) => { for (const c of changes) for (const n of c.addedNodes)
    window.said.push(n.textContent); })
    .observe(document.querySelector('.announcer'), { childList: true });
}"""
LIT_MARK = """() => {
  const lit = document.querySelector('.hand-tile.fits');
  const plain = document.querySelector('.hand-tile.dim');
  if (!lit || !plain) return null;
  for (const b of [lit, plain]) b.getAnimations().forEach((a) => a.finish());  // where they rise to
  const mark = (b) => ({ top: b.getBoundingClientRect().top,
                         ring: parseFloat(getComputedStyle(b, '::after').borderTopWidth) || 0,
                         content: getComputedStyle(b, '::after').content });
  return { lit: mark(lit), plain: mark(plain) };
}"""

# The focused end's outline on the layout, beside the other lit end's.
SLOT_RING = """() => {
  const at = document.activeElement;
  const other = [...document.querySelectorAll('.board .slot')].find((g) => g !== at);
  const s = getComputedStyle(at.querySelector('rect'));
  return { dash: s.strokeDasharray, width: parseFloat(s.strokeWidth),
           other: parseFloat(getComputedStyle(other.querySelector('rect')).strokeWidth) };
}"""

_axe = Axe()


def serious_violations(page: Any, where: str) -> list[str]:
    """axe's serious and critical violations on the page as it stands, one line each."""
    found = _axe.run(page).response["violations"]
    return [
        f"{where}: {v['impact']} {v['id']} ({v['help']}) at {[n['target'] for n in v['nodes']][:4]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def focused(person: Person) -> dict[str, Any] | None:
    return person.page.evaluate(FOCUSED)  # type: ignore[no-any-return]


def tab_to(person: Person, selector: str, within_dialog: bool = False) -> dict[str, Any]:
    """Tab until the focus is on `selector`; the focus must show (an outline) wherever it lands."""
    page = person.page
    for _ in range(40):
        if page.evaluate("s => !!document.activeElement?.matches(s)", selector):
            now = focused(person)
            assert now is not None
            return now
        page.keyboard.press("Tab")
        now = focused(person)
        if now is not None:
            if within_dialog:
                assert now["inDialog"], f"Tab left the dialog for {now}"
            if now["tag"] in ("BUTTON", "A", "SELECT", "INPUT"):
                assert now["outline"] != "none" and now["width"] >= 2, f"no visible focus: {now}"
    raise AssertionError(f"Tab never reached {selector}")


def test_a_hand_played_with_the_keyboard_alone(hall: Hall, browser: Any) -> None:
    """Four seats at Draw to 200, played by keys only until every kind of action happened and a
    Next hand was pressed; the names, announcements and focus checked on the way."""
    context = browser.new_context(viewport=DESKTOP)
    person = Person.open(context, hall.url)
    person.sign_in("Kay")
    page = person.page
    table = play_now(person, "draw", ["normal", "normal", "normal"], target=200)
    open_table(person, table)
    # What happened before the page opened is not read out again: only whose turn it is.
    page.wait_for_function(f"() => ({SAID})().length > 0")
    assert not any(s.startswith("Hand 1:") for s in page.evaluate(SAID))
    page.evaluate(LISTEN)
    seen: set[str] = set()
    violations: list[str] = []
    said_before: list[str] = []  # the live region's words at earlier tables

    for _ in range(MAX_TURNS):
        if seen >= WANTED:
            break
        situation = person.wait_situation()
        if situation == "game_over":
            # A game can end before every kind of action came up (a choice of two ends is
            # rare): the keyboard player goes on at a new table (what was said kept).
            said_before += page.evaluate("() => window.said")
            open_table(person, play_now(person, "draw", ["normal", "normal", "normal"], target=200))
            page.wait_for_function(f"() => ({SAID})().length > 0")
            page.evaluate(LISTEN)
            continue
        if situation == "hand_over":
            hand_end_by_keys(person, seen, violations)
            continue
        # The focus is where the turn is played: never dropped to the page's end by the last move.
        where = page.evaluate(
            "() => !!document.activeElement?.matches("
            "'.hand-tile, .actions button.draw, .actions button.pass')"
        )
        assert where, focused(person)
        version = person.version()
        if page.query_selector("button.draw"):
            now = tab_to(person, "button.draw")
            assert now["outline"] != "none"
            page.keyboard.press("Enter")
            seen.add("draw")
        elif page.query_selector("button.pass"):
            tab_to(person, "button.pass")
            page.keyboard.press(" ")
            seen.add("pass")
        else:
            play_a_tile_by_keys(person, seen, violations)
        person.wait_moved_on(version)
    assert seen >= WANTED, seen

    # The live region told the turns, every seat's plays (with what they scored), and the hand's
    # end with the scores; and the next hand's lead.
    said = said_before + page.evaluate("() => window.said")
    text = "\n".join(said)
    assert "Your turn: choose a lit tile." in said or "Your lead: choose a tile." in said
    assert re.search(r"^You (play|lead) \d-\d", text, re.M), said
    assert re.search(r"^Normal \d (plays|leads) \d-\d", text, re.M), said
    assert re.search(r"^Normal \d to play…$", text, re.M), said
    assert re.search(r"^You draw (a tile|\d+ tiles) \(", text, re.M), said
    assert re.search(r"^You pass on ", text, re.M), said
    assert re.search(
        r"^Hand 1 is over\. Scores: Kay \(you\) \d+, Normal 2 \d+, Normal 3 \d+", text, re.M
    )
    assert re.search(r"^Hand 2: .* leads?\.$", text, re.M), said
    assert violations == []
    assert person.errors == []
    context.close()


def play_a_tile_by_keys(person: Person, seen: set[str], violations: list[str]) -> None:
    """Into the hand by Tab, along it by arrows, a lit tile by Enter or Space, an end by Tab and
    Enter; every tile's name says whether and where it fits."""
    page = person.page
    tab_to(person, ".hand-tile")
    # The first lit tile, or while a choice of ends is still wanted, one that fits two ends
    # (such a turn is rare enough that a whole game could pass without one otherwise).
    want_two = not {"end", "end_by_board"} <= seen
    count = page.eval_on_selector_all(".hand-tile", "bs => bs.length")
    first_lit = None
    for step in range(count):
        now = focused(person)
        assert now is not None and TILE_NAME.match(now["label"] or ""), now
        if "fits" in now["cls"]:
            if first_lit is None:
                first_lit = step
            if not want_two or " and the " in now["label"]:
                break
        if step < count - 1:
            page.keyboard.press("ArrowRight")
    else:
        assert first_lit is not None, "the arrows never reached a lit tile"
        for _ in range(count - 1 - first_lit):  # back to the first lit tile
            page.keyboard.press("ArrowLeft")
    now = focused(person)
    assert now is not None and "fits" in now["cls"], "the arrows never reached a lit tile"
    assert LIT_NAME.match(now["label"]), now["label"]
    assert now["outline"] != "none" and now["width"] >= 2, now
    names = page.eval_on_selector_all(
        ".hand-tile", "bs => bs.map((b) => b.getAttribute('aria-label'))"
    )
    assert all("fit" in n or "lead" in n for n in names), names  # my turn: every tile says
    check_lit_mark(person, seen)
    tile = page.evaluate("() => document.activeElement.dataset.tile")
    # One place to go: the move goes at once; a choice of ends: their buttons take the focus.
    key = " " if "tile" in seen else "Enter"
    if not person.pick_tile(lambda: page.keyboard.press(key)):
        seen.add("tile")
        return
    assert now["label"].count(" end") >= 2, now["label"]
    first = focused(person)
    assert first is not None and "end-choice" in first["cls"], first
    assert re.match(rf"^Play {tile} on the [a-z]+ end( \d)? \(\d\)$", first["label"]), first
    slots = page.eval_on_selector_all(
        ".board .slot", "gs => gs.map((g) => g.getAttribute('aria-label'))"
    )
    assert len(slots) == 2 and all(
        re.match(r"^Play on the [a-z]+ end( \d)?, \d$", s) for s in slots
    )
    violations += serious_violations(page, "table, choosing an end")
    # Escape puts the tile back, with the focus on it; Enter chooses it again.
    page.keyboard.press("Escape")
    page.wait_for_selector(".end-choice", state="detached")
    back = focused(person)
    assert back is not None and back["label"].startswith(tile), back
    page.keyboard.press("Enter")
    page.wait_for_selector(".end-choice")
    if "end" in seen and "end_by_board" not in seen:
        # Back from the buttons to the lit ends on the layout: one shows the focus, Enter plays.
        for _ in range(6):
            page.keyboard.press("Shift+Tab")
            if page.evaluate("() => !!document.activeElement?.matches('.board .slot')"):
                break
        ring = page.evaluate(SLOT_RING)
        assert ring["dash"] == "none" and ring["width"] > ring["other"], ring
        page.keyboard.press("Enter")
        seen.add("end_by_board")
        return
    page.keyboard.press("Tab")  # the second end
    second = focused(person)
    assert second is not None and "end-choice" in second["cls"], second
    assert second["outline"] != "none" and second["width"] >= 2, second
    page.keyboard.press("Enter")
    seen.update({"tile", "end"})


def check_lit_mark(person: Person, seen: set[str]) -> None:
    """A lit tile rises and wears a ring beside an unlit one: more than its colour differs."""
    marks = person.page.evaluate(LIT_MARK)
    if marks is None:
        return
    assert marks["lit"]["top"] <= marks["plain"]["top"] - 6, marks
    assert marks["lit"]["ring"] >= 2 and marks["plain"]["content"] == "none", marks
    seen.add("lit_mark")


def hand_end_by_keys(person: Person, seen: set[str], violations: list[str]) -> None:
    """The hand's end dialog holds the focus; Escape folds it away and Enter brings it back; Tab
    goes round it to Next hand, pressed by Enter."""
    page = person.page
    page.wait_for_function("() => document.activeElement?.closest('.hand-end')")
    if "next_hand" in seen:
        page.keyboard.press("Escape")  # a later hand: just on
        page.wait_for_selector(".hand-end-bar")
        tab_to(person, ".hand-end .next-hand")
        press_next_hand(person)
        return
    violations += serious_violations(page, "table, the hand's end")
    page.keyboard.press("Escape")
    page.wait_for_selector(".hand-end-bar")
    now = focused(person)
    assert now is not None and now["text"] == "Show the hands", now
    page.keyboard.press("Enter")
    page.wait_for_selector(".overlay.hand-end")
    page.wait_for_function("() => document.activeElement?.matches('#hand-end-h')")
    # Round the dialog twice over: the focus never leaves it.
    controls = page.eval_on_selector_all(
        ".overlay.hand-end button:not([disabled])", "bs => bs.length"
    )
    for _ in range(2 * controls + 1):
        page.keyboard.press("Tab")
        now = focused(person)
        assert now is not None and now["inDialog"], now
    tab_to(person, ".hand-end .next-hand", within_dialog=True)
    press_next_hand(person)
    # Waiting for the others, or dealt: the focus is still somewhere a key can go on from.
    page.wait_for_function(
        "() => document.activeElement && document.activeElement !== document.body"
    )
    seen.add("next_hand")


def press_next_hand(person: Person) -> None:
    """Enter on the focused Next hand; then it waits for the others, or the next hand is dealt."""
    person.page.keyboard.press("Enter")
    person.page.wait_for_function(
        "() => { const b = document.querySelector('.hand-end .next-hand');"
        " return !b || b.disabled; }"
    )


def test_axe_finds_no_serious_violation(hall: Hall, browser: Any) -> None:
    """Home (a visitor's, then a player's), a table before its start, one playing at a desktop's
    and a phone's size, the game's end (its dialog by keys: the focus stays in it), My games, a
    profile with the finished game on it, and that game's replay."""
    contexts = [browser.new_context(viewport=DESKTOP), browser.new_context(viewport=DESKTOP)]
    axel, bea = (Person.open(c, hall.url) for c in contexts)
    page = axel.page
    violations: list[str] = []
    page.goto(hall.url + "/")
    page.wait_for_selector("#app main")
    violations += serious_violations(page, "home, a visitor")
    answer = page.request.post(
        hall.url + "/api/accounts",
        data={"username": "axel", "password": "correct horse", "name": "Axel"},
    )
    assert answer.ok, answer.text()
    page.goto(hall.url + "/")
    page.wait_for_selector("text=Axel")
    violations += serious_violations(page, "home")
    table = new_table(axel, preset="draw", seats=2, bots=[None, None])
    page.goto(f"{hall.url}/t/{table}")
    page.wait_for_selector("text=Share this link")
    violations += serious_violations(page, "a table before its start")
    bea.sign_in("Bea")
    post(bea, f"/api/tables/{table}/join")
    post(axel, f"/api/tables/{table}/start")
    for person in (axel, bea):
        open_table(person, table)
    violations += serious_violations(page, "table")
    page.set_viewport_size(PHONE_390)
    violations += serious_violations(page, "table, phone")
    page.set_viewport_size(DESKTOP)
    page.evaluate(LISTEN)

    # Bea resigns a game of two: Axel wins by forfeit, and the game's end holds his focus.
    bea.page.click("button.resign")
    bea.page.wait_for_function("() => document.activeElement?.matches('.resign-keep')")
    violations += serious_violations(bea.page, "resign this game?")
    bea.page.click(".resign-confirm .resign-yes")
    page.wait_for_selector(".game-end")
    page.wait_for_function("() => document.activeElement?.matches('#game-end-h')")
    violations += serious_violations(page, "the game's end")
    controls = page.eval_on_selector_all(".game-end button, .game-end a[href]", "cs => cs.length")
    for key in ["Tab"] * (2 * controls + 1) + ["Shift+Tab"] * (2 * controls + 1):
        page.keyboard.press(key)
        now = focused(axel)
        assert now is not None and now["inDialog"], now
        assert now["outline"] != "none" and now["width"] >= 2, now
    said = page.evaluate("() => window.said")
    assert any(re.match(r"^The game is over: you win by forfeit! Final scores: ", s) for s in said)
    tab_to(axel, ".game-end .row > button:last-child", within_dialog=True)
    page.keyboard.press("Enter")
    page.wait_for_selector("#app main.home")

    page.goto(hall.url + "/my-games")
    page.wait_for_selector("h1:has-text('My games')")
    page.wait_for_load_state("networkidle")
    violations += serious_violations(page, "My games")
    page.goto(hall.url + "/@/axel")
    page.wait_for_selector(".games-list .outcome")
    violations += serious_violations(page, "profile")
    page.click(".games-list a[href^='/games/']")
    page.wait_for_selector(".replay-seat .tiles")
    violations += serious_violations(page, "a game's replay")
    assert violations == []
    assert axel.errors == [] and bea.errors == []
    for c in contexts:
        c.close()
