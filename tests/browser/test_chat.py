"""The table chat in a real browser: a line of markup is shown as the text typed and never runs
(an injected ``<img onerror>`` would set a global flag), and a quick phrase goes out by id; on a
phone (390 px), the chat opened, a quick phrase sent, and the other player's line read, its
markup as text."""

from __future__ import annotations

from typing import Any

from .conftest import DESKTOP, PHONE_390, Hall
from .players import Person
from .tables import new_table, open_table, play_now, post

IMG = '<img src=x onerror="window.pwned=1"><b>bold</b> https://example.org'


def test_markup_in_a_chat_line_is_text_and_never_runs(hall: Hall, browser: Any) -> None:
    context = browser.new_context(viewport=DESKTOP)
    ann = Person.open(context, hall.url)
    ann.sign_in("Ann")
    post(ann, "/api/accounts", {"username": "chat_ann", "password": "correct horse"})
    open_table(ann, play_now(ann, "all-fives"))
    page = ann.page
    page.click(".chat-toggle")
    page.wait_for_selector(".chat")
    assert "A public game's chat is public" in page.inner_text(".chat")
    page.fill(".chat-input", IMG)
    page.click(".chat-send")
    line = page.wait_for_selector(".chat-line .chat-text")
    assert line.inner_text() == IMG  # shown as the characters typed
    assert page.query_selector_all(".chat img, .chat b, .chat a") == []
    page.click(".chat-phrase[data-phrase='good_game']")
    page.wait_for_selector(".chat-line:nth-child(2) .chat-text:has-text('Good game')")
    page.wait_for_timeout(300)  # time for an image that failed to load to fire its onerror
    assert page.evaluate("() => window.pwned") is None
    assert ann.errors == []
    context.close()


def test_the_chat_on_a_phone_with_another_player(hall: Hall, browser: Any) -> None:
    phone, desk = browser.new_context(viewport=PHONE_390), browser.new_context(viewport=DESKTOP)
    ann, bob = Person.open(phone, hall.url), Person.open(desk, hall.url)
    for person, name in ((ann, "Ann"), (bob, "Bob")):
        person.sign_in(name)
        post(person, "/api/accounts", {"username": f"phone_{name.lower()}", "password": "long one"})
    table = new_table(ann, seats=2)
    post(bob, f"/api/tables/{table}/join")
    post(ann, f"/api/tables/{table}/start")
    for person in (ann, bob):
        open_table(person, table)
        person.page.click(".chat-toggle")
        person.page.wait_for_selector(".chat")
    page = ann.page
    panel = page.locator(".chat").bounding_box()
    assert panel is not None and panel["x"] >= 0 and panel["x"] + panel["width"] <= 390
    page.click(".chat-phrase[data-phrase='good_luck']")  # a quick phrase, by thumb
    bob.page.wait_for_selector(".chat-line .chat-text:has-text('Good luck')")
    bob.page.fill(".chat-input", IMG)
    bob.page.click(".chat-send")
    line = page.wait_for_selector(".chat-line:nth-child(2) .chat-text")
    assert line.inner_text() == IMG  # the other's markup, shown as the characters typed
    assert page.query_selector_all(".chat img, .chat b, .chat a") == []
    assert page.inner_text(".chat-line:nth-child(2) .chat-name") == "Bob"
    page.wait_for_timeout(300)  # time for an image that failed to load to fire its onerror
    assert page.evaluate("() => window.pwned") is None
    assert ann.errors == [] and bob.errors == []
    phone.close()
    desk.close()
