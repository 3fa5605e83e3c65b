"""Drag → NDCG card latency in Chromium at 1440×900 (issue 12's goal: median < 250 ms).

Starts the app (``streamlit run app.py``, loopback, a free port, its own process group), opens the
Playground in Debian's Chromium (headless) at 1440×900 and drags rows of the ranked list with the mouse,
at a calm pace (one drag after the previous one has settled). Each drag is timed *in the page*: from the
``pointerup`` that ends the drag to the moment a MutationObserver sees the NDCG card show
``ndcg_core.evaluate`` of the new order (so Playwright's own round trips are not counted). Only drags that
change NDCG are made; the first ``--warmup`` drags (lazy chunks, first reruns) are not counted.

    python bench/bench_drag.py                 # 30 timed drags
    python bench/bench_drag.py --drags 50 --root /path/to/another/checkout   # the same, another tree

Prints median, p90, min and max in ms. ``--root`` runs another checkout's app with this script (to put
figures side by side); its ranked list must be drawn as ``.rl-row`` rows with ``.rl-name`` names.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import ndcg_core  # noqa: E402
from tests.browser import conftest as browser_conftest  # noqa: E402
from tests.browser.helpers import drag_row, list_names, moved, wait_for_app  # noqa: E402

GRADES = {"D1": 3.0, "D2": 1.0, "D3": 2.0, "D4": 0.0, "D5": 2.0}  # the Playground's default list

INSTALL = """(expected) => {
  // Time from the drag's pointerup to the NDCG card showing `expected`, seen by a MutationObserver.
  window.__drag = { start: null, done: null, expected };
  if (!window.__dragTimer) {
    window.__dragTimer = true;
    window.addEventListener('pointerup', () => { if (window.__drag.start === null) window.__drag.start = performance.now(); }, true);
    const card = () => [...document.querySelectorAll('[data-testid="stMetric"]')]
      .find((m) => /NDCG/.test(m.textContent) && !/IDCG/.test(m.textContent));
    const check = () => {
      const d = window.__drag;
      if (d.start === null || d.done !== null) return;
      const value = card() && card().querySelector('[data-testid="stMetricValue"]');
      if (value && value.textContent.trim() === d.expected) d.done = performance.now();
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true });
  }
}"""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def bench(drags: int, warmup: int, root: Path) -> list[float]:
    from playwright.sync_api import sync_playwright

    browser_conftest.ROOT = root  # start_app runs `streamlit run app.py` in this checkout
    port = browser_conftest.free_port()
    process = browser_conftest.start_app(port)
    rng = random.Random(7)
    latencies: list[float] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=browser_conftest.CHROMIUM, args=browser_conftest.CHROMIUM_ARGS)
            tab = browser.new_page(viewport={"width": 1440, "height": 900})
            tab.goto(f"http://127.0.0.1:{port}/")
            wait_for_app(tab)
            tab.wait_for_selector(".rl-row", timeout=60_000)
            order = list_names(tab)
            now = ndcg_core.evaluate([GRADES[name] for name in order]).ndcg
            for run in range(drags + warmup):
                while True:  # a drag that changes the card
                    source, target = rng.sample(range(len(order)), 2)
                    candidate = moved(order, order[source], target)
                    after = ndcg_core.evaluate([GRADES[name] for name in candidate]).ndcg
                    if f"{after:.4f}" != f"{now:.4f}":
                        break
                tab.evaluate(INSTALL, f"{after:.4f}")
                drag_row(tab, source, target)
                tab.wait_for_function("() => window.__drag.done !== null", timeout=20_000)
                elapsed = tab.evaluate("() => window.__drag.done - window.__drag.start")
                if run >= warmup:
                    latencies.append(elapsed)
                wait_for_app(tab)  # calm pace: the next drag starts once this one has settled
                assert list_names(tab) == candidate, f"drag {run}: {list_names(tab)} != {candidate}"
                order, now = candidate, after
            browser.close()
    finally:
        browser_conftest.stop_app(process)
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--drags", type=int, default=30, help="timed drags (default 30)")
    parser.add_argument("--warmup", type=int, default=3, help="drags before timing starts (default 3)")
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout whose app.py is served (default: this one)")
    args = parser.parse_args()
    latencies = bench(args.drags, args.warmup, args.root.resolve())
    print(
        f"Drag -> NDCG card, Chromium 1440x900, {len(latencies)} drags ({args.root.resolve()}): "
        f"median {statistics.median(latencies):.0f} ms, p90 {percentile(latencies, 0.9):.0f} ms, "
        f"min {min(latencies):.0f} ms, max {max(latencies):.0f} ms"
    )


if __name__ == "__main__":
    main()
