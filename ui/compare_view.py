"""The Compare page's frame: which comparison (two rankings or two runs), the slide view, the URL.

The two comparisons themselves are ``ui.compare_lists`` (two rankings of the same documents) and
``ui.compare_runs`` (two runs on the data set); their charts are ``ui.compare_charts``.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from ui import session, url_state

MODES = {"lists": "Two rankings of the same documents", "runs": "Two runs on the data set"}
MODE_KEY = "compare_mode"
SLIDE_KEY = "compare_slide"
SCOPE = "compare"  # the page's link warnings in ui.url_state


@dataclass(frozen=True)
class Frame:
    """What the page shows: ``mode`` ("lists" or "runs"), whether as one slide, and where the slide's heading goes."""

    mode: str
    slide_view: bool
    heading: object | None = None  # a placeholder the slide view writes its heading into


def page_frame() -> Frame:
    """Restore the mode from the URL, then draw the title (or the slide's heading row), the mode and slide toggle."""
    url_state.restore_choice(MODE_KEY, "compare", list(MODES), scope=SCOPE, label="comparison mode")
    url_state.restore_choice(SLIDE_KEY, "slide", ["1"], scope=SCOPE, label="slide view")
    if session.widget(SLIDE_KEY) == "1":
        session.set_widget(SLIDE_KEY, True)
    url_state.show_warning(SCOPE)
    slide_view = session.widget(MODE_KEY) == "runs" and session.widget(SLIDE_KEY, False)
    if slide_view:
        heading, switch = st.columns([5, 1], vertical_alignment="bottom")  # slide_summary writes the heading
        switch.toggle("Slide view", key=SLIDE_KEY, persist_state="session")
        return Frame("runs", True, heading)
    st.title("Compare rankers")
    left, right = st.columns([4, 1], vertical_alignment="bottom")
    mode = left.radio("Compare", list(MODES), format_func=MODES.get, horizontal=True, key=MODE_KEY, persist_state="session")
    if mode == "runs":
        right.toggle("Slide view", key=SLIDE_KEY, persist_state="session", help="One clean screen for a slide: big numbers and one chart.")
    return Frame(mode, False)


def mirror_to_url(frame: Frame) -> None:
    """Keep the mode and the slide view in the page's URL (a shared link opens the same view)."""
    slide = "1" if frame.mode == "runs" and session.widget(SLIDE_KEY) else None
    url_state.publish({"compare": frame.mode, "slide": slide})
