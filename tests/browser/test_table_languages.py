"""The table page in the players' languages (issue 26): at 390 and 1280 px, in es and in pt-BR,
a game against a computer player, from its seats to the hand's end and the game's end. On every
screen no English is left (the visible text against the catalog's msgids) and nothing is wider
than the screen or cut off. Two of the four play a whole game; the other two look at the
seats, the table with its log and chat open, the resign question and the first hand's end, folded
too (the suite's time is short)."""

from __future__ import annotations

import functools
import re
from typing import Any

import pytest

from dominohall.i18n import translator
from dominohall.i18n.catalogs import LOCALE, read_catalog

from .conftest import DESKTOP, PHONE_390, Hall
from .players import Person
from .tables import new_table

# Every text the page shows (the screen-reader-only text too: it is read out in the language).
SHOWN_TEXT = """() => [...document.querySelectorAll('body *')]
  .filter((el) => !['SCRIPT', 'STYLE'].includes(el.tagName) && el.closest('svg') === null)
  .flatMap((el) => [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent)
    .concat(['aria-label', 'title'].map((a) => el.getAttribute(a) || '')))
  .join('\\n').replaceAll('Domino Hall', '')"""
# Nothing wider than the screen, and no text box (a button, a card's line, a dialog's words) cut.
OVERFLOW = """() => {
  const W = document.documentElement.clientWidth;
  const bad = [];
  if (document.documentElement.scrollWidth > W) bad.push('the page scrolls sideways');
  const boxes = 'button, label:not(.sr-only), h1, h2, select, .note, nav a, .player .name, '
    + '.player .sub, .status, .info span, .topbar span, .hand-end p, .game-end p, td, th, '
    + '.chat-note, .notice, .dialog p, summary, .log li';
  for (const el of document.querySelectorAll(boxes)) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || el.closest('.sr-only')) continue;
    if (r.left < -0.5 || r.right > W + 0.5) bad.push(`"${el.textContent}" at ${r.left}..${r.right}`);
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
      bad.push(`"${el.textContent.trim()}" is cut off`);
  }
  return bad;
}"""


@functools.cache
def messages() -> list[tuple[str | None, str, str | None]]:
    """Every message of the catalog (the page's and the hall's): context, msgid, plural."""
    template = read_catalog(LOCALE / "messages.pot", "en")
    found: list[tuple[str | None, str, str | None]] = []
    for message in template:
        if isinstance(message.id, tuple | list):
            found.append((message.context, message.id[0], message.id[1]))
        elif message.id:
            found.append((message.context, message.id, None))
    return found


def english_left(text: str, tag: str) -> list[str]:
    """The catalog's English shown in ``text``: each msgid's fixed pieces (its {placeholders} cut
    out) of 4 letters or more, where the language's translation says otherwise. Words the same
    in both languages ("Normal", "Chat") are not English left."""
    words = translator(tag)
    found: set[str] = set()
    for context, msgid, plural in messages():
        if plural is None:
            pairs = [(msgid, words.pgettext(context, msgid) if context else words.gettext(msgid))]
        else:  # the English one and other forms against the language's forms for 1 and 2
            pairs = [
                (msgid, words.ngettext(msgid, plural, 1)),
                (plural, words.ngettext(msgid, plural, 2)),
            ]
        for english, translated in pairs:
            if translated == english:
                continue
            for piece in re.split(r"\{\w+\}", english):
                piece = piece.strip(" ·:,.()…!?")
                if len(re.sub(r"[^A-Za-z]", "", piece)) < 4 or piece in translated:
                    continue
                if re.search(rf"(?<![A-Za-zÀ-ÿ]){re.escape(piece)}(?![A-Za-zÀ-ÿ])", text):
                    found.add(piece)
    return sorted(found)


def check_screen(person: Person, tag: str, what: str) -> None:
    page = person.page
    text = page.evaluate(SHOWN_TEXT)
    assert english_left(text, tag) == [], (tag, what, text)
    assert page.evaluate(OVERFLOW) == [], (tag, what)


def until(person: Person, situations: set[str], max_turns: int = 300) -> str:
    """Play turns (clicking as a person does) until the page is in one of ``situations``."""
    for _ in range(max_turns):
        situation = person.wait_situation()
        if situation in situations:
            return situation
        person.play_turn()
    raise AssertionError(f"not {situations} within {max_turns} turns")


def next_hand(person: Person) -> None:
    person.page.click(".hand-end .next-hand")
    person.page.wait_for_function(
        "() => { const b = document.querySelector('.hand-end .next-hand');"
        " return !b || b.disabled; }",
        polling=50,
    )


@pytest.mark.parametrize(
    ("tag", "size", "whole"),
    [
        pytest.param("es", PHONE_390, True, id="es-phone-game"),
        pytest.param("pt-BR", DESKTOP, True, id="pt-BR-desktop-game"),
        pytest.param("es", DESKTOP, False, id="es-desktop-screens"),
        pytest.param("pt-BR", PHONE_390, False, id="pt-BR-phone-screens"),
    ],
)
def test_the_table_in_spanish_and_portuguese(
    hall: Hall, browser: Any, tag: str, size: dict[str, int], whole: bool
) -> None:
    """A guest whose browser speaks ``tag`` sits at a table against the computer and plays; every
    screen of the table is in that language and fits the screen."""
    context = browser.new_context(viewport=size, extra_http_headers={"Accept-Language": tag})
    person = Person.open(context, hall.url)
    answer = person.page.request.post(hall.url + "/api/guest", data={"name": "Ana"})
    assert answer.ok, answer.text()
    # A whole game: Block to 50 at three, over in a hand or two (the winner counts two hands'
    # pips); the screens: Draw, with its boneyard, to its first hand's end. Draw to 200, as a
    # hand's winner counts the others' pips: to 50, a first hand sometimes ended the game and
    # never showed the hand's end (the whole set has 168 pips).
    if whole:
        table = new_table(person, preset="block", target=50, seats=3, bots=[None, "normal", "easy"])
    else:
        table = new_table(person, preset="draw", target=200, seats=2, bots=[None, "normal"])
    page = person.page
    page.goto(f"{hall.url}/t/{table}")
    page.wait_for_selector(f"html[lang='{tag}']")
    page.wait_for_selector(".card .copy")
    check_screen(person, tag, "seats")
    page.click(".card .row.spaced button.primary")  # Start the game
    page.wait_for_selector(".table .hand-tile")
    person.wait_situation()
    check_screen(person, tag, "the table")
    # The language switch in play too: in the top bar (its short tag over the select), or on a
    # phone in the log's panel, where the top bar has no room.
    switches = page.locator(".table select.lang-switch")
    assert switches.count() == 2
    assert [switches.nth(k).input_value() for k in range(2)] == [tag, tag]
    if size == DESKTOP:
        assert page.inner_text(".topbar .lang-tag") == tag.split("-")[0].upper()
    if not whole:
        folded_log = page.is_visible(".log-toggle")  # (a wide screen shows the log beside)
        if folded_log:
            page.click(".log-toggle")
        page.click(".chat-toggle")
        page.wait_for_selector(".chat .chat-phrase")
        check_screen(person, tag, "log and chat")
        page.click(".chat-close")
        if folded_log:
            page.click(".log-toggle")
        page.click("button.resign")
        page.wait_for_selector(".resign-confirm")
        check_screen(person, tag, "resign?")
        page.click(".resign-keep")
        until(person, {"hand_over"})
        check_screen(person, tag, "the hand's end")
        page.click(".hand-end .close")  # folded away: the bar over the table
        page.wait_for_selector(".hand-end-bar")
        check_screen(person, tag, "the hand's end, folded")
        # Switched during play (on a phone from the log's panel): the table comes back in English.
        if page.is_visible(".log-toggle"):
            page.click(".log-toggle")
        page.select_option(".table select.lang-switch >> visible=true", "en")
        page.wait_for_selector("html[lang='en'] .table")
        assert page.locator(".table select.lang-switch").first.input_value() == "en"
    else:
        while until(person, {"hand_over", "game_over"}) == "hand_over":
            check_screen(person, tag, "the hand's end")
            next_hand(person)
        page.wait_for_selector(".game-end .rating-changes, .game-end .replay-link")
        check_screen(person, tag, "the game's end")
        assert page.title().endswith("Domino Hall")
    assert person.errors == []
    context.close()
