"""Challenges on two processes (PostgreSQL + Redis): a challenge sent through one process reaches
the challenged player listening on the other (their own channel, a Redis stream); accepted
there, a table opens with both seated and both hear where; a short expiry, set on the process
that made the challenge, ends one unanswered and both hear it once."""

from __future__ import annotations

import pytest

from dominohall.hall import ManualClock
from dominohall.hall.challenges import Challenger, Challenging, Expiry
from dominohall.hall.notices import Challenged, ChallengeOver, Invitation
from dominohall.hall.options import Options
from dominohall.store.store import StoredPlayer

from .test_owners import two_halls
from .test_redis_broker import Heard, settled

pytestmark = [pytest.mark.anyio, pytest.mark.postgresql]

ANN = Challenger("p_ann", "Ann", "ann")
BOB = Challenger("p_bob", "Bob", "bob")


async def test_a_challenge_sent_on_one_process_is_accepted_on_the_other(
    postgres_database: str, redis_prefix: str
) -> None:
    clock = ManualClock()
    async with two_halls(postgres_database, redis_prefix, clock) as (a, b):
        for person in (ANN, BOB):
            await a.store.add_player(StoredPlayer(person.id, person.name, person.username, "h"))
        expiry = Expiry(real_time=30)
        on_a, on_b = (Challenging(h.store, h.hall, expiry=expiry) for h in (a, b))
        ann, bob = Heard("Ann's channel on A"), Heard("Bob's channel on B")
        assert a.broker is not None and b.broker is not None
        a.broker.listen(ANN.id, ann)
        b.broker.listen(BOB.id, bob)
        await settled(a.broker, b.broker)

        sent = await on_a.challenge(ANN, "bob", Options.choose(seats=2, timer="relaxed"))
        [heard] = await bob.until(1, "the challenge")
        assert isinstance(heard, Challenged) and (heard.id, heard.sender) == (sent.id, "ann")

        _, table_id = await on_b.accept(BOB.id, sent.id)
        state = await a.hall.owner.table(table_id)  # (held by B; read through A)
        assert [s.player for s in state.seats] == [ANN.id, BOB.id]
        over = ChallengeOver(sent.id, "accepted", table_id)
        for channel in (ann, bob):
            told = [v for v in await channel.until(3, "the end and the invitation")]
            assert over in told and Invitation("challenge", table_id, "Ann") in told

        # Unanswered: A's timer (it made the challenge) ends it after 30 s; told once to each.
        second = await on_a.challenge(ANN, "bob", Options.choose(seats=2, timer="relaxed"))
        await bob.until(len(bob.values) + 1, "the second challenge")
        await on_b.start()  # (B arms it too, as a process starting now would)
        before = (len(ann.values), len(bob.values))
        await clock.advance(30)
        expired = ChallengeOver(second.id, "expired", None)
        assert (await ann.until(before[0] + 1, "the expiry"))[-1] == expired
        assert (await bob.until(before[1] + 1, "the expiry"))[-1] == expired
        await settled(a.broker, b.broker)
        assert [v for v in ann.values + bob.values if v == expired] == [expired, expired]
        on_a.stop()
        on_b.stop()
