"""The games' index: one row per finished game and one per seat, for histories and profiles.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_index",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("target", sa.Integer, nullable=False),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("ranked", sa.String(32), nullable=True),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("started_at", sa.Float, nullable=True),
        sa.Column("finished_at", sa.Float, nullable=False),
    )
    op.create_table(
        "game_seats",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("bot", sa.String(16), nullable=True),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("hands_out", sa.Integer, nullable=False),
        sa.Column("hands_block", sa.Integer, nullable=False),
        sa.Column("timeouts", sa.Integer, nullable=False),
        sa.Column("out", sa.String(16), nullable=True),
        sa.Column("finished_at", sa.Float, nullable=False),
    )
    op.create_index("game_seats_by_player", "game_seats", ["player_id", "finished_at", "table_id"])


def downgrade() -> None:
    op.drop_index("game_seats_by_player", "game_seats")
    op.drop_table("game_seats")
    op.drop_table("game_index")
