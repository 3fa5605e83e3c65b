"""Benchmark the Playground: rerun time under AppTest, and edit-to-NDCG latency in headless Chromium.

    python bench/bench_app.py                  # both parts, runner.postScriptGC as configured
    python bench/bench_app.py --apptest        # only the AppTest reruns
    python bench/bench_app.py --browser        # only the browser latency
    python bench/bench_app.py --gc both        # compare runner.postScriptGC true / false

AppTest part: the Playground (app.py + sidebar + page) with 5, 50, 1,000 and 10,000 documents, against a
bare one-line page in the same process; each figure is the median of several reruns after a warm-up run.
"Playground, 50 docs, after a drag" applies a new order (the browser's drag message) before every timed
rerun, so an edit's rerun is measured too, not only a rerun of an unchanged page.
Browser part: `streamlit run app.py` on a loopback port, Playwright drives Debian's Chromium, double-clicks
a grade cell of the data editor, types a new grade, presses Enter and waits (requestAnimationFrame
polling) until the NDCG card shows ndcg_core's value for the edited list. Median and p90 of the runs.
These are measurements, not tests: nothing asserts a time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import ndcg_core  # noqa: E402

SIZES = (5, 50, 1_000, 10_000)
# app.py's fixed cost (page config, navigation, the settings sidebar) around a one-line page
APP_SHELL = """
import streamlit as st
from ui.settings import settings_sidebar
st.set_page_config(layout="wide")
def one_line():
    st.write("hello")
page = st.navigation([st.Page(one_line, title="One line")])
settings_sidebar()
page.run()
"""
ROW = 35


def _median_rerun(at, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - start)
        assert not at.exception, at.exception
    return statistics.median(times)


def _steady_state_pages_mode() -> None:
    """Make AppTest runs look like a running server's reruns.

    AppTest re-enters Streamlit's legacy ``pages/`` mode on every ``run()`` (a server leaves it for good on
    its first run), so each AppTest run of this app would also pay for a short extra run through app.py
    (see ui.page_shell) plus a fresh bytecode compile. The bench measures the server's steady state.
    """
    from streamlit.runtime.pages_manager import PagesManager

    original = PagesManager.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    PagesManager.__init__ = init


def bench_apptest(repeats: int = 9, post_script_gc: bool | None = None) -> dict[str, float]:
    from streamlit import config
    from streamlit.testing.v1 import AppTest

    from ui import state

    _steady_state_pages_mode()

    if post_script_gc is not None:
        config.set_option("runner.postScriptGC", post_script_gc)
    results: dict[str, float] = {}
    bare = AppTest.from_string("import streamlit as st\nst.write('hello')", default_timeout=60)
    bare.run()
    results["bare one-line page"] = _median_rerun(bare, repeats * 2)
    shell = AppTest.from_string(APP_SHELL, default_timeout=60)
    shell.run()
    results["app shell + one-line page"] = _median_rerun(shell, repeats * 2)
    for size in SIZES:
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
        at.session_state[state.RANKING_KEY] = state.PlaygroundState.of(state.Ranking(
            tuple(f"doc{i}" for i in range(size)), tuple(float((7 * i) % 5) for i in range(size))
        ))
        at.run()
        assert not at.exception, at.exception
        results[f"Playground, {size:,} documents"] = _median_rerun(at, repeats if size <= 1_000 else 3)
        if size == 50:
            results["Playground, 50 docs, after a drag"] = _median_reorder(at, repeats)
    return results


def _median_reorder(at, repeats: int) -> float:
    """Reruns that each apply a new order, sent as the browser's drag message (the top document to the bottom).

    The drag takes the app's real reorder path: ui.ranked_list.pending_order, state.set_ranking, new editor
    keys, a new ListResult; nothing about the previous run can be reused.
    """
    from ui import state
    from ui.ranked_list import moves_to

    key = "playground_list"
    times = []
    for _ in range(repeats):
        before = at.session_state[state.RANKING_KEY].ranking
        n = len(before.names)  # 50: the list shows every row (it draws up to ui.ranked_list.VISIBLE_LIMIT)
        at.session_state[key] = moves_to(at.session_state, key, [*range(1, n), 0])
        start = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - start)
        assert not at.exception, at.exception
        assert at.session_state[state.RANKING_KEY].ranking.names[0] == before.names[1], "the drag was not applied"
    return statistics.median(times)


def bench_browser(runs: int = 15, extra_args: tuple[str, ...] = ()) -> list[float]:
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, free_port, start_app, stop_app, wait_for_app

    port = free_port()
    process = start_app(port, extra_args=extra_args)
    latencies: list[float] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            tab = browser.new_page(viewport={"width": 1400, "height": 1000})
            tab.goto(f"http://127.0.0.1:{port}/")
            wait_for_app(tab)
            tab.wait_for_selector(".rl-row", timeout=60_000)
            grades = [3, 1, 2, 0, 2]
            retries = 0
            for run in range(runs + 2):  # the first two are warm-up (lazy chunks, first reruns)
                new_grade = (grades[1] + 1) % 5
                grades[1] = new_grade
                expected = f"{ndcg_core.evaluate(grades).ndcg:.4f}"
                for attempt in range(3):
                    start = _edit_d2(tab, new_grade)
                    try:
                        _wait_for_ndcg(tab, expected, timeout=10_000)
                        break
                    except Exception:
                        # the synthetic double-click missed the cell (grid still settling): not a latency
                        retries += 1
                        if attempt == 2:
                            tab.screenshot(path=str(ROOT / "screenshots" / "bench_timeout.png"))
                            raise
                elapsed = time.perf_counter() - start
                if run >= 2:
                    latencies.append(elapsed)
                wait_for_app(tab)
                tab.keyboard.press("Escape")
                tab.wait_for_timeout(300)
            if retries:
                print(f"({retries} edit(s) had to be retyped: the double-click missed the cell)")
            browser.close()
    finally:
        stop_app(process)
    return latencies


def _edit_d2(tab, new_grade: int) -> float:
    """Double-click D2's grade cell, type the grade, press Enter; return the time of the Enter press."""
    editor = tab.locator('[data-testid="stDataFrame"]').first
    editor.locator("canvas").first.wait_for(timeout=30_000)
    box = editor.bounding_box()
    tab.mouse.dblclick(box["x"] + box["width"] - 40, box["y"] + ROW * 2 + ROW / 2)
    overlay = tab.locator("#portal textarea, #portal input").first
    overlay.wait_for(timeout=10_000)
    overlay.press("ControlOrMeta+a")
    overlay.type(str(new_grade))
    start = time.perf_counter()
    overlay.press("Enter")
    return start


def _wait_for_ndcg(tab, expected: str, timeout: float = 20_000) -> None:
    tab.wait_for_function(
        """expected => [...document.querySelectorAll('[data-testid="stMetric"]')]
            .some(m => m.textContent.includes('NDCG') && !m.textContent.includes('IDCG')
                  && m.querySelector('[data-testid="stMetricValue"]').textContent.trim() === expected)""",
        arg=expected, polling="raf", timeout=timeout,
    )


def _report_apptest(results: dict[str, float], label: str) -> None:
    bare = results["bare one-line page"]
    print(f"\nAppTest rerun, median ({label}):")
    for name, seconds in results.items():
        print(f"  {name:34s} {seconds * 1000:8.1f} ms   {seconds / bare:5.1f}x bare")


def _report_browser(latencies: list[float], label: str) -> None:
    ordered = sorted(latencies)
    p90 = ordered[min(len(ordered) - 1, int(round(0.9 * (len(ordered) - 1))))]
    print(
        f"\nBrowser edit -> NDCG ({label}), {len(latencies)} edits: median {statistics.median(latencies) * 1000:.0f} ms, "
        f"p90 {p90 * 1000:.0f} ms, min {ordered[0] * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--apptest", action="store_true", help="only the AppTest reruns")
    parser.add_argument("--browser", action="store_true", help="only the browser latency")
    parser.add_argument("--gc", choices=["config", "both"], default="config",
                        help="'both' measures with runner.postScriptGC = true and = false")
    parser.add_argument("--runs", type=int, default=15, help="browser edits to time")
    args = parser.parse_args()
    both = not args.apptest and not args.browser
    settings = [None] if args.gc == "config" else [True, False]
    for gc_setting in settings:
        label = "postScriptGC from config.toml" if gc_setting is None else f"postScriptGC = {str(gc_setting).lower()}"
        if args.apptest or both:
            _report_apptest(bench_apptest(post_script_gc=gc_setting), label)
        if args.browser or both:
            extra = () if gc_setting is None else ("--runner.postScriptGC", str(gc_setting).lower())
            _report_browser(bench_browser(args.runs, extra), label)


if __name__ == "__main__":
    main()
