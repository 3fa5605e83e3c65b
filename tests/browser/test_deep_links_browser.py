"""Deep links work for the very first visitor of a freshly started server.

Streamlit serves an app with a ``pages/`` folder in its legacy mode until ``st.navigation`` has run once;
that mode only knows pages by file stem. The url paths equal the file stems and ``ui.page_shell``
switches to the app's navigation, so a first visit to ``/step_by_step?...`` shows that page, with the
sidebar and its query parameters, never "Page not found".
"""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import serve_app
from tests.browser.helpers import expect, list_names, screenshot, wait_for_app

pytestmark = pytest.mark.browser


TITLES = {"/step_by_step": "Step by step", "/worked_examples": "Worked examples", "/quiz": "Quiz",
          "/conventions": "Library conventions"}  # each deep link's page, as the sidebar names it


@pytest.fixture
def fresh_app_url():
    """A server of its own for each test: its first visitor is the test."""
    yield from serve_app()


@pytest.mark.parametrize(
    ("path", "expected_text"),
    [
        ("/step_by_step?pos=3", "Position i = 3 of"),
        ("/worked_examples", "Source 003"),
        ("/quiz?seed=7", "Seed"),
        ("/conventions", "scikit-learn"),
    ],
)
def test_first_visit_to_a_deep_link_on_a_fresh_server(page, fresh_app_url, path, expected_text):
    page.goto(fresh_app_url + path)
    wait_for_app(page)
    page.get_by_text(expected_text, exact=False).first.wait_for(timeout=30_000)
    wait_for_app(page)
    body = page.locator("body").inner_text()
    assert "Page not found" not in body
    sidebar = page.locator("[data-testid='stSidebar']").text_content()  # drawn (closed on the Quiz: hidden)
    assert "Learn" in sidebar  # app.py drew its navigation
    assert ("Metric settings" in sidebar) == (not path.startswith("/quiz"))  # the Quiz's questions set their own
    # The app's own navigation (Streamlit's is hidden, see ui/navigation.py) marks the deep-linked page.
    assert page.locator("[data-testid='stSidebarNav']").count() == 0
    page.wait_for_function(
        """(title) => {
             const marked = [...document.querySelectorAll('.st-key-app_nav a')]
               .filter((a) => getComputedStyle(a).backgroundColor !== 'rgba(0, 0, 0, 0)');
             return marked.length === 1 && marked[0].textContent.includes(title);
           }""",
        arg=TITLES[path.split("?")[0]], timeout=15_000,
    )
    assert page.url.startswith(fresh_app_url + path.split("?")[0])
    screenshot(page, f"deep_link{path.split('?')[0].replace('/', '_')}")


def test_the_playground_under_its_own_name_is_the_playground(page, app_url):
    """``/playground`` (the page's name, as a user types it) shows the Playground with the link's list, as ``/``
    does: before, Streamlit answered "Page not found" (the default page lives at the root only)."""
    page.goto(app_url + "/playground?docs=A:3,B:0,C:1")
    wait_for_app(page)
    page.locator(".rl-row").first.wait_for(timeout=30_000)
    wait_for_app(page)
    assert list_names(page) == ["A", "B", "C"]
    assert "Page not found" not in page.locator("body").inner_text()
    assert page.url.startswith(app_url + "/playground")
    nav = page.locator(".st-key-app_nav")
    assert nav.get_by_role("link", name="Playground").count() == 1  # the alias draws no second link
    expect()(nav.locator("a[aria-current='page']")).to_have_text([re.compile(r"Playground$")])
    tints = nav.locator("a").evaluate_all("(links) => links.map((a) => getComputedStyle(a).backgroundColor)")
    assert [tint != "rgba(0, 0, 0, 0)" for tint in tints] == [True] + [False] * (len(tints) - 1)  # as at the root
    assert "Metric settings" in page.locator("[data-testid='stSidebar']").inner_text()
    screenshot(page, "deep_link_playground_alias")
