"""The build: the rules engine's hot modules compiled with mypyc, the rest plain Python.

Compiled, the engine plays 1.7 times as many hands a second (``dominohall bench engine``), the
computer players' budget. Without a C compiler, or with ``DOMINOHALL_PURE_PYTHON=1``, the same
modules install as Python, which behaves the same, only slower. Everything else lives in
pyproject.toml.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from setuptools import setup

RULES = Path("src/dominohall/rules")


def hot_modules() -> list[str]:
    """The engine's loop, every move and every deal: ``HOT_MODULES`` of rules/compiled.py (the
    package's own list, loaded alone, as the package is not built yet)."""
    spec = importlib.util.spec_from_file_location("hot_modules", RULES / "compiled.py")
    assert spec is not None and spec.loader is not None
    listing = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(listing)
    return [f"{RULES / name}.py" for name in listing.HOT_MODULES]


def compiled_modules() -> list[object]:
    if os.environ.get("DOMINOHALL_PURE_PYTHON") == "1":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        return []
    extensions = mypycify(hot_modules(), opt_level="3")
    for extension in extensions:
        extension.optional = True  # no compiler: the modules stay Python
    return extensions


setup(ext_modules=compiled_modules())
