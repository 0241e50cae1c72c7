"""The one error the hall raises: a code a client can act on and a message saying what was wrong."""

from __future__ import annotations


class HallError(Exception):
    """A refused request; the table is unchanged. ``status`` is the HTTP status to answer with."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}
