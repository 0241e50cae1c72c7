"""The hall in the reader's language (issue 26): the page's html lang and catalog, the catalogs'
JSON, the switch's POST /api/me/language on the cookie and the account, and error messages."""

from __future__ import annotations

import re

import orjson

from dominohall.hall import HallError
from dominohall.hall.abandonment import HeldBack
from dominohall.hall.errors import store_unavailable
from dominohall.i18n import English, catalogs
from dominohall.web.language import refusal
from web.test_ranked import account, error_of

SPANISH = {"Accept-Language": "es-MX,es;q=0.9,en;q=0.5"}


def _lang(page: str) -> str:
    return re.search(r'<html lang="([^"]+)">', page).group(1)


def test_the_page_is_served_in_the_browsers_language_with_its_catalog_preloaded(hall):
    page = hall.client.get("/", headers=SPANISH).text
    assert _lang(page) == "es"
    assert "Juega dominó en el navegador" in page and "Domino Hall necesita JavaScript" in page
    url = re.search(r'<link rel="preload" id="catalog" href="([^"]+)" as="fetch"', page).group(1)
    assert url == f"/i18n/es.json?v={catalogs().page('es').version}"
    english = hall.client.get("/", headers={"Accept-Language": "de, en;q=0.5"}).text
    assert _lang(english) == "en" and 'id="catalog"' not in english  # English loads nothing
    assert (
        hall.client.get("/", headers={"Accept-Language": "pt-PT"}).text.count('lang="pt-BR"') == 1
    )


def test_a_catalog_is_kept_a_year_under_its_version_and_asked_again_without(hall):
    version = catalogs().page("pt-BR").version
    kept = hall.client.get(f"/i18n/pt-BR.json?v={version}", headers={"Accept-Encoding": "br"})
    assert kept.status_code == 200 and kept.headers["cache-control"].endswith("immutable")
    assert kept.headers["content-encoding"] == "br"
    body = orjson.loads(kept.content)
    assert body["messages"]["Settings"] == "Configurações"
    assert body["nplurals"] == 3 and "n == 0 || n == 1" in body["plural"]
    assert "wrong username or password" not in body["messages"]  # the server's words stay there
    unversioned = hall.client.get("/i18n/pt-BR.json")
    assert unversioned.headers["cache-control"] == "no-cache"
    again = hall.client.get(
        f"/i18n/pt-BR.json?v={version}", headers={"If-None-Match": kept.headers["etag"]}
    )
    assert again.status_code == 304
    assert hall.client.get("/i18n/en.json").status_code == 404  # English has no catalog
    missing = hall.client.get("/i18n/fr.json")
    assert missing.status_code == 404 and "one of es, pt-BR" in missing.text


def test_the_switch_keeps_the_choice_in_the_cookie_and_on_the_account(hall):
    ann = account(hall, "Ann")
    answer = ann.post("/api/me/language", {"language": "pt-br"})
    assert answer.status_code == 200 and answer.json() == {"language": "pt-BR"}
    assert answer.cookies["lang"] == "pt-BR"
    assert ann.get("/api/me").json()["player"]["language"] == "pt-BR"
    # The account's choice wins over the browser's, and a new browser signing in gets the cookie.
    page = hall.client.get("/", headers={**ann.headers, **SPANISH})
    assert _lang(page.text) == "pt-BR" and page.cookies["lang"] == "pt-BR"
    hall.client.cookies.clear()
    signed = hall.client.post("/api/sign-in", json={"username": "ann", "password": "correct horse"})
    assert signed.cookies["lang"] == "pt-BR"
    hall.client.cookies.clear()
    code, message = error_of(ann.post("/api/me/language", {"language": "fr"}), 400)
    assert (code, message) == ("bad_request", "the hall does not speak 'fr': one of en, es, pt-BR")


def test_a_guest_without_a_session_chooses_by_cookie(hall):
    answer = hall.client.post("/api/me/language", json={"language": "es"})
    assert answer.status_code == 200 and answer.cookies["lang"] == "es"
    hall.client.cookies.clear()
    page = hall.client.get("/", headers={"Cookie": "lang=es", "Accept-Language": "pt-BR"})
    assert _lang(page.text) == "es"


def test_errors_keep_their_code_and_speak_the_readers_language(hall):
    # A template translated with its parameters.
    answer = hall.client.post("/api/guest", json={"name": "x" * 30}, headers=SPANISH)
    assert error_of(answer, 400) == ("bad_name", "un nombre tiene de 1 a 20 caracteres, no 30")
    hall.client.cookies.clear()
    # Another template, another language (the cookie).
    answer = hall.client.get("/api/tables/nope", headers={"Cookie": "lang=pt-BR"})
    assert error_of(answer, 404) == ("no_table", "não há mesa 'nope'")
    # A field's refusal, a whole sentence (once an f-string the catalog could not hold).
    answer = hall.client.post("/api/me/language", json={"language": 3}, headers=SPANISH)
    assert error_of(answer, 400) == ("bad_request", "'language' es un texto, no 3")
    hall.client.cookies.clear()
    # A message the catalog does not hold (a rule's words, str(exc)): the code's general words.
    assert refusal(HallError("bad_request", "words no catalog holds"), "es") == {
        "code": "bad_request",
        "message": "La sala no entendió esa petición.",
    }
    # English: the precise message as ever.
    assert error_of(hall.client.get("/api/tables/nope"), 404) == (
        "no_table",
        "there is no table 'nope'",
    )


def test_a_sockets_errors_speak_its_language(hall):
    ann = hall.guest("Ann")
    table = ann.post("/api/tables", {}).json()["table"]["id"]
    headers = {**ann.headers, "Cookie": ann.headers["Cookie"] + "; lang=es"}
    with hall.client.websocket_connect(f"/ws/tables/{table}", headers=headers) as ws:
        ws.send_text("[]")
        while (message := ws.receive_json())["type"] != "error":
            pass
    assert message["code"] == "bad_message"
    assert message["message"] == "un mensaje es un objeto JSON, no []"


def test_words_inside_a_refusal_are_translated_with_it_or_give_way_to_the_codes_words():
    # Fixed words (a Phrase) are translated inside the message that holds them.
    assert refusal(store_unavailable(), "es")["message"] == (
        "ahora no se puede llegar a la base de datos: no se hizo nada; inténtalo de nuevo"
    )
    # English no catalog holds (an exception's text): the code's general words instead.
    broken = HallError("bad_json", "not JSON: {exc}", exc=English("unexpected character: line 1"))
    assert refusal(broken, "pt-BR")["message"] == "O salão não conseguiu ler esse pedido."
    assert refusal(broken, "en")["message"] == "not JSON: unexpected character: line 1"
    # A player's name is not a Phrase: it stays as written, even where it is an English word.
    named = HallError("no_player", "there is no player {username!r}", username="Pass")
    assert refusal(named, "es")["message"] == "no hay ningún jugador 'Pass'"


def test_a_translated_error_keeps_what_its_kind_adds():
    held = HeldBack(until=1_000_600.0, now=1_000_000.0)
    said = refusal(held, "es")
    assert said == {
        "code": "held_back",
        "message": "dejaste partidas en tiempo real sin terminar hace poco: podrás empezar o "
        "entrar en una nueva en 10 min (una partida por turnos, o mirar, puedes ya)",
        "until": 1_000_600.0,
    }
    assert refusal(held, "en") == held.to_json()
    # A translation naming a parameter the error lacks: the code's words rather than a crash.
    wrong = HallError("no_table", "there is no table {table!r}", table="t1")
    assert refusal(wrong, "es")["message"] == "no hay ninguna mesa 't1'"
    wrong.params = {"tablex": "t1"}
    assert refusal(wrong, "es")["message"] == "Esa mesa no existe."
