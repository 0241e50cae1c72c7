"""Email notices: a player's address (confirmed by a link), their opt-in, the rate limit's last
email, and the last turn of each table emailed about.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "email_addresses",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("notify", sa.Boolean, nullable=False),
        sa.Column("confirmed_at", sa.Float, nullable=True),
        sa.Column("confirm_sent_at", sa.Float, nullable=True),
        sa.Column("last_sent_at", sa.Float, nullable=True),
    )
    op.create_table(
        "email_turns",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("turn", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("email_turns")
    op.drop_table("email_addresses")
