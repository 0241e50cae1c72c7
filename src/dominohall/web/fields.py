"""The JSON clients send: parsed with a cap on nesting, then read field by field with one type check each.

HTTP bodies and socket messages are read alike; a wrong type is refused with the code the caller
names (``bad_request`` for a body, ``bad_message`` for a socket message) and a message naming the
field. Whether a well-typed value is allowed (a known preset, a free seat) is the hall's to say.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import accumulate
from typing import Any

import orjson

from ..hall import HallError
from ..i18n import N_, English

MAX_DEPTH = 32  # arrays and objects inside one another; the protocol needs 3

_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)  # brackets in strings do not nest
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def parse(raw: bytes | str) -> Any:
    """The JSON value in ``raw``; ``bad_json`` if it is not JSON or nests deeper than MAX_DEPTH.

    The depth is checked before parsing, on the text: a deep value would overflow Python's stack
    wherever it is walked recursively (repr, json.dumps).
    """
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogatepass")  # orjson refuses lone surrogates itself
    if _deeper_than(raw, MAX_DEPTH):
        raise HallError(
            "bad_json", "the JSON nests deeper than {max_depth} levels", max_depth=MAX_DEPTH
        )
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise HallError("bad_json", "not JSON: {exc}", exc=English(str(exc))) from None


def _deeper_than(raw: bytes, limit: int) -> bool:
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False  # the usual case: too few brackets to nest that deep
    brackets = _STRING.sub(b"", raw).translate(None, _NOT_BRACKETS)
    # The running depth, bracket by bracket, all in C: a few ms for 64 KiB of brackets.
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0) > limit


def is_int(value: object) -> bool:
    """A JSON integer (Python's ``True`` is an int too, but not one here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def shown(value: object) -> str:
    """A client's value in an error message, cut short."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class Fields:
    """One JSON object from a client, read field by field. A field that is null counts as left out."""

    def __init__(self, obj: object, code: str, not_an_object: str) -> None:
        """``not_an_object``: the refusal when ``obj`` is no object, a whole sentence marked
        ``N_`` with ``{obj}`` for what came (``N_("the body is a JSON object, not {obj}")``)."""
        if not isinstance(obj, dict):
            raise HallError(code, not_an_object, obj=shown(obj))
        self.obj: dict[str, Any] = obj
        self.code = code

    def only(self, known: Iterable[str], code: str | None = None) -> None:
        """Refuse a field that is not in ``known``, by name."""
        known = tuple(known)
        for key in self.obj:
            if key not in known:
                if not known:
                    raise HallError(
                        code or self.code,
                        "unknown field {key} (this takes no fields)",
                        key=shown(key),
                    )
                raise HallError(
                    code or self.code,
                    "unknown field {key} (known: {known})",
                    key=shown(key),
                    known=", ".join(known),
                )

    # What a field is, each in whole sentences: "... is needed: ...", "... is ..., not ...", so
    # that a translation words each as a whole (the English is the same as the fragments').
    def _wrong(self, key: str, template: str, **params: object) -> HallError:
        return HallError(self.code, template, key=key, value=shown(self.obj[key]), **params)

    def _absent(self, key: str, template: str, required: bool, **params: object) -> bool:
        if self.obj.get(key) is not None:
            return False
        if required:
            raise HallError(self.code, template, key=key, **params)
        return True

    def integer(
        self, key: str, *, minimum: int | None = None, required: bool = False
    ) -> int | None:
        if minimum is None:
            needed, wrong = (
                N_("{key!r} is needed: a whole number"),
                N_("{key!r} is a whole number, not {value}"),
            )
        else:
            needed = N_("{key!r} is needed: a whole number from {minimum}")
            wrong = N_("{key!r} is a whole number from {minimum}, not {value}")
        if self._absent(key, needed, required, minimum=minimum):
            return None
        value = self.obj[key]
        if not is_int(value) or (minimum is not None and value < minimum):
            raise self._wrong(key, wrong, minimum=minimum)
        return int(value)

    def text(self, key: str, *, required: bool = False) -> str | None:
        if self._absent(key, N_("{key!r} is needed: a string"), required):
            return None
        value = self.obj[key]
        if not isinstance(value, str):
            raise self._wrong(key, N_("{key!r} is a string, not {value}"))
        return value

    def flag(self, key: str, *, required: bool = False) -> bool | None:
        if self._absent(key, N_("{key!r} is needed: true or false"), required):
            return None
        value = self.obj[key]
        if not isinstance(value, bool):
            raise self._wrong(key, N_("{key!r} is true or false, not {value}"))
        return value

    def texts_or_nulls(self, key: str) -> list[str | None] | None:
        """A list whose entries are strings or null (such as a table's computer players)."""
        if self._absent(key, "", False):  # (never required: no words needed)
            return None
        value = self.obj[key]
        if not isinstance(value, list) or not all(v is None or isinstance(v, str) for v in value):
            raise self._wrong(key, N_("{key!r} is a list of strings or nulls, not {value}"))
        return value
