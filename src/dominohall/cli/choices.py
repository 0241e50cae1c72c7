"""What the commands take by name: a preset, a list of computer players."""

from __future__ import annotations

import click

from ..bots import BOT_NAMES
from ..rules import ConfigError, Preset, get_preset


def preset_named(preset_id: str) -> Preset:
    """The preset ``--preset`` names, or a usage error listing the known ones."""
    try:
        return get_preset(preset_id)
    except ConfigError as exc:
        raise click.BadParameter(str(exc), param_hint="--preset") from None


def bot_names(text: str, option: str) -> list[str]:
    """The computer players of a comma-separated list, or a usage error naming ``option``."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in BOT_NAMES]
    if unknown:
        raise click.BadParameter(
            f"unknown bot {unknown[0]!r} (known: {', '.join(BOT_NAMES)})", param_hint=option
        )
    return names
