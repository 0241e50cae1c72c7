"""``dominohall serve``: the hall on uvicorn, with a SQLite file in the data folder unless told otherwise."""

from __future__ import annotations

import logging
from pathlib import Path

import click

from ..bots.hard import DEFAULT_BUDGET


def database_url_for(data: Path) -> str:
    return f"sqlite+aiosqlite:///{(data / 'dominohall.db').resolve()}"


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
@click.option(
    "--data",
    envvar="DOMINOHALL_DATA",
    default="./data",
    show_default=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder for the database file and the cookie secret (made if missing).",
)
@click.option(
    "--database-url",
    envvar="DOMINOHALL_DATABASE_URL",
    default=None,
    help="SQLAlchemy async URL (default: a SQLite file in the data folder).",
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
    "--hard-budget",
    envvar="DOMINOHALL_HARD_BUDGET",
    default=DEFAULT_BUDGET,
    show_default=True,
    type=click.FloatRange(min=0, min_open=True),
    help="Seconds the Hard computer player thinks per move (at most twice that by the clock).",
)
@click.option("--echo", is_flag=True, hidden=True, help="Serve /ws/echo (for the benchmark).")
def serve(
    host: str,
    port: int,
    data: Path,
    database_url: str | None,
    log_level: str,
    bot_delay: float,
    hard_budget: float,
    echo: bool,
) -> None:
    """Serve the hall: the page at /, the JSON API and the WebSocket (docs/protocol.md)."""
    import uvicorn

    from ..web import create_app

    logging.basicConfig(level=log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    app = create_app(
        database_url=database_url or database_url_for(data),
        data=data,
        bot_delay=bot_delay,
        hard_budget=hard_budget,
        echo=echo,
    )
    click.echo(f"Domino Hall on http://{host}:{port}/ (data in {data.resolve()})")
    # One process holds the tables in memory, so one worker; client messages are small.
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws="websockets-sansio",
        ws_max_size=64 * 1024,
    )
