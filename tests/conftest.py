"""Fixtures every test folder may use: the databases of `databases.py`."""

from databases import database_url, postgres_database, postgres_template

__all__ = ["database_url", "postgres_database", "postgres_template"]
