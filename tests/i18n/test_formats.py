"""Numbers, dates and durations in each language's own way (Babel's CLDR data)."""

from __future__ import annotations

import datetime
import doctest

from dominohall.i18n import formats


def test_numbers_dates_and_durations_read_as_each_language_writes_them():
    day = datetime.date(2026, 12, 3)
    assert formats.date(day, "es") == "3 de diciembre de 2026"
    assert formats.date(day, "pt-BR") == "3 de dezembro de 2026"
    assert formats.date(day, "en") == "December 3, 2026"
    assert formats.number(1234.5, "pt-BR") == "1.234,5"
    assert formats.duration(3 * 3600, "es") == "3 horas"
    assert formats.duration(3 * 3600, "pt-BR") == "3 horas"
    assert formats.duration(60, "en") == "1 minute"
    assert formats.number(1234.5, "fr") == "1,234.5"  # a language the hall lacks: English


def test_the_doctests_hold():
    assert doctest.testmod(formats).failed == 0
