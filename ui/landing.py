"""Every page opens at its top.

Streamlit keeps the main area's scroll position when the page changes (``st.switch_page``, a sidebar
link, Back), and its main area sticks to the bottom while content grows once it is scrolled to the
bottom. So a button low on a long page (the Worked examples' "Open in Playground") used to open the
target at its bottom: the shorter new page clamped the position to the bottom, which then followed the
page down as it filled in. A tiny component, mounted on every run so that it is ready before the next
page's content arrives, scrolls the main area to the top as soon as the address changes to another page
(Streamlit's history call at the start of the new page's run) or, failing that, when a run reports a different page.

Back and Forward return where the page was left, as a browser does for ordinary pages: the position is noted per
page after each of the user's scrolls and presses, and restored once the returning page has drawn enough (the
Worked examples' ninth card is 11,000 px down; Back from "Open in Playground" used to land at its top). A wheel,
touch or key meanwhile cancels the restore: the user's own scrolling wins.
"""

from __future__ import annotations

import streamlit as st

_JS = """
const main = () => document.querySelector('[data-testid="stMain"]');  // Streamlit scrolls its main section
const RESTORE_MS = 8000;  // how long a returning page may take to draw down to where it was left

function toTop() {
  if (main()) main().scrollTop = 0;
  window.scrollTo(0, 0);  // a phone may scroll the window too
}

function restore(state, target) {
  // Scroll back to `target` once the page is tall enough (it draws in pieces), unless the user scrolls first.
  const started = performance.now();
  state.restoring = true;
  const stop = () => { state.restoring = false; };
  for (const event of ["wheel", "touchstart", "keydown", "mousedown"]) window.addEventListener(event, stop, { once: true, capture: true });
  const step = () => {
    const area = main();
    if (!state.restoring || !area || performance.now() - started > RESTORE_MS) { state.restoring = false; return; }
    if (area.scrollHeight - area.clientHeight >= target - 1) {
      area.scrollTop = target;
      if (Math.abs(area.scrollTop - target) <= 1 && performance.now() - started > 300) { state.restoring = false; return; }
    }
    requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}

export default function ({ data, parentElement }) {
  // Earliest signal: Streamlit changes the address as soon as a run for another page starts, before that
  // page's elements arrive; scrolling then keeps the main area from sticking to the bottom (installed once).
  if (!window.__ndcgLanding) {
    const state = window.__ndcgLanding = { path: location.pathname, left: new Map(), restoring: false };
    // Where each page was left: noted after each of the user's own scrolls and presses, while the page is intact
    // (a scroll event would also catch the page shrinking as the next page's run replaces it).
    const note = () => requestAnimationFrame(() => {
      if (!state.restoring && main()) state.left.set(location.pathname, main().scrollTop);
    });
    for (const event of ["pointerdown", "pointerup", "wheel", "touchend", "keyup"]) {
      window.addEventListener(event, note, { capture: true, passive: true });
    }
    for (const name of ["pushState", "replaceState"]) {
      const original = history[name].bind(history);
      history[name] = (...args) => {
        const result = original(...args);
        if (location.pathname !== state.path) { state.path = location.pathname; state.restoring = false; toTop(); }
        return result;
      };
    }
    window.addEventListener("popstate", () => {
      state.path = location.pathname;
      state.popped = performance.now();  // the page's run reporting it later is no reason to go to the top
      toTop();
      const target = state.left.get(location.pathname);
      if (target > 0) restore(state, target);
    });
  }
  // Fallback: the run reports a different page than the one this component last saw.
  const previous = parentElement.__landingPage;
  parentElement.__landingPage = data.page;
  const popped = window.__ndcgLanding.popped;
  if (previous !== undefined && previous !== data.page && !(popped && performance.now() - popped < RESTORE_MS)) toTop();
}
"""


_scroll_to_top = st.components.v2.component("ndcg_scroll_to_top", js=_JS)


def top_on_page_change(page) -> None:
    """Call with the page ``st.navigation`` returned, before running it (app.py does)."""
    with st.sidebar:  # out of the main area's flow: nothing on the page moves
        _scroll_to_top(key="landing_scroll_to_top", data={"page": getattr(page, "url_path", "")})
