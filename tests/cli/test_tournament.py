"""``dominohall tournament demo``: a tournament of computer entrants written to the hall's
database (a running hall steps it; tests/hall/test_tournaments.py plays one)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from dominohall.cli.main import main


def test_a_demo_tournament_is_created_with_its_computer_entrants(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}"
    args = ["tournament", "demo", "--database-url", url, "--entrants", "6", "--cap", "3"]
    done = CliRunner().invoke(main, args)
    assert done.exit_code == 0, done.output
    made = json.loads(done.output)
    assert (made["kind"], made["status"], made["entrants"], made["creator"]) == (
        "arena",
        "created",
        6,
        None,
    )
    assert made["options"]["cap"] == 3
    assert [row["name"] for row in made["standings"]] == [f"Bot {n}" for n in range(1, 7)]
    bad = CliRunner().invoke(main, [*args[:4], "--kind", "swiss", "--rounds", "0"])
    assert bad.exit_code == 1 and "a swiss plays 1 to 15 rounds" in bad.output
