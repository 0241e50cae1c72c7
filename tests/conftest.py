"""Fixtures every test folder may use: the databases of `databases.py`, and a prefix of the
test's own on the machine's Redis (`redis_service.py`).

Passwords are hashed by the halls running in the tests' own process with argon2's cheapest
parameters: a hash as shipped costs 0.2 s of CPU, and hundreds of sign-ups and sign-ins would
spend a minute of the suite on it. The same code makes and checks every hash; a hall in a
process of its own (`tests/web/live.py`, the browser tests) hashes as shipped."""

from argon2 import PasswordHasher

from databases import database_url, postgres_database, postgres_template
from dominohall.web import accounts
from redis_service import redis_prefix

accounts._hasher = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)

__all__ = ["database_url", "postgres_database", "postgres_template", "redis_prefix"]
