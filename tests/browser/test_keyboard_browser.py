"""Every journey with the keyboard alone (issue 15, item 6): Tab, Shift+Tab, Enter, Space and the arrow keys.

No test here clicks, hovers or focuses an element by script: focus moves only by Tab from the page's start,
stopping when the focused element is the one the journey needs (``tab_to``), as a keyboard user does.
After a journey the page's content is audited again (axe-core): the states it leads to must be clean too.
"""

from __future__ import annotations

import re

import pytest

import ndcg_core
from tests.browser.helpers import (
    axe_audit,
    expect,
    expect_ndcg,
    focused_row,
    open_page,
    open_playground,
    screenshot,
    wait_for_app,
    wait_until_settled,
)
from ui.quiz_model import generate_quiz

pytestmark = pytest.mark.browser

GRADES = dict(zip(["D1", "D2", "D3", "D4", "D5"], [3.0, 1.0, 2.0, 0.0, 2.0], strict=True))  # the Playground's default list
MAX_TABS = 300

# The focused element, through the ranked list's shadow root.
FOCUSED = """() => {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  return el;
}"""


def tab_to(tab, test: str, arg=None, *, key: str = "Tab") -> None:
    """Press Tab until the focused element ``el`` passes ``test`` (a JS expression of ``el`` and ``arg``)."""
    check = f"(arg) => {{ const el = ({FOCUSED})(); return !!el && el !== document.body && Boolean({test}); }}"
    for _ in range(MAX_TABS):
        if tab.evaluate(check, arg):  # already there (the last Tab of a journey may have landed on it)
            return
        tab.keyboard.press(key)
    if tab.evaluate(check, arg):
        return
    last = tab.evaluate(f"() => {{ const el = ({FOCUSED})(); return el && el.outerHTML.slice(0, 200); }}")
    raise AssertionError(f"{MAX_TABS} presses of {key} never focused an element where {test} (arg {arg!r}); last: {last}")


def _content_is_clean(tab) -> None:
    blocking = [(v["id"], v["impact"], list(zip(v["nodes"][:3], v["summaries"][:3], strict=True)))
                for v in axe_audit(tab)["content"] if v["impact"] in ("serious", "critical")]
    assert blocking == []


def test_reorder_by_keyboard(page, app_url):
    open_playground(page, app_url)
    tab_to(page, "el.classList.contains('rl-row') && el.querySelector('.rl-name').textContent === arg", "D1")
    page.keyboard.press("Alt+ArrowDown")  # D1 one down; focus follows it
    names = ["D2", "D1", "D3", "D4", "D5"]
    wait_until_settled(page, names, GRADES)
    assert focused_row(page) == "D1"
    page.keyboard.press("ArrowDown")  # plain arrows move the focus between rows: now D3
    page.keyboard.press("Alt+ArrowUp")
    names = ["D2", "D3", "D1", "D4", "D5"]
    wait_until_settled(page, names, GRADES)
    tab_to(page, "el.getAttribute('aria-label') === arg", "Move D4 up")  # the visible ▲ button, by Space
    page.keyboard.press("Space")
    names = ["D2", "D3", "D4", "D1", "D5"]
    wait_until_settled(page, names, GRADES)
    ndcg = ndcg_core.evaluate([GRADES[name] for name in names]).ndcg
    expect()(page.locator(".rl-live")).to_have_text(f"D4 is at rank 3. NDCG is now {ndcg:.4f}.", timeout=15_000)
    screenshot(page, "keyboard_reorder", full_page=False)


def test_edit_a_grade_by_keyboard(page, app_url):
    open_playground(page, app_url)
    tab_to(page, "el.tagName === 'CANVAS'")  # the first data grid: the Grades editor
    for key in ["ArrowDown", "ArrowRight", "ArrowRight", "ArrowRight"] + ["ArrowUp"] * 6:
        page.keyboard.press(key)  # a cell is selected; to the Grade column (the last), then to the first row (D1)
    page.keyboard.type("1")  # typing on a selected cell starts editing it
    expect()(page.locator("textarea.gdg-input")).to_have_value("1")  # the cell's editor is open with the new grade
    page.keyboard.press("Enter")
    grades = [1.0, 1.0, 2.0, 0.0, 2.0]
    expect_ndcg(page, ndcg_core.evaluate(grades).ndcg)
    expect()(page.locator(".rl-row .rl-chip")).to_have_text(["1", "1", "2", "0", "2"])
    screenshot(page, "keyboard_edit_grade", full_page=False)


def test_change_a_setting_in_the_sidebar_by_keyboard(page, app_url):
    open_playground(page, app_url)
    expect_ndcg(page, ndcg_core.evaluate(list(GRADES.values())).ndcg)
    tab_to(page, "el.type === 'radio' && el.closest('[data-testid=\"stSidebar\"]') && el.checked")  # Gain: Exponential
    page.keyboard.press("ArrowDown")  # the next choice of the group: Linear
    wait_for_app(page)
    expect_ndcg(page, ndcg_core.evaluate(list(GRADES.values()), gain="linear").ndcg)
    expect()(page).to_have_url(re.compile(r"[?&]gain=linear(&|$)"), timeout=15_000)  # the URL follows the rerun
    screenshot(page, "keyboard_sidebar_setting", full_page=False)


def test_answer_the_quiz_by_keyboard(page, app_url):
    seed = 7
    compare, estimate = generate_quiz(seed)[:2]
    assert (compare.kind, estimate.kind) == ("compare", "estimate")
    open_page(page, f"{app_url}/quiz?seed={seed}")
    # Question 1: which ranking is better. Tab reaches the first radio; Space picks A, an arrow picks B.
    tab_to(page, "el.type === 'radio' && el.closest('.st-key-quiz_question_1')")
    page.keyboard.press("Space" if compare.best_answer() == "A" else "ArrowRight")
    wait_for_app(page)
    tab_to(page, "el.tagName === 'BUTTON' && el.innerText.trim() === 'Check' && !el.disabled"
                 " && el.closest('.st-key-quiz_question_1')")
    page.keyboard.press("Enter")
    first = page.locator(".st-key-quiz_question_1")
    expect()(first).to_contain_text("Correct!", timeout=15_000)
    expect()(first).to_contain_text("1 point")
    # The Check button is gone: the focus is on the answered question (it fell to the page, and the next Tab
    # started from the top, past the sidebar and every question before).
    page.wait_for_function(f"() => ({FOCUSED})().classList.contains('st-key-quiz_question_1')", timeout=15_000)
    # Question 2: estimate NDCG@k with the slider (0.50 to start, 0.01 per arrow press).
    target = round(estimate.result().ndcg, 2)
    tab_to(page, "el.getAttribute('aria-label') === 'Your estimate' && el.closest('.st-key-quiz_question_2')")
    steps = round((target - 0.5) * 100)
    for _ in range(abs(steps)):
        page.keyboard.press("ArrowRight" if steps > 0 else "ArrowLeft")
    wait_for_app(page)
    slider = page.locator(".st-key-quiz_question_2 input[aria-label='Your estimate']")
    expect()(slider).to_have_value(f"{target:g}")
    tab_to(page, "el.tagName === 'BUTTON' && el.innerText.trim() === 'Check' && el.closest('.st-key-quiz_question_2')")
    page.keyboard.press("Enter")
    second = page.locator(".st-key-quiz_question_2")
    expect()(second).to_contain_text("Spot on!", timeout=15_000)
    page.wait_for_function(f"() => ({FOCUSED})().classList.contains('st-key-quiz_question_2')", timeout=15_000)
    page.keyboard.press("Tab")  # and Tab goes on from there, into what follows question 2 (not the page's top)
    assert page.evaluate(f"() => !({FOCUSED})().closest('[data-testid=\"stSidebar\"]')")
    screenshot(page, "keyboard_quiz")
    _content_is_clean(page)


def test_step_through_every_position_by_keyboard_keeps_the_focus(page, app_url):
    """Enter on "Next" to the last position: "Next" became disabled there and the focus fell to the page (the next
    Tab started from the top). It now reads "Start again" and keeps the focus; Enter goes back to position 1."""
    open_page(page, f"{app_url}/step_by_step")
    size = len(GRADES)  # the Playground's default list, walked here
    tab_to(page, "el.tagName === 'BUTTON' && el.closest('.st-key-step_next')")
    for position in range(2, size + 1):
        page.keyboard.press("Enter")
        expect()(page.get_by_text(f"Position i = {position} of {size}").first).to_be_visible(timeout=15_000)
        wait_for_app(page)
    label = f"() => {{ const el = ({FOCUSED})(); return el.closest('.st-key-step_next') ? el.innerText : null; }}"
    assert "Start again" in (page.evaluate(label) or "")  # the focused element is still that button
    page.keyboard.press("Enter")
    expect()(page.get_by_text(f"Position i = 1 of {size}").first).to_be_visible(timeout=15_000)
    wait_for_app(page)
    assert "Next" in (page.evaluate(label) or "")


def test_run_the_diagnosis_by_keyboard(page, app_url):
    grades, scores = [2, 3, 0, 1, 3, 0], [0.8, 0.7, 0.65, 0.5, 0.4, 0.1]
    sklearn = ndcg_core.CONVENTIONS["sklearn"].evaluate(grades, scores).ndcg
    lightgbm = ndcg_core.CONVENTIONS["lightgbm"].evaluate(grades, scores).ndcg
    open_page(page, f"{app_url}/why_differ")
    fields = [("Grades", ", ".join(map(str, grades))), ("Scores (optional)", ", ".join(map(str, scores))),
              ("First number: where from", "scikit-learn"), ("First number", f"{sklearn:.4f}"),
              ("Second number: where from", "LightGBM"), ("Second number (optional)", f"{lightgbm:.4f}")]
    for label, text in fields:
        tab_to(page, "el.getAttribute('aria-label') === arg", label)
        page.keyboard.press("ControlOrMeta+A")  # the page opens with an example filled in: replace it
        page.keyboard.type(text)
        page.keyboard.press("Tab")  # leaving the field commits it
        wait_for_app(page)
    page.wait_for_url(lambda url: "g=2%2C+3%2C+0%2C+1%2C+3%2C+0" in url and f"rb={lightgbm:.4f}" in url, timeout=30_000)
    explanation = page.locator("[data-testid='stAlertContentInfo']").first
    expect()(explanation).to_contain_text("LightGBM's number", timeout=30_000)
    assert "2^grade − 1" in explanation.inner_text()
    expect()(page.locator("[data-testid='stMain']")).to_contain_text(f"{lightgbm:.4f}")
    screenshot(page, "keyboard_why_differ")
    _content_is_clean(page)


def _choose_file_by_keyboard(tab, path, focus) -> None:
    """Enter on the "Upload" button that ``focus()`` tabs to opens the file chooser; the file is chosen there.
    Headless Chromium on a busy machine sometimes drops the dialog of a second uploader's Enter, or the rerun of the
    first upload redraws the button under the focus (nothing opens): the app is let finish, the button tabbed to and
    Enter pressed again, as a user would."""
    for attempt in range(3):
        wait_for_app(tab)
        focus()
        try:
            with tab.expect_file_chooser(timeout=5_000) as chooser:
                tab.keyboard.press("Enter")
            break
        except Exception:
            if attempt == 2:
                focused = tab.evaluate(f"() => {{ const el = ({FOCUSED})(); return el && el.outerHTML.slice(0, 200); }}")
                raise AssertionError(f"three presses of Enter opened no file chooser; focused: {focused}") from None
    chooser.value.set_files(path)


def test_upload_the_sample_files_by_keyboard_keeps_the_focus(page, app_url):
    """Enter on a Dataset uploader's "Upload" button, then the file chosen: the button gives way to the file's name,
    and the focus fell to the page (a screen reader said nothing; the next Tab went to an invisible input). It lands
    on the uploader, and Tab goes on to the file's remove button; then the run, and the sample's figures."""
    from tests.browser.helpers import ROOT

    open_page(page, f"{app_url}/dataset")
    tab_to(page, "el.type === 'radio' && el.checked && el.closest('.st-key-dataset_source')")  # Bundled sample
    page.keyboard.press("ArrowRight")  # TREC qrels + run
    expect()(page.get_by_text("Qrels (TREC: query 0 doc grade)")).to_be_visible(timeout=15_000)
    wait_for_app(page)
    for key, name in (("dataset_qrels_file", "sample.qrels"), ("dataset_run_files", "run_bm25.txt")):
        _choose_file_by_keyboard(page, ROOT / "data" / name, lambda key=key: tab_to(
            page, "el.tagName === 'BUTTON' && el.innerText.includes('Upload') && el.closest(arg)", f".st-key-{key}"))
        box = f"st-key-{key}_box"
        expect()(page.locator(f".st-key-{key}")).to_contain_text(name, timeout=15_000)
        page.wait_for_function(f"(box) => ({FOCUSED})().classList.contains(box)", arg=box, timeout=15_000)
        page.keyboard.press("Tab")  # into the uploader: past its help icon to the chosen file's remove button
        tab_to(page, "el.getAttribute('aria-label') === arg", f"Remove {name}")
        assert page.evaluate(f"(box) => !!({FOCUSED})().closest('.' + box)", box)
    expect()(page.get_by_text("run: run_bm25.txt")).to_be_visible(timeout=30_000)
    sample = ndcg_core.evaluate_run(ndcg_core.read_run(ROOT / "data" / "run_bm25.txt"),
                                    ndcg_core.read_qrels(ROOT / "data" / "sample.qrels"), gain="exponential").value
    expect()(page.locator("[data-testid='stMetricValue']").first).to_have_text(f"{sample:.4f}", timeout=30_000)
    screenshot(page, "keyboard_dataset_upload", full_page=False)


def test_add_a_row_by_keyboard_keeps_the_focus_in_the_grades_table(page, app_url):
    """Enter on the Grades table's "Add row": the table restarts with the new row (its Rank column renumbered), and
    the focus fell to the page with the old table; the next Tab went on past the table. It lands on the new table's
    grid, where the arrows reach the new row (D6, grade 0) and its grade is typed."""
    open_playground(page, app_url)
    tab_to(page, "el.getAttribute('aria-label') === 'Add row' && el.closest('.st-key-playground_editor_0')")
    page.keyboard.press("Enter")
    expect()(page.locator(".rl-row .rl-name")).to_have_text(["D1", "D2", "D3", "D4", "D5", "D6"], timeout=15_000)
    # in the new table's grid (its key counts the restarts): the canvas, or the cell of it the grid focuses
    page.wait_for_function(f"() => !!({FOCUSED})().closest('.st-key-playground_editor_1 [data-testid=data-grid-canvas]')",
                           timeout=15_000)
    for key in ["ArrowDown", "ControlOrMeta+ArrowDown", "ArrowRight", "ArrowRight", "ArrowRight"]:
        page.keyboard.press(key)  # a cell is selected, then the last row (the new one), then its Grade column
    page.keyboard.type("3")
    expect()(page.locator("textarea.gdg-input")).to_have_value("3")
    page.keyboard.press("Enter")
    expect_ndcg(page, ndcg_core.evaluate([*GRADES.values(), 3.0]).ndcg)
    expect()(page.locator(".rl-row .rl-chip")).to_have_text(["3", "1", "2", "0", "2", "3"])


def test_open_the_settings_and_close_them_again_by_keyboard_at_200_percent_zoom(page, app_url):
    """At 200 % zoom (a 720 px wide page) the sidebar starts closed. Enter on "Expand sidebar" opened it, but the
    button went away with the focus, and the next Tab went on into the page, past the settings; and its close button
    shows on hover only, so a keyboard user could not close the sidebar that now covered half the page. The focus
    goes to the sidebar's first link, the close button is reachable while the focus is in the sidebar, and closing
    gives the focus back to "Expand sidebar"."""
    page.set_viewport_size({"width": 720, "height": 450})
    open_playground(page, app_url)
    tab_to(page, "el.getAttribute('aria-label') === 'Expand sidebar'")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => !!({FOCUSED})().closest('.st-key-app_nav')", timeout=15_000)
    assert page.evaluate(f"() => ({FOCUSED})().innerText.includes('Playground')")  # the first link
    tab_to(page, "el.type === 'radio' && el.closest('[data-testid=\"stSidebar\"]') && el.checked")  # Gain
    page.keyboard.press("ArrowDown")  # Linear
    expect_ndcg(page, ndcg_core.evaluate(list(GRADES.values()), gain="linear").ndcg)
    tab_to(page, "el.getAttribute('aria-label') === 'Collapse sidebar'", key="Shift+Tab")
    page.keyboard.press("Enter")
    expect()(page.get_by_test_id("stSidebar")).to_have_attribute("data-collapsed", "true", timeout=15_000)
    page.wait_for_function(f"() => ({FOCUSED})().getAttribute('aria-label') === 'Expand sidebar'", timeout=15_000)
    screenshot(page, "keyboard_sidebar_at_200_percent", full_page=False)
