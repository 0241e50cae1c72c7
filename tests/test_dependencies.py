"""Every dependency pyproject.toml lists is used: imported, or run as a tool, or named where used."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).parent.parent
# Used without an import statement, and where.
NOT_IMPORTED = {
    "aiosqlite": ("src/dominohall/cli/serve.py", "sqlite+aiosqlite://"),  # the default database
    "pytest-timeout": ("pyproject.toml", "\ntimeout = "),
    "pytest-xdist": ("Makefile", " -n $(TEST_WORKERS)"),
    "mypy": ("Makefile", "/mypy "),
    "ruff": ("Makefile", "/ruff "),
    "playwright": ("tests/browser/conftest.py", 'importorskip("playwright.sync_api")'),
    # Starlette's TestClient imports httpx2; with plain httpx it warns, which fails the tests.
    "httpx2": ("tests/web/conftest.py", "from starlette.testclient import TestClient"),
    # redis-py parses Redis's replies with it when it is installed (a tenth of a move's CPU).
    "hiredis": ("src/dominohall/hall/redis_broker.py", "hiredis"),
}
IMPORTED_AS = {"argon2-cffi": "argon2"}


def listed() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    specs = project["dependencies"] + [
        d for ds in project["optional-dependencies"].values() for d in ds
    ]
    return [re.match(r"[A-Za-z0-9_.-]+", spec).group(0).lower() for spec in specs]


def test_every_listed_dependency_is_used():
    sources = "\n".join(
        path.read_text()
        for folder in ("src", "tests", "bench")
        for path in (ROOT / folder).rglob("*.py")
    )
    for name in listed():
        if name in NOT_IMPORTED:
            path, usage = NOT_IMPORTED[name]
            assert usage in (ROOT / path).read_text(), f"{name} is listed but not used"
            continue
        module = IMPORTED_AS.get(name, name.replace("-", "_"))
        imported = re.search(rf"^\s*(import|from) {re.escape(module)}\b", sources, re.MULTILINE)
        assert imported, f"{name} is listed in pyproject.toml but nothing imports {module}"


def test_httpx2_is_what_starlettes_test_client_runs_on():
    import starlette.testclient

    assert starlette.testclient.httpx.__name__ == "httpx2"
