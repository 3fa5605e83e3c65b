"""The app starts and every page runs without an exception."""

import pytest

from tests.conftest import run_page

PAGES = ["playground", "step_by_step", "worked_examples", "quiz", "dataset", "compare", "conventions"]


@pytest.mark.parametrize("page", PAGES)
def test_page_runs_without_exception(page):
    at = run_page(page)
    assert not at.exception, at.exception
