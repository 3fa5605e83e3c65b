"""What a person typed or picked on a page is still there after a visit to another page.

Streamlit forgets a widget's value when another page runs, unless the widget is drawn with
``persist_state="session"`` (Streamlit 1.67). Before the fix every row below came back reset after opening the
Playground and returning: the numbers typed on "Why do my numbers differ?" empty, Dataset's tie rule trec_eval
again, Compare in its other mode, Step by step at position 1, a lesson's grades back to their example. The change
is sent as the browser sends it (the widget's value in the session state); tests/browser/test_navigation_browser.py
checks the same in Chromium, where the page switch is the browser's.
"""

from __future__ import annotations

import pytest

from tests.conftest import app_page_paths, run_page

CASES = [
    ("why_differ", "why_number_2", "0.5"),
    ("why_differ", "why_k", "3"),
    ("why_differ", "why_grades", "1, 0, 2"),
    ("dataset", "dataset_ties", "average"),
    ("dataset", "dataset_missing", "zero"),
    ("dataset", "dataset_order", "worst"),
    ("compare", "compare_mode", "runs"),
    ("conventions", "conventions_case", "all_zero"),
    ("step_by_step", "step_position", 3),
    ("step_by_step", "lesson_cutoff_grades", "1, 2, 3"),
    ("step_by_step", "lesson_cutoff_k", 4),
    ("quiz", "quiz_reveal", True),
    ("live_class", "live_join_code", "ABC"),
]


@pytest.mark.parametrize(("page", "key", "value"), CASES, ids=[f"{page}-{key}" for page, key, _ in CASES])
def test_an_input_survives_a_visit_to_other_pages(page, key, value):
    at = run_page(page)
    at.session_state[key] = value
    at.run()
    assert not at.exception and at.session_state[key] == value
    for other in ("playground", "dataset" if page != "dataset" else "quiz"):
        at.switch_page(f"pages/{other}.py").run()
        assert not at.exception, at.exception
    at.switch_page(f"pages/{page}.py").run()
    assert not at.exception, at.exception
    assert at.session_state[key] == value
    shown = [widget for widget in at.main if getattr(widget, "key", None) == key]  # drawn with the kept value
    assert shown and shown[0].value == value


def test_the_why_page_explains_the_numbers_typed_before_the_visit():
    at = run_page("why_differ")
    at.text_input(key="why_number_1").input("0.985")
    at.text_area(key="why_grades").input("3, 2, 0, 1")
    at.run()
    explained = at.info[0].value if at.info else ""
    at.switch_page("pages/playground.py").run()
    at.switch_page("pages/why_differ.py").run()
    assert at.text_input(key="why_number_1").value == "0.985"
    assert (at.info[0].value if at.info else "") == explained


KINDS = ("selectbox", "radio", "text_input", "text_area", "number_input", "toggle", "checkbox", "slider",
         "select_slider", "multiselect")
# Widgets whose value the page pushes from its typed state object in every run (ui/state.py): nothing to keep.
FROM_TYPED_STATE = {"playground_predict", "playground_score_mode", "playground_tie_rule"}


def persist_scope(at, key: str) -> str | None:
    """The ``persist_state`` a drawn widget was given (Streamlit keeps it in the widget's metadata, server side)."""
    state = at.session_state._state._state  # AppTest's SafeSessionState around the SessionState
    widget_id = state._key_id_mapper.get_id_from_key(key)
    return state._new_widget_state.widget_metadata[widget_id].persist_state


@pytest.mark.parametrize("path", app_page_paths())
def test_every_input_a_page_draws_outlives_a_visit_elsewhere(path):
    """A widget drawn without persist_state="session" loses its value the first time the user looks at another
    page (unless the page sets it from its typed state in every run)."""
    at = run_page(path)
    keys = {widget.key for kind in KINDS for widget in getattr(at.main, kind) if widget.key}
    keys |= {element.key for element in at.main.get("button_group") if getattr(element, "key", None)}
    assert {key: persist_scope(at, key) for key in sorted(keys - FROM_TYPED_STATE)} == dict.fromkeys(
        sorted(keys - FROM_TYPED_STATE), "session")
