"""The ``>>>`` examples in the engine's and the bots' modules are checked by plain pytest."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

import dominohall.bots
import dominohall.rules

PACKAGES = (dominohall.rules, dominohall.bots)
MODULES = [package.__name__ for package in PACKAGES] + [
    f"{package.__name__}.{info.name}"
    for package in PACKAGES
    for info in pkgutil.iter_modules(package.__path__)
]
EXAMPLED = {
    "tiles",
    "presets",
    "layout",
    "moves",
    "scoring",
    "hand",
    "game",
    "inference",
    "play_model",
    "match",
}


def test_the_engine_modules_with_examples_are_all_found() -> None:
    assert {name.rsplit(".", 1)[-1] for name in MODULES} >= EXAMPLED


def with_examples(name: str) -> ModuleType:
    """The module, or, when it is compiled (which keeps no examples), its source run as Python
    under a name of its own beside it."""
    module = importlib.import_module(name)
    if module.__file__ is None or module.__file__.endswith(".py"):
        return module
    package, short = name.rsplit(".", 1)
    source = Path(module.__file__).with_name(f"{short}.py")
    spec = importlib.util.spec_from_file_location(f"{package}._source_of_{short}", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (dataclasses look their module up)
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


@pytest.mark.parametrize("name", MODULES)
def test_doctest_examples_run(name: str) -> None:
    module = with_examples(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
    if name.rsplit(".", 1)[-1] in EXAMPLED:
        assert result.attempted > 0
