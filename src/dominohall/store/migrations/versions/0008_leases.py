"""Leases with fencing tokens (several hall processes on one database): the leases table, and
the token each event was committed under.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("kind", sa.String(8), primary_key=True),
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=True),
        sa.Column("token", sa.BigInteger, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    # A nullable column with no default: SQLite adds it in place (ALTER TABLE ADD COLUMN), so
    # a big log is not copied; the events written before have none (no lease then).
    op.add_column("events", sa.Column("token", sa.BigInteger, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_column("token")
    op.drop_table("leases")
