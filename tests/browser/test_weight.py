"""Everything the page loads (JS, CSS, SVG) weighs at most 150 KB before compression."""

from __future__ import annotations

from typing import Any

from .conftest import DESKTOP, Hall
from .players import Person, play_with_bots

LIMIT = 150 * 1024


def test_the_page_weighs_at_most_150_kb(hall: Hall, browser: Any) -> None:
    context = browser.new_context(viewport=DESKTOP)
    person = Person.open(context, hall.url)
    loaded: dict[str, int] = {}

    def count(response: Any) -> None:
        kind = response.request.resource_type
        if kind in ("document", "script", "stylesheet", "image") and response.ok:
            loaded[response.url] = len(response.body())

    person.page.on("response", count)
    person.sign_in("Ann")
    play_with_bots(person, "draw")  # the table screen loads nothing more, but count it anyway
    person.wait_situation()
    static = {url: size for url, size in loaded.items() if "/static/" in url}
    assert any(url.endswith("/static/js/app.js") for url in static)
    assert any(url.endswith("preact.mjs") for url in static)
    total = sum(size for url, size in loaded.items() if "/api/" not in url)
    assert total <= LIMIT, f"the page loads {total} bytes: {sorted(loaded.items())}"
    context.close()
