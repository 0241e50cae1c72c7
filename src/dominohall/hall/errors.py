"""The one error the hall raises: a code a client can act on and a message saying what was wrong.

The hall knows no HTTP: which status answers a code is the web's (``web/statuses.py``).
"""

from __future__ import annotations

from typing import Any

from ..i18n import English, Phrase
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

    def carried(self) -> dict[str, Any]:
        """This refusal as JSON for another process to raise again (``owner_link.py``): its
        template and parameters, so that it is still translated there, and what its kind adds."""
        said: dict[str, Any] = dict(self.to_json())
        return {
            "code": said.pop("code"),
            "message": said.pop("message"),
            "template": self.template,
            "params": {name: _carried(value) for name, value in self.params.items()},
            "adds": said,
        }

    @staticmethod
    def raised_again(carried: dict[str, Any]) -> HallError:
        """The refusal ``carried`` describes, as the process that refused it would tell it."""
        params = {name: _uncarried(value) for name, value in carried["params"].items()}
        error = CarriedRefusal(carried["code"], carried["template"], **params)
        error.message = carried["message"]  # (as told there, whatever the template)
        error.adds = carried["adds"]
        return error


class CarriedRefusal(HallError):
    """A refusal made on another process, with what its kind added to the wire there."""

    adds: dict[str, Any]

    @property
    def retry_after(self) -> Any:
        """When to come back, as the refusing kind said it (the answer's ``Retry-After``)."""
        return self.adds.get("retry_after")

    def to_json(self) -> Refusal:
        return {**self.adds, "code": self.code, "message": self.message}  # type: ignore[typeddict-item]


_NATIVE = (str, int, float, bool, type(None), list, dict)


def _carried(value: object) -> object:
    if isinstance(value, Phrase):
        return {"phrase": str(value)}
    if isinstance(value, English) or not isinstance(value, _NATIVE):
        return {"english": str(value)}
    return value


def _uncarried(value: object) -> object:
    if isinstance(value, dict) and len(value) == 1:
        if "phrase" in value:
            return Phrase(value["phrase"])
        if "english" in value:
            return English(value["english"])
    return value


STORE_UNAVAILABLE = "store_unavailable"


NOTHING_DONE = Phrase("nothing was done")


def store_unavailable(words: Phrase = NOTHING_DONE) -> HallError:
    """The database is away just now (``outage.py``): ``words`` say what became of the request;
    trying again shortly is safe."""
    return HallError(
        STORE_UNAVAILABLE, "the database is unreachable just now: {words}; try again", words=words
    )
