"""The tables of the hall's database (SQLAlchemy Core); migrations create and change them."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    false,
)

metadata = MetaData()

# A row id that counts up: BIGINT on PostgreSQL; SQLite counts up only an INTEGER primary key.
RowId = BigInteger().with_variant(Integer(), "sqlite")

players = Table(
    "players",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("username", String(32), unique=True, nullable=True),  # null: a guest
    Column("password_hash", Text, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("seen_at", Float, nullable=True),  # last signed in, or a session moved on
    # A cookie made before sessions (a signed player id) may still be exchanged, once.
    Column("legacy_cookie", Boolean, nullable=False, server_default=false()),
    Column("language", String(16), nullable=True),  # chosen by the player (i18n); null: none
)

# A signed-in browser: the cookie holds a random token; only its SHA-256 is stored here.
sessions = Table(
    "sessions",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("player_id", String(32), nullable=False, index=True),
    Column("created_at", Float, nullable=False),
    Column("seen_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
)

# Who has sat at which table (written before the seat is taken): a guest with a game is kept.
seats = Table(
    "seats",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("table_id", String(32), primary_key=True),
)

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),  # set when the game is over or the table closed
)

# The append-only log of every table: one row per event, numbered by the table's version.
# The primary key is the version check: of two writers racing for one version, one fails.
events = Table(
    "events",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("version", Integer, primary_key=True, autoincrement=False),
    Column("at", Float, nullable=False),
    Column("body", Text, nullable=False),
    # The fencing token of the lease it was committed under (``leases`` below; null: written
    # without one, as a single process does). Kept with each event so that the data itself
    # shows whether two owners' commits ever interleaved: by version, a table's tokens never
    # go down.
    Column("token", BigInteger, nullable=True),
)

games = Table(
    "games",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("record", Text, nullable=False),
    Column("finished_at", Float, nullable=False),
)

meta = Table(
    "meta",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)

# Ranked play (docs/ratings.md): a player's skill per pool and speed, and each rated game's change.
ratings = Table(
    "ratings",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("pool", String(32), primary_key=True),
    Column("speed", String(16), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("played_at", Float, nullable=False),
)

# Keyed by (game, player): a game's change is applied once, in the transaction of its result.
rating_changes = Table(
    "rating_changes",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("player_id", String(32), primary_key=True),
    Column("pool", String(32), nullable=False),
    Column("speed", String(16), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("place", Integer, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("at", Float, nullable=False),
)

# The games' index (histories, profiles, game pages): written from each finished table's log.
game_index = Table(
    "game_index",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("preset", String(32), nullable=False),
    Column("target", Integer, nullable=False),
    Column("seats", Integer, nullable=False),
    Column("private", Boolean, nullable=False),
    Column("ranked", String(32), nullable=True),  # the pool of a ranked game
    Column("reason", String(16), nullable=False),  # rules, forfeit, abandoned, aborted
    Column("winner", Integer, nullable=True),
    Column("hands", Integer, nullable=False),
    Column("started_at", Float, nullable=True),
    Column("finished_at", Float, nullable=False),
    Column("speed", String(16), nullable=False, server_default="real-time"),  # or turn-based
    Column("timer", String(16), nullable=True),  # the table's timer option (None: not known)
)

# One row per seat of an indexed game; player_id null for a computer player's seat.
game_seats = Table(
    "game_seats",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", String(32), nullable=True),
    Column("name", String(64), nullable=False),
    Column("bot", String(16), nullable=True),
    Column("won", Boolean, nullable=False),  # the seat (or its team) won the game
    Column("place", Integer, nullable=False),
    Column("score", Integer, nullable=False),
    Column("hands_out", Integer, nullable=False),  # hands won by going out
    Column("hands_block", Integer, nullable=False),  # hands won in a block
    Column("timeouts", Integer, nullable=False),  # turns the timer played for the seat
    Column("out", String(16), nullable=True),  # why its person went out of the game
    Column("finished_at", Float, nullable=False),
)

# Email notices (docs/protocol.md 9): a player's address, confirmed by a link before any notice
# goes to it, and their choice to get notices at all.
email_addresses = Table(
    "email_addresses",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("address", String(254), nullable=False),
    Column("notify", Boolean, nullable=False),  # the player opted in
    Column("confirmed_at", Float, nullable=True),  # null until the link sent to it is opened
    Column("confirm_sent_at", Float, nullable=True),  # the last confirmation email
    Column("last_sent_at", Float, nullable=True),  # the last notice email (the rate limit)
)

# The last turn of each table a player was emailed about, by notice kind: "your turn" (and a
# reminder) once per table per turn, across restarts.
email_turns = Table(
    "email_turns",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("table_id", String(32), primary_key=True),
    Column("kind", String(16), primary_key=True),  # your_turn, reminder
    Column("turn", String(64), nullable=False),
    Column("at", Float, nullable=False),
)

# A live turn-based table that may leave memory (``store/wakes.py``, docs/scaling.md), as its
# owner noted it after its change at ``version``: its next deadline, the people playing it (a
# JSON list), its lobby entry (JSON; null: not in the lobby), its "My games" listing and the
# seconds of downtime owed to
# its clock since. A row whose version is not the table's last event's is out of date (its
# process stopped between the commit and the note): that table is loaded at start, as before.
table_wakes = Table(
    "table_wakes",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("version", Integer, nullable=False),
    Column("wake_at", Float, nullable=True),
    Column("players", Text, nullable=False),
    Column("lobby", Text, nullable=True),
    # How "My games" lists it, and each person's seat (JSON: ``hall/listing.py``).
    Column("listing", Text, nullable=False, server_default="{}"),
    Column("owed", Float, nullable=False, server_default="0"),
)

# Turn-based vacations (docs/turn-based.md): a player's clocks pause from start to end.
vacations = Table(
    "vacations",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("start", Float, primary_key=True),
    Column("end", Float, nullable=False),
)

# Who holds what when several hall processes share the database (docs/deploy.md): a live table
# (kind "table", name its id) or a job that must run in one process only (kind "job", name the
# job's). A row is never deleted, only released (owner null): its token only counts up, so a
# token once given out is never given again.
leases = Table(
    "leases",
    metadata,
    Column("kind", String(8), primary_key=True),
    Column("name", String(64), primary_key=True),
    Column("owner", String(64), nullable=True),  # null: released (free to take)
    Column("token", BigInteger, nullable=False),  # the last one given out
    Column("expires_at", Float, nullable=False),  # held while now < expires_at
)

# Chat (issue 24): each line said at a table, kept with the game (not a table event: no version,
# not in the record), in the players' room or the spectators'; a typed text or a quick phrase's
# id. player_id null: its author deleted their account. Deleted after the retention period.
chat_lines = Table(
    "chat_lines",
    metadata,
    Column("id", RowId, primary_key=True, autoincrement=True),
    Column("table_id", String(32), nullable=False, index=True),
    Column("room", String(16), nullable=False),  # players, spectators
    Column("player_id", String(32), nullable=True, index=True),
    Column("text", Text, nullable=True),
    Column("phrase", String(32), nullable=True),
    Column("at", Float, nullable=False, index=True),
    CheckConstraint("(text IS NULL) <> (phrase IS NULL)", name="chat_line_text_or_phrase"),
)

# A player's own choices about others: a mute hides their chat from the player only; a block
# also refuses their challenges and follows.
mutes = Table(
    "mutes",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("muted_id", String(32), primary_key=True),
    Column("at", Float, nullable=False),
)

blocks = Table(
    "blocks",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("blocked_id", String(32), primary_key=True),
    Column("at", Float, nullable=False),
)

# A player's report of another (of one chat line, or of the player); open until an operator
# closes it.
reports = Table(
    "reports",
    metadata,
    Column("id", RowId, primary_key=True, autoincrement=True),
    Column("reporter_id", String(32), nullable=False, index=True),
    Column("reported_id", String(32), nullable=False),
    Column("line_id", BigInteger, nullable=True),  # the chat line reported, if one
    Column("reason", Text, nullable=False),
    Column("at", Float, nullable=False),
    Column("closed_at", Float, nullable=True),
    Column("closed_by", String(32), nullable=True),
)

# An operator's time-out of a player from every chat, until ``until``.
chat_timeouts = Table(
    "chat_timeouts",
    metadata,
    Column("id", RowId, primary_key=True, autoincrement=True),
    Column("player_id", String(32), nullable=False, index=True),
    Column("until", Float, nullable=False),
    Column("by_id", String(32), nullable=False),
    Column("reason", Text, nullable=False),
    Column("at", Float, nullable=False),
)

# Bans: one row each, lifted by an unban (kept: who banned whom and why stays known).
bans = Table(
    "bans",
    metadata,
    Column("id", RowId, primary_key=True, autoincrement=True),
    Column("player_id", String(32), nullable=False, index=True),
    Column("by_id", String(32), nullable=False),
    Column("reason", Text, nullable=False),
    Column("at", Float, nullable=False),
    Column("lifted_at", Float, nullable=True),
    Column("lifted_by", String(32), nullable=True),
)

# The addresses a ban covers too (a guest costs nothing to make: a ban by account alone is
# evaded in a second).
banned_addresses = Table(
    "banned_addresses",
    metadata,
    Column("ban_id", BigInteger, primary_key=True),
    Column("address", String(64), primary_key=True, index=True),
)

# The accounts that may moderate; set by the operator's command line, never by a player.
operators = Table(
    "operators",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("since", Float, nullable=False),
)

# Every moderation action: who did what to whom, why, when. Its id counts up, so it is also
# where another process finds the actions it has not applied yet.
moderation_log = Table(
    "moderation_log",
    metadata,
    Column("id", RowId, primary_key=True, autoincrement=True),
    Column("at", Float, nullable=False),
    Column("actor_id", String(32), nullable=True),  # null: the operator's command line
    Column("action", String(32), nullable=False),
    Column("subject_id", String(32), nullable=True),
    Column("reason", Text, nullable=True),
    Column("detail", Text, nullable=True),  # JSON: what else the action needs said
)

# A challenge (issue 24): one player asks another to a game, casual with any options or ranked in
# a pool; open until accepted (``table_id`` names the table then opened), declined, cancelled by
# its sender, or expired (``expires_at``). Kept so that a restart loses none.
challenges = Table(
    "challenges",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("challenger_id", String(32), nullable=False, index=True),
    Column("challenged_id", String(32), nullable=False, index=True),
    Column("options", Text, nullable=False),  # JSON: the table's options (``Options.to_json``)
    Column("at", Float, nullable=False),
    Column("expires_at", Float, nullable=False, index=True),
    Column("state", String(16), nullable=False),  # open, accepted, declined, cancelled, expired
    Column("answered_at", Float, nullable=True),
    Column("table_id", String(32), nullable=True),
)

# Who follows whom (to see them online and what they play); a follow is one-way.
follows = Table(
    "follows",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("followed_id", String(32), primary_key=True, index=True),
    Column("at", Float, nullable=False),
)

# Whom a player accepts challenges from: "friends" (those they follow) or "nobody"; no row is
# "everyone", the default.
challenge_settings = Table(
    "challenge_settings",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("accept_from", String(16), nullable=False),
)

# Abandonment (issue 24, docs/protocol.md 4): each real-time game a player walked away from
# (counted once a table), and each player's standing, from which the hall holds them back.
abandonments = Table(
    "abandonments",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("table_id", String(32), primary_key=True),
    Column("reason", String(16), nullable=False),  # left, disconnected, timeout
    Column("at", Float, nullable=False),
)

abandonment_standings = Table(
    "abandonment_standings",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("strikes", Integer, nullable=False),  # those still counting (hall/abandonment.py)
    Column("last_at", Float, nullable=False),
    Column("until", Float, nullable=False),  # held back from new real-time games until then
    Column("finished_since", Integer, nullable=False),  # games played to the end since
)

# The addresses each player signed in from, kept a short time (store/addresses.py): a ban may
# cover an account's addresses without the operator typing them.
player_addresses = Table(
    "player_addresses",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("address", String(64), primary_key=True),
    Column("first_at", Float, nullable=False),
    Column("last_at", Float, nullable=False, index=True),
)

# Arena seasons (docs/arena.md, migration 0013): one row a season of a pool and speed; its
# ``closed_at`` is set once, by the transaction that freezes its standings and awards.
arena_seasons = Table(
    "arena_seasons",
    metadata,
    Column("pool", String(32), primary_key=True),
    Column("speed", String(16), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("starts_at", Float, nullable=False),
    Column("ends_at", Float, nullable=False),
    Column("closed_at", Float, nullable=True),
)

# Each player's standing in a season: league, points, and the season rating (openskill, new
# each season) that orders Elite.
arena_standings = Table(
    "arena_standings",
    metadata,
    Column("pool", String(32), primary_key=True),
    Column("speed", String(16), primary_key=True),
    Column("season", Integer, primary_key=True),
    Column("player_id", String(32), primary_key=True),
    Column("league", Integer, nullable=False),
    Column("points", Integer, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("losses", Integer, nullable=False),
)

# What each arena game did to each player's standing; keyed by (game, player): a game counts
# once (a turn-based game settled at its season's end counts no more when it finishes).
arena_results = Table(
    "arena_results",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("player_id", String(32), primary_key=True),
    Column("pool", String(32), nullable=False),
    Column("speed", String(16), nullable=False),
    Column("season", Integer, nullable=False),
    Column("place", Integer, nullable=False),
    Column("league_before", Integer, nullable=False),
    Column("points_before", Integer, nullable=False),
    Column("league_after", Integer, nullable=False),
    Column("points_after", Integer, nullable=False),
    Column("at", Float, nullable=False),
)

# A season's end as each player keeps it on their profile: the league they finished in (the
# badge), their rank in the season's standings, and a trophy (1, 2, 3) for the top of Elite.
arena_awards = Table(
    "arena_awards",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("pool", String(32), primary_key=True),
    Column("speed", String(16), primary_key=True),
    Column("season", Integer, primary_key=True),
    Column("league", Integer, nullable=False),
    Column("rank", Integer, nullable=False),
    Column("trophy", Integer, nullable=True),
    Column("at", Float, nullable=False),
)

# Tournaments (issue 25, docs/tournaments.md): the settings and the engine's state (an arena or a
# swiss, ``hall/tournament/``) as JSON in ``body``; ``version`` compared and set by every save.
tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("kind", String(8), nullable=False),  # arena, swiss
    Column("creator_id", String(32), nullable=True, index=True),  # None: the operator
    Column("created_at", Float, nullable=False),
    Column("starts_at", Float, nullable=False),
    Column(
        "status", String(16), nullable=False, index=True
    ),  # created, running, finished, cancelled
    Column("listed", Boolean, nullable=False),  # on the home page: not invitation-only
    Column("body", Text, nullable=False),
    Column("version", Integer, nullable=False),
)
