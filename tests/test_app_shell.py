"""The legacy pages/ mode on a fresh server, handled on public API by ui.page_shell (no conftest fixture here)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import ROOT


@pytest.fixture(autouse=True)
def server_pages_mode():
    """Override conftest's fixture: here every run starts in Streamlit's legacy pages/ mode, as a fresh server does."""
    yield


@pytest.mark.parametrize(("page", "params", "expected"), [
    ("step_by_step", {"pos": "3"}, "Position i = 3 of"),
    ("quiz", {"seed": "7"}, "Quiz"),
    ("conventions", {}, "Why libraries disagree"),
])
def test_a_page_run_without_app_py_goes_through_it(page, params, expected):
    """In the legacy mode the page's script runs on its own; page_shell reruns it through app.py (sidebar, URL)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    at.run()
    for name, value in params.items():
        at.query_params[name] = value
    at.switch_page(f"pages/{page}.py")  # the next run starts in the legacy mode (AppTest resets the flag)
    at.run()
    assert not at.exception
    # app.py's sidebar ran: its navigation, and the settings on the pages that use them (not the Quiz's)
    assert [caption.value for caption in at.sidebar.caption][:1] == ["Learn"]
    assert [header.value for header in at.sidebar.header] == ([] if page == "quiz" else ["Metric settings"])
    shown = " ".join(str(element.value) for kind in ("title", "header", "subheader", "markdown") for element in getattr(at, kind))
    assert expected in shown
    for name, value in params.items():
        assert at.query_params[name] in (value, [value])
