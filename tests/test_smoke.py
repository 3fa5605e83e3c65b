"""The app starts and every page runs without an exception."""

from pathlib import Path
from unittest import mock

import pytest

from tests.conftest import run_page
from ui import navigation
from ui.live import schema


def app_page_paths() -> list[str]:
    """Every page of the app, from its own navigation (ui/navigation.app_pages), so a new page is covered."""
    with mock.patch.object(navigation.st, "Page", lambda page, **options: options["url_path"]):
        return [path for group in navigation.app_pages().values() for path in group]


PAGES = app_page_paths()


@pytest.fixture
def live_db(tmp_path, monkeypatch):
    """The Live class page needs a database (as in tests/test_live_page.py): a throwaway SQLite file."""
    url = f"sqlite:///{tmp_path / 'live.sqlite3'}"
    monkeypatch.setenv("NDCG_LIVE_DB_URL", url)
    engine = schema.create_engine(url)
    schema.migrate(engine)
    yield engine
    engine.dispose()


def test_every_page_file_is_in_the_navigation():
    assert {"playground", "why_differ", "for_teachers", "live_class", "conventions"} <= set(PAGES)
    assert sorted(PAGES) == sorted(path.stem for path in (Path(__file__).resolve().parents[1] / "pages").glob("*.py"))


@pytest.mark.parametrize("page", PAGES)
def test_page_runs_without_exception(page, live_db):
    at = run_page(page)
    assert not at.exception, at.exception
    assert at.title or at.header or at.subheader, "the page drew nothing"
