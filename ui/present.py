"""Present mode: one sidebar switch (mirrored in the URL as ``present=1``) for projecting the app in class.

Why one module: the switch, its URL parameter, its styles and the chart sizes it implies live together, so a
page only asks :func:`active` (the Playground hides its editing chrome) and :func:`figure` (a chart's text).

**Text size.** Streamlit sizes its text in rem, and so does the ranked list (rem reaches into its shadow root),
so Present mode scales the root font with the viewport's width: 1.2 vw, at least 16 px (the normal size, so a
1280-px projector loses no room) and at most 28 px. At 1920 × 1080 the root is 23 px and the smallest text
Streamlit draws (captions, metric labels and deltas, at 0.875 rem) is 20.2 px; the whole page keeps the
proportions of a 1333 × 750 screen, which the Playground fits (tests/browser/test_present_browser.py). The
ranked list's small print (header, help line, cutoff line) reads ``--ndcg-small-text``, set here.
"""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from ui import session, url_state

KEY = "present_mode"  # the sidebar toggle's key
PARAM = "present"  # its URL parameter (ui.url_state.APP_PARAMS)
SCOPE = "present"  # its link warning's scope
CHART_FONT = 20  # px: a chart's tick labels, legend and annotations in Present mode
CHART_TITLE_FONT = 22
PLAYGROUND_CHART_HEIGHT = 320  # px: beside the list, under the cards, inside a 1280 x 720 screen
PRESENT_CHART_HEIGHT = 350  # px: Present mode's shorter caption leaves a little more room (and its text is larger)

CSS = """<style>
html { font-size: clamp(16px, 1.2vw, 28px); }
[data-testid="stApp"] { --ndcg-small-text: .875rem; }
[data-testid="stApp"] :is([data-testid="stMarkdownContainer"], [data-testid="stCaptionContainer"]) code { font-size: max(.875rem, .9em); }
[data-testid="stApp"] [data-testid="stMainBlockContainer"] { padding-top: 2rem; }
[data-testid="stSidebar"] [data-testid="stPageLink-NavLink"] span:has(> [data-testid="stMarkdownContainer"]),
[data-testid="stSidebar"] [data-testid="stPageLink-NavLink"] :is([data-testid="stMarkdownContainer"], p) { white-space: normal; }
</style>"""


def active() -> bool:
    """Whether Present mode is on in this session."""
    return bool(session.widget(KEY, False))


def _restore_from_url() -> None:
    """On the session's first run, the switch starts as the link says (an unusable value: off, with a warning)."""
    if session.has(KEY):
        return
    text = url_state.params().get(PARAM)
    flag = url_state.parse_flag(text) if text is not None else False
    if flag is None:
        url_state.warn(SCOPE, "The link's Present mode could not be read (use present=1), so it is off.")
    session.set_widget(KEY, bool(flag))


def _switched() -> None:
    """Turning Present mode on hides the Playground's editors: their pending edits become the ranking first.

    A data editor that is not drawn loses its edit state, and the Playground rebuilds an edited ranking from
    that state on every run, so without this the edits would be undone when the editors are hidden.
    """
    url_state.warn(SCOPE, None)
    if session.widget(KEY):
        from ui import state

        if state.is_edited():
            state.set_ranking(state.current_ranking())


def sidebar_toggle() -> bool:
    """Draw the switch (app.py, every run), publish it to the URL and add the styles when it is on."""
    _restore_from_url()
    with st.sidebar:
        on = st.toggle(
            "Present mode", key=KEY, on_change=_switched,
            help="For a projector: larger text on every page (captions and labels ≥ 20 px at 1920 × 1080), and "
                 "the Playground shows only the cards, the list and the chart (the grade editors and the share "
                 "box are hidden). The link keeps it (present=1).",
        )
        url_state.show_warning(SCOPE)
    url_state.publish({PARAM: "1" if on else None})
    if on:
        st.html(CSS)
    return on


def figure(fig: go.Figure | dict) -> go.Figure | dict:
    """``fig`` with chart text large enough for a projector when Present mode is on (unchanged otherwise).

    Works on the app's dict-built figures (``go.Figure(spec, _validate=False)``) without re-validating them.
    """
    if not active():
        return fig
    layout = fig.layout if isinstance(fig, go.Figure) else fig["layout"]
    layout["font"] = {**_plain(layout["font"]), "size": CHART_FONT}
    title = _plain(layout["title"]) if "title" in layout else {}
    layout["title"] = {**title, "font": {**title.get("font", {}), "size": CHART_TITLE_FONT}}
    layout["hoverlabel"] = {"font": {"size": CHART_FONT}}
    margin = _plain(layout["margin"])  # larger text needs more room for the axes' tick labels and titles
    layout["margin"] = {**margin, "l": margin.get("l", 60) + 15, "b": margin.get("b", 50) + 22, "t": margin.get("t", 60) + 8}
    for axis in ("xaxis", "yaxis"):
        layout[axis] = {**_plain(layout[axis]), "automargin": True}
    for annotation in layout["annotations"] or ():
        annotation["font"] = {**_plain(annotation["font"]), "size": max(CHART_FONT - 2, 16)}
    return fig


CHART_LABELS = {"contribution": "Contribution", "cumulative": "Cumulative", "decomposition": "Gain ÷ discount"}
SHORT_TITLES = {"contribution": "Contribution per position", "cumulative": "DCG@i, IDCG@i and NDCG@i",
                "decomposition": "Gain ÷ discount per position"}


def chart_label(name: str) -> str:
    """A short name for the Playground's chart picker (it sits under the chart, in half the page's width)."""
    return CHART_LABELS.get(name, name)


def playground_figure(fig: go.Figure, name: str = "contribution") -> go.Figure:
    """The Playground's chart, sized to sit beside the ranked list (and with Present mode's text sizes).

    In Present mode the chart is as narrow as at normal size on a 1280-px screen but its text is larger, so
    its title is short, and the NDCG change (ui.ghost), when there is one, becomes the title: the one line
    the room should read.
    """
    if not active():
        fig.layout.height = PLAYGROUND_CHART_HEIGHT
        return fig
    fig.layout.height = PRESENT_CHART_HEIGHT
    change = [note.text for note in fig.layout.annotations if note.name == "ndcg_change"]
    fig.layout.annotations = [note for note in fig.layout.annotations if note.name != "ndcg_change"]
    fig.layout.title.text = change[0] if change else SHORT_TITLES.get(name, fig.layout.title.text)
    figure(fig)
    fig.layout.margin.t = fig.layout.margin.t + 22  # room for a legend wrapped onto two rows under the title
    return fig


def _plain(value) -> dict:
    """A layout part as a dict, whether the figure holds plotly objects or plain dicts."""
    if value is None:
        return {}
    return value.to_plotly_json() if hasattr(value, "to_plotly_json") else dict(value)
