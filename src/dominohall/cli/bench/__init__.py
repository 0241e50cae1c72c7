"""``dominohall bench``: benchmarks that print numbers (they never pass or fail).

Their clients live here, apart from the code that serves players: the server benchmark starts
``dominohall serve`` as it is run in service, and a WebSocket echo server of its own to compare.
"""

from __future__ import annotations

import click

from .bytes import bytes_
from .chaos import chaos
from .engine import engine
from .matchmaking import matchmaking
from .server import server


@click.group()
def bench() -> None:
    """Benchmarks: they print numbers, they do not pass or fail."""


bench.add_command(engine)
bench.add_command(server)
bench.add_command(matchmaking)
bench.add_command(bytes_)
bench.add_command(chaos)

__all__ = ["bench"]
