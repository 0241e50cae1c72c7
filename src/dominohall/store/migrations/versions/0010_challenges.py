"""Challenges and follows (issue 24): challenges between players, kept so that a restart loses
none; who follows whom; whom each player accepts challenges from.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("challenger_id", sa.String(32), nullable=False),
        sa.Column("challenged_id", sa.String(32), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("answered_at", sa.Float, nullable=True),
        sa.Column("table_id", sa.String(32), nullable=True),
    )
    op.create_index("ix_challenges_challenger_id", "challenges", ["challenger_id"])
    op.create_index("ix_challenges_challenged_id", "challenges", ["challenged_id"])
    op.create_index("ix_challenges_expires_at", "challenges", ["expires_at"])
    op.create_table(
        "follows",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("followed_id", sa.String(32), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_follows_followed_id", "follows", ["followed_id"])
    op.create_table(
        "challenge_settings",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("accept_from", sa.String(16), nullable=False),
    )


def downgrade() -> None:
    for name in ("challenge_settings", "follows", "challenges"):
        op.drop_table(name)
