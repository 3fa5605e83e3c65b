"""Compare, two runs, in a real browser: the share link opens, in a fresh tab, the same comparison.

Before the fix the link held only ``compare=runs``: the other tab showed BM25 vs Neural with seed 0 and a 95%
interval, whatever the sender had picked.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import ndcg_core
from tests.browser.helpers import expect, open_page, rerun, wait_for_app
from ui.formatting import fixed, signed

pytestmark = pytest.mark.browser

DATA = Path(__file__).resolve().parents[2] / "data"
CARDS = ["Mean NDCG: A", "Mean NDCG: B", "B better", "Tied", "A better"]


def card_values(tab) -> list[str]:
    return [tab.locator('[data-testid="stMetric"]').filter(has_text=label).locator(
        '[data-testid="stMetricValue"]').first.inner_text() for label in CARDS]


def verdict(tab) -> str:
    return tab.get_by_text(re.compile(" is better on ")).first.inner_text()


def test_the_runs_link_opens_the_same_comparison_in_a_fresh_tab(page, borrow, app_url):
    open_page(page, f"{app_url}/compare?compare=runs")
    page.get_by_text(re.compile(" is better on ")).first.wait_for(timeout=30_000)
    seed = page.get_by_role("spinbutton", name="Seed")
    with rerun(page):
        seed.fill("424242")
        seed.press("Enter")
    with rerun(page):
        page.get_by_role("spinbutton", name="Resamples").fill("3000")
        page.get_by_role("spinbutton", name="Resamples").press("Enter")
    page.locator(".st-key-compare_confidence").click()
    with rerun(page):
        page.get_by_role("option", name="90%").click()
    # ndcg_core's figures for that comparison, computed here from the sample's files.
    qrels = ndcg_core.read_qrels(DATA / "sample.qrels")
    bm25, neural = (ndcg_core.evaluate_run(ndcg_core.read_run(DATA / name), qrels).per_query["ndcg"]
                    for name in ("run_bm25.txt", "run_neural.txt"))
    expected = ndcg_core.compare_runs(bm25, neural, n_boot=3000, seed=424242, confidence=0.9)
    cards = [fixed(expected.mean_a), fixed(expected.mean_b), str(expected.wins), str(expected.ties),
             str(expected.losses)]
    interval = f"90% CI {signed(expected.ci_low)} to {signed(expected.ci_high)}"
    expect()(page.get_by_text(re.compile(re.escape(interval))).first).to_be_visible(timeout=15_000)
    assert card_values(page) == cards
    box = page.get_by_role("textbox", name="Share link of this comparison")
    expect()(box).to_have_value(re.compile("boot_seed=424242"), timeout=15_000)
    wait_for_app(page)
    link = box.input_value()
    assert link.startswith(f"{app_url}/compare?") and "resamples=3000" in link and "confidence=0.9&" in link

    other = borrow()  # someone else opens the link: a fresh page and session
    open_page(other, link)
    other.get_by_text(re.compile(" is better on ")).first.wait_for(timeout=30_000)
    assert card_values(other) == cards
    assert interval in verdict(other) and verdict(other) == verdict(page)
    assert signed(expected.mean_difference) in other.locator('[data-testid="stMetric"]').filter(
        has_text="Mean NDCG: B").inner_text()
    assert other.get_by_role("spinbutton", name="Seed").input_value() == "424242"
    assert not other.locator('[data-testid="stAlertContentWarning"]').count()
