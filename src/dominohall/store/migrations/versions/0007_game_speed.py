"""The games' index notes each game's speed and timer (real-time or turn-based).

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Games indexed before were all real-time (the hall had no turn-based tables).
    with op.batch_alter_table("game_index") as batch:
        batch.add_column(
            sa.Column("speed", sa.String(16), nullable=False, server_default="real-time")
        )
        batch.add_column(sa.Column("timer", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game_index") as batch:
        batch.drop_column("timer")
        batch.drop_column("speed")
