"""Compare page building blocks: two rankings of the same documents, two runs, verdicts and slide charts.

Canonical state: ``compare_docs_base`` (the judged documents as a DataFrame, the editor's base) and
``compare_order_a`` / ``compare_order_b`` (each ranking as a list of document names). The run mode reads the
Dataset page's data set (``ui.dataset_view.current_dataset``).
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import ndcg_core
from ui import session
from ui.charts import PALETTE

DOCS_KEY = "compare_docs_base"
ORDER_KEYS = {"A": "compare_order_a", "B": "compare_order_b"}
EXAMPLE_DOCS = pd.DataFrame({"document": [f"D{i}" for i in range(1, 9)], "grade": [3.0, 2.0, 3.0, 0.0, 1.0, 2.0, 0.0, 1.0]})
EXAMPLE_ORDERS = {
    "A": ["D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8"],
    "B": ["D3", "D4", "D1", "D6", "D2", "D8", "D5", "D7"],
}
FONT = {"size": 15, "color": PALETTE["text"]}
WIN_COLOUR, LOSS_COLOUR, TIE_COLOUR = PALETTE["ndcg"], PALETTE["discount"], PALETTE["muted"]


def html_text(text: object) -> str:
    """Escape text for plotly titles and hover labels, which understand a little HTML."""
    return html.escape(str(text), quote=False)


# --- mode 1: two rankings of the same documents -------------------------------------------------------------

def reset_documents(names: Sequence[str], grades: Sequence[float], orders: dict[str, list[str]] | None = None) -> None:
    """Replace the judged documents (and both rankings) and reset the editor."""
    session.set_widget(DOCS_KEY, pd.DataFrame({"document": [str(n) for n in names], "grade": [float(g) for g in grades]}))
    for side, key in ORDER_KEYS.items():
        session.set_widget(key, list(orders[side]) if orders else [str(n) for n in names])
    session.forget(EDITOR_KEY)
    session.forget(BASE_NAMES_KEY)


BASE_NAMES_KEY = "compare_base_names"
EDITOR_KEY = "compare_docs_editor"


def _row(row, size: int) -> int | None:
    """An editor row key the browser sent (int or ASCII digits) inside the table, else None (ignored)."""
    text = str(row)
    if isinstance(row, bool) or not (0 < len(text) <= 9 and text.isascii() and text.isdigit()):
        return None
    return int(text) if int(text) < size else None


def base_row_names(base: pd.DataFrame, editor_state: dict | None) -> list[str | None]:
    """The current name of each row of the editor's base table (None: deleted), from the editor's edit state.

    The editor reports edits by base row, so comparing these lists between runs tells a rename (same row,
    new name) apart from a deleted row plus an added one.
    """
    names: list[str | None] = base["document"].astype(str).tolist()
    state = editor_state if isinstance(editor_state, dict) else {}
    edited = state.get("edited_rows") or {}
    for row, changes in (edited.items() if isinstance(edited, dict) else ()):
        position = _row(row, len(names))
        if position is not None and isinstance(changes, dict) and "document" in changes:
            names[position] = None if changes["document"] is None else str(changes["document"])
    deleted = state.get("deleted_rows") or []
    for row in deleted if isinstance(deleted, list) else ():
        position = _row(row, len(names))
        if position is not None:
            names[position] = None
    return names


def renamed_documents(current: list[str | None]) -> dict[str, str]:
    """{old name: new name} for the base rows renamed since the last valid edit; remembers ``current``.

    Call only with a valid edit: renames then always go from one valid set of unique names to the next.
    """
    previous = session.widget(BASE_NAMES_KEY)
    session.set_widget(BASE_NAMES_KEY, current)
    if previous is None or len(previous) != len(current):
        return {}
    return {old: new for old, new in zip(previous, current, strict=True) if old and new and old != new}


def set_order(side: str, order: list[str]) -> None:
    """Button callback: put ranking ``side`` in ``order``."""
    session.set_widget(ORDER_KEYS[side], list(order))


def swap_orders() -> None:
    """Button callback: ranking A becomes B and B becomes A."""
    a, b = session.widget(ORDER_KEYS["A"]), session.widget(ORDER_KEYS["B"])
    session.set_widget(ORDER_KEYS["A"], b)
    session.set_widget(ORDER_KEYS["B"], a)


OPEN_KEY = "compare_open_request"


def request_open(side: str) -> None:
    """Button callback: open ranking ``side`` in the Playground (done by the page's next run)."""
    session.set_widget(OPEN_KEY, side)


def take_open_request() -> str | None:
    return session.forget(OPEN_KEY)


def ensure_documents() -> None:
    if not session.has(DOCS_KEY):
        reset_documents(EXAMPLE_DOCS["document"], EXAMPLE_DOCS["grade"], EXAMPLE_ORDERS)


def checked_documents(edited: pd.DataFrame) -> pd.DataFrame:
    """The edited judged documents, or InvalidInput saying what is wrong (the caller keeps the last valid set)."""
    rows = edited.dropna(how="all").copy()
    if rows.empty:
        raise ndcg_core.InvalidInput("Add at least one document to compare rankings.")
    if rows["document"].isna().any() or (rows["document"].astype(str).str.strip() == "").any():
        raise ndcg_core.InvalidInput("Every row needs a document name.")
    rows["document"] = rows["document"].astype(str)
    duplicated = rows["document"][rows["document"].duplicated()].tolist()
    if duplicated:
        raise ndcg_core.InvalidInput(f"Document names must be unique; repeated: {', '.join(duplicated[:5])}.")
    ndcg_core.evaluate(rows["grade"].tolist())  # refuses missing, negative or non-numeric grades with a clear message
    rows["grade"] = rows["grade"].astype(float)
    return rows.reset_index(drop=True)


def synced_order(order: list[str], names: list[str], renamed: dict[str, str] | None = None) -> list[str]:
    """Keep a ranking in step with edited documents: a renamed document keeps its place, removed names are
    dropped, new ones are appended at the bottom."""
    present = set(names)
    renamed = renamed or {}
    kept = [renamed.get(name, name) for name in order]
    kept = [name for name in kept if name in present]
    seen = set(kept)
    return kept + [name for name in names if name not in seen]


def ideal_order(documents: pd.DataFrame) -> list[str]:
    return documents.sort_values("grade", ascending=False, kind="stable")["document"].tolist()


def position_differences(result_a: ndcg_core.ListResult, result_b: ndcg_core.ListResult,
                         names_a: list[str], names_b: list[str]) -> pd.DataFrame:
    """Per rank: each ranking's document, grade and contribution (counted positions only), and B − A."""
    table_a, table_b = result_a.table, result_b.table
    frame = pd.DataFrame({
        "rank": table_a["rank"].to_numpy(),
        "document_a": names_a,
        "grade_a": table_a["relevance"].to_numpy(),
        "contribution_a": np.where(table_a["in_cutoff"], table_a["contribution"], 0.0),
        "document_b": names_b,
        "grade_b": table_b["relevance"].to_numpy(),
        "contribution_b": np.where(table_b["in_cutoff"], table_b["contribution"], 0.0),
    })
    frame["difference"] = frame["contribution_b"] - frame["contribution_a"]
    return frame


def difference_chart(frame: pd.DataFrame) -> go.Figure:
    """Per position: B's contribution minus A's (positive = B gains there)."""
    colours = [WIN_COLOUR if d > 1e-12 else LOSS_COLOUR if d < -1e-12 else TIE_COLOUR for d in frame["difference"]]
    fig = go.Figure()
    fig.add_bar(
        x=frame["rank"], y=frame["difference"], marker={"color": colours}, name="B − A",
        customdata=np.column_stack([frame["document_a"].map(html_text), frame["grade_a"], frame["contribution_a"],
                                    frame["document_b"].map(html_text), frame["grade_b"], frame["contribution_b"]]),
        hovertemplate=(
            "Rank %{x}<br>A: %{customdata[0]} (grade %{customdata[1]:g}) → %{customdata[2]:.4f}<br>"
            "B: %{customdata[3]} (grade %{customdata[4]:g}) → %{customdata[5]:.4f}<br>"
            "<b>B − A = %{y:+.4f}</b><extra></extra>"
        ),
    )
    fig.add_hline(y=0, line={"color": PALETTE["text"], "width": 1})
    _layout(fig, title="Which positions make the difference: contribution of B − contribution of A",
            x_title="Rank i", y_title="B − A")
    fig.update_xaxes(dtick=1 if len(frame) <= 30 else None)
    return fig


def difference_sentence(frame: pd.DataFrame, result_a: ndcg_core.ListResult, result_b: ndcg_core.ListResult) -> str:
    """Plain words: which ranking wins on DCG and the positions that account for it."""
    gap = result_b.dcg - result_a.dcg
    if abs(gap) < 1e-12 and (frame["difference"].abs() < 1e-12).all():
        return "Both rankings give every counted position the same contribution, so their DCG and NDCG are equal."
    leader, other = ("B", "A") if gap > 0 else ("A", "B")
    lead = (f"Ranking {leader} has the higher DCG by {abs(gap):.4f} (NDCG {max(result_a.ndcg, result_b.ndcg):.4f} vs "
            f"{min(result_a.ndcg, result_b.ndcg):.4f}).") if abs(gap) >= 1e-12 else "Both rankings have the same DCG."
    biggest = frame.reindex(frame["difference"].abs().sort_values(ascending=False).index).head(3)
    biggest = biggest[biggest["difference"].abs() > 1e-12]
    parts = []
    for row in biggest.itertuples(index=False):
        parts.append(
            f"rank {row.rank}: A has {row.document_a} (grade {row.grade_a:g}), B has {row.document_b} "
            f"(grade {row.grade_b:g}), {row.difference:+.4f} for B"
        )
    if not parts:
        return lead
    return f"{lead} The largest differences: " + "; ".join(parts) + "."


# --- mode 2: two runs ----------------------------------------------------------------------------------------

def verdict(comparison: ndcg_core.Comparison, *, name_a: str, name_b: str, metric: str) -> str:
    """The stakeholder sentence, e.g. 'B is better on 31 of 50 queries; the mean gain is 0.04, 95% CI 0.01–0.07'."""
    c = comparison
    level = f"{c.confidence:.0%}"
    if c.wins >= c.losses:
        better, worse, better_count, worse_count, sign = name_b, name_a, c.wins, c.losses, 1.0
    else:
        better, worse, better_count, worse_count, sign = name_a, name_b, c.losses, c.wins, -1.0
    low, high = sorted((sign * c.ci_low, sign * c.ci_high))
    gain = sign * c.mean_difference
    word = "gain" if gain >= 0 else "change"
    sentence = (
        f"{better} is better on {better_count} of {c.n_queries} queries ({worse} on {worse_count}, {c.ties} tied); "
        f"the mean {metric} {word} is {_fmt(gain)}, {level} CI {_fmt(low)}–{_fmt(high)}."
    )
    if c.ci_low > 0 or c.ci_high < 0:
        winner = name_b if c.ci_low > 0 else name_a
        sentence += (f" The interval excludes 0, so {winner}'s advantage is unlikely to be a fluke of which queries "
                     "were sampled.")
    else:
        sentence += " The interval includes 0, so these queries do not show a reliable difference in the mean."
    return sentence


def _fmt(value: float) -> str:
    text = f"{value:.2f}"
    return "0.00" if text == "-0.00" else text


def differences_histogram(comparison: ndcg_core.Comparison, *, name_a: str, name_b: str, metric: str) -> go.Figure:
    """Distribution of per-query differences B − A, with 0 and the mean marked."""
    name_a, name_b = html_text(name_a), html_text(name_b)
    values = comparison.differences.to_numpy(dtype=float)
    limit = max(0.05, float(np.abs(values).max()) if values.size else 0.05)
    edges = np.linspace(-limit, limit, 22)
    counts, _ = np.histogram(values, bins=edges)
    centres = (edges[:-1] + edges[1:]) / 2
    # 21 bins symmetric around 0: the middle bin holds the ties (and near-ties) and is grey
    colours = [TIE_COLOUR if low < 0 < high else WIN_COLOUR if low >= 0 else LOSS_COLOUR
               for low, high in zip(edges[:-1], edges[1:], strict=True)]
    fig = go.Figure()
    fig.add_bar(
        x=centres, y=counts, width=(edges[1] - edges[0]) * 0.95, marker={"color": colours}, name="queries",
        customdata=np.column_stack([edges[:-1], edges[1:]]),
        hovertemplate="difference %{customdata[0]:+.3f} to %{customdata[1]:+.3f}<br><b>%{y} queries</b><extra></extra>",
    )
    fig.add_vline(x=0, line={"color": PALETTE["text"], "width": 1})
    fig.add_vline(x=comparison.mean_difference, line={"color": PALETTE["actual"], "dash": "dash", "width": 3})
    fig.add_annotation(x=comparison.mean_difference, y=1.0, yref="paper", showarrow=False, yanchor="bottom",
                       text=f"mean {comparison.mean_difference:+.3f}", font={"color": PALETTE["actual"]})
    return _layout(fig, title=f"Per-query {metric} difference ({name_b} − {name_a})",
                   x_title=f"{metric} of {name_b} − {metric} of {name_a}", y_title="number of queries")


def bootstrap_chart(comparison: ndcg_core.Comparison) -> go.Figure:
    """Bootstrap distribution of the mean difference with the confidence interval shaded."""
    c = comparison
    fig = go.Figure()
    fig.add_histogram(x=c.bootstrap_means, nbinsx=60, marker={"color": PALETTE["gain"]}, name="resampled means",
                      hovertemplate="mean difference %{x}<br>%{y} resamples<extra></extra>")
    fig.add_vrect(x0=c.ci_low, x1=c.ci_high, fillcolor=PALETTE["ideal"], opacity=0.18, line_width=0)
    fig.add_vline(x=0, line={"color": PALETTE["text"], "width": 1})
    fig.add_annotation(x=(c.ci_low + c.ci_high) / 2, y=1.0, yref="paper", yanchor="bottom", showarrow=False,
                       text=f"{c.confidence:.0%} CI {c.ci_low:+.3f} to {c.ci_high:+.3f}")
    return _layout(fig, title=f"Bootstrap: {c.n_boot:,} resamples of the queries",
                   x_title="mean difference (B − A) in a resample", y_title="resamples")


def slide_chart(comparison: ndcg_core.Comparison, *, name_a: str, name_b: str, metric: str) -> go.Figure:
    """One chart for a slide: every query's difference, sorted, coloured by who wins, with the mean and CI."""
    name_a, name_b = html_text(name_a), html_text(name_b)
    c = comparison
    ordered = c.differences.sort_values(kind="stable")
    values = ordered.to_numpy(dtype=float)
    colours = [WIN_COLOUR if v > 1e-9 else LOSS_COLOUR if v < -1e-9 else TIE_COLOUR for v in values]
    fig = go.Figure()
    fig.add_bar(
        x=np.arange(1, values.size + 1), y=values, marker={"color": colours, "line": {"width": 0}},
        customdata=np.array([html_text(q) for q in ordered.index], dtype=object),
        hovertemplate="query %{customdata}<br><b>%{y:+.4f}</b><extra></extra>", name="per query",
    )
    fig.add_hrect(y0=c.ci_low, y1=c.ci_high, fillcolor=PALETTE["ideal"], opacity=0.25, line_width=0)
    fig.add_hline(y=c.mean_difference, line={"color": PALETTE["actual"], "dash": "dash", "width": 3})
    fig.add_annotation(  # top left: the sorted bars are lowest there, so the label hides nothing
        x=0.01, xref="paper", xanchor="left", y=1.0, yref="paper", yanchor="top", showarrow=False, align="left",
        text=(f"<b>mean difference {c.mean_difference:+.3f}</b> (dashed line)<br>"
              f"{c.confidence:.0%} CI {c.ci_low:+.3f} to {c.ci_high:+.3f} (shaded band)"),
        font={"size": 16, "color": PALETTE["actual"]}, bgcolor="rgba(255,255,255,0.9)",
    )
    fig.add_hline(y=0, line={"color": PALETTE["text"], "width": 1})
    _layout(fig, title=f"{name_b} vs {name_a}: {metric} difference on each of {c.n_queries} queries",
            x_title=f"queries, sorted ({name_b} better on {c.wins}, {name_a} better on {c.losses}, {c.ties} tied)",
            y_title=f"{metric}: {name_b} − {name_a}", height=430)
    fig.update_xaxes(showticklabels=False)
    fig.update_layout(showlegend=False)
    return fig


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


def _layout(fig: go.Figure, *, title: str, x_title: str, y_title: str, height: int = 360) -> go.Figure:
    fig.update_layout(
        title={"text": title, "font": {"size": 18}},
        font=FONT,
        template="plotly_white",
        height=height,
        margin={"l": 70, "r": 30, "t": 60, "b": 60},
        hoverlabel={"font_size": 15},
        showlegend=False,
        xaxis={"title": x_title, "gridcolor": PALETTE["grid"]},
        yaxis={"title": y_title, "gridcolor": PALETTE["grid"]},
    )
    return fig
