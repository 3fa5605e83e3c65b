"""Accessibility in Chromium (issue 15, item 6): the app's own navigation, an axe-core audit of every page,
the ranked list's live region, grade chips that carry their number.

The audit runs axe-core (bundled by ``axe-playwright-python``) once per page over the whole document and splits
what it finds into the app's content (``stMain``) and everything else, Streamlit's chrome (sidebar with the app's
navigation and settings, header, toolbar). Serious and critical violations fail the test in both; the full list (every impact) is
written to ``screenshots/axe_report.json`` for reading. The pages audited are the ones the sidebar links to,
and a separate check ties those links to the files in ``pages/``, so a new page is audited as soon as it exists.
"""

from __future__ import annotations

import json
import re

import pytest

import ndcg_core
from tests.browser.helpers import (
    ROOT,
    SCREENSHOTS,
    axe_audit,
    expect,
    go_to_page,
    list_names,
    open_page,
    open_playground,
    row,
    screenshot,
    wait_for_app,
    wait_for_charts,
    wait_until_settled,
)

pytestmark = pytest.mark.browser

NAV = ".st-key-app_nav"
BLOCKING = {"serious", "critical"}
GROUPS = {"Learn": ["Playground", "Step by step", "Worked examples", "Quiz", "Live class", "For teachers"],
          "Evaluate": ["Dataset", "Compare rankers", "Library conventions", "Why do my numbers differ?"]}
GRADES = dict(zip(["D1", "D2", "D3", "D4", "D5"], [3.0, 1.0, 2.0, 0.0, 2.0], strict=True))  # the Playground's default list


def _nav_links(tab) -> list[dict]:
    """The sidebar navigation's links in order: text, path, and whether it is drawn as the current page.

    Waits for one link per file in ``pages/`` first: the sidebar can draw after the page's own content, and read
    at once it had no links (one CI run).
    """
    expect()(tab.locator(NAV).locator("a")).to_have_count(len(list((ROOT / "pages").glob("*.py"))), timeout=30_000)
    return tab.evaluate(
        """(selector) => [...document.querySelectorAll(selector + ' a')].map((a) => ({
             text: a.innerText.trim().split('\\n').pop(), path: new URL(a.href).pathname,
             current: getComputedStyle(a).backgroundColor !== 'rgba(0, 0, 0, 0)',
           }))""",
        NAV,
    )


def _blocking(violations: list[dict]) -> list[str]:
    return [f"{v['id']} ({v['impact']}): {v['help']} at {v['nodes'][:3]}" for v in violations if v["impact"] in BLOCKING]


# --- the navigation ---------------------------------------------------------------------------------------------

def test_the_sidebar_navigation_is_the_apps_own_grouped_with_the_current_page_marked(page, app_url):
    open_playground(page, app_url)
    assert page.locator("[data-testid='stSidebarNav']").count() == 0  # Streamlit's generated nav is gone
    lines = [line.strip() for line in page.locator(NAV).inner_text().splitlines() if line.strip()]
    # Each group's caption, then its pages in order, and nothing else: the sidebar reads as the table of contents.
    assert [line for line in lines if line in GROUPS or any(line in titles for titles in GROUPS.values())] == [
        entry for group, titles in GROUPS.items() for entry in (group, *titles)]
    links = _nav_links(page)
    assert [link["text"] for link in links] == [title for titles in GROUPS.values() for title in titles]
    stems = sorted(path.stem for path in (ROOT / "pages").glob("*.py"))
    assert sorted(link["path"].strip("/") or "playground" for link in links) == stems  # every page, once
    assert [link["text"] for link in links if link["current"]] == ["Playground"]
    # Marked for assistive technology too (aria-current), not only by colour, and only that link.
    expect()(page.locator(NAV).locator("a[aria-current='page']")).to_have_text([re.compile(r"Playground$")])
    screenshot(page, "a11y_nav_playground", full_page=False)
    # Enter on a focused link opens its page, which becomes the marked one. The focused link has its own outline
    # (its tint was the current page's, so focus and "you are here" looked alike).
    page.locator(NAV).get_by_role("link", name="Library conventions").focus()
    assert page.locator(NAV).get_by_role("link", name="Library conventions").evaluate(
        "(a) => getComputedStyle(a).outlineStyle") == "solid"
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile("/conventions"), timeout=30_000)
    page.get_by_role("heading", name="Why libraries disagree on the same input").first.wait_for(timeout=30_000)
    wait_for_app(page)
    expect()(page.locator(NAV).get_by_role("link", name="Library conventions")).to_be_visible()
    assert [link["text"] for link in _nav_links(page) if link["current"]] == ["Library conventions"]
    expect()(page.locator(NAV).locator("a[aria-current='page']")).to_have_text([re.compile(r"Library conventions$")])
    assert "Metric settings" in page.locator("[data-testid='stSidebar']").inner_text()
    screenshot(page, "a11y_nav_conventions", full_page=False)


def test_on_a_phone_choosing_a_page_closes_the_sidebar(phone, app_url):
    """As Streamlit's own nav does: the open sidebar covers a phone's screen, so choosing a page closes it."""
    tab = phone
    open_page(tab, app_url + "/")
    link = tab.locator(NAV).get_by_role("link", name="Quiz")
    tab.locator("[data-testid='stExpandSidebarButton']").first.tap()
    expect()(link).to_be_in_viewport()
    screenshot(tab, "a11y_nav_phone_open", full_page=False)
    link.tap()
    tab.wait_for_url(re.compile("/quiz"), timeout=30_000)
    tab.get_by_role("heading", name="Quiz").first.wait_for(timeout=30_000)
    expect()(link).not_to_be_in_viewport(timeout=10_000)  # the sidebar slid away
    expect()(tab.get_by_role("heading", name="Quiz").first).to_be_in_viewport()
    screenshot(tab, "a11y_nav_phone_after", full_page=False)


def _tab_stops(tab, count: int) -> list[tuple[str, bool]]:
    """The next ``count`` elements Tab focuses: (their accessible text, whether they are in the sidebar)."""
    stops = []
    for _ in range(count):
        tab.keyboard.press("Tab")
        stops.append(tuple(tab.evaluate("""() => { const a = document.activeElement;
            return [(a.getAttribute('aria-label') || a.innerText || '').trim().slice(0, 40),
                    !!a.closest('[data-testid=stSidebar]')]; }""")))
    return stops


def test_a_closed_sidebar_is_not_in_the_tab_order_and_an_open_one_is(phone, app_url):
    """On a phone the sidebar starts closed, out of view, yet its ten links, the Present mode switch and its help
    button were the first 13 Tab stops (Why differ): a keyboard user tabbed through controls they could not see."""
    tab = phone
    open_page(tab, app_url + "/why_differ")
    tab.get_by_role("heading", name="Why do my NDCG numbers differ?").first.wait_for(timeout=30_000)
    # the closed sidebar leaves the Tab order once it is out of view: its links turn hidden 0.3 s after it closes
    tab.wait_for_function("() => { const bar = document.querySelector('[data-testid=\"stSidebar\"]');"
                          " return !!bar && getComputedStyle(bar).visibility === 'hidden'; }", timeout=30_000)
    stops = _tab_stops(tab, 6)
    assert not [text for text, in_sidebar in stops if in_sidebar], stops
    assert "Expand sidebar" in [text for text, _ in stops[:3]]
    tab.locator("[data-testid='stExpandSidebarButton']").first.tap()  # opened, its links are the next stops
    link = tab.locator(NAV).get_by_role("link", name="Quiz")
    expect()(link).to_be_in_viewport()
    tab.locator(NAV).get_by_role("link", name="Playground").focus()
    assert [text.split("\n")[-1] for text, _ in _tab_stops(tab, 3)] == ["Step by step", "Worked examples", "Quiz"]
    screenshot(tab, "a11y_sidebar_open_keyboard", full_page=False)


# --- the axe audit ----------------------------------------------------------------------------------------------

def test_every_page_passes_axe_with_no_serious_or_critical_violation(page, app_url):
    open_playground(page, app_url)
    paths = [link["path"] for link in _nav_links(page)]
    assert len(paths) >= 9
    report, content_problems, chrome_problems = {}, {}, {}
    for path in paths:
        if path != "/":  # the Playground is open; the others through the sidebar (no page load each)
            go_to_page(page, path.strip("/"))
        wait_for_charts(page)
        page.locator("h1").first.wait_for(timeout=30_000)
        found = axe_audit(page)
        report[path] = found
        if _blocking(found["content"]):
            content_problems[path] = _blocking(found["content"])
        if _blocking(found["chrome"]):
            chrome_problems[path] = _blocking(found["chrome"])
    SCREENSHOTS.mkdir(exist_ok=True)
    (SCREENSHOTS / "axe_report.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    counts = {path: {part: len(v) for part, v in parts.items()} for path, parts in report.items()}
    print("axe violations of any impact, per page:", counts)
    assert content_problems == {}, f"the app's content: {content_problems}"
    # Headings follow the page's outline (h1, then h2 sections, h3 parts): the Playground's "Grades", Dataset's "Per
    # query", Compare's "Ranking A" and six more pages' first sections were h3 or h4 right under the title.
    skipped = {path: [v["nodes"][:2] for v in parts["content"] if v["id"] == "heading-order"]
               for path, parts in report.items()}
    assert {path: nodes for path, nodes in skipped.items() if nodes} == {}
    assert chrome_problems == {}, f"Streamlit's chrome (sidebar, header): {chrome_problems}"
    # The audit can fail, and sorts what it finds: an image with no text put into the page and one into the sidebar.
    page.evaluate("""() => {
      for (const [where, id] of [['stMain', 'probe-content'], ['stSidebar', 'probe-chrome']]) {
        const img = document.createElement('img');
        img.id = id; img.src = 'data:image/gif;base64,R0lGODlhAQABAAAAACw='; img.width = img.height = 8;
        document.querySelector(`[data-testid='${where}']`).prepend(img);
      }
    }""")
    probed = {part: [node for v in found if v["id"] == "image-alt" for node in v["nodes"]]
              for part, found in axe_audit(page).items()}
    assert probed == {"content": [["#probe-content"]], "chrome": [["#probe-chrome"]]}


# --- the ranked list: live region and chips ---------------------------------------------------------------------

def test_a_move_is_announced_with_the_new_rank_and_then_the_new_ndcg(page, app_url):
    open_playground(page, app_url)
    live = page.locator(".rl-live")
    assert live.get_attribute("aria-live") == "polite"
    row(page, "D1").focus()
    page.keyboard.press("Alt+ArrowDown")
    names = ["D2", "D1", "D3", "D4", "D5"]
    wait_until_settled(page, names, GRADES)
    ndcg = ndcg_core.evaluate([GRADES[name] for name in names]).ndcg
    expect()(live).to_have_text(f"D1 is at rank 2. NDCG is now {ndcg:.4f}.", timeout=15_000)
    # Under a cutoff the announcement names it: NDCG@k.
    open_playground(page, app_url, "?k=2&docs=D1:3,D2:1,D3:2,D4:0,D5:2")
    row(page, "D3").focus()
    page.keyboard.press("Alt+ArrowUp")
    names = ["D1", "D3", "D2", "D4", "D5"]
    wait_until_settled(page, names, GRADES, k=2)
    ndcg = ndcg_core.evaluate([GRADES[name] for name in names], k=2).ndcg
    expect()(page.locator(".rl-live")).to_have_text(f"D3 is at rank 2. NDCG@2 is now {ndcg:.4f}.", timeout=15_000)


def test_a_new_ndcg_from_a_button_an_edit_or_a_setting_is_announced(page, app_url):
    """Only moves of the list were announced: after "Ideal order", "Reverse" or a new cutoff (or a grade edit, which
    takes the same path: new figures from the server, no move pending) a screen-reader user heard nothing while the
    cards changed."""
    open_playground(page, app_url)
    live = page.locator(".rl-live")
    page.get_by_role("button", name="Ideal order").click()
    expect()(live).to_have_text("NDCG is now 1.0000.", timeout=15_000)
    page.get_by_role("button", name="Reverse").click()
    reverse = ndcg_core.evaluate(sorted(GRADES.values())).ndcg
    expect()(live).to_have_text(f"NDCG is now {reverse:.4f}.", timeout=15_000)
    cutoff = page.get_by_role("spinbutton", name="Cutoff k (empty = whole list)")
    cutoff.fill("2")
    cutoff.press("Enter")
    at_2 = ndcg_core.evaluate(sorted(GRADES.values()), k=2).ndcg
    expect()(live).to_have_text(f"NDCG@2 is now {at_2:.4f}.", timeout=15_000)
    row(page, "D4").focus()  # a move still says where the document went first
    page.keyboard.press("Alt+ArrowDown")
    names = ["D2", "D4", "D5", "D3", "D1"]  # Reverse of the ideal order was D4, D2, D5, D3, D1
    wait_until_settled(page, names, GRADES, k=2)
    moved = ndcg_core.evaluate([GRADES[name] for name in names], k=2).ndcg
    expect()(live).to_have_text(f"D4 is at rank 2. NDCG@2 is now {moved:.4f}.", timeout=15_000)


def test_under_predict_first_a_move_is_announced_with_the_question_not_the_new_ndcg(page, app_url):
    """Under Predict first the new NDCG is hidden until guessed; after a move a screen-reader user heard only "D1 is
    at rank 2." and not that a guess was asked above the list. The list says the question (with the old value, never
    the new one), and the new NDCG once the guess is revealed."""
    open_playground(page, app_url)
    live = page.locator(".rl-live")
    page.get_by_role("switch", name="Predict first").press("Space")
    expect()(page.get_by_role("switch", name="Predict first")).to_be_checked(timeout=15_000)
    wait_for_app(page)
    row(page, "D1").focus()
    page.keyboard.press("Alt+ArrowDown")
    names = ["D2", "D1", "D3", "D4", "D5"]
    old = ndcg_core.evaluate(list(GRADES.values())).ndcg
    new = ndcg_core.evaluate([GRADES[name] for name in names]).ndcg
    expect()(live).to_have_text(f"D1 is at rank 2. Predict first: NDCG was {old:.4f}; what is it now? Type your guess "
                                "above the list, then Reveal.", timeout=15_000)
    assert f"{new:.4f}" not in live.inner_text()
    page.get_by_role("button", name="Reveal").press("Enter")
    expect()(live).to_have_text(f"NDCG is now {new:.4f}.", timeout=15_000)


def test_step_by_step_reads_out_the_new_position(page, app_url):
    """Next changed the position's numbers on screen and told a screen-reader user nothing."""
    from ui.formatting import num

    open_page(page, f"{app_url}/step_by_step")
    spoken = page.locator(".ndcg-spoken")
    expect()(spoken).to_have_attribute("role", "status")
    table = ndcg_core.evaluate(list(GRADES.values())).table
    for position in (1, 2):
        row_ = table.iloc[position - 1]
        expect()(spoken).to_have_text(
            f"Position {position} of 5: D{position}, grade {num(row_['relevance'])}, contributes "
            f"{num(row_['contribution'])}. DCG@{position} = {num(row_['cumulative_dcg'])}, NDCG@{position} = "
            f"{num(row_['ndcg_at_rank'])}.", timeout=15_000)
        if position == 1:
            spoken.evaluate("(e) => { e.dataset.kept = 'yes'; }")
            page.get_by_role("button", name="Next").click()
    # The same live region with new words (a new one would be read as it appears, or not at all, by screen readers)
    assert spoken.get_attribute("data-kept") == "yes"
    assert spoken.bounding_box()["width"] <= 1  # not on screen


def test_a_chart_has_words_for_screen_readers_that_take_no_room(page, app_url):
    """The charts had no text alternative (only the tables beside some of them)."""
    open_playground(page, app_url)
    wait_for_charts(page)
    words = page.locator(".ndcg-chart-words")
    expect()(words).to_have_count(1)
    expect()(words).to_contain_text("Chart: Contribution of each position. x: Rank i, y: gain ÷ discount. Your "
                                    "ranking (1: 7, 2: 0.6309, 3: 1.5, 4: 0, 5: 1.161)")
    container = words.locator("xpath=ancestor::*[@data-testid='stElementContainer'][1]")
    assert container.evaluate("(e) => getComputedStyle(e).position") == "absolute"  # no gap in the column
    assert words.bounding_box()["height"] <= 1
    chart = page.locator('[data-testid="stPlotlyChart"]').first
    column = chart.locator("xpath=ancestor::*[@data-testid='stColumn'][1]").bounding_box()
    assert chart.bounding_box()["y"] - column["y"] < 2  # the chart is still at its column's top: no gap above it


def test_grade_chips_carry_their_number_not_only_a_colour(page, app_url):
    open_playground(page, app_url, "?docs=A:0,B:1,C:2.5,D:3,E:4")
    chips = page.locator(".rl-row .rl-chip")
    expect()(chips).to_have_text(["0", "1", "2.5", "3", "4"])
    assert list_names(page) == ["A", "B", "C", "D", "E"]
    colours = {chip.evaluate("(el) => getComputedStyle(el).backgroundColor") for chip in chips.all()}
    assert len(colours) == 5  # the colour is a second carrier, the number the first
    for name, grade in zip("ABCDE", ["0", "1", "2.5", "3", "4"], strict=True):
        assert f"grade {grade}" in row(page, name).get_attribute("aria-label")


def test_a_focused_table_toolbar_button_is_visible(page, app_url):
    """The grade table's toolbar (add row, download, search, fullscreen) is shown on hover only: a keyboard user
    tabbed through five invisible buttons per table, with nothing on screen saying where the focus was."""
    open_playground(page, app_url)
    toolbar = page.get_by_test_id("stElementToolbar").filter(has=page.get_by_role("button", name="Add row")).first
    toolbar.get_by_role("button").first.focus()  # as Tab reaches it
    page.wait_for_function("(bar) => bar.matches(':focus-within') && getComputedStyle(bar).opacity === '1'",
                           arg=toolbar.element_handle(), timeout=5_000)


@pytest.mark.parametrize("path", ["worked_examples", "for_teachers"])
def test_on_a_phone_a_table_that_scrolls_sideways_can_be_reached_and_scrolled_by_keyboard(phone, app_url, path):
    """The worked examples' and the teacher kit's tables are wider than a phone and scroll inside their box, which
    no key could reach (axe, serious: scrollable-region-focusable, on 4 tables of each page). The box now has a tab
    stop while it scrolls, and the arrow keys scroll it. (The worked examples' tables now fit a phone, see
    test_teaching_browser.py: none scrolls there, and the page is audited all the same.)"""
    tab = phone
    open_page(tab, f"{app_url}/{path}")
    tab.locator("[data-testid='stTable']").first.wait_for(timeout=30_000)
    wait_for_charts(tab)
    if path != "worked_examples":
        boxes = tab.locator("[data-testid='stTable'] > div[role='region']")
        expect()(boxes.first).to_have_attribute("tabindex", "0", timeout=15_000)
    found = axe_audit(tab)
    assert _blocking(found["content"]) == [] and _blocking(found["chrome"]) == []
    if path == "worked_examples":
        assert tab.locator("[data-testid='stTable'] > div[role='region']").count() == 0  # nothing scrolls: no tab stop
        return
    box = boxes.first
    box.focus()
    tab.keyboard.press("ArrowRight")
    tab.wait_for_function("(box) => box.scrollLeft > 0", arg=box.element_handle(), timeout=5_000)
    # On a wide screen the same tables fit: no tab stop that scrolls nothing.
    tab.set_viewport_size({"width": 1440, "height": 900})
    tab.wait_for_function("() => document.querySelectorAll(\"[data-testid='stTable'] > div[role='region']\").length === 0",
                          timeout=10_000)
