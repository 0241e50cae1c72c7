"""The tables of the hall's database (SQLAlchemy Core); migrations create and change them."""

from __future__ import annotations

from sqlalchemy import Column, Float, Integer, MetaData, String, Table, Text

metadata = MetaData()

players = Table(
    "players",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("username", String(32), unique=True, nullable=True),  # null: a guest
    Column("password_hash", Text, nullable=True),
    Column("created_at", Float, nullable=False),
)

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),  # set when the game is over or the table closed
)

# The append-only log of every table: one row per event, numbered by the table's version.
# The primary key is the version check: of two writers racing for one version, one fails.
events = Table(
    "events",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("version", Integer, primary_key=True, autoincrement=False),
    Column("at", Float, nullable=False),
    Column("body", Text, nullable=False),
)

games = Table(
    "games",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("record", Text, nullable=False),
    Column("finished_at", Float, nullable=False),
)

meta = Table(
    "meta",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)
