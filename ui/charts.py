"""Chart builders for a ListResult's per-position table (plotly graph_objects only).

Every builder takes ``ListResult.table`` and returns a ``go.Figure``:

* :func:`contribution_chart` - each position's DCG contribution next to the ideal list's.
* :func:`cumulative_chart` - running DCG and IDCG over rank, NDCG@i on a second axis.
* :func:`decomposition_chart` - each contribution split into its gain and its discount.

Positions past the cutoff k are drawn greyed out: they exist in the ranking but do
not count. Colours come from the Okabe-Ito palette, which stays distinguishable
for the common forms of colour blindness; the meaning never rests on colour alone
(legends, patterns, marker shapes and hover text name every series).

Why plain dicts: building a figure through graph_objects' property validators costs ~30 ms per
chart on this machine, three charts on every rerun. The specs below are assembled as dicts and
wrapped with ``chart_style.spec_figure`` (0.5 ms, no validators); tests validate the same specs fully
once (``go.Figure(fig.to_plotly_json())``), so a typo still fails loudly.
"""

from __future__ import annotations

import base64

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ui.chart_style import PALETTE, base_layout, spec_figure

# Colours of the grade chips, low to high grade (light to dark blue, then orange/vermillion for top grades),
# chosen from the same palette family so a grade reads the same in the list and in the charts.
GRADE_COLOURS: tuple[str, ...] = ("#E5E7EB", "#BFE3F7", "#56B4E9", "#0072B2", "#E69F00", "#D55E00")

# Bars past the cutoff k: grey and dotted (a patterned series keeps its own pattern, so it stays recognisable).
PAST_PATTERN = {"shape": ".", "fillmode": "overlay", "fgcolor": "#111827", "fgopacity": 0.55, "size": 7, "solidity": 0.25}

MAX_BARS = 100  # bar charts past this many positions become unreadable (and slow); show the top ones


def grade_colour(grade: float, top_grade: float) -> str:
    """Chip colour for ``grade`` on a scale whose highest grade is ``top_grade``."""
    if not np.isfinite(grade) or grade <= 0:
        return GRADE_COLOURS[0]
    steps = len(GRADE_COLOURS) - 1
    scale = max(top_grade, 1.0)
    level = 1 + int(round((min(grade, scale) / scale) * (steps - 1)))
    return GRADE_COLOURS[min(level, steps)]


def _visible(table: pd.DataFrame, k: int | None) -> pd.DataFrame:
    """The rows worth drawing: all of them for short lists, else the top MAX_BARS (or up to k + a few)."""
    if len(table) <= MAX_BARS:
        return table
    limit = MAX_BARS if k is None else max(MAX_BARS, min(k + 10, 4 * MAX_BARS))
    return table.iloc[:limit]


LEGEND_ROW = 34  # px: one row of legend entries, with a little air


def _figure(data: list[dict], layout: dict) -> go.Figure:
    # The legend sits between the title and the plot, one row on a desktop; on a phone each entry past the second
    # wraps to a row of its own, so the top margin makes room for that many rows (else the title covers them).
    entries = len({trace["name"] for trace in data if trace.get("showlegend", True)})
    layout["margin"] = {**layout["margin"], "t": layout["margin"]["t"] + LEGEND_ROW * max(0, entries - 2)}
    # The layout comes from ui.chart_style.base_layout, whose empty template spares the deep copy of plotly's; every
    # axis, the right-hand one too, is held still (a swipe on a phone scrolls the page, never pans the chart).
    return spec_figure(data, layout)


def _typed(values) -> dict | list:
    """A numeric array in plotly.js's typed-array form: what plotly itself sends for a numpy array.

    Built here, plotly skips its own conversion on every rerun (an array check through narwhals and a deep
    copy, twice, per array: ~0.6 ms per chart). Ranks travel as int32, everything else as float64.
    """
    array = np.asarray(values)
    if array.size == 0:
        return []
    array = np.ascontiguousarray(array, dtype=np.int32 if array.dtype.kind in "iu" else np.float64)
    spec = {"dtype": "i4" if array.dtype == np.int32 else "f8", "bdata": base64.b64encode(array).decode("ascii")}
    if array.ndim == 2:
        spec["shape"] = f"{array.shape[0]}, {array.shape[1]}"
    return spec


def _layout(
    *, title: str, y_title: str, n_shown: int, n_total: int, k: int | None, last_rank: int,
    highlight: int | None, extra: dict | None = None,
) -> dict:
    subtitle = "" if n_shown == n_total else f"first {n_shown:,} of {n_total:,} positions"
    shapes: list[dict] = []
    annotations: list[dict] = []
    if k is not None and k < last_rank:
        shapes.append({
            "type": "line", "x0": k + 0.5, "x1": k + 0.5, "y0": 0, "y1": 1, "xref": "x", "yref": "paper",
            "line": {"color": PALETTE["text"], "dash": "dash", "width": 2},
        })
        # A short label beside the line (the legend or the shading says the rest): placed in data coordinates, a
        # long one made plotly widen the axis to fit it, up to 17 empty ranks for a list of 5 on a phone.
        annotations.append({
            "x": k + 0.5, "y": 0.99, "xref": "x", "yref": "paper", "text": f" k = {k} ",
            "showarrow": False, "xanchor": "left" if k + 1 < last_rank else "right", "yanchor": "top",
            "font": {"size": 13}, "bgcolor": "rgba(255,255,255,0.85)",
        })
    if highlight is not None and 1 <= highlight <= last_rank:
        shapes.append({
            "type": "rect", "x0": highlight - 0.5, "x1": highlight + 0.5, "y0": 0, "y1": 1, "xref": "x",
            "yref": "paper", "fillcolor": PALETTE["highlight"], "opacity": 0.18, "line": {"width": 0}, "layer": "below",
        })
    xaxis = {"range": [0.5, max(last_rank, 1) + 0.5], "autorange": False, **({"dtick": 1} if last_rank <= 30 else {})}
    layout = base_layout(
        title=title, x_title="Rank i", y_title=y_title,
        margin={"l": 60, "r": 70, "t": 95, "b": 50},
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "xanchor": "left", "x": 0.0},
        xaxis=xaxis, yaxis={"rangemode": "tozero"},
    )
    layout["title"]["y"] = 0.97
    if subtitle:  # plotly's own subtitle: a "<br><sup>" second line pushed the title above the chart's top edge
        layout["title"]["subtitle"] = {"text": subtitle, "font": {"size": 13}}
    layout.update({"bargap": 0.2, "shapes": shapes, "annotations": annotations})
    layout.update(extra or {})
    return layout


# Hover text of the bars; customdata holds the columns _bars is given, in that order.
CONTRIBUTION_HOVER = (
    "Rank %{{x}}<br>{grade} %{{customdata[0]:g}} → gain %{{customdata[1]:.4g}}<br>"
    "÷ discount %{{customdata[2]:.4f}}<br><b>contribution %{{y:.4f}}</b><extra>{who}</extra>"
)
DECOMPOSITION_HOVER = (
    "Rank %{x}: grade %{customdata[0]:g}<br>gain %{y:.4g} ÷ discount %{customdata[1]:.4f}"
    "<br>= contribution %{customdata[2]:.4f}<extra></extra>"
)


def _bars(
    shown: pd.DataFrame, y: str, custom: tuple[str, ...], *, name: str, colour: str, group: str, hover: str,
    pattern: dict | None = None, past_legend: bool = False,
) -> list[dict]:
    """One bar trace for the counted positions and a grey one for those past k, sharing one slot per rank.

    ``custom`` names the table columns sent along as customdata (for the hover text).
    """
    customdata = np.column_stack([shown[column] for column in custom])
    counted = shown["in_cutoff"].to_numpy()
    rank, values = shown["rank"].to_numpy(), shown[y].to_numpy()
    traces = []
    for inside in (True, False):
        mask = counted == inside
        if not mask.any():
            continue
        marker: dict = {"color": colour if inside else PALETTE["muted"], "line": {"width": 0}}
        if pattern or not inside:  # past k: dotted, so "not counted" is not told by the grey alone
            marker["pattern"] = pattern or PAST_PATTERN
        traces.append({
            "type": "bar", "x": _typed(rank[mask]), "y": _typed(values[mask]),
            # one 2-D typed array (base64 with a shape, as go.Bar sends the Compare and Dataset charts' customdata);
            # a list of lists cost ~1 ms per chart in deep copies on every rerun
            "customdata": _typed(customdata[mask]), "name": name if inside else "past k (not counted)",
            "legendgroup": name if inside else "past", "showlegend": bool(inside or past_legend),
            "offsetgroup": group, "marker": marker,
            "hovertemplate": hover + ("" if inside else "<br><i>past k: not counted</i>"),
        })
    return traces


def _ideal_beyond(table: pd.DataFrame, shown: pd.DataFrame, ideal_places: pd.DataFrame | None) -> pd.DataFrame:
    """The ideal list's rows for the chart: ``shown``'s, then (when the whole ranking is drawn) the places IDCG counts
    past the ranking's end (``ListResult.ideal_table``: judged documents the ranking did not return), so the ideal
    bars add up to the IDCG card."""
    if ideal_places is None or len(shown) < len(table) or len(ideal_places) <= len(table):
        return shown
    beyond = ideal_places.iloc[len(table): MAX_BARS].rename(columns={"place": "rank"}).assign(in_cutoff=True)
    return pd.concat([shown, beyond], ignore_index=True)


def contribution_chart(table: pd.DataFrame, *, k: int | None = None, highlight: int | None = None,
                       ideal_places: pd.DataFrame | None = None) -> go.Figure:
    """Bars of gain / discount at each rank, the ranking's next to the ideal list's; past k greyed.

    ``ideal_places`` (the result's ``ideal_table``) adds the ideal places past the ranking's end."""
    shown = _visible(table, k)
    ideal = _ideal_beyond(table, shown, ideal_places)
    data = _bars(
        shown, "contribution", ("relevance", "gain", "discount"), name="Your ranking", colour=PALETTE["actual"],
        group="actual", hover=CONTRIBUTION_HOVER.format(grade="grade", who="your ranking"), past_legend=True,
    ) + _bars(
        ideal, "ideal_contribution", ("ideal_relevance", "ideal_gain", "discount"), name="Ideal ranking",
        colour=PALETTE["ideal"], group="ideal", hover=CONTRIBUTION_HOVER.format(grade="ideal grade", who="ideal"),
        pattern={"shape": "/", "fillmode": "overlay", "fgcolor": "#FFFFFF", "fgopacity": 0.7, "size": 10, "solidity": 0.3},
    )
    layout = _layout(
        title="Contribution of each position", y_title="gain ÷ discount", n_shown=len(shown),
        n_total=len(table), k=k, last_rank=len(ideal), highlight=highlight, extra={"barmode": "group"},
    )
    return _figure(data, layout)


def _line_points(table: pd.DataFrame, limit: int = 2_000) -> pd.DataFrame:
    """Downsample long lists for line charts: every position up to 200, then evenly spaced ones."""
    if len(table) <= limit:
        return table
    keep = np.unique(np.concatenate([np.arange(200), np.linspace(0, len(table) - 1, limit - 200).astype(int)]))
    return table.iloc[keep]


def cumulative_chart(table: pd.DataFrame, *, k: int | None = None, highlight: int | None = None,
                     ideal_places: pd.DataFrame | None = None) -> go.Figure:
    """Running DCG and IDCG over rank (left axis) with NDCG@i = DCG@i / IDCG@i (right axis).

    ``ideal_places`` (the result's ``ideal_table``) continues IDCG over the ideal places past the ranking's end."""
    shown = _line_points(table)
    mode = "lines" if len(shown) > 60 else "lines+markers"
    x = _typed(shown["rank"].to_numpy())  # shared by the traces
    ideal = _ideal_beyond(table, shown, ideal_places)
    last = int(ideal["rank"].iloc[-1])

    def line(column: str, name: str, colour: str, dash: str, symbol: str, label: str, axis: str = "y") -> dict:
        points = ideal if column == "cumulative_idcg" else shown
        return {
            "type": "scatter", "x": x if points is shown else _typed(points["rank"].to_numpy()),
            "y": _typed(points[column].to_numpy()), "name": name, "mode": mode, "yaxis": axis,
            "line": {"color": colour, "width": 3, "dash": dash}, "marker": {"size": 9, "symbol": symbol},
            "hovertemplate": f"{label}@%{{x}} = %{{y:.4f}}<extra></extra>",
        }

    data = [
        line("cumulative_dcg", "DCG@i", PALETTE["actual"], "solid", "circle", "DCG"),
        line("cumulative_idcg", "IDCG@i", PALETTE["ideal"], "dash", "diamond", "IDCG"),
        line("ndcg_at_rank", "NDCG@i (right axis)", PALETTE["ndcg"], "dot", "square", "NDCG", "y2"),
    ]
    layout = _layout(
        title="Cumulative DCG and IDCG, and NDCG@i", y_title="cumulative discounted gain", n_shown=len(table),
        n_total=len(table), k=k, last_rank=last, highlight=highlight,
        extra={
            "hovermode": "x unified",
            "yaxis2": {
                "title": {"text": "NDCG@i"}, "overlaying": "y", "side": "right", "range": [0, 1.05], "showgrid": False,
                "tickmode": "linear", "tick0": 0, "dtick": 0.2, "tickformat": ".1f",
            },
        },
    )
    if k is not None and k < last:  # shade the positions that do not count
        layout["shapes"].append({
            "type": "rect", "x0": k + 0.5, "x1": last + 0.5, "y0": 0, "y1": 1, "xref": "x", "yref": "paper",
            "fillcolor": PALETTE["muted"], "opacity": 0.25, "line": {"width": 0}, "layer": "below",
        })
    return _figure(data, layout)


def decomposition_chart(table: pd.DataFrame, *, k: int | None = None, highlight: int | None = None,
                        ideal_places: pd.DataFrame | None = None) -> go.Figure:
    """Gain (bars, left axis) and discount log_b(i + 1) (line, right axis): contribution = gain ÷ discount.

    (``ideal_places`` is accepted as by the other charts of :data:`CHARTS` and not drawn: this chart is about the
    ranking's own terms.)"""
    shown = _visible(table, k)
    x = _typed(shown["rank"].to_numpy())  # shared by the traces
    data = _bars(
        shown, "gain", ("relevance", "discount", "contribution"), name="gain g(grade)", colour=PALETTE["gain"],
        group="gain", hover=DECOMPOSITION_HOVER, past_legend=True,
    )
    data.append({
        "type": "scatter", "x": x, "y": _typed(shown["discount"].to_numpy()), "name": "discount (right axis)",
        "yaxis": "y2", "mode": "lines+markers" if len(shown) <= 60 else "lines",
        "line": {"color": PALETTE["discount"], "width": 3}, "marker": {"size": 9, "symbol": "triangle-up"},
        "hovertemplate": "Rank %{x}: discount %{y:.4f}<extra></extra>",
    })
    data.append({
        "type": "scatter", "x": x, "y": _typed(shown["contribution"].to_numpy()), "name": "contribution = gain ÷ discount",
        "mode": "markers", "marker": {"color": PALETTE["text"], "size": 10, "symbol": "x"},
        "hovertemplate": "Rank %{x}: contribution %{y:.4f}<extra></extra>",
    })
    layout = _layout(
        title="Each contribution = gain ÷ discount", y_title="gain", n_shown=len(shown), n_total=len(table), k=k,
        last_rank=len(shown), highlight=highlight,
        extra={"yaxis2": {
            "title": {"text": "discount log_b(i+1)"}, "overlaying": "y", "side": "right", "rangemode": "tozero",
            "showgrid": False, "tickmode": "auto", "tickformat": ".1f",
        }},
    )
    return _figure(data, layout)


# Chart choices for pages that show one chart at a time: key -> (label, builder).
CHARTS = {
    "contribution": ("Contribution: yours vs ideal", contribution_chart),
    "cumulative": ("Cumulative DCG, IDCG and NDCG@i", cumulative_chart),
    "decomposition": ("Gain ÷ discount", decomposition_chart),
}
