"""Hostile document names stay text, and two students never see each other's data (real browser).

The names arrive the way a prankster would send them: inside a share link. The page must show them literally:
no dialog opens, no injected script or event handler runs, no ``<img src=x>`` element appears anywhere in the
DOM (shadow roots included), and markdown in a name is not rendered (no bold, no javascript: link).
"""

from __future__ import annotations

from urllib.parse import quote

import pytest

import ndcg_core
from tests.browser.helpers import go_to_page, rerun, screenshot, wait_for_app

pytestmark = pytest.mark.browser


def expect(locator):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


IMG_NAME = "<img src=x onerror=alert(1)>"
MARKDOWN_NAME = "**bold** [link](javascript:alert(1))"
SCRIPT_NAME = "<script>window.__pwned = 1</script>"
HANDLER_NAME = '"><svg onload="window.__pwned = 2">'
HOSTILE = (IMG_NAME, MARKDOWN_NAME, SCRIPT_NAME, HANDLER_NAME)
GRADES = (3, 2, 1, 0)

# Walks the document and every open shadow root (components v2 may render into one).
DOM_SCAN = """
() => {
  const found = {imgX: 0, svg: 0, scripts: 0, boldText: 0, javascriptLinks: 0, text: ""};
  const walk = (root) => {
    found.imgX += root.querySelectorAll('img[src="x"]').length;
    found.svg += [...root.querySelectorAll('svg[onload]')].length;
    found.scripts += [...root.querySelectorAll('script')].filter(s => s.textContent.includes('__pwned')).length;
    found.boldText += [...root.querySelectorAll('strong, b')].filter(e => e.textContent.trim() === 'bold').length;
    found.javascriptLinks += [...root.querySelectorAll('a[href]')]
      .filter(a => a.getAttribute('href').trim().toLowerCase().startsWith('javascript')).length;
    found.text += ' ' + (root === document ? document.body.innerText : root.textContent);
    root.querySelectorAll('*').forEach(e => { if (e.shadowRoot) walk(e.shadowRoot); });
  };
  walk(document);
  found.pwned = window.__pwned === undefined ? null : window.__pwned;
  return found;
}
"""


def hostile_link(app_url: str) -> str:
    """The share link the Playground itself would give for this list (ui.state.playground_link)."""
    from ui.state import playground_link

    return app_url + playground_link(HOSTILE, GRADES)


@pytest.fixture
def dialogs(page):
    """The message of every dialog (alert, confirm, prompt) the page opens during the test, each dismissed."""
    messages: list[str] = []

    def on_dialog(dialog) -> None:
        messages.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    yield messages
    page.remove_listener("dialog", on_dialog)  # the tab goes on to the next test


def assert_inert(tab, dialogs: list[str], *, names_shown: bool = True) -> dict:
    # An injected <img src=x onerror> would have fired by the time our own <img src=x> probe has failed to load
    # (the same URL, the same 404), so wait for the probe instead of a fixed time.
    tab.evaluate(
        "() => new Promise((done) => { const probe = new Image();"
        " probe.onerror = probe.onload = () => requestAnimationFrame(() => done()); probe.src = 'x'; })"
    )
    scan = tab.evaluate(DOM_SCAN)
    assert dialogs == [], f"a dialog opened: {dialogs}"
    assert scan["pwned"] is None, "an injected script or event handler ran"
    assert scan["imgX"] == 0, "an <img src=x> element was created from a document name"
    assert scan["svg"] == 0, "an <svg onload> element was created from a document name"
    assert scan["scripts"] == 0
    assert scan["boldText"] == 0, "markdown in a document name was rendered as bold"
    assert scan["javascriptLinks"] == 0, "markdown in a document name became a javascript: link"
    if names_shown:
        for name in HOSTILE:
            assert name in scan["text"], f"{name!r} is not shown literally"
    return scan


def test_hostile_names_from_a_share_link_are_shown_as_text(page, app_url, dialogs):
    page.goto(hostile_link(app_url))
    wait_for_app(page)
    page.wait_for_selector(".rl-row", timeout=30_000)
    assert page.locator(".rl-row .rl-name").all_inner_texts() == list(HOSTILE)
    expected = ndcg_core.evaluate(list(GRADES)).ndcg
    card = page.locator('[data-testid="stMetric"]').filter(has_text="NDCG").locator('[data-testid="stMetricValue"]')
    assert card.inner_text() == f"{expected:.4f}"
    assert_inert(page, dialogs)
    screenshot(page, "security_playground_hostile_names")

    # Reorder (the names travel through the component again) and hover the rows.
    page.get_by_role("button", name="Reverse").click(timeout=60_000)
    wait_for_app(page)
    expect(page.locator(".rl-row .rl-name")).to_have_text(list(reversed(HOSTILE)), timeout=30_000)
    for row in page.locator(".rl-row").all():
        row.hover()
    assert_inert(page, dialogs)


def test_a_malformed_link_echoed_in_a_warning_is_not_rendered(page, app_url, dialogs):
    """The warning about an unusable link quotes the bad part: it must stay text, not become a link or bold text.

    The Why-differ page quotes a bad cutoff back (``got '...'``), so markdown in it reaches the warning."""
    for typed, markup in (("[x](//evil.example)", "a"), ("**bold**", "strong")):
        page.goto(f"{app_url}/why_differ?g=3,2,1&cut={quote(typed)}")
        wait_for_app(page)
        warning = page.get_by_test_id("stAlertContentWarning").filter(has_text="could not be used")
        expect(warning).to_contain_text(f"got '{typed}'", timeout=30_000)  # the text itself, every character
        assert warning.locator(markup).count() == 0, f"{typed} was rendered as <{markup}>"
        assert page.locator('a[href*="evil.example"]').count() == 0, "text from the link became a clickable link"
        assert_inert(page, dialogs, names_shown=False)
    screenshot(page, "security_malformed_link_warning")


def test_hostile_names_on_the_step_by_step_page(page, app_url, dialogs):
    """The Playground's list is walked on the Step-by-step page: the names stay text there too."""
    page.goto(hostile_link(app_url))
    wait_for_app(page)
    page.wait_for_selector(".rl-row", timeout=30_000)
    go_to_page(page, "step_by_step")
    page.wait_for_selector("h1:has-text('Step by step')", timeout=30_000)
    screenshot(page, "security_step_by_step")
    scan = assert_inert(page, dialogs, names_shown=False)
    assert IMG_NAME in scan["text"], "position 1's document name is not shown literally"


def test_two_students_never_see_each_others_data(borrow, app_url):
    """Two students edit at the same time, in two windows; each only ever sees their own list.

    The windows are of one browser, sharing its cookies and storage, so this also fails if the app kept anything
    of a session there (two separate browsers would not notice)."""
    tab_a, tab_b = borrow(), borrow()
    tab_a.goto(f"{app_url}/?docs=alice1:3,alice2:0,alice3:1")
    tab_b.goto(f"{app_url}/?docs=bob1:0,bob2:1,bob3:2,bob4:3")
    for tab in (tab_a, tab_b):
        wait_for_app(tab)
        tab.wait_for_selector(".rl-row", timeout=30_000)
    # Both click at (nearly) the same moment: Playwright's sync API is single-threaded, so fire both
    # clicks without waiting in between, then wait for both reruns.
    reverse = tab_a.get_by_role("button", name="Reverse")
    ideal = tab_b.get_by_role("button", name="Ideal order")
    expect(reverse).to_be_enabled(timeout=60_000)
    expect(ideal).to_be_enabled(timeout=60_000)
    reverse.click(no_wait_after=True, timeout=60_000)
    ideal.click(no_wait_after=True, timeout=60_000)
    expect(tab_a.locator(".rl-row .rl-name")).to_have_text(["alice3", "alice2", "alice1"], timeout=30_000)
    expect(tab_b.locator(".rl-row .rl-name")).to_have_text(["bob4", "bob3", "bob2", "bob1"], timeout=30_000)
    for tab in (tab_a, tab_b):
        wait_for_app(tab)

    # A second round: Alice edits through a new link while Bob shuffles.
    with rerun(tab_b):  # what Bob's page shows is read after his shuffle's rerun has run
        tab_a.goto(f"{app_url}/?docs=alice9:2")
        tab_b.get_by_role("button", name="Shuffle").click(no_wait_after=True, timeout=60_000)
    wait_for_app(tab_a)
    expect(tab_a.locator(".rl-row .rl-name")).to_have_text(["alice9"], timeout=30_000)
    assert sorted(tab_b.locator(".rl-row .rl-name").all_inner_texts()) == ["bob1", "bob2", "bob3", "bob4"]

    text_a = tab_a.evaluate("() => document.body.innerText")
    text_b = tab_b.evaluate("() => document.body.innerText")
    assert "bob" not in text_a.lower()
    assert "alice" not in text_b.lower()
    expected_a = ndcg_core.evaluate([2]).ndcg
    card_a = tab_a.locator('[data-testid="stMetric"]').filter(has_text="NDCG").locator('[data-testid="stMetricValue"]')
    assert card_a.inner_text() == f"{expected_a:.4f}"
    screenshot(tab_a, "security_isolation_alice")
    screenshot(tab_b, "security_isolation_bob")
