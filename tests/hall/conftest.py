import pytest

from redis_service import REDIS_URL, redis_reachable

__all__ = ["REDIS_URL", "redis_reachable"]  # (the tests here import them from this module)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
