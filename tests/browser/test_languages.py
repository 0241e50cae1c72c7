"""The page in the players' languages (issue 26): the catalogs' plural rules as the page parses
them, and the language switch."""

from __future__ import annotations

import gettext
from typing import Any

from babel.messages.plurals import PLURALS

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
