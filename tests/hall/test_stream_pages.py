"""Following a Redis stream page by page (``stream_pages.py``), on the machine's Redis: the
entries after a cursor in order, and None once entries after it were trimmed unread."""

from __future__ import annotations

import pytest
import redis.asyncio as redis

from dominohall.hall import stream_pages
from dominohall.hall.stream_pages import PAGE, read_after

from .conftest import REDIS_URL

pytestmark = pytest.mark.anyio


async def test_the_entries_after_the_cursor_in_order_and_none_when_trimmed_unread(
    redis_prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stream_pages, "BLOCK_MS", 10)  # (an empty read waits this long)
    reader = redis.Redis.from_url(REDIS_URL)
    stream = f"{redis_prefix}pages"
    try:
        ids = [(await reader.xadd(stream, {"n": str(n)})).decode() for n in range(3)]
        read = await read_after(reader, stream, "0-0")
        assert read is not None
        assert [(i, f[b"n"]) for i, f in read] == [(ids[0], b"0"), (ids[1], b"1"), (ids[2], b"2")]
        assert await read_after(reader, stream, ids[0]) == read[1:]
        assert await read_after(reader, stream, ids[2]) == []  # nothing yet
        # A page full, and the stream trimmed past the cursor: what was between is lost.
        for n in range(PAGE + 5):
            await reader.xadd(stream, {"n": str(n)}, maxlen=PAGE, approximate=False)
        assert await read_after(reader, stream, ids[2]) is None
        # A cursor the stream still holds reads on.
        [(first, _)] = await reader.xrange(stream, count=1)
        page = await read_after(reader, stream, first.decode())
        assert page is not None and len(page) == PAGE - 1
    finally:
        await reader.delete(stream)
        await reader.aclose()
