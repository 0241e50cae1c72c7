"""Fixtures every test folder may use: the databases of `databases.py`, and a prefix of the
test's own on the machine's Redis (`redis_service.py`)."""

from databases import database_url, postgres_database, postgres_template
from redis_service import redis_prefix

__all__ = ["database_url", "postgres_database", "postgres_template", "redis_prefix"]
