"""Who is asking: the player id in a signed cookie (itsdangerous), with a secret kept on disk."""

from __future__ import annotations

import secrets
from pathlib import Path

from itsdangerous import BadSignature, URLSafeTimedSerializer
from starlette.requests import HTTPConnection
from starlette.responses import Response

COOKIE = "dominohall"
MAX_AGE = 400 * 24 * 3600  # the longest a browser keeps a cookie


def load_secret(folder: Path) -> str:
    """The signing secret: made once in the data folder, so sign-ins survive restarts."""
    path = folder / "secret"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        path.touch(mode=0o600)
        path.write_text(secrets.token_urlsafe(48))
    return path.read_text().strip()


class Cookies:
    def __init__(self, secret: str) -> None:
        self._signer = URLSafeTimedSerializer(secret, salt="dominohall-player")

    def player_id(self, conn: HTTPConnection) -> str | None:
        value = conn.cookies.get(COOKIE)
        if not value:
            return None
        try:
            player_id = self._signer.loads(value, max_age=MAX_AGE)
        except BadSignature:
            return None
        return player_id if isinstance(player_id, str) else None

    def sign_in(self, response: Response, player_id: str) -> None:
        response.set_cookie(
            COOKIE,
            self._signer.dumps(player_id),
            max_age=MAX_AGE,
            httponly=True,
            samesite="lax",
        )

    def sign_out(self, response: Response) -> None:
        response.delete_cookie(COOKIE, httponly=True, samesite="lax")
