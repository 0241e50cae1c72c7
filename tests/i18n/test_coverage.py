"""Every string a player meets goes through the catalog: none of the page's English is left
unmarked, and the es and pt-BR catalogs translate every message the code marks (none missing,
none empty, none fuzzy). Scoped to the files converted so far (``checked.py``)."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from dominohall.i18n import LANGUAGES, SOURCE
from dominohall.i18n.catalogs import LOCALE, po_path, read_catalog
from dominohall.i18n.extraction import PACKAGE, extract_all

from . import checked
from .page_text import css_classes, unmarked

JS = PACKAGE / "web" / "static" / "js"


def page_files() -> list[Path]:
    if checked.ALL:
        return sorted(JS.glob("*.js"))
    return [JS / name for name in checked.PAGE]


def python_files() -> set[str]:
    if checked.ALL or "*" in checked.PYTHON:
        return {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")}
    return set(checked.PYTHON)


CLASSES = css_classes(JS.parent / "style.css", JS.parent / "pages.css")


@pytest.mark.parametrize("path", page_files(), ids=lambda p: p.name)
def test_no_english_is_left_unmarked_in_the_page(path: Path) -> None:
    bad = unmarked(path.read_text(), CLASSES)
    assert bad == [], f"{path.name}: mark these with _(...) (docs/translating.md): {bad}"


def test_the_heuristic_finds_unmarked_text_and_passes_marked_text() -> None:
    source = """
      const a = html`<p class="note">Play now</p><button title="Close the chat">×</button>`;
      const b = html`<p>${_("Play now")}</p><b title=${_("Close")}>${n}</b>${x && html`<i>Left over</i>`}`;
      setError("The hall cannot be reached.");
      setError(_("The hall cannot be reached."));
      const k = "card note", id = "seating", key = "Escape", re = /"a b"/g, t = `/t/${id}`;
      const many = ngettext("{n} seat free", "{n} seats free", n), c = pgettext("button", "Pass");
      const w = x ? " (guest)" : `Seat ${k + 1}`; // a comment "with words"
      throw new Error("not for players"); // i18n: not shown
      console.error("catalog not loaded", e);
    """
    assert unmarked(source, {"card", "note"}) == [
        "Play now",
        'title="Close the chat"',
        "Left over",
        "The hall cannot be reached.",
        " (guest)",
        "Seat ${}",
    ]


@functools.cache
def extracted_all() -> tuple[Catalog, list[str]]:
    return extract_all()


def extracted() -> Catalog:
    return extracted_all()[0]


def test_no_message_is_an_f_string() -> None:
    """Babel skips a marked call whose message is an f-string (``HallError("c", f"no {x}")``):
    it never reaches the catalog, and the reader gets the code's general words. A template with
    parameters it is (``HallError("c", "no {x}", x=x)``, docs/translating.md)."""
    assert extracted_all()[1] == []


def test_an_f_string_message_is_found(tmp_path: Path) -> None:
    package = tmp_path / "src" / "pkg"
    package.mkdir(parents=True)
    (package / "refusing.py").write_text(
        "from x import HallError, N_\n"
        'HALL = HallError("no_x", "there is no x {x!r}", x=1)\n'
        "def f(x):\n"
        '    raise HallError("no_x", f"there is no x {x!r}")\n'
        'WORDS = N_(f"{1} thing")\n'
    )
    catalog, skipped = extract_all(package)
    assert skipped == ["src/pkg/refusing.py:4", "src/pkg/refusing.py:5"]
    assert [m.id for m in catalog if m.id] == ["there is no x {x!r}"]


def test_no_message_is_a_template_literal() -> None:
    """Babel's extractor takes a template literal among a marked call's arguments for its
    message (``_html("Hi {name}", { name: html`<b>${n}</b>` })`` gives ``<b>${n}</b>``): the
    parts are made outside the call (``markup.strong``)."""
    wrong = [
        (message.id, message.locations[0][0])
        for message in extracted()
        if message.id and "${" in str(message.id)
    ]
    assert wrong == []


@functools.cache
def marked_messages() -> dict[tuple[str | None, str], list[str]]:
    """Every message the checked files mark, by (context, msgid), with where it stands."""
    wanted = {f"src/dominohall/web/static/js/{p.name}" for p in page_files()}
    wanted |= {f"src/dominohall/{p}" for p in python_files()}
    found: dict[tuple[str | None, str], list[str]] = {}
    for message in extracted():
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
