"""The machine's Redis for the tests that need it (scripts/services.sh starts it): each test
gets a key and channel prefix of its own, its keys deleted after."""

import uuid
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as redis

REDIS_URL = "redis://127.0.0.1:6379/0"


async def redis_reachable(url: str) -> bool:
    client = redis.Redis.from_url(url, socket_connect_timeout=1)
    try:
        return bool(await client.ping())
    except (redis.ConnectionError, OSError):
        return False
    finally:
        await client.aclose()


@pytest.fixture
async def redis_prefix() -> AsyncIterator[str]:
    """A key and channel prefix of the test's own on the machine's Redis; its keys deleted after."""
    if not await redis_reachable(REDIS_URL):
        pytest.skip("Redis is not running at 127.0.0.1:6379 (scripts/services.sh starts it)")
    name = f"test:{uuid.uuid4().hex}:"
    yield name
    client = redis.Redis.from_url(REDIS_URL)
    try:
        keys = [key async for key in client.scan_iter(match=f"{name}*")]
        if keys:
            await client.delete(*keys)
    finally:
        await client.aclose()
