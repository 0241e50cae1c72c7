"""Players: guests with a nickname, accounts with a username and an argon2-hashed password."""

from __future__ import annotations

import asyncio
import re
import secrets
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ..hall import HallError
from ..store import Conflict, Store, StoredPlayer
from .ratelimit import Guard

# Letters of any script, digits, spaces and _ - . ' ; no two spaces in a row (docs/protocol.md).
_NAME = re.compile(r"^(?:[^\W_]|[_\-.'])+(?: (?:[^\W_]|[_\-.'])+)*$")
_USERNAME = re.compile(r"^[a-z0-9_-]{3,20}$")
_hasher = PasswordHasher()
# Checked against when the username is unknown, so that a wrong username takes as long.
_DUMMY_HASH = _hasher.hash(secrets.token_hex(16))


def check_name(name: object) -> str:
    if not isinstance(name, str):
        raise HallError("bad_name", "a name is a string of 1 to 20 characters")
    name = name.strip()
    if not 1 <= len(name) <= 20:
        raise HallError("bad_name", f"a name has 1 to 20 characters, not {len(name)}")
    if not _NAME.match(name):
        raise HallError(
            "bad_name",
            "a name has letters, digits, single spaces and _ - . ' only",
        )
    return name


def check_username(username: object) -> str:
    if not isinstance(username, str) or not _USERNAME.match(username.strip().lower()):
        raise HallError("bad_username", "a username has 3 to 20 characters: a-z, 0-9, _ and -")
    return username.strip().lower()


def check_password(password: object) -> str:
    if not isinstance(password, str) or not 8 <= len(password) <= 200:
        raise HallError("bad_password", "a password has 8 to 200 characters")
    return password


def player_json(player: StoredPlayer | None) -> dict[str, Any] | None:
    if player is None:
        return None
    return {
        "id": player.id,
        "name": player.name,
        "username": player.username,
        "guest": player.username is None,
    }


def new_id() -> str:
    return "p_" + secrets.token_urlsafe(12)


async def new_guest(store: Store, name: object) -> StoredPlayer:
    player = StoredPlayer(new_id(), check_name(name), None, None)
    await store.add_player(player)
    return player


async def rename(store: Store, player: StoredPlayer, name: object) -> StoredPlayer:
    renamed = StoredPlayer(player.id, check_name(name), player.username, player.password_hash)
    await store.update_player(renamed)
    return renamed


async def new_account(
    store: Store,
    guard: Guard,
    address: str,
    guest: StoredPlayer | None,
    username: object,
    password: object,
    name: object,
) -> StoredPlayer:
    """Make an account; a signed-in guest claims it (same player, same tables)."""
    user = check_username(username)
    plain = check_password(password)
    default = guest.name if guest is not None else user
    shown = default if name is None else check_name(name)
    if guest is not None and guest.username is not None:
        raise HallError("already_account", "you already have an account: sign out first", 409)
    guard.new_account(address)
    # Hashing takes tens of milliseconds of CPU: after the cheap checks, and off the event loop.
    secret = await asyncio.to_thread(_hasher.hash, plain)
    try:
        if guest is not None:
            player = StoredPlayer(guest.id, shown, user, secret)
            await store.update_player(player)
        else:
            player = StoredPlayer(new_id(), shown, user, secret)
            await store.add_player(player)
    except Conflict:
        raise HallError("username_taken", f"the username {user!r} is taken", 409) from None
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
    guard.check_guess(user, address)
    guard.wrong_guess(user, address)  # spent first, so that guesses sent at once all count
    if not await _password_is(player, password):
        return False
    guard.right_guess(user, address)
    return True


async def sign_in(
    store: Store, guard: Guard, address: str, username: object, password: object
) -> StoredPlayer:
    wrong = HallError("wrong_password", "wrong username or password", 401)
    if not isinstance(username, str) or not isinstance(password, str):
        raise wrong
    user = username.strip().lower()
    player = await store.player_by_username(user)
    if not await _guess(guard, address, user, player, password) or player is None:
        raise wrong
    return player


async def change_password(
    store: Store,
    guard: Guard,
    address: str,
    player: StoredPlayer,
    password: object,
    new_password: object,
) -> StoredPlayer:
    """A new password for an account, given the one it has."""
    if player.username is None:
        raise HallError("no_account", "a guest has no password: make an account first", 409)
    if not isinstance(password, str):
        raise HallError("bad_request", "'password' is the account's password now, a string")
    plain = check_password(new_password)
    if not await _guess(guard, address, player.username, player, password):
        raise HallError("wrong_password", "that is not the account's password", 401)
    secret = await asyncio.to_thread(_hasher.hash, plain)
    changed = StoredPlayer(player.id, player.name, player.username, secret)
    await store.update_player(changed)
    return changed
