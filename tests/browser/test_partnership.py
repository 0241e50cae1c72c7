"""Partnership: no boneyard where there is none, each team's score once, partners marked as
partners, and the winning team named by both its partners."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import SIZES, Hall
from .players import Person
from .tables import open_table, play_now

WORDS = """async ([game, seats, you]) => {
  const { gameEndWords } = await import('/static/js/handend.js');
  const names = ['Ann', 'Normal 2', 'Normal 3', 'Normal 4'];
  return gameEndWords(game, seats, you, (s) => names[s], true);
}"""


@pytest.mark.parametrize("size", SIZES)
def test_partnership_shows_teams_partners_and_no_boneyard(
    hall: Hall, browser: Any, artifacts: Path, size: dict[str, int]
) -> None:
    context = browser.new_context(viewport=size)
    person = Person.open(context, hall.url)
    person.sign_in("Ann")
    open_table(person, play_now(person, "partnership"))
    page = person.page
    for turn in range(12):
        situation = person.wait_situation()
        if situation in ("hand_over", "game_over"):
            break
        assert page.query_selector(".boneyard") is None
        assert "boneyard" not in page.inner_text(".actions .status").lower()
        if turn == 0:
            scores = page.eval_on_selector_all(".team-score", "ts => ts.map((t) => t.textContent)")
            assert [s.split()[0:2] for s in scores] == [["Your", "team"], ["Team", "2"]]
            assert "Score" not in page.inner_text(".players")  # the score is the team's, once
            partner = page.query_selector(".player.partner")
            assert partner and partner.get_attribute("data-seat") == "2"
            assert "Partner" in partner.inner_text()
            assert "your partner" in (partner.get_attribute("aria-label") or "")
            page.screenshot(path=str(artifacts / f"partnership-{size['width']}.png"))
        person.play_turn()

    seats = [{"seat": s, "team": s % 2, "out_reason": None} for s in range(4)]
    game = {"winner": 1, "reason": "rules", "placed_last": []}
    assert page.evaluate(WORDS, [game, seats, 0]) == ["Normal 2 and Normal 4 win", ""]
    assert page.evaluate(WORDS, [{**game, "winner": 2}, seats, 0]) == [
        "You and Normal 3 win!",
        "",
    ]
    assert person.errors == []
    context.close()
