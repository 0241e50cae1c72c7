"""Extracting the messages of the server and the page into the catalogs (Babel), updating the
catalogs, compiling them: ``python -m dominohall.i18n.extraction update|compile``
(``make messages``, ``make setup``; docs/translating.md).

Python is read for ``_``, ``gettext``, ``ngettext``, ``pgettext``, ``N_`` and the message of a
``HallError`` (its second argument, when a literal) and of a ``Phrase``; the page's modules for the same names,
inside the template literals of ``html`...``` too.
"""

from __future__ import annotations

import contextlib
import io
import logging
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import write_po

from .catalogs import DOMAIN, LOCALE, compile_catalog, po_path, read_catalog
from .languages import LANGUAGES, SOURCE

log = logging.getLogger("dominohall.i18n")

PACKAGE = Path(__file__).parent.parent  # src/dominohall
KEYWORDS = {
    **DEFAULT_KEYWORDS,
    "HallError": (2,),
    "Phrase": (1,),
    "_html": (1,),
}  # (_html: js/markup.js)
METHODS = [
    ("**/static/vendor/**", "ignore"),
    ("**/static/js/**.js", "javascript"),
    ("**.py", "python"),
]
OPTIONS = {"**/static/js/**.js": {"parse_template_string": "true", "jsx": "false"}}
COMMENT_TAGS = ("TRANSLATORS:",)
# Babel's warning for a marked call whose message is an f-string: "path:line: warning: Skipping
# f-string ..." (on stderr, one a line).
SKIPPED = re.compile(r"^(.*?):(\d+): warning: Skipping f-string", re.MULTILINE)
# Messages grouped by file, without line numbers: a change to one file changes its own part of
# the catalogs only, so that branches converting different files merge.
WRITING: dict[str, Any] = {"width": 100, "sort_by_file": True, "include_lineno": False}


def extract(package: Path = PACKAGE) -> Catalog:
    """Every message the code marks, with where it stands (paths from the repository's root)."""
    catalog, skipped = extract_all(package)
    if skipped:
        log.info("%d f-strings left out: make each a template with parameters", len(skipped))
    return catalog


def extract_all(package: Path = PACKAGE) -> tuple[Catalog, list[str]]:
    """The catalog of ``extract``, and where (``path:line``) a marked call's message is an
    f-string, which Babel skips: such a message is never translated (``tests/i18n`` holds the
    list empty)."""
    catalog = Catalog(project="Domino Hall", domain=DOMAIN, locale=None, fuzzy=False)
    found: Iterable[tuple[str, int, str | tuple[str, ...], list[str], str | None]] = (
        extract_from_dir(
            str(package),
            METHODS,
            keywords=KEYWORDS,
            comment_tags=COMMENT_TAGS,
            options_map=OPTIONS,
            strip_comment_tags=True,
        )
    )
    said = io.StringIO()
    with contextlib.redirect_stderr(said):  # Babel's word on each f-string it cannot read
        found = list(found)
    skipped = [
        f"{Path(m[1]).resolve().relative_to(package.resolve().parent.parent).as_posix()}:{m[2]}"
        for m in SKIPPED.finditer(said.getvalue())
    ]
    for filename, line, message, comments, context in found:
        where = (package.relative_to(package.parent.parent) / filename).as_posix()
        catalog.add(message, None, [(where, line)], auto_comments=comments, context=context)
    return catalog, skipped


def update(package: Path = PACKAGE, root: Path = LOCALE) -> None:
    """Write the template (``messages.pot``) and bring every language's catalog up to it: new
    messages come in untranslated, changed ones fuzzy, gone ones dropped."""
    template = extract(package)
    pot = root / f"{DOMAIN}.pot"
    if pot.exists():  # the date it was made stays: a header changed at each update conflicts
        template.creation_date = read_catalog(pot, "en").creation_date
    with pot.open("wb") as file:
        write_po(file, template, **WRITING)
    for language in LANGUAGES:
        if language.tag == SOURCE:
            continue
        po = po_path(language.locale, root)
        if po.exists():
            catalog = read_catalog(po, language.locale)
        else:
            po.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=language.locale, domain=DOMAIN, project="Domino Hall")
            catalog.language_team = f"Domino Hall {language.name}"
        catalog.update(template, update_header_comment=False)
        catalog.fuzzy = False  # the header: translators keep it, and a fuzzy one is not compiled
        with po.open("wb") as file:
            write_po(file, catalog, ignore_obsolete=True, **WRITING)


def compile_all(root: Path = LOCALE) -> None:
    for language in LANGUAGES:
        if language.tag != SOURCE:
            compile_catalog(language.locale, root)


def main(argv: list[str]) -> int:
    if argv == ["update"]:
        update()
    elif argv == ["compile"]:
        compile_all()
    else:
        print("usage: python -m dominohall.i18n.extraction update|compile", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
