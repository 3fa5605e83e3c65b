"""Helpers shared by the browser tests: waiting for the app, reading cards and the ranked list, moving rows.

Every wait here waits for a state (the script finished, a text appeared, the list settled), never for a
fixed time; the only pauses are the 100 ms between a user's actions (``USER_PAUSE_MS``).
"""

from __future__ import annotations

import contextlib
import weakref
from pathlib import Path

import ndcg_core

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "screenshots"
USER_PAUSE_MS = 100  # a fast user: one action every 100 ms
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 3}


def expect():
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect


def wait_for_app(tab, timeout: float = 30_000) -> None:
    """Wait until Streamlit has finished running the script (stApp reports it, no 'running' widget) and has drawn
    what it sent: element types whose code loads on first use (charts, code blocks, ...) show a skeleton until then,
    up to 1.5 s after the script finished on a first page load."""
    tab.wait_for_function(
        """() => {
          const app = document.querySelector('[data-testid="stApp"]');
          return app && app.dataset.testScriptState === 'notRunning'
            && !document.querySelector('[data-testid="stStatusWidget"]')
            && !!document.querySelector('[data-testid="stMain"] [data-testid="stElementContainer"]')
            && !document.querySelector('[data-testid="stMain"] [data-testid="stSkeleton"]');
        }""",
        timeout=timeout,
    )


_APP_SOCKETS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # tab -> the websocket of the app it shows


def watch_app_socket(tab) -> None:
    """Remember the Streamlit websocket each page load of ``tab`` opens, for ``rerun`` (tests/browser/conftest.py
    calls this for every tab of its browsers)."""
    def opened(socket) -> None:
        if socket.url.endswith("/_stcore/stream"):
            _APP_SOCKETS[tab] = socket

    tab.on("websocket", opened)


def _script_finished(payload) -> bool:
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    if isinstance(payload, str):
        return False
    message = ForwardMsg()
    message.ParseFromString(payload)
    return message.WhichOneof("type") == "script_finished"


@contextlib.contextmanager
def rerun(tab, timeout: float = 30_000):
    """Around an action that makes the app rerun (a click, an upload, a typed value): after the block, wait for the
    server's "script finished" message of that rerun, then for the page to draw it. ``wait_for_app`` alone can
    return before the rerun has begun, and the page's own "running" mark can be skipped altogether when a run is
    quick, so a check made then would read the page as it was before the action."""
    socket = _APP_SOCKETS.get(tab)
    assert socket is not None and not socket.is_closed(), "the tab shows no app (open a page of the app first)"
    with socket.expect_event("framereceived", predicate=_script_finished, timeout=timeout):
        yield
    wait_for_app(tab, timeout)


def open_page(tab, url: str) -> None:
    """Go to ``url`` and wait for its script to finish (deep links work on a fresh server too)."""
    tab.goto(url)
    wait_for_app(tab)


# A page's link in the app's own sidebar navigation, by the page's URL path (null until it is drawn).
NAV_LINK_JS = """(path) => [...document.querySelectorAll('.st-key-app_nav a')]
  .find((a) => new URL(a.href).pathname.split('/').pop() === path) || null"""


def go_to_page(tab, path: str, timeout: float = 30_000) -> None:
    """Open another page through its sidebar link, as a user does (the app stays loaded: no new page load, which
    costs Chromium ~3x the CPU), and wait until the new page's script has finished and drawn. ``path`` is the
    page's URL path without the slash ("" for the Playground)."""
    title = tab.locator('[data-testid="stMain"] h1').first.inner_text(timeout=timeout)
    opener = tab.locator('[data-testid="stExpandSidebarButton"]')
    if opener.count() and opener.first.is_visible():  # a closed sidebar (Live class): opened first, as by a user
        opener.first.click()
        tab.locator(".st-key-app_nav").first.wait_for(state="visible", timeout=timeout)
    tab.wait_for_function(NAV_LINK_JS, arg=path, timeout=timeout).as_element().click(timeout=timeout)
    tab.wait_for_function(
        """([path, title]) => location.pathname.split('/').pop() === path
             && [...document.querySelectorAll('[data-testid="stMain"] h1')].some((h) => h.innerText !== title)""",
        arg=[path, title], timeout=timeout,
    )
    wait_for_app(tab, timeout)


def wait_for_charts(tab, timeout: float = 30_000) -> None:
    """Wait until every plotly chart on the page has drawn its SVG (they draw after the script finishes)."""
    wait_for_app(tab, timeout)
    tab.wait_for_function(
        """() => [...document.querySelectorAll('[data-testid="stPlotlyChart"]')]
          .every((chart) => chart.querySelector('.main-svg'))""",
        timeout=timeout,
    )


def open_playground(tab, app_url: str, query: str = "") -> None:
    open_page(tab, f"{app_url}/{query}")  # the Playground is the default page, served at the root
    tab.wait_for_selector(".rl-row", timeout=30_000)
    # drawn (on a phone the closed sidebar is hidden, so it is waited for in the page, not on screen)
    tab.wait_for_selector("[data-testid='stSidebar'] >> text=Metric settings", state="attached", timeout=30_000)


def next_frame(tab) -> None:
    """Wait until the browser has laid out and painted the current state (two animation frames), e.g. after a resize."""
    tab.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())))")


CELL_EDITOR = "#portal textarea, #portal input, .gdg-growing-entry textarea"  # the data editor's open cell


def type_into_cell(tab, overlay, text: str) -> None:
    """Replace an open data-editor cell's text with ``text`` and check it still holds it two frames later.

    The grid sets the editor's starting value as it opens, which can overwrite keys typed in the same moment:
    the cell was then committed unchanged and nothing reran (about one edit in five on a quiet machine).
    """
    for _ in range(3):
        overlay.fill(text)
        next_frame(tab)
        if overlay.input_value() == text:
            return
    raise AssertionError(f"the cell editor did not keep {text!r}: it holds {overlay.input_value()!r}")


EDITOR_ROW = 35  # data editor row height (px), header included


def stable_box(locator) -> dict:
    """The element's box once it is the same in two successive animation frames (layout finished)."""
    return locator.evaluate(
        """(el) => new Promise((resolve) => {
          let last = null;
          const tick = () => {
            const r = el.getBoundingClientRect();
            const box = { x: r.x, y: r.y, width: r.width, height: r.height };
            if (last && JSON.stringify(last) === JSON.stringify(box)) resolve(box);
            else { last = box; requestAnimationFrame(tick); }
          };
          requestAnimationFrame(tick);
        })"""
    )


GRID_COLUMN_JS = """([grid, header]) => {
  // The column's texts from the grid's accessible copy of its table (null until the copy is there).
  if (!grid.contains(document.activeElement)) return null;
  const rows = [...grid.querySelectorAll('[role=row]')].map((r) => [...r.children].map((c) => c.textContent));
  const column = rows.length > 1 ? rows[0].indexOf(header) : -1;
  return column < 0 ? null : rows.slice(1).map((cells) => cells[column]).filter(Boolean);
}"""


def grid_column(tab, grid, header: str, *, click: tuple[float, float] = (20, EDITOR_ROW * 1.5),
                expected: list[str] | None = None, timeout: float = 15_000) -> list[str]:
    """The texts of column ``header`` in a dataframe or data editor, top to bottom, as the grid shows them.

    The grid draws on a canvas and keeps an accessible copy of its table in the page only while it has the keyboard
    focus: a click on it (at ``click`` = (x, y) px from its top left corner, a negative x from its right edge;
    default: the first row's first cell) moves the focus there a frame or two later. A grid that was off screen
    takes new data when it is scrolled into view, a frame or more later still: with ``expected``, wait until the
    column shows it (and fail with what it shows instead).
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    grid.scroll_into_view_if_needed()
    box = stable_box(grid)
    x, y = click
    tab.mouse.click(box["x"] + (x if x >= 0 else box["width"] + x), box["y"] + y)
    handle = grid.element_handle()
    tab.wait_for_function(GRID_COLUMN_JS, arg=[handle, header], timeout=timeout)
    if expected is not None:
        shows_expected = f"([grid, header, expected]) => JSON.stringify(({GRID_COLUMN_JS})([grid, header])) === JSON.stringify(expected)"
        with contextlib.suppress(PlaywrightTimeout):  # the caller's assertion says what the grid shows instead
            tab.wait_for_function(shows_expected, arg=[handle, header, expected], timeout=timeout)
    return tab.evaluate(GRID_COLUMN_JS, [handle, header])


def edit_last_cell(tab, editor, row: int, text: str, current: float, *, commit: str | None = "Enter") -> None:
    """Double-click the last column's cell of ``row`` (0-based) on a data editor's canvas, type ``text``, Enter
    (``commit=None``: leave the cell open, for the next click elsewhere to commit it, as a user does).

    The cell that opens must hold ``current`` (its number before the edit): where the last column is drawn
    depends on the grid's column widths, so another cell is closed with Escape and the next column to the left
    is tried.
    """
    editor.locator("canvas").first.wait_for(timeout=30_000)
    wait_for_app(tab)
    editor.scroll_into_view_if_needed()  # it may sit below a small screen's fold, or move as the page above grows
    box = stable_box(editor)  # the grid lays itself out after its canvas appears
    overlay = tab.locator(CELL_EDITOR).first
    opened = []
    for inset in (40, 110, 180, 250):
        tab.mouse.dblclick(box["x"] + box["width"] - inset, box["y"] + EDITOR_ROW * (row + 1) + EDITOR_ROW / 2)
        overlay.wait_for(timeout=10_000)
        value = overlay.input_value()
        opened.append(value)
        try:
            is_current = float(value) == current
        except ValueError:
            is_current = False
        if is_current:
            type_into_cell(tab, overlay, text)
            if commit:
                overlay.press(commit)
            return
        overlay.press("Escape")
        overlay.wait_for(state="detached", timeout=10_000)
    raise AssertionError(f"no cell of row {row} held {current:g}: the cell editors opened held {opened}")


def edit_last_cell_until(tab, editor, row: int, text: str, current: float, done, *, failure_shot: str) -> None:
    """:func:`edit_last_cell`, then wait for ``done`` (an expect() call taking a timeout); one retry.

    The typed text is checked in the cell editor before Enter (:func:`type_into_cell`: keys typed as the editor
    opened used to be overwritten by its starting value); the retry is for a double-click that lands while the
    grid is still settling after a rerun. A failure leaves the screenshot ``failure_shot``.
    """
    for attempt in range(2):
        edit_last_cell(tab, editor, row, text, current)
        try:
            done(8_000 if attempt == 0 else 15_000)
            return
        except AssertionError:
            if attempt == 1:
                screenshot(tab, failure_shot)
                raise
            tab.keyboard.press("Escape")


def screenshot(tab, name: str, *, full_page: bool = True) -> Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    tab.screenshot(path=str(path), full_page=full_page)
    return path


def metric(tab, label: str):
    """The value element of the first metric card whose label contains ``label``."""
    return tab.locator('[data-testid="stMetric"]').filter(has_text=label).first.locator('[data-testid="stMetricValue"]')


def card_boxes(tab) -> list[tuple[int, int]]:
    """(x, width) of every metric card, in CSS px."""
    return [(round(box["x"]), round(box["width"])) for box in tab.locator('[data-testid="stMetric"]').evaluate_all(
        "(cards) => cards.map((card) => card.closest('[data-testid=\"stElementContainer\"]').getBoundingClientRect().toJSON())")]


# The shown metric cards whose value is cut short ("14.0…": the value's box, which ends in an ellipsis, is narrower than
# its text): [label, value] of each.
CUT_CARD_VALUES_JS = """() => [...document.querySelectorAll('[data-testid="stMetric"]')].filter((card) => card.checkVisibility())
  .map((card) => [card.querySelector('[data-testid="stMetricLabel"]'), card.querySelector('[data-testid="stMetricValue"] [data-testid="stMarkdownContainer"]')])
  .filter(([, value]) => value && value.scrollWidth > value.clientWidth + 1)
  .map(([label, value]) => [label ? label.innerText.trim() : '', value.textContent])"""


def ndcg_card(tab):
    return metric(tab, "NDCG")


def expect_ndcg(tab, value: float, timeout: float = 15_000) -> None:
    expect()(ndcg_card(tab)).to_have_text(f"{value:.4f}", timeout=timeout)


# --- the ranked list (ui/ranked_list.py) ----------------------------------------------------------------------

# The ranked list's root element, inside the shadow root of its component (a JS expression; null until drawn).
LIST_ROOT_JS = """[...document.querySelectorAll('[data-testid="stBidiComponentIsolated"]')]
    .map((host) => host.shadowRoot && host.shadowRoot.querySelector('.rl-root')).find(Boolean)"""

# Whether the list shows the names in ``names`` (the argument), in order, with no move waiting for the server.
LIST_SETTLED_JS = """(names) => {
  const root = """ + LIST_ROOT_JS + """;
  if (!root || root.dataset.pending !== '0') return false;
  const shown = [...root.querySelectorAll('.rl-row .rl-name')].map((el) => el.textContent);
  return JSON.stringify(shown) === JSON.stringify(names);
}"""

def list_names(tab) -> list[str]:
    return tab.locator(".rl-row .rl-name").all_inner_texts()


def row(tab, name: str):
    """The ranked list's row showing document ``name``."""
    return tab.locator(".rl-row").filter(has=tab.locator(".rl-name").get_by_text(name, exact=True))


def focused_row(tab) -> str | None:
    """The name on the ranked-list row that has the keyboard focus (None if no row has it)."""
    return tab.evaluate(
        """() => {
          const root = """ + LIST_ROOT_JS + """;
          const el = root && root.getRootNode().activeElement;
          return el && el.classList.contains('rl-row') ? el.querySelector('.rl-name').textContent : null;
        }"""
    )


def wait_for_list(tab, names: list[str], *, timeout: float = 15_000) -> None:
    """Wait until the ranked list shows ``names`` with no move waiting for the server (else say what it shows)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        tab.wait_for_function(LIST_SETTLED_JS, arg=names, timeout=timeout)
    except PlaywrightTimeout:
        pending = tab.locator(".rl-root").first.get_attribute("data-pending")
        raise AssertionError(f"the list shows {list_names(tab)} ({pending} moves pending), expected {names}") from None


def wait_until_settled(tab, names: list[str], grades: dict[str, float], *, timeout: float = 15_000, **options) -> None:
    """Wait until the list shows ``names`` with no move waiting for the server, and the NDCG card agrees."""
    wait_for_list(tab, names, timeout=timeout)
    expect_ndcg(tab, ndcg_core.evaluate([grades[name] for name in names], **options).ndcg, timeout=timeout)


def drag_row(tab, source: int, target: int, *, steps: int = 12, step_ms: int = 20) -> None:
    """Mouse drag: press on row ``source`` and release over row ``target`` (0-based positions as shown)."""
    rows = tab.locator(".rl-row")
    start, end = _box(rows.nth(source)), _box(rows.nth(target))
    x = start["x"] + 80
    y0 = start["y"] + start["height"] / 2
    y1 = end["y"] + end["height"] * (0.8 if target > source else 0.2)
    tab.mouse.move(x, y0)
    tab.mouse.down()
    for step in range(1, steps + 1):
        tab.mouse.move(x, y0 + (y1 - y0) * step / steps)
        tab.wait_for_timeout(step_ms)  # the pointer's speed, not a wait for the app
    tab.mouse.up()


def _box(locator) -> dict:
    """The element's box, waiting for it to be attached and visible (a rerun may be redrawing it)."""
    box = locator.bounding_box()
    while box is None:
        locator.wait_for(state="visible", timeout=10_000)
        box = locator.bounding_box()
    return box


def moved(order: list[str], name: str, to: int) -> list[str]:
    """``order`` with ``name`` taken out and put at position ``to`` (what one move does)."""
    rest = [other for other in order if other != name]
    return rest[:to] + [name] + rest[to:]


# --- touch (Chrome DevTools Protocol: real touch input, gestures and scrolling included) -----------------------

def touch_swipe(tab, x: float, y0: float, y1: float, *, hold_ms: int = 0, steps: int = 10, step_ms: int = 16) -> None:
    """A finger down at (x, y0), held ``hold_ms``, moved to (x, y1) in ``steps``, lifted."""
    cdp = tab.context.new_cdp_session(tab)
    point = lambda y: [{"x": x, "y": y, "id": 1, "radiusX": 4, "radiusY": 4, "force": 1}]  # noqa: E731
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": point(y0)})
    if hold_ms:
        tab.wait_for_timeout(hold_ms)  # the finger resting: a long press
    for step in range(1, steps + 1):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": point(y0 + (y1 - y0) * step / steps)})
        tab.wait_for_timeout(step_ms)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


SCROLL_TOP_JS = """() => {
  // Streamlit scrolls its main section, not the window.
  const main = document.querySelector('[data-testid="stMain"]');
  return Math.max(window.scrollY, main ? main.scrollTop : 0);
}"""


def scroll_top(tab) -> float:
    """How far the page is scrolled down (px)."""
    return tab.evaluate(SCROLL_TOP_JS)


def wait_for_scroll(tab, condition: str, arg=None, *, timeout: float = 10_000) -> None:
    """Wait until ``condition`` (a JS expression of ``top`` and ``arg``) holds for the page's scroll position."""
    tab.wait_for_function(f"(arg) => {{ const top = ({SCROLL_TOP_JS})(); return {condition}; }}", arg=arg, timeout=timeout)


# Legend entries whose text runs past the legend's box (plotly placed them by a width measured in another font).
CUT_LEGEND_ENTRIES_JS = """() => [...document.querySelectorAll('[data-testid="stPlotlyChart"] .legend')].flatMap((legend) => {
  const box = legend.querySelector('.bg').getBoundingClientRect();
  return [...legend.querySelectorAll('.legendtext')]
    .filter((text) => text.getBoundingClientRect().right > box.right + 1).map((text) => text.textContent);
})"""


# --- accessibility audit (axe-core, bundled by axe-playwright-python) ---------------------------------------------

AXE_RUN_JS = """async () => {
  // One audit of the whole document; each failing node says whether it is in the app's content (stMain, shadow
  // roots inside it included) or in Streamlit's chrome (sidebar, header, toolbar).
  const inMain = (el) => {
    for (let node = el; node; node = node.parentNode || node.host) {
      if (node.dataset && node.dataset.testid === 'stMain') return true;
    }
    return false;
  };
  const result = await axe.run(document, { resultTypes: ['violations'], elementRef: true });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target, summary: (n.failureSummary || '').slice(0, 160),
                                 main: !!n.element && inMain(n.element) })),
  }));
}"""


def axe_audit(tab) -> dict[str, list[dict]]:
    """axe-core's violations on the page, split into the app's ``content`` (stMain) and Streamlit's ``chrome``:
    [{id, impact, help, nodes: [target, ...]}] each. axe is injected once per page load (a page change inside the
    app keeps it) and run once over the whole document, as a screen reader meets it (heading order across the
    sidebar and the page, for example)."""
    from axe_playwright_python.base import AXE_SCRIPT

    if not tab.evaluate("() => typeof axe !== 'undefined'"):
        tab.evaluate(AXE_SCRIPT)
    found: dict[str, list[dict]] = {"content": [], "chrome": []}
    for violation in tab.evaluate(AXE_RUN_JS):
        for part, in_main in (("content", True), ("chrome", False)):
            nodes = [node for node in violation["nodes"] if node["main"] == in_main]
            if nodes:
                found[part].append({**{key: violation[key] for key in ("id", "impact", "help")},
                                    "nodes": [node["target"] for node in nodes],
                                    "summaries": [node["summary"] for node in nodes]})
    return found


# Share-link boxes (ui/copy_link.py) that hide part of their link: [the box's label, the link] of each.
HIDDEN_LINKS_JS = """() => [...document.querySelectorAll('[data-testid="stBidiComponentIsolated"]')]
  .map((host) => host.shadowRoot && host.shadowRoot.querySelector('.cl-url')).filter(Boolean)
  .filter((box) => box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1)
  .map((box) => [box.getAttribute('aria-label'), box.value])"""
