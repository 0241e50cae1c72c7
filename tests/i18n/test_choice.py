"""Which language a request is answered in: the account's setting, the cookie, Accept-Language,
English; and the fallback chain of a tag."""

from __future__ import annotations

import pytest

from dominohall.i18n import accepted, choose, fallbacks, language, spoken


def test_the_account_comes_first_then_the_cookie_then_the_browser():
    assert choose("es", "pt-BR", "pt-BR,pt;q=0.9") == "es"
    assert choose(None, "pt-BR", "es-ES,es;q=0.9") == "pt-BR"
    assert choose(None, None, "es-ES,es;q=0.9") == "es"
    assert choose(None, None, None) == "en"
    # A choice the hall no longer speaks (a language taken out) is passed over.
    assert choose("fr", "xx", "pt-PT") == "pt-BR"


def test_accept_language_is_read_by_weight_then_order():
    assert accepted("fr;q=0.4, es-MX;q=0.8, de, *;q=0.1, it;q=0") == ["de", "es-MX", "fr"]
    assert accepted("") == []
    assert accepted("es;q=abc, pt") == ["pt"]  # a malformed weight accepts nothing
    assert choose(None, None, "de-DE, fr;q=0.9, pt;q=0.8, en;q=0.7") == "pt-BR"
    assert choose(None, None, "de-DE, fr;q=0.9") == "en"


def test_a_region_the_hall_lacks_takes_another_of_the_same_language():
    assert spoken("es-MX") == "es"
    assert spoken("es-419") == "es"
    assert spoken("pt-PT") == "pt-BR"
    assert spoken("pt") == "pt-BR"
    assert spoken("PT-br") == "pt-BR"
    assert spoken("en-GB") == "en"
    assert spoken("fr-CA") is None
    assert spoken("") is None


def test_fallback_chains_end_in_english():
    assert fallbacks("pt-BR") == ["pt-BR", "pt", "en"]
    assert fallbacks("es") == ["es", "en"]
    assert fallbacks("zh-Hant-TW") == ["zh-Hant-TW", "zh-Hant", "zh", "en"]
    assert fallbacks("en") == ["en"]


def test_a_tag_the_hall_does_not_speak_is_refused_by_name():
    assert language("PT-BR").tag == "pt-BR"
    with pytest.raises(ValueError, match=r"does not speak 'fr': one of en, es, pt-BR"):
        language("fr")
