"""Teaching pages in a real browser: worked example -> Playground, stepping, answering a quiz question."""

from __future__ import annotations

import re

import pytest

import ndcg_core
from tests.browser.helpers import (
    CUT_LEGEND_ENTRIES_JS,
    SCREENSHOTS,
    expect,
    rerun,
    screenshot,
    wait_for_app,
    wait_for_charts,
)
from ui import quiz_model as quiz
from ui.formatting import num
from ui.lessons import LESSON_TITLES

pytestmark = pytest.mark.browser


def open_page(tab, url: str) -> None:
    """Open a deep link (it works on a fresh server too: tests/browser/test_deep_links_browser.py)."""
    tab.goto(url)
    wait_for_app(tab)


def test_open_003_worked_example_in_playground(page, app_url):
    open_page(page, f"{app_url}/worked_examples")
    page.get_by_text("Worked examples", exact=True).first.wait_for()
    screenshot(page, "teaching_worked_examples")
    index = next(
        i for i, e in enumerate(ndcg_core.WORKED_EXAMPLES)
        if e.source == "003_f44d929bf8cc7fa4.txt" and e.extra_documents
    )
    card = page.locator(f".st-key-example_card_{index}")
    card.get_by_role("button", name=re.compile("Open in Playground")).click()
    # The Playground is the default page, so its address is the app's root.
    page.wait_for_url(lambda url: "worked_examples" not in url and "extra=" in url, timeout=30_000)
    page.get_by_role("heading", name="Playground").first.wait_for(timeout=30_000)
    wait_for_app(page)
    metrics = page.locator("[data-testid='stMetric']")
    ndcg = metrics.filter(has_text=re.compile("NDCG"))
    ndcg.first.wait_for(timeout=30_000)
    assert "0.785" in ndcg.first.inner_text()
    ndcg.first.scroll_into_view_if_needed()  # the metric cards, not wherever the previous page was scrolled
    screenshot(page, "teaching_playground_from_003")


def test_step_through_three_positions(page, app_url):
    open_page(page, f"{app_url}/step_by_step")
    page.get_by_text("Position i = 1 of", exact=False).wait_for()
    for position in (2, 3, 4):
        page.get_by_role("button", name=re.compile("Next")).click()
        page.get_by_text(f"Position i = {position} of", exact=False).wait_for(timeout=15_000)
        wait_for_app(page)
    assert "pos=4" in page.url
    # The charts' text is drawn in the face plotly measured it in: "NDCG@i (right axis)" ran past the legend's box
    # when the chart font's CSS was invalid (an unquoted "Source Sans 3") and the browser fell back to Open Sans.
    wait_for_charts(page)
    assert page.evaluate(CUT_LEGEND_ENTRIES_JS) == []
    # The nine lesson tabs fit a 1400 px screen with the sidebar open: the ninth was hidden behind a scroll arrow.
    lessons = page.get_by_role("tablist").filter(has=page.get_by_role("tab", name=re.compile(r"^9 · ")))
    assert lessons.evaluate("(list) => list.scrollWidth <= list.clientWidth"), lessons.evaluate(
        "(list) => [list.scrollWidth, list.clientWidth]")
    screenshot(page, "teaching_step_by_step")
    # The step's table fits a 1280 px page with the sidebar open: it was 41 px too wide, and NDCG@i, the column the
    # step is about, was cut at the right edge.
    page.set_viewport_size({"width": 1280, "height": 720})
    table = page.get_by_test_id("stDataFrame").first.locator(".dvn-scroller")
    page.wait_for_function("(grid) => grid.clientWidth < 800", arg=table.element_handle(), timeout=10_000)
    assert table.evaluate("(grid) => grid.scrollWidth <= grid.clientWidth + 1"), table.evaluate(
        "(grid) => [grid.scrollWidth, grid.clientWidth]")


def test_answer_one_quiz_question(page, app_url):
    seed = 42
    open_page(page, f"{app_url}/quiz?seed={seed}")
    page.get_by_text(f"Seed {seed}", exact=False).first.wait_for()
    question = quiz.generate_quiz(seed)[0]
    assert question.kind == "compare"
    screenshot(page, "teaching_quiz")
    card = page.locator(".st-key-quiz_question_1")
    choice = card.get_by_role("radio", name=f"Ranking {question.best_answer()}")
    for _ in range(3):  # a click that lands while the page is still rerunning can be lost: click until it holds
        card.get_by_text(f"Ranking {question.best_answer()}", exact=True).last.click()
        wait_for_app(page)
        if choice.is_checked():
            break
    assert choice.is_checked()
    card.get_by_role("button", name="Check").click()
    page.get_by_text("Correct!", exact=False).wait_for(timeout=15_000)
    score = page.locator("[data-testid='stMetric']").filter(has_text="Score this session")
    expect()(score).to_contain_text("1 / 1")
    screenshot(page, "teaching_quiz_answered")
    # A reload (a phone reloads a tab it put in the background) keeps the answer and the score: the address holds it.
    page.wait_for_url(re.compile(r"answers=1%3A" + question.best_answer()), timeout=15_000)
    page.reload()
    wait_for_app(page)
    page.get_by_text("Correct!", exact=False).wait_for(timeout=15_000)
    expect()(score).to_contain_text("1 / 1")
    expect()(choice).to_be_checked()


FORMULAS_FIT = """() => [...document.querySelectorAll('.katex-display')]
    .every(d => d.scrollWidth <= d.clientWidth + 1)"""


def overflowing_formulas(tab) -> list[str]:
    """The text of every displayed formula wider than the space it has (cut at the right edge)."""
    return tab.evaluate(
        """() => [...document.querySelectorAll('.katex-display')]
            .filter(d => d.clientWidth > 0 && d.scrollWidth > d.clientWidth + 1)
            .map(d => d.textContent.slice(0, 60))"""
    )


def test_long_formulas_wrap_on_a_phone(phone, app_url):
    """Step 3 of the default list: 'DCG@3 = DCG@2 + 1.500 = 6.131 + 1.500 = 7.631' is wider than 390 px."""
    open_page(phone, f"{app_url}/step_by_step?pos=3")
    phone.get_by_text("Position i = 3 of", exact=False).wait_for()
    phone.locator(".katex-display").first.wait_for()
    running = phone.locator(".katex-display").filter(has_text=re.compile(r"DCG@3\s*=\s*DCG@2\s*\+"))
    running.first.wait_for()
    # The page's style arrives with the first elements, not always before the first formula: wait for it to apply.
    # (Without the wrapping rule this wait times out: the formula is 472 px wide in 322 px.)
    phone.wait_for_function(FORMULAS_FIT, timeout=15_000)
    assert overflowing_formulas(phone) == []
    assert running.first.bounding_box()["height"] > 40  # on two lines: it wrapped
    running.first.scroll_into_view_if_needed()
    screenshot(phone, "teaching_step_formula_phone", full_page=False)


def test_fix_the_ranking_shows_names_on_a_phone(phone, app_url):
    seed = 42
    question = next(q for q in quiz.generate_quiz(seed) if q.kind == "reorder")
    open_page(phone, f"{app_url}/quiz?seed={seed}")
    card = phone.locator(f".st-key-quiz_question_{question.number}")
    names = card.locator(".rl-name")
    names.first.wait_for(state="attached")  # attached: a name squeezed to zero width counts as hidden
    assert names.all_inner_texts() == question.ranked_names()
    # Each name fits its cell: not squeezed to nothing, not cut with an ellipsis.
    widths = names.evaluate_all("cells => cells.map(cell => [cell.clientWidth, cell.scrollWidth])")
    assert all(client >= 16 and scroll <= client for client, scroll in widths), widths
    card.scroll_into_view_if_needed()
    SCREENSHOTS.mkdir(exist_ok=True)
    card.screenshot(path=str(SCREENSHOTS / "teaching_quiz_reorder_phone.png"))


WIDE_TABLES_JS = """() => [...document.querySelectorAll('[role="tabpanel"]')].filter((panel) => panel.offsetParent !== null)
  .flatMap((panel) => [...panel.querySelectorAll('[data-testid="stDataFrame"], [data-testid="stTable"]')])
  .map((table) => table.querySelector('.dvn-scroller') || table.querySelector('table').parentElement)
  .filter((box) => box.scrollWidth > box.clientWidth + 1)
  .map((box) => `${box.scrollWidth} px of columns in ${box.clientWidth} px`)"""


def test_lesson_one_shows_every_contribution_on_a_laptop(page, app_url):
    """At 1280 × 720 lesson 1's two tables (before and after the swap, side by side) were data grids with 416 px of
    columns in 385 px: the Contribution column, the figures the lesson adds up, read "1.", "0." or nothing."""
    page.set_viewport_size({"width": 1280, "height": 720})
    open_page(page, f"{app_url}/step_by_step")
    page.get_by_role("tab", name=re.compile(r"^1 · ")).click()
    panel = page.get_by_role("tabpanel").filter(has_text="Before")
    panel.get_by_text("After swapping positions 3 and 4").wait_for()
    panel.scroll_into_view_if_needed()
    assert page.evaluate(WIDE_TABLES_JS) == []
    # D3 (grade 3, exponential gain 7) at rank 4 after the swap: 7 / log2(5) = 3.015
    expect()(panel).to_contain_text("3.015")
    screenshot(page, "teaching_lesson_one_laptop", full_page=False)


def test_lesson_one_shows_every_contribution_on_a_phone(phone, app_url):
    """On a 390 px phone the two tables stack, each 362 px of columns in 354 px: the Contribution column's last
    digits were cut ("3.50", and "7" half out of view)."""
    open_page(phone, f"{app_url}/step_by_step")
    panel = phone.get_by_role("tabpanel").filter(has_text="Before")
    panel.get_by_text("After swapping positions 3 and 4").scroll_into_view_if_needed()
    assert phone.evaluate(WIDE_TABLES_JS) == []
    expect()(panel).to_contain_text("3.015")
    screenshot(phone, "teaching_lesson_one_phone", full_page=False)


# The figure each lesson is about: the row it is in (None: the tab's last table) and its text (default settings).
_NORMALISE_B = ndcg_core.evaluate([1, 0, 2, 0, 3, 1, 0, 2])
_GAIN_EXP = ndcg_core.evaluate([3, 2, 3, 0, 1])
_JUDGED = ndcg_core.evaluate([3, 2, 3, 0, 1, 2], k=6, ideal_relevances=[3, 2, 3, 0, 1, 2, 3, 2])
LESSON_FIGURES = {
    "2 · Normalise": ("B (longer, jumbled)", num(_NORMALISE_B.ndcg)),  # 0.581: NDCG, the grid's last column
    "5 · Linear vs exp.": (None, num(_GAIN_EXP.table["contribution"].iloc[2])),  # exponential: 7 / log2(4) = 3.500
    "6 · All judged": ("all judged documents", num(_JUDGED.ndcg)),  # 0.751
    "7 · All grades 0": ("refuse (error)", "refused (below)"),
    "9 · Unjudged": ("removed", "not judged (counts as 0)"),  # the grid cut it to "not judge"
}


def test_the_lessons_tables_fit_a_phone_without_scrolling_sideways(phone, app_url):
    """On a 390 px phone lessons 2, 5, 6 and 7 showed data grids with 469, 629, 515 and 394 px of columns in 354 px:
    a student had to scroll each one sideways to see NDCG (lesson 2's B: 0.581 was out of view), lesson 5's
    exponential contributions, lesson 6's and 7's NDCG column; lesson 9's grid fitted by cutting its Grade cells to
    "not judge". Every lesson's tables now fit the screen, and the figure each lesson is about is whole on screen."""
    open_page(phone, f"{app_url}/step_by_step")
    for title in LESSON_TITLES:
        tab = phone.get_by_role("tab", name=title)
        if tab.get_attribute("aria-selected") == "true":
            tab.tap()
        else:
            with rerun(phone):  # the lesson chosen is kept for the page's next visit (ui.lessons)
                tab.tap()
        panel = phone.get_by_role("tabpanel").filter(visible=True)
        expect()(panel).to_have_count(1)
        assert phone.evaluate(WIDE_TABLES_JS) == [], title
        if title not in LESSON_FIGURES:
            continue
        label, figure = LESSON_FIGURES[title]
        tables = panel.locator("[data-testid='stTable']")
        cell = (tables.last if label is None else tables.locator("tr").filter(has_text=label)).get_by_text(
            figure, exact=True).first
        cell.scroll_into_view_if_needed()
        expect()(cell).to_be_in_viewport(ratio=1)
        box = cell.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (title, box)
        screenshot(phone, f"phone_lesson_{title[0]}_table", full_page=False)


def test_the_walks_table_shows_ndcg_at_i_on_a_tablet_held_upright(phone, app_url):
    """At 768 × 1024 (touch, sidebar closed) the walk's table had 771 px of columns in 732 px: NDCG@i, the column the
    walk is about, was cut to "NDC" and its values to "1" and "0"."""
    phone.set_viewport_size({"width": 768, "height": 1024})
    open_page(phone, f"{app_url}/step_by_step")
    grid = phone.locator("[data-testid='stDataFrame']").first
    grid.scroll_into_view_if_needed()
    scrolled, shown = grid.locator(".dvn-scroller").evaluate("(box) => [box.scrollWidth, box.clientWidth]")
    screenshot(phone, "tablet_walk_table", full_page=False)
    assert (shown, scrolled <= shown + 1) == (732, True), (scrolled, shown)


WIDE_CARD_TABLES_JS = """() => [...document.querySelectorAll('[class*="st-key-example_card_"] [data-testid="stTable"]')]
  .map((table) => table.querySelector('table').parentElement)
  .filter((box) => box.scrollWidth > box.clientWidth + 1)
  .map((box) => `${box.scrollWidth} px in ${box.clientWidth} px: ${box.querySelector('tbody').textContent.slice(0, 60)}`)"""


def test_every_worked_example_shows_its_figures_and_verdicts_on_a_phone(phone, app_url):
    """On a 390 px phone seven cards' figure tables needed 392-432 px in 320: the Verdict column was out of view
    and figures such as 0.5664478625498256 were cut."""
    open_page(phone, f"{app_url}/worked_examples")
    phone.locator('[class*="st-key-example_card_"] [data-testid="stTable"]').first.wait_for()
    assert phone.evaluate(WIDE_CARD_TABLES_JS) == []
    card = phone.locator('[class*="st-key-example_card_"]').filter(has_text="Worst order [0, 1, 2, 2, 3]").first
    card.get_by_text("Verdict", exact=True).scroll_into_view_if_needed()
    expect()(card.get_by_text("Verdict", exact=True)).to_be_in_viewport()
    screenshot(phone, "phone_worked_example_figures", full_page=False)


def test_the_walks_table_shows_position_i_without_scrolling_the_table(page, app_url):
    """With 30 documents at position 20, "The whole table so far (the highlighted row is position i)" was a grid of
    30 rows in a box of 10: the highlighted row was out of view, below, with nothing to say so. The table now holds
    the rows around position i, all of them in view, position i's among them."""
    grades = [i % 4 for i in range(1, 31)]
    docs = ",".join(f"d{i}:{grade}" for i, grade in enumerate(grades, 1))
    open_page(page, f"{app_url}/step_by_step?docs={docs}&pos=20")
    grid = page.locator("[data-testid='stDataFrame']").filter(visible=True).first
    grid.scroll_into_view_if_needed()
    grid.locator(".dvn-scroller").wait_for()
    screenshot(page, "walk_table_position_20", full_page=False)
    rows, box = grid.locator(".dvn-scroller").evaluate("(box) => [box.scrollHeight, box.clientHeight]")
    assert rows <= box + 1, (rows, box)  # every row of the table in view: no row hidden below
    row = ndcg_core.evaluate(grades).table.iloc[19]
    shown = grid.locator("tr").filter(has_text=re.compile(r"^20d20")).first  # the accessible table's row i = 20
    expect()(shown).to_contain_text(f"{row['ndcg_at_rank']}")
