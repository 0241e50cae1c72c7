"""Sessions, who sat where, and when a player was last seen.

Players from before get ``seen_at`` = now (a guest is forgotten counting from the upgrade) and may
exchange one cookie of the old kind for a session. ``seats`` is filled from the event log.

Revision ID: 0002
Revises: 0001
"""

import json
import time

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("seen_at", sa.Float, nullable=True))
        batch.add_column(
            sa.Column("legacy_cookie", sa.Boolean, nullable=False, server_default=sa.false())
        )
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False, index=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    seats = op.create_table(
        "seats",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(32), primary_key=True),
    )

    conn = op.get_bind()
    players = sa.table(
        "players", sa.column("seen_at", sa.Float), sa.column("legacy_cookie", sa.Boolean)
    )
    conn.execute(sa.update(players).values(seen_at=time.time(), legacy_cookie=True))
    # Who sat where: the "created" event's seats and every "joined" event.
    events = sa.table("events", sa.column("table_id", sa.String), sa.column("body", sa.Text))
    found: set[tuple[str, str]] = set()
    rows = conn.execute(
        sa.select(events.c.table_id, events.c.body).where(events.c.body.like('%"player"%'))
    )
    for table_id, body in rows:
        event = json.loads(body)
        if event.get("kind") == "created":
            found |= {(s["player"], table_id) for s in event["seats"] if s.get("player")}
        elif event.get("kind") == "joined" and event.get("player"):
            found.add((event["player"], table_id))
    if found:
        op.bulk_insert(seats, [{"player_id": p, "table_id": t} for p, t in sorted(found)])


def downgrade() -> None:
    op.drop_table("seats")
    op.drop_table("sessions")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("legacy_cookie")
        batch.drop_column("seen_at")
