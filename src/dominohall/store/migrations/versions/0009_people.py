"""The people layer (issue 24): chat lines kept with the games, players' mutes, blocks and
reports, operators' time-outs and bans (with addresses), the operators, and the moderation log.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

# BIGINT on PostgreSQL; on SQLite only an INTEGER primary key counts up by itself.
ROW_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _row_id() -> sa.Column[int]:
    return sa.Column("id", ROW_ID, primary_key=True, autoincrement=True)


def upgrade() -> None:
    op.create_table(
        "chat_lines",
        _row_id(),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("room", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("text", sa.Text, nullable=True),
        sa.Column("phrase", sa.String(32), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.CheckConstraint("(text IS NULL) <> (phrase IS NULL)", name="chat_line_text_or_phrase"),
    )
    op.create_index("ix_chat_lines_table_id", "chat_lines", ["table_id"])
    op.create_index("ix_chat_lines_player_id", "chat_lines", ["player_id"])
    op.create_index("ix_chat_lines_at", "chat_lines", ["at"])
    for name, other in (("mutes", "muted_id"), ("blocks", "blocked_id")):
        op.create_table(
            name,
            sa.Column("player_id", sa.String(32), primary_key=True),
            sa.Column(other, sa.String(32), primary_key=True),
            sa.Column("at", sa.Float, nullable=False),
        )
    op.create_table(
        "reports",
        _row_id(),
        sa.Column("reporter_id", sa.String(32), nullable=False),
        sa.Column("reported_id", sa.String(32), nullable=False),
        sa.Column("line_id", sa.BigInteger, nullable=True),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("closed_at", sa.Float, nullable=True),
        sa.Column("closed_by", sa.String(32), nullable=True),
    )
    op.create_index("ix_reports_reporter_id", "reports", ["reporter_id"])
    op.create_table(
        "chat_timeouts",
        _row_id(),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("until", sa.Float, nullable=False),
        sa.Column("by_id", sa.String(32), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_chat_timeouts_player_id", "chat_timeouts", ["player_id"])
    op.create_table(
        "bans",
        _row_id(),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("by_id", sa.String(32), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("lifted_at", sa.Float, nullable=True),
        sa.Column("lifted_by", sa.String(32), nullable=True),
    )
    op.create_index("ix_bans_player_id", "bans", ["player_id"])
    op.create_table(
        "banned_addresses",
        sa.Column("ban_id", sa.BigInteger, primary_key=True),
        sa.Column("address", sa.String(64), primary_key=True),
    )
    op.create_index("ix_banned_addresses_address", "banned_addresses", ["address"])
    op.create_table(
        "operators",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("since", sa.Float, nullable=False),
    )
    op.create_table(
        "moderation_log",
        _row_id(),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("actor_id", sa.String(32), nullable=True),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("subject_id", sa.String(32), nullable=True),
        sa.Column("reason", sa.Text, nullable=True),
        sa.Column("detail", sa.Text, nullable=True),
    )


def downgrade() -> None:
    for name in (
        "moderation_log",
        "operators",
        "banned_addresses",
        "bans",
        "chat_timeouts",
        "reports",
        "blocks",
        "mutes",
        "chat_lines",
    ):
        op.drop_table(name)
