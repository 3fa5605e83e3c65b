"""The one chart style: colours, fonts, axes and the base plotly layout every chart of the app starts from.

Colours come from the Okabe-Ito palette (Okabe & Ito 2008, "Color Universal Design"), which stays
distinguishable for the common forms of colour blindness; the meaning of a chart never rests on colour alone.
Fonts are large (15 px, titles 18 px) because the app is projected in class.

No plotly template: the layout below sets every colour, font and grid itself (plotly's default template would
also be deep-copied into every figure, ~3 ms each). Every builder takes :func:`base_layout` as a dict, adds its
traces and shapes as dicts, and wraps them with :func:`spec_figure`, which skips plotly's property validators.
"""

from __future__ import annotations

import re

import plotly.graph_objects as go

PALETTE: dict[str, str] = {
    "actual": "#0072B2",  # blue
    "ideal": "#E69F00",  # orange
    "ndcg": "#009E73",  # bluish green
    "gain": "#56B4E9",  # sky blue
    "discount": "#D55E00",  # vermillion
    "highlight": "#CC79A7",  # reddish purple
    "muted": "#B8BEC6",  # grey for positions past k
    "text": "#111827",
    "grid": "#E5E7EB",
}
# The app's own text face first ("Source Sans", which Streamlit loads). Names with a space or a digit are quoted: an
# unquoted "Source Sans 3" made the whole CSS font-family invalid, so the browser drew chart text in plotly's
# fallback (Open Sans -> Verdana -> DejaVu Sans) while plotly measured it in the page's narrower face, and legend
# entries ran into each other and past the legend's box.
FONT = {"size": 15, "color": PALETTE["text"],
        "family": '"Source Sans", "Source Sans Pro", "Source Sans 3", Helvetica, Arial, sans-serif'}
TITLE_FONT = {"size": 18}
HOVER_FONT = {"size": 15}
# automargin: the margins grow to fit long tick labels and the axis titles (a category axis of convention names
# would otherwise be cut at the chart's left edge).
AXIS = {"gridcolor": PALETTE["grid"], "zerolinecolor": PALETTE["grid"], "linecolor": "#9CA3AF", "ticks": "outside",
        "automargin": True}
MARGIN = {"l": 60, "r": 30, "t": 60, "b": 50}
# The charts explain, they are not for exploring: no axis can be dragged, zoomed or panned ("fixedrange" on every
# axis) and a drag starts nothing ("dragmode": False). On a phone a swipe that started on a chart panned it instead
# of scrolling the page, every bar left the plot, and the modebar's "Reset axes" is hidden below 640 px (app.py).
# With dragmode False plotly leaves a touch to the browser (no preventDefault), so the swipe scrolls the page, and
# hovering or clicking still shows a bar's numbers. A chart drawn with st.plotly_chart(on_select=...) is the
# exception: Streamlit replaces a false dragmode by "pan", so plotly takes every touch on it; TOUCH_SCROLL_SCRIPT
# (below) gives those touches back to the page.
STILL_AXIS = {"fixedrange": True}
NO_DRAG = {"dragmode": False}
LEGEND_ABOVE = {"orientation": "h", "yanchor": "bottom", "y": 1.0, "xanchor": "right", "x": 1.0}
HEIGHT = 360

# One colour per ranked position, shared by the linked views of a list (ui/linked.py): the bars of the
# contribution chart, the ranked list's rows and the DCG formula's terms. Six dark colours, cycling (rank 7 takes
# rank 1's colour): each keeps >= 4.5:1 contrast on white as formula text, none is the ideal bars' orange, and
# the rank number always travels with the colour (axis tick, row number, the term's log(i + 1)).
POSITION_COLOURS: tuple[str, ...] = ("#0072B2", "#117733", "#882255", "#AA4499", "#332288", "#994F00")


# Run once per page (app.py: ``st.html(TOUCH_SCROLL_SCRIPT, unsafe_allow_javascript=True)``). A touch that starts on
# a chart's plot area stops at the document, before plotly's own touchstart listener on its drag layer: that
# listener cancels the touch whenever the chart's dragmode is not false, which Streamlit forces for the charts whose
# bars are clicked (on_select: the Playground's and Step by step's), so a swipe there scrolled nothing. The browser
# then scrolls the page for a swipe, and turns a tap into mouse events (move, down, up, click) that plotly handles
# as a mouse click: the tapped bar shows its numbers and is selected. (Passive: the listener itself cancels nothing.)
TOUCH_SCROLL_SCRIPT = """
<script>
(() => {
  if (window.__ndcgChartTouchScrolls) return;
  window.__ndcgChartTouchScrolls = true;
  document.addEventListener("touchstart", (event) => {
    const target = event.target;
    if (target instanceof Element && target.closest("[data-testid='stPlotlyChart'] .draglayer")) {
      event.stopPropagation();
    }
  }, {capture: true, passive: true});
})();
</script>
"""


def position_colour(rank: int) -> str:
    """The linked views' colour of 1-based ``rank``."""
    return POSITION_COLOURS[(int(rank) - 1) % len(POSITION_COLOURS)]


def base_layout(
    *, title: str, x_title: str, y_title: str, height: int = HEIGHT, margin: dict | None = None,
    legend: dict | None = None, xaxis: dict | None = None, yaxis: dict | None = None,
) -> dict:
    """The layout every chart starts from: title, fonts, white background, grid, axis titles.

    ``margin`` and ``legend`` replace the defaults; ``xaxis`` and ``yaxis`` add to the shared axis style.
    """
    return {
        "title": {"text": title, "font": TITLE_FONT},
        "font": FONT,
        "template": {},
        "paper_bgcolor": "#FFFFFF",
        "plot_bgcolor": "#FFFFFF",
        "height": height,
        "margin": margin or MARGIN,
        "legend": legend or LEGEND_ABOVE,
        "hoverlabel": {"font": HOVER_FONT},
        "xaxis": {**AXIS, "title": {"text": x_title}, **(xaxis or {}), **STILL_AXIS},
        "yaxis": {**AXIS, "title": {"text": y_title}, **(yaxis or {}), **STILL_AXIS},
        **NO_DRAG,
    }


def count_axis(largest: int) -> dict:
    """A y axis of counts (queries, answers): from 0, ticks on whole numbers only (plotly put ticks at 0.2, 0.4, …
    under a largest bar of 1), at most eight of them, a step of 1, 2 or 5 times a power of ten.

    >>> [count_axis(n)["dtick"] for n in (1, 7, 13, 40, 59, 1000)]
    [1, 1, 2, 10, 10, 200]
    """
    return {"rangemode": "tozero", "tickformat": "d", "dtick": count_step(largest, ticks=8)}


def count_step(largest: int, *, ticks: int) -> int:
    """The smallest step of 1, 2 or 5 times a power of ten that labels 0 to ``largest`` with at most ``ticks``
    ticks (a step of 1 under 14 ticks put 13's labels on top of each other in Present mode's 20-px text)."""
    scale = 1
    while True:
        for step in (scale, 2 * scale, 5 * scale):
            if int(largest) // step + 1 <= ticks:
                return step
        scale *= 10


def is_axis(name: str) -> bool:
    """Whether a layout key names a cartesian axis ("xaxis", "yaxis2", ...)."""
    return re.fullmatch(r"[xy]axis\d*", name) is not None


def hold_still(layout: dict) -> dict:
    """A layout dict (in place) with every axis fixed and no drag: the last step of every dict-built chart.

    Axes a builder adds besides the base layout's two (a right-hand axis "yaxis2") are held still too.
    """
    for name, axis in layout.items():
        if is_axis(name) and isinstance(axis, dict):
            axis.update(STILL_AXIS)
    layout.update(NO_DRAG)
    return layout


def spec_figure(data: list[dict], layout: dict) -> go.Figure:
    """A figure from plain dict traces and a :func:`base_layout` layout, every axis held still, not validated.

    graph_objects' property validators cost ~10-30 ms per chart on every rerun (~0.1 s the first time in a
    process); the builders assemble dicts instead, and tests/test_formatting.py validates every chart's spec fully
    (``go.Figure(fig.to_plotly_json())``), so a misspelt property still fails there.
    """
    return go.Figure({"data": data, "layout": hold_still(layout)}, _validate=False)


def vertical_line(x: float, line: dict) -> dict:
    """A shape: a line across the plot's whole height at ``x`` (what plotly's ``add_vline`` adds)."""
    return {"type": "line", "x0": x, "x1": x, "xref": "x", "y0": 0, "y1": 1, "yref": "y domain", "line": line}


def horizontal_line(y: float, line: dict) -> dict:
    """A shape: a line across the plot's whole width at ``y`` (what plotly's ``add_hline`` adds)."""
    return {"type": "line", "x0": 0, "x1": 1, "xref": "x domain", "y0": y, "y1": y, "yref": "y", "line": line}


def band(axis: str, low: float, high: float, *, fillcolor: str, opacity: float) -> dict:
    """A shape: a shaded band from ``low`` to ``high`` on ``axis`` ("x" or "y") across the whole plot, no outline
    (what plotly's ``add_vrect`` / ``add_hrect`` add)."""
    across = "y" if axis == "x" else "x"
    return {"type": "rect", f"{axis}0": low, f"{axis}1": high, f"{axis}ref": axis, f"{across}0": 0, f"{across}1": 1,
            f"{across}ref": f"{across} domain", "fillcolor": fillcolor, "opacity": opacity, "line": {"width": 0}}
