"""The one chart style: colours, fonts, axes and the base plotly layout every chart of the app starts from.

Colours come from the Okabe-Ito palette (Okabe & Ito 2008, "Color Universal Design"), which stays
distinguishable for the common forms of colour blindness; the meaning of a chart never rests on colour alone.
Fonts are large (15 px, titles 18 px) because the app is projected in class.

No plotly template: the layout below sets every colour, font and grid itself (plotly's default template would
also be deep-copied into every figure, ~3 ms each). Builders either take :func:`base_layout` as a dict (the
fast path of ``ui.charts``) or apply it to a figure they built with :func:`apply_style`.
"""

from __future__ import annotations

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
LEGEND_ABOVE = {"orientation": "h", "yanchor": "bottom", "y": 1.0, "xanchor": "right", "x": 1.0}
HEIGHT = 360

# One colour per ranked position, shared by the linked views of a list (ui/linked.py): the bars of the
# contribution chart, the ranked list's rows and the DCG formula's terms. Six dark colours, cycling (rank 7 takes
# rank 1's colour): each keeps >= 4.5:1 contrast on white as formula text, none is the ideal bars' orange, and
# the rank number always travels with the colour (axis tick, row number, the term's log(i + 1)).
POSITION_COLOURS: tuple[str, ...] = ("#0072B2", "#117733", "#882255", "#AA4499", "#332288", "#994F00")


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
        "xaxis": {**AXIS, "title": {"text": x_title}, **(xaxis or {})},
        "yaxis": {**AXIS, "title": {"text": y_title}, **(yaxis or {})},
    }


def apply_style(fig: go.Figure, **layout) -> go.Figure:
    """Give a figure built with graph_objects the base layout (keywords as for :func:`base_layout`)."""
    style = base_layout(**layout)
    del style["template"]  # update_layout merges: an empty template would leave plotly's default in place
    fig.update_layout(style)
    fig.layout.template = None  # so drop it outright (the figure then carries no template at all)
    return fig
