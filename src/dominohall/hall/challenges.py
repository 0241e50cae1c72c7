"""Challenges (issue 24, docs/protocol.md 13): one player asks another, by name, to a game, casual
with any options or ranked in a pool with the pool's fixed options; the challenged player hears
it on their own channel, accepts (a table opens with both seated, and both are told where) or
declines; the challenger may cancel; unanswered, it expires (real-time in minutes, turn-based in
days).

Who may challenge whom:
- Challenges are between accounts. A guest has no name to be found by, and a guest costs nothing
  to make again, so a block or a rate limit on one would not hold: a guest neither sends nor
  receives a challenge (so no guest is ever challenged to a ranked game).
- The challenged player chooses whom they accept challenges from (``AcceptFrom``: everyone, the
  players they follow, nobody), and a block of the challenger refuses theirs. The refusal says the
  same in both cases, so that nobody learns they were blocked.
- A ranked challenge is a two-player game of a pool that seats two, on the pool's options with
  the ranked timer of its speed; the recent-opponent rule refuses it when the two sat at a rated
  game of that pool and speed together in the last ``RECENT_OPPONENT_SECONDS``, so that two
  players cannot trade rating by challenging each other again and again.
- Each player sends at most so many challenges (the rate limit, per player: in this process's
  memory, or in Redis shared by all the processes), and has one open challenge to a given
  player at a time.

Every challenge is stored (``store/challenges.py``), so a restart loses none. Its end is written
once (compare and set), so that an answer, a cancel and the expiry racing on several processes
end it once and tell it once. The expiry is a timer on the process that made the challenge, and
on every process at its start (for the challenges open then); a challenge found overdue by any
read is expired there and then, so one whose process died still ends when next looked at.
Notices go through the broker's player channels, which reach the player's socket on whichever
process it is open.
"""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from typing import Literal, Protocol

from ..store import Store
from ..store.challenges import AcceptFrom, ChallengeState, StoredChallenge
from ..store.store import StoredPlayer
from .clock import Timer
from .errors import HallError
from .events import SeatAtStart, SeatKind
from .hall import Hall
from .messages import Refusal
from .notices import Challenged, ChallengeOver, Invitation
from .options import DAY, Options
from .ratings import RANKED_TIMERS, RatingError, Speed, get_pool
from .table import TableState

__all__ = [
    "RECENT_OPPONENT_SECONDS",
    "AcceptFrom",
    "ChallengeLimited",
    "ChallengeState",
    "Challenger",
    "Challenging",
    "Expiry",
    "StoredChallenge",
    "ranked_options",
]

RECENT_OPPONENT_SECONDS = DAY  # two players rated together in a pool: no ranked challenge again

Outcome = Literal["accepted", "declined", "cancelled", "expired"]


@dataclass(frozen=True)
class Expiry:
    """How long a challenge waits for its answer: a real-time game's, a turn-based game's."""

    real_time: float = 5 * 60.0
    turn_based: float = 3 * DAY

    def of(self, options: Options) -> float:
        return self.turn_based if options.turn_based is not None else self.real_time


@dataclass(frozen=True)
class Challenger:
    """Who challenges: a signed-in player (``username`` None: a guest)."""

    id: str
    name: str
    username: str | None


class RateLimit(Protocol):
    """Token buckets by key (``web/ratelimit.Buckets``): one token taken (0.0), or the seconds
    to wait for one."""

    async def take(self, key: str) -> float: ...


class NoLimit:
    async def take(self, key: str) -> float:
        return 0.0


class ChallengeLimited(HallError):
    """``too_many_challenges``: the sender challenges too often; ``retry_after`` says when."""

    def __init__(self, retry_after: float) -> None:
        self.retry_after = max(1, math.ceil(retry_after))
        super().__init__(
            "too_many_challenges",
            f"you send challenges too fast: you may send another in {self.retry_after} s",
        )

    def to_json(self) -> Refusal:
        return {**super().to_json(), "retry_after": self.retry_after}


def ranked_options(pool_id: str, speed: str) -> Options:
    """A ranked challenge's options: the pool's preset and target for two players, with the
    ranked timer of the speed (RULES.md 6)."""
    try:
        pool = get_pool(pool_id)
        how_fast = next(s for s in Speed if s.value == speed)
    except RatingError as exc:
        raise HallError("bad_option", str(exc)) from None
    except StopIteration:
        speeds = ", ".join(s.value for s in Speed)
        raise HallError(
            "bad_option", "speed is one of {speeds}, not {speed!r}", speeds=speeds, speed=speed
        ) from None
    if 2 not in pool.players:
        raise HallError(
            "bad_option",
            "pool {pool_id} seats {pool_players} players: a challenge seats two",
            pool_id=pool.id,
            pool_players=pool.players,
        )
    return Options(pool.preset, pool.target, 2, RANKED_TIMERS[how_fast], False, pool.id)


class Challenging:
    def __init__(
        self,
        store: Store,
        hall: Hall,
        limit: RateLimit | None = None,
        *,
        expiry: Expiry | None = None,
    ) -> None:
        self.store = store
        self.hall = hall
        self.limit = limit if limit is not None else NoLimit()  # (empty buckets are falsy)
        self.expiry = expiry or Expiry()
        self._timers: dict[str, Timer] = {}

    async def start(self) -> None:
        """Set the expiry of every open challenge (those overdue expire now)."""
        for challenge in await self.store.challenges.every_open():
            await self._arm(challenge)

    def stop(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    # Sending ------------------------------------------------------------------------------
    async def challenge(
        self, sender: Challenger, username: str, options: Options
    ) -> StoredChallenge:
        """Challenge the player named ``username`` to a game with ``options``; a refusal is a
        ``HallError`` saying why."""
        if sender.username is None:
            raise HallError(
                "account_needed", "challenges are between accounts: make one to challenge"
            )
        target = await self.store.player_by_username(username)
        if target is None or target.username is None:
            raise HallError("no_player", "there is no player {username!r}", username=username)
        if target.id == sender.id:
            raise HallError("bad_request", "you cannot challenge yourself")
        await self._check_allowed(sender, target)
        if options.ranked is not None:
            await self._check_recent_opponent(sender.id, target.id, options)
        if options.turn_based is None:  # walked away from real-time games lately (abandonment.py)
            await self.hall.abandonment.check(sender.id)
        if await self.store.challenges.open_between(sender.id, target.id) is not None:
            raise HallError(
                "already_challenged",
                "you challenged {username} already: wait for the answer or cancel it",
                username=target.username,
            )
        wait = await self.limit.take(sender.id)
        if wait > 0:
            raise ChallengeLimited(wait)
        now = self.hall.clock.now()
        chosen = options.to_json()  # (stored as JSON; told typed, as ``messages.ChosenOptions``)
        challenge = StoredChallenge(
            secrets.token_urlsafe(9),
            sender.id,
            target.id,
            dict(chosen),
            now,
            now + self.expiry.of(options),
        )
        await self.store.challenges.add(challenge)  # stored before it is told: a restart keeps it
        self.hall.broker.tell(
            target.id,
            Challenged(
                challenge.id,
                sender.username,
                sender.name,
                chosen,
                challenge.at,
                challenge.expires_at,
            ),
        )
        await self._arm(challenge)
        return challenge

    async def _check_allowed(self, sender: Challenger, target: StoredPlayer) -> None:
        refused = HallError(
            "challenge_refused",
            "{username} does not accept challenges from you",
            username=target.username,
        )
        if await self.store.moderation.blocks(target.id, sender.id):
            raise refused
        choice = await self.store.challenges.accept_from(target.id)
        if choice is AcceptFrom.NOBODY:
            raise refused
        if choice is AcceptFrom.FRIENDS and not await self.store.follows.follows(
            target.id, sender.id
        ):
            raise refused

    async def _check_recent_opponent(self, one: str, other: str, options: Options) -> None:
        assert options.ranked is not None
        since = self.hall.clock.now() - RECENT_OPPONENT_SECONDS
        if await self.store.ratings.played_together_since(
            one, other, options.ranked, options.speed, since
        ):
            hours = round(RECENT_OPPONENT_SECONDS / 3600)
            raise HallError(
                "recent_opponent",
                "you played a rated game of this pool together in the last {hours} hours: "
                "challenge to a casual game, or find a ranked one in the queue",
                hours=hours,
            )

    # Answering ----------------------------------------------------------------------------
    async def accept(self, player_id: str, challenge_id: str) -> tuple[StoredChallenge, str]:
        """The challenged player accepts: a table opens with both seated (the challenger in
        seat 0), started when the two fill it; the challenge and the table's id."""
        challenge = await self._open_one(challenge_id, player_id, "challenged")
        options = Options.from_json(challenge.options)
        people = [
            await self.store.player(challenge.challenger_id),
            await self.store.player(player_id),
        ]
        if any(p is None for p in people):
            raise HallError("no_player", "one of the two players is no longer here")
        if options.ranked is not None:  # checked again: a rated game may have ended meanwhile
            await self._check_recent_opponent(challenge.challenger_id, player_id, options)
        for person in people:
            assert person is not None
            if options.turn_based is not None:
                self.hall.turn_based.check_room_for(person.id)
            else:  # either held back from real-time games (abandonment.py): no table
                await self.hall.abandonment.check(person.id)
        seats = [SeatAtStart(SeatKind.HUMAN, p.id, p.name) for p in people if p is not None]
        seats += [SeatAtStart(SeatKind.EMPTY)] * (options.seats - 2)
        # The challenge is closed first: of two accepts racing, one opens a table.
        now = self.hall.clock.now()
        if not await self.store.challenges.close(challenge.id, ChallengeState.ACCEPTED, now):
            raise _over()
        try:
            state = await self.hall.seating.open_table(
                options, tuple(seats), start=options.seats == 2
            )
        except BaseException:
            await self.store.challenges.reopen(challenge.id)
            raise
        await self.store.challenges.name_table(challenge.id, state.id)
        self._tell_over(challenge, "accepted", state)
        sender = people[0]
        assert sender is not None
        for seated in (challenge.challenger_id, player_id):
            self.hall.broker.tell(seated, Invitation("challenge", state.id, sender.name))
        return challenge, state.id

    async def decline(self, player_id: str, challenge_id: str) -> None:
        challenge = await self._open_one(challenge_id, player_id, "challenged")
        await self._close(challenge, ChallengeState.DECLINED)

    async def cancel(self, player_id: str, challenge_id: str) -> None:
        challenge = await self._open_one(challenge_id, player_id, "challenger")
        await self._close(challenge, ChallengeState.CANCELLED)

    async def _open_one(
        self, challenge_id: str, player_id: str, as_: Literal["challenger", "challenged"]
    ) -> StoredChallenge:
        challenge = await self.store.challenges.get(challenge_id)
        mine = challenge is not None and player_id == (
            challenge.challenger_id if as_ == "challenger" else challenge.challenged_id
        )
        if challenge is None or not mine:
            raise HallError(
                "no_challenge", "no challenge {challenge_id!r} for you", challenge_id=challenge_id
            )
        if challenge.state is ChallengeState.OPEN and self._overdue(challenge):
            await self._close(challenge, ChallengeState.EXPIRED)
            raise _over()
        if challenge.state is not ChallengeState.OPEN:
            raise _over()
        return challenge

    # Reading ------------------------------------------------------------------------------
    async def open_of(self, player_id: str) -> list[StoredChallenge]:
        """The open challenges a player sent or received (the overdue expired on the way)."""
        found = []
        for challenge in await self.store.challenges.open_of(player_id):
            if self._overdue(challenge):
                await self._close(challenge, ChallengeState.EXPIRED)
            else:
                found.append(challenge)
        return found

    async def every_of(self, player_id: str) -> list[StoredChallenge]:
        """Every challenge the player sent or received, kept (their data export)."""
        return await self.store.challenges.of_player(player_id)

    async def accept_from(self, player_id: str) -> AcceptFrom:
        return await self.store.challenges.accept_from(player_id)

    async def set_accept_from(self, player_id: str, choice: AcceptFrom) -> None:
        await self.store.challenges.set_accept_from(player_id, choice)

    # Ends ---------------------------------------------------------------------------------
    def _overdue(self, challenge: StoredChallenge) -> bool:
        return self.hall.clock.now() >= challenge.expires_at

    async def _arm(self, challenge: StoredChallenge) -> None:
        if self._overdue(challenge):
            await self._close(challenge, ChallengeState.EXPIRED)
            return

        async def expire() -> None:
            self._timers.pop(challenge.id, None)
            await self._close(challenge, ChallengeState.EXPIRED)

        self._timers[challenge.id] = self.hall.clock.call_at(challenge.expires_at, expire)

    async def _close(self, challenge: StoredChallenge, state: ChallengeState) -> None:
        """End an open challenge and tell both; nothing when it ended already (elsewhere)."""
        timer = self._timers.pop(challenge.id, None)
        if timer is not None:
            timer.cancel()
        if await self.store.challenges.close(challenge.id, state, self.hall.clock.now()):
            outcome: Outcome = state.value  # type: ignore[assignment]
            self._tell_over(challenge, outcome, None)

    def _tell_over(
        self, challenge: StoredChallenge, outcome: Outcome, table: TableState | None
    ) -> None:
        timer = self._timers.pop(challenge.id, None)
        if timer is not None:
            timer.cancel()
        over = ChallengeOver(challenge.id, outcome, table.id if table is not None else None)
        for player in (challenge.challenger_id, challenge.challenged_id):
            self.hall.broker.tell(player, over)


def _over() -> HallError:
    return HallError("challenge_over", "this challenge is over: accepted, declined or expired")
