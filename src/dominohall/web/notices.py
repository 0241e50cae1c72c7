"""The hall's notices as the protocol writes them (docs/protocol.md 8): ``{"kind": ..., ...}``."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from ..hall.notices import Invitation, PlayerNotice, SeatPresence

# Fields whose name on the wire is not the field's own ("from" is a Python keyword).
_WIRE_NAMES: dict[tuple[type, str], str] = {(Invitation, "sender"): "from"}


def notice_json(notice: PlayerNotice | SeatPresence) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": notice.kind}
    for field in fields(notice):
        out[_WIRE_NAMES.get((type(notice), field.name), field.name)] = getattr(notice, field.name)
    return out
