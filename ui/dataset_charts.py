"""Dataset page, charts: per-query NDCG histogram and the NDCG@k curve (plotly figures from ndcg_core's numbers).

Built as plain dicts (``ui.chart_style.spec_figure``), as ``ui.charts`` builds the Playground's: through
graph_objects' validators the two charts cost ~0.2 s of the page's first run after an upload and ~25 ms on every
rerun. tests/test_formatting.py validates both specs fully, so a misspelt property still fails.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ui.chart_style import MARGIN, PALETTE, base_layout, count_axis, spec_figure, vertical_line
from ui.formatting import count

CURVE_DEPTH = 20


def histogram_chart(ndcg: pd.Series, *, mean: float, label: str) -> go.Figure:
    """Per-query NDCG in 20 bins of width 0.05 on [0, 1], with the mean marked."""
    values = ndcg.dropna().to_numpy(dtype=float)
    edges = np.linspace(0.0, 1.0, 21)
    counts, _ = np.histogram(values, bins=edges)
    centres = (edges[:-1] + edges[1:]) / 2
    bars = {
        "type": "bar", "x": centres.tolist(), "y": counts.tolist(), "width": 0.048,
        "marker": {"color": PALETTE["actual"]}, "name": "queries",
        "customdata": np.column_stack([edges[:-1], edges[1:]]).tolist(),
        "hovertemplate": "NDCG %{customdata[0]:.2f}–%{customdata[1]:.2f}<br><b>%{y} queries</b><extra></extra>",
    }
    layout = base_layout(
        title=f"Per-query {label} ({count(values.size, 'query', 'queries')})", x_title=label,
        y_title="number of queries", height=400, margin={**MARGIN, "b": 90},
        xaxis={"range": [0, 1.0], "dtick": 0.1},
        yaxis=count_axis(counts.max()),  # fixed bins: never empty
    )
    layout["showlegend"] = False
    if np.isfinite(mean):  # no mean line when no query is in the mean (IDCG = 0 everywhere under Skip)
        layout["shapes"] = [vertical_line(float(mean), {"color": PALETTE["discount"], "dash": "dash", "width": 3})]
        layout["annotations"] = [{
            "x": float(mean), "y": 1.0, "yref": "paper", "text": f"mean {mean:.3f}", "showarrow": False,
            "xanchor": "right", "yanchor": "bottom", "font": {"size": 14, "color": PALETTE["discount"]},
        }]
    return spec_figure([bars], layout)


def curve_chart(curve_frame: pd.DataFrame, *, k: int | None) -> go.Figure:
    """Dataset NDCG@k for k = 1..20: mean of per-query NDCG and ratio of sums."""
    ks = curve_frame["k"].to_numpy().tolist()
    lines = [
        {"type": "scatter", "x": ks, "y": curve_frame["mean_ndcg"].to_numpy(dtype=float).tolist(),
         "name": "Mean of per-query NDCG", "mode": "lines+markers",
         "line": {"color": PALETTE["actual"], "width": 3}, "marker": {"size": 9, "symbol": "circle"},
         "hovertemplate": "k = %{x}<br>mean NDCG@%{x} = %{y:.4f}<extra></extra>"},
        {"type": "scatter", "x": ks, "y": curve_frame["ratio_of_sums"].to_numpy(dtype=float).tolist(),
         "name": "Ratio of sums ΣDCG / ΣIDCG", "mode": "lines+markers",
         "line": {"color": PALETTE["ideal"], "width": 3, "dash": "dash"}, "marker": {"size": 9, "symbol": "diamond"},
         "hovertemplate": "k = %{x}<br>ΣDCG@%{x} / ΣIDCG@%{x} = %{y:.4f}<extra></extra>"},
    ]
    # A fixed width per entry: sized from its own measure of the text, the legend cut the end of the longer entry
    # ("ΣIDC") once the page's font had replaced the one plotly measured with.
    # The legend sits at the figure's bottom edge, under the axis title (placed in the plot's coordinates it ran into
    # the title once the chart text had its full 15 px).
    legend = {"orientation": "h", "yref": "container", "yanchor": "bottom", "y": 0.0, "xanchor": "left", "x": 0.0,
              "entrywidth": 290, "entrywidthmode": "pixels"}
    layout = base_layout(
        title="Dataset NDCG@k for k = 1..20", x_title="cutoff k", y_title="NDCG@k", height=440,
        margin={**MARGIN, "b": 140}, legend=legend,
        # Whole cutoffs, as many as the width holds upright (every one turned the labels on their side on a phone).
        xaxis={"range": [0.5, CURVE_DEPTH + 0.5], "tickformat": "d", "tickangle": 0},
        yaxis={"rangemode": "tozero", "range": [0, 1.02]},
    )
    if k is not None and 1 <= k <= CURVE_DEPTH:
        layout["shapes"] = [vertical_line(k, {"color": PALETTE["text"], "dash": "dot", "width": 2})]
        layout["annotations"] = [{"x": k, "y": 0.0, "yref": "paper", "text": f"k = {k}", "showarrow": False,
                                  "xanchor": "left", "yanchor": "bottom"}]
    return spec_figure(lines, layout)
