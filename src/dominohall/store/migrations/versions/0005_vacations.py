"""Turn-based vacations: each one a player took, from its start to its end (ended early: the
end is when it ended), so that the days a player has left this year can be counted.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "vacations",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("start", sa.Float, primary_key=True),
        sa.Column("end", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("vacations")
