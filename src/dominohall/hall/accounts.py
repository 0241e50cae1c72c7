"""The accounts service the web asks about people: players and their sessions, finished games,
ratings, email addresses, and what a player said and reported (their export). ``Accounts`` declares what may be asked (the web talks to it, never
to the store); ``StoreAccounts`` answers from the store.

The value types it speaks in are re-exported here, so that a caller needs nothing of ``store``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..store import Conflict, Store, StoredPlayer
from ..store.chat import ChatLine, Room
from ..store.deletion import ANONYMOUS, delete_account
from ..store.emails import EmailAddress
from ..store.history import Cursor, GameEntry, PresetStats
from ..store.moderation import Report
from ..store.ratings import RatingChange, StoredRating

__all__ = [
    "ANONYMOUS",
    "Accounts",
    "ChatLine",
    "Conflict",
    "Cursor",
    "EmailAddress",
    "GameEntry",
    "GamesPage",
    "PresetStats",
    "RatingChange",
    "Report",
    "Room",
    "StoreAccounts",
    "StoredPlayer",
    "StoredRating",
]

EXPORT_PAGE = 200  # games read at a time when all of a player's games are asked for


@dataclass(frozen=True)
class GamesPage:
    """One page of a player's games, newest first; ``next``: where the next page starts (None:
    this is the last)."""

    games: list[GameEntry]
    next: Cursor | None


class Accounts(Protocol):
    # Players ------------------------------------------------------------------------------
    async def add_player(self, player: StoredPlayer, now: float | None = None) -> None:
        """Add a guest or an account; raises ``Conflict`` when its username is taken."""
        ...

    async def update_player(self, player: StoredPlayer) -> None:
        """Change a player's name, username or password hash (found by id); raises
        ``Conflict`` when the username is taken."""
        ...

    async def set_language(self, player_id: str, language: str) -> None:
        """Keep the language a player chose (a tag of ``i18n.LANGUAGES``)."""
        ...

    async def player(self, player_id: str) -> StoredPlayer | None:
        """The player with this id, if any."""
        ...

    async def player_by_username(self, username: str) -> StoredPlayer | None:
        """The account with this username (given normalised), if any."""
        ...

    # Sessions ------------------------------------------------------------------------------
    async def add_session(
        self, session_id: str, player_id: str, now: float, expires_at: float
    ) -> None:
        """Keep a new session (the hash of its token) of a player, who is seen ``now``."""
        ...

    async def session(self, session_id: str, now: float) -> tuple[StoredPlayer, float] | None:
        """The player of a session that has not expired by ``now``, and when it was last seen."""
        ...

    async def touch_session(
        self, session_id: str, player_id: str, now: float, expires_at: float
    ) -> None:
        """A session in use: seen ``now``, its end moved on to ``expires_at``."""
        ...

    async def end_session(self, session_id: str) -> None:
        """End one session (signing out)."""
        ...

    async def end_sessions(self, player_id: str) -> int:
        """End every session of a player, and any old cookie of theirs; how many ended."""
        ...

    async def legacy_cookie(self, player_id: str) -> bool:
        """Whether an old cookie (a signed player id) of this player may still be exchanged."""
        ...

    async def take_legacy_cookie(self, player_id: str) -> bool:
        """Exchange a player's old cookie for a session: True the first time only."""
        ...

    async def forget_guests(self, seen_before: float, now: float) -> int:
        """Drop expired sessions, then every guest with no game and no session who was not seen
        since ``seen_before``; how many guests were forgotten."""
        ...

    # Finished games ------------------------------------------------------------------------
    async def games_page(
        self, player_id: str, *, before: Cursor | None, limit: int, viewer: str | None
    ) -> GamesPage:
        """Up to ``limit`` of a player's indexed games, newest first, after the cursor
        ``before``; a private game only when ``viewer`` sat at it too."""
        ...

    async def every_game_of(self, player_id: str) -> list[GameEntry]:
        """All of a player's indexed games, newest first, their private ones included."""
        ...

    async def stats(self, player_id: str) -> list[PresetStats]:
        """A player's games per preset, summed, most played first (aborted games left out)."""
        ...

    async def usernames(self, player_ids: Sequence[str]) -> dict[str, str]:
        """The usernames of those of these players who have an account."""
        ...

    async def record(self, table_id: str) -> dict[str, Any] | None:
        """A finished game's record (None: no game was stored for this table)."""
        ...

    async def table_finished(self, table_id: str) -> bool | None:
        """Whether a table is finished (None: there is no such table)."""
        ...

    # Ratings -------------------------------------------------------------------------------
    async def ratings_of(self, player_id: str) -> list[tuple[StoredRating, list[RatingChange]]]:
        """A player's rating in each pool and speed, each with its history: one change per
        rated game, oldest first."""
        ...

    async def rating_changes(self, table_id: str) -> list[RatingChange]:
        """A game's rating changes, by seat (none: it was not rated)."""
        ...

    async def leaderboard(
        self, pool: str, speed: str, *, min_games: int, since: float, limit: int
    ) -> list[tuple[StoredRating, str, str | None]]:
        """The best-rated players of a pool and speed with ``min_games`` rated games who played
        since ``since``, best first, each with their name and username."""
        ...

    # Email addresses -----------------------------------------------------------------------
    async def email_of(self, player_id: str) -> EmailAddress | None:
        """A player's email address and choices, if they gave one."""
        ...

    async def set_email(self, player_id: str, address: str, notify: bool) -> EmailAddress:
        """Set a player's address and choice; a new address is not confirmed until its link is
        opened."""
        ...

    async def forget_email(self, player_id: str) -> None:
        """Forget a player's address and what was sent to it."""
        ...

    async def confirmation_sent(self, player_id: str, at: float) -> None:
        """A confirmation link went to the player's address at ``at`` (the resend limit)."""
        ...

    async def confirm_email(self, player_id: str, address: str, at: float) -> bool:
        """Confirm the address if it is still the player's; whether it is (now) confirmed."""
        ...

    async def unsubscribe(self, player_id: str, address: str) -> bool:
        """No more notices to ``address`` for this player; whether it was the player's."""
        ...

    # What a player said and chose about others (their export) ---------------------------------
    async def chat_lines_of(self, player_id: str) -> list[ChatLine]:
        """Every chat line the player said that is still kept, oldest first."""
        ...

    async def reports_by(self, player_id: str) -> list[Report]:
        """The reports the player made, oldest first."""
        ...

    async def mutes_of(self, player_id: str) -> set[str]:
        """The players the player muted."""
        ...

    async def blocked_by(self, player_id: str) -> set[str]:
        """The players the player blocked."""
        ...

    # Deleting ------------------------------------------------------------------------------
    async def delete_account(self, player_id: str) -> int:
        """The person goes, their games stay under ``ANONYMOUS`` (``store/deletion.py``); how
        many of their games were renamed."""
        ...


class StoreAccounts:
    """``Accounts`` kept by the hall's store."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def add_player(self, player: StoredPlayer, now: float | None = None) -> None:
        await self._store.add_player(player, now)

    async def update_player(self, player: StoredPlayer) -> None:
        await self._store.update_player(player)

    async def set_language(self, player_id: str, language: str) -> None:
        await self._store.set_language(player_id, language)

    async def player(self, player_id: str) -> StoredPlayer | None:
        return await self._store.player(player_id)

    async def player_by_username(self, username: str) -> StoredPlayer | None:
        return await self._store.player_by_username(username)

    async def add_session(
        self, session_id: str, player_id: str, now: float, expires_at: float
    ) -> None:
        await self._store.add_session(session_id, player_id, now, expires_at)

    async def session(self, session_id: str, now: float) -> tuple[StoredPlayer, float] | None:
        return await self._store.session(session_id, now)

    async def touch_session(
        self, session_id: str, player_id: str, now: float, expires_at: float
    ) -> None:
        await self._store.touch_session(session_id, player_id, now, expires_at)

    async def end_session(self, session_id: str) -> None:
        await self._store.end_session(session_id)

    async def end_sessions(self, player_id: str) -> int:
        return await self._store.end_sessions(player_id)

    async def legacy_cookie(self, player_id: str) -> bool:
        return await self._store.legacy_cookie(player_id)

    async def take_legacy_cookie(self, player_id: str) -> bool:
        return await self._store.take_legacy_cookie(player_id)

    async def forget_guests(self, seen_before: float, now: float) -> int:
        return await self._store.forget_guests(seen_before, now)

    async def games_page(
        self, player_id: str, *, before: Cursor | None, limit: int, viewer: str | None
    ) -> GamesPage:
        # One game more than asked says whether another page follows.
        found = await self._store.history.games_of(
            player_id, before=before, limit=limit + 1, viewer=viewer
        )
        games, more = found[:limit], len(found) > limit
        last = games[-1] if more and games else None
        return GamesPage(games, (last.finished_at, last.table_id) if last else None)

    async def every_game_of(self, player_id: str) -> list[GameEntry]:
        games: list[GameEntry] = []
        before: Cursor | None = None
        while True:  # a page at a time, so that no one read holds a long history
            page = await self.games_page(
                player_id, before=before, limit=EXPORT_PAGE, viewer=player_id
            )
            games += page.games
            if page.next is None:
                return games
            before = page.next

    async def stats(self, player_id: str) -> list[PresetStats]:
        return await self._store.history.stats(player_id)

    async def usernames(self, player_ids: Sequence[str]) -> dict[str, str]:
        return await self._store.history.usernames(player_ids)

    async def record(self, table_id: str) -> dict[str, Any] | None:
        return await self._store.record(table_id)

    async def table_finished(self, table_id: str) -> bool | None:
        return await self._store.table_finished(table_id)

    async def ratings_of(self, player_id: str) -> list[tuple[StoredRating, list[RatingChange]]]:
        ratings = self._store.ratings
        return [
            (r, await ratings.history(player_id, r.pool, r.speed))
            for r in await ratings.of_player(player_id)
        ]

    async def rating_changes(self, table_id: str) -> list[RatingChange]:
        return await self._store.ratings.changes(table_id)

    async def leaderboard(
        self, pool: str, speed: str, *, min_games: int, since: float, limit: int
    ) -> list[tuple[StoredRating, str, str | None]]:
        return await self._store.ratings.leaderboard(
            pool, speed, min_games=min_games, since=since, limit=limit
        )

    async def email_of(self, player_id: str) -> EmailAddress | None:
        return await self._store.emails.of(player_id)

    async def set_email(self, player_id: str, address: str, notify: bool) -> EmailAddress:
        return await self._store.emails.set(player_id, address, notify)

    async def forget_email(self, player_id: str) -> None:
        await self._store.emails.forget(player_id)

    async def confirmation_sent(self, player_id: str, at: float) -> None:
        await self._store.emails.confirmation_sent(player_id, at)

    async def confirm_email(self, player_id: str, address: str, at: float) -> bool:
        return await self._store.emails.confirm(player_id, address, at)

    async def unsubscribe(self, player_id: str, address: str) -> bool:
        return await self._store.emails.unsubscribe(player_id, address)

    async def chat_lines_of(self, player_id: str) -> list[ChatLine]:
        return await self._store.chat.of_player(player_id)

    async def reports_by(self, player_id: str) -> list[Report]:
        return await self._store.moderation.reports_by(player_id)

    async def mutes_of(self, player_id: str) -> set[str]:
        return await self._store.moderation.mutes_of(player_id)

    async def blocked_by(self, player_id: str) -> set[str]:
        return await self._store.moderation.blocked_by(player_id)

    async def delete_account(self, player_id: str) -> int:
        return await delete_account(self._store.engine, player_id)
