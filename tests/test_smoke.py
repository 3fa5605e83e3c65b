"""The app starts and every page runs without an exception."""

from pathlib import Path

import pytest

from tests.conftest import app_page_paths, run_page

PAGES = app_page_paths()


def test_every_page_file_is_in_the_navigation():
    assert {"playground", "why_differ", "for_teachers", "live_class", "conventions"} <= set(PAGES)
    assert sorted(PAGES) == sorted(path.stem for path in (Path(__file__).resolve().parents[1] / "pages").glob("*.py"))


@pytest.mark.parametrize("page", PAGES)
def test_page_runs_without_exception(page, live_db):
    at = run_page(page)
    assert not at.exception, at.exception
    assert at.title or at.header or at.subheader, "the page drew nothing"
