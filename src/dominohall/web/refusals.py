"""The words of each error code in general, marked for the catalogs: what a reader in another
language is told when the precise message (``HallError``'s template) has no translation yet.

English readers always get the precise message; these are never shown in English.
"""

from __future__ import annotations

from ..i18n import N_

CODE_WORDS: dict[str, str] = {
    "not_signed_in": N_("Sign in first, as a guest or with an account."),
    "wrong_password": N_("The username or the password is wrong."),
    "account_needed": N_("This needs an account: sign up first."),
    "not_host": N_("Only the table's host may do that."),
    "cross_site": N_("This request came from another site and was refused."),
    "private_game": N_("This game is private."),
    "not_open_to_watchers": N_("This table is not open to watchers."),
    "held_back": N_("You walked away from games lately: wait a little before the next one."),
    "banned": N_("This account is banned."),
    "challenge_refused": N_("This player does not accept challenges from you."),
    "follow_refused": N_("You cannot follow this player."),
    "no_table": N_("There is no such table."),
    "no_game": N_("There is no such game."),
    "no_player": N_("There is no such player."),
    "no_pool": N_("There is no such pool."),
    "no_challenge": N_("There is no such challenge."),
    "no_tournament": N_("There is no such tournament."),
    "username_taken": N_("That username is taken: choose another."),
    "already_account": N_("You have an account already."),
    "not_seating": N_("This table has started: its seats are settled."),
    "seat_taken": N_("That seat is taken."),
    "table_full": N_("This table is full."),
    "already_seated": N_("You are seated at this table already."),
    "seats_not_filled": N_("Every seat needs a player before the start."),
    "game_over": N_("This game is over."),
    "cannot_queue": N_("You cannot join this queue now."),
    "cannot_play_computer": N_("A computer player is not offered now."),
    "unfinished_tables": N_("You have too many unfinished tables: finish one first."),
    "too_many_games": N_("You play as many turn-based games as one player may."),
    "on_vacation": N_("You are on vacation."),
    "challenge_over": N_("This challenge is over."),
    "already_challenged": N_("You challenged this player already: wait for the answer."),
    "recent_opponent": N_("You played a rated game of this pool together lately."),
    "owner_unreachable": N_("The hall is busy just now: try again."),
    "not_owner": N_("The hall is busy just now: try again."),
    "queue_unreachable": N_("The queue cannot be reached just now: try again."),
    "store_unavailable": N_("The hall cannot save just now: nothing was done; try again."),
    "server_error": N_("The hall could not do that just now: try again."),
    "too_many_attempts": N_("Too many attempts: wait a little and try again."),
    "too_many_accounts": N_("Too many accounts from this address: wait a little."),
    "too_many_tables": N_("Too many tables from this address: wait a little."),
    "too_many_challenges": N_("Too many challenges: wait a little."),
    "bad_name": N_("That name cannot be used."),
    "bad_password": N_("That password cannot be used."),
    "bad_username": N_("That username cannot be used: letters a-z, digits, _ and - only."),
    "bad_request": N_("The hall did not understand that request."),
    "bad_message": N_("The hall did not understand that message."),
    "bad_option": N_("One of the table's options is not allowed."),
    "illegal_move": N_("That move is not allowed."),
    "not_your_turn": N_("It is not your turn."),
}
