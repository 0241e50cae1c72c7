"""The page works under its Content-Security-Policy: a game is played with no violation reported."""

from __future__ import annotations

from typing import Any

from .conftest import DESKTOP, Hall
from .players import Person, play_with_bots

# Every violation the browser reports, kept on the page (from before its first script runs).
LISTEN = """
window.violations = [];
document.addEventListener('securitypolicyviolation', (e) =>
  window.violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""


def test_a_move_is_played_under_the_policy_with_no_violation(hall: Hall, browser: Any) -> None:
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(LISTEN)
    person = Person.open(context, hall.url)
    answer = person.page.goto(hall.url + "/")
    policy = answer.headers["content-security-policy"]
    assert "'unsafe-inline'" not in policy and "frame-ancestors 'none'" in policy
    person.sign_in("Ann")
    play_with_bots(person, "draw")
    played = False
    for _ in range(20):  # the computer may lead; a turn of ours may be a draw or a pass
        person.play_turn()
        if "play" in person.seen:
            played = True
            break
    assert played, "no tile was played"
    assert person.page.evaluate("window.violations") == []
    assert person.errors == []
    # The listener hears a violation when there is one: an inline script is refused.
    person.page.evaluate(
        "() => { const s = document.createElement('script');"
        " s.textContent = 'window.ran = true'; document.head.append(s); }"
    )
    person.page.wait_for_function("() => window.violations.length > 0")
    assert person.page.evaluate("window.ran") is None
    assert "script-src" in person.page.evaluate("window.violations")[0]
    context.close()
