"""The one error the hall raises: a code a client can act on and a message saying what was wrong.

The hall knows no HTTP: which status answers a code is the web's (``web/statuses.py``).
"""

from __future__ import annotations

from .messages import Refusal


class HallError(Exception):
    """A refused request; the table is unchanged."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> Refusal:
        return {"code": self.code, "message": self.message}
