"""Every string a player meets goes through the catalog: none of the page's English is left
unmarked, and the es and pt-BR catalogs translate every message the code marks (none missing,
none empty, none fuzzy). Scoped to the files converted so far (``checked.py``)."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from dominohall.i18n import LANGUAGES, SOURCE
from dominohall.i18n.catalogs import LOCALE, po_path, read_catalog
from dominohall.i18n.extraction import PACKAGE, extract

from . import checked

JS = PACKAGE / "web" / "static" / "js"
# Words the same in every language, or not words at all, that a template may show unmarked.
ALLOWED = {"Domino Hall", "OK", "×", "·", "…", "–", "—"}
NOT_SHOWN = "// i18n: not shown"  # a line's mark for a string only developers read
VISIBLE_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt", "aria-description", "label")


def page_files() -> list[Path]:
    if checked.ALL:
        return sorted(JS.glob("*.js"))
    return [JS / name for name in checked.PAGE]


def python_files() -> set[str]:
    if checked.ALL:
        return {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")}
    return set(checked.PYTHON)


def _templates(source: str) -> list[str]:
    """The text of each html`...` template, its ${...} holes (nested templates included) cut
    out and searched on their own."""
    found: list[str] = []
    for start in (m.end() for m in re.finditer(r"\bhtml`", source)):
        text, i, depth = [], start, 0
        while i < len(source) and not (source[i] == "`" and depth == 0):
            if source.startswith("${", i) and depth == 0:
                depth, i = 1, i + 2
                text.append("\x00")  # a hole: not text
                continue
            if depth:
                depth += {"{": 1, "}": -1}.get(source[i], 0)
                if source[i] == "`" and depth:  # a nested template: skip past it
                    i = source.index("`", i + 1)
            else:
                text.append(source[i])
            i += 1
        found.append("".join(text))
    return found


def _words(text: str) -> bool:
    text = text.strip()
    return bool(re.search(r"[A-Za-z]{2,}", text)) and text not in ALLOWED


def unmarked_in_templates(source: str) -> list[str]:
    """Text nodes and player-visible attributes of the templates that hold English words."""
    bad: list[str] = []
    for template in _templates(source):
        for piece in re.split(r"<[^>]*>", template):
            for part in piece.split("\x00"):
                if _words(part):
                    bad.append(part.strip())
        for tag in re.findall(r"<[^>]*>", template):
            for name, value in re.findall(r'([\w-]+)="([^"]*)"', tag):
                if name in VISIBLE_ATTRIBUTES and _words(value):
                    bad.append(f'{name}="{value}"')
    return bad


SENTENCE = re.compile(r"""(["'`])((?:(?!\1)[^\\\n]|\\.)*)\1""")
MARKED = re.compile(r"\b(?:_|ngettext|pgettext|gettext)\(\s*$")


def unmarked_sentences(source: str) -> list[str]:
    """String literals outside templates that read like words for players (a capital and a
    space, or words ending in . ! ? …), and are not the msgid of a _() call."""
    bad: list[str] = []
    for line in source.splitlines():
        if NOT_SHOWN in line or line.lstrip().startswith(("//", "import ", "*", "/*")):
            continue
        for m in SENTENCE.finditer(line):
            text = m.group(2)
            if "html`" in line[: m.start()] or "${" in text or "<" in text:
                continue
            before = line[: m.start()]
            if MARKED.search(before) or re.search(r"\b(?:_|ngettext|pgettext)\([^()]*$", before):
                continue
            looks = re.fullmatch(r"[A-Z][a-z']+(?: [\w'’,:()-]+)+[.!?…]?", text) or re.fullmatch(
                r"[A-Za-z][\w'’ ,:()-]* [\w'’ ,:()-]*[.!?…]", text
            )
            if looks and text not in ALLOWED:
                bad.append(text)
    return bad


@pytest.mark.parametrize("path", page_files(), ids=lambda p: p.name)
def test_no_english_is_left_unmarked_in_the_page(path: Path) -> None:
    source = path.read_text()
    bad = unmarked_in_templates(source) + unmarked_sentences(source)
    assert bad == [], f"{path.name}: mark these with _(...) (docs/translating.md): {bad}"


def test_the_heuristic_finds_unmarked_text_and_passes_marked_text() -> None:
    source = """
      const a = html`<p class="note">Play now</p><button title="Close the chat">×</button>`;
      const b = html`<p>${_("Play now")}</p><b title=${_("Close")}>${n}</b>${x && html`<i>Left over</i>`}`;
      setError("The hall cannot be reached.");
      setError(_("The hall cannot be reached."));
      const k = "card howto";
    """
    assert unmarked_in_templates(source) == ["Play now", 'title="Close the chat"', "Left over"]
    assert unmarked_sentences(source) == ["The hall cannot be reached."]


@functools.cache
def marked_messages() -> dict[tuple[str | None, str], list[str]]:
    """Every message the checked files mark, by (context, msgid), with where it stands."""
    wanted = {f"src/dominohall/web/static/js/{p.name}" for p in page_files()}
    wanted |= {f"src/dominohall/{p}" for p in python_files()}
    found: dict[tuple[str | None, str], list[str]] = {}
    for message in extract():
        places = [path for path, _ in message.locations if path in wanted]
        if message.id and places:
            msgid = message.id if isinstance(message.id, str) else message.id[0]
            found[(message.context, msgid)] = places
    return found


@pytest.mark.parametrize(
    "language", [lang for lang in LANGUAGES if lang.tag != SOURCE], ids=lambda lang: lang.tag
)
def test_every_marked_message_is_translated(language) -> None:
    catalog = read_catalog(po_path(language.locale, LOCALE), language.locale)
    problems: list[str] = []
    for (context, msgid), places in marked_messages().items():
        message = catalog.get(msgid, context=context)
        if message is None:
            problems.append(f"missing (run make messages): {msgid!r} from {places[0]}")
        elif message.fuzzy:
            problems.append(f"fuzzy: {msgid!r}")
        elif not all(message.string) if isinstance(message.string, tuple) else not message.string:
            problems.append(f"untranslated: {msgid!r} from {places[0]}")
    assert problems == [], f"{language.tag}:\n" + "\n".join(problems)
