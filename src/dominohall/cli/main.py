"""The ``dominohall`` command: one group, one module per command."""

from __future__ import annotations

import click

from .. import __version__
from .backup import backup
from .bench import bench
from .bench_matchmaking import matchmaking as bench_matchmaking
from .bench_server import server as bench_server
from .bot import bot
from .play import play
from .presets import presets
from .record import record
from .serve import serve
from .sim import sim


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="dominohall")
def main() -> None:
    """Domino Hall: the rules engine, game records, computer players and the hall server."""


bench.add_command(bench_server, name="server")
bench.add_command(bench_matchmaking, name="matchmaking")
for command in (presets, record, bench, sim, play, bot, serve, backup):
    main.add_command(command)
