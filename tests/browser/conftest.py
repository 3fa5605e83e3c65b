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

from tests.browser.helpers import (  # noqa: F401 (shared helpers, re-exported)
    PHONE,
    SCREENSHOTS,
    screenshot,
    wait_for_app,
    watch_app_socket,
)

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
    # V8's optimising compilers (Maglev, Turbofan) spent ~0.6 of the ~2 CPU-s a Playground load costs compiling code
    # that a test page runs for a few seconds only; without them a load and a move cost ~10% less CPU (the browser
    # tests are limited by CPU). The JavaScript does the same; only its speed differs.
    "--js-flags=--no-maglev --no-turbofan",
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


def _persistent_context(playwright_driver, tmp_path_factory, name: str, **options):
    """One Chromium with a profile on disk for the whole worker: its tabs share the HTTP cache and V8's code cache,
    which an incognito context does not keep, so each page load after the first costs the browser about a third less
    CPU (measured: 2.3 -> 1.6 s for the Playground). Its tabs are lent to the tests by a TabPool (below). The profile
    is a fresh temporary directory."""
    context = playwright_driver.chromium.launch_persistent_context(
        str(tmp_path_factory.mktemp(name)), executable_path=CHROMIUM, args=CHROMIUM_ARGS, **options
    )
    for tab in context.pages:
        watch_app_socket(tab)
    context.on("page", watch_app_socket)  # every tab the tests open: rerun() waits on its app's messages
    yield context
    context.close()


DESKTOP = {"viewport": {"width": 1400, "height": 900}}


@pytest.fixture(scope="session")
def desktop_context(playwright_driver, tmp_path_factory):
    yield from _persistent_context(playwright_driver, tmp_path_factory, "chromium-desktop", **DESKTOP)


@pytest.fixture(scope="session")
def phone_context(playwright_driver, tmp_path_factory):
    yield from _persistent_context(playwright_driver, tmp_path_factory, "chromium-phone", **PHONE)


class TabPool:
    """Users' tabs that the tests borrow and give back, each in a window of its own, as users reuse browser tabs.

    Why reuse: a tab that has loaded the app before loads it again for about half the CPU of a new tab (Playground:
    1.1-1.6 against 3.0 CPU-s; a new renderer process fetches, compiles and warms up the app's scripts again), and
    the browser tests are limited by CPU. Why a window each: Chromium draws the app in only one tab of a window at
    full speed (the others got 2 animation frames a second, and redraws wait for them), so users on screen at the
    same time (a teacher and their students) need windows of their own. New windows are opened from a blank page
    the pool keeps (``window.open`` with ``popup``, no opener), as Playwright has no call for a new window.

    Each tab is a Streamlit session of its own, and the app keeps nothing in cookies, so two tabs are two users.
    Streamlit itself keeps a little in the origin's browser storage (whether the user last opened or closed the
    sidebar; the tabs of a context share it), so a tab given back clears it. A tab given back is reset to what a
    new one is: storage cleared, a blank page (which ends its Streamlit session), the context's viewport, screen
    media, the pointer in the corner and a history of one entry. The tabs of a test that failed
    are closed instead. (A test that listens to a tab's events removes its listener: see the ``dialogs`` fixture in
    test_security_browser.py.)
    """

    def __init__(self, context, viewport: dict) -> None:
        self.context = context
        self.viewport = viewport
        self.idle: list = []
        self.opener = context.pages[0] if context.pages else context.new_page()

    def take(self):
        while self.idle:
            tab = self.idle.pop()
            if not tab.is_closed():
                return tab
        with self.context.expect_page() as opened:
            self.opener.evaluate("() => { window.open('about:blank', '_blank', 'popup,noopener'); }")
        tab = opened.value
        tab.set_viewport_size(self.viewport)
        return tab

    def _forget_history(self, tab) -> None:
        # Chromium keeps at most 50 history entries a tab; a reused tab reaching that cap makes history.length stop
        # growing, and a test of "one entry per action" could not fail there. A new tab's history is one entry.
        session = self.context.new_cdp_session(tab)
        try:
            session.send("Page.resetNavigationHistory")
        finally:
            session.detach()

    def give_back(self, tab, *, reusable: bool) -> None:
        if tab.is_closed():
            return
        if reusable:
            try:
                if tab.url.startswith("http"):  # the app's origin: what Streamlit stored there goes
                    tab.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
                tab.goto("about:blank")
                self._forget_history(tab)
                tab.set_viewport_size(self.viewport)
                tab.emulate_media(media="null")
                tab.mouse.move(0, 0)
                self.idle.append(tab)
                return
            except Exception:  # a tab that cannot be reset is replaced, never handed on half-reset
                pass
        tab.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Remember whether a test's setup or call failed (its tabs are then closed, not reused)."""
    outcome = yield
    if outcome.get_result().failed:
        item.tabs_spoiled = True


@pytest.fixture(scope="session")
def desktop_tabs(desktop_context) -> TabPool:
    return TabPool(desktop_context, DESKTOP["viewport"])


@pytest.fixture(scope="session")
def phone_tabs(phone_context) -> TabPool:
    return TabPool(phone_context, PHONE["viewport"])


@pytest.fixture
def borrow(request):
    """``borrow()``: a desktop user's tab (1400x900) showing a blank page; ``borrow(phone=True)``: a 390x844 touch
    phone user's. Several borrowed tabs are several users at once. They are given back after the test."""
    lent = []

    def take(*, phone: bool = False):
        pool = request.getfixturevalue("phone_tabs" if phone else "desktop_tabs")
        tab = pool.take()
        lent.append((pool, tab))
        return tab

    yield take
    reusable = not getattr(request.node, "tabs_spoiled", False)
    for pool, tab in lent:
        pool.give_back(tab, reusable=reusable)


@pytest.fixture
def page(borrow):
    """A tab at 1400x900 showing a blank page (a test may resize it)."""
    return borrow()


@pytest.fixture
def phone(borrow):
    """A tab on a 390x844 touch phone (an iPhone 12-14 sized viewport) showing a blank page."""
    return borrow(phone=True)
