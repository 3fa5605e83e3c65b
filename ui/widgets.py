"""Small shared widgets: metric cards, the per-position table, the formula with numbers substituted.

Every number shown comes from an ``ndcg_core.ListResult``; these functions only format it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import pyarrow as pa
import streamlit as st

import ndcg_core
from ui.formatting import fixed, gain_formula_latex, gain_term_latex, log_latex, signed
from ui.settings_model import MetricSettings, zero_idcg_words

METRICS = (
    ("cg", "CG", "Cumulative gain: the sum of the gains of the counted positions. Order does not matter."),
    ("dcg", "DCG", "Discounted cumulative gain: each gain divided by log_b(rank + 1), summed."),
    ("idcg", "IDCG", "Ideal DCG: the DCG of the best possible order of all judged documents."),
    ("ndcg", "NDCG", "Normalised DCG = DCG / IDCG, between 0 and 1 (1 = ideal order)."),
)
FORMULA_TERMS = 4  # terms shown before "…" in a long sum
_MARKDOWN_SPECIALS = re.compile(r"([\\`*_{}\[\]()#+\-.!|~$<>:&])")


def plain(text: object) -> str:
    """``text`` made safe for elements that render markdown (st.error, st.caption...): shown literally.

    The one escaper for user text (document, query and run names) on every page.
    """
    return _MARKDOWN_SPECIALS.sub(r"\\\1", str(text))


def _metric_values(source) -> dict[str, float] | None:
    if source is None:
        return None
    if isinstance(source, Mapping):
        return {name: float(source[name]) for name, _, _ in METRICS if name in source}
    return {name: float(getattr(source, name)) for name, _, _ in METRICS}


def metric_cards(result: ndcg_core.ListResult, previous=None, *, reserve_delta: bool = False) -> None:
    """CG@k, DCG@k, IDCG@k and NDCG@k cards; ``previous`` (a ListResult or dict) gives the deltas.

    ``reserve_delta``: every card always has a delta line ("±0" in grey when nothing changed), so the first
    change does not make the cards taller and shift what is below them (the list under the pointer).
    """
    suffix = "" if result.k is None else f"@{result.k}"
    before = _metric_values(previous)
    # One horizontal container of bordered metrics looks like bordered columns and is one block instead of five
    # (each block is a message to the browser; ~1 ms less per rerun of the Playground).
    with st.container(horizontal=True):
        for name, label, help_text in METRICS:
            value = float(getattr(result, name))
            delta = None
            if before is not None and name in before and not (math.isnan(value) or math.isnan(before[name])):
                change = value - before[name]
                delta = signed(change) if abs(change) >= 5e-5 else None
            unchanged = delta is None and reserve_delta
            st.metric(
                f"{label}{suffix}", fixed(value), delta="±0" if unchanged else delta,
                delta_color="off" if unchanged else "normal", delta_arrow="off" if unchanged else "auto",
                help=help_text, border=True,
                width="stretch", height="stretch",  # equal heights whether or not a card has a delta
            )


TABLE_LABELS = {
    "rank": "Rank",
    "document": "Document",
    "relevance": "Grade",
    "gain": "Gain",
    "discount": "Discount",
    "contribution": "Contribution",
    "cumulative_cg": "CG@i",
    "cumulative_dcg": "DCG@i",
    "ideal_relevance": "Ideal grade",
    "ideal_gain": "Ideal gain",
    "ideal_contribution": "Ideal contribution",
    "cumulative_idcg": "IDCG@i",
    "ndcg_at_rank": "NDCG@i",
    "in_cutoff": "Counted (≤ k)",
}


def table_frame(result: ndcg_core.ListResult, names: Sequence[str] | None = None) -> pd.DataFrame:
    """The per-position table with document names (when given) in place of the item index."""
    table = result.table.drop(columns=["item"])
    if names is not None:
        table.insert(1, "document", _documents(result, names))
    return table


def _documents(result: ndcg_core.ListResult, names: Sequence[str]) -> np.ndarray:
    """The document name at each position of ``result.table`` (its ``item`` column indexes ``names``)."""
    return np.asarray(names, dtype=object)[result.table["item"].to_numpy()]


def table_arrow(result: ndcg_core.ListResult, names: Sequence[str] | None = None) -> pa.Table:
    """:func:`table_frame` as an Arrow table, built from ``result.table``'s columns without a pandas round trip.

    st.dataframe serialises an Arrow table as it is, where a DataFrame would first be converted (~1.5 ms
    for a 50-row table, on every rerun of the Playground); the values are the same ndcg_core numbers.
    """
    table = result.table
    columns: dict[str, pa.Array | np.ndarray] = {}
    for column in table.columns:
        if column == "item":
            if names is not None:
                columns["document"] = pa.array(_documents(result, names), type=pa.string())
            continue
        columns[column] = table[column].to_numpy()
    return pa.table(columns)


def show_table(
    result: ndcg_core.ListResult,
    *,
    names: Sequence[str] | None = None,
    key: str = "table",
    file_name: str = "ndcg_per_position.csv",
    height: int | str = "auto",
) -> None:
    """The per-position table from ndcg_core, formatted, with a CSV download of the exact numbers."""
    table = table_arrow(result, names)
    config = {
        column: st.column_config.NumberColumn(label, format="%.4f")
        for column, label in TABLE_LABELS.items()
        if column in table.column_names
    }
    config["rank"] = st.column_config.NumberColumn("Rank", format="%d", width="small")
    config["relevance"] = st.column_config.NumberColumn("Grade", format="%g", width="small")
    config["ideal_relevance"] = st.column_config.NumberColumn("Ideal grade", format="%g", width="small")
    config["in_cutoff"] = st.column_config.CheckboxColumn("Counted (≤ k)", width="small")
    if "document" in table.column_names:
        config["document"] = st.column_config.TextColumn("Document")
    st.dataframe(table, hide_index=True, column_config=config, height=height, width="stretch")
    st.download_button(
        "Download this table as CSV",
        lambda: table_frame(result, names).to_csv(index=False).encode(),  # built only when clicked, not on every rerun
        file_name=file_name,
        mime="text/csv",
        icon=":material/download:",
        key=f"{key}_csv",
        help="Every column at full precision, one row per position.",
    )


# --- formula -----------------------------------------------------------------------------------------------

def _elided(grades: Sequence[float]) -> list[tuple[int, float]]:
    """(position, grade) pairs to print: all of a short sum, else the first few and the last."""
    count = len(grades)
    if count <= FORMULA_TERMS + 2:
        return [(i + 1, float(g)) for i, g in enumerate(grades)]
    shown = [(i + 1, float(grades[i])) for i in range(FORMULA_TERMS)]
    return shown + [(-1, math.nan), (count, float(grades[-1]))]


def _render_terms(pairs: list[tuple[int, float]], settings: MetricSettings) -> str:
    log = log_latex(settings.log_base)
    parts = []
    for position, grade in pairs:
        if position == -1:
            parts.append(r"\cdots")
        else:
            parts.append(rf"\frac{{{gain_term_latex(grade, settings.gain, dict(settings.gain_table))}}}{{{log}({position}+1)}}")
    return " + ".join(parts) if parts else "0"


def formula(result: ndcg_core.ListResult, settings: MetricSettings) -> None:
    """DCG, IDCG and NDCG as formulas, then with this list's grades and totals substituted."""
    table = result.table
    n = len(table)
    counted = table["relevance"].to_numpy()[table["in_cutoff"].to_numpy()]  # numpy: a .loc lookup costs 5x more
    depth = len(counted)
    ideal = np.asarray(result.ideal_relevances)[: result.ideal_depth]  # the core's cutoff rule, not re-derived
    log = log_latex(settings.log_base)
    gain, ideal_gain = gain_formula_latex(settings.gain), gain_formula_latex(settings.gain, "rel^{*}_i")
    k_label = "k" if result.k is not None else "n"
    k_value = result.k if result.k is not None else n

    definitions = st.columns(3)
    definitions[0].latex(rf"DCG@{k_label} = \sum_{{i=1}}^{{{k_label}}} \frac{{{gain}}}{{{log}(i+1)}}")
    definitions[1].latex(rf"IDCG@{k_label} = \sum_{{i=1}}^{{{k_label}}} \frac{{{ideal_gain}}}{{{log}(i+1)}}")
    definitions[2].latex(rf"NDCG@{k_label} = \frac{{DCG@{k_label}}}{{IDCG@{k_label}}}")
    st.caption(
        f"Here {k_label} = {k_value}"
        + ("" if result.k is None or result.k <= n else f" (the ranking has {n} documents)")
        + "; rel* is the ideal order: every judged grade sorted from high to low"
        + ("." if result.k is not None or result.ideal_depth <= n
           else f", all {result.ideal_depth} of them: without a cutoff IDCG counts every judged document.")
    )
    st.latex(
        rf"DCG@{k_value} = {_render_terms(_elided(list(counted)), settings)} = {fixed(result.dcg)}"
    )
    st.latex(
        rf"IDCG@{k_value} = {_render_terms(_elided(list(ideal)), settings)} = {fixed(result.idcg)}"
    )
    if result.idcg > 0:
        st.latex(
            rf"NDCG@{k_value} = \frac{{{fixed(result.dcg)}}}{{{fixed(result.idcg)}}} = {fixed(result.ndcg)}"
        )
    else:
        st.latex(rf"NDCG@{k_value} = \frac{{0}}{{0}} \rightarrow {fixed(result.ndcg)}")
        st.caption(f"IDCG is 0, so NDCG follows the sidebar's rule {zero_idcg_words(settings.zero_idcg)}.")
    if depth > FORMULA_TERMS + 2 or len(ideal) > FORMULA_TERMS + 2:
        st.caption("Long sums show their first terms, then “⋯”, then the last term; the totals include every term.")
