"""Show what changed: the Playground's previous state as ghost bars on the contribution chart, and the NDCG change.

The Playground remembers the figures it showed before the latest change (``playground_view.previous_metrics``);
:func:`snapshot` adds each position's contribution to them, and :func:`with_ghost` draws those as translucent,
outlined bars in the "Your ranking" slot of each rank, with "NDCG before → now (change)" written on the chart.
Every number comes from ``ndcg_core`` results; nothing is recomputed here.

Why on top and translucent rather than hidden behind: a position whose contribution grew would hide an opaque
ghost behind its new bar; a see-through outline shows the old height whether it was higher or lower.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

import ndcg_core
from ui.chart_style import PALETTE
from ui.formatting import fixed, signed
from ui.metric_cards import OTHER_SETTINGS

GHOST_NAME = "before"  # short: the legend shares half the page's width
GHOST_FILL = "rgba(17, 24, 39, 0.12)"  # the text colour, nearly transparent
GHOST_LINE = "rgba(17, 24, 39, 0.75)"


def snapshot(result: ndcg_core.ListResult) -> dict[str, np.ndarray]:
    """What the ghost needs of a result: the contribution at each position (ranked order).

    The core's column as it is (no copy, no conversion: this runs on every rerun, lists can be 10,000 long).
    """
    return {"contributions": result.table["contribution"].to_numpy()}


def change_text(before: float, now: float, *, other_settings: bool = False) -> str:
    """'NDCG 0.9508 → 0.8386 (−0.1122)' (the card's figures, with a true minus sign).

    After a new k, gain or log base (``other_settings``) the same ranking is measured differently, and the text says
    so instead of a signed change: 'NDCG 0.9508 → 0.8786 (new settings)'.
    """
    if other_settings:
        return f"NDCG {fixed(before)} → {fixed(now)} (new settings)"
    if math.isnan(before) or math.isnan(now):
        return f"NDCG {fixed(before)} → {fixed(now)}"
    return f"NDCG {fixed(before)} → {fixed(now)} ({signed(now - before).replace('-', '−')})"


def ghost_trace(contributions: Sequence[float], limit: int | None = None) -> dict:
    """The previous contributions as see-through bars sharing the "Your ranking" slot of each rank."""
    values = [float(value) for value in (contributions[:limit] if limit is not None else contributions)]
    return {
        "type": "bar", "x": list(range(1, len(values) + 1)), "y": values, "name": GHOST_NAME,
        "offsetgroup": "actual", "legendgroup": "ghost", "showlegend": True, "uid": "ghost",
        "marker": {"color": GHOST_FILL, "line": {"color": GHOST_LINE, "width": 2}},
        "hovertemplate": "Rank %{x}, before the change:<br>contribution %{y:.4f}<extra></extra>",
    }


def with_ghost(fig: go.Figure, previous: Mapping | None, result: ndcg_core.ListResult) -> go.Figure:
    """``fig`` (the contribution chart of ``result``) with the previous state's ghost bars and the NDCG change."""
    if not previous or "contributions" not in previous:
        return fig
    fig.add_trace(ghost_trace(previous["contributions"], limit=_drawn_positions(fig)))
    if "ndcg" in previous:
        other = bool(previous.get(OTHER_SETTINGS))
        fig.add_annotation(  # top right, inside the plot: the bars are lowest there (contributions shrink with rank)
            text=f"<b>{change_text(float(previous['ndcg']), float(result.ndcg), other_settings=other)}</b>",
            x=1.0, xref="paper",
            xanchor="right", y=1.0, yref="paper", yanchor="top", showarrow=False,
            font={"size": 15, "color": PALETTE["text"]}, bgcolor="rgba(255,255,255,0.9)", name="ndcg_change",
        )
    return fig


def _drawn_positions(fig: go.Figure) -> int | None:
    """The last rank the chart draws (ranks are 1..n), so the ghost never reaches past the drawn bars.

    The chart sends its ranks as plotly typed arrays (``{"dtype": "i4", "bdata": ...}``, see ui.charts._typed).
    """
    last = 0
    for trace in fig.data:
        x = trace.x
        if trace.type != "bar" or x is None:
            continue
        if isinstance(x, Mapping):
            x = np.frombuffer(base64.b64decode(x["bdata"]), dtype=np.dtype(x["dtype"]).newbyteorder("<"))
        last = max(last, int(np.max(x)) if len(x) else 0)
    return last or None
