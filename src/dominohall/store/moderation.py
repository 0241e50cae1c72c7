"""Moderation in the database: what players choose about each other (mutes, blocks, reports) and
what operators do (chat time-outs, bans, closing reports), with the log of every operator's
action, who did it and why.

Each operator's action is written in the same transaction as its entry in the log, so that the
log is never missing one. The log's ids count up: a process that applies actions to live sockets
reads what came after the last id it saw (``log_after``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy import and_, delete, exists, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import schema
from .chat import ChatLine, around
from .follows import unfollow_blocked
from .uninterrupted import uninterrupted_calls

CONTEXT_LINES = 10  # chat lines read before and after a reported line


@dataclass(frozen=True)
class Report:
    id: int
    reporter_id: str
    reported_id: str
    line_id: int | None  # the chat line reported (None: the player as a whole)
    reason: str
    at: float
    closed_at: float | None = None
    closed_by: str | None = None
    # The reported line with the chat around it, as an operator reads it (``open_reports``).
    context: list[ChatLine] = field(default_factory=list)


@dataclass(frozen=True)
class TimeOut:
    player_id: str
    until: float
    by_id: str
    reason: str
    at: float


@dataclass(frozen=True)
class Ban:
    id: int
    player_id: str
    by_id: str
    reason: str
    at: float
    addresses: frozenset[str]


@dataclass(frozen=True)
class Action:
    """An entry of the moderation log. ``actor_id`` None: the operator's command line."""

    id: int
    at: float
    actor_id: str | None
    action: str  # time_out, ban, unban, close_report, add_operator, remove_operator, ...
    subject_id: str | None
    reason: str | None
    detail: dict[str, Any]


@uninterrupted_calls
class Moderation:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    # A player's own choices ----------------------------------------------------------------
    async def mute(self, player_id: str, muted_id: str, at: float) -> None:
        """``player_id`` no longer sees ``muted_id``'s chat (for themselves only)."""
        async with self.engine.begin() as conn:
            await _mute(conn, player_id, muted_id, at)

    async def unmute(self, player_id: str, muted_id: str) -> None:
        m = schema.mutes.c
        async with self.engine.begin() as conn:
            await conn.execute(
                delete(schema.mutes).where(m.player_id == player_id, m.muted_id == muted_id)
            )

    async def block(self, player_id: str, blocked_id: str, at: float) -> None:
        """No chat, challenge or follow from ``blocked_id`` reaches ``player_id``."""
        b = schema.blocks.c
        async with self.engine.begin() as conn:
            there = exists().where(b.player_id == player_id, b.blocked_id == blocked_id)
            if not (await conn.execute(select(there))).scalar():
                await conn.execute(
                    insert(schema.blocks).values(player_id=player_id, blocked_id=blocked_id, at=at)
                )
            await unfollow_blocked(conn, player_id, blocked_id)  # no follow from them either

    async def unblock(self, player_id: str, blocked_id: str) -> None:
        b = schema.blocks.c
        async with self.engine.begin() as conn:
            await conn.execute(
                delete(schema.blocks).where(b.player_id == player_id, b.blocked_id == blocked_id)
            )

    async def muted_by(self, player_id: str) -> set[str]:
        """The players whose chat ``player_id`` does not see: the ones they muted or blocked
        (a block hides chat too). One query for a whole chat room's worth of senders."""
        m, b = schema.mutes.c, schema.blocks.c
        muted = select(m.muted_id).where(m.player_id == player_id)
        blocked = select(b.blocked_id).where(b.player_id == player_id)
        async with self.engine.connect() as conn:
            return {row[0] for row in await conn.execute(muted.union(blocked))}

    async def blocked_by(self, player_id: str) -> set[str]:
        """The players ``player_id`` blocked."""
        b = schema.blocks.c
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(b.blocked_id).where(b.player_id == player_id))
            return {row[0] for row in rows}

    async def blocks(self, player_id: str, other_id: str) -> bool:
        """Whether ``player_id`` blocked ``other_id`` (their challenge or follow is refused)."""
        b = schema.blocks.c
        there = exists().where(b.player_id == player_id, b.blocked_id == other_id)
        async with self.engine.connect() as conn:
            return bool((await conn.execute(select(there))).scalar())

    async def report(
        self, reporter_id: str, reported_id: str, reason: str, at: float, line_id: int | None = None
    ) -> Report:
        """A report of a player (of one of their chat lines, if given); it also mutes the
        reported player for the reporter, who should not have to read more of it meanwhile."""
        async with self.engine.begin() as conn:
            added = await conn.execute(
                insert(schema.reports)
                .values(
                    reporter_id=reporter_id,
                    reported_id=reported_id,
                    line_id=line_id,
                    reason=reason,
                    at=at,
                )
                .returning(schema.reports.c.id)
            )
            await _mute(conn, reporter_id, reported_id, at)
        return Report(added.scalar_one(), reporter_id, reported_id, line_id, reason, at)

    async def reports_by(self, reporter_id: str) -> list[Report]:
        """The reports a player made, oldest first (their data export)."""
        r = schema.reports.c
        query = select(*_REPORT).where(r.reporter_id == reporter_id).order_by(r.id)
        async with self.engine.connect() as conn:
            return [Report(*row) for row in await conn.execute(query)]

    async def mutes_of(self, player_id: str) -> set[str]:
        """The players ``player_id`` muted (not counting blocks)."""
        m = schema.mutes.c
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(m.muted_id).where(m.player_id == player_id))
            return {row[0] for row in rows}

    # Operators' work -----------------------------------------------------------------------
    async def open_reports(self, context: int = CONTEXT_LINES) -> list[Report]:
        """Every report not yet closed, oldest first, each with the chat around its line."""
        r = schema.reports.c
        query = select(*_REPORT).where(r.closed_at.is_(None)).order_by(r.id)
        async with self.engine.connect() as conn:
            reports = [Report(*row) for row in await conn.execute(query)]
            return [
                replace(report, context=await around(conn, report.line_id, context))
                if report.line_id is not None
                else report
                for report in reports
            ]

    async def close_report(self, report_id: int, by_id: str, reason: str, at: float) -> bool:
        """Close a report (dealt with, or unfounded: ``reason`` says); False when there is no
        such open report."""
        r = schema.reports
        async with self.engine.begin() as conn:
            closed = await conn.execute(
                update(r)
                .where(r.c.id == report_id, r.c.closed_at.is_(None))
                .values(closed_at=at, closed_by=by_id)
                .returning(r.c.reported_id)
            )
            reported = closed.scalar_one_or_none()
            if reported is None:
                return False
            await _log(conn, at, by_id, "close_report", reported, reason, {"report": report_id})
        return True

    async def time_out(
        self, player_id: str, until: float, by_id: str, reason: str, at: float
    ) -> TimeOut:
        """Keep ``player_id`` out of every chat until ``until``; a shorter ``until`` than a time-out
        under way ends it sooner (an operator lifting one gives ``until=at``)."""
        async with self.engine.begin() as conn:
            await conn.execute(
                insert(schema.chat_timeouts).values(
                    player_id=player_id, until=until, by_id=by_id, reason=reason, at=at
                )
            )
            await _log(conn, at, by_id, "time_out", player_id, reason, {"until": until})
        return TimeOut(player_id, until, by_id, reason, at)

    async def timed_out(self, player_id: str, now: float) -> TimeOut | None:
        """The time-out keeping ``player_id`` out of chat at ``now``, if one is: the latest given
        (a later one replaces an earlier, longer or shorter), while ``now`` is before its end."""
        t = schema.chat_timeouts.c
        query = (
            select(t.player_id, t.until, t.by_id, t.reason, t.at)
            .where(t.player_id == player_id, t.at <= now)
            .order_by(t.at.desc(), t.id.desc())
            .limit(1)
        )
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        if row is None or row.until <= now:
            return None
        return TimeOut(*row)

    async def ban(
        self,
        player_id: str,
        by_id: str,
        reason: str,
        at: float,
        addresses: Iterable[str] = (),
    ) -> Ban:
        """Ban a player (and the addresses given) until unbanned. Their sessions end in the same
        transaction (and an old cookie of theirs may no longer be exchanged): a cookie stops
        working the moment the ban is committed."""
        covered = frozenset(addresses)
        async with self.engine.begin() as conn:
            await conn.execute(
                delete(schema.sessions).where(schema.sessions.c.player_id == player_id)
            )
            players = schema.players
            await conn.execute(
                update(players).where(players.c.id == player_id).values(legacy_cookie=False)
            )
            added = await conn.execute(
                insert(schema.bans)
                .values(player_id=player_id, by_id=by_id, reason=reason, at=at)
                .returning(schema.bans.c.id)
            )
            ban_id = added.scalar_one()
            for address in sorted(covered):
                await conn.execute(
                    insert(schema.banned_addresses).values(ban_id=ban_id, address=address)
                )
            detail = {"ban": ban_id, "addresses": sorted(covered)}
            await _log(conn, at, by_id, "ban", player_id, reason, detail)
        return Ban(ban_id, player_id, by_id, reason, at, covered)

    async def unban(self, player_id: str, by_id: str, reason: str, at: float) -> int:
        """Lift every ban of the player (their addresses' too); how many were lifted."""
        b = schema.bans
        async with self.engine.begin() as conn:
            lifted = await conn.execute(
                update(b)
                .where(b.c.player_id == player_id, b.c.lifted_at.is_(None))
                .values(lifted_at=at, lifted_by=by_id)
                .returning(b.c.id)
            )
            ids = sorted(row[0] for row in lifted)
            await _log(conn, at, by_id, "unban", player_id, reason, {"bans": ids})
        return len(ids)

    async def banned(self, player_id: str) -> Ban | None:
        """The ban in force on the player, if any (the latest)."""
        b = schema.bans.c
        async with self.engine.connect() as conn:
            return await _ban(conn, and_(b.player_id == player_id, b.lifted_at.is_(None)))

    async def banned_address(self, address: str) -> Ban | None:
        """The ban in force that covers this address, if any (the latest)."""
        b, a = schema.bans.c, schema.banned_addresses.c
        covers = exists().where(a.ban_id == b.id, a.address == address)
        async with self.engine.connect() as conn:
            return await _ban(conn, and_(covers, b.lifted_at.is_(None)))

    # Who may moderate (set from the command line) -------------------------------------------
    async def add_operator(self, player_id: str, at: float, by_id: str | None = None) -> None:
        o = schema.operators.c
        async with self.engine.begin() as conn:
            there = exists().where(o.player_id == player_id)
            if (await conn.execute(select(there))).scalar():
                return
            await conn.execute(insert(schema.operators).values(player_id=player_id, since=at))
            await _log(conn, at, by_id, "add_operator", player_id, None, {})

    async def remove_operator(self, player_id: str, at: float, by_id: str | None = None) -> None:
        o = schema.operators.c
        async with self.engine.begin() as conn:
            gone = await conn.execute(delete(schema.operators).where(o.player_id == player_id))
            if gone.rowcount:
                await _log(conn, at, by_id, "remove_operator", player_id, None, {})

    async def is_operator(self, player_id: str) -> bool:
        there = exists().where(schema.operators.c.player_id == player_id)
        async with self.engine.connect() as conn:
            return bool((await conn.execute(select(there))).scalar())

    async def operators(self) -> list[str]:
        o = schema.operators.c
        async with self.engine.connect() as conn:
            return [row[0] for row in await conn.execute(select(o.player_id).order_by(o.since))]

    # The log ------------------------------------------------------------------------------
    async def log(
        self,
        actor_id: str | None,
        action: str,
        subject_id: str | None,
        reason: str | None,
        at: float,
        detail: dict[str, Any] | None = None,
    ) -> None:
        """Log an operator's action kept elsewhere (a name reset, made on the player's row)."""
        async with self.engine.begin() as conn:
            await _log(conn, at, actor_id, action, subject_id, reason, detail or {})

    async def last_log_id(self) -> int:
        """The id of the log's latest entry (0: none yet): where a process starts following."""
        g = schema.moderation_log.c
        async with self.engine.connect() as conn:
            return int((await conn.execute(select(func.max(g.id)))).scalar() or 0)

    async def log_before(self, before_id: int | None = None, limit: int = 50) -> list[Action]:
        """The log's entries before ``before_id`` (None: the latest), newest first."""
        g = schema.moderation_log.c
        query = select(g.id, g.at, g.actor_id, g.action, g.subject_id, g.reason, g.detail)
        if before_id is not None:
            query = query.where(g.id < before_id)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query.order_by(g.id.desc()).limit(limit))).all()
        return [Action(*row[:6], json.loads(row.detail or "{}")) for row in rows]

    async def report_by_id(self, report_id: int, context: int = CONTEXT_LINES) -> Report | None:
        """One report, open or closed, with the chat around its line."""
        r = schema.reports.c
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(*_REPORT).where(r.id == report_id))).first()
            if row is None:
                return None
            report = Report(*row)
            if report.line_id is None:
                return report
            return replace(report, context=await around(conn, report.line_id, context))

    async def log_after(self, after_id: int = 0, limit: int = 500) -> list[Action]:
        """The log's entries after ``after_id``, oldest first."""
        g = schema.moderation_log.c
        query = (
            select(g.id, g.at, g.actor_id, g.action, g.subject_id, g.reason, g.detail)
            .where(g.id > after_id)
            .order_by(g.id)
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [Action(*row[:6], json.loads(row.detail or "{}")) for row in rows]


_r = schema.reports.c
_REPORT = (
    _r.id,
    _r.reporter_id,
    _r.reported_id,
    _r.line_id,
    _r.reason,
    _r.at,
    _r.closed_at,
    _r.closed_by,
)


async def _mute(conn: AsyncConnection, player_id: str, muted_id: str, at: float) -> None:
    m = schema.mutes.c
    there = exists().where(m.player_id == player_id, m.muted_id == muted_id)
    if not (await conn.execute(select(there))).scalar():
        await conn.execute(
            insert(schema.mutes).values(player_id=player_id, muted_id=muted_id, at=at)
        )


async def _ban(conn: AsyncConnection, where: Any) -> Ban | None:
    b, a = schema.bans.c, schema.banned_addresses.c
    query = (
        select(b.id, b.player_id, b.by_id, b.reason, b.at)
        .where(where)
        .order_by(b.at.desc(), b.id.desc())
        .limit(1)
    )
    row = (await conn.execute(query)).first()
    if row is None:
        return None
    addresses = await conn.execute(select(a.address).where(a.ban_id == row.id))
    return Ban(*row, frozenset(r[0] for r in addresses))


async def _log(
    conn: AsyncConnection,
    at: float,
    actor_id: str | None,
    action: str,
    subject_id: str | None,
    reason: str | None,
    detail: dict[str, Any],
) -> None:
    await conn.execute(
        insert(schema.moderation_log).values(
            at=at,
            actor_id=actor_id,
            action=action,
            subject_id=subject_id,
            reason=reason,
            detail=json.dumps(detail) if detail else None,
        )
    )


async def forget_players(conn: AsyncConnection, player_ids: list[str]) -> None:
    """An account deleted: the mutes and blocks by or of it go (a person's choices about
    people, of no use once one of them is gone), so do its time-outs. Its reports, bans and the
    log stay: the operators' record of what happened (a ban's addresses still hold)."""
    m, b, t = schema.mutes.c, schema.blocks.c, schema.chat_timeouts.c
    await conn.execute(
        delete(schema.mutes).where(m.player_id.in_(player_ids) | m.muted_id.in_(player_ids))
    )
    await conn.execute(
        delete(schema.blocks).where(b.player_id.in_(player_ids) | b.blocked_id.in_(player_ids))
    )
    await conn.execute(delete(schema.chat_timeouts).where(t.player_id.in_(player_ids)))
