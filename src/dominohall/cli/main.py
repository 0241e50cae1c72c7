"""The ``dominohall`` command: one group, one module per command."""

from __future__ import annotations

import click

from .. import __version__
from .backup import backup
from .bench import bench
from .bot import bot
from .copy_database import copy_database_command
from .mod import mod
from .play import play
from .presets import presets
from .record import record
from .serve import serve
from .sim import sim
from .tournament import tournament


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="dominohall")
def main() -> None:
    """Domino Hall: the rules engine, game records, computer players and the hall server."""


for command in (
    presets,
    record,
    bench,
    sim,
    play,
    bot,
    serve,
    backup,
    copy_database_command,
    mod,
    tournament,
):
    main.add_command(command)
