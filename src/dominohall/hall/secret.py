"""The hall's secret, which signs the old cookies and the links in emails: where it is kept.

Every process of one hall must sign with the same secret. A file named by ``--secret-file``
comes first; else, on PostgreSQL (a database processes on several machines can share), a row of
the ``meta`` table made once; else (SQLite) the ``secret`` file of the data folder, made once.
"""

from __future__ import annotations

import secrets
from pathlib import Path

from sqlalchemy.engine import make_url

from ..store import Store

META_KEY = "secret"


def new_secret() -> str:
    return secrets.token_urlsafe(48)


def load_secret(folder: Path) -> str:
    """The data folder's secret: made once in the folder, and kept."""
    path = folder / "secret"
    secret = path.read_text().strip() if path.exists() else ""
    if not secret:  # none yet, or an empty file (a first start stopped before writing it)
        folder.mkdir(parents=True, exist_ok=True)
        path.touch(mode=0o600)
        secret = new_secret()
        path.write_text(secret)
    return secret


def read_secret_file(path: Path) -> str:
    """The secret a ``--secret-file`` holds; ValueError naming the file when it holds none."""
    try:
        secret = path.read_text().strip()
    except OSError as error:
        raise ValueError(f"the secret file {path} cannot be read: {error.strerror}") from None
    if len(secret) < 32:
        raise ValueError(
            f"the secret file {path} holds {len(secret)} characters: a secret is at least 32 "
            "(make one with: python3 -c 'import secrets; print(secrets.token_urlsafe(48))')"
        )
    return secret


def kept_in_database(database_url: str) -> bool:
    """Whether the database keeps the secret (PostgreSQL: what several processes share)."""
    return make_url(database_url).get_backend_name() == "postgresql"


def secret_at_hand(database_url: str, data: Path, secret_file: Path | None) -> str | None:
    """The secret when a file holds it (``--secret-file``, or the data folder's for SQLite);
    None when the database keeps it (``database_secret``, once the store is open)."""
    if secret_file is not None:
        return read_secret_file(secret_file)
    if kept_in_database(database_url):
        return None
    return load_secret(data)


async def database_secret(store: Store, data: Path | None) -> str:
    """The secret stored in the database, made by the first process to ask.

    A data folder that already holds a secret (a hall that ran before its secret moved into the
    database) gives it, so that cookies and the links already emailed keep working.
    """
    kept = data / "secret" if data is not None else None
    first = kept.read_text().strip() if kept is not None and kept.is_file() else ""
    return await store.first_meta(META_KEY, first or new_secret())
