"""Shared fixtures: AppTest for a page of the app."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"


def run_page(page: str | None = None, *, query_params: dict | None = None, timeout: float = 30) -> AppTest:
    """Run ``app.py`` (the real entry point with its sidebar) and switch to ``pages/<page>.py``."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    for name, value in (query_params or {}).items():
        at.query_params[name] = value
    at.run()
    if page is not None:
        at.switch_page(f"pages/{page}.py")
        at.run()
    return at


@pytest.fixture
def app_page():
    """``app_page("playground")`` returns an AppTest that has run that page."""
    return run_page
