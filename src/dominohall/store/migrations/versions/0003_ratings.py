"""Ranked ratings: one per (player, pool, speed), and each rated game's change per player.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("pool", sa.String(32), primary_key=True),
        sa.Column("speed", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("played_at", sa.Float, nullable=False),
    )
    op.create_index("ratings_by_pool", "ratings", ["pool", "speed", "mu"])
    op.create_table(
        "rating_changes",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("pool", sa.String(32), nullable=False),
        sa.Column("speed", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index(
        "rating_changes_by_player", "rating_changes", ["player_id", "pool", "speed", "at"]
    )


def downgrade() -> None:
    op.drop_index("rating_changes_by_player", "rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ratings_by_pool", "ratings")
    op.drop_table("ratings")
