"""Following a Redis stream page by page, and knowing when entries were trimmed unread: what
the lobby board's and the tournaments' followers share (``lobby_board.py``,
``tournament_news.py``). A follower that falls behind the stream's trimming (MAXLEN ~) is told
so, and starts again from the whole (the board, or every tournament watched)."""

from __future__ import annotations

from typing import Any

import redis.asyncio as redis

PAGE = 500  # entries read at once
BLOCK_MS = 1000  # a follower's wait for the next entry, per read

Entry = tuple[str, dict[bytes, bytes]]  # (its id, its fields)


async def read_after(reader: redis.Redis, stream: str, cursor: str) -> list[Entry] | None:
    """The entries after ``cursor``, waiting up to ``BLOCK_MS`` for one (none: an empty list);
    None when some after ``cursor`` were trimmed before they could be read."""
    answer: Any = await reader.xread({stream: cursor}, count=PAGE, block=BLOCK_MS)
    if not answer:
        return []
    [(_, entries)] = answer
    if len(entries) == PAGE and cursor != "0-0":
        first = await reader.xrange(stream, count=1)
        if first and _later(first[0][0].decode(), cursor):
            return None
    return [(entry_id.decode(), fields) for entry_id, fields in entries]


def _later(first: str, cursor: str) -> bool:
    """Whether the stream's first entry is after ``cursor`` (so those between went unread)."""
    a_ms, _, a_seq = first.partition("-")
    b_ms, _, b_seq = cursor.partition("-")
    return (int(a_ms), int(a_seq)) > (int(b_ms), int(b_seq))
