"""The "Why do my numbers differ?" page in Chromium: a LightGBM-vs-scikit-learn pair typed by a user is explained."""

from __future__ import annotations

import pytest

from ndcg_core import CONVENTIONS
from tests.browser.conftest import screenshot, wait_for_app
from tests.browser.helpers import rerun

pytestmark = pytest.mark.browser

GRADES = [2, 3, 0, 1, 3, 0]
SCORES = [0.8, 0.7, 0.65, 0.5, 0.4, 0.1]


def _fill(tab, label: str, text: str) -> None:
    """Type ``text`` into a field and leave it (Tab commits a Streamlit text widget's value), and wait for the
    rerun that follows; a field that already holds ``text`` (the example's source names) is left as it is."""
    field = tab.get_by_label(label, exact=True)
    if field.input_value() == text:
        return
    with rerun(tab):
        field.click()
        field.fill(text)
        field.press("Tab")


@pytest.mark.parametrize("device", ["page", "phone"])  # a 1400x900 screen and a 390x844 touch phone
def test_lightgbm_against_scikit_learn_is_explained(request, app_url, device):
    tab = request.getfixturevalue(device)
    viewport = tab.viewport_size
    tab.goto(app_url + "/why_differ")
    wait_for_app(tab)
    tab.get_by_text("Why do my NDCG numbers differ?").first.wait_for(timeout=30_000)
    sklearn_value = CONVENTIONS["sklearn"].evaluate(GRADES, SCORES).ndcg
    lightgbm_value = CONVENTIONS["lightgbm"].evaluate(GRADES, SCORES).ndcg
    _fill(tab, "Grades", ", ".join(map(str, GRADES)))
    _fill(tab, "Scores (optional)", ", ".join(map(str, SCORES)))
    _fill(tab, "First number: where from", "scikit-learn")
    _fill(tab, "First number", f"{sklearn_value:.4f}")
    _fill(tab, "Second number: where from", "LightGBM")
    _fill(tab, "Second number (optional)", f"{lightgbm_value:.4f}")
    # The page opens on its own LightGBM-vs-scikit-learn example (other grades: 0.9602 and 0.9686), so the words
    # alone prove nothing: the explanation must be of the typed numbers.
    assert (f"{sklearn_value:.4f}", f"{lightgbm_value:.4f}") == ("0.8672", "0.7908")
    explanation = tab.locator("[data-testid='stAlertContentInfo']").first
    text = explanation.inner_text()
    assert "LightGBM's number" in text and "2^grade − 1" in text and "the grade itself" in text
    body = tab.locator("[data-testid='stMain']").inner_text()
    assert "0.9602" not in body and "0.9686" not in body  # nothing left of the example
    assert "0.8672" in body and "0.7908" in body and "LightGBM ndcg metric" in body
    assert "g=2%2C+3%2C+0" in tab.url or "g=2,+3" in tab.url or "g=2%2C%203" in tab.url
    screenshot(tab, f"why_differ_lightgbm_sklearn_{viewport['width']}", full_page=device == "page")  # a phone: 3x pixels
    tab.get_by_text("The calculations side by side").scroll_into_view_if_needed()
    tab.locator("[data-testid='stDataFrame']").first.wait_for(timeout=10_000)
    screenshot(tab, f"why_differ_side_by_side_{viewport['width']}", full_page=device == "page")
    if device == "page":  # each calculation's table is whole on a laptop (one table of both hid the second's columns)
        tab.wait_for_function("() => document.querySelectorAll('[data-testid=\"stMain\"] .dvn-scroller').length >= 2")
        overflow = tab.evaluate("() => [...document.querySelectorAll('[data-testid=\"stMain\"] .dvn-scroller')]"
                                ".map((grid) => grid.scrollWidth - grid.clientWidth)")
        assert len(overflow) == 2 and max(overflow) <= 1, overflow


def test_uploaded_outputs_with_an_off_by_one_discount_are_diagnosed(page, app_url, tmp_path):
    from tests.test_battery import TREC, outputs_of

    outputs = outputs_of({**TREC, "discount": "log2_shifted"}, truncate=True)
    upload = tmp_path / "my_ndcg_outputs.csv"
    upload.write_text("case,ndcg\n" + "\n".join(f"{case},{value!r}" for case, value in outputs.items()) + "\n")
    page.goto(app_url + "/why_differ")
    wait_for_app(page)
    page.get_by_text("Check my implementation").first.wait_for(timeout=30_000)
    page.locator("[data-testid='stFileUploaderDropzoneInput']").set_input_files(str(upload))
    verdict = page.get_by_text("off-by-one discount (log2(rank + 2)) (13 cases)", exact=False).first
    verdict.wait_for(timeout=60_000)
    wait_for_app(page)
    assert "match trec_eval ndcg_cut on 3 of 16 cases" in page.locator("[data-testid='stMain']").inner_text()
    page.get_by_text("Where your outputs differ from").first.scroll_into_view_if_needed()
    screenshot(page, "why_differ_check_off_by_one")


def test_share_link_with_ties_shows_the_tie_band(page, app_url):
    from urllib.parse import urlencode

    grades, scores, ids = [3, 0, 1, 2], [0.9, 0.9, 0.4, 0.4], ["A12", "B07", "C33", "D01"]
    sklearn_value = CONVENTIONS["sklearn"].evaluate(grades, scores).ndcg
    trec_value = CONVENTIONS["trec_eval"].evaluate(grades, scores, doc_ids=ids).ndcg
    query = urlencode({"g": "3, 0, 1, 2", "s": "0.9, 0.9, 0.4, 0.4", "d": "A12, B07, C33, D01", "a": "scikit-learn",
                       "ra": f"{sklearn_value:.4f}", "b": "trec_eval", "rb": f"{trec_value:.4f}"})
    page.goto(f"{app_url}/why_differ?{query}")
    wait_for_app(page)
    page.get_by_text("The tie band").first.wait_for(timeout=30_000)
    explanation = page.locator("[data-testid='stAlertContentInfo']").first.inner_text()
    assert "trec_eval's number" in explanation and "document id" in explanation
    page.get_by_text("The tie band").first.scroll_into_view_if_needed()
    page.wait_for_selector(".js-plotly-plot", timeout=30_000)  # charts draw after the script has run
    assert page.locator(".js-plotly-plot").count() == 1
    screenshot(page, "why_differ_tie_band")


def test_the_battery_verdict_changes_one_live_region_in_place(page, app_url):
    """The verdict of pasted outputs appeared below the box, where the focus stays after Ctrl+Enter, and a screen
    reader said nothing. The live region under the box is there before, and its words change in place (a region
    drawn anew is not read out by screen readers)."""
    page.goto(app_url + "/why_differ")
    wait_for_app(page)
    spoken = page.locator(".ndcg-spoken")
    spoken.wait_for(state="attached", timeout=30_000)
    assert spoken.inner_text() == "No outputs checked yet."
    spoken.evaluate("(e) => { e.dataset.kept = 'yes'; }")
    box = page.get_by_label("…or paste them", exact=True)
    with rerun(page):
        box.fill("plain,0.9608\nties,0.6979")
        box.press("ControlOrMeta+Enter")
    page.wait_for_function("() => document.querySelector('.ndcg-spoken').innerText.startsWith('Your outputs match')",
                           timeout=30_000)
    assert spoken.inner_text().startswith("Your outputs match trec_eval ndcg_cut on all 2 cases it computes.")
    assert spoken.get_attribute("data-kept") == "yes" and spoken.get_attribute("aria-live") == "polite"
