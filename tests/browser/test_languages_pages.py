"""The pages about players and games in es and pt-BR (issue 26), at 390 and 1280 px: the ranked
queue (waiting in it), My games, a profile, a game's replay and a how-to-play text, after a real
ranked game and with a turn-based table waiting. No English of these pages is left on the screen
(checked against the catalog), and nothing is wider than the screen or cut off."""

from __future__ import annotations

import functools
import re
from typing import Any

import httpx
import pytest

from dominohall.i18n import translator
from dominohall.i18n.catalogs import LOCALE, read_catalog

from .conftest import DESKTOP, PHONE_390, Hall
from .players import Person
from .test_languages import OVERFLOW

# This slice's modules, and those whose words they show (names, the pages' shared words).
SLICE = (
    "howto.js", "leaderboard.js", "moderation.js", "mygames.js", "names.js", "notifications.js",
    "pages.js", "profile.js", "ranked.js", "replay.js", "tournament.js", "tournamentlist.js",
)  # fmt: skip
LANGUAGES = ["es", "pt-BR"]


@functools.cache
def slice_messages() -> list[tuple[str | None, tuple[str, ...]]]:
    """(context, msgids) of the slice's messages: one msgid, or a plural's two."""
    wanted = {f"src/dominohall/web/static/js/{name}" for name in SLICE}
    template = read_catalog(LOCALE / "messages.pot", "en")
    return [
        (message.context, message.id if isinstance(message.id, tuple) else (message.id,))
        for message in template
        if message.id and {p for p, _ in message.locations} & wanted
    ]


def english_left(text: str, tag: str) -> list[str]:
    """The slice's English shown in ``text``: each msgid's fixed pieces ({placeholders} cut out)
    of 4 letters or more that the language translates, found as words on the screen."""
    words = translator(tag)
    found = []
    for context, ids in slice_messages():
        if len(ids) == 2:  # every form the language has (1, 2 and a million cover es and pt)
            translated = " ".join(words.ngettext(*ids, n) for n in (1, 2, 1_000_000))
        else:
            translated = words.pgettext(context, ids[0]) if context else words.gettext(ids[0])
        for piece in (p for msgid in ids for p in re.split(r"\{\w+\}", msgid)):
            piece = piece.strip(" ·:;,.()#+")
            letters = len(re.sub(r"[^A-Za-z]", "", piece))
            if letters < 4 or piece in translated:
                continue  # short, or the same in both languages ("Arena", "Chat")
            if re.search(rf"(?<![A-Za-z]){re.escape(piece)}(?![A-Za-z])", text):
                found.append(piece)
    return found


# The header's link to My games (playerchannel.js) is another slice's: left out of the check.
SHOWN_TEXT = """(where) => [...document.querySelectorAll(where)].map((el) => {
  let text = el.innerText;
  for (const other of el.querySelectorAll(".games-link")) text = text.replace(other.innerText, "");
  return text;
}).join("\\n")"""


def check(person: Person, tag: str, where: str) -> None:
    """No English of the slice in ``where`` (a selector), nothing overflowing on the page."""
    page = person.page
    page.wait_for_selector(f"html[lang='{tag}']")
    text = page.evaluate(SHOWN_TEXT, where)
    assert text.strip(), (tag, page.url, where)
    assert english_left(text, tag) == [], (tag, page.url, text)
    assert page.evaluate(OVERFLOW) == [], (tag, page.url)


def _waiting_table(hall: Hall, cookies: dict[str, str]) -> str:
    """A turn-based table of Pia and Quin, started: one of them has the turn (My games)."""
    pia, quin = cookies["pia"], cookies["quin"]
    made = httpx.post(
        hall.url + "/api/tables", json={"seats": 2, "timer": "day"}, headers={"Cookie": pia}
    )
    assert made.status_code == 200, made.text
    table = made.json()["table"]["id"]
    for path, cookie in ((f"/api/tables/{table}/join", quin), (f"/api/tables/{table}/start", pia)):
        answer = httpx.post(hall.url + path, json={}, headers={"Cookie": cookie})
        assert answer.status_code == 200, answer.text
    return table


def _sign_in(username: str, hall: Hall) -> str:
    answer = httpx.post(
        hall.url + "/api/sign-in", json={"username": username, "password": "correct horse"}
    )
    assert answer.status_code == 200, answer.text
    return answer.cookies["dominohall"]


@pytest.fixture(scope="module")
def waiting(hall: Hall, ranked: dict[str, Any]) -> str:
    cookies = {name: f"dominohall={_sign_in(name, hall)}" for name in ("pia", "quin")}
    return _waiting_table(hall, cookies)


@pytest.mark.parametrize("tag", LANGUAGES)
def test_the_players_pages_in_spanish_and_portuguese(
    hall: Hall,
    browser: Any,
    ranked: dict[str, Any],
    waiting: str,
    tag: str,
) -> None:
    """Each page is looked at in both sizes (the viewport changed, the page not loaded again)."""
    context = browser.new_context(viewport=DESKTOP, extra_http_headers={"Accept-Language": tag})
    context.add_cookies([{"name": "dominohall", "value": _sign_in("quin", hall), "url": hall.url}])
    person = Person.open(context, hall.url)
    page = person.page

    def both_sizes(where: str) -> None:
        for size in (DESKTOP, PHONE_390):
            page.set_viewport_size(size)
            check(person, tag, where)

    page.goto(hall.url + "/my-games")
    page.wait_for_selector(f"[data-table='{waiting}']")
    both_sizes("main")

    page.goto(hall.url + "/@/quin")
    page.wait_for_selector(".chart .line")
    page.wait_for_selector(".games-list li")
    both_sizes("main")

    page.goto(f"{hall.url}/games/{ranked['table']}#h1m1")
    page.wait_for_selector(".replay-move")
    both_sizes("main")

    # Home: how to play each game (howto.js's text), and the ranked queue, waiting in it.
    page.goto(hall.url + "/")
    page.wait_for_selector("details.howto")
    summaries = page.locator("details.howto summary")
    for i in range(summaries.count()):
        summaries.nth(i).click()
    both_sizes("details.howto p")
    page.click("button.play-ranked")
    page.wait_for_selector(".seeking .queue-wait, [aria-labelledby=ranked-h] .error")
    assert page.locator("[aria-labelledby=ranked-h] .error").count() == 0, page.inner_text("main")
    both_sizes("[aria-labelledby=ranked-h]")
    page.click("button.cancel-seek")
    page.wait_for_selector("button.play-ranked")
    both_sizes("[aria-labelledby=ranked-h]")
    assert person.errors == []
    context.close()


def test_the_check_finds_english() -> None:
    """The check is not blind: an English sentence of the slice is found, its translation not."""
    assert "No game waits for you" in english_left("No game waits for you.", "es")
    assert english_left("Ninguna partida te espera.", "es") == []
    assert "rated games" in english_left("3 rated games", "pt-BR")  # a plural's English
