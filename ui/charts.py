"""Chart builders for a ListResult's per-position table (plotly graph_objects only).

Every builder takes ``ListResult.table`` and returns a ``go.Figure``:

* :func:`contribution_chart` - each position's DCG contribution next to the ideal list's.
* :func:`cumulative_chart` - running DCG and IDCG over rank, NDCG@i on a second axis.
* :func:`decomposition_chart` - each contribution split into its gain and its discount.

Positions past the cutoff k are drawn greyed out: they exist in the ranking but do
not count. Colours come from the Okabe-Ito palette, which stays distinguishable
for the common forms of colour blindness; the meaning never rests on colour alone
(legends, patterns and hover text name every series).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

# Okabe & Ito (2008), "Color Universal Design".
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

# Colours of the grade chips, low to high grade (light to dark blue, then orange/vermillion for top grades),
# chosen from the same palette family so a grade reads the same in the list and in the charts.
GRADE_COLOURS: tuple[str, ...] = ("#E5E7EB", "#BFE3F7", "#56B4E9", "#0072B2", "#E69F00", "#D55E00")

MAX_BARS = 100  # bar charts past this many positions become unreadable (and slow); show the top ones
FONT = {"size": 15, "color": PALETTE["text"], "family": "Source Sans Pro, Source Sans 3, Helvetica, Arial, sans-serif"}


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


def _layout(fig: go.Figure, *, title: str, y_title: str, n_shown: int, n_total: int, k: int | None) -> go.Figure:
    subtitle = "" if n_shown == n_total else f"first {n_shown} of {n_total} positions"
    fig.update_layout(
        title={"text": title + (f"<br><sup>{subtitle}</sup>" if subtitle else ""), "font": {"size": 18}, "y": 0.97},
        font=FONT,
        template="plotly_white",
        height=360,
        margin={"l": 60, "r": 30, "t": 95, "b": 50},
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "xanchor": "left", "x": 0.0},
        hoverlabel={"font_size": 15},
        bargap=0.2,
        xaxis={"title": "Rank i", "dtick": 1 if n_shown <= 30 else None, "gridcolor": PALETTE["grid"]},
        yaxis={"title": y_title, "gridcolor": PALETTE["grid"], "rangemode": "tozero"},
    )
    if k is not None and k < n_shown:
        fig.add_vline(x=k + 0.5, line={"color": PALETTE["text"], "dash": "dash", "width": 2})
        fig.add_annotation(
            x=k + 0.5, y=0.99, yref="paper", text=f" k = {k}: later positions not counted ", showarrow=False,
            xanchor="left", yanchor="top", font={"size": 13}, bgcolor="rgba(255,255,255,0.85)",
        )
    return fig


def _highlight(fig: go.Figure, highlight: int | None, n_shown: int) -> None:
    if highlight is not None and 1 <= highlight <= n_shown:
        fig.add_vrect(x0=highlight - 0.5, x1=highlight + 0.5, fillcolor=PALETTE["highlight"], opacity=0.15, line_width=0)


def _split_bars(
    fig: go.Figure, shown: pd.DataFrame, y: str, *, name: str, colour: str, group: str, hover: str,
    customdata: np.ndarray, pattern: dict | None = None, past_legend: bool = False,
) -> None:
    """One bar trace for the counted positions and a grey one for those past k, sharing one slot per rank."""
    counted = shown["in_cutoff"].to_numpy()
    for inside in (True, False):
        mask = counted == inside
        if not mask.any():
            continue
        marker = {"color": colour if inside else PALETTE["muted"], "line": {"width": 0}}
        if pattern:
            marker["pattern"] = pattern
        fig.add_bar(
            x=shown["rank"].to_numpy()[mask], y=shown[y].to_numpy()[mask], customdata=customdata[mask],
            name=name if inside else "past k (not counted)", legendgroup=name if inside else "past",
            showlegend=inside or past_legend, offsetgroup=group, marker=marker,
            hovertemplate=hover + ("" if inside else "<br><i>past k: not counted</i>"),
        )


def contribution_chart(table: pd.DataFrame, *, k: int | None = None, highlight: int | None = None) -> go.Figure:
    """Bars of gain / discount at each rank, the ranking's next to the ideal list's; past k greyed."""
    shown = _visible(table, k)
    fig = go.Figure()
    _split_bars(
        fig, shown, "contribution", name="Your ranking", colour=PALETTE["actual"], group="actual",
        customdata=np.column_stack([shown["relevance"], shown["gain"], shown["discount"]]),
        hover=(
            "Rank %{x}<br>grade %{customdata[0]:g} → gain %{customdata[1]:.4g}<br>"
            "÷ discount %{customdata[2]:.4f}<br><b>contribution %{y:.4f}</b><extra>your ranking</extra>"
        ),
        past_legend=True,
    )
    _split_bars(
        fig, shown, "ideal_contribution", name="Ideal ranking", colour=PALETTE["ideal"], group="ideal",
        customdata=np.column_stack([shown["ideal_relevance"], shown["ideal_gain"], shown["discount"]]),
        pattern={"shape": "/", "fgcolor": "#FFFFFF", "fgopacity": 0.6},
        hover=(
            "Rank %{x}<br>ideal grade %{customdata[0]:g} → gain %{customdata[1]:.4g}<br>"
            "÷ discount %{customdata[2]:.4f}<br><b>contribution %{y:.4f}</b><extra>ideal</extra>"
        ),
    )
    fig.update_layout(barmode="group")
    _highlight(fig, highlight, len(shown))
    return _layout(
        fig, title="Contribution of each position: gain ÷ discount", y_title="contribution",
        n_shown=len(shown), n_total=len(table), k=k,
    )


def _line_points(table: pd.DataFrame, limit: int = 2_000) -> pd.DataFrame:
    """Downsample long lists for line charts: every position up to ``limit``, then evenly spaced ones."""
    if len(table) <= limit:
        return table
    keep = np.unique(np.concatenate([np.arange(200), np.linspace(0, len(table) - 1, limit - 200).astype(int)]))
    return table.iloc[keep]


def cumulative_chart(table: pd.DataFrame, *, k: int | None = None, highlight: int | None = None) -> go.Figure:
    """Running DCG and IDCG over rank (left axis) with NDCG@i = DCG@i / IDCG@i (right axis)."""
    shown = _line_points(table)
    many = len(shown) > 60
    mode = "lines" if many else "lines+markers"
    rank = shown["rank"].to_numpy()
    fig = go.Figure()
    fig.add_scatter(
        x=rank, y=shown["cumulative_dcg"], name="DCG@i", mode=mode,
        line={"color": PALETTE["actual"], "width": 3}, marker={"size": 9, "symbol": "circle"},
        hovertemplate="DCG@%{x} = %{y:.4f}<extra></extra>",
    )
    fig.add_scatter(
        x=rank, y=shown["cumulative_idcg"], name="IDCG@i", mode=mode,
        line={"color": PALETTE["ideal"], "width": 3, "dash": "dash"}, marker={"size": 9, "symbol": "diamond"},
        hovertemplate="IDCG@%{x} = %{y:.4f}<extra></extra>",
    )
    fig.add_scatter(
        x=rank, y=shown["ndcg_at_rank"], name="NDCG@i (right axis)", mode=mode, yaxis="y2",
        line={"color": PALETTE["ndcg"], "width": 3, "dash": "dot"}, marker={"size": 9, "symbol": "square"},
        hovertemplate="NDCG@%{x} = %{y:.4f}<extra></extra>",
    )
    fig.update_layout(
        hovermode="x unified",
        yaxis2={
            "title": "NDCG@i", "overlaying": "y", "side": "right", "range": [0, 1.05], "showgrid": False,
            "tickmode": "linear", "tick0": 0, "dtick": 0.2, "tickformat": ".1f",
        },
    )
    if k is not None and k < len(table):
        fig.add_vrect(x0=k + 0.5, x1=float(rank[-1]) + 0.5, fillcolor=PALETTE["muted"], opacity=0.25, line_width=0)
    _highlight(fig, highlight, int(rank[-1]))
    fig = _layout(fig, title="Cumulative DCG and IDCG, and NDCG@i", y_title="cumulative gain (discounted)",
                  n_shown=len(table), n_total=len(table), k=k)
    fig.update_layout(margin={"r": 70}, xaxis={"dtick": 1 if len(table) <= 30 else None})
    return fig


def decomposition_chart(table: pd.DataFrame, *, k: int | None = None, highlight: int | None = None) -> go.Figure:
    """Gain (bars, left axis) and discount log_b(i + 1) (line, right axis): contribution = gain ÷ discount."""
    shown = _visible(table, k)
    rank = shown["rank"].to_numpy()
    fig = go.Figure()
    _split_bars(
        fig, shown, "gain", name="gain g(grade)", colour=PALETTE["gain"], group="gain",
        customdata=np.column_stack([shown["relevance"], shown["discount"], shown["contribution"]]),
        hover=(
            "Rank %{x}: grade %{customdata[0]:g}<br>gain %{y:.4g} ÷ discount %{customdata[1]:.4f}"
            "<br>= contribution %{customdata[2]:.4f}<extra></extra>"
        ),
        past_legend=True,
    )
    fig.add_scatter(
        x=rank, y=shown["discount"], name="discount (right axis)", yaxis="y2",
        mode="lines+markers" if len(shown) <= 60 else "lines",
        line={"color": PALETTE["discount"], "width": 3}, marker={"size": 9, "symbol": "triangle-up"},
        hovertemplate="Rank %{x}: discount %{y:.4f}<extra></extra>",
    )
    fig.add_scatter(
        x=rank, y=shown["contribution"], name="contribution = gain ÷ discount", mode="markers",
        marker={"color": PALETTE["text"], "size": 10, "symbol": "x"},
        hovertemplate="Rank %{x}: contribution %{y:.4f}<extra></extra>",
    )
    fig.update_layout(
        yaxis2={
            "title": "discount log_b(i+1)", "overlaying": "y", "side": "right", "rangemode": "tozero",
            "showgrid": False, "tickmode": "auto", "tickformat": ".1f",
        },
    )
    _highlight(fig, highlight, len(shown))
    fig = _layout(fig, title="Each contribution = gain ÷ discount", y_title="gain",
                  n_shown=len(shown), n_total=len(table), k=k)
    fig.update_layout(margin={"r": 70})
    return fig
