"""The operators' page (/mod) in a real browser at 1280 px: an operator (made by the command
line, as only it may) reads the open reports, times the reported player out and bans them, each
with a reason asked by the page; the command line's log then says who did what and why."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from click.testing import CliRunner

from dominohall.cli.main import main

from .conftest import DESKTOP, Hall
from .players import Person
from .tables import post


def mod(hall: Hall, *args: str) -> str:
    """``dominohall mod`` on the running hall's database, as its operator runs it (in a thread:
    this one's event loop is Playwright's)."""
    with ThreadPoolExecutor(1) as thread:
        invoked = thread.submit(CliRunner().invoke, main, ["mod", *args, "--data", str(hall.data)])
        done = invoked.result(timeout=60)
    assert done.exit_code == 0, done.output
    return done.output


def test_an_operator_lists_reports_times_out_and_bans(hall: Hall, browser: Any) -> None:
    # Ann (a guest) and Bob over HTTP only (their browsers' cookies, no page needed).
    ann, bob = browser.new_context(), browser.new_context()
    assert ann.request.post(hall.url + "/api/guest", data={"name": "Ann"}).ok
    made = {"username": "mod_bob", "password": "long enough", "name": "Bob"}
    assert bob.request.post(hall.url + "/api/accounts", data=made).ok
    reported = ann.request.post(
        hall.url + "/api/players/mod_bob/report", data={"reason": "insults at every table"}
    )
    assert reported.ok, reported.text()
    olga = Person.open(browser.new_context(viewport=DESKTOP), hall.url)
    olga.sign_in("Olga")
    post(olga, "/api/accounts", {"username": "mod_olga", "password": "long enough"})
    mod(hall, "operators", "add", "mod_olga")

    page = olga.page
    reasons = iter(["spamming the chat", "abuse"])
    page.on("dialog", lambda dialog: dialog.accept(next(reasons)))
    page.goto(hall.url + "/mod")
    card = "section.card:has-text('Bob (@mod_bob)')"
    report = page.wait_for_selector(card)
    assert "Reported by Ann (guest" in report.inner_text()
    assert "insults at every table" in report.inner_text()
    report.query_selector("button:has-text('Time out 15 min')").click()
    page.wait_for_selector("[role=status]:has-text('Time Bob out for 15 minutes: done.')")
    page.click(f"{card} button:text-is('Ban')")
    page.wait_for_selector("[role=status]:has-text('Ban Bob: done.')")

    assert bob.request.get(hall.url + "/api/me").json() == {"player": None}  # session ended
    log = mod(hall, "log", "--limit", "3").splitlines()
    assert "Olga (@mod_olga) ban Bob (@mod_bob)" in log[0] and log[0].endswith(": abuse")
    assert "time_out" in log[1] and log[1].endswith(": spamming the chat")
    assert olga.errors == []
    for context in (ann, bob, page.context):
        context.close()
