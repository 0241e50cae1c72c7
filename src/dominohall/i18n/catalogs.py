"""The gettext catalogs, one domain for the server and the page: loaded once, compiled when
their ``.mo`` is missing or older than the ``.po`` (``make setup`` compiles them beforehand).

A language's messages fall back along ``choice.fallbacks`` (``pt-BR`` -> ``pt`` -> English):
a message missing from one catalog is looked up in the next, and English is the msgid itself.
"""

from __future__ import annotations

import gettext
import hashlib
import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import orjson
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from .choice import fallbacks
from .languages import BY_TAG, LANGUAGES, SOURCE

log = logging.getLogger("dominohall.i18n")

LOCALE = Path(__file__).parent.parent / "locale"
DOMAIN = "messages"
PAGE_SOURCES = (".js", ".html")  # a message the page shows has a location in one of these


def po_path(locale: str, root: Path = LOCALE) -> Path:
    return root / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(path: Path, locale: str) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=locale, domain=DOMAIN)


def compile_catalog(locale: str, root: Path = LOCALE) -> bytes:
    """The ``.mo`` of one catalog, written beside its ``.po`` when missing or older (where the
    folder may be written: an installed package's may not, and is then compiled in memory)."""
    po = po_path(locale, root)
    mo = po.with_suffix(".mo")
    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        return mo.read_bytes()
    buffer = io.BytesIO()
    write_mo(buffer, read_catalog(po, locale))  # fuzzy messages left out, as msgfmt does
    try:
        mo.write_bytes(buffer.getvalue())
    except OSError as exc:
        log.info("catalog %s compiled in memory (%s)", locale, exc)
    return buffer.getvalue()


@dataclass(frozen=True)
class PageCatalog:
    """What the page loads for one language: its messages as JSON, and a tag of them for the
    versioned address (``/i18n/<lang>.json?v=<version>``)."""

    body: bytes
    version: str


class Translator:
    """One language's gettext: messages along its fallback chain, English last."""

    def __init__(self, tag: str, translations: gettext.NullTranslations) -> None:
        self.tag = tag
        self._translations = translations

    def gettext(self, message: str) -> str:
        return self._translations.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._translations.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        return self._translations.pgettext(context, message)


class Catalogs:
    """Every language's catalog, read once: the server's translators and the page's JSON."""

    def __init__(self, root: Path = LOCALE) -> None:
        self.root = root
        compiled: dict[str, bytes] = {}
        self._page: dict[str, PageCatalog] = {}
        for language in LANGUAGES:
            if language.tag == SOURCE:
                continue
            po = po_path(language.locale, root)
            if not po.exists():
                raise FileNotFoundError(f"language {language.tag} has no catalog at {po}")
            compiled[language.tag] = compile_catalog(language.locale, root)
            self._page[language.tag] = page_catalog(read_catalog(po, language.locale))
        known = {tag.lower(): tag for tag in compiled}
        self._translators: dict[str, Translator] = {}
        for tag in compiled:
            head: gettext.NullTranslations = gettext.NullTranslations()
            chain = [known[step.lower()] for step in fallbacks(tag) if step.lower() in known]
            for index, step in enumerate(chain):
                # each language's chain holds objects of its own: add_fallback changes its head
                translations = gettext.GNUTranslations(io.BytesIO(compiled[step]))
                if index == 0:
                    head = translations
                else:
                    head.add_fallback(translations)
            self._translators[tag.lower()] = Translator(tag, head)
        self._english = Translator(SOURCE, gettext.NullTranslations())

    def translator(self, tag: str) -> Translator:
        """``tag``'s messages, falling back along its chain (a tag with no catalog: English)."""
        for step in fallbacks(tag):
            found = self._translators.get(step.lower())
            if found is not None:
                return found
        return self._english

    def page(self, tag: str) -> PageCatalog | None:
        """The page's messages of a language (None for English, which loads none)."""
        language = BY_TAG.get(tag.lower())
        return self._page.get(language.tag) if language is not None else None


def page_catalog(catalog: Catalog) -> PageCatalog:
    """A catalog's messages that the page shows, as ``{"plural": ..., "messages": {...}}``:
    translated, not fuzzy; a plural message's forms as a list; a context joined to its msgid
    by U+0004, as gettext does."""
    messages: dict[str, str | list[str]] = {}
    for message in catalog:
        if not message.id or message.fuzzy or not _on_page(message.locations):
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        value: str | list[str]
        if isinstance(message.id, tuple | list):
            value = list(message.string) if isinstance(message.string, tuple | list) else []
            if not value or not all(value):
                continue
        else:
            if not message.string:
                continue
            value = str(message.string)
        if message.context:
            key = f"{message.context}\x04{key}"
        messages[key] = value
    body = orjson.dumps(
        {"plural": catalog.plural_expr, "nplurals": catalog.num_plurals, "messages": messages},
        option=orjson.OPT_SORT_KEYS,
    )
    return PageCatalog(body, hashlib.sha256(body).hexdigest()[:12])


def _on_page(locations: Sequence[tuple[str, int | None]]) -> bool:
    return any(Path(path).suffix in PAGE_SOURCES for path, _ in locations)
