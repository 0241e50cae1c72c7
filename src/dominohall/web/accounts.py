"""Players: guests with a nickname, accounts with a username and an argon2-hashed password."""

from __future__ import annotations

import asyncio
import dataclasses
import re
import secrets
import unicodedata

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ..hall import HallError, messages
from ..hall.accounts import Accounts, Conflict, StoredPlayer
from .fields import shown
from .ratelimit import Guard

_PUNCTUATION = "_-.'"
# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): drawn as nothing at all, so
# refused anywhere in a name. The ones that are letters (the Hangul fillers) would pass otherwise.
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)
# The fewest and most characters of each (GET /api/presets sends them, for the page to say).
NAME_LENGTH = (1, 20)
USERNAME_LENGTH = (3, 20)
PASSWORD_LENGTH = (8, 200)
_USERNAME = re.compile(rf"^[a-z0-9_-]{{{USERNAME_LENGTH[0]},{USERNAME_LENGTH[1]}}}$")
_hasher = PasswordHasher()
# Checked against when the username is unknown, so that a wrong username takes as long.
_DUMMY_HASH = _hasher.hash(secrets.token_hex(16))


def check_name(name: object) -> str:
    """The name as kept: NFKC-normalised and trimmed; ``bad_name`` unless plain (docs/protocol.md).

    Allowed: letters, marks and numbers of any script (Unicode categories L, M, N), single spaces
    and ``_ - . '``; it starts with a letter, number or one of those four, and has no invisible
    character (Default_Ignorable_Code_Point), so every name shows at least one visible character.
    """
    if not isinstance(name, str):
        raise HallError("bad_request", "'name' is a string, not {value}", value=shown(name))
    name = unicodedata.normalize("NFKC", name).strip()
    fewest, most = NAME_LENGTH
    if not fewest <= len(name) <= most:
        raise HallError(
            "bad_name",
            "a name has {fewest} to {most} characters, not {length}",
            fewest=fewest,
            most=most,
            length=len(name),
        )
    if _INVISIBLE.search(name) or unicodedata.category(name[0]).startswith("M"):
        raise HallError(
            "bad_name",
            "a name has no invisible characters (zero-width, fillers) and no mark before a letter",
        )
    if "  " in name or not all(_plain(c) for c in name):
        raise HallError(
            "bad_name",
            "a name has letters, digits, single spaces and _ - . ' only",
        )
    return name


def _plain(character: str) -> bool:
    return (
        character in _PUNCTUATION or character == " " or unicodedata.category(character)[0] in "LMN"
    )


def normal_username(username: str) -> str:
    """A username as kept and looked up: NFKC, case-folded (the Kelvin sign is a k), trimmed."""
    return unicodedata.normalize("NFKC", username).casefold().strip()


def check_username(username: object) -> str:
    if not isinstance(username, str):
        raise HallError("bad_request", "'username' is a string, not {value}", value=shown(username))
    user = normal_username(username)
    if not _USERNAME.match(user):
        fewest, most = USERNAME_LENGTH
        raise HallError(
            "bad_username",
            "a username has {fewest} to {most} characters: a-z, 0-9, _ and -",
            fewest=fewest,
            most=most,
        )
    return user


def check_password(password: object) -> str:
    fewest, most = PASSWORD_LENGTH
    if not isinstance(password, str) or not fewest <= len(password) <= most:
        raise HallError(
            "bad_password", "a password has {fewest} to {most} characters", fewest=fewest, most=most
        )
    return password


def player_json(player: StoredPlayer | None) -> messages.Player | None:
    if player is None:
        return None
    return {
        "id": player.id,
        "name": player.name,
        "username": player.username,
        "guest": player.username is None,
        "language": player.language,
    }


def new_id() -> str:
    return "p_" + secrets.token_urlsafe(12)


async def new_guest(accounts: Accounts, name: object, now: float) -> StoredPlayer:
    """A new guest, seen at ``now`` (the hall's clock, as its session will be)."""
    player = StoredPlayer(new_id(), check_name(name), None, None)
    await accounts.add_player(player, now)
    return player


async def rename(accounts: Accounts, player: StoredPlayer, name: object) -> StoredPlayer:
    renamed = dataclasses.replace(player, name=check_name(name))
    await accounts.update_player(renamed)
    return renamed


async def new_account(
    accounts: Accounts,
    guard: Guard,
    address: str,
    guest: StoredPlayer | None,
    username: object,
    password: object,
    name: object,
    now: float,
) -> StoredPlayer:
    """Make an account, seen at ``now``; a signed-in guest claims it (same player, same tables)."""
    user = check_username(username)
    plain = check_password(password)
    default = guest.name if guest is not None else user
    shown = default if name is None else check_name(name)
    if guest is not None and guest.username is not None:
        raise HallError("already_account", "you already have an account: sign out first")
    await guard.new_account(address)
    # Hashing takes tens of milliseconds of CPU: after the cheap checks, and off the event loop.
    secret = await asyncio.to_thread(_hasher.hash, plain)
    try:
        if guest is not None:
            player = StoredPlayer(guest.id, shown, user, secret, guest.language)
            await accounts.update_player(player)
        else:
            player = StoredPlayer(new_id(), shown, user, secret)
            await accounts.add_player(player, now)
    except Conflict:
        raise HallError(
            "username_taken", "the username {username!r} is taken", username=user
        ) from None
    return player


async def _password_is(player: StoredPlayer | None, password: str) -> bool:
    try:
        await asyncio.to_thread(
            _hasher.verify,
            player.password_hash if player and player.password_hash else _DUMMY_HASH,
            password,
        )
    except (VerificationError, InvalidHashError):
        return False
    return player is not None


async def _guess(
    guard: Guard, address: str, user: str, player: StoredPlayer | None, password: str
) -> bool:
    """Check a password under the guessing limits (429 while slowed)."""
    await guard.guess(user, address)  # counted first, so that guesses sent at once all count
    if not await _password_is(player, password):
        return False
    await guard.right_guess(user, address)
    return True


async def sign_in(
    accounts: Accounts, guard: Guard, address: str, username: object, password: object
) -> StoredPlayer:
    wrong = HallError("wrong_password", "wrong username or password")
    if not isinstance(username, str) or not isinstance(password, str):
        raise wrong
    user = normal_username(username)
    player = await accounts.player_by_username(user)
    if not await _guess(guard, address, user, player, password) or player is None:
        raise wrong
    return player


async def change_password(
    accounts: Accounts,
    guard: Guard,
    address: str,
    player: StoredPlayer,
    password: object,
    new_password: object,
) -> StoredPlayer:
    """A new password for an account, given the one it has."""
    if player.username is None:
        raise HallError("no_account", "a guest has no password: make an account first")
    if not isinstance(password, str):
        raise HallError("bad_request", "'password' is the account's password now, a string")
    plain = check_password(new_password)
    if not await _guess(guard, address, player.username, player, password):
        raise HallError("wrong_password", "that is not the account's password")
    secret = await asyncio.to_thread(_hasher.hash, plain)
    changed = dataclasses.replace(player, password_hash=secret)
    await accounts.update_player(changed)
    return changed
