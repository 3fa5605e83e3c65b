"""The app starts and every page runs without an exception."""

import re
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


STORAGE_NAME = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")  # how the source documents are stored, not what they are called


@pytest.mark.parametrize("page", PAGES)
def test_no_page_names_a_source_document_by_its_storage_file_name(page, live_db):
    """Step by step's lessons cited "001_7b77f9f41f0adfb3.txt" and "the code of 000_0bdd5abdb117b00b.txt" where the
    Worked examples page and the worksheet say "Source 001 · …": students cannot map the one to the other."""
    at = run_page(page)
    shown = [str(getattr(element, "value", "")) for kind in ("markdown", "caption", "text", "info", "warning", "error",
                                                              "success", "subheader", "header", "title")
             for element in getattr(at, kind)]
    shown += [str(getattr(widget, "help", "") or "") for kind in ("text_input", "text_area", "selectbox", "slider")
              for widget in getattr(at, kind)]
    assert [text for text in shown if STORAGE_NAME.search(text)] == []
