"""Turn-based tables asleep (``schema.table_wakes``): what a start needs of a live turn-based
table kept out of memory (its next deadline, its people, its lobby entry, the downtime owed to
its clock), noted by its owner after each change, so that a start reads one query instead of
replaying every table's log (``hall/dormancy.py``, docs/scaling.md).

A note is current while no event came after its version; one that is not (the process stopped
between a commit and its note) is ignored, and its table is loaded from its log as before.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import and_, exists, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import schema
from .uninterrupted import uninterrupted_calls

# The stretches one process was down (restarts), as JSON [[from, to], ...]: owed to each note
# noted before them. The oldest are forgotten past this many (a table asleep through more
# restarts than that loses the oldest stretches' give-back).
DOWNTIMES = "downtimes"
KEPT_DOWNTIMES = 1000
Window = tuple[float, float]
CHUNK = 500  # tables named in one statement


@dataclass(frozen=True)
class Wake:
    """A current note of a live table asleep."""

    table_id: str
    version: int
    at: float  # when the event at ``version`` was committed
    wake_at: float | None  # its next deadline (None: none)
    players: tuple[str, ...]
    lobby: str | None  # as JSON (read only when it is put on the lobby's board: a start is
    # not kept waiting for 100,000 of them)
    owed: float  # seconds of downtime owed to its clock since ``version``


@dataclass(frozen=True)
class Note:
    """A table as its owner notes it to sleep on (see ``TableWakes.note``)."""

    table_id: str
    version: int
    wake_at: float | None
    players: Sequence[str]
    lobby: dict[str, Any] | None
    listing: dict[str, Any]


@uninterrupted_calls
class TableWakes:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def note(
        self,
        table_id: str,
        version: int,
        wake_at: float | None,
        players: Sequence[str],
        lobby: dict[str, Any] | None,
        listing: dict[str, Any],
    ) -> None:
        """The table as it is at ``version`` (nothing owed yet), in place of its last note.
        ``listing``: how "My games" lists it, with each person's seat (the hall's JSON)."""
        await self.note_many([Note(table_id, version, wake_at, players, lobby, listing)])

    async def note_many(self, notes: Sequence[Note]) -> None:
        """``note`` for each of ``notes``, in one transaction."""
        if not notes:
            return
        w = schema.table_wakes
        rows = [
            {
                "table_id": n.table_id,
                "version": n.version,
                "wake_at": n.wake_at,
                "players": json.dumps(list(n.players)),
                "lobby": None if n.lobby is None else json.dumps(n.lobby),
                "listing": json.dumps(n.listing),
                "owed": 0.0,
            }
            for n in notes
        ]
        upsert = sqlite_insert if self.engine.dialect.name == "sqlite" else postgresql_insert
        statement = upsert(w)
        replaced = {c: statement.excluded[c] for c in rows[0] if c != "table_id"}
        async with self.engine.begin() as conn:
            for first in range(0, len(rows), CHUNK):
                await conn.execute(
                    statement.on_conflict_do_update(index_elements=[w.c.table_id], set_=replaced),
                    rows[first : first + CHUNK],
                )

    async def asleep(self) -> list[Wake]:
        """The current notes of every live table."""
        async with self.engine.connect() as conn:
            return [_wake(row) for row in await conn.execute(_current())]

    async def current(self, table_id: str) -> Wake | None:
        """The table's note, if it is current and the table live."""
        query = _current().where(schema.table_wakes.c.table_id == table_id)
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else _wake(row)

    async def listings(
        self, table_ids: Sequence[str]
    ) -> dict[str, tuple[dict[str, Any], float, float]]:
        """The listing of each of these tables whose note is current, with the seconds owed
        and the note's time."""
        w, e = schema.table_wakes.c, schema.events.c
        found: dict[str, tuple[dict[str, Any], float, float]] = {}
        async with self.engine.connect() as conn:
            for first in range(0, len(table_ids), CHUNK):
                chunk = list(table_ids[first : first + CHUNK])
                query = _current(w.listing, w.owed, e.at).where(w.table_id.in_(chunk))
                for row in await conn.execute(query):
                    found[row.table_id] = (json.loads(row.listing), row.owed, row.at)
        return found

    async def downtimes(self, now: float) -> list[Window]:
        """One process starting (``now``): the stretches the hall was down, this one (from the
        later of the last heartbeat, ``alive_at``, and the last stretch's end) added, oldest
        first. A table asleep is owed those that end after its note (``owed_since``): kept
        once in ``meta``, not written into each note (a start wrote 100,000 rows)."""
        m = schema.meta
        async with self.engine.begin() as conn:
            known = await _meta(conn, DOWNTIMES)
            windows = [(float(a), float(b)) for a, b in orjson.loads(known)] if known else []
            alive = float(await _meta(conn, "alive_at") or 0.0)
            since = max(alive, windows[-1][1] if windows else 0.0)
            if 0.0 < since < now:
                windows = [*windows, (since, now)][-KEPT_DOWNTIMES:]
                value = orjson.dumps(windows).decode()
                upsert = sqlite_insert if conn.dialect.name == "sqlite" else postgresql_insert
                statement = upsert(m).values(key=DOWNTIMES, value=value)
                await conn.execute(
                    statement.on_conflict_do_update(index_elements=[m.c.key], set_={"value": value})
                )
        return windows

    async def owe(self, table_ids: Sequence[str], seconds: float) -> None:
        """The tables' notes owe their clocks ``seconds`` more (taken over, or an outage)."""
        w = schema.table_wakes.c
        async with self.engine.begin() as conn:
            for first in range(0, len(table_ids), CHUNK):
                chunk = list(table_ids[first : first + CHUNK])
                await conn.execute(
                    update(schema.table_wakes)
                    .where(w.table_id.in_(chunk))
                    .values(owed=w.owed + seconds)
                )


def _current(*columns: Any) -> Any:
    """The notes of live tables with no event after theirs: each one's id, then ``columns``
    (by default the whole note with its event's time)."""
    w, e, t = schema.table_wakes.c, schema.events, schema.tables.c
    later = schema.events.alias("later")
    picked = columns or (w.version, e.c.at, w.wake_at, w.players, w.lobby, w.owed)
    return (
        select(w.table_id, *picked)
        .select_from(schema.table_wakes)
        .join(schema.tables, t.id == w.table_id)
        .join(e, and_(e.c.table_id == w.table_id, e.c.version == w.version))
        .where(
            t.finished_at.is_(None),
            ~exists().where(later.c.table_id == w.table_id, later.c.version == w.version + 1),
        )
    )


def _wake(row: Any) -> Wake:
    return Wake(
        row.table_id,
        row.version,
        row.at,
        row.wake_at,
        tuple(orjson.loads(row.players)),
        row.lobby,
        row.owed,
    )


def owed_since(at: float, windows: list[Window]) -> float:
    """Seconds of the stretches ``windows`` after ``at`` (a note's time).

    >>> owed_since(100.0, [(50.0, 80.0), (90.0, 120.0), (200.0, 230.0)])
    50.0
    """
    return sum(end - max(start, at) for start, end in windows if end > at)


async def _meta(conn: AsyncConnection, key: str) -> str | None:
    m = schema.meta.c
    row = (await conn.execute(select(m.value).where(m.key == key))).first()
    return None if row is None else str(row[0])
