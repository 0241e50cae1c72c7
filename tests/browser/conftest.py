"""The real hall as a subprocess on loopback, and Debian's Chromium driven by Playwright."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from web.live import free_port

playwright_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = os.environ.get("DOMINOHALL_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
PHONE_390 = {"width": 390, "height": 844}  # the phone the page was tried on (issue 9)
SIZES = [
    pytest.param(DESKTOP, id="desktop"),
    pytest.param(PHONE_390, id="phone"),
]


class Hall:
    """`dominohall serve` in a subprocess, with a data folder of its own and no bot delay."""

    def __init__(self, data: Path, port: int | None = None, extra: tuple[str, ...] = ()) -> None:
        self.data = data
        self.extra = list(extra)  # more options for `dominohall serve`
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.log: IO[bytes] | None = None

    def start(self) -> None:
        command = Path(sys.executable).parent / "dominohall"
        self.log = (self.data / "server.log").open("ab")
        self.process = subprocess.Popen(
            [str(command), "serve", "--host", "127.0.0.1", "--port", str(self.port)]
            + ["--data", str(self.data), "--bot-delay", "0", "--log-level", "warning"]
            + self.extra,
            stdout=subprocess.DEVNULL,
            stderr=self.log,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                log = (self.data / "server.log").read_text()
                raise RuntimeError(f"the hall exited at start:\n{log}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the hall did not answer /healthz within 30 s")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        if self.log:
            self.log.close()
            self.log = None


@pytest.fixture(scope="package")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    """The hall every browser test shares. All of them sign up from 127.0.0.1: the limit of new
    accounts per address (10 an hour by default, tested in tests/web/test_ratelimit.py) is
    raised so that their number does not decide which one is refused."""
    server = Hall(tmp_path_factory.mktemp("hall"), extra=("--account-limit", "1000/1h"))
    server.start()
    yield server
    server.stop()


@pytest.fixture
def own_hall(tmp_path: Path) -> Iterator[Hall]:
    """A hall for one test (one that stops and restarts it)."""
    server = Hall(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="package")
def browser() -> Iterator[object]:
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (run `make browser`)")
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def page(hall: Hall, browser: Any) -> Iterator[Any]:
    """The home page at desktop size, for tests that run the page's modules in it."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(hall.url + "/")
    page.wait_for_selector("#app main")
    yield page
    context.close()


@pytest.fixture(scope="package")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="package")
def ranked(hall: Hall) -> dict[str, Any]:
    """A real ranked game played to its end in the hall, once a hall (test_profiles.py)."""
    from .test_profiles import ranked_game  # (a test module's helpers: imported when needed)

    return ranked_game(hall)
