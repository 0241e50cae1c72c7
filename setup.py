"""The build: the rules engine's hot modules compiled with mypyc, the rest plain Python.

Compiled, the engine plays 1.7 times as many hands a second (``dominohall bench engine``), the
computer players' budget. Without a C compiler, or with ``DOMINOHALL_PURE_PYTHON=1``, the same
modules install as Python, which behaves the same, only slower. Everything else lives in
pyproject.toml.
"""

from __future__ import annotations

import os

from setuptools import setup

# The modules every move and every deal goes through (the engine's loop: see
# tests/rules/test_compiled.py); the others (records, views, presets) stay Python.
COMPILED = [
    "src/dominohall/rules/tiles.py",
    "src/dominohall/rules/moves.py",
    "src/dominohall/rules/layout.py",
    "src/dominohall/rules/scoring.py",
    "src/dominohall/rules/hand.py",
    "src/dominohall/rules/game.py",
]


def compiled_modules() -> list[object]:
    if os.environ.get("DOMINOHALL_PURE_PYTHON") == "1":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        return []
    extensions = mypycify(COMPILED, opt_level="3")
    for extension in extensions:
        extension.optional = True  # no compiler: the modules stay Python
    return extensions


setup(ext_modules=compiled_modules())
