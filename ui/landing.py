"""Every page opens at its top.

Streamlit keeps the main area's scroll position when the page changes (``st.switch_page``, a sidebar
link, Back), and its main area sticks to the bottom while content grows once it is scrolled to the
bottom. So a button low on a long page (the Worked examples' "Open in Playground") used to open the
target at its bottom: the shorter new page clamped the position to the bottom, which then followed the
page down as it filled in. A tiny component, mounted on every run so that it is ready before the next
page's content arrives, scrolls the main area to the top as soon as the address changes to another page
(Streamlit's history call at the start of the new page's run) or, failing that, when a run reports a different page.
"""

from __future__ import annotations

import streamlit as st

_JS = """
function toTop() {
  const main = document.querySelector('[data-testid="stMain"]');  // Streamlit scrolls its main section
  if (main) main.scrollTop = 0;
  window.scrollTo(0, 0);  // a phone may scroll the window too
}

export default function ({ data, parentElement }) {
  // Earliest signal: Streamlit changes the address as soon as a run for another page starts, before that
  // page's elements arrive; scrolling then keeps the main area from sticking to the bottom (installed once).
  if (!window.__ndcgLanding) {
    window.__ndcgLanding = { path: location.pathname };
    for (const name of ["pushState", "replaceState"]) {
      const original = history[name].bind(history);
      history[name] = (...args) => {
        const result = original(...args);
        if (location.pathname !== window.__ndcgLanding.path) { window.__ndcgLanding.path = location.pathname; toTop(); }
        return result;
      };
    }
    window.addEventListener("popstate", () => { window.__ndcgLanding.path = location.pathname; toTop(); });
  }
  // Fallback: the run reports a different page than the one this component last saw.
  const previous = parentElement.__landingPage;
  parentElement.__landingPage = data.page;
  if (previous !== undefined && previous !== data.page) toTop();
}
"""


_scroll_to_top = st.components.v2.component("ndcg_scroll_to_top", js=_JS)


def top_on_page_change(page) -> None:
    """Call with the page ``st.navigation`` returned, before running it (app.py does)."""
    with st.sidebar:  # out of the main area's flow: nothing on the page moves
        _scroll_to_top(key="landing_scroll_to_top", data={"page": getattr(page, "url_path", "")})
