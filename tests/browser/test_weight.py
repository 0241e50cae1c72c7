"""The page's budget: the first load of home and of a table page is at most 150 KB of content
and 50 KB as sent (compressed); pages beyond those are loaded when opened."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

from .conftest import DESKTOP, Hall
from .players import Person, play_with_bots

CONTENT_LIMIT = 150 * 1024
SENT_LIMIT = 50 * 1024
RELEASE = re.compile(r"^/static/[0-9a-f]{12}/")
LATER = ("/profile.js", "/replay.js", "/leaderboard.js", "/settings.js")  # loaded when opened
STYLED = """() => [...document.styleSheets].some(
    (sheet) => sheet.href && sheet.href.endsWith('/pages.css') && sheet.cssRules.length > 0)"""
FILES = ("document", "script", "stylesheet", "image", "font")


@dataclass
class Load:
    """What one page load fetched, file by file: the content, and the body as it was sent."""

    content: dict[str, int] = field(default_factory=dict)
    sent: dict[str, int] = field(default_factory=dict)

    def count(self, responses: list[Any]) -> None:
        for response in responses:
            if response.request.resource_type not in FILES or not response.ok:
                continue
            body = response.body()
            self.content[response.url] = len(body)
            # The hall says how long each body is as sent; decoded, it is the content.
            self.sent[response.url] = int(response.header_value("content-length") or len(body))

    def report(self, name: str) -> str:
        content, sent = sum(self.content.values()), sum(self.sent.values())
        return (
            f"{name}: {content / 1024:.1f} KB of content, {sent / 1024:.1f} KB sent, "
            f"{len(self.content)} requests"
        )

    def check(self, name: str) -> None:
        print(self.report(name))  # the figures the README quotes
        files = sorted(self.content.items())
        assert sum(self.content.values()) <= CONTENT_LIMIT, f"{self.report(name)}: {files}"
        assert sum(self.sent.values()) <= SENT_LIMIT, f"{self.report(name)}: {files}"


def first_load(
    hall: Hall, browser: Any, path: str, cookies: list[Any], ready: str
) -> tuple[Person, Load]:
    """Open ``path`` in a browser that has kept nothing (but ``cookies``), until ``ready`` shows."""
    context = browser.new_context(viewport=DESKTOP)
    if cookies:
        context.add_cookies(cookies)
    person = Person.open(context, hall.url)
    responses: list[Any] = []

    def keep(response: Any) -> None:
        responses.append(response)

    person.page.on("response", keep)
    person.page.goto(hall.url + path)
    person.page.wait_for_selector(ready)
    person.page.wait_for_load_state("networkidle")
    person.page.remove_listener("response", keep)  # the first load only
    load = Load()
    load.count(responses)
    return person, load


def test_home_and_a_table_page_load_within_the_budget(hall: Hall, browser: Any) -> None:
    person, home = first_load(hall, browser, "/", [], "#nick")
    home.check("home, a new visitor")
    assert any(url.endswith("/js/app.js") for url in home.content)
    assert any(url.endswith("preact.mjs") for url in home.content)
    assert not [url for url in home.content if url.endswith(LATER)], "pages loaded when opened"
    # The files come compressed, from under this release's prefix (kept, not asked for again).
    for url, sent in home.sent.items():
        if home.content[url] > 1024:
            assert sent < home.content[url], url
        if "/static/" in url:
            assert RELEASE.match(urlparse(url).path), url
    person.sign_in("Ann")
    play_with_bots(person, "draw")
    person.wait_situation()
    table = urlparse(person.page.url).path
    cookies = person.page.context.cookies()
    assert person.errors == []
    person.page.context.close()

    person, signed_in = first_load(hall, browser, "/", cookies, "text=Playing as Ann")
    signed_in.check("home, signed in")
    # Another page comes when opened, its module and stylesheet from under the release too.
    later: list[str] = []
    person.page.on("request", lambda request: later.append(urlparse(request.url).path))
    person.page.click(".hall-links a[href='/leaderboard']")
    person.page.wait_for_function(STYLED)
    assert any(path.endswith("/js/leaderboard.js") for path in later), later
    assert all(RELEASE.match(path) for path in later if path.startswith("/static/")), later
    assert person.errors == []
    person.page.context.close()

    person, load = first_load(hall, browser, table, cookies, ".hand-tile")
    person.wait_situation()
    load.check("a table page")
    assert person.errors == []
    person.page.context.close()
