"""The Compare page's frame: which comparison (two rankings or two runs), the slide view, the URL.

The two comparisons themselves are ``ui.compare_lists`` (two rankings of the same documents) and
``ui.compare_runs`` (two runs on the data set); their charts are ``ui.compare_charts``.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from ui import session, url_state

MODES = {"lists": "Two rankings of the same documents", "runs": "Two runs on the data set"}
# Widgets not drawn in a run lose their state; the page re-assigns these so the slide view keeps the choices.
PERSISTENT_KEYS = ("compare_mode", "compare_run_a", "compare_run_b", "compare_n_boot", "compare_seed", "compare_confidence")


@dataclass(frozen=True)
class Frame:
    """What the page shows: ``mode`` ("lists" or "runs"), whether as one slide, and where the slide's heading goes."""

    mode: str
    slide_view: bool
    heading: object | None = None  # a placeholder the slide view writes its heading into


def page_frame() -> Frame:
    """Restore the mode from the URL, then draw the title (or the slide's heading row), the mode and slide toggle."""
    url_state.restore_choice("compare_mode", "compare", list(MODES), scope="compare", label="comparison mode")
    url_state.restore_choice("compare_slide", "slide", ["1"], scope="compare", label="slide view")
    if session.widget("compare_slide") == "1":
        session.set_widget("compare_slide", True)
    url_state.show_warning("compare")
    # Widgets not drawn in a run lose their state; re-assigning keeps the choices while the slide view hides them.
    for persistent in PERSISTENT_KEYS:
        session.keep(persistent)
    slide_view = session.widget("compare_mode") == "runs" and session.widget("compare_slide", False)
    if slide_view:
        heading, switch = st.columns([5, 1], vertical_alignment="bottom")  # slide_summary writes the heading
        switch.toggle("Slide view", key="compare_slide")
        return Frame("runs", True, heading)
    st.title("Compare rankers")
    left, right = st.columns([4, 1], vertical_alignment="bottom")
    mode = left.radio("Compare", list(MODES), format_func=MODES.get, horizontal=True, key="compare_mode")
    if mode == "runs":
        right.toggle("Slide view", key="compare_slide", help="One clean screen for a slide: big numbers and one chart.")
    return Frame(mode, False)


def mirror_to_url(frame: Frame) -> None:
    """Keep the mode and the slide view in the page's URL (a shared link opens the same view)."""
    slide = "1" if frame.mode == "runs" and session.widget("compare_slide") else None
    url_state.publish({"compare": frame.mode, "slide": slide})
