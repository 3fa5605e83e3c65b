"""Dataset page, charts: per-query NDCG histogram and the NDCG@k curve (plotly figures from ndcg_core's numbers)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ui.chart_style import PALETTE, apply_style, count_axis
from ui.formatting import count

CURVE_DEPTH = 20


def _layout(fig: go.Figure, *, title: str, x_title: str, y_title: str, height: int = 360) -> go.Figure:
    return apply_style(fig, title=title, x_title=x_title, y_title=y_title, height=height, yaxis={"rangemode": "tozero"})


def histogram_chart(ndcg: pd.Series, *, mean: float, label: str) -> go.Figure:
    """Per-query NDCG in 20 bins of width 0.05 on [0, 1], with the mean marked."""
    values = ndcg.dropna().to_numpy(dtype=float)
    edges = np.linspace(0.0, 1.0, 21)
    counts, _ = np.histogram(values, bins=edges)
    centres = (edges[:-1] + edges[1:]) / 2
    fig = go.Figure()
    fig.add_bar(
        x=centres, y=counts, width=0.048, marker={"color": PALETTE["actual"]}, name="queries",
        customdata=np.column_stack([edges[:-1], edges[1:]]),
        hovertemplate="NDCG %{customdata[0]:.2f}–%{customdata[1]:.2f}<br><b>%{y} queries</b><extra></extra>",
    )
    if np.isfinite(mean):  # no mean line when no query is in the mean (IDCG = 0 everywhere under Skip)
        fig.add_vline(x=mean, line={"color": PALETTE["discount"], "dash": "dash", "width": 3})
        fig.add_annotation(
            x=mean, y=1.0, yref="paper", text=f"mean {mean:.3f}", showarrow=False, xanchor="right",
            yanchor="bottom", font={"size": 14, "color": PALETTE["discount"]},
        )
    _layout(fig, title=f"Per-query {label} ({count(values.size, 'query', 'queries')})", x_title=label, y_title="number of queries", height=400)
    fig.update_layout(showlegend=False, margin={"b": 90})
    fig.update_xaxes(range=[0, 1.0], dtick=0.1)
    fig.update_yaxes(count_axis(counts.max()))  # fixed bins: never empty
    return fig


def curve_chart(curve_frame: pd.DataFrame, *, k: int | None) -> go.Figure:
    """Dataset NDCG@k for k = 1..20: mean of per-query NDCG and ratio of sums."""
    fig = go.Figure()
    ks = curve_frame["k"].to_numpy()
    fig.add_scatter(
        x=ks, y=curve_frame["mean_ndcg"], name="Mean of per-query NDCG", mode="lines+markers",
        line={"color": PALETTE["actual"], "width": 3}, marker={"size": 9, "symbol": "circle"},
        hovertemplate="k = %{x}<br>mean NDCG@%{x} = %{y:.4f}<extra></extra>",
    )
    fig.add_scatter(
        x=ks, y=curve_frame["ratio_of_sums"], name="Ratio of sums ΣDCG / ΣIDCG", mode="lines+markers",
        line={"color": PALETTE["ideal"], "width": 3, "dash": "dash"}, marker={"size": 9, "symbol": "diamond"},
        hovertemplate="k = %{x}<br>ΣDCG@%{x} / ΣIDCG@%{x} = %{y:.4f}<extra></extra>",
    )
    if k is not None and 1 <= k <= CURVE_DEPTH:
        fig.add_vline(x=k, line={"color": PALETTE["text"], "dash": "dot", "width": 2})
        fig.add_annotation(x=k, y=0.0, yref="paper", text=f"k = {k}", showarrow=False, xanchor="left", yanchor="bottom")
    _layout(fig, title="Dataset NDCG@k for k = 1..20", x_title="cutoff k", y_title="NDCG@k", height=400)
    # A fixed width per entry: sized from its own measure of the text, the legend cut the end of the longer entry
    # ("ΣIDC") once the page's font had replaced the one plotly measured with.
    # The legend sits at the figure's bottom edge, under the axis title (placed in the plot's coordinates it ran into
    # the title once the chart text had its full 15 px).
    fig.update_layout(legend={"orientation": "h", "yref": "container", "yanchor": "bottom", "y": 0.0, "xanchor": "left",
                              "x": 0.0, "entrywidth": 290, "entrywidthmode": "pixels"},
                      margin={"b": 140}, height=440)
    # Whole cutoffs, as many as the width holds upright (every one turned the labels on their side on a phone).
    fig.update_xaxes(range=[0.5, CURVE_DEPTH + 0.5], tickformat="d", tickangle=0)
    fig.update_yaxes(range=[0, 1.02])
    return fig
