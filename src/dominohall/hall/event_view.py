"""What happened at a table as clients see it (docs/protocol.md 3): each entry the table keeps
(``table/happened.py``: an event with what the rules made of it, or a note such as a hand's or
the game's end) written as the protocol's event, ``{"version": ..., "kind": ..., ...}``.

Each entry's JSON is made once and kept beside the table (``view_cache.py``), so a change's
events are written once for every socket, and a seat's forms of it (``seat_view.py``) once too.
The stored bodies are the events' own (``events.py``): an event is shown as it is stored, with
the table's version and, for a move, what it scored and the numbers a pass passed on. So here a
stored body, JSON of any shape to this module, becomes the protocol's event
(``messages.Event``): the one place it is taken to be one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from ..rules import tile_name, tiles_of
from ..rules.tiles import RANK
from . import messages
from .table import TableState
from .table.happened import (
    Closed,
    GameOver,
    HandOver,
    HandResult,
    Happened,
    HostChanged,
)
from .view_cache import Written, cache_of


def written(state: TableState, entry: Happened) -> Written:
    """``entry`` (one of ``state``'s) as written, made once."""
    found = cache_of(state).entries.get(id(entry))
    return found if found is not None else _write(state, entry)


def written_all(state: TableState, entries: Iterable[Happened]) -> list[Written]:
    """``written`` of each entry (one look for the table's cache)."""
    found = cache_of(state).entries.get
    return [found(id(e)) or _write(state, e) for e in entries]


def shown(state: TableState, entry: Happened) -> messages.Event:
    """``entry`` as clients see it, made once; shared: not to be changed."""
    return written(state, entry).whole


def shown_all(state: TableState, entries: Iterable[Happened]) -> list[messages.Event]:
    return [w.whole for w in written_all(state, entries)]


def _write(state: TableState, entry: Happened) -> Written:
    cache = cache_of(state)
    entries = cache.entries
    if len(entries) >= cache.entries_limit:
        # Keep only the entries the table still keeps (the others no view asks for again).
        kept = {id(e): entries[id(e)] for e in (*state.tail, *state.log) if id(e) in entries}
        entries.clear()
        entries.update(kept)
        cache.entries_limit = 2 * len(entries) + 64
    # Keyed by the entry's identity: the entry is kept in its ``Written``, so no other takes
    # its id while it is here.
    one = entries[id(entry)] = Written(entry, event_json(state.id, entry))
    return one


def event_json(table_id: str, entry: Happened) -> messages.Event:
    """``entry`` as the protocol's event (not cached: ``shown`` is)."""
    event = entry.event
    if isinstance(event, HandOver):
        return {
            "version": entry.version,
            "kind": "hand_over",
            "hand": event.hand,
            "result": hand_result_json(event.result),
        }
    if isinstance(event, GameOver):
        return {
            "version": entry.version,
            "kind": "game_over",
            "result": game_over_json(table_id, event),
        }
    if isinstance(event, HostChanged):
        return {"version": entry.version, "kind": "host", "seat": event.seat}
    if isinstance(event, Closed):
        return {"version": entry.version, "kind": "closed"}
    out: dict[str, Any] = {"version": entry.version, **event.to_body()}
    if entry.scored is not None:
        out["scored"] = entry.scored
    if entry.open is not None:
        out["open"] = list(entry.open)
    # The stored body (``events.py``) with its version is the protocol's event of its kind; the
    # secrets that created, joined and dealt carry beside it are left out by ``seat_view.py``.
    return cast(messages.Event, out)


def game_json(state: TableState) -> messages.GameResult | None:
    """The end of the game as clients see it (None while it goes on)."""
    if state.game_over is None:
        return None
    return game_over_json(state.id, state.game_over)


def game_over_json(table_id: str, end: GameOver) -> messages.GameResult:
    game: messages.GameResult = {
        "over": True,
        "winner": end.winner,
        "reason": end.reason,
        "placed_last": list(end.placed_last),
        "scores": list(end.scores),
        "record": f"/games/{table_id}/record",
        "duration": end.duration,  # seconds from the start to the end
    }
    if end.resigned is not None:  # (as the record's result says it)
        game["resigned"] = end.resigned[0]
        if end.resigned[1] is not None:
            game["agreed"] = end.resigned[1]
    return game


def hand_result_json(result: HandResult) -> messages.HandResult:
    """The end of a hand as clients see it: every hand revealed, the winner and the bonus."""
    return {
        "winner": result.winner,
        "blocked": result.blocked,
        "bonus": result.bonus,
        "bonus_rule": result.bonus_rule.value,
        "cut_short": result.cut_short,
        "revealed": [_names(mask) for mask in result.holdings],
        "pips": list(result.pips),
        "points": list(result.points),
        "breakdown": breakdown_json(result),
    }


def breakdown_json(result: HandResult) -> messages.Breakdown:
    """Why the hand ended as it did and how its bonus was counted, as the rules counted it, so
    that a client only words it (docs/protocol.md 3.3)."""
    teams: list[messages.TeamPips] | None = None
    if result.teams is not None:
        teams = [{"team": t.team, "seats": list(t.seats), "pips": t.pips} for t in result.teams]
    if result.winner is None:
        why = "cut_short" if result.cut_short else "team_tie" if teams is not None else "tie"
        tied = list(result.tied) if why == "tie" and result.tied is not None else None
        return {"why": why, "tied": tied, "teams": teams, "bonus": None, "penalties": None}
    count = result.count
    assert count is not None
    why = (
        "out" if not result.blocked else "fewest_team_pips" if teams is not None else "fewest_pips"
    )
    bonus: messages.BonusCounted = {
        "counted": list(count.counted),
        "pips": count.pips,
        "own": count.own,
        "net": count.net,
        "rounded": count.rounded,
        "units": count.units,
        "value": count.bonus,
        "scored": result.bonus,
        # The rules score nothing that would pass an exact target (RULES.md 5).
        "not_scored": "past_target" if count.bonus and not result.bonus else None,
    }
    penalties = list(result.penalties) if result.penalties is not None else None
    return {"why": why, "tied": None, "teams": teams, "bonus": bonus, "penalties": penalties}


def _names(mask: int) -> list[str]:
    return [tile_name(t) for t in sorted(tiles_of(mask), key=lambda t: -RANK[t])]
