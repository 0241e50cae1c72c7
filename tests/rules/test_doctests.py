"""The ``>>>`` examples in the engine's and the bots' modules are checked by plain pytest."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

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


@pytest.mark.parametrize("name", MODULES)
def test_doctest_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
    if name.rsplit(".", 1)[-1] in EXAMPLED:
        assert result.attempted > 0
