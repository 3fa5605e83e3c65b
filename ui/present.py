"""Present mode: one sidebar switch (mirrored in the URL as ``present=1``) for projecting the app in class.

Why one module: the switch, its URL parameter, its styles and the chart sizes it implies live together, so a
page only asks :func:`active` (the Playground hides its editing chrome) and :func:`figure` (a chart's text).

**Text size.** Streamlit sizes its text in rem, and so does the ranked list (rem reaches into its shadow root),
so Present mode scales the root font with the viewport's width: 1.2 vw, at least the normal size (the theme's
``baseFontSize``, 17 px: a 1280-px projector loses no room, and no text is smaller than without Present mode, as
it was while the floor stayed 16 px) and at most 28 px. At 1920 × 1080 the root is 23 px and the smallest text
Streamlit draws (captions, metric labels and deltas, at 0.875 rem) is 20.2 px; the whole page keeps the
proportions of a 1333 × 750 screen, which the Playground fits (tests/browser/test_present_browser.py). The
ranked list's small print (header, help line, cutoff line) reads ``--ndcg-small-text``, set here.
"""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from ui import session, url_state
from ui.chart_style import FONT, HEIGHT, is_axis
from ui.chart_words import hidden_html

KEY = "present_mode"  # the sidebar toggle's key
CHOSEN_KEY = "present_chosen"  # the session's choice, kept apart from the toggle (see _restore)
PARAM = "present"  # its URL parameter (ui.url_state.APP_PARAMS)
SCOPE = "present"  # its link warning's scope
CHART_FONT = 20  # px: a chart's tick labels, legend and annotations in Present mode
CHART_TITLE_FONT = 22
PLAYGROUND_CHART_HEIGHT = 300  # px: beside the list, under the cards, with its view picker inside a 1280 x 720 screen
PRESENT_CHART_HEIGHT = 330  # px: Present mode's shorter caption and top space leave a little more room (larger text)

NORMAL_FONT_PX = int(st.get_option("theme.baseFontSize") or 16)  # the root font without Present mode

CSS = """<style>
html { font-size: clamp(NORMAL_FONT_PX, 1.2vw, 28px); }
[data-testid="stApp"] { --ndcg-small-text: .875rem; }
[data-testid="stApp"] :is([data-testid="stMarkdownContainer"], [data-testid="stCaptionContainer"]) code { font-size: max(.875rem, .9em); }
[data-testid="stApp"] [data-testid="stMainBlockContainer"] { padding-top: .25rem; }
[data-testid="stSidebar"] [data-testid="stPageLink-NavLink"] span:has(> [data-testid="stMarkdownContainer"]),
[data-testid="stSidebar"] [data-testid="stPageLink-NavLink"] :is([data-testid="stMarkdownContainer"], p) { white-space: normal; }
</style>""".replace("NORMAL_FONT_PX", f"{NORMAL_FONT_PX}px")


def active() -> bool:
    """Whether Present mode is on in this session."""
    return bool(session.widget(KEY, False))


def _restore() -> None:
    """The switch as the session left it; on the session's first run, as the link says (unusable: off, warned).

    Why a second key: ``st.switch_page`` (the Worked examples' "Open in Playground" and "Walk through step by step",
    Dataset's and Compare's "open in the Playground") starts the next page's run without the browser's widget
    values, so Streamlit drops every widget's state, this switch's too, and clears the URL. The toggle then came
    back off: Present mode was lost on every page such a button opens. A plain session value survives that.
    """
    if session.has(KEY):
        return
    if session.has(CHOSEN_KEY):
        session.set_widget(KEY, bool(session.widget(CHOSEN_KEY)))
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
    _restore()
    with st.sidebar:
        on = st.toggle(
            "Present mode", key=KEY, on_change=_switched,
            help="For a projector: larger text on every page (captions and labels ≥ 20 px at 1920 × 1080), and "
                 "the Playground shows only the cards, the list and the chart (the grade editors and the share "
                 "box are hidden). The link keeps it (present=1).",
        )
        url_state.show_warning(SCOPE)
    session.set_widget(CHOSEN_KEY, bool(on))
    url_state.publish({PARAM: "1" if on else None})
    if on:
        st.html(CSS)
    return on


def link(url: str) -> str:
    """An in-app link (``path?query``) that keeps Present mode on: a link opens a new session, which reads the URL."""
    if not active():
        return url
    return f"{url}{'&' if '?' in url else '?'}{PARAM}=1"


def plotly_chart(fig: go.Figure, *, where=None, narrow: bool = False, **kwargs):
    """Draw a chart (in ``where``, a column or container; default the page) with Present mode's sizes when it is on.

    Every chart of the app is drawn through here (tests/test_present.py checks the source), so none is left with
    the normal 15 px text on a projector, and each has its text alternative (:mod:`ui.chart_words`). ``narrow``: the chart has half the page's width (two side by side).
    """
    target = where if where is not None else st
    target.markdown(hidden_html(fig), unsafe_allow_html=True)  # the chart's text alternative, for screen readers
    return target.plotly_chart(figure(fig, narrow=narrow), **kwargs)


def figure(fig: go.Figure | dict, *, narrow: bool = False) -> go.Figure | dict:
    """``fig`` with chart text large enough for a projector when Present mode is on (unchanged otherwise).

    Text is never made smaller (the Compare slide's is larger already). Works on the app's dict-built figures
    (``go.Figure(spec, _validate=False)``) without re-validating them. Fitting the larger text:

    * The title takes its own measured height off the top (``automargin`` in the container), and a legend above
      the plot pushes the top margin by its own height, however many rows it wraps to in the chart's width; the top
      margin was a guess for 15 px text in one or two legend rows, which at 20 px cut into the plot or left it a
      third of the chart's height.
    * Every axis (the right-hand ones too) grows its margin to fit its tick labels and title.
    * A y-axis title longer than the plot is tall is broken onto two lines (it was cut at both ends), and so is,
      on a ``narrow`` chart, an x-axis title wider than half a 1280-px screen's page (it ran off the chart's edge).
    * A legend with fixed entry widths gets them in proportion to the text.
    """
    if not active():
        return fig
    layout = fig.layout if isinstance(fig, go.Figure) else fig["layout"]
    plain = _plain(layout)
    names = list(plain)
    font = _plain(plain.get("font"))
    layout["font"] = {**font, "size": max(font.get("size") or 0, CHART_FONT)}
    title = _plain(layout["title"]) if "title" in names else {}
    if title.get("text"):
        title_font = title.get("font") or {}
        layout["title"] = {**title, "font": {**title_font, "size": max(title_font.get("size") or 0, CHART_TITLE_FONT)},
                           "automargin": True, "yref": "container", "y": 1, "yanchor": "top",
                           "pad": {"t": 8, "b": 0}}
    layout["hoverlabel"] = {"font": {"size": CHART_FONT}}
    legend = _plain(layout["legend"]) if "legend" in names else {}
    margin = _plain(plain.get("margin"))  # larger text needs more room for the axes' tick labels and titles
    top = margin.get("t", 60)
    if _legend_above(legend):
        top = TITLE_ROOM  # the title and the legend push the margin by their own heights (above)
    layout["margin"] = {**margin, "l": margin.get("l", 60) + 15, "b": margin.get("b", 50) + 22, "t": top}
    if legend.get("entrywidthmode") == "pixels" and legend.get("entrywidth"):
        layout["legend"] = {**legend, "entrywidth": round(legend["entrywidth"] * CHART_FONT / FONT["size"])}
    height = plain.get("height") or HEIGHT
    for name in names:
        if is_axis(name):
            layout[name] = _axis(_plain(layout[name]), vertical=name.startswith("y"), height=height, narrow=narrow)
    above = 0  # px of the tallest note standing on the plot's top edge ("mean 0.745"), under the title
    for annotation in (layout["annotations"] if "annotations" in names else None) or ():
        annotation_font = _plain(annotation["font"])
        size = max(annotation_font.get("size") or 0, CHART_FONT - 2, 16)
        annotation["font"] = {**annotation_font, "size": size}
        if _on_top_edge(_plain(annotation)):
            above = max(above, round(size * 1.3))
    if above:  # the title's measured room does not count the note: at 18 px the two overlapped
        margin = _plain(layout["margin"])
        title_room = round(CHART_TITLE_FONT * 1.4) + 8 if title.get("text") else 0  # its font and its pad
        layout["margin"] = {**margin, "t": max(margin["t"], title_room) + above}
    return fig


def _on_top_edge(annotation: dict) -> bool:
    """Whether a note stands on the plot's top edge, in the margin the title also takes."""
    return (annotation.get("yref") == "paper" and (annotation.get("y") or 0) >= 1
            and annotation.get("yanchor") == "bottom")


TITLE_ROOM = 12  # px: the top margin's minimum when the title and an upper legend make their own room
# A chart in half of a 1280-px screen's page is ~390 px wide: about 28 characters of 20-px axis title under a plot
# that starts after the y axis's labels. (Its title, centred on the whole chart, has the room of ~38; plotly draws a
# title broken onto two lines and anchored at its top with its first line above the chart's edge, so it is not.)
NARROW_AXIS_CHARS = 28


def _legend_above(legend: dict) -> bool:
    """Whether the legend sits above the plot in the plot's coordinates (so it pushes the top margin itself)."""
    return (legend.get("orientation") == "h" and legend.get("yref", "paper") == "paper"
            and legend.get("xref", "paper") == "paper" and (legend.get("y") or 0) >= 1)


# Ranks labelled one by one (dtick 1) at Present mode's text size: more than this many, and the labels of a chart
# beside the ranked list at 1280x720 (a plot ~270 px wide) ran into one another, an unreadable smear for 29 ranks.
UNIT_TICKS = 12


def _axis(axis: dict, *, vertical: bool, height: int, narrow: bool) -> dict:
    """An axis with Present mode's text: margins that grow to fit it, a y title that fits the plot's height, and
    on a long run of ranks a step plotly picks to fit the labels in the plot's width (not every rank)."""
    axis = {**axis, "automargin": True}
    span = axis.get("range")
    if not vertical and axis.get("dtick") == 1 and span and span[1] - span[0] > UNIT_TICKS:
        axis["dtick"] = None
    if (axis.get("tickfont") or {}).get("size"):  # an axis's own size (the slide's) is kept when it is larger
        axis["tickfont"] = {**axis["tickfont"], "size": max(axis["tickfont"]["size"], CHART_FONT)}
    title = axis.get("title") or {}
    if isinstance(title, str):
        title = {"text": title}
    if (title.get("font") or {}).get("size"):
        title = {**title, "font": {**title["font"], "size": max(title["font"]["size"], CHART_FONT)}}
    if title.get("text") and (vertical or narrow):
        # Half the font size per character (Source Sans' average): the browser's measure is not known here. A
        # vertical title gets about half the chart's height (the rest is the title, a legend and the x axis).
        limit = int(height / 2 / (CHART_FONT * 0.5)) if vertical else NARROW_AXIS_CHARS
        title = {**title, "text": wrap(title["text"], limit)}
    if title:
        axis["title"] = title
    return axis


def wrap(text: str, limit: int) -> str:
    """``text`` on two lines when it is longer than ``limit`` characters, broken at the space nearest its middle that
    is outside parentheses and does not start the second line with an operator ("(B − A)" stays whole)."""
    if "<br>" in text or len(text) <= limit:
        return text
    depth, spaces = 0, []
    for i, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == " " and depth == 0 and text[i + 1:i + 2] not in ("−", "-", "+", "÷", "×", "="):
            spaces.append(i)
    if not spaces:
        return text
    cut = min(spaces, key=lambda i: abs(i - len(text) / 2))
    return f"{text[:cut]}<br>{text[cut + 1:]}"


CHART_LABELS = {"contribution": "Contribution", "cumulative": "Cumulative", "decomposition": "Gain ÷ discount"}
SHORT_TITLES = {"contribution": "Contribution per position", "cumulative": "DCG@i, IDCG@i and NDCG@i",
                "decomposition": "Gain ÷ discount per position"}
# The legend's entries, short: at 20 px the full names took two or three rows of a 1280-px screen's chart, and left
# the plot a third of its height (plotly lays a legend that needs more than one row out in columns as wide as its
# longest entry, so that one decides). Each keeps its meaning with the chart's axis titles: the right axis is
# titled NDCG@i, or discount log_b(i+1).
SHORT_LEGEND = {"Your ranking": "yours", "Ideal ranking": "ideal", "past k (not counted)": "past k",
                "NDCG@i (right axis)": "NDCG@i", "gain g(grade)": "gain", "discount (right axis)": "discount",
                "contribution = gain ÷ discount": "contribution"}
# The legend ends at the plot's right edge and may use the right margin too (plotly wraps a legend above the plot
# at the plot's width, or, anchored just past an edge, at the plot's width and that side's margin).
PLAYGROUND_LEGEND = {"orientation": "h", "yanchor": "bottom", "y": 1.02, "xanchor": "right", "x": 1.0001}


def chart_label(name: str) -> str:
    """A short name for the Playground's chart picker (it sits under the chart, in half the page's width)."""
    return CHART_LABELS.get(name, name)


def playground_figure(fig: go.Figure, name: str = "contribution") -> go.Figure:
    """The Playground's chart, sized to sit beside the ranked list (and with Present mode's text sizes).

    In Present mode the chart is as narrow as at normal size on a 1280-px screen but its text is larger, so
    its title is short, and the NDCG change (ui.ghost), when there is one, becomes the title: the one line
    the room should read. The larger text itself is :func:`plotly_chart`'s, as for every chart.
    """
    if not active():
        fig.layout.height = PLAYGROUND_CHART_HEIGHT
        return fig
    fig.layout.height = PRESENT_CHART_HEIGHT
    change = [note.text for note in fig.layout.annotations if note.name == "ndcg_change"]
    fig.layout.annotations = [note for note in fig.layout.annotations if note.name != "ndcg_change"]
    fig.layout.title.text = change[0] if change else SHORT_TITLES.get(name, fig.layout.title.text)
    for trace in fig.data:
        trace.name = SHORT_LEGEND.get(trace.name, trace.name)
    fig.layout.legend = {**_plain(fig.layout.legend), **PLAYGROUND_LEGEND}
    return fig  # Present mode's text sizes: plotly_chart


def _plain(value) -> dict:
    """A layout part as a dict, whether the figure holds plotly objects or plain dicts."""
    if value is None:
        return {}
    return value.to_plotly_json() if hasattr(value, "to_plotly_json") else dict(value)
