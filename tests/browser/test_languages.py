"""The page in the players' languages (issue 26): the catalogs' plural rules as the page parses
them; home and settings in es and pt-BR at 390 and 1280 px, and the language switch."""

from __future__ import annotations

import functools
import gettext
import re
from typing import Any

import pytest
from babel.messages.plurals import PLURALS

from dominohall.i18n import translator
from dominohall.i18n.catalogs import LOCALE, read_catalog

from .conftest import SIZES, Hall
from .players import Person

COUNTS = [*range(0, 112), 1_000_000, 1_000_001, 2_000_000]
PLURAL_JS = """async ([rules, counts]) => {
  const base = document.querySelector("script[type=module]").src;
  const { pluralRule } = await import(new URL("plural.js", base).href);
  const out = {};
  for (const [locale, [nplurals, expression]] of Object.entries(rules)) {
    const rule = pluralRule(expression, nplurals);
    out[locale] = counts.map(rule);
  }
  let refused = 0;
  for (const bad of ["alert(1)", "n ? 1", "n +", "(n", "n == 1; x", "window"]) {
    try { pluralRule(bad); } catch (e) { refused += e instanceof SyntaxError; }
  }
  return [out, refused];
}"""


def test_the_page_evaluates_every_plural_rule_as_gettext_does(page: Any) -> None:
    """Every Plural-Forms expression Babel knows (CLDR's languages), at many counts, gives the
    form gettext gives; text that is not such an expression is refused, never run."""
    rules = {locale: [n, expression] for locale, (n, expression) in PLURALS.items()}
    found, refused = page.evaluate(PLURAL_JS, [rules, COUNTS])
    for locale, (nplurals, expression) in rules.items():
        rule = gettext.c2py(expression)
        expected = [min(rule(n), nplurals - 1) for n in COUNTS]
        assert found[locale] == expected, (locale, expression)
    assert refused == 6
    # es and pt-BR differ at 0 (pt counts it as one), and both have a form for exact millions.
    forms = {locale: dict(zip(COUNTS, found[locale], strict=True)) for locale in ("es", "pt")}
    assert [forms["es"][n] for n in (0, 1, 2, 1_000_000)] == [2, 0, 2, 1]
    assert [forms["pt"][n] for n in (0, 1, 2, 1_000_000)] == [0, 0, 2, 1]


# The slice of the page checked here: home, its lobby, the frame of the other pages, settings.
SLICE = (
    "app.js", "challengebar.js", "frame.js", "home.js", "langswitch.js", "lobby.js",
    "nameprompt.js", "names.js", "pages.js", "settings.js", "stylepicker.js", "vacation.js",
)  # fmt: skip
# The parts of home that other modules draw (not yet in es and pt-BR): left out of the check.
OTHERS = (
    "[aria-labelledby=ranked-h]",
    ".hall-links",
    "[aria-labelledby=tournaments-h]",
    ".games-link",
)
SHOWN_TEXT = """(others) => {
  let text = document.body.innerText;
  for (const el of document.querySelectorAll(others.join(","))) text = text.replace(el.innerText, "");
  return text.replaceAll("Domino Hall", "");  // the name, the same in every language
}"""
# Nothing wider than the screen, and no button, label or heading cut off.
OVERFLOW = """() => {
  const W = document.documentElement.clientWidth;
  const bad = [];
  if (document.documentElement.scrollWidth > W) bad.push('the page scrolls sideways');
  for (const el of document.querySelectorAll('button, label:not(.sr-only), h1, h2, select, .note, nav a')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0) continue;
    if (r.left < -0.5 || r.right > W + 0.5) bad.push(`"${el.textContent}" at ${r.left}..${r.right}`);
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
      bad.push(`"${el.textContent}" is cut off`);
  }
  return bad;
}"""


def english_left(text: str, tag: str) -> list[str]:
    """The slice's English shown in ``text``: each msgid's fixed pieces (its {placeholders} cut
    out) of 4 letters or more, where the language's translation differs from the English."""
    words = translator(tag)
    found: list[str] = []
    for context, msgid in slice_messages():
        translated = words.pgettext(context, msgid) if context else words.gettext(msgid)
        if translated == msgid:  # the same in both languages ("Normal"), or plural (below)
            continue
        for piece in re.split(r"\{\w+\}", msgid):
            piece = piece.strip(" ·:,.()")
            shown = re.search(rf"(?<![A-Za-z]){re.escape(piece)}(?![A-Za-z])", text)
            if len(re.sub(r"[^A-Za-z]", "", piece)) >= 4 and piece not in translated and shown:
                found.append(piece)
    return found


@functools.cache
def slice_messages() -> list[tuple[str | None, str]]:
    wanted = {f"src/dominohall/web/static/js/{name}" for name in SLICE}
    template = read_catalog(LOCALE / "messages.pot", "en")  # (make messages keeps it current)
    return [
        (message.context, message.id)
        for message in template
        if isinstance(message.id, str) and message.id and {p for p, _ in message.locations} & wanted
    ]


def check_screen(person: Person, tag: str) -> None:
    page = person.page
    page.wait_for_selector(f"html[lang='{tag}']")
    page.wait_for_selector("main")
    text = page.evaluate(SHOWN_TEXT, list(OTHERS))
    assert english_left(text, tag) == [], (tag, page.url, text)
    assert page.evaluate(OVERFLOW) == [], (tag, page.url)


def switch(person: Person, tag: str) -> None:
    with person.page.expect_navigation():
        person.page.select_option("select.lang-switch", tag)
    person.page.wait_for_selector(f"html[lang='{tag}']")


@pytest.mark.parametrize("size", SIZES)
def test_home_and_settings_in_spanish_and_portuguese(
    hall: Hall, browser: Any, size: dict[str, int]
) -> None:
    """A Spanish browser gets home in Spanish, signs in as a guest, switches to Portuguese with
    the switch, and the settings page follows (the cookie); no English of this slice is left
    on the screen, and nothing is wider than the screen or cut off."""
    context = browser.new_context(
        viewport=size, extra_http_headers={"Accept-Language": "es-MX,es;q=0.9"}
    )
    person = Person.open(context, hall.url)
    person.page.goto(hall.url + "/")
    person.page.wait_for_selector("#nick")
    assert person.page.title() == "Domino Hall"
    person.page.fill("#nick", "Ana")
    person.page.click("button:has-text('Jugar como invitado')")
    person.page.wait_for_selector("text=Juegas como")
    person.page.wait_for_selector("[data-online]:not([data-online='0'])")
    check_screen(person, "es")
    switch(person, "pt-BR")
    person.page.wait_for_selector("text=Jogando como")
    person.page.wait_for_selector("[data-online]:not([data-online='0'])")
    check_screen(person, "pt-BR")
    person.page.goto(hall.url + "/settings")
    person.page.wait_for_selector("h1:has-text('Configurações')")
    assert person.page.title() == "Configurações · Domino Hall"
    check_screen(person, "pt-BR")
    switch(person, "es")
    person.page.wait_for_selector("h1:has-text('Ajustes')")
    check_screen(person, "es")
    assert person.errors == []
    context.close()
