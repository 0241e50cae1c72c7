"""The links in the hall's emails: a table, "My games", and two signed links that work without a
sign-in: confirming an address (for a week) and stopping the notices (for good, one click).

A token names the player and the address it was sent to, signed with the hall's secret, so it
acts on that address only: once the player has set another one, an old link does nothing.
"""

from __future__ import annotations

from urllib.parse import quote

from itsdangerous import BadSignature, SignatureExpired, URLSafeSerializer, URLSafeTimedSerializer

CONFIRM_SECONDS = 7 * 24 * 3600  # a confirmation link works this long


class LinkExpired(Exception):
    """A confirmation link older than CONFIRM_SECONDS."""


class MailLinks:
    def __init__(self, secret: str, public_url: str) -> None:
        self.base = public_url.rstrip("/")
        self._confirm = URLSafeTimedSerializer(secret, salt="dominohall.email.confirm")
        self._unsubscribe = URLSafeSerializer(secret, salt="dominohall.email.unsubscribe")

    def table(self, table_id: str) -> str:
        return f"{self.base}/t/{quote(table_id)}"

    def my_games(self) -> str:
        return f"{self.base}/my-games"

    def confirm(self, player: str, address: str) -> str:
        token = self._confirm.dumps([player, address])
        return f"{self.base}/email/confirm?token={token}"

    def unsubscribe(self, player: str, address: str) -> str:
        token = self._unsubscribe.dumps([player, address])
        return f"{self.base}/email/unsubscribe?token={token}"

    def read_confirm(self, token: str) -> tuple[str, str] | None:
        """(player, address) of a confirmation token; None when it is not one of ours.

        Raises LinkExpired for one of ours that is too old."""
        try:
            value = self._confirm.loads(token, max_age=CONFIRM_SECONDS)
        except SignatureExpired:
            raise LinkExpired from None
        except BadSignature:
            return None
        return _pair(value)

    def read_unsubscribe(self, token: str) -> tuple[str, str] | None:
        try:
            value = self._unsubscribe.loads(token)
        except BadSignature:
            return None
        return _pair(value)


def _pair(value: object) -> tuple[str, str] | None:
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value):
        return value[0], value[1]
    return None
