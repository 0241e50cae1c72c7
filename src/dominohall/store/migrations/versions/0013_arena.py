"""Arena seasons (issue 25, docs/arena.md): seasons per pool and speed, each player's standing
in a season, what each arena game did to it, and the awards of a season's end.

Revision ID: 0013
Revises: 0012
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "arena_seasons",
        sa.Column("pool", sa.String(32), primary_key=True),
        sa.Column("speed", sa.String(16), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("starts_at", sa.Float, nullable=False),
        sa.Column("ends_at", sa.Float, nullable=False),
        sa.Column("closed_at", sa.Float, nullable=True),
    )
    op.create_table(
        "arena_standings",
        sa.Column("pool", sa.String(32), primary_key=True),
        sa.Column("speed", sa.String(16), primary_key=True),
        sa.Column("season", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("league", sa.Integer, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("losses", sa.Integer, nullable=False),
    )
    op.create_table(
        "arena_results",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("pool", sa.String(32), nullable=False),
        sa.Column("speed", sa.String(16), nullable=False),
        sa.Column("season", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("league_before", sa.Integer, nullable=False),
        sa.Column("points_before", sa.Integer, nullable=False),
        sa.Column("league_after", sa.Integer, nullable=False),
        sa.Column("points_after", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "arena_awards",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("pool", sa.String(32), primary_key=True),
        sa.Column("speed", sa.String(16), primary_key=True),
        sa.Column("season", sa.Integer, primary_key=True),
        sa.Column("league", sa.Integer, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("trophy", sa.Integer, nullable=True),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("arena_awards")
    op.drop_table("arena_results")
    op.drop_table("arena_standings")
    op.drop_table("arena_seasons")
