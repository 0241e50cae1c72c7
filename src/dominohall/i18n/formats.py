"""Numbers, dates and durations in a language's own way, through Babel (CLDR): the server's
side of what the page does with the browser's ``Intl``."""

from __future__ import annotations

import datetime

from babel import Locale
from babel.dates import format_date, format_datetime, format_timedelta
from babel.numbers import format_decimal

from .languages import BY_TAG, SOURCE


def locale_of(tag: str) -> Locale:
    """Babel's locale for a language tag (one the hall does not speak: English)."""
    language = BY_TAG.get(tag.lower()) or BY_TAG[SOURCE]
    return Locale.parse(language.locale)


def number(value: float, tag: str) -> str:
    """
    >>> number(1234567, "es"), number(1234567, "pt-BR"), number(1234567, "en")
    ('1.234.567', '1.234.567', '1,234,567')
    """
    return format_decimal(value, locale=locale_of(tag))


def date(moment: datetime.date, tag: str) -> str:
    """A day as a reader of ``tag`` writes it in full (``3 de diciembre de 2026``)."""
    return format_date(moment, format="long", locale=locale_of(tag))


def date_time(moment: datetime.datetime, tag: str) -> str:
    return format_datetime(moment, format="medium", locale=locale_of(tag))


def duration(seconds: float, tag: str) -> str:
    """A length of time in words, rounded to its largest unit (``3 horas``)."""
    return format_timedelta(datetime.timedelta(seconds=seconds), locale=locale_of(tag))
