"""Compare, two rankings, in a real browser: the copied share link opens, in another tab, the same two rankings.

Before the fix the link held only the mode and the settings, and the other tab showed the example's 0.9473 and
0.9124 instead of the rankings being shown.
"""

from __future__ import annotations

import re

import pytest

import ndcg_core
from tests.browser.helpers import drag_row, expect, open_page, rerun, wait_for_app

pytestmark = pytest.mark.browser

GRADES = {"D1": 3, "D2": 2, "D3": 3, "D4": 0, "D5": 1, "D6": 2, "D7": 0, "D8": 1}


def ndcg_cards(tab) -> list[str]:
    """The NDCG card of ranking A, then of ranking B."""
    return tab.locator('[data-testid="stMetric"]').filter(has_text="NDCG").locator(
        '[data-testid="stMetricValue"]').all_inner_texts()


def expect_cards(tab, expected: list[str], timeout: float = 20_000) -> None:
    cards = tab.locator('[data-testid="stMetric"]').filter(has_text="NDCG").locator('[data-testid="stMetricValue"]')
    expect()(cards).to_have_text(expected, timeout=timeout)


def test_the_copied_link_opens_the_same_two_rankings_in_a_fresh_tab(page, borrow, app_url):
    open_page(page, f"{app_url}/compare")
    page.get_by_text(re.compile("Ranking A has the higher DCG")).first.wait_for(timeout=30_000)
    entries = page.evaluate("() => history.length")
    # Each ranked list has its own accessible name (both were "Ranked documents" to a screen reader).
    for side in "AB":
        expect()(page.get_by_role("list", name=f"Ranking {side}", exact=True)).to_have_count(1)
    with rerun(page):
        page.get_by_role("button", name="Swap A ↔ B").click()
    # A is now the example's B (D3, D4, D1, ...): D3 dragged from the top to rank 3.
    order_a = ["D4", "D1", "D3", "D6", "D2", "D8", "D5", "D7"]
    order_b = ["D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8"]
    drag_row(page, 0, 2)
    ideal = sorted(GRADES.values(), reverse=True)
    expected = [f"{ndcg_core.evaluate([GRADES[d] for d in order], ideal_relevances=ideal).ndcg:.4f}"
                for order in (order_a, order_b)]
    expect_cards(page, expected)
    box = page.get_by_role("textbox", name="Share link of these rankings")
    expect()(box).to_have_value(re.compile("order_a=3,0,2,5,1,7,4,6"), timeout=15_000)  # it follows the drag
    wait_for_app(page)
    assert page.evaluate("() => history.length") == entries  # the changes replaced the page's entry: Back leaves
    link = box.input_value()
    assert link.startswith(f"{app_url}/compare?") and "compare=lists" in link
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=app_url)
    page.get_by_role("button", name="Copy link").click()
    expect()(page.get_by_role("status").filter(has_text="Copied")).to_have_count(1, timeout=5_000)
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied == link

    other = borrow()  # someone else opens the copied link: a fresh page and session
    open_page(other, copied)
    other.get_by_text("Which positions make the difference").first.wait_for(timeout=30_000)
    expect_cards(other, expected)
    assert ndcg_cards(other) == ndcg_cards(page) == expected
    names = other.locator(".rl-row .rl-name").all_inner_texts()
    assert names == order_a + order_b  # ranking A's list, then ranking B's
    assert not other.locator('[data-testid="stAlertContentWarning"]').count()
