"""Every error code the hall raises has general words for a reader in another language."""

from __future__ import annotations

import re
from pathlib import Path

from dominohall.web.refusals import CODE_WORDS
from dominohall.web.statuses import STATUS

SOURCE = Path(__file__).parents[2] / "src" / "dominohall"


def test_every_code_raised_or_answered_has_its_words():
    raised = set()
    for path in SOURCE.rglob("*.py"):
        raised |= set(re.findall(r'HallError\(\s*"([a-z_]+)"', path.read_text()))
    assert len(raised) > 60  # (the search finds them)
    missing = sorted((raised | set(STATUS)) - set(CODE_WORDS))
    assert missing == [], f"web/refusals.py: give these codes their words: {missing}"


def test_the_words_are_sentences():
    for code, words in CODE_WORDS.items():
        assert words[0].isupper() and words.endswith("."), code
