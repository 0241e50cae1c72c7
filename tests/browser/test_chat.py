"""The table chat in a real browser: a line of markup is shown as the text typed and never runs
(an injected ``<img onerror>`` would set a global flag), and a quick phrase goes out by id."""

from __future__ import annotations

from typing import Any

from .conftest import DESKTOP, Hall
from .players import Person
from .tables import open_table, play_now, post

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
