"""The addresses each player signed in from, kept a short time (issue 24: a ban with the
account's addresses).

Revision ID: 0012
Revises: 0011
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_addresses",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("address", sa.String(64), primary_key=True),
        sa.Column("first_at", sa.Float, nullable=False),
        sa.Column("last_at", sa.Float, nullable=False),
    )
    op.create_index("ix_player_addresses_last_at", "player_addresses", ["last_at"])


def downgrade() -> None:
    op.drop_index("ix_player_addresses_last_at", "player_addresses")
    op.drop_table("player_addresses")
