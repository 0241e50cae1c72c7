"""Chat kept for the retention period the operator sets (``serve --chat-days``, 90 by default)
and then deleted: a once-only job (``once_only.py``), so that of several processes on one
database one deletes at a time. A table under an open report keeps its lines (``store/chat.py``).
"""

from __future__ import annotations

import logging

from ..store.chat import Chat
from .clock import Clock
from .once_only import Claim, every_round

log = logging.getLogger("dominohall.hall")

DAY = 86400.0
RETENTION_DAYS = 90.0  # the default of ``serve --chat-days``
EVERY = 3600.0  # seconds between two rounds: a line outlives its period by an hour at most


class ChatRetention:
    """Deletes the chat lines older than ``days``, on the process that holds the job's claim."""

    def __init__(self, chat: Chat, clock: Clock, claim: Claim, days: float) -> None:
        self.chat = chat
        self.clock = clock
        self.claim = claim
        self.days = days

    async def once(self) -> int | None:
        """One round: how many lines went, None when another process holds the job."""
        if not await self.claim.claim():
            return None
        return await self._forget()

    async def run(self, every: float = EVERY) -> None:
        """A round now, then every ``every`` seconds, until cancelled (the claim then released)."""
        await every_round(self.claim, every, self._forget, "chat retention")

    async def _forget(self) -> int:
        gone = await self.chat.forget_before(self.clock.now() - self.days * DAY)
        if gone:
            log.info("chat retention: %d lines older than %g days deleted", gone, self.days)
        return gone
