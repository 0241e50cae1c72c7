"""The languages the hall speaks: settings data, one line each (docs/translating.md).

A language here needs its catalog, ``locale/<locale>/LC_MESSAGES/messages.po``; English is the
source language and has none.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Language:
    """One language: its tag as the web writes it (BCP 47), its catalog's folder (gettext's
    ``ll_CC``) and its name in itself, as the language switch shows it."""

    tag: str
    locale: str
    name: str


SOURCE = "en"  # the language the code is written in: its strings are the catalogs' msgids

LANGUAGES: tuple[Language, ...] = (
    Language("en", "en", "English"),
    Language("es", "es", "Español"),
    Language("pt-BR", "pt_BR", "Português (Brasil)"),
)

BY_TAG: dict[str, Language] = {language.tag.lower(): language for language in LANGUAGES}


def language(tag: str) -> Language:
    """The language ``tag`` names (any case); a tag the hall does not speak is a ``ValueError``
    that names the ones it does."""
    found = BY_TAG.get(tag.lower())
    if found is None:
        spoken = ", ".join(lang.tag for lang in LANGUAGES)
        raise ValueError(f"the hall does not speak {tag!r}: one of {spoken}")
    return found
