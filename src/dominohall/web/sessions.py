"""Who is asking: a session kept by the hall, named by a random token in the ``dominohall`` cookie.

The cookie holds 256 random bits; the accounts keep only their SHA-256, with the player, and the
session ends at sign-out, at "sign out everywhere", at a password change, or after ``lifetime``
without a visit (each visit moves the end on, at most once an hour). A cookie of the kind the
hall gave before sessions (a signed player id) is exchanged for a session on its first use, once.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from itsdangerous import BadSignature, URLSafeTimedSerializer
from starlette.datastructures import MutableHeaders
from starlette.requests import HTTPConnection
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..hall.accounts import Accounts, StoredPlayer
from .proxy import Proxies

COOKIE = "dominohall"
LIFETIME = 30 * 24 * 3600.0  # a session unused this long ends
GUEST_LIFETIME = 30 * 24 * 3600.0  # a guest with no game, not seen this long, is forgotten
SLIDE_EVERY = 3600.0  # how often a session in use has its end moved on (one write)
_LEGACY_MAX_AGE = 400 * 24 * 3600  # what the old cookies were signed for
_SIGNED = "dominohall.signed"  # the request's session, found once per request
_COOKIE_DUE = "dominohall.cookie"  # a cookie to send with the answer (an exchange, a slide)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Signed:
    """A request's player, and its session (None: an old cookie honoured on a socket)."""

    player: StoredPlayer
    session: str | None


class Sessions:
    def __init__(
        self,
        proxies: Proxies,
        now: Callable[[], float],
        *,
        lifetime: float = LIFETIME,
        secure: bool = False,
    ) -> None:
        self._legacy: URLSafeTimedSerializer | None = None  # until ``sign_with``
        self.proxies = proxies
        self.now = now
        self.lifetime = lifetime
        self.secure = secure

    def sign_with(self, secret: str) -> None:
        """The hall's secret (``secret.py``), known once the hall is open: old cookies are
        read with it."""
        self._legacy = URLSafeTimedSerializer(secret, salt="dominohall-player")

    # Who asks -----------------------------------------------------------------------------
    async def signed(self, accounts: Accounts, conn: HTTPConnection) -> Signed | None:
        """The request's player and session, if its cookie names a live one (looked up once)."""
        if _SIGNED not in conn.scope:
            conn.scope[_SIGNED] = await self._look_up(accounts, conn)
        return conn.scope[_SIGNED]  # type: ignore[no-any-return]

    async def _look_up(self, accounts: Accounts, conn: HTTPConnection) -> Signed | None:
        token = conn.cookies.get(COOKIE)
        if not token:
            return None
        if "." in token:  # the old kind: payload.timestamp.signature
            return await self._exchange(accounts, conn, token)
        session = _hash(token)
        now = self.now()
        found = await accounts.session(session, now)
        if found is None:
            return None
        player, seen_at = found
        # Only where the cookie can be sent again too (not on a socket): the two end together.
        if now - seen_at >= SLIDE_EVERY and conn.scope["type"] == "http":
            await accounts.touch_session(session, player.id, now, now + self.lifetime)
            conn.scope[_COOKIE_DUE] = self._cookie_header(conn, token)
        return Signed(player, session)

    async def _exchange(
        self, accounts: Accounts, conn: HTTPConnection, value: str
    ) -> Signed | None:
        if self._legacy is None:  # the hall has not started
            return None
        try:
            player_id = self._legacy.loads(value, max_age=_LEGACY_MAX_AGE)
        except BadSignature:
            return None
        player = await accounts.player(player_id) if isinstance(player_id, str) else None
        if player is None:
            return None
        if conn.scope["type"] == "websocket":
            # No cookie can be set on a socket: honour the old one until a page request swaps it.
            return Signed(player, None) if await accounts.legacy_cookie(player.id) else None
        if not await accounts.take_legacy_cookie(player.id):
            return None
        token = await self._open(accounts, player.id)
        conn.scope[_COOKIE_DUE] = self._cookie_header(conn, token)
        return Signed(player, _hash(token))

    # Starting and ending ----------------------------------------------------------------
    async def _open(self, accounts: Accounts, player_id: str) -> str:
        token = secrets.token_urlsafe(32)
        now = self.now()
        await accounts.add_session(_hash(token), player_id, now, now + self.lifetime)
        return token

    async def start(
        self, accounts: Accounts, conn: HTTPConnection, response: Response, player_id: str
    ) -> None:
        """A new session for ``player_id`` (ending the one the request came with, if any)."""
        await self._end_current(accounts, conn)
        token = await self._open(accounts, player_id)
        self._set_cookie(conn, response, token)

    async def end(self, accounts: Accounts, conn: HTTPConnection, response: Response) -> None:
        await self._end_current(accounts, conn)
        response.delete_cookie(COOKIE, httponly=True, samesite="lax", secure=self._secure(conn))

    async def end_everywhere(
        self, accounts: Accounts, conn: HTTPConnection, response: Response, player_id: str
    ) -> int:
        ended = await accounts.end_sessions(player_id)
        conn.scope[_SIGNED] = None
        response.delete_cookie(COOKIE, httponly=True, samesite="lax", secure=self._secure(conn))
        return ended

    async def _end_current(self, accounts: Accounts, conn: HTTPConnection) -> None:
        signed = await self.signed(accounts, conn)
        if signed is not None and signed.session is not None:
            await accounts.end_session(signed.session)
        conn.scope[_SIGNED] = None
        conn.scope.pop(_COOKIE_DUE, None)

    # The cookie ---------------------------------------------------------------------------
    def _secure(self, conn: HTTPConnection) -> bool:
        return self.secure or self.proxies.https(conn.scope)

    def _set_cookie(self, conn: HTTPConnection, response: Response, token: str) -> None:
        response.set_cookie(
            COOKIE,
            token,
            max_age=int(self.lifetime),
            httponly=True,
            samesite="lax",
            secure=self._secure(conn),
        )

    def _cookie_header(self, conn: HTTPConnection, token: str) -> bytes:
        carrier = Response()
        self._set_cookie(conn, carrier, token)
        return carrier.headers["set-cookie"].encode("latin-1")


class CookieRefresh:
    """ASGI middleware: sends the cookie a request's look-up renewed or exchanged, unless the
    handler set one of its own (a sign-in, a sign-out)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_cookie(message: Message) -> None:
            due = scope.get(_COOKIE_DUE)
            if message["type"] == "http.response.start" and due is not None:
                headers = MutableHeaders(scope=message)
                if not any(v.startswith(f"{COOKIE}=") for v in headers.getlist("set-cookie")):
                    headers.append("set-cookie", due.decode("latin-1"))
            await send(message)

        await self.app(scope, receive, send_with_cookie)


async def clean_up(accounts: Accounts, now: float, guest_lifetime: float = GUEST_LIFETIME) -> int:
    """End expired sessions and forget idle guests with no game; returns how many were forgotten."""
    return await accounts.forget_guests(now - guest_lifetime, now)
