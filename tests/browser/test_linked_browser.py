"""Linked highlighting and Predict first in a real browser (issue 15, items 3 and 4).

A click on a bar of the contribution chart (plotly's selection event) highlights the same rank in the ranked
list, the formula and the per-position table; a click on a list row outlines its bar; in Predict first mode a
move hides the new NDCG until the guess is revealed. Every wait waits for a state, never for a time.
"""

from __future__ import annotations

import io

import pytest

import ndcg_core
from tests.browser.helpers import (
    expect,
    expect_ndcg,
    focused_row,
    ndcg_card,
    open_playground,
    rerun,
    row,
    screenshot,
    wait_for_charts,
)
from ui.chart_style import position_colour

pytestmark = pytest.mark.browser


def _rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def _your_bars(tab):
    """The SVG paths of the "Your ranking" bars (the chart's first bar trace), rank 1 first."""
    return tab.locator('[data-testid="stPlotlyChart"]').first.locator("g.trace.bars").first.locator("path")


def _bar_stroke_widths(tab) -> list[str]:
    return _your_bars(tab).evaluate_all("(paths) => paths.map((path) => path.style.strokeWidth)")


def _highlighted_rows(tab) -> list[str]:
    return tab.locator(".rl-row.linked .rl-name").all_inner_texts()


def _wait_for_shaded_rows(tab, count: int, timeout_s: float = 20.0) -> list[tuple[int, tuple[int, int, int]]]:
    """The table's tinted rows once ``count`` of them are drawn (the grid repaints after the rerun), else as found."""
    import time

    deadline = time.monotonic() + timeout_s
    rows = _shaded_table_rows(tab)
    while len(rows) != count and time.monotonic() < deadline:  # each pass is a fresh screenshot: a state poll
        rows = _shaded_table_rows(tab)
    return rows


def _shaded_table_rows(tab) -> list[tuple[int, tuple[int, int, int]]]:
    """(row index, colour) of the per-position table's tinted rows, read from its pixels (the grid is a canvas)."""
    from PIL import Image

    table = tab.locator('[data-testid="stDataFrame"]').last
    table.scroll_into_view_if_needed()
    image = Image.open(io.BytesIO(table.screenshot())).convert("RGB")
    height = image.height
    header, row_height = 35, 35  # Streamlit's grid: one header row and rows of 35 px
    rows = []
    for index in range((height - header) // row_height):
        pixel = image.getpixel((6, header + index * row_height + row_height // 2))
        if min(pixel) < 245:  # not white: shaded
            rows.append((index, pixel))
    return rows


def test_clicking_a_bar_highlights_that_rank_in_the_list_formula_and_table(page, app_url):
    open_playground(page, app_url)
    wait_for_charts(page)
    assert _highlighted_rows(page) == []
    # The list's rank numbers carry their position's colour, as the bars do.
    rank_colour = page.locator(".rl-row").nth(2).locator(".rl-rank-text").evaluate("(el) => getComputedStyle(el).color")
    assert rank_colour == "rgb({}, {}, {})".format(*_rgb(position_colour(3)))
    bar_fill = _your_bars(page).nth(2).evaluate("(el) => el.style.fill")
    assert bar_fill == "rgb({}, {}, {})".format(*_rgb(position_colour(3)))

    _your_bars(page).nth(2).click(force=True)  # rank 3: D3, contribution 3 / log₂4 = 1.5
    page.get_by_text("Highlighted: rank 3").wait_for(timeout=20_000)
    wait_for_charts(page)
    expect()(page.locator(".rl-row.linked .rl-name")).to_have_text("D3")
    assert page.locator(".rl-row.linked").get_attribute("aria-current") == "true"
    expect()(_your_bars(page).nth(2)).to_have_css("stroke-width", "3px")
    assert _bar_stroke_widths(page) == ["0px", "0px", "3px", "0px", "0px"]

    boxes = page.locator(".katex .boxpad")  # KaTeX's \boxed: its content sits in a .boxpad
    expect()(boxes).to_have_count(2)  # rank 3's term in DCG and in IDCG
    term_colour = boxes.first.locator("[style*='color']").first.evaluate("(el) => el.style.color")
    assert term_colour == "rgb({}, {}, {})".format(*_rgb(position_colour(3)))

    shaded = _wait_for_shaded_rows(page, 1)
    assert [index for index, _ in shaded] == [2]  # the third row, rank 3
    expected = tuple(round(255 - (255 - c) * 0.2) for c in _rgb(position_colour(3)))  # the colour at 20 % on white
    assert all(abs(a - b) <= 6 for a, b in zip(shaded[0][1], expected, strict=True)), (shaded, expected)
    screenshot(page, "linked_bar_click_table")
    page.get_by_text("The formula, with these numbers").scroll_into_view_if_needed()
    screenshot(page, "linked_bar_click_formula", full_page=False)


def test_clicking_a_row_outlines_its_bar_and_clicking_again_clears(page, app_url):
    open_playground(page, app_url)
    wait_for_charts(page)
    row(page, "D5").locator(".rl-name").click()  # rank 5
    page.get_by_text("Highlighted: rank 5").wait_for(timeout=20_000)
    wait_for_charts(page)
    expect()(_your_bars(page).nth(4)).to_have_css("stroke-width", "3px")
    assert _bar_stroke_widths(page) == ["0px", "0px", "0px", "0px", "3px"]
    expect()(page.locator(".rl-row.linked .rl-name")).to_have_text("D5")
    page.locator('[data-testid="stPlotlyChart"]').first.scroll_into_view_if_needed()
    screenshot(page, "linked_row_click_chart", full_page=False)

    row(page, "D5").focus()
    page.keyboard.press("Enter")  # the keyboard does what the click does: the highlight goes
    page.get_by_text("Click a bar or a row of the ranked list").wait_for(timeout=20_000)
    wait_for_charts(page)
    assert _highlighted_rows(page) == []
    expect()(_your_bars(page).nth(4)).to_have_css("stroke-width", "0px")
    assert "3px" not in _bar_stroke_widths(page)  # no bar outlined any more


def test_predict_first_hides_the_new_ndcg_until_the_guess_is_revealed(page, app_url):
    open_playground(page, app_url)
    wait_for_charts(page)
    charts = page.locator('[data-testid="stPlotlyChart"]').count()
    with rerun(page):  # checked after the toggle's whole rerun: the same cards and charts stay
        page.get_by_text("Predict first", exact=True).click()
    wait_for_charts(page)
    expect()(page.locator('[data-testid="stMetric"]')).to_have_count(4)  # switching the mode on hides nothing
    expect_ndcg(page, 0.9508)
    drawn = page.locator('[data-testid="stPlotlyChart"]').filter(has=page.locator(".main-svg"))
    assert charts > 0 and drawn.count() == charts
    row(page, "D3").focus()
    with rerun(page):
        page.keyboard.press("Alt+ArrowUp")  # D3 from rank 3 to rank 2: [3, 2, 1, 0, 2]
    guess = page.get_by_label("Your guess of the new NDCG")
    guess.wait_for(timeout=20_000)
    # The guess form took the cards' place, and the list kept the keyboard on the moved row (it was drawn anew and
    # the focus fell to the page, so a second Alt+↑ did nothing).
    assert focused_row(page) == "D3"
    expect()(page.locator('[data-testid="stMetric"]')).to_have_count(0)  # no card, no new NDCG
    expect()(page.locator('[data-testid="stPlotlyChart"]')).to_have_count(0)
    expect()(page.get_by_text("D3 moved from rank 3 to rank 2. NDCG was 0.9508: what is it now?")).to_be_visible()
    assert page.locator(".rl-row .rl-contrib").all_inner_texts() == ["…"] * 5  # the list's contributions too
    screenshot(page, "predict_hidden", full_page=False)

    truth = ndcg_core.evaluate([3, 2, 1, 0, 2]).ndcg  # 0.9750
    guess.fill("0.96")
    page.get_by_role("button", name="Reveal").click()
    expect_ndcg(page, truth)
    verdict = page.locator(".st-key-playground_feedback")
    expect()(verdict).to_contain_text("Spot on!")
    expect()(verdict).to_contain_text(f"NDCG is now {truth:.4f} (was 0.9508); you guessed 0.960: off by 0.0150.")
    expect()(ndcg_card(page)).to_have_text(f"{truth:.4f}")
    # The Reveal button went with its form: its focus is on the verdict, not back on the page (whose next Tab
    # started again at the top, past the sidebar).
    page.wait_for_function("() => !!document.activeElement.closest('.st-key-playground_feedback')", timeout=10_000)
    screenshot(page, "predict_revealed", full_page=False)


def test_step_by_step_predict_first_then_a_bar_click_walks_there(page, app_url):
    from tests.browser.helpers import open_page

    open_page(page, f"{app_url}/step_by_step")
    with rerun(page):
        page.get_by_text("Predict first", exact=True).click()
    guess = page.get_by_label("Your guess of its contribution")
    guess.wait_for(timeout=20_000)
    wait_for_charts(page)  # a chart drawn by mistake would have its bars by now
    walk_charts = page.locator("[class*='st-key-step_contribution_chart'], [class*='st-key-step_cumulative_chart']")
    expect()(walk_charts).to_have_count(0)  # no position's numbers before the guess
    screenshot(page, "step_predict_hidden", full_page=False)
    guess.fill("7")  # rank 1, grade 3: (2³ - 1) / log₂2 = 7
    guess.press("Enter")  # by keyboard: the box and its form go, the focus goes to the verdict
    verdict = page.locator(".st-key-step_feedback")
    expect()(verdict).to_contain_text("Spot on!")
    page.wait_for_function("() => !!document.activeElement.closest('.st-key-step_feedback')", timeout=10_000)
    expect()(verdict).to_contain_text("The contribution is 7.0000; you guessed 7.000 (off by 0.0000).")
    wait_for_charts(page)
    assert _your_bars(page).count() == 1  # predict mode draws only the positions already walked
    screenshot(page, "step_predict_revealed", full_page=False)

    page.get_by_text("Predict first", exact=True).click()  # off: the whole list, and a bar click walks to it
    wait_for_charts(page)
    expect()(_your_bars(page)).to_have_count(5)
    _your_bars(page).nth(4).click(force=True)  # rank 5 (rank 4's bar has no height: grade 0)
    page.get_by_text("Position i = 5 of 5").wait_for(timeout=20_000)
    wait_for_charts(page)
    screenshot(page, "step_bar_click", full_page=False)
