"""Players, tables, the event log, finished games, and a small key-value table.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("username", sa.String(32), unique=True, nullable=True),
        sa.Column("password_hash", sa.Text, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
    )
    op.create_table(
        "events",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=False),
    )
    op.create_table(
        "meta",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )


def downgrade() -> None:
    for name in ("meta", "games", "events", "tables", "players"):
        op.drop_table(name)
