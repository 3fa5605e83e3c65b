"""Linked highlighting: one ranked position, picked in any view, shows in every view.

The Playground's contribution chart colours its bars by position (``ui.chart_style.position_colour``), the ranked
list draws each row's rank in the same colour and the DCG formula writes each term in it. Clicking a bar (plotly's
selection event) or a row of the list (the component's ``select`` state value) highlights that position: its bar
is outlined and banded, its row marked, its terms boxed in the formula and its row shaded in the per-position
table. Clicking the highlighted position again clears it.

The highlighted rank is part of the page's typed state (``PlaygroundState.highlight``; Step by step uses its
position slider). This module only maps events to that state and decorates what the builders made.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Mapping

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from ui import session, state
from ui.chart_style import PALETTE, position_colour
from ui.widgets import plain

LINKED_GROUPS = ("actual", "gain")  # the bar groups drawn per position in ui.charts (the ranking's own bars)
OUTLINE = {"color": PALETTE["text"], "width": 3}


# --- events -> position ------------------------------------------------------------------------------------------

def position_from_selection(event: object) -> int | None:
    """The rank of the last point in a plotly selection event (``st.plotly_chart(on_select=...)``), or None.

    Every chart of a per-position table has the rank on its x axis, so the point's ``x`` is the position; a bar
    of a group ("yours" next to "ideal") reports its own centre, within half a slot of the rank (2.8 for rank 3).
    """
    selection = event.get("selection") if isinstance(event, Mapping) else getattr(event, "selection", None)
    points = selection.get("points") if isinstance(selection, Mapping) else getattr(selection, "points", None)
    if not points:
        return None
    x = points[-1].get("x") if isinstance(points[-1], Mapping) else None
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not np.isfinite(x) or round(x) < 1:
        return None
    return int(round(x))


def list_selection(value: object, after_seq: int) -> tuple[int, int] | None:
    """(seq, rank) of a row click the ranked list reported (state value ``select``) and not yet applied, or None."""
    select = value.get("select") if isinstance(value, Mapping) else None
    if not isinstance(select, Mapping):
        return None
    seq, rank = select.get("seq"), select.get("position")
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in (seq, rank)) or seq <= after_seq or rank < 1:
        return None
    return seq, rank


# --- the Playground's highlighted position -----------------------------------------------------------------------

def playground_highlight(n: int) -> int | None:
    """The highlighted rank if it is still in a list of ``n`` documents (a deletion can leave it past the end)."""
    playground = state.playground()
    if playground.highlight is not None and not 1 <= playground.highlight <= n:
        playground.highlight = None
    return playground.highlight


def toggle_playground(rank: int | None) -> None:
    """Highlight ``rank``; the highlighted rank again (or None) clears the highlight."""
    playground = state.playground()
    playground.highlight = None if rank is None or rank == playground.highlight else rank


def apply_list_click(list_key: str) -> None:
    """Apply a row click of the Playground's ranked list (once: its ``seq`` is remembered), before drawing."""
    playground = state.playground()
    click = list_selection(session.widget(list_key), playground.list_select_seq)
    if click is not None:
        playground.list_select_seq = click[0]
        toggle_playground(click[1])


def chart_key(base: str, highlight: int | None) -> str:
    """A chart's widget key per highlighted rank: a new highlight starts the chart without plotly's own selection
    (which would dim every other bar and keep pointing at the previous click)."""
    return f"{base}_h{highlight or 0}"


def on_bar_click(key: str, pick: Callable[[int | None], None] = toggle_playground) -> Callable[[], None]:
    """The ``on_select`` callback of chart ``key``: the clicked rank goes to ``pick``."""
    def picked() -> None:
        rank = position_from_selection(session.widget(key))
        if rank is not None:
            pick(rank)
    return picked


# --- decorating the views --------------------------------------------------------------------------------------

def _ranks(x: object) -> np.ndarray:
    """A bar trace's x values (ranks), whether plain or in plotly's typed-array form (ui.charts sends those)."""
    if isinstance(x, Mapping) and "bdata" in x:
        return np.frombuffer(base64.b64decode(x["bdata"]), dtype=np.dtype(x.get("dtype", "f8")).newbyteorder("<"))
    return np.asarray(x if x is not None else [], dtype=float)

def link_figure(fig: go.Figure, highlight: int | None = None) -> go.Figure:
    """Colour the ranking's bars by position and outline every bar at the highlighted rank (in place).

    Only the builders' own series are touched: a series' bars (legend group = its name, as ``ui.charts`` draws
    them) and the grey past-k bars; traces other modules add (e.g. translucent ghosts of an earlier state) keep
    their look.
    """
    for trace in fig.data:
        own_series = trace.legendgroup == trace.name
        if trace.type != "bar" or not (own_series or trace.legendgroup == "past"):
            continue
        ranks = _ranks(trace.x)
        # A click selects a bar in plotly, which dims every other one until the chart is drawn anew (its key changes
        # with the highlight). A click that highlights nothing (an ideal place past the ranking's end) left the
        # chart dimmed: the app's own outline marks the highlight, so plotly's dimming is off.
        trace.unselected = {"marker": {"opacity": 1}}
        if own_series and trace.offsetgroup in LINKED_GROUPS:
            trace.marker.color = [position_colour(int(rank)) for rank in ranks]
        if highlight is not None and (ranks == highlight).any():
            hit = ranks == highlight
            trace.marker.line = {"color": OUTLINE["color"], "width": [OUTLINE["width"] if h else 0 for h in hit]}
    return fig


def position_colours(n: int) -> list[str]:
    """The colour of each rank 1..n, for the list's rows and the formula's terms."""
    return [position_colour(rank) for rank in range(1, n + 1)]


def highlight_note(names, highlight: int | None) -> None:
    """One line under the chart: what is highlighted and how to change it (a button clears it)."""
    if highlight is None:
        # (plotly's legend swatch shows rank 1's colour only, so the colours are explained here)
        st.caption("Each bar of your ranking has its rank's colour, as in the list and the formula. Click a bar or "
                   "a row of the ranked list to highlight its position in the list, the chart, the formula and the "
                   "table.")
        return
    with st.container(horizontal=True, vertical_alignment="center"):
        st.markdown(f"**Highlighted: rank {highlight}** ({_name(names, highlight)}) in the list, the chart, the "
                    "formula and the table.")
        st.button("Clear highlight", key="playground_clear_highlight", on_click=toggle_playground, args=(None,),
                  icon=":material/close:")


def _name(names, rank: int) -> str:
    return plain(names[rank - 1]) if 0 < rank <= len(names) else "?"
