"""Where the user's attention goes after a rerun: a lost keyboard focus, a result drawn out of sight.

Keyboard focus kept where the user is when a rerun takes away the element that had it.

A button that does its job and disappears (the quiz's "Check", replaced by the verdict) leaves the focus on the
page's body, and the next Tab starts again from the top: past the sidebar and every question before. Drawn inside
the container that replaced it, :func:`land_here` moves a focus that was lost (on the body) to that container, so
a screen reader reads the verdict and the next Tab goes on from there. A focus the user has put somewhere else is
left alone.

A file uploader's "Upload" button gives way to the chosen file's name (and a file's remove button to the empty
uploader) as soon as the file is chosen, so a keyboard user's focus fell to the page, and a screen reader said
nothing of the upload: :func:`file_uploader` lands it on the uploader, whose next Tab is the file's remove button.

A control low on a page can change what its top shows (the Live class's "Add and open" puts the new activity at
the top of the teacher's page, while the teacher is scrolled down at the picker): :func:`bring_into_view` scrolls
the changed container into view, once, when it is above the screen.
"""

from __future__ import annotations

import html

import streamlit as st

from ui import session

_JS = """
export default function ({ data, parentElement }) {
  const seen = (window.__ndcgFocusLanded = window.__ndcgFocusLanded || new Set());
  if (seen.has(data.token)) return;  // once per event, not on every later run that draws this again
  seen.add(data.token);
  const host = parentElement.getRootNode().host || parentElement;
  const started = performance.now();
  const before = document.activeElement;
  const step = () => {
    const box = host.closest("." + data.container);
    const target = box && data.inside ? box.querySelector(data.inside) : box;  // (drawn a frame later, maybe)
    const now = document.activeElement;
    if (!box || (now && now !== document.body && now !== before)) return;  // the user has moved on
    if (target && (!now || now === document.body)) {  // lost (the button that had it is gone, now or a frame later)
      if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");  // by script, not by Tab
      target.focus({ preventScroll: true });
      return;
    }
    if (performance.now() - started < 1500) requestAnimationFrame(step);
  };
  step();
}
"""

_component = st.components.v2.component("ndcg_focus_here", js=_JS)


def land_here(container_key: str, token: str, *, inside: str | None = None) -> None:
    """Move a lost keyboard focus to the container keyed ``container_key`` (drawn inside it), once per ``token``;
    ``inside``: to the element of the container this CSS selector finds instead (a data grid's canvas)."""
    _component(key=f"focus_{container_key}", data={"container": f"st-key-{container_key}", "token": token,
                                                   "inside": inside})


_SCROLL_JS = """
export default function ({ data, parentElement }) {
  const seen = (window.__ndcgBroughtIntoView = window.__ndcgBroughtIntoView || new Set());
  if (seen.has(data.token)) return;
  seen.add(data.token);
  const host = parentElement.getRootNode().host || parentElement;
  requestAnimationFrame(() => {  // once the rerun's elements are laid out
    const target = host.closest("." + data.container);
    const header = document.querySelector('[data-testid="stHeader"]');  // Streamlit's bar over the page's top
    const covered = header ? header.getBoundingClientRect().bottom : 0;
    if (!target || target.getBoundingClientRect().top >= covered) return;
    target.style.scrollMarginTop = `${covered + 8}px`;
    target.scrollIntoView({ block: "start" });
  });
}
"""

_scroll_component = st.components.v2.component("ndcg_bring_into_view", js=_SCROLL_JS)


def bring_into_view(container_key: str, token: str) -> None:
    """Scroll the container keyed ``container_key`` (drawn inside it) into view when it is above the screen, once
    per ``token``."""
    _scroll_component(key=f"into_view_{container_key}", data={"container": f"st-key-{container_key}", "token": token})


def spoken(text: str) -> str:
    """HTML for a screen reader only: ``text`` (escaped) in a polite live region, read out when a rerun changes it
    (Step by step's position after Next), invisible on screen (ui/app_style.py's ``.ndcg-spoken``). Put it in a
    markdown element of its own (it then takes no room) drawn with ``unsafe_allow_html=True``, at the same place in
    every run."""
    return f'<div class="ndcg-spoken" role="status" aria-live="polite">{html.escape(text)}</div>'



_UPLOADS_KEY = "focus_uploads"  # uploader key -> how many times its files changed in this session


def _uploads() -> dict[str, int]:
    return session.page_state(_UPLOADS_KEY, dict)


def _uploaded(key: str) -> None:
    """The uploader's on_change: one more change of its files (a file added or removed)."""
    _uploads()[key] = _uploads().get(key, 0) + 1


def file_uploader(label: str, *, key: str, where=st, **options):
    """``st.file_uploader`` (in ``where``: a column, or the page) in a container that takes back a keyboard focus
    lost when the uploader's files change (see the module's docstring); its value as ``st.file_uploader`` returns
    it. Only a change of the files lands the focus: a page opened or rerun otherwise leaves it alone."""
    box = f"{key}_box"
    with where.container(key=box):
        files = st.file_uploader(label, key=key, on_change=_uploaded, args=(key,), **options)
        changes = _uploads().get(key)
        if changes:
            land_here(box, token=f"{box}-{changes}")
    return files
