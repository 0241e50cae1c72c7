"""The HTTP status of each error code: the one place the hall's refusals meet HTTP.

The hall raises ``HallError`` with a code and knows nothing of HTTP; every code a client can get
over HTTP is listed here (docs/protocol.md 2). A code not listed is a 400.
"""

from __future__ import annotations

from ..hall import HallError

STATUS: dict[str, int] = {
    # who you are
    "not_signed_in": 401,
    "wrong_password": 401,
    "account_needed": 403,
    "not_host": 403,
    "cross_site": 403,
    "private_game": 403,
    "not_open_to_watchers": 403,
    "held_back": 403,  # walked away from real-time games lately (hall/abandonment.py)
    "banned": 403,  # an account banned, or a new player from a banned address
    "not_operator": 404,
    "challenge_refused": 403,  # the player's choice, or a block: the same words for both
    "follow_refused": 403,  # the operators' page and API: as if there were none
    # what does not exist
    "no_table": 404,
    "no_game": 404,
    "no_player": 404,
    "no_pool": 404,
    "no_line": 404,  # a chat line reported
    "no_report": 404,
    "no_challenge": 404,
    "no_season": 404,  # an arena season asked for that is not there
    "no_tournament": 404,
    # what the table or account is doing now
    "username_taken": 409,
    "tournament_over": 409,
    "tournament_started": 409,
    "already_entered": 409,
    "not_entered": 409,
    "busy": 409,
    "too_many_tournaments": 429,
    "already_account": 409,
    "no_account": 409,
    "game_not_over": 409,
    "not_seating": 409,
    "seat_taken": 409,
    "table_full": 409,
    "already_seated": 409,
    "seats_not_filled": 409,
    "not_over": 409,
    "rematch_over": 409,
    "game_over": 409,  # a finished table's watching is settled
    "public_table": 409,  # a public table is always open to watchers
    "cannot_queue": 409,
    "arena_provisional": 409,  # the arena waits for a settled rating (docs/arena.md)
    "cannot_play_computer": 409,
    "unfinished_tables": 409,
    "email_off": 409,
    "no_email": 409,
    "too_many_games": 409,  # turn-based games at once
    "on_vacation": 409,
    "not_on_vacation": 409,
    "no_vacation_left": 409,
    "already_banned": 409,
    "not_banned": 409,
    "challenge_over": 409,  # accepted, declined, cancelled or expired already
    "already_challenged": 409,
    "recent_opponent": 409,  # a ranked challenge between two who were just rated together
    # several processes: the table's process could not be reached, or it moved meanwhile
    "owner_unreachable": 503,
    "not_owner": 503,
    "queue_unreachable": 503,  # the matchmaking queue's Redis
    "limits_unreachable": 503,  # the rate limits' Redis: no password checked
    "lobby_unreachable": 503,  # the open tables' list in Redis
    "store_unavailable": 503,  # the database away (restarting): nothing done, try again
    # the request itself
    "bad_content_type": 415,
    "too_many_attempts": 429,
    "too_many_accounts": 429,
    "too_many_tables": 429,
    "too_many_emails": 429,
    "too_many_challenges": 429,
    "too_many_reports": 429,
}


def status_of(error: HallError) -> int:
    """The status that answers ``error`` (400 for the codes about what the client sent)."""
    return STATUS.get(error.code, 400)
