"""The Playground's score mode in a real browser: turn it on, type scores in the table, see the ranked list follow
the scores and the tie band appear (values from ndcg_core, the worked case of tests/test_score_mode.py)."""

from __future__ import annotations

import pytest

import ndcg_core
from tests.browser.helpers import edit_last_cell_until, expect, expect_ndcg, open_playground, screenshot, wait_for_app

pytestmark = pytest.mark.browser

G = [3, 1, 2, 0, 2]  # D1..D5


def score_editor(tab):
    """The ranking editor: the first table in the column headed "Grades" (the band's tables come earlier)."""
    column = tab.locator('[data-testid="stColumn"]').filter(has=tab.get_by_role("heading", name="Grades"))
    return column.locator('[data-testid="stDataFrame"]').first


def edit_score_until(tab, row: int, text: str, current: float, done) -> None:
    """Edit the Score (the last column) of ``row``, which holds ``current``, and wait for ``done``."""
    edit_last_cell_until(tab, score_editor(tab), row, text, current, done, failure_shot="score_mode_edit_not_applied")


def score_ndcg(scores: list[float], ties: str = "average") -> str:
    return f"{ndcg_core.evaluate_scores(G, scores, ties=ties).ndcg:.4f}"


def test_type_scores_see_the_order_and_the_tie_band(page, app_url):
    open_playground(page, app_url)
    expect_ndcg(page, ndcg_core.evaluate(G).ndcg)
    page.locator('[data-testid="stCheckbox"]').filter(has_text="Rank by scores").locator("label").click()
    wait_for_app(page)
    score_editor(page).locator("canvas").first.wait_for(timeout=30_000)
    expect()(page.get_by_text("no two scores tie", exact=False)).to_be_visible(timeout=15_000)
    names = page.locator(".rl-row .rl-name")
    expect()(names).to_have_text(["D1", "D2", "D3", "D4", "D5"], timeout=15_000)  # position scores keep the order

    # Type D1 = 1, D2 = 3, D4 = 0, D5 = 2 (D3 keeps 3): each step's NDCG differs, so each wait is for that edit.
    steps = [(0, "1", [1, 4, 3, 2, 1]), (1, "3", [1, 3, 3, 2, 1]), (3, "0", [1, 3, 3, 0, 1]), (4, "2", [1, 3, 3, 0, 2])]
    shown = [score_ndcg([5, 4, 3, 2, 1])]
    card = page.locator('[data-testid="stMetric"]').filter(has_text="NDCG").first.locator(
        '[data-testid="stMetricValue"]')
    before = [5, 4, 3, 2, 1]
    for row, text, scores in steps:
        expected = score_ndcg(scores)
        assert expected not in shown  # a wait that could not tell this edit from the previous one would be blind
        shown.append(expected)
        edit_score_until(page, row, text, before[row],
                         lambda timeout, value=expected: expect()(card).to_have_text(value, timeout=timeout))
        before = scores
    wait_for_app(page)
    expect()(names).to_have_text(["D2", "D3", "D5", "D1", "D4"], timeout=15_000)  # the order of scores 3, 3, 2, 1, 0
    final = [1, 3, 3, 0, 2]
    worst, best = score_ndcg(final, "pessimistic"), score_ndcg(final, "optimistic")
    band = page.locator('[data-testid="stMarkdown"]').filter(has_text="Tie band with the sidebar's settings").first
    expect()(band).to_contain_text(f"Worst order {worst}", timeout=15_000)
    expect()(band).to_contain_text(f"expected (average over the orders) {score_ndcg(final)}")
    expect()(band).to_contain_text(f"best order {best}")
    expect()(page.locator('[data-testid="stPlotlyChart"]').filter(has_text="NDCG").first).to_be_visible()
    assert "sc=1%2C3%2C3%2C0%2C2" in page.url.replace(",", "%2C") or "sc=3%2C3%2C2%2C1%2C0" in page.url.replace(",", "%2C")
    band.scroll_into_view_if_needed()
    screenshot(page, "score_mode_band", full_page=True)
    score_editor(page).scroll_into_view_if_needed()
    screenshot(page, "score_mode_list_and_scores", full_page=True)


TIE_BAND_CHART_JS = """() => [...document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot')]
  .filter((plot) => plot._fullLayout && plot._fullLayout.xaxis.title.text === 'NDCG')
  .map((plot) => {
    const frame = plot.querySelector('.main-svg').getBoundingClientRect();
    const area = plot.querySelector('.nsewdrag').getBoundingClientRect();
    const words = [...plot.querySelectorAll('.ytick text, .annotation-text')].filter((t) => t.textContent);
    return {plotShare: area.width / frame.width,
            cut: words.filter((t) => { const box = t.getBoundingClientRect();
                                       return box.left < frame.left - 1 || box.right > frame.right + 1; })
                      .map((t) => t.textContent),
            labels: words.map((t) => t.textContent).join(' ')};
  })"""


def test_the_tie_band_chart_names_each_row_in_full_and_has_room_for_its_bars_on_a_phone(phone, app_url):
    """The band's rows were named by tick labels beside the bars, up to 100 characters: on a 390 px phone they ran off
    the chart's left edge ("list (every judged document is ranked)", the gain cut off) and left the bars ~60 px."""
    open_playground(phone, app_url, "?gain=linear&k=3&docs=D1:3,D2:1,D3:2,D4:0,D5:2&sc=1,3,3,3,2&tie=average")
    phone.get_by_role("heading", name="The tie band").scroll_into_view_if_needed()
    phone.wait_for_function(f"() => ({TIE_BAND_CHART_JS})().length === 1")
    [chart] = phone.evaluate(TIE_BAND_CHART_JS)
    assert chart["cut"] == [], chart
    assert chart["plotShare"] > 0.8, chart
    for gain in ("gain = grade", "gain = 2^grade − 1"):
        assert gain in chart["labels"]
    screenshot(phone, "phone_tie_band", full_page=False)
