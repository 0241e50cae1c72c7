"""Refuse what another site's page makes a browser send: state-changing requests and socket upgrades.

A browser says where a request comes from (``Origin``, ``Sec-Fetch-Site``); a request from a page
of another site, or of a sibling site, is refused with 403 ``cross_site``. A request with neither
header is not from a browser page (a program written from docs/protocol.md) and passes. A body
must be JSON and say so (``Content-Type: application/json``), which no plain HTML form can send,
except at the few paths that take a form on purpose (``form_paths``: the one-click unsubscribe of
RFC 8058, which mail providers post as a form from their own servers).
"""

from __future__ import annotations

import logging
from contextvars import ContextVar
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from ..hall import HallError
from .language import error_answer
from .proxy import Proxies
from .statuses import status_of

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# Set in the task of a socket upgrade this guard refused: the server's complaint that follows is
# not an error (``QuietRefusedUpgrades``).
_REFUSED_UPGRADE: ContextVar[bool] = ContextVar("refused_upgrade", default=False)
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")  # type: ignore[no-any-return]
    return None


def _origin_of(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin or URL, ports made explicit; None when it is not one."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port or _DEFAULT_PORTS[scheme]


def own_origin(scope: Scope, proxies: Proxies) -> tuple[str, str, int] | None:
    """The hall's origin as the client reached it: the Host it asked for, http or https."""
    host = proxies.host(scope)
    if not host:
        return None
    scheme = "https" if proxies.https(scope) else "http"
    return _origin_of(f"{scheme}://{host}")


def cross_site(scope: Scope, proxies: Proxies) -> HallError | None:
    """Why a request comes from another site's page, or None when it does not."""
    fetch_site = (_header(scope, b"sec-fetch-site") or "").strip().lower()
    if fetch_site in ("cross-site", "same-site"):
        return HallError(
            "cross_site",
            "the browser says this request comes from another site ({fetch_site})",
            fetch_site=fetch_site,
        )
    origin = _header(scope, b"origin")
    if origin is None:
        return None
    own = own_origin(scope, proxies)
    if own is None or _origin_of(origin.strip()) != own:
        shown = f"{own[0]}://{own[1]}:{own[2]}" if own else "unknown: no Host header"
        return HallError(
            "cross_site",
            "this request comes from {origin!r}, not from this hall ({shown}); "
            "behind a reverse proxy, list it in --trusted-proxy",
            origin=origin,
            shown=shown,
        )
    return None


FORM_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})


def wrong_content_type(scope: Scope, form_paths: frozenset[str] = frozenset()) -> HallError | None:
    """Why a request's body is refused for its content type, or None (JSON, or no body at all;
    a form, at ``form_paths``)."""
    length = _header(scope, b"content-length")
    has_body = _header(scope, b"transfer-encoding") is not None or (
        length is not None and length.strip() != "0"
    )
    if not has_body:
        return None
    given = _header(scope, b"content-type")
    media = (given or "").split(";")[0].strip().lower()
    if media == "application/json" or (media in FORM_TYPES and scope["path"] in form_paths):
        return None
    if not given:
        return HallError(
            "bad_content_type",
            "a body is JSON, sent as Content-Type: application/json, and this request does not say",
        )
    return HallError(
        "bad_content_type",
        "a body is JSON, sent as Content-Type: application/json, not {given}",
        given=given,
    )


class CrossSiteGuard:
    """ASGI middleware: every state-changing request and every socket upgrade passes the checks above."""

    def __init__(
        self, app: ASGIApp, proxies: Proxies, form_paths: frozenset[str] = frozenset()
    ) -> None:
        self.app = app
        self.proxies = proxies
        self.form_paths = form_paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refusal: HallError | None = None
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            refusal = cross_site(scope, self.proxies) or wrong_content_type(scope, self.form_paths)
        elif scope["type"] == "websocket":
            refusal = cross_site(scope, self.proxies)
        if refusal is None:
            await self.app(scope, receive, send)
            return
        response = error_answer(refusal, HTTPConnection(scope), status_of(refusal))
        if scope["type"] == "http":
            await response(scope, receive, send)
        else:
            await _deny_upgrade(scope, receive, send, response)


async def _deny_upgrade(scope: Scope, receive: Receive, send: Send, response: Any) -> None:
    """Answer a socket upgrade with an HTTP status (or, where the server cannot, close it first)."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    if "websocket.http.response" in scope.get("extensions", {}):
        await response(scope, receive, send)  # Starlette sends it as websocket.http.response.*
        _REFUSED_UPGRADE.set(True)
    else:
        await send({"type": "websocket.close", "code": 4403, "reason": ""})


class QuietRefusedUpgrades(logging.Filter):
    """uvicorn logs "ASGI callable returned without completing handshake." at ERROR after every
    upgrade answered with an HTTP status instead of a socket (it never counts that answer as the
    handshake); for an upgrade this guard refused, the 403 is the documented answer, not a fault
    of the server, so the line is dropped (uvicorn's access line still shows the 403)."""

    def filter(self, record: logging.LogRecord) -> bool:
        complaint = str(record.msg).startswith("ASGI callable returned without completing")
        return not (complaint and _REFUSED_UPGRADE.get())


def quiet_refused_upgrades() -> None:
    server_log = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, QuietRefusedUpgrades) for f in server_log.filters):
        server_log.addFilter(QuietRefusedUpgrades())
