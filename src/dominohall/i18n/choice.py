"""Which language a request is answered in: the account's setting first, then the guest's
cookie, then the browser's ``Accept-Language``, then English.

A tag the hall does not speak falls back along its own chain (``pt-BR`` -> ``pt`` -> ``en``):
a region the hall lacks takes another region of the same language (``es-MX`` -> ``es``,
``pt-PT`` -> ``pt-BR``), since a player reads that better than English.
"""

from __future__ import annotations

from .languages import BY_TAG, LANGUAGES, SOURCE

COOKIE = "lang"  # the guest's choice (and a signed-in player's, mirrored)


def fallbacks(tag: str) -> list[str]:
    """The chain a tag falls back along, most specific first, ending in English.

    >>> fallbacks("pt-BR")
    ['pt-BR', 'pt', 'en']
    >>> fallbacks("en")
    ['en']
    """
    parts = tag.split("-")
    chain = ["-".join(parts[:n]) for n in range(len(parts), 0, -1)]
    return chain if chain[-1].lower() == SOURCE else [*chain, SOURCE]


def spoken(tag: str | None) -> str | None:
    """The language the hall speaks for ``tag`` (its exact tag, or another region of the same
    language), or None when it speaks none of it."""
    if not tag:
        return None
    for step in fallbacks(tag.strip())[:-1] or [SOURCE]:
        exact = BY_TAG.get(step.lower())
        if exact is not None:
            return exact.tag
        primary = step.split("-")[0].lower()
        for language in LANGUAGES:  # the first listed region of that language
            if language.tag.split("-")[0].lower() == primary:
                return language.tag
    return None


def weighted(header: str) -> list[tuple[str, float]]:
    """The items of an HTTP list with weights (``Accept-Language``, ``Accept-Encoding``), in the
    header's order, each with its ``q`` (1 when none; a malformed weight counts as 0, as a
    malformed header should not choose anything)."""
    items = []
    for item in header.split(","):
        name, *parameters = (part.strip() for part in item.split(";"))
        quality = 1.0
        for parameter in parameters:
            key, _, value = parameter.partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if name:
            items.append((name, quality))
    return items


def accepted(header: str) -> list[str]:
    """The tags of an ``Accept-Language`` header, most wanted first (q=0 left out)."""
    ranked = sorted(
        (-quality, index, tag)
        for index, (tag, quality) in enumerate(weighted(header))
        if tag != "*" and quality > 0
    )
    return [tag for _, _, tag in ranked]


def choose(account: str | None, cookie: str | None, accept_language: str | None) -> str:
    """The language to answer in: the first of the account's setting, the cookie and the
    browser's wishes that the hall speaks, else English."""
    for wish in (account, cookie, *accepted(accept_language or "")):
        found = spoken(wish)
        if found is not None:
            return found
    return SOURCE
