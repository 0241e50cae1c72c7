"""The broker's values as bytes, for a broker between processes (``redis_broker.py``): a table's
change, presence notice, chat line or resign request's news, a player's notice. Decoding gives back values equal to the ones
encoded (JSON by orjson; a message is protocol JSON already).

An ``Audience`` is a key of a JSON object, so it is written as a short string: ``"3"`` (the
person at seat 3), ``"-"`` (anyone watching), ``"out:2"`` (a watcher taken out of seat 2), and
``"3:out:2"`` should a seat's audience ever carry one it was taken out of too.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import orjson

from .listing import Listing
from .notices import (
    Challenged,
    ChallengeOver,
    ChatSaid,
    Invitation,
    Missed,
    MutesChanged,
    PlayerNotice,
    Reminder,
    ResignAsked,
    ResignDeclined,
    Seated,
    SeatPresence,
    TableNotice,
    TableOver,
    Watchers,
    YourTurn,
)
from .table_feed import Audience, TableChange

_NOTICES: dict[str, type[PlayerNotice]] = {
    cls.kind: cls
    for cls in (
        Seated,
        YourTurn,
        Reminder,
        Invitation,
        TableOver,
        Challenged,
        ChallengeOver,
        MutesChanged,
    )
}


class WireError(ValueError):
    """Bytes that are not a value this module writes (another version's, or not ours)."""


def audience_key(audience: Audience) -> str:
    out = f"out:{audience.was}" if audience.was is not None else None
    if audience.seat is None:
        return out or "-"
    return f"{audience.seat}:{out}" if out else str(audience.seat)


def audience_from(key: str) -> Audience:
    try:
        if key == "-":
            return Audience(None)
        if key.startswith("out:"):
            return Audience(None, int(key[4:]))
        seat, _, was = key.partition(":out:")
        return Audience(int(seat), int(was) if was else None)
    except (ValueError, AttributeError):  # (AttributeError: a key that is not a string)
        raise WireError(f"not an audience: {key!r}") from None


def encode_table(
    origin: str, value: TableChange | TableNotice, *, with_messages: bool = True
) -> bytes:
    """A table channel's message: ``origin`` names the process that sent it (which has told its
    own listeners already). ``with_messages=False``: a change without its audiences' messages
    (nobody elsewhere heard the table's last one; a listener that came since asks for them)."""
    if isinstance(value, SeatPresence):
        body: dict[str, Any] = {"presence": [value.seat, value.connected]}
    elif isinstance(value, Watchers):
        body = {"watchers": value.count}
    elif isinstance(value, ChatSaid):
        body = {"chat": {f.name: getattr(value, f.name) for f in fields(value)}}
    elif isinstance(value, ResignAsked | ResignDeclined):
        fields_of = {f.name: getattr(value, f.name) for f in fields(value)}
        body = {"resign": {"kind": value.kind, **fields_of}}
    elif isinstance(value, Missed):
        body = {"missed": True}  # (told to a process's own listeners; sent as any notice)
    else:
        body = {
            "change": {
                "table": value.table_id,
                "version": value.version,
                "base": value.base,
                "closed": value.closed,
                "people": {p: audience_key(a) for p, a in value.people.items()},
                "messages": (
                    {audience_key(a): m for a, m in value.messages.items()} if with_messages else {}
                ),
                "listing": _listing_json(value.listing),
                "watchable": value.watchable,
            }
        }
    return orjson.dumps({"origin": origin, **body})


def sent_by(data: bytes, origin: str) -> bool:
    """Whether a table channel's message came from ``origin``, without reading the rest of it: a
    process hears back everything it publishes on the tables it listens to, and a change carries
    every audience's message (``encode_table`` writes the origin first)."""
    return data.startswith(b'{"origin":"%s"' % origin.encode())


def decode_table(data: bytes) -> tuple[str, TableChange | TableNotice]:
    """The origin and the value of a table channel's message."""
    try:
        body = orjson.loads(data)
        origin = body["origin"]
        if "presence" in body:
            seat, connected = body["presence"]
            return origin, SeatPresence(int(seat), bool(connected))
        if "watchers" in body:
            return origin, Watchers(int(body["watchers"]))
        if "chat" in body:
            return origin, ChatSaid(**body["chat"])
        if "missed" in body:
            return origin, Missed()
        if "resign" in body:
            values = dict(body["resign"])
            kind = values.pop("kind")
            resign = {ResignAsked.kind: ResignAsked, ResignDeclined.kind: ResignDeclined}[kind]
            return origin, resign(**values)
        c = body["change"]
        change = TableChange(
            c["table"],
            c["version"],
            c["base"],
            c["closed"],
            {p: audience_from(k) for p, k in c["people"].items()},
            {audience_from(k): m for k, m in c["messages"].items()},
            _listing_from(c.get("listing")),
            bool(c.get("watchable", True)),
        )
        return origin, change
    except (orjson.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
        raise WireError(f"not a table message: {exc}") from None


def _listing_json(listing: Listing | None) -> dict[str, Any] | None:
    if listing is None:
        return None
    return {
        "summary": listing.summary,
        "turn": listing.turn,
        "deadline": listing.deadline,
        "waiting": sorted(listing.waiting),
        "wait_ends": listing.wait_ends,
        "finished": listing.finished,
    }


def _listing_from(body: dict[str, Any] | None) -> Listing | None:
    if body is None:
        return None
    return Listing(
        body["summary"],
        body["turn"],
        body["deadline"],
        frozenset(body["waiting"]),
        body["wait_ends"],
        body["finished"],
    )


def encode_notice(notice: PlayerNotice) -> bytes:
    values = {f.name: getattr(notice, f.name) for f in fields(notice)}
    return orjson.dumps({"kind": notice.kind, **values})


def decode_notice(data: bytes) -> PlayerNotice:
    try:
        body = orjson.loads(data)
        cls = _NOTICES[body.pop("kind")]
        return cls(**body)
    except (orjson.JSONDecodeError, KeyError, TypeError, AttributeError) as exc:
        raise WireError(f"not a player notice: {exc}") from None
