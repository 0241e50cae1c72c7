"""The one error the hall raises: a code a client can act on and a message saying what was wrong.

The hall knows no HTTP: which status answers a code is the web's (``web/statuses.py``).
"""

from __future__ import annotations

from ..store import StoreUnavailable
from .messages import Refusal

__all__ = ["STORE_UNAVAILABLE", "HallError", "StoreUnavailable", "store_unavailable"]


class HallError(Exception):
    """A refused request; the table is unchanged."""

    def __init__(self, code: str, message: str, /, **params: object) -> None:
        """``message`` is English; with ``params`` it is a template (``"there is no player
        {name}"``, ``name=...``), so that the web can translate the template and fill it in the
        reader's language (``web/language.py``). A literal message is translated as it stands."""
        english = message.format(**params) if params else message
        super().__init__(english)
        self.code = code
        self.message = english
        self.template = message
        self.params = params

    def to_json(self) -> Refusal:
        return {"code": self.code, "message": self.message}


STORE_UNAVAILABLE = "store_unavailable"


def store_unavailable(words: str = "nothing was done") -> HallError:
    """The database is away just now (``outage.py``): ``words`` say what became of the request;
    trying again shortly is safe."""
    return HallError(
        STORE_UNAVAILABLE, "the database is unreachable just now: {words}; try again", words=words
    )
