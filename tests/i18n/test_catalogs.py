"""The catalogs: compiled when their .mo is missing, each language's messages falling back along
its chain, the page's JSON (the page's messages only), and the plural rules by CLDR."""

from __future__ import annotations

import gettext
import io
import shutil
from pathlib import Path

import orjson
import pytest
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import write_po

from dominohall.i18n import Catalogs, catalogs
from dominohall.i18n.catalogs import LOCALE, compile_catalog, page_catalog, po_path

COUNTS = (0, 1, 2, 1_000_000)


def _catalog(locale: str, messages: dict[str, str], where: str = "src/x.py") -> Catalog:
    catalog = Catalog(locale=locale, domain="messages", fuzzy=False)
    for msgid, msgstr in messages.items():
        catalog.add(msgid, msgstr, [(where, 1)])
    return catalog


def _write(root: Path, locale: str, catalog: Catalog) -> None:
    po = po_path(locale, root)
    po.parent.mkdir(parents=True, exist_ok=True)
    with po.open("wb") as file:
        write_po(file, catalog)


def test_a_missing_mo_is_compiled_from_its_po(tmp_path):
    shutil.copytree(LOCALE, tmp_path, dirs_exist_ok=True)
    for mo in tmp_path.rglob("*.mo"):
        mo.unlink()
    Catalogs(tmp_path)
    mo = po_path("es", tmp_path).with_suffix(".mo")
    assert mo.exists()
    assert gettext.GNUTranslations(io.BytesIO(mo.read_bytes())).gettext("Settings") == "Ajustes"


def test_a_language_without_its_catalog_is_named(tmp_path):
    _write(tmp_path, "es", _catalog("es", {}))
    with pytest.raises(FileNotFoundError, match="pt-BR has no catalog"):
        Catalogs(tmp_path)


def test_messages_fall_back_along_the_chain_to_english(tmp_path):
    _write(tmp_path, "es", _catalog("es", {"Pass": "Paso"}))
    _write(tmp_path, "pt_BR", _catalog("pt_BR", {"Pass": "Passo", "Draw": ""}))
    found = Catalogs(tmp_path)
    assert found.translator("pt-BR").gettext("Pass") == "Passo"
    assert found.translator("pt-BR").gettext("Draw") == "Draw"  # untranslated: English
    assert found.translator("es-MX").gettext("Pass") == "Paso"  # es-MX -> es
    assert found.translator("fr").gettext("Pass") == "Pass"
    # A pt catalog would stand between pt-BR and English: gettext's fallback does that step.
    pt = gettext.GNUTranslations(io.BytesIO(_mo(_catalog("pt", {"Draw": "Comprar"}))))
    head = gettext.GNUTranslations(io.BytesIO(_mo(_catalog("pt_BR", {"Pass": "Passo"}))))
    head.add_fallback(pt)
    assert (head.gettext("Pass"), head.gettext("Draw"), head.gettext("Hi")) == (
        "Passo",
        "Comprar",
        "Hi",
    )


def _mo(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    return buffer.getvalue()


def test_the_page_gets_its_own_messages_only_translated_and_not_fuzzy():
    catalog = _catalog("es", {"Server words": "Palabras del servidor"})
    catalog.add("Play now", "Jugar ya", [("src/dominohall/web/static/js/home.js", 3)])
    catalog.add("Draft", "Borrador", [("src/dominohall/web/static/js/home.js", 4)], flags=["fuzzy"])
    catalog.add("Later", "", [("src/dominohall/web/static/js/home.js", 5)])
    catalog.add(
        ("{n} game", "{n} games"),
        ("{n} partida", "{n} de partidas", "{n} partidas"),
        [("src/dominohall/web/static/js/pages.js", 1)],
    )
    catalog.add("Pass", "Pasar", [("src/dominohall/web/static/js/game.js", 1)], context="button")
    page = orjson.loads(page_catalog(catalog).body)
    assert page["messages"] == {
        "Play now": "Jugar ya",
        "{n} game": ["{n} partida", "{n} de partidas", "{n} partidas"],
        "button\x04Pass": "Pasar",
    }
    assert page["nplurals"] == 3
    assert page["plural"] == catalog.plural_expr


def _index(expression: str, n: int) -> int:
    return int(gettext.c2py(expression)(n))


@pytest.mark.parametrize("tag, locale", [("en", "en"), ("es", "es"), ("pt-BR", "pt_BR")])
def test_the_catalogs_plural_rules_agree_with_cldr(tag, locale):
    """Each count's form is the CLDR category Babel gives for it, in gettext's order of forms."""
    cldr = Locale.parse(locale)
    tags = [
        t
        for t in ("zero", "one", "two", "few", "many", "other")
        if t in cldr.plural_form.tags | {"other"}
    ]
    if tag == "en":
        expression = "(n != 1)"
    else:
        header = orjson.loads(catalogs().page(tag).body)  # the catalog's own Plural-Forms
        expression = header["plural"]
        assert header["nplurals"] == len(tags)
    for n in COUNTS:
        assert tags[_index(expression, n)] == cldr.plural_form(n), (tag, n)


def test_zero_is_singular_in_portuguese_and_plural_in_spanish(tmp_path):
    """Through the server's own translators, with each language's Plural-Forms as Babel writes
    it (the catalogs' headers): es has one/many/other, pt-BR counts 0 as one."""
    games = ("{n} game", "{n} games")
    forms = {
        "es": ("{n} partida", "{n} de partidas", "{n} partidas"),
        "pt_BR": ("{n} partida", "{n} de partidas", "{n} partidas"),
    }
    for locale, strings in forms.items():
        catalog = _catalog(locale, {})
        catalog.add(games, strings, [("src/x.py", 1)])
        _write(tmp_path, locale, catalog)
    found = Catalogs(tmp_path)
    said = {
        tag: [found.translator(tag).ngettext(*games, n).format(n=n) for n in COUNTS]
        for tag in ("en", "es", "pt-BR")
    }
    assert said["en"] == ["0 games", "1 game", "2 games", "1000000 games"]
    assert said["es"] == ["0 partidas", "1 partida", "2 partidas", "1000000 de partidas"]
    assert said["pt-BR"] == ["0 partida", "1 partida", "2 partidas", "1000000 de partidas"]


def test_compile_catalog_keeps_an_up_to_date_mo(tmp_path):
    _write(tmp_path, "es", _catalog("es", {"Pass": "Paso"}))
    first = compile_catalog("es", tmp_path)
    mo = po_path("es", tmp_path).with_suffix(".mo")
    assert mo.read_bytes() == first
    assert compile_catalog("es", tmp_path) == first
