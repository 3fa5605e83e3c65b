"""Real-browser fixtures: the app under `streamlit run`, driven by Playwright in Debian's Chromium.

The helpers the tests share (waiting for the app, reading cards and the ranked list, moving rows, touch
input, screenshots) are in tests/browser/helpers.py.

Outside CI a missing browser skips these tests with the reason; with CI=true it fails the run.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.browser.helpers import PHONE, SCREENSHOTS, screenshot, wait_for_app  # noqa: F401 (shared helpers, re-exported)

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]
IN_CI = os.environ.get("CI", "").lower() == "true"


def _require_browser() -> None:
    problem = None
    if not Path(CHROMIUM).exists():
        problem = "Chromium is not installed (apt-get install -y chromium)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            problem = "playwright is not installed (pip install -r requirements-dev.txt)"
    if problem:
        if IN_CI:
            pytest.fail(f"Browser tests need a browser in CI: {problem}")
        pytest.skip(problem)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_app(port: int, *, script: str = "app.py", extra_args: tuple[str, ...] = (),
              env: dict[str, str] | None = None) -> subprocess.Popen:
    """Start `streamlit run` on loopback in its own process group and wait for /_stcore/health.

    ``env``: variables set for the app's process only (on top of this process's environment)."""
    command = [
        sys.executable, "-m", "streamlit", "run", script, "--server.headless", "true",
        "--server.address", "127.0.0.1", "--server.port", str(port), *extra_args,
    ]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
                               env=None if env is None else {**os.environ, **env})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"streamlit exited early: {process.stderr.read().decode(errors='replace')[-2000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return process
        except OSError:
            time.sleep(0.3)
    stop_app(process)
    raise RuntimeError("streamlit did not become healthy within 60 s")


def stop_app(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)


def serve_app():
    """Start the app on a free loopback port, yield its base URL, stop it (a generator for fixtures)."""
    _require_browser()
    port = free_port()
    process = start_app(port)
    yield f"http://127.0.0.1:{port}"
    stop_app(process)


@pytest.fixture(scope="session")
def app_url():
    """Base URL of a running app (one server for the whole test session)."""
    yield from serve_app()


@pytest.fixture(scope="session")
def playwright_driver():
    _require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright_driver):
    """A plain Chromium for the tests that need browser contexts of their own (several users at once)."""
    chromium = playwright_driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()


def _persistent_context(playwright_driver, tmp_path_factory, name: str, **options):
    """One Chromium with a profile on disk for the whole worker: its tabs share the HTTP cache and V8's code cache,
    which an incognito context does not keep, so each page load after the first costs the browser about a third less
    CPU (measured: 2.3 -> 1.6 s for the Playground). Each test still gets a tab of its own, which is a Streamlit session
    of its own (the app keeps nothing in cookies or browser storage). The profile is a fresh temporary directory."""
    context = playwright_driver.chromium.launch_persistent_context(
        str(tmp_path_factory.mktemp(name)), executable_path=CHROMIUM, args=CHROMIUM_ARGS, **options
    )
    yield context
    context.close()


DESKTOP = {"viewport": {"width": 1400, "height": 900}}


@pytest.fixture(scope="session")
def desktop_context(playwright_driver, tmp_path_factory):
    yield from _persistent_context(playwright_driver, tmp_path_factory, "chromium-desktop", **DESKTOP)


@pytest.fixture(scope="session")
def phone_context(playwright_driver, tmp_path_factory):
    yield from _persistent_context(playwright_driver, tmp_path_factory, "chromium-phone", **PHONE)


class ReusedTab:
    """One tab that the tests of a worker take in turn, as a user reuses a browser tab.

    Why: a new tab costs Chromium about 1.4 CPU-s more than loading the app again in a tab that has loaded it
    before (a new renderer process fetches, compiles and warms up the app's scripts again; measured 3.0 against
    1.6 CPU-s per Playground load), and the browser tests are limited by CPU.

    Between tests the tab is reset to what a new tab is: a blank page (which ends the test's Streamlit session),
    the context's viewport, screen media and the pointer in the corner. The tab of a test that failed is closed, and
    the next test gets a new one. (A test that listens to the tab's events removes its listener: see the
    ``dialogs`` fixture in test_security_browser.py.)
    """

    def __init__(self, context, viewport: dict) -> None:
        self.context = context
        self.viewport = viewport
        self.tab = None

    def take(self):
        if self.tab is None or self.tab.is_closed():
            self.tab = self.context.new_page()
        return self.tab

    def give_back(self, *, reusable: bool) -> None:
        tab, self.tab = self.tab, None
        if tab is None or tab.is_closed():
            return
        if reusable:
            try:
                tab.goto("about:blank")
                tab.set_viewport_size(self.viewport)
                tab.emulate_media(media="null")
                tab.mouse.move(0, 0)
                self.tab = tab
                return
            except Exception:  # a tab that cannot be reset is replaced, never handed on half-reset
                pass
        tab.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Remember whether a test's setup or call failed (the tab fixtures replace a failed test's tab)."""
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        item.tab_spoiled = True


def _lend(keeper: ReusedTab, request):
    tab = keeper.take()
    yield tab
    keeper.give_back(reusable=not getattr(request.node, "tab_spoiled", False))


@pytest.fixture(scope="session")
def _desktop_tab(desktop_context):
    return ReusedTab(desktop_context, DESKTOP["viewport"])


@pytest.fixture(scope="session")
def _phone_tab(phone_context):
    return ReusedTab(phone_context, PHONE["viewport"])


@pytest.fixture
def page(_desktop_tab, request):
    """A tab at 1400x900 showing a blank page (a test may resize it), reset or replaced after the test."""
    yield from _lend(_desktop_tab, request)


@pytest.fixture
def phone(_phone_tab, request):
    """A tab on a 390x844 touch phone (an iPhone 12-14 sized viewport) showing a blank page, reset after the test."""
    yield from _lend(_phone_tab, request)
