"""The Compare page's charts (plotly figures built as plain dicts, in the app's one style from ``ui.chart_style``).

Per-position differences of two rankings; per-query differences of two runs, their bootstrap, and the one
chart of the slide view with its PNG export. Names can come from users: they are escaped for plotly's HTML.
"""

from __future__ import annotations

import html
import json

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import ndcg_core
from ui.chart_style import PALETTE, band, base_layout, count_axis, horizontal_line, spec_figure, vertical_line
from ui.formatting import percent, signed_change

MARGIN = {"l": 70, "r": 30, "t": 60, "b": 60}  # room for the signed tick labels
SLIDE_FONT, SLIDE_AXIS_TITLE_FONT, SLIDE_TITLE_FONT = 20, 22, 28  # px: the slide view and its PNG
SLIDE_HEIGHT = 480
WIN_COLOUR, LOSS_COLOUR, TIE_COLOUR = PALETTE["ndcg"], PALETTE["discount"], PALETTE["muted"]


# Who wins a bar is told by its colour and, for readers who cannot tell the colours apart, by its pattern.
WIN_SHAPE, LOSS_SHAPE, TIE_SHAPE = "", "/", "."


def outcome_pattern(colours: list[str]) -> dict:
    """marker.pattern for bars coloured WIN/LOSS/TIE_COLOUR: solid for a win, hatched for a loss, dotted for a tie."""
    shapes = {WIN_COLOUR: WIN_SHAPE, LOSS_COLOUR: LOSS_SHAPE, TIE_COLOUR: TIE_SHAPE}
    return {"shape": [shapes[colour] for colour in colours], "fillmode": "overlay", "fgcolor": "#111827",
            "fgopacity": 0.5, "size": 8, "solidity": 0.3}


def html_text(text: object) -> str:
    """Escape text for plotly titles and hover labels, which understand a little HTML."""
    return html.escape(str(text), quote=False)


def difference_chart(frame: pd.DataFrame) -> go.Figure:
    """Per position: B's contribution minus A's (positive = B gains there)."""
    colours = [WIN_COLOUR if d > 1e-12 else LOSS_COLOUR if d < -1e-12 else TIE_COLOUR for d in frame["difference"]]
    bars = {
        "type": "bar", "x": frame["rank"].tolist(), "y": frame["difference"].tolist(),
        "marker": {"color": colours, "pattern": outcome_pattern(colours)}, "name": "B − A",
        "customdata": np.column_stack([frame["document_a"].map(html_text), frame["grade_a"], frame["contribution_a"],
                                       frame["document_b"].map(html_text), frame["grade_b"],
                                       frame["contribution_b"]]).tolist(),
        "hovertemplate": (
            "Rank %{x}<br>A: %{customdata[0]} (grade %{customdata[1]:g}) → %{customdata[2]:.4f}<br>"
            "B: %{customdata[3]} (grade %{customdata[4]:g}) → %{customdata[5]:.4f}<br>"
            "<b>B − A = %{y:+.4f}</b><extra></extra>"
        ),
    }
    layout = _layout(title="Contribution of B − contribution of A", x_title="Rank i", y_title="B − A",
                     xaxis={"dtick": 1} if len(frame) <= 30 else None)
    layout["shapes"] = [horizontal_line(0, {"color": PALETTE["text"], "width": 1})]
    return spec_figure([bars], layout)


def differences_histogram(comparison: ndcg_core.Comparison, *, name_a: str, name_b: str, metric: str) -> go.Figure:
    """Distribution of per-query differences B − A, with 0 and the mean marked."""
    name_a, name_b = html_text(name_a), html_text(name_b)
    values = comparison.differences.to_numpy(dtype=float)
    limit = max(0.05, float(np.abs(values).max()) if values.size else 0.05)
    edges = np.linspace(-limit, limit, 22)
    counts, _ = np.histogram(values, bins=edges)
    centres = (edges[:-1] + edges[1:]) / 2
    # The middle bin's centre is 0, not the -5.551e-17 of float arithmetic, which the chart's words read out
    centres[np.abs(centres) < 1e-9 * limit] = 0.0
    # 21 bins symmetric around 0: the middle bin holds the ties (and near-ties) and is grey
    colours = [TIE_COLOUR if low < 0 < high else WIN_COLOUR if low >= 0 else LOSS_COLOUR
               for low, high in zip(edges[:-1], edges[1:], strict=True)]
    bars = {
        "type": "bar", "x": centres.tolist(), "y": counts.tolist(), "width": float(edges[1] - edges[0]) * 0.95,
        "name": "queries", "marker": {"color": colours, "pattern": outcome_pattern(colours)},
        "customdata": np.column_stack([edges[:-1], edges[1:]]).tolist(),
        "hovertemplate": "difference %{customdata[0]:+.3f} to %{customdata[1]:+.3f}<br><b>%{y} queries</b>"
                         "<extra></extra>",
    }
    # The runs' names are in the x-axis title: in the chart's title too, it was wider than the chart (half a 1280-px
    # page) in Present mode, with names of any length.
    layout = _layout(title=f"{metric} difference per query", x_title=f"{metric} of {name_b} − {metric} of {name_a}",
                     y_title="number of queries", yaxis=count_axis(counts.max()))  # fixed bins: never empty
    mean = float(comparison.mean_difference)
    layout["shapes"] = [vertical_line(0, {"color": PALETTE["text"], "width": 1}),
                        vertical_line(mean, {"color": PALETTE["actual"], "dash": "dash", "width": 3})]
    layout["annotations"] = [{"x": mean, "y": 1.0, "yref": "paper", "showarrow": False, "yanchor": "bottom",
                              "text": f"mean {signed_change(mean, 3)}", "font": {"color": PALETTE["actual"]}}]
    return spec_figure([bars], layout)


def bootstrap_chart(comparison: ndcg_core.Comparison) -> go.Figure:
    """Bootstrap distribution of the mean difference with the confidence interval shaded."""
    c = comparison
    histogram = {"type": "histogram", "x": np.asarray(c.bootstrap_means, dtype=float).tolist(), "nbinsx": 60,
                 "marker": {"color": PALETTE["gain"]}, "name": "resampled means",
                 "hovertemplate": "mean difference %{x}<br>%{y} resamples<extra></extra>"}
    layout = _layout(title=f"Bootstrap: {c.n_boot:,} resamples",  # short: half a 1280-px page in Present mode
                     x_title="mean difference (B − A) in a resample", y_title="resamples")
    layout["shapes"] = [band("x", c.ci_low, c.ci_high, fillcolor=PALETTE["ideal"], opacity=0.18),
                        vertical_line(0, {"color": PALETTE["text"], "width": 1})]
    layout["annotations"] = [{
        "x": (c.ci_low + c.ci_high) / 2, "y": 1.0, "yref": "paper", "yanchor": "bottom", "showarrow": False,
        "text": f"{percent(c.confidence)} CI {signed_change(c.ci_low, 3)} to {signed_change(c.ci_high, 3)}"}]
    return spec_figure([histogram], layout)


def slide_chart(comparison: ndcg_core.Comparison, *, name_a: str, name_b: str, metric: str) -> go.Figure:
    """One chart for a slide: every query's difference, sorted, coloured by who wins, with the mean and CI."""
    name_a, name_b = html_text(name_a), html_text(name_b)
    c = comparison
    ordered = c.differences.sort_values(kind="stable")
    values = ordered.to_numpy(dtype=float)
    colours = [WIN_COLOUR if v > 1e-9 else LOSS_COLOUR if v < -1e-9 else TIE_COLOUR for v in values]
    bars = {
        "type": "bar", "x": list(range(1, values.size + 1)), "y": values.tolist(),
        "marker": {"color": colours, "line": {"width": 0}, "pattern": outcome_pattern(colours)},
        "customdata": [html_text(q) for q in ordered.index],
        "hovertemplate": "query %{customdata}<br><b>%{y:+.4f}</b><extra></extra>", "name": "per query",
    }
    # Slide-sized text: read from the back of a room, on the page and in the 1600×900 PNG (fonts are in px,
    # so 20 px ticks are 2.2% of the PNG's height, like 24 pt text on a 1080-line slide).
    layout = _layout(
        title=f"{name_b} vs {name_a}: {metric} difference on each of {c.n_queries} queries",
        x_title=f"queries, sorted ({name_b} better on {c.wins}, {name_a} better on {c.losses}, {c.ties} tied)",
        y_title=f"{metric}: {name_b} − {name_a}", height=SLIDE_HEIGHT, margin={"l": 100, "r": 30, "t": 80, "b": 80},
        xaxis={"showticklabels": False, "automargin": True},
        yaxis={"tickfont": {"size": SLIDE_FONT}, "automargin": True},
    )
    layout["font"] = {**layout["font"], "size": SLIDE_FONT}
    layout["title"]["font"] = {**layout["title"]["font"], "size": SLIDE_TITLE_FONT}
    for axis in ("xaxis", "yaxis"):
        layout[axis]["title"]["font"] = {"size": SLIDE_AXIS_TITLE_FONT}
    mean = float(c.mean_difference)
    layout["shapes"] = [band("y", c.ci_low, c.ci_high, fillcolor=PALETTE["ideal"], opacity=0.25),
                        horizontal_line(mean, {"color": PALETTE["actual"], "dash": "dash", "width": 3}),
                        horizontal_line(0, {"color": PALETTE["text"], "width": 1})]
    layout["annotations"] = [{  # top left: the sorted bars are lowest there, so the label hides nothing
        "x": 0.01, "xref": "paper", "xanchor": "left", "y": 1.0, "yref": "paper", "yanchor": "top",
        "showarrow": False, "align": "left",
        "text": (f"<b>mean difference {signed_change(mean, 3)}</b> (dashed line)<br>"
                 f"{percent(c.confidence)} CI {signed_change(c.ci_low, 3)} to {signed_change(c.ci_high, 3)} "
                 "(shaded band)"),
        "font": {"size": SLIDE_FONT, "color": PALETTE["actual"]}, "bgcolor": "rgba(255,255,255,0.9)",
    }]
    return spec_figure([bars], layout)


@st.cache_resource(show_spinner=False)
def png_export_available() -> bool:
    """Whether plotly can render PNG here (kaleido 1.x drives a headless Chromium); probed once per server."""
    try:
        go.Figure().to_image(format="png", width=50, height=50)
    except Exception:  # noqa: BLE001 - no Chrome, or kaleido missing: fall back to the chart's own toolbar
        return False
    return True


def png_bytes(fig: go.Figure) -> bytes:
    """The chart as a 1600x900 PNG (kaleido starts a headless Chromium: ~3 s, so results are cached)."""
    return _render_png(fig.to_json())


@st.cache_data(show_spinner=False, max_entries=32)
def _render_png(figure_json: str) -> bytes:
    return go.Figure(json.loads(figure_json)).to_image(format="png", width=1600, height=900, scale=1)


def modebar_config(filename: str) -> dict:
    """Plotly config: the toolbar's camera button downloads a 2x PNG with a useful file name."""
    return {"toImageButtonOptions": {"format": "png", "filename": filename, "scale": 2, "width": 1600, "height": 900},
            "displaylogo": False}


def _layout(*, title: str, x_title: str, y_title: str, height: int = 360, margin: dict | None = None,
            xaxis: dict | None = None, yaxis: dict | None = None) -> dict:
    layout = base_layout(title=title, x_title=x_title, y_title=y_title, height=height, margin=margin or MARGIN,
                         xaxis=xaxis, yaxis=yaxis)
    layout["showlegend"] = False
    return layout
