"""The language of a request or a socket (``i18n.choose``), the ``/i18n/<lang>.json`` the page
loads, the language switch's ``POST /api/me/language``, and refusals in the reader's language.

An error's ``code`` stays English; its ``message`` is translated: a ``HallError``'s template if
the catalog has it (filled with its parameters, a ``Phrase`` among them translated too), else the
code's own words (``refusals.py``; also when a parameter is ``English`` no catalog holds), else
the English message as it came.
"""

from __future__ import annotations

from html import escape

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from .. import i18n
from ..hall import HallError
from ..hall.messages import LanguageChoice, Refusal
from ..i18n import N_
from .assets import KEPT, Asset, answer
from .refusals import CODE_WORDS

COOKIE_AGE = 2 * 365 * 24 * 3600  # seconds: a choice kept two years


def language_of(conn: HTTPConnection, account: str | None = None) -> str:
    """The language to answer ``conn`` in: the account's setting (when the caller knows the
    player), the cookie (which mirrors the account's setting once chosen), ``Accept-Language``."""
    return i18n.choose(account, conn.cookies.get(i18n.COOKIE), conn.headers.get("accept-language"))


def refusal(error: HallError, tag: str) -> Refusal:
    """``error`` as the wire writes it, its message in ``tag``'s words where the catalog has them."""
    said = error.to_json()  # (with what some errors add: "until", "retry_after")
    if tag == i18n.SOURCE:
        return said
    words = i18n.translator(tag)
    template = words.gettext(error.template)
    untranslatable = any(isinstance(v, i18n.English) for v in error.params.values())
    if template != error.template and not untranslatable:
        params = {
            k: words.gettext(v) if isinstance(v, i18n.Phrase) else v
            for k, v in error.params.items()
        }
        try:
            return {**said, "message": template.format(**params)}
        except (KeyError, IndexError, ValueError):  # a translation naming a parameter wrongly
            pass
    general = CODE_WORDS.get(error.code)
    if general is not None:
        return {**said, "message": words.gettext(general)}
    return said


def error_answer(error: HallError, conn: HTTPConnection, status: int, **headers: str) -> Response:
    return JSONResponse(
        {"error": refusal(error, language_of(conn))}, status_code=status, headers=headers or None
    )


# The page's catalogs -----------------------------------------------------------------------
_assets: dict[str, Asset] = {}  # a language's JSON compressed once, by its version


def catalog_url(tag: str) -> str | None:
    """The versioned address of a language's messages for the page (None: English)."""
    page = i18n.catalogs().page(tag)
    return f"/i18n/{tag}.json?v={page.version}" if page is not None else None


async def page_catalog(request: Request) -> Response:
    """``GET /i18n/<lang>.json``: a language's messages; kept a year under its version's address
    (``?v=``, which the page names), asked for again under any other."""
    tag = request.path_params["lang"]
    page = i18n.catalogs().page(tag)
    if page is None:
        spoken = ", ".join(lang.tag for lang in i18n.LANGUAGES if lang.tag != i18n.SOURCE)
        return PlainTextResponse(
            f"no catalog for {tag!r}: the page loads one of {spoken}", status_code=404
        )
    asset = _assets.get(page.version)
    if asset is None:
        asset = _assets[page.version] = Asset.of(page.body, ".json")
    cache = KEPT if request.query_params.get("v") == page.version else "no-cache"
    return answer(request, asset, cache)


def set_language_cookie(conn: HTTPConnection, response: Response, tag: str) -> None:
    response.set_cookie(
        i18n.COOKIE,
        tag,
        max_age=COOKIE_AGE,
        path="/",
        samesite="lax",
        secure=conn.url.scheme == "https",
    )


def languages_json() -> list[LanguageChoice]:
    """The languages the switch offers, each named in itself."""
    return [{"tag": lang.tag, "name": lang.name} for lang in i18n.LANGUAGES]


# The page itself -------------------------------------------------------------------------
# index.html's own words, marked here (Babel reads no HTML): the title, the description and
# the note for a browser without JavaScript.
INDEX_WORDS = (
    N_("Domino Hall"),
    N_("Play dominoes in the browser with friends or computer players."),
    N_("Domino Hall needs JavaScript to play."),
)
_pages: dict[tuple[str, str], Asset] = {}  # (the page as served, language) -> its form


def localized_page(index_html: str, tag: str) -> Asset:
    """``index.html`` in ``tag``: its ``lang``, its words, and for a language other than English
    a preload of its catalog, which ``js/i18n.js`` reads before the page draws anything."""
    kept = _pages.get((index_html, tag))
    if kept is not None:
        return kept
    html = index_html.replace('<html lang="en">', f'<html lang="{tag}">', 1)
    words = i18n.translator(tag)
    for english in INDEX_WORDS:
        html = html.replace(f">{english}<", f">{escape(words.gettext(english))}<")
        html = html.replace(f'"{english}"', f'"{escape(words.gettext(english))}"')
    url = catalog_url(tag)
    if url is not None:
        preload = f'<link rel="preload" id="catalog" href="{url}" as="fetch" crossorigin>\n'
        html = html.replace('<script type="module"', preload + '<script type="module"', 1)
    asset = _pages[(index_html, tag)] = Asset.of(html.encode(), ".html")
    return asset
