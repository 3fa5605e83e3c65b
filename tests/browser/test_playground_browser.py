"""The Playground in a real browser (Playwright + Debian Chromium): edit, drag, keyboard, share link.

Each test checks the NDCG card against ndcg_core for the order/grades it produced.
"""

from __future__ import annotations

import re

import pytest

import ndcg_core
from tests.browser.helpers import (
    EDITOR_ROW,
    SCREENSHOTS,
    card_boxes,
    drag_row,
    edit_last_cell,
    edit_last_cell_until,
    expect,
    expect_ndcg,
    grid_column,
    list_names,
    ndcg_card,
    open_playground,
    row,
    screenshot,
    wait_for_app,
    wait_for_charts,
    wait_until_settled,
)

pytestmark = pytest.mark.browser

G = [3, 1, 2, 0, 2]
NAMES = ["D1", "D2", "D3", "D4", "D5"]
GRADES = dict(zip(NAMES, map(float, G), strict=True))


def grade_editor(tab):
    """The Playground's ranking editor (the data editor under 'Grades')."""
    return tab.locator('[data-testid="stDataFrame"]').first


def edit_grade_until(tab, row: int, text: str, done) -> None:
    """Edit the Grade (the last column) of ``row``, which holds ``G[row]``, and wait for ``done``."""
    edit_last_cell_until(tab, grade_editor(tab), row, text, G[row], done, failure_shot="playground_edit_not_applied")


def test_edit_a_grade_in_the_data_editor(page, app_url):
    open_playground(page, app_url)
    expect_ndcg(page, ndcg_core.evaluate(G).ndcg)
    expected = f"{ndcg_core.evaluate([3, 3, 2, 0, 2]).ndcg:.4f}"
    edit_grade_until(page, 1, "3", lambda timeout: expect()(ndcg_card(page)).to_have_text(expected, timeout=timeout))
    expect()(page.locator(".rl-row").nth(1).locator(".rl-chip")).to_have_text("3")


def test_invalid_edit_shows_an_error_and_keeps_the_numbers(page, app_url):
    open_playground(page, app_url)
    error = page.locator('[data-testid="stAlertContentError"]').first
    edit_grade_until(page, 2, "-1", lambda timeout: expect()(error).to_contain_text("negative", timeout=timeout))
    expect_ndcg(page, ndcg_core.evaluate(G).ndcg)
    page.set_viewport_size({"width": 1400, "height": 1100})
    screenshot(page, "playground_invalid_edit")


def test_an_order_button_clears_the_moved_rows_mark(page, app_url):
    """The row moved last is tinted ("moved") so a class sees which one it was; after Reset or Worst order, which
    rearrange the whole list, it stayed tinted, pointing at a document the button had not moved."""
    open_playground(page, app_url)
    row(page, "D3").locator(".rl-up").click()
    wait_until_settled(page, ["D1", "D3", "D2", "D4", "D5"], GRADES)
    expect()(row(page, "D3")).to_have_class(re.compile(r"\bmoved\b"))
    page.get_by_role("button", name="Reset").click()
    wait_until_settled(page, NAMES, GRADES)
    expect()(page.locator(".rl-row.moved")).to_have_count(0)
    row(page, "D4").locator(".rl-up").click()  # a move after the button is marked again
    wait_until_settled(page, ["D1", "D2", "D4", "D3", "D5"], GRADES)
    expect()(page.locator(".rl-row.moved")).to_have_count(1)
    expect()(row(page, "D4")).to_have_class(re.compile(r"\bmoved\b"))


def test_drag_a_row(page, app_url):
    open_playground(page, app_url)
    drag_row(page, 0, 2)  # D1 from rank 1 to rank 3
    expected = ["D2", "D3", "D1", "D4", "D5"]
    expect_ndcg(page, ndcg_core.evaluate([1, 2, 3, 0, 2]).ndcg)
    assert list_names(page) == expected
    table = page.locator('[data-testid="stDataFrame"]').last  # the per-position table follows the same order
    assert grid_column(page, table, "Document", expected=expected) == expected


def test_a_click_on_a_column_header_leaves_the_table_in_ranking_order(page, app_url):
    # The grade table lists the documents in ranking order. Streamlit does not sort a data editor that can add and
    # delete rows, so a click on a header must leave that order (and the ranking) alone; if a Streamlit upgrade made
    # the table sortable, the order read back below would change and this test would say so.
    open_playground(page, app_url)
    # A click on the Grade header (it would sort a sortable grid), then the table's order as the grid shows it.
    order = grid_column(page, grade_editor(page), "Document", click=(-40, EDITOR_ROW / 2))
    assert order == ["D1", "D2", "D3", "D4", "D5"]
    row(page, "D5").focus()
    page.keyboard.press("Alt+ArrowUp")
    wait_until_settled(page, ["D1", "D2", "D3", "D5", "D4"], GRADES)


def test_share_link_restores_the_state(page, borrow, app_url):
    query = "?docs=A:0,B%253Cb%253E:3,C:1&extra=X:2&gain=linear&k=2"
    open_playground(page, app_url, query)
    expected = ndcg_core.evaluate([0, 3, 1], k=2, ideal_relevances=[0, 3, 1, 2], gain="linear")
    expect_ndcg(page, expected.ndcg)
    assert list_names(page) == ["A", "B<b>", "C"]  # markup in a name stays text
    assert page.locator('[data-testid="stMetric"]').filter(has_text="NDCG@2").count() == 1

    drag_row(page, 2, 0)  # C to the top; the page's own share link must reproduce it
    after = ndcg_core.evaluate([1, 0, 3], k=2, ideal_relevances=[1, 0, 3, 2], gain="linear")
    expect_ndcg(page, after.ndcg)
    box = page.get_by_role("textbox", name="Share link of this list")
    expect()(box).to_have_value(re.compile("docs=C:1,A:0,B%253Cb%253E:3"), timeout=15_000)  # it follows the drag
    link = box.input_value()
    # The visible button copies it (a phone has no hover to reveal a copy icon).
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=app_url)
    page.get_by_role("button", name="Copy link").click()
    expect()(page.get_by_role("status").filter(has_text="Copied")).to_have_count(1, timeout=5_000)
    assert page.evaluate("() => navigator.clipboard.readText()") == link
    other = borrow()  # someone else opens the link
    other.goto(link)
    wait_for_app(other)
    other.wait_for_selector(".rl-row", timeout=30_000)
    expect_ndcg(other, after.ndcg)
    assert list_names(other) == ["C", "A", "B<b>"]


def test_malformed_link_warns(page, app_url):
    open_playground(page, app_url, "?docs=D1:abc&k=zero")
    expect()(page.locator('[data-testid="stAlertContentWarning"]').first).to_be_visible(timeout=15_000)
    expect_ndcg(page, ndcg_core.evaluate(G).ndcg)


def test_screenshots(page, app_url):
    page.set_viewport_size({"width": 1400, "height": 2900})
    open_playground(page, app_url)
    wait_for_charts(page)
    expect_ndcg(page, ndcg_core.evaluate(G).ndcg)
    # The four cards share the row equally (NDCG's was 19 px narrower than the others, its shorter number).
    assert len({width for _, width in card_boxes(page)}) == 1 and len({x for x, _ in card_boxes(page)}) == 4
    screenshot(page, "playground")
    open_playground(page, app_url, "?docs=D1:3,D2:2,D3:3,D4:0,D5:1,D6:2&extra=D7:3,D8:2&gain=linear&k=4")
    wait_for_charts(page)
    expected = ndcg_core.evaluate([3, 2, 3, 0, 1, 2], k=4, gain="linear", ideal_relevances=[3, 2, 3, 0, 1, 2, 3, 2])
    expect()(page.locator('[data-testid="stMetric"]').filter(has_text="NDCG@4").locator(
        '[data-testid="stMetricValue"]')).to_have_text(f"{expected.ndcg:.4f}")
    screenshot(page, "playground_003_extra_k4")
    # Each choice's chart has a title no other chart has; the one it replaces must be gone.
    for tab_name, title, previous in (("Cumulative", "Cumulative DCG and IDCG, and NDCG@i", "Contribution of each"),
                                      ("Gain ÷ discount", "Each contribution = gain ÷ discount", "Cumulative DCG")):
        page.get_by_role("radio", name=tab_name).click()
        chart = page.locator('[data-testid="stPlotlyChart"]').first
        expect()(chart).to_contain_text(title, timeout=15_000)
        expect()(chart).not_to_contain_text(previous)
        wait_for_charts(page)
        screenshot(page, "playground_cumulative_tab" if "Cumulative" in tab_name else "playground_decomposition_tab")
    page.set_viewport_size({"width": 1280, "height": 720})  # a classroom projector: the cards fit the first screen
    page.get_by_role("heading", name="Playground").first.scroll_into_view_if_needed()
    card = ndcg_card(page).bounding_box()
    assert card["y"] + card["height"] <= 720, "the NDCG card is below the first screen at 1280x720"
    page.screenshot(path=str(SCREENSHOTS / "playground_projector_1280x720.png"))


def _fits(locator) -> bool:
    """Whether the element's text is drawn whole: its laid-out text is no wider than the element's box."""
    return locator.evaluate("""e => { const r = document.createRange(); r.selectNodeContents(e);
        return r.getBoundingClientRect().width <= e.getBoundingClientRect().width + 0.5; }""")


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}])
def test_huge_figures_fit_their_cards_and_columns(page, app_url, viewport):
    """Grades 1e301 and 12345678901.5: the cards showed "1.0000…" for 1.0000e+301, and the grade chip and the
    contribution ("12345678901.5" over "6172839450.750") ran into each other."""
    page.set_viewport_size(viewport)
    open_playground(page, app_url, "?gain=linear&docs=A:1e301,B:2,C:12345678901.5")
    expected = ndcg_core.evaluate([1e301, 2, 12345678901.5], gain="linear")
    expect()(ndcg_card(page)).to_have_text(f"{expected.ndcg:.4f}", timeout=15_000)
    values = page.locator('[data-testid="stMetricValue"]')
    assert values.all_inner_texts()[:3] == [f"{expected.cg:.4e}", f"{expected.dcg:.4e}", f"{expected.idcg:.4e}"]
    assert all(_fits(value) for value in values.all()), "a card's value is cut"
    last = page.locator(".rl-row").nth(2)
    expect()(last.locator(".rl-chip")).to_have_attribute("title", "grade 12345678901.5")
    expect()(last.locator(".rl-contrib")).to_have_text("6.173e+09")
    for each in page.locator(".rl-row").all():
        chip, contribution = each.locator(".rl-chip").bounding_box(), each.locator(".rl-contrib").bounding_box()
        assert chip["x"] + chip["width"] <= contribution["x"], "a grade chip runs into the contribution column"
        if contribution["width"] > 0:  # a very narrow list hides the column
            assert _fits(each.locator(".rl-contrib")) or each.locator(".rl-contrib").evaluate(
                "e => getComputedStyle(e).textOverflow") == "ellipsis"
    screenshot(page, f"playground_huge_figures_{viewport['width']}")


@pytest.mark.parametrize("then", ["▲ on D5", "Reverse"])
def test_a_grade_typed_then_left_by_a_click_on_a_move_or_order_button_is_kept(page, app_url, then):
    """D4's grade typed as 3, then ▲ on D5 (or "Reverse") clicked without Enter: the click commits the cell and
    moves in the same moment, and the edit was lost without a word, the link saying D4:0 (helper-64, 3 of 3)."""
    open_playground(page, app_url)
    expect_ndcg(page, ndcg_core.evaluate(G).ndcg)
    edit_last_cell(page, grade_editor(page), 3, "3", G[3], commit=None)
    if then == "Reverse":
        page.get_by_role("button", name="Reverse").click()
        names = ["D5", "D4", "D3", "D2", "D1"]
    else:
        row(page, "D5").locator(".rl-up").click()
        names = ["D1", "D2", "D3", "D5", "D4"]
    grades = {**GRADES, "D4": 3.0}
    wait_until_settled(page, names, grades)
    expect_ndcg(page, ndcg_core.evaluate([grades[name] for name in names]).ndcg)
    expect()(page.get_by_role("textbox", name="Share link of this list")).to_have_value(
        re.compile("docs=" + ",".join(f"{name}:{grades[name]:g}" for name in names)), timeout=15_000)

