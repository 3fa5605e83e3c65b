"""The Playground on a 390×844 touch phone: swipes scroll, drags start from the grip or a long press, and a swipe
that starts on a chart scrolls the page too.

Touch input goes through Chrome's real input pipeline (CDP Input.dispatchTouchEvent), so the browser's
own gesture handling decides between scrolling and a drag, as on a phone. Before the fix a swipe that
started on the list reordered it (NDCG 0.9508 → 0.8386) and the list's header words overlapped.
"""

from __future__ import annotations

import re

import pytest

import ndcg_core
from tests.browser.helpers import (
    CUT_CARD_VALUES_JS,
    CUT_LEGEND_ENTRIES_JS,
    HIDDEN_LINKS_JS,
    LIST_ROOT_JS,
    SCREENSHOTS,
    card_boxes,
    expect,
    expect_ndcg,
    go_to_page,
    list_names,
    moved,
    next_frame,
    open_page,
    open_playground,
    rerun,
    row,
    screenshot,
    scroll_top,
    touch_swipe,
    wait_for_charts,
    wait_for_scroll,
    wait_until_settled,
)

pytestmark = pytest.mark.browser

GRADES = {"D1": 3.0, "D2": 1.0, "D3": 2.0, "D4": 0.0, "D5": 2.0}


def _centre(tab, name: str, *, part: str = ".rl-name") -> tuple[float, float]:
    box = row(tab, name).locator(part).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_swipe_that_starts_on_the_list_scrolls_and_does_not_reorder(phone, app_url):
    open_playground(phone, app_url)
    names = list(GRADES)
    wait_until_settled(phone, names, GRADES)
    row(phone, "D4").scroll_into_view_if_needed()
    before = scroll_top(phone)
    x, y = _centre(phone, "D4")
    touch_swipe(phone, x, y, y - 300, steps=8, step_ms=16)  # a quick upward swipe, starting on a row's name
    wait_for_scroll(phone, "top > arg + 100", before)
    assert scroll_top(phone) > before + 100, "the swipe did not scroll the page"
    assert list_names(phone) == names, "the swipe reordered the list"
    expect_ndcg(phone, ndcg_core.evaluate(list(GRADES.values())).ndcg)
    # The sidebar's "»" stays over the scrolled page: it has a background of its own (it sat on the page's text).
    background = phone.locator('[data-testid="stExpandSidebarButton"]').evaluate(
        "(button) => getComputedStyle(button).backgroundColor")
    assert background not in ("rgba(0, 0, 0, 0)", "transparent"), background
    screenshot(phone, "phone_after_swipe", full_page=False)


# The first chart's axis ranges as plotly holds them, and its plot area's box on the screen.
CHART_JS = """() => {
  const plot = document.querySelector('[data-testid="stPlotlyChart"] .js-plotly-plot');
  const area = plot.querySelector('.nsewdrag').getBoundingClientRect();
  return {x: plot._fullLayout.xaxis.range, y: plot._fullLayout.yaxis.range,
          centre: [area.left + area.width / 2, area.top + area.height / 2]};
}"""

# Scroll the page (Streamlit's main section) so the first chart's plot area is in the middle of the screen.
CHART_MID_SCREEN_JS = """() => {
  const area = document.querySelector('[data-testid="stPlotlyChart"] .nsewdrag').getBoundingClientRect();
  document.querySelector('[data-testid="stMain"]').scrollTop += area.top + area.height / 2 - innerHeight / 2;
}"""

# Resolves once the page's scroll position has stayed the same for 5 animation frames (a fling has ended).
SCROLL_STILL_JS = """() => new Promise((done) => {
  const main = document.querySelector('[data-testid="stMain"]');
  let last = null, still = 0;
  const tick = () => {
    still = main.scrollTop === last ? still + 1 : 0;
    last = main.scrollTop;
    if (still >= 5) done(); else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})"""


@pytest.mark.parametrize("path", ["", "step_by_step"])
def test_a_swipe_that_starts_on_a_chart_scrolls_the_page_and_leaves_the_chart_as_it_was(phone, app_url, path):
    """Before the fix the swipe panned the chart and the page stayed put: on the Playground the contribution chart's
    y axis went from [0, 7.37] to [-11.1, -3.7], every bar gone, with no way back on a phone (the modebar and its
    "Reset axes" are hidden below 640 px). Same on Step by step."""
    open_page(phone, f"{app_url}/{path}")
    wait_for_charts(phone)
    phone.evaluate(CHART_MID_SCREEN_JS)
    phone.evaluate(SCROLL_STILL_JS)
    chart = phone.evaluate(CHART_JS)
    before = scroll_top(phone)
    x, y = chart["centre"]
    touch_swipe(phone, x, y, y - 250, steps=8, step_ms=16)  # a quick upward swipe, as on the text above it
    try:
        wait_for_scroll(phone, "top >= arg + 200", before)  # most of the swipe (a fling may carry it further)
    finally:
        screenshot(phone, f"phone_swipe_on_chart_{path or 'playground'}", full_page=False)
    after = phone.evaluate(CHART_JS)
    assert (after["x"], after["y"]) == (chart["x"], chart["y"]), "the swipe moved the chart's axes"
    if path:
        return
    # A tap on a bar still picks its rank (the bar's click, which plotly reports to the app). The page is still
    # first: a tap during the swipe's fling only stops the fling.
    phone.evaluate(CHART_MID_SCREEN_JS)
    phone.evaluate(SCROLL_STILL_JS)
    bar = phone.locator('[data-testid="stPlotlyChart"] g.trace.bars').first.locator("path").first.bounding_box()
    with rerun(phone):
        phone.touchscreen.tap(bar["x"] + bar["width"] / 2, bar["y"] + bar["height"] / 2)
    expect()(phone.get_by_text("Highlighted: rank 1")).to_be_visible()
    assert phone.evaluate(CHART_JS)["y"] == chart["y"]


def test_a_drag_from_the_grip_reorders(phone, app_url):
    open_playground(phone, app_url)
    names = list(GRADES)
    wait_until_settled(phone, names, GRADES)
    row(phone, "D5").scroll_into_view_if_needed()
    x, y = _centre(phone, "D1", part=".rl-grip")
    _, target = _centre(phone, "D3")
    touch_swipe(phone, x, y, target + 12, steps=12, step_ms=20)  # D1's grip to below D3's middle
    wait_until_settled(phone, moved(names, "D1", 2), GRADES)


# Each row's name width, and whether its ▼ button is the element under its own centre (nothing drawn over it).
ROWS_USABLE_JS = """() => {
  const root = """ + LIST_ROOT_JS + """;
  return [...root.querySelectorAll('.rl-row')].map((row) => {
    const down = row.querySelector('.rl-down').getBoundingClientRect();
    const x = down.left + down.width / 2, y = down.top + down.height / 2;
    const shown = 0 <= y && y < innerHeight && root.getRootNode().elementFromPoint(x, y) === row.querySelector('.rl-down');
    return [row.querySelector('.rl-name').getBoundingClientRect().width, shown || !(0 <= y && y < innerHeight)];
  });
}"""


def test_a_phone_held_sideways_shows_names_and_reachable_buttons(phone, app_url):
    """844x390 with the sidebar open left the page ~525 px: its columns squeezed the list to 206 px, where names were
    0 px wide and the ▼ buttons slid under the chart (a tap on them did nothing). The page's columns now stack."""
    phone.set_viewport_size({"width": 844, "height": 390})
    open_playground(phone, app_url)
    # The sidebar starts closed, as on a phone held upright (it took 319 of the 844 px) ...
    sidebar = phone.get_by_test_id("stSidebar")
    expect()(sidebar).to_have_attribute("data-collapsed", "true")
    # ... and a student who opens it can close it again: its close button is shown without a hover.
    phone.get_by_test_id("stExpandSidebarButton").tap()
    expect()(sidebar).to_have_attribute("data-collapsed", "false")
    expect()(phone.get_by_test_id("stSidebarCollapseButton")).to_be_visible()
    names = list(GRADES)
    wait_until_settled(phone, names, GRADES)
    rows = phone.evaluate(ROWS_USABLE_JS)
    assert all(width >= 40 for width, _ in rows), rows
    assert all(reachable for _, reachable in rows), rows
    row(phone, "D2").scroll_into_view_if_needed()
    row(phone, "D2").locator(".rl-down").tap()
    wait_until_settled(phone, moved(names, "D2", 2), GRADES)
    screenshot(phone, "phone_sideways_playground", full_page=False)
    # The sidebar is open at this width: the cards share ~490 px. Their values were cut to "14.0…", "10.2…".
    assert phone.evaluate(CUT_CARD_VALUES_JS) == []
    go_to_page(phone, "compare")  # two rankings side by side, four cards each
    assert phone.evaluate(CUT_CARD_VALUES_JS) == []
    screenshot(phone, "phone_sideways_compare", full_page=False)
    # The Worked examples' Verdict filters wrap: the last one was cut at the edge of a row that scrolled sideways.
    go_to_page(phone, "worked_examples")
    widths = phone.evaluate("""() => [...document.querySelectorAll('[data-testid="stButtonGroup"] > div')]
      .map((row) => [row.scrollWidth, row.clientWidth])""")
    assert len(widths) == 2 and all(scrolled <= shown + 1 for scrolled, shown in widths), widths
    # and the counts' labels wrap: "≈ matches after rounding" ended "roun…"
    cut = phone.evaluate("""() => [...document.querySelectorAll('[data-testid="stMetricLabel"] [data-testid="stMarkdownContainer"]')]
      .filter((label) => label.scrollWidth > label.clientWidth + 1).map((label) => label.textContent)""")
    assert cut == []
    screenshot(phone, "phone_sideways_worked_examples", full_page=False)
    # The Quiz starts with its sidebar closed (no settings there). Opened first in the tab and then opened by the
    # student, it stays open: the script that closes it on a sideways phone closed it again as soon as it opened.
    open_page(phone, f"{app_url}/quiz")
    expect()(sidebar).to_have_attribute("data-collapsed", "true")
    phone.get_by_test_id("stExpandSidebarButton").tap()
    expect()(sidebar).to_have_attribute("data-collapsed", "false")
    for _ in range(3):
        next_frame(phone)
    assert sidebar.get_attribute("data-collapsed") == "false"


def test_a_long_press_on_a_row_then_a_move_reorders(phone, app_url):
    open_playground(phone, app_url)
    names = list(GRADES)
    wait_until_settled(phone, names, GRADES)
    row(phone, "D5").scroll_into_view_if_needed()
    x, y = _centre(phone, "D5")
    _, target = _centre(phone, "D2")
    touch_swipe(phone, x, y, target - 12, hold_ms=700, steps=12, step_ms=20)  # hold, then D5 above D2's middle
    wait_until_settled(phone, moved(names, "D5", 1), GRADES)
    screenshot(phone, "phone_after_long_press_drag", full_page=False)


def _header_problems(tab) -> list[str]:
    """Header cells that overlap the next one or whose word is cut off, and row names that are cut off."""
    row(tab, "D1").scroll_into_view_if_needed()
    cells = tab.locator(".rl-head > *")
    boxes = [cells.nth(i).bounding_box() for i in range(cells.count())]
    problems = [f"{len(boxes)} header cells"] if len(boxes) != 5 else []
    problems += [
        f"header cells overlap: {left} / {right}"
        for left, right in zip(boxes, boxes[1:], strict=False) if left["x"] + left["width"] > right["x"] + 0.5
    ]
    problems += cells.evaluate_all(
        "(cells) => cells.filter((c) => c.scrollWidth > c.clientWidth + 1)"
        ".map((c) => 'cut off: ' + getComputedStyle(c, '::before').content + c.textContent)"
    )
    cut = tab.locator(".rl-row .rl-name").evaluate_all("(els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).length")
    return problems + ([f"{cut} names cut off"] if cut else [])


CUT_CHART_TITLES_JS = """() => [...document.querySelectorAll('[data-testid="stPlotlyChart"]')]
  .filter((chart) => chart.offsetParent !== null)
  .flatMap((chart) => {
    const svg = chart.querySelector('.main-svg'), title = chart.querySelector('.gtitle');
    if (!svg || !title) return [];
    const box = title.getBoundingClientRect(), frame = svg.getBoundingClientRect();
    return box.left >= frame.left - 1 && box.right <= frame.right + 1 ? [] : [title.textContent];
  })"""


# Each rank chart's x-axis as plotly drew it, and whether its legend runs into its title or into the plot.
RANK_CHARTS_JS = """() => [...document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot')]
  .filter((plot) => plot._fullLayout && plot._fullLayout.xaxis.title.text === 'Rank i')
  .map((plot) => {
    const title = plot.querySelector('.gtitle').getBoundingClientRect();
    const legend = plot.querySelector('.legend').getBoundingClientRect();
    const area = plot.querySelector('.nsewdrag').getBoundingClientRect();
    return {range: plot._fullLayout.xaxis.range, legendClear: legend.top >= title.bottom - 1
            && legend.bottom <= area.top + 1};
  })"""


SHOWN_MODE_BARS_JS = """() => [...document.querySelectorAll('[data-testid="stPlotlyChart"] .modebar-container')]
  .filter((bar) => getComputedStyle(bar).display !== 'none').length"""


def test_the_list_header_words_and_chart_titles_fit_on_a_phone(phone, app_url):
    """Before the fix the titles of the contribution chart and of Compare's difference chart ran past the right edge
    of a 390 px screen; with a cutoff k the chart's axis ran to rank 17 for a list of 5 (ticks turned on their
    side, bars in the left third) and its three-row legend ran into the title."""
    open_playground(phone, app_url, "?k=3")
    wait_for_charts(phone)
    problems = _header_problems(phone)
    screenshot(phone, "phone_ranked_list_header", full_page=False)
    assert problems == []
    assert phone.evaluate(CUT_CHART_TITLES_JS) == []
    charts = phone.evaluate(RANK_CHARTS_JS)
    assert charts == [{"range": [0.5, 5.5], "legendClear": True}], charts
    assert phone.evaluate(CUT_LEGEND_ENTRIES_JS) == []  # "past k (not counted)" ran past its box
    phone.locator('[data-testid="stPlotlyChart"]').first.screenshot(path=str(SCREENSHOTS / "phone_chart_k3.png"))
    assert phone.evaluate(SHOWN_MODE_BARS_JS) == 0  # plotly's zoom bar would cover the title (no hover on a phone)
    # The share link's copy button is on the screen and works by touch (st.code's copy icon needed a hover).
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=app_url)
    button = phone.get_by_role("button", name="Copy link")
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    button.tap()
    expect()(phone.get_by_role("status").filter(has_text="Copied")).to_have_count(1, timeout=5_000)
    link = phone.get_by_role("textbox", name="Share link of this list").input_value()
    assert link.startswith(app_url) and "docs=" in link
    assert phone.evaluate(HIDDEN_LINKS_JS) == []  # the whole link is shown (a one-line box showed its first 33 characters)
    assert phone.evaluate("() => navigator.clipboard.readText()") == link
    open_page(phone, f"{app_url}/compare")
    phone.get_by_text("Which positions make the difference").first.wait_for()
    phone.wait_for_function("() => document.querySelectorAll('[data-testid=\"stPlotlyChart\"] .gtitle').length >= 3")
    assert phone.evaluate(CUT_CHART_TITLES_JS) == []


def test_the_list_header_words_do_not_overlap_on_a_screen(page, app_url):
    """The three screen sizes of the issue, one page load: the list's layout follows the window (CSS only)."""
    open_playground(page, app_url)
    for width, height in ((1920, 1080), (1440, 900), (1280, 720)):
        page.set_viewport_size({"width": width, "height": height})
        next_frame(page)
        problems = _header_problems(page)
        screenshot(page, f"ranked_list_header_{width}x{height}", full_page=False)
        assert problems == [], f"at {width}x{height}: {problems}"


def test_a_swipe_that_starts_on_the_grade_table_scrolls_the_page(phone, app_url):
    """The grade table's grid is 13 px taller than its box (its room for a scrollbar), so a swipe that started on
    it scrolled the table by 13 px and stopped: the page stayed where it was (scrolled 1409 px before and after).
    A table with rows beyond its box still scrolls inside (the Dataset's long tables), only this near-fit no more."""
    open_page(phone, f"{app_url}/")
    wait_for_charts(phone)
    grid = phone.locator("[data-testid='stDataFrame']").first
    grid.scroll_into_view_if_needed()
    phone.evaluate(SCROLL_STILL_JS)
    box = grid.bounding_box()
    before = scroll_top(phone)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.6
    touch_swipe(phone, x, y, y - 200, steps=8, step_ms=16)
    try:
        wait_for_scroll(phone, "top >= arg + 150", before)
    finally:
        screenshot(phone, "phone_swipe_on_grade_table", full_page=False)
    assert grid.locator(".dvn-scroller").evaluate("(el) => el.scrollTop") == 0


def test_the_move_buttons_are_finger_sized_on_a_touch_screen(phone, app_url):
    """The ▲/▼ buttons were 33x36 px on a phone, under the 44x44 px touch guidelines ask for (WCAG 2.5.5, Apple's
    and Material's guides): a tap aimed at ▼ could land on ▲ or the row. On a touch screen they are now 44 px squares,
    and the row keeps its names."""
    open_playground(phone, app_url)
    wait_until_settled(phone, list(GRADES), GRADES)
    sizes = phone.locator(".rl-buttons button").evaluate_all(
        "(buttons) => buttons.map((b) => { const r = b.getBoundingClientRect(); return [r.width, r.height]; })")
    assert len(sizes) == 2 * len(GRADES)
    assert all(width >= 44 and height >= 44 for width, height in sizes), sizes
    assert _header_problems(phone) == []
    # The metric cards: two equal cards a row, their edges lined up (they were 170, 170 / 179, 160 px wide).
    cards = card_boxes(phone)
    assert len({width for _, width in cards}) == 1 and len({x for x, _ in cards}) == 2, cards
    row(phone, "D3").locator(".rl-up").tap()  # still one tap, one move
    wait_until_settled(phone, moved(list(GRADES), "D3", 1), GRADES)
    screenshot(phone, "phone_finger_sized_buttons", full_page=False)


# Each table toolbar that is drawn: its top and the bottom of the element above its table (the two must not overlap).
TOOLBARS_JS = """() => [...document.querySelectorAll('[data-testid="stDataFrame"] > [data-testid="stElementToolbar"]')]
  .map((bar) => [bar, bar.closest('[data-testid="stElementContainer"]').previousElementSibling])
  .filter(([bar, above]) => above && bar.getBoundingClientRect().height > 0)
  .map(([bar, above]) => [bar.getBoundingClientRect().top, above.getBoundingClientRect().bottom,
                          above.innerText.slice(-40)])"""


def test_a_tables_toolbar_does_not_cover_the_text_above_it_on_a_touch_screen(phone, app_url):
    """With no hover, Streamlit shows a table's toolbar (download, search, full screen) all the time, over the last
    line above the table: the Quiz's "Greyed rows are past the cutoff k = 5 and do not count." lost "t count."."""
    open_page(phone, f"{app_url}/quiz?seed=5")
    phone.get_by_text("so they can raise IDCG@", exact=False).first.wait_for()
    bars = phone.evaluate(TOOLBARS_JS)
    assert len(bars) >= 4 and any(re.search(r"can raise IDCG@\d+\.$", text) for _, _, text in bars), bars
    assert [(top, bottom, text) for top, bottom, text in bars if top < bottom - 0.5] == []
    phone.get_by_text("so they can raise IDCG@", exact=False).first.scroll_into_view_if_needed()
    screenshot(phone, "phone_quiz_table_toolbar", full_page=False)


# Step by step's table of figures as drawn: every shown grid whose first header is "i", as [headers, the width of its
# columns, the width of its box] (the headers from the grid's accessible table; the widths of its scroller).
STEP_TABLES_JS = """() => [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stDataFrame"]')]
  .filter((grid) => grid.checkVisibility() && grid.querySelector('.dvn-scroller'))
  .map((grid) => [[...grid.querySelectorAll('th')].map((th) => th.textContent.trim()),
                  grid.querySelector('.dvn-scroller').scrollWidth, grid.querySelector('.dvn-scroller').clientWidth])
  .filter(([headers]) => headers[0] === 'i')"""


def test_step_by_steps_table_fits_a_phone_without_scrolling_sideways(phone, app_url):
    """On a 390 px phone the walk's table was one grid of eleven columns, 365 px wide in 356 (with long names more),
    NDCG@i and IDCG@i five columns out of view: a phone user could not see a position's figures at once. On a narrow
    page the same columns are split into two grids (the ranking's, the ideal list's and NDCG@i), each of them fits."""
    open_page(phone, f"{app_url}/step_by_step?pos=3")
    wait_for_charts(phone)
    phone.wait_for_function(f"() => ({STEP_TABLES_JS})().length > 0")
    phone.locator('[data-testid="stDataFrame"]').filter(visible=True).first.scroll_into_view_if_needed()
    screenshot(phone, "phone_step_table", full_page=False)
    tables = phone.evaluate(STEP_TABLES_JS)
    assert [(headers, wide, box) for headers, wide, box in tables if wide > box + 1] == [], tables
    shown = {header for headers, _, _ in tables for header in headers}
    assert shown >= {"Doc.", "Grade", "Gain", "Contrib.", "DCG@i", "IDCG@i", "NDCG@i"}, tables
    assert shown & {"Disc.", "Discount"}, tables
    # A wide page keeps the one grid of eleven columns, and it fits there too.
    phone.set_viewport_size({"width": 1280, "height": 720})
    phone.wait_for_function(f"() => ({STEP_TABLES_JS})().some(([headers]) => headers.length === 11)")
    tables = phone.evaluate(STEP_TABLES_JS)
    assert len(tables) == 1 and tables[0][1] <= tables[0][2] + 1, tables


# The open dropdown's options whose text is cut at the menu's edge (its text box narrower than its text): their texts.
CUT_OPTIONS_JS = """() => [...document.querySelectorAll('[role="option"]')].filter((option) => option.checkVisibility())
  .filter((option) => [option, ...option.querySelectorAll('*')].some((el) => el.scrollWidth > el.clientWidth + 1))
  .map((option) => option.textContent)"""


def test_the_list_to_walk_through_shows_whole_titles_on_a_phone(phone, app_url):
    """On a phone five of the dropdown's worked-example titles were cut at the menu's edge, with no ellipsis
    ("000 · The document's code: natural log and the default", "004 · The scikit-learn snippet: ndcg_score(y_true,
    y_scores, k=5)" lost its end): lists could not be told apart. The options now wrap."""
    open_page(phone, f"{app_url}/step_by_step")
    phone.get_by_test_id("stSelectbox").filter(has_text="List to walk through").get_by_role("combobox").tap()
    options = phone.get_by_role("option")
    expect()(options).to_have_count(1 + len(ndcg_core.WORKED_EXAMPLES))
    phone.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
    screenshot(phone, "phone_walk_list_options", full_page=False)
    assert phone.evaluate(CUT_OPTIONS_JS) == []
    # A wrapped option is still one tap: picking the longest title walks that example.
    longest = max(ndcg_core.WORKED_EXAMPLES, key=lambda example: len(example.title))
    options.filter(has_text=longest.title).tap()
    walking = phone.get_by_text(f"Walking {longest.title}", exact=False)
    expect()(walking).to_be_visible()
