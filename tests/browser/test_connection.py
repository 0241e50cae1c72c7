"""A dropped connection comes back by itself, and two people play each other from two browsers."""

from __future__ import annotations

import signal
import time
from typing import Any

from .conftest import DESKTOP, PHONE, Hall
from .players import SITUATION, Person, play_with_bots


def test_the_table_comes_back_after_the_server_drops_the_socket(
    own_hall: Hall, browser: Any
) -> None:
    context = browser.new_context(viewport=PHONE)
    person = Person.open(context, own_hall.url)
    person.sign_in("Ann")
    play_with_bots(person, "draw")
    for _ in range(3):
        person.play_turn()
    person.wait_situation()
    tiles = person.hand_tiles()
    laid = person.layout_size()
    version = person.version()
    log = person.page.inner_text(".log ol")

    own_hall.stop(signal.SIGKILL)  # every socket drops at once, with no goodbye
    person.page.wait_for_selector("text=Reconnecting…")
    own_hall.start()
    person.page.wait_for_selector("text=Reconnecting…", state="detached", timeout=20000)

    person.wait_situation()
    assert person.hand_tiles() == tiles
    assert person.layout_size() == laid
    assert person.version() == version + 1  # the restart's 'resumed': the downtime given back
    assert person.page.inner_text(".log ol") == log
    person.play_turn()  # and the game goes on
    assert person.version() > version
    # The browser reports the refused reconnection attempts while the hall was down; nothing else.
    assert [e for e in person.errors if "WebSocket" not in e] == []
    context.close()


def situation_of(person: Person) -> str | None:
    value = person.page.evaluate(SITUATION)
    return None if value is None else str(value)


def test_two_people_play_each_other(hall: Hall, browser: Any) -> None:
    ann_context = browser.new_context(viewport=DESKTOP)
    bob_context = browser.new_context(viewport=PHONE)
    ann = Person.open(ann_context, hall.url)
    bob = Person.open(bob_context, hall.url)
    ann.sign_in("Ann")
    page = ann.page
    page.select_option("#game", "draw")
    page.select_option("#seats", "2")
    page.select_option("#seat1", "")
    page.click("button:has-text('Create table')")
    page.wait_for_selector("text=Share this link")
    link = page.input_value("#share")

    bob.page.goto(link)
    bob.page.fill("#nick", "Bob")
    bob.page.click("button:has-text('Sit down')")
    page.wait_for_selector("text=Bob")
    page.click("button:has-text('Start the game')")
    page.wait_for_selector(".table")
    bob.page.wait_for_selector(".table")

    # Whoever is to move moves, until the first hand is over for both.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if all(p.page.query_selector(".hand-end, .game-end") for p in (ann, bob)):
            break
        states = {p: situation_of(p) for p in (ann, bob)}
        mover = next((p for p, s in states.items() if s in ("my_turn", "choose_end")), None)
        if mover is None:
            time.sleep(0.05)
            continue
        mover.play_turn()
    else:
        raise AssertionError("the first hand did not end within 60 s")

    assert ann.layout_size() == bob.layout_size()
    # Both saw the same hands at the end (or the same final scores).
    shown = ".hand-end .reveal" if ann.page.query_selector(".hand-end") else ".game-end .scores"
    assert len({p.page.inner_text(shown).replace(" (you)", "") for p in (ann, bob)}) == 1
    if not ann.page.query_selector(".game-end"):
        # Both press Next hand (a player may have pressed already), and the second hand is dealt.
        for person in (ann, bob):
            button = person.page.query_selector(".hand-end .next-hand")
            if button and button.is_enabled():
                button.click()
        for person in (ann, bob):
            person.page.wait_for_selector(".hand-end", state="detached")
            person.page.wait_for_function(
                "() => document.querySelectorAll('.hand-tile').length > 0"
            )
            assert "Hand 2" in person.page.inner_text(".log")
    assert ann.errors == [] and bob.errors == []
    ann_context.close()
    bob_context.close()
