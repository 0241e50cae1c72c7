"""Abandonment (issue 24): the real-time games each player walked away from, and each player's
standing (strikes, the hold's end, games finished since).

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "abandonments",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "abandonment_standings",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("strikes", sa.Integer, nullable=False),
        sa.Column("last_at", sa.Float, nullable=False),
        sa.Column("until", sa.Float, nullable=False),
        sa.Column("finished_since", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("abandonment_standings")
    op.drop_table("abandonments")
