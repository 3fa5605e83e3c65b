"""Keyboard focus kept where the user is when a rerun takes away the element that had it.

A button that does its job and disappears (the quiz's "Check", replaced by the verdict) leaves the focus on the
page's body, and the next Tab starts again from the top: past the sidebar and every question before. Drawn inside
the container that replaced it, :func:`land_here` moves a focus that was lost (on the body) to that container, so
a screen reader reads the verdict and the next Tab goes on from there. A focus the user has put somewhere else is
left alone.
"""

from __future__ import annotations

import streamlit as st

_JS = """
export default function ({ data, parentElement }) {
  const seen = (window.__ndcgFocusLanded = window.__ndcgFocusLanded || new Set());
  if (seen.has(data.token)) return;  // once per event, not on every later run that draws this again
  seen.add(data.token);
  const host = parentElement.getRootNode().host || parentElement;
  const started = performance.now();
  const before = document.activeElement;
  const step = () => {
    const target = host.closest("." + data.container);
    const now = document.activeElement;
    if (!target || (now && now !== document.body && now !== before)) return;  // the user has moved on
    if (!now || now === document.body) {  // lost (the button that had it is gone, now or a frame later)
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


def land_here(container_key: str, token: str) -> None:
    """Move a lost keyboard focus to the container keyed ``container_key`` (drawn inside it), once per ``token``."""
    _component(key=f"focus_{container_key}", data={"container": f"st-key-{container_key}", "token": token})
