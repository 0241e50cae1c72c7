"""Follows (issue 24, docs/protocol.md 12): a player follows others, to see which of them are
online and what they play, with a link to watch; never a private table, nor one closed to
watchers. Follows are between accounts (a guest has no name to be found by, and is forgotten when
idle); a player who blocked another refuses their follow, and a block ends it
(``store/moderation.block``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..store import Store
from ..store.store import StoredPlayer
from .errors import HallError
from .hall import Hall
from .messages import TableSummary
from .online import Online


@dataclass(frozen=True)
class Followed:
    """A player one follows, as one sees them now: online or not, and the tables they play at
    that anyone may watch."""

    username: str
    name: str
    since: float
    online: bool
    playing: list[TableSummary]


class Following:
    def __init__(self, store: Store, hall: Hall, online: Online) -> None:
        self.store = store
        self.hall = hall
        self.online = online

    async def follow(self, player: StoredPlayer, username: str) -> StoredPlayer:
        """``player`` follows the player named ``username``; that player."""
        if player.username is None:
            raise HallError("account_needed", "follows are between accounts: make one to follow")
        target = await self._named(username)
        if target.id == player.id:
            raise HallError("bad_request", "you cannot follow yourself")
        if await self.store.moderation.blocks(target.id, player.id):
            raise HallError(
                "follow_refused", "you cannot follow {username}", username=target.username
            )
        await self.store.follows.follow(player.id, target.id, self.hall.clock.now())
        return target

    async def unfollow(self, player: StoredPlayer, username: str) -> StoredPlayer:
        target = await self._named(username)
        await self.store.follows.unfollow(player.id, target.id)
        return target

    async def follows(self, player_id: str, other_id: str) -> bool:
        return await self.store.follows.follows(player_id, other_id)

    async def followed(self, player_id: str) -> list[Followed]:
        """The players ``player_id`` follows, by username, each as they are now."""
        rows = await self.store.follows.followed_by(player_id)
        online = await self.online.which([followed for followed, _ in rows])
        found = []
        for followed_id, since in rows:
            other = await self.store.player(followed_id)
            if other is None or other.username is None:
                continue  # (a deleted account's follows went with it)
            # Their unfinished tables anyone may watch (a turn-based game goes on offline too).
            playing = [
                listing.summary
                for listing, _seat in await self.hall.listings_of(followed_id)
                if not listing.summary["private"] and listing.summary["open_to_watchers"]
            ]
            found.append(
                Followed(other.username, other.name, since, followed_id in online, playing)
            )
        return sorted(found, key=lambda f: f.username)

    async def _named(self, username: str) -> StoredPlayer:
        target = await self.store.player_by_username(username)
        if target is None or target.username is None:
            raise HallError("no_player", "there is no player {username!r}", username=username)
        return target
