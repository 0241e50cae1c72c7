"""The hall's languages (issue 26): which ones, which one a request is answered in, the gettext
catalogs shared by the server and the page, and numbers and dates per language.

A layer of its own beside ``rules``: it knows no hall, table or web; ``web`` and ``hall`` (emails)
ask it. How to mark, extract and translate strings: ``docs/translating.md``.
"""

from __future__ import annotations

import functools

from .catalogs import Catalogs, PageCatalog, Translator
from .choice import COOKIE, accepted, choose, fallbacks, spoken
from .languages import LANGUAGES, SOURCE, Language, language

__all__ = [
    "COOKIE",
    "LANGUAGES",
    "SOURCE",
    "Catalogs",
    "English",
    "Language",
    "N_",
    "PageCatalog",
    "Phrase",
    "Translator",
    "accepted",
    "catalogs",
    "choose",
    "fallbacks",
    "language",
    "spoken",
    "translator",
]


def N_(message: str) -> str:  # noqa: N802 - gettext's own name for "mark, translate later"
    """Mark a string for the catalog where it is defined; it is translated where it is shown."""
    return message


class Phrase(str):
    """Fixed English words put inside another message (a refusal's ``{words}``), marked for the
    catalog where they are written and translated with the message that holds them."""

    __slots__ = ()


class English(str):
    """English that no catalog can hold (an exception's text, words built at run time) put inside
    another message: a reader of another language is told the message's general words instead."""

    __slots__ = ()


@functools.cache
def catalogs() -> Catalogs:
    """The installed catalogs, read (and compiled if need be) on first use."""
    return Catalogs()


def translator(tag: str) -> Translator:
    return catalogs().translator(tag)
