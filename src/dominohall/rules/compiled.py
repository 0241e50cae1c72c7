"""Whether the engine runs compiled (setup.py builds its hot modules with mypyc), and a warning
when a compiled module is older than its source in a working copy: Python would keep loading
the compiled one, and an edit to the source would seem to do nothing."""

from __future__ import annotations

import importlib.machinery
import warnings
from pathlib import Path

# The modules setup.py compiles (the engine's loop: every move and every deal).
HOT_MODULES = ("tiles", "moves", "layout", "scoring", "hand", "game")
_HERE = Path(__file__).parent


def compiled_modules() -> list[str]:
    """The hot modules present here in compiled form."""
    return [name for name in HOT_MODULES if _built(name) is not None]


def stale_modules() -> list[str]:
    """The compiled modules whose source was changed after they were built."""
    stale = []
    for name in HOT_MODULES:
        built = _built(name)
        source = _HERE / f"{name}.py"
        if built is not None and source.exists() and source.stat().st_mtime > built.stat().st_mtime:
            stale.append(name)
    return stale


def _built(name: str) -> Path | None:
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = _HERE / f"{name}{suffix}"
        if path.exists():
            return path
    return None


def warn_if_stale() -> None:
    """Warn, in a working copy whose engine was compiled before its latest edit."""
    if not (_HERE.parents[2] / "setup.py").exists():
        return  # an installed copy: its files are as installed, whatever their times say
    stale = stale_modules()
    if stale:
        warnings.warn(
            f"the compiled engine is older than rules/{', rules/'.join(n + '.py' for n in stale)}"
            ": Python loads the compiled one, so the edit is not running. Build it again with "
            "`make setup` (or `pip install -e .`), or delete src/dominohall/rules/*.so to run "
            "the Python source",
            RuntimeWarning,
            stacklevel=2,
        )
