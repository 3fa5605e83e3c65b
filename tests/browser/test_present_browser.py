"""Projector fit, Present mode and "show what changed" in a real browser (Playwright + Debian Chromium).

At 1280x720 and 1920x1080, with and without Present mode, the Playground's four cards, ranked list and chart
are inside the viewport without scrolling; in Present mode at 1920x1080 every label, delta and caption is at
least 20 px; after a move the chart holds the previous state's ghost bars (values from ndcg_core) and the
NDCG change, and the moved row flashes and is in view. Screenshots of every page in Present mode at both sizes.
"""

from __future__ import annotations

import pytest

import ndcg_core
from tests.browser.helpers import (
    LIST_ROOT_JS,
    expect,
    go_to_page,
    list_names,
    moved,
    open_page,
    screenshot,
    wait_for_app,
    wait_for_charts,
    wait_for_list,
    wait_until_settled,
)

pytestmark = pytest.mark.browser

SIZES = [(1280, 720), (1920, 1080)]
G = [3, 1, 2, 0, 2]
NAMES = ["D1", "D2", "D3", "D4", "D5"]
PAGES = ["", "step_by_step", "worked_examples", "quiz", "live_class", "dataset", "compare", "conventions", "why_differ"]

BOXES_JS = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  const root = """ + LIST_ROOT_JS + """;
  return {
    cards: [...document.querySelectorAll('[data-testid="stMetric"]')].map(box),
    list: box(root),
    chart: box(document.querySelector('[data-testid="stPlotlyChart"]')),
    picker: box(document.querySelector('[data-testid="stMain"] [data-testid="stButtonGroup"]')),
    scrolled: document.querySelector('[data-testid="stMain"]').scrollTop,
  };
}"""

STABLE_JS = """(js) => new Promise((resolve) => {
  // The layout once two successive animation frames agree (fonts, the grid and the chart have settled).
  const read = eval(js);
  let last = null;
  const tick = () => {
    const now = JSON.stringify(read());
    if (now === last) resolve(JSON.parse(now)); else { last = now; requestAnimationFrame(tick); }
  };
  requestAnimationFrame(tick);
})"""


@pytest.fixture(params=SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def sized(page, request):
    page.set_viewport_size({"width": request.param[0], "height": request.param[1]})
    return page, request.param


def open_playground(tab, app_url: str, *, present: bool) -> None:
    open_page(tab, f"{app_url}/{'?present=1' if present else ''}")
    tab.wait_for_selector(".rl-row", timeout=60_000)  # generous: the suite shares two cores with other jobs
    tab.wait_for_function("() => document.querySelectorAll('[data-testid=\"stMetric\"]').length === 4",
                          timeout=60_000)
    wait_for_charts(tab)
    tab.wait_for_function(  # app.py's styles (and Present mode's) have applied: the page starts near the top
        "() => document.querySelector('h1').getBoundingClientRect().top < 100", timeout=15_000)


def stable_boxes(tab) -> dict:
    return tab.evaluate(STABLE_JS, f"({BOXES_JS})")


def assert_inside(box: dict, width: int, height: int, what: str) -> None:
    assert box["top"] >= 0 and box["left"] >= 0, (what, box)
    assert box["bottom"] <= height and box["right"] <= width, (what, box, (width, height))


@pytest.mark.parametrize("present", [False, True], ids=["normal", "present"])
def test_cards_list_and_chart_fit_one_screen(sized, app_url, present):
    tab, (width, height) = sized
    open_playground(tab, app_url, present=present)
    boxes = stable_boxes(tab)
    screenshot(tab, f"present_fit_{'present' if present else 'normal'}_{width}x{height}", full_page=False)
    assert boxes["scrolled"] == 0
    assert len(boxes["cards"]) == 4
    for card in boxes["cards"]:
        assert_inside(card, width, height, "card")
    assert_inside(boxes["list"], width, height, "ranked list")
    assert_inside(boxes["chart"], width, height, "chart")
    # and the chart's view picker under it (Contribution / Cumulative / Gain ÷ discount): it was cut at 720 px
    assert_inside(boxes["picker"], width, height, "chart view picker")
    assert boxes["picker"]["top"] >= boxes["chart"]["bottom"] - 1
    assert boxes["chart"]["left"] >= boxes["list"]["right"] - 1  # beside the list
    # the delta line is reserved: a card is as tall before the first change as after it
    before = boxes["cards"][3]["bottom"] - boxes["cards"][3]["top"]
    tab.locator(".rl-row").nth(1).locator(".rl-down").click()
    wait_until_settled(tab, ["D1", "D3", "D2", "D4", "D5"], dict(zip(NAMES, map(float, G), strict=True)))
    tab.wait_for_function("() => [...document.querySelectorAll('[data-testid=\"stMetricDelta\"]')]"
                          ".some((el) => el.textContent.includes('0.0'))")
    after = stable_boxes(tab)
    assert after["cards"][3]["bottom"] - after["cards"][3]["top"] == pytest.approx(before, abs=0.5)
    assert_inside(after["chart"], width, height, "chart after a move")


SIZES_JS = """() => {
  const size = (el) => parseFloat(getComputedStyle(el).fontSize);
  const all = (selector) => [...document.querySelectorAll(selector)].filter((el) => el.textContent.trim());
  const root = """ + LIST_ROOT_JS + """;
  return {
    captions: all('[data-testid="stCaptionContainer"]').map(size),
    metric_labels: all('[data-testid="stMetricLabel"] p').map(size),
    deltas: all('[data-testid="stMetricDelta"]').map(size),
    widget_labels: all('[data-testid="stWidgetLabel"] p').map(size),
    buttons: all('[data-testid="stMain"] button p').map(size),
    list_text: [...root.querySelectorAll('.rl-help, .rl-h, .rl-name, .rl-contrib, .rl-rank-text')].map(size),
  };
}"""


def test_present_mode_text_is_at_least_20px_at_1920(page, app_url):
    tab = page
    tab.set_viewport_size({"width": 1920, "height": 1080})
    open_playground(tab, app_url, present=False)
    normal = tab.evaluate(SIZES_JS)
    assert min(normal["captions"]) < 20  # the normal mode is smaller: the check below can fail
    open_playground(tab, app_url, present=True)
    sizes = tab.evaluate(SIZES_JS)
    svg_text = tab.evaluate("""() => [...document.querySelectorAll('[data-testid="stPlotlyChart"] .xtick text, '
      + '[data-testid="stPlotlyChart"] .ytick text, [data-testid="stPlotlyChart"] .legendtext')]
      .map((el) => parseFloat(el.style.fontSize))""")
    for kind, values in {**sizes, "chart_text": svg_text}.items():
        assert values, kind
        assert min(values) >= 20, (kind, values)


GHOST_JS = """() => {
  const plot = document.querySelector('[data-testid="stPlotlyChart"] .js-plotly-plot');
  const trace = plot && plot.data.find((t) => t.name === 'before');
  // Normal mode writes the change on the chart; Present mode makes it the chart's title (ui/present.py).
  const note = plot && ((plot.layout.annotations || []).find((a) => a.text.includes('NDCG')) || plot.layout.title);
  return trace ? {y: Array.from(trace.y), x: Array.from(trace.x), note: note && note.text,
                  drawn: plot.querySelectorAll('.barlayer .trace').length} : null;
}"""


def test_predict_first_keeps_the_list_in_place_after_a_move(sized, app_url):
    """With "Predict first" on, a move swaps the cards for the guess box: stacked (question, guess, button, caption)
    it was 101-146 px taller, so the list jumped down under the pointer and a second press at the same place hit
    the text above it. Present mode at both sizes; the list's top moves by at most 12 px."""
    tab, (width, height) = sized
    open_playground(tab, app_url, present=True)
    switch = tab.get_by_role("switch", name="Predict first")
    for _ in range(3):  # a click that lands while the page is still drawing can be lost: click until it holds
        tab.get_by_text("Predict first", exact=True).first.click()
        wait_for_app(tab)
        if switch.is_checked():
            break
    expect()(switch).to_be_checked()
    before = tab.locator(".rl-row").first.bounding_box()["y"]
    down = tab.locator(".rl-row").first.locator(".rl-down")
    down_box = down.bounding_box()
    names = list_names(tab)
    down.click()
    wait_for_list(tab, moved(names, names[0], 1))  # the move was made and the server has it
    tab.locator(".st-key-playground_predict_box").wait_for(timeout=15_000)
    wait_for_app(tab)
    after = tab.locator(".rl-row").first.bounding_box()["y"]
    assert abs(after - before) <= 12, (before, after)
    # A second press where the first one was still lands on a ▼ (now D2's, at rank 1)
    hit = tab.evaluate("([x, y]) => document.elementFromPoint(x, y)?.closest('[data-testid]')?.dataset.testid ?? null",
                       [down_box["x"] + down_box["width"] / 2, down_box["y"] + down_box["height"] / 2])
    assert hit == "stBidiComponentIsolated", hit  # the ranked list's component, not the text above it
    screenshot(tab, f"present_predict_box_{width}x{height}", full_page=False)


FLASH_KEYFRAMES_JS = """(row) => {
  const root = row.getRootNode();
  const rules = [...root.styleSheets, ...(root.adoptedStyleSheets || [])].flatMap((sheet) => [...sheet.cssRules]);
  const name = getComputedStyle(row, "::after").animationName;
  const frames = rules.find((rule) => rule instanceof CSSKeyframesRule && rule.name === name);
  return frames ? [...frames.cssRules].map((frame) => [...frame.style]) : null;
}"""


@pytest.mark.parametrize("present", [False, True], ids=["normal", "present"])
def test_ghost_bars_and_the_moved_row_after_a_move(sized, app_url, present):
    tab, (width, height) = sized
    open_playground(tab, app_url, present=present)
    assert tab.evaluate(GHOST_JS) is None  # nothing changed yet
    tab.locator(".rl-row").nth(3).locator(".rl-up").click()  # D4 (grade 0) up to rank 3
    order = ["D1", "D2", "D4", "D3", "D5"]
    wait_until_settled(tab, order, dict(zip(NAMES, map(float, G), strict=True)))
    tab.wait_for_function(f"() => ({GHOST_JS})() !== null", timeout=15_000)
    ghost = tab.evaluate(GHOST_JS)
    before, after = ndcg_core.evaluate(G), ndcg_core.evaluate([3, 1, 0, 2, 2])
    assert ghost["y"] == pytest.approx(before.table["contribution"].tolist(), abs=1e-9)
    assert ghost["x"] == [1, 2, 3, 4, 5]
    assert f"NDCG {before.ndcg:.4f} → {after.ndcg:.4f} (−{before.ndcg - after.ndcg:.4f})" in ghost["note"]
    assert "NDCG 0.9508 → 0.9316 (−0.0192)" in ghost["note"]  # by hand: DCG 10.0835 / IDCG 10.8235
    moved = tab.locator(".rl-row").filter(has=tab.locator(".rl-name").get_by_text("D4", exact=True))
    assert "flash" in moved.get_attribute("class") and "moved" in moved.get_attribute("class")
    # The flash fades a ring's opacity, which the compositor animates without repainting: the properties each
    # keyframe of the ring's animation sets (an animated box-shadow repainted the page every frame for 1.6 s).
    assert moved.evaluate(FLASH_KEYFRAMES_JS) == [["opacity"], ["opacity"]]
    # (A moved row is scrolled into view: test_a_row_moved_past_the_screens_edge_is_scrolled_into_view; here the
    # whole list fits the screen.)
    screenshot(tab, f"present_ghost_{'present' if present else 'normal'}_{width}x{height}", full_page=False)


SMALL_TEXT_JS = """() => {
  // Every element that draws text of its own (shadow roots included) under 20 px: [size, its test id or class, text].
  // Not checked: KaTeX formulas and plotly's SVG (sized apart), tooltips not open, hidden parts; canvas grids.
  const out = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) walk(el.shadowRoot);
      const shown = el.tagName === 'INPUT' ? el.value.trim() : [...el.childNodes].some((node) => node.nodeType === 3 && node.textContent.trim());
      if (!shown) continue;  // (an input's text is its value, e.g. a link to copy)
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || el.closest('[aria-hidden="true"], .katex, svg')) continue;
      const box = el.getBoundingClientRect();
      if (!box.width || !box.height || parseFloat(style.fontSize) >= 20) continue;
      out.push([parseFloat(style.fontSize), String(el.dataset.testid || el.className || el.tagName), (el.value || el.textContent).trim().slice(0, 40)]);
    }
  };
  walk(document);
  return out;
}"""


# Page links in the sidebar whose label is cut off (ellipsis): the label's text is wider than its box (a collapsed
# sidebar, as on the Live class page, has boxes of no width: not counted).
CUT_NAV_LABELS_JS = """() => [...document.querySelectorAll('[data-testid="stSidebar"] [data-testid="stPageLink-NavLink"]')]
  .filter(link => [...link.querySelectorAll('span, p')].some(el => el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1))
  .map(link => link.innerText.trim())"""


# The page's first heading's text where the user sees it: the top of its first line is not under Streamlit's header
# (opaque when the sidebar is closed, 86 px tall at 1920 in Present mode; the Live class's "Join at" and its class
# code were cut by it). Returns what covers it, or null.
HEADING_COVERED_JS = """() => {
  const heading = document.querySelector('[data-testid="stMain"] :is(h1, h2)');
  if (!heading) return null;
  const range = document.createRange();
  range.selectNodeContents(heading);
  const line = range.getClientRects()[0];
  const hit = document.elementFromPoint(line.left + 4, line.top + 2);
  return hit && heading.contains(hit) ? null : (hit ? hit.closest('[data-testid]')?.dataset.testid ?? hit.tagName : 'nothing');
}"""


def test_every_page_and_chart_in_present_mode(sized, app_url):
    """A teacher's tour in Present mode, page to page through the sidebar (Present mode must stay on): no page
    raises, no sidebar label is cut, and at 1920x1080 no text on any page (sidebar, page, ranked lists) is under
    20 px. Every chart (the Playground's three views, Step by step, Dataset, Compare's two modes) has Present mode's
    larger text with nothing cut (the cumulative chart's y title was), and the Playground's plot is not squeezed by
    its legend (it had a third of the chart's height at 1280x720). Screenshots of every page and chart to look at."""
    tab, (width, height) = sized
    open_playground(tab, app_url, present=True)
    for path in PAGES:
        if path:
            go_to_page(tab, path)
        assert "present=1" in tab.url, path
        wait_for_charts(tab)
        tab.wait_for_function("() => !document.querySelector('[data-testid=\"stSkeleton\"]')", timeout=30_000)
        tab.wait_for_function("() => getComputedStyle(document.documentElement).fontSize === "
                              f"'{max(17.0, min(28.0, width * 0.012)):g}px'")
        assert tab.locator('[data-testid="stException"]').count() == 0, path
        if width == 1920:
            assert tab.evaluate(SMALL_TEXT_JS) == [], path
        assert tab.evaluate(CUT_NAV_LABELS_JS) == [], path  # the larger text wraps in the sidebar, never "Why do my…"
        assert tab.evaluate(HEADING_COVERED_JS) is None, path
        screenshot(tab, f"present_page_{path or 'playground'}_{width}x{height}", full_page=False)
        if path == "":
            _playground_charts_fit(tab, width, height)
        elif path in ("step_by_step", "dataset", "compare"):
            _page_charts_fit(tab, path, width, height)
        if path == "step_by_step":  # the nine lessons' tabs are all in view beside the open sidebar (they wrap; the
            # last ones had scrolled out of view)
            assert tab.evaluate("() => { const list = document.querySelector('[data-testid=\"stMain\"] [role=tablist]');"
                                " const box = list.getBoundingClientRect();"
                                " return list.scrollWidth - list.clientWidth <= 1 && [...list.querySelectorAll('[role=tab]')]"
                                ".every((t) => t.getBoundingClientRect().right <= box.right + 1); }")
        if path == "compare":  # Compare's second mode: two runs on the data set
            tab.get_by_text("Two runs on the data set", exact=True).click()
            tab.wait_for_function("() => [...document.querySelectorAll('[data-testid=\"stPlotlyChart\"] .gtitle')]"
                                  ".some((t) => t.textContent.startsWith('Bootstrap'))", timeout=30_000)
            _page_charts_fit(tab, "compare runs", width, height)


def test_a_row_moved_past_the_screens_edge_is_scrolled_into_view(page, app_url):
    """Alt+↓ on the last row fully on screen: the row goes below the edge, and the list brings it back in view."""
    tab = page
    tab.set_viewport_size({"width": 1280, "height": 720})
    grades = [3, 2, 3, 0, 1, 2, 0, 1, 0, 2, 1, 0]
    names = [f"D{i}" for i in range(1, 13)]
    open_page(tab, f"{app_url}/?docs=" + ",".join(f"{n}:{g}" for n, g in zip(names, grades, strict=True)))
    tab.wait_for_selector(".rl-row", timeout=30_000)
    wait_for_charts(tab)
    rows = tab.locator(".rl-row")
    last = max(i for i in range(12) if (box := rows.nth(i).bounding_box()) and box["y"] + box["height"] <= 720)
    assert last < 11  # the list runs past the bottom of the screen
    name = names[last]
    rows.nth(last).evaluate("(row) => row.focus({ preventScroll: true })")
    tab.keyboard.press("Alt+ArrowDown")
    order = names[:last] + [names[last + 1], name] + names[last + 2:]
    wait_until_settled(tab, order, dict(zip(names, map(float, grades), strict=True)))
    moved = tab.locator(".rl-row").filter(has=tab.locator(".rl-name").get_by_text(name, exact=True))
    assert "flash" in moved.get_attribute("class")
    box = moved.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 720, box


# Every drawn chart's text: [what, its box, its size], and the chart's own box and its plot area's.
CHART_TEXT_JS = """() => [...document.querySelectorAll('[data-testid="stPlotlyChart"]')]
  .filter((chart) => chart.getBoundingClientRect().width > 0).map((chart) => {
    const box = (el) => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
    const texts = [...chart.querySelectorAll('.gtitle, .g-gtitle text, [class^="g-"][class$="title"] text, .legendtext, '
      + '.xtick text, .ytick text, .y2tick text, .annotation-text')].filter((el) => el.textContent.trim());
    const title = chart.querySelector('.gtitle');
    return {
      svg: box(chart.querySelector('.main-svg')), plot: box(chart.querySelector('.nsewdrag')),
      title: title ? title.textContent : null,
      texts: texts.map((el) => [el.textContent, box(el), parseFloat(getComputedStyle(el).fontSize),
                                el.classList.contains('annotation-text')]),
    };
  })"""


# Tick labels of one axis that sit on each other: [axis, first label, second label] for each such pair.
TICKS_ON_EACH_OTHER_JS = """() => [...document.querySelectorAll('[data-testid="stPlotlyChart"] .main-svg')].flatMap((svg) =>
  [...svg.querySelectorAll('.xaxislayer-above, .yaxislayer-above')].flatMap((axis) => {
    const labels = [...axis.querySelectorAll('.xtick text, .ytick text')].filter((el) => el.textContent.trim())
      .map((el) => [el.textContent, el.getBoundingClientRect()]);
    const pairs = [];
    labels.forEach(([a, ra], i) => labels.slice(i + 1).forEach(([b, rb]) => {
      if (Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left) > 1
          && Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top) > 1) pairs.push([a, b]);
    }));
    return pairs;
  }))"""


def assert_charts_fit(tab, where: str) -> list[dict]:
    """Every chart's text is inside the chart (nothing cut) and at least Present mode's 20 px (labels on the plot,
    such as "k = 5" or "mean 0.745", 18 px: ui/present.py); no two tick labels of an axis overlap."""
    charts = tab.evaluate(CHART_TEXT_JS)
    assert charts, where
    assert tab.evaluate(TICKS_ON_EACH_OTHER_JS) == [], where  # Compare's 0, 1, …, 13 did at 1280x720
    for chart in charts:
        svg = chart["svg"]
        for text, box, size, on_plot in chart["texts"]:
            assert size >= (18 if on_plot else 20), (where, text, size)
            inside = (box["left"] >= svg["left"] - 1 and box["right"] <= svg["right"] + 1
                      and box["top"] >= svg["top"] - 1 and box["bottom"] <= svg["bottom"] + 1)
            assert inside, (where, f"{text!r} is cut", box, svg)
        # The title stands clear of every other text (the Dataset histogram's "mean 0.745" sat on it at 1280x720).
        titles = [(text, box) for text, box, _size, _on_plot in chart["texts"] if text == chart["title"]]
        for title, title_box in titles[:1]:
            for text, box, _size, _on_plot in chart["texts"]:
                if text != title:
                    assert not _overlap(title_box, box), (where, f"{text!r} overlaps the title {title!r}")
    return charts


def _overlap(a: dict, b: dict) -> bool:
    return min(a["right"], b["right"]) - max(a["left"], b["left"]) > 1 and min(a["bottom"], b["bottom"]) - max(
        a["top"], b["top"]) > 1


def _playground_charts_fit(tab, width: int, height: int) -> None:
    for choice in ("Contribution", "Cumulative", "Gain ÷ discount"):
        if choice != "Contribution":
            title = tab.locator('[data-testid="stPlotlyChart"] .gtitle').first.text_content()
            tab.get_by_role("radio", name=choice).click()
            tab.wait_for_function("(title) => { const t = document.querySelector('[data-testid=\"stPlotlyChart\"] .gtitle');"
                                  " return t && t.textContent !== title; }", arg=title, timeout=30_000)
            wait_for_charts(tab)
        (chart,) = assert_charts_fit(tab, f"Playground, {choice}")
        plot, svg = chart["plot"], chart["svg"]
        # (the squeezed plot had a third of the height; at 1280x720 the 330-px chart, short enough for its view
        # picker to fit the screen too, gives the "Gain ÷ discount" plot 0.39 of it under its two-row legend)
        assert plot["bottom"] - plot["top"] >= 0.38 * (svg["bottom"] - svg["top"]), (choice, plot, svg)
        screenshot(tab, f"present_chart_playground_{choice.split()[0].lower()}_{width}x{height}", full_page=False)


def _page_charts_fit(tab, name: str, width: int, height: int) -> None:
    wait_for_charts(tab)
    tab.wait_for_function("() => document.querySelectorAll('[data-testid=\"stPlotlyChart\"] .main-svg').length >= 2",
                          timeout=30_000)
    assert_charts_fit(tab, name)
    tab.locator('[data-testid="stPlotlyChart"]').first.scroll_into_view_if_needed()
    screenshot(tab, f"present_chart_{name.replace(' ', '_')}_{width}x{height}", full_page=False)


# Whether each name's first letter is drawn inside its (clipped) cell: a name cut to the column must keep its start.
NAME_STARTS_SHOWN_JS = """() => {
  const root = """ + LIST_ROOT_JS + """;
  return [...root.querySelectorAll('.rl-name')].map((cell) => {
    const range = document.createRange();
    range.setStart(cell.firstChild, 0);
    range.setEnd(cell.firstChild, 1);
    const first = range.getBoundingClientRect(), box = cell.getBoundingClientRect();
    return [cell.textContent, first.left >= box.left - 0.5 && first.right <= box.right + 0.5,
            cell.scrollWidth > cell.clientWidth];
  });
}"""


def test_a_right_to_left_name_cut_to_the_column_keeps_its_start(page, app_url):
    """In Present mode at 1280x720 the list showed 'מסמך888607' (a Hebrew document id) as '888607ך…': laid out left to
    right, the cut took the Hebrew word and left the digits. Each name is now laid out in its own direction."""
    page.set_viewport_size({"width": 1280, "height": 720})
    # (ids longer than the column holds: it was ~5 characters wide, and holds 12 since the list is wider)
    names = ["מסמך888607123456", "وثيقة220235123456", "Zoë189749123456", "doc712271123456"]
    docs = ",".join(f"{name}:{grade}" for name, grade in zip(names, [1, 4, 0, 3], strict=True))
    open_page(page, f"{app_url}/?present=1&docs={docs}")
    wait_for_list(page, names)
    shown = page.evaluate(NAME_STARTS_SHOWN_JS)
    assert [name for name, _, _ in shown] == names
    assert all(cut for _, _, cut in shown), shown  # every name is cut here: the check below can fail
    assert [name for name, start_shown, _ in shown if not start_shown] == [], shown
    screenshot(page, "present_rtl_names_1280")


def test_the_ranked_lists_names_are_readable_in_present_mode_at_1280(page, app_url):
    """At 1280x720 in Present mode (sidebar open) the ranked list's Name column was 62 px, about five characters:
    "doc712271" read "doc71…" and ids could not be told apart on the projector. The list's column is now a little
    wider than the chart's (it was the narrower), and ids of up to 12 characters are shown whole; the cards, list,
    chart and its picker still fit the screen (test_cards_list_and_chart_fit_one_screen)."""
    page.set_viewport_size({"width": 1280, "height": 720})
    names = ["doc712271", "clueweb_0042", "msmarco_1875", "wiki_ndcg_01", "D5"]
    docs = ",".join(f"{name}:{grade}" for name, grade in zip(names, [3, 1, 2, 0, 2], strict=True))
    open_page(page, f"{app_url}/?present=1&docs={docs}")
    wait_for_list(page, names)
    screenshot(page, "present_names_1280x720", full_page=False)
    shown = page.evaluate(NAME_STARTS_SHOWN_JS)
    assert [name for name, _, _ in shown] == names
    assert [name for name, _, cut in shown if cut] == [], shown


FIGURE_CELLS_JS = """(text) => [...document.querySelectorAll('[data-testid="stTable"] td')]
  .filter((cell) => cell.innerText.trim() === text)
  .map((cell) => {
    const text = cell.querySelector('p') || cell;
    return {lines: Math.round(text.getBoundingClientRect().height / parseFloat(getComputedStyle(text).lineHeight)),
            overflow: cell.closest('table').scrollWidth > cell.closest('table').parentElement.clientWidth + 1};
  })"""


def test_a_worked_examples_figure_is_not_broken_across_lines_in_present_mode(page, app_url):
    """At 1366x768 in Present mode (sidebar open) document 000's 'Worst NDCG@5' card showed the document's
    0.5664478625498256 on one line and the reproduced 0.5664478625498256 as "0.56644786254982" over "56": the two
    figures a student compares digit by digit. Each figure now stays on one line, and no table overflows its card."""
    tab = page
    tab.set_viewport_size({"width": 1366, "height": 768})
    open_page(tab, f"{app_url}/worked_examples?present=1")
    expect()(tab.locator("[data-testid='stTable'] td", has_text="0.5664478625498256")).to_have_count(2)
    cells = tab.evaluate(FIGURE_CELLS_JS, "0.5664478625498256")
    assert len(cells) == 2  # stated and reproduced
    assert [cell["lines"] for cell in cells] == [1, 1], cells
    assert not any(cell["overflow"] for cell in cells), cells
    tab.locator("[data-testid='stTable'] td", has_text="0.5664478625498256").first.scroll_into_view_if_needed()
    screenshot(tab, "present_worked_example_figures_1366", full_page=False)
