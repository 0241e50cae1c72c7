"""``dominohall serve``: the hall on uvicorn, with a SQLite file in the data folder unless told otherwise."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from ..bots.hard import DEFAULT_BUDGET

# One process holds the tables in memory, so one worker; client messages are small.
# The hall reads X-Forwarded-* itself, from --trusted-proxy only (uvicorn's own default would
# believe any local process).
# On SIGTERM uvicorn closes every socket, then waits for their handlers to end before the hall
# stops (its leases given up: docs/deploy.md); a handler stuck on a part that does not answer
# must not keep the tables from the other processes, so after this long it is cancelled.
SHUTDOWN_SECONDS = 5
UVICORN_OPTIONS: dict[str, Any] = {
    "ws": "websockets-sansio",
    "ws_max_size": 64 * 1024,
    "proxy_headers": False,
    "timeout_graceful_shutdown": SHUTDOWN_SECONDS,
}
DAY = 24 * 3600.0
F = TypeVar("F", bound=Callable[..., Any])


def database_url_for(data: Path) -> str:
    return f"sqlite+aiosqlite:///{(data / 'dominohall.db').resolve()}"


def _limit(_ctx: Any, param: click.Parameter, value: str) -> Any:
    from ..web.ratelimit import Limit  # the web stack loads only to serve

    try:
        return Limit.parse(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param=param) from None


def _networks(_ctx: Any, param: click.Parameter, values: tuple[str, ...]) -> tuple[str, ...]:
    # One flag per proxy, or the variable with several separated by spaces or commas.
    from ..web.proxy import parse_networks

    split = tuple(part for value in values for part in value.replace(",", " ").split())
    try:
        parse_networks(split)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param=param) from None
    return split


def _secret_file(_ctx: Any, param: click.Parameter, value: Path | None) -> Path | None:
    from ..hall.secret import read_secret_file

    if value is not None:
        try:
            read_secret_file(value)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param=param) from None
    return value


def _limit_option(name: str, default: str, what: str) -> Callable[[F], F]:
    """A rate limit's flag; its default is ``web.ratelimit.Limits()``'s (tests/cli/test_serve.py)."""
    return click.option(
        name,
        envvar="DOMINOHALL_" + name[2:].upper().replace("-", "_"),
        default=default,
        show_default=True,
        callback=_limit,
        help=f"{what}: COUNT/TIME (s, m, h, d), or off.",
    )


def where_the_hall_keeps_its_data(
    data_help: str, url_help: str, *url_aliases: str
) -> Callable[[F], F]:
    """``--data`` and ``--database-url`` (and their variables), as every command on a hall's
    database takes them."""

    def options(command: F) -> F:
        command = click.option(
            "--database-url",
            *url_aliases,
            "database_url",
            envvar="DOMINOHALL_DATABASE_URL",
            default=None,
            help=url_help,
        )(command)
        return click.option(
            "--data",
            envvar="DOMINOHALL_DATA",
            default="./data",
            show_default=True,
            type=click.Path(file_okay=False, path_type=Path),
            help=data_help,
        )(command)

    return options


@click.command()
@click.option(
    "--host",
    envvar="DOMINOHALL_HOST",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on.",
)
@click.option(
    "--port",
    envvar="DOMINOHALL_PORT",
    default=8000,
    show_default=True,
    type=int,
    help="Port to listen on.",
)
@where_the_hall_keeps_its_data(
    "Folder for the SQLite database file and the secret (made if missing).",
    "SQLAlchemy async URL (default: a SQLite file in the data folder).",
)
@click.option(
    "--secret-file",
    envvar="DOMINOHALL_SECRET_FILE",
    default=None,
    type=click.Path(dir_okay=False, path_type=Path),
    callback=_secret_file,
    help="A file holding the secret that signs old cookies and email links, for every process "
    "of the hall (default: kept in the database on PostgreSQL, else in the data folder).",
)
@click.option(
    "--redis-url",
    envvar="DOMINOHALL_REDIS_URL",
    default=None,
    help="Redis between the hall's processes: redis://[USER:PASSWORD@]HOST:PORT/DB, or rediss:// "
    "for TLS (default: none, one process; docs/deploy.md).",
)
@click.option(
    "--redis-prefix",
    envvar="DOMINOHALL_REDIS_PREFIX",
    default="dominohall:",
    show_default=True,
    help="With --redis-url: the start of the hall's Redis keys and channels (every process of "
    "one hall the same; two halls on one Redis each their own).",
)
@click.option(
    "--lease-seconds",
    envvar="DOMINOHALL_LEASE_SECONDS",
    default=10.0,
    show_default=True,
    type=click.FloatRange(min=1.0),
    help="With --redis-url: how long a process holds a table unless it renews it (every third of "
    "this); a dead process's tables are taken over after it (docs/deploy.md).",
)
@click.option(
    "--sockets-only",
    envvar="DOMINOHALL_SOCKETS_ONLY",
    is_flag=True,
    default=False,
    help="With --redis-url: serve HTTP and the sockets but play no table (no lease, no clocks, "
    "no computer players); every command goes to the processes that play them (docs/deploy.md).",
)
@click.option(
    "--log-level",
    envvar="DOMINOHALL_LOG_LEVEL",
    default="info",
    show_default=True,
    type=click.Choice(["critical", "error", "warning", "info", "debug"]),
)
@click.option(
    "--bot-delay",
    envvar="DOMINOHALL_BOT_DELAY",
    default=0.8,
    show_default=True,
    type=float,
    help="Seconds a computer player waits before its move.",
)
@click.option(
    "--trusted-proxy",
    "trusted_proxies",
    envvar="DOMINOHALL_TRUSTED_PROXY",
    multiple=True,
    callback=_networks,
    help="A reverse proxy's address or network (repeat for more): its X-Forwarded-For, "
    "-Proto and -Host are believed.",
)
@click.option(
    "--secure-cookies/--no-secure-cookies",
    envvar="DOMINOHALL_SECURE_COOKIES",
    default=False,
    show_default=True,
    help="Mark the sign-in cookie Secure (it is anyway on requests that came over HTTPS).",
)
@click.option(
    "--session-days",
    envvar="DOMINOHALL_SESSION_DAYS",
    default=30.0,
    show_default=True,
    type=click.FloatRange(min=0, min_open=True),
    help="A sign-in ends after this many days without a visit.",
)
@click.option(
    "--guest-days",
    envvar="DOMINOHALL_GUEST_DAYS",
    default=30.0,
    show_default=True,
    type=click.FloatRange(min=0, min_open=True),
    help="A guest with no game, not seen for this many days, is forgotten.",
)
@_limit_option("--sign-in-limit", "10/15m", "Wrong passwords per account and address")
@_limit_option("--sign-in-address-limit", "30/15m", "Wrong passwords per address")
@_limit_option("--account-limit", "10/1h", "New accounts per address")
@_limit_option("--table-limit", "20/1m", "New tables per address")
@_limit_option("--chat-limit", "5/10s", "Chat lines per player")
@_limit_option("--challenge-limit", "10/1h", "Challenges sent per player")
@_limit_option("--report-limit", "10/1h", "Reports of players per player")
@click.option(
    "--guest-chat/--no-guest-chat",
    envvar="DOMINOHALL_GUEST_CHAT",
    default=False,
    show_default=True,
    help="Let guests type in table chats (else they send quick phrases only).",
)
@click.option(
    "--chat-days",
    envvar="DOMINOHALL_CHAT_DAYS",
    default=90.0,
    show_default=True,
    type=click.FloatRange(min=0, min_open=True),
    help="Days a chat line is kept; older ones are deleted (a table under an open report "
    "keeps its lines until the report is closed).",
)
@click.option(
    "--season-days",
    envvar="DOMINOHALL_SEASON_DAYS",
    default=91.0,
    show_default=True,
    type=click.FloatRange(min=0, min_open=True),
    help="Days an arena season lasts (a new length holds from the next season; docs/arena.md).",
)
@click.option(
    "--sockets-per-address",
    envvar="DOMINOHALL_SOCKETS_PER_ADDRESS",
    default=50,
    show_default=True,
    type=click.IntRange(min=0),
    help="The most sockets open at once from one address (on every process together with "
    "--redis-url; 0: no limit, as for a benchmark whose clients all come from one address).",
)
@click.option(
    "--open-tables",
    envvar="DOMINOHALL_OPEN_TABLES",
    default=10,
    show_default=True,
    type=click.IntRange(min=0),
    help="The most unfinished tables a player may sit at: making one more is refused "
    "(0: no limit).",
)
@click.option(
    "--hard-budget",
    envvar="DOMINOHALL_HARD_BUDGET",
    default=DEFAULT_BUDGET,
    show_default=True,
    type=click.FloatRange(min=0, min_open=True),
    help="Seconds the Hard computer player thinks per move (at most twice that by the clock).",
)
@click.option(
    "--smtp-host",
    envvar="DOMINOHALL_SMTP_HOST",
    default=None,
    help="The SMTP server for email notices (none: the hall sends no email).",
)
@click.option(
    "--smtp-port",
    envvar="DOMINOHALL_SMTP_PORT",
    default=None,
    type=click.IntRange(1, 65535),
    help="Its port (default: 465 with --smtp-security tls, else 587).",
)
@click.option(
    "--smtp-security",
    envvar="DOMINOHALL_SMTP_SECURITY",
    default="starttls",
    show_default=True,
    type=click.Choice(["starttls", "tls", "none"]),
    help="STARTTLS after connecting, TLS from the start, or none (a relay on this machine).",
)
@click.option(
    "--smtp-user", envvar="DOMINOHALL_SMTP_USER", default=None, help="The SMTP login, if any."
)
@click.option(
    "--smtp-password",
    envvar="DOMINOHALL_SMTP_PASSWORD",
    default=None,
    help="Its password (better set in the variable than on the command line).",
)
@click.option(
    "--mail-from",
    envvar="DOMINOHALL_MAIL_FROM",
    default=None,
    help='The From: of the emails, e.g. "Domino Hall <hall@example.org>" (needed for email).',
)
@click.option(
    "--public-url",
    envvar="DOMINOHALL_PUBLIC_URL",
    default=None,
    help="The hall's address as players reach it, e.g. https://dominoes.example.org "
    "(the links in emails; needed for email).",
)
@click.option(
    "--email-every",
    envvar="DOMINOHALL_EMAIL_EVERY",
    default=60.0,
    show_default=True,
    type=click.FloatRange(min=0),
    help="Minutes: at most one notice email per player this often.",
)
@click.option(
    "--turn-based-games",
    envvar="DOMINOHALL_TURN_BASED_GAMES",
    default=30,
    show_default=True,
    type=click.IntRange(min=1),
    help="The most unfinished turn-based games one player may play at once.",
)
@click.option(
    "--vacation-days",
    envvar="DOMINOHALL_VACATION_DAYS",
    default=21,
    show_default=True,
    type=click.IntRange(min=0),
    help="Days of vacation (every turn-based clock paused) a player may take in any 365 days.",
)
@click.option(
    "--sleep-after",
    envvar="DOMINOHALL_SLEEP_AFTER",
    default=600.0,
    show_default=True,
    type=click.FloatRange(min=0.0),
    help="Seconds: a turn-based table unused this long leaves memory until it is needed again "
    "(0: none does).",
)
def serve(
    host: str,
    port: int,
    data: Path,
    database_url: str | None,
    secret_file: Path | None,
    redis_url: str | None,
    redis_prefix: str,
    lease_seconds: float,
    sockets_only: bool,
    log_level: str,
    bot_delay: float,
    trusted_proxies: tuple[str, ...],
    secure_cookies: bool,
    session_days: float,
    guest_days: float,
    sign_in_limit: Any,
    sign_in_address_limit: Any,
    account_limit: Any,
    table_limit: Any,
    chat_limit: Any,
    challenge_limit: Any,
    report_limit: Any,
    guest_chat: bool,
    chat_days: float,
    season_days: float,
    sockets_per_address: int,
    open_tables: int,
    hard_budget: float,
    smtp_host: str | None,
    smtp_port: int | None,
    smtp_security: str,
    smtp_user: str | None,
    smtp_password: str | None,
    mail_from: str | None,
    public_url: str | None,
    email_every: float,
    turn_based_games: int,
    vacation_days: int,
    sleep_after: float,
) -> None:
    """Serve the hall: the page at /, the JSON API and the WebSocket (docs/protocol.md)."""
    import uvicorn

    from ..hall.turn_based import TurnBasedSettings
    from ..web import create_app
    from ..web.ratelimit import Limits

    if sockets_only and redis_url is None:
        raise click.UsageError("--sockets-only needs --redis-url: the tables are played elsewhere")
    logging.basicConfig(level=log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    mail = mail_settings(
        smtp_host,
        smtp_port,
        smtp_security,
        smtp_user,
        smtp_password,
        mail_from,
        public_url,
        email_every,
    )
    app = create_app(
        database_url=database_url or database_url_for(data),
        data=data,
        secret_file=secret_file,
        redis_url=redis_url,
        redis_prefix=redis_prefix,
        lease_seconds=lease_seconds,
        bot_delay=bot_delay,
        hard_budget=hard_budget,
        mail=mail,
        turn_based=TurnBasedSettings(games=turn_based_games, vacation_days=vacation_days),
        idle_seconds=sleep_after or None,
        trusted_proxies=trusted_proxies,
        secure_cookies=secure_cookies,
        session_lifetime=session_days * DAY,
        guest_lifetime=guest_days * DAY,
        limits=Limits(
            sign_in_per_account=sign_in_limit,
            sign_in_per_address=sign_in_address_limit,
            accounts_per_address=account_limit,
            tables_per_address=table_limit,
            open_tables=open_tables or None,
            sockets_per_address=sockets_per_address or None,
            chat_per_player=chat_limit,
            challenges_per_player=challenge_limit,
            reports_per_player=report_limit,
        ),
        guest_chat=guest_chat,
        chat_days=chat_days,
        season_days=season_days,
        plays_tables=not sockets_only,
    )
    click.echo(f"Domino Hall on http://{host}:{port}/ (data in {data.resolve()})")
    if mail is not None:
        click.echo(f"Email notices through {mail.host}:{mail.port} ({mail.security})")
    uvicorn.run(app, host=host, port=port, log_level=log_level, **UVICORN_OPTIONS)


def mail_settings(
    host: str | None,
    port: int | None,
    security: str,
    user: str | None,
    password: str | None,
    sender: str | None,
    public_url: str | None,
    every_minutes: float,
) -> Any:
    """The email settings from the options (None: no SMTP server, no email)."""
    from ..hall.mail import MailSettings

    if not host:
        return None
    missing = [n for n, v in (("--mail-from", sender), ("--public-url", public_url)) if not v]
    if missing:
        raise click.UsageError(f"email through --smtp-host also needs {' and '.join(missing)}")
    assert sender is not None and public_url is not None
    if not public_url.startswith(("http://", "https://")):
        raise click.UsageError(
            f"--public-url is an http:// or https:// address, not {public_url!r}"
        )
    return MailSettings(
        host=host,
        port=port or (465 if security == "tls" else 587),
        security=security,  # type: ignore[arg-type]
        username=user,
        password=password,
        sender=sender,
        public_url=public_url,
        every=every_minutes * 60,
    )
