"""My games: every table the player sits at, those waiting for them first; the badge in every
page's header and the tab's title count those, live from the player's socket, as an opponent
moves in another browser."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from web.live import free_port
from web.smtp import smtp_server

from .conftest import DESKTOP, PHONE_390, Hall
from .players import Person
from .tables import new_table, open_table, post

# The page's notifications, caught instead of shown, and a page that can be made "hidden".
SPY_ON_NOTIFICATIONS = """
window.notes = [];
window.hiddenNow = false;
Object.defineProperty(document, 'hidden', { get: () => window.hiddenNow });
const Real = window.Notification;
window.Notification = class {
  constructor(title, options) { window.notes.push({ title, body: options.body, tag: options.tag }); }
  static get permission() { return Real.permission; }
  static requestPermission() { return Real.requestPermission(); }
};
"""
WAIT_MS = 15000  # the badge follows a move at once; this only bounds a failure (a loaded machine)


def my_tables(person: Person) -> list[dict[str, Any]]:
    answer = person.page.request.get(person.base + "/api/me/tables")
    assert answer.ok, answer.text()
    return list(answer.json()["tables"])


def wait_count(person: Person, count: int) -> None:
    person.page.wait_for_function(
        """n => { const b = document.querySelector('.games-link .badge');
                  const counted = n > 0 ? document.title.startsWith('(' + n + ') ')
                                        : !document.title.startsWith('(');
                  return b && Number(b.dataset.count) === n && counted; }""",
        arg=count,
        timeout=WAIT_MS,
        polling=50,
    )


def rows(person: Person, selector: str) -> list[str]:
    return [
        str(r)
        for r in person.page.eval_on_selector_all(
            f"{selector} li", "ls => ls.map(l => l.dataset.table)"
        )
    ]


def test_my_games_and_the_badge_follow_an_opponents_move(
    hall: Hall, browser: Any, artifacts: Path
) -> None:
    contexts = [browser.new_context(viewport=DESKTOP), browser.new_context(viewport=PHONE_390)]
    ann, bob = (Person.open(c, hall.url) for c in contexts)
    ann.sign_in("Ann")
    bob.sign_in("Bob")
    started = []
    for _ in range(3):  # relaxed: 50 s a turn, so no timer plays for anyone during the test
        table = new_table(ann, preset="draw", target=100, seats=2, timer="relaxed")
        post(bob, f"/api/tables/{table}/join")
        post(ann, f"/api/tables/{table}/start")
        started.append(table)
    waiting = new_table(ann, preset="block", seats=2)  # no one has joined: it waits to start

    page = ann.page
    contexts[0].grant_permissions(["notifications"], origin=hall.url)
    page.add_init_script(SPY_ON_NOTIFICATIONS)
    page.goto(hall.url + "/my-games")
    page.wait_for_selector(".my-games .others-list")
    page.click("button:has-text('Notify me when it is my turn')")  # asked by a click, never on load
    page.wait_for_selector("button:has-text('Stop notifications')")
    mine = my_tables(ann)
    yours = [t["id"] for t in mine if t["your_turn"]]
    assert set(t["id"] for t in mine) == {*started, waiting}
    wait_count(ann, len(yours))
    assert rows(ann, ".yours-list") == yours, "most urgent first, as the hall orders them"
    assert set(rows(ann, ".others-list")) == {*started, waiting} - set(yours)
    for table in yours:
        assert re.search(r"\d+ s left", page.inner_text(f"li[data-table='{table}']"))
    assert "waiting to start" in page.inner_text(f"li[data-table='{waiting}']")

    if len(yours) == len(started):  # every game waits for Ann: she plays one in another tab
        other_tab = Person.open(contexts[0], hall.url)
        open_table(other_tab, yours[0])
        assert re.match(r"\(\d\) ", other_tab.page.title()), other_tab.page.title()
        other_tab.play_turn()
        other_tab.page.close()
        yours = yours[1:]
        wait_count(ann, len(yours))
    table = next(t for t in started if t not in yours)  # Bob's turn there
    page.screenshot(path=str(artifacts / "my-games-before.png"))

    page.evaluate("() => { window.hiddenNow = true; }")  # as if Ann looked at another tab
    open_table(bob, table)
    bob.play_turn()
    wait_count(ann, len(yours) + 1)
    note = page.wait_for_function("() => window.notes.length && window.notes[0]", timeout=WAIT_MS)
    assert note.json_value() == {
        "title": "Your turn",
        "body": "Draw to 100 with Bob",
        "tag": f"dominohall-{table}",
    }
    page.wait_for_selector(f".yours-list li[data-table='{table}']", timeout=WAIT_MS)
    assert page.title() == f"({len(yours) + 1}) My games · Domino Hall"
    page.screenshot(path=str(artifacts / "my-games-after.png"))

    page.click(".games-link")  # the badge links to the page it is on: still there
    page.click("nav.crumbs a[href='/']")
    page.wait_for_selector(f".home .games-link .badge[data-count='{len(yours) + 1}']")
    assert page.title() == f"({len(yours) + 1}) Domino Hall"
    assert ann.errors == [] and bob.errors == []
    for context in contexts:
        context.close()


def test_email_notices_are_set_up_from_my_games(
    browser: Any, tmp_path: Path, artifacts: Path
) -> None:
    with smtp_server() as inbox:
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        mail = ["--smtp-host", "127.0.0.1", "--smtp-port", str(inbox.port)]
        mail += ["--smtp-security", "none", "--mail-from", "hall@hall.test", "--public-url", url]
        server = Hall(tmp_path, port, tuple(mail))
        server.start()
        try:
            context = browser.new_context(viewport=PHONE_390)
            ann = Person.open(context, server.url)
            ann.sign_in("Ann")
            page = ann.page
            page.goto(server.url + "/my-games")
            page.fill("#email-address", "ann@example.org")
            page.click(".email-settings button[type=submit]")
            page.wait_for_selector(".email-status:has-text('A link went to ann@example.org')")
            deadline = time.monotonic() + 5
            while not inbox.messages and time.monotonic() < deadline:
                time.sleep(0.05)
            [confirmation] = inbox.messages
            body = confirmation.get_body(("plain",))
            assert body is not None
            [link] = re.findall(re.escape(url) + r"/email/confirm\?token=\S+", body.get_content())
            page.goto(link)  # the link in the email, opened in the same browser
            page.wait_for_selector(".email-outcome:has-text('Your address is confirmed')")
            page.wait_for_selector(".email-status:has-text('Notices go to ann@example.org')")
            page.screenshot(path=str(artifacts / "my-games-email-phone.png"), full_page=True)
            assert ann.errors == []
            context.close()
        finally:
            server.stop()
