"""Turn-based tables asleep (issue 23): for each live turn-based table that may leave memory, the
version it was noted at, its next deadline, its people, its lobby entry, its listing in
"My games" (with each person's seat) and the seconds of
downtime owed to its clock, so that a start arms its deadline without replaying its log.

Revision ID: 0016
Revises: 0015
"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_wakes",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("wake_at", sa.Float, nullable=True),
        sa.Column("players", sa.Text, nullable=False),
        sa.Column("lobby", sa.Text, nullable=True),
        sa.Column("listing", sa.Text, nullable=False, server_default="{}"),
        sa.Column("owed", sa.Float, nullable=False, server_default="0"),
    )


def downgrade() -> None:
    op.drop_table("table_wakes")
