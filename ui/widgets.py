"""Small shared widgets: the per-position table, the formula with numbers substituted, names as plain text.

Every number shown comes from an ``ndcg_core.ListResult``; these functions only format it.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import pyarrow as pa
import streamlit as st

import ndcg_core
from ui.formatting import TIE_RULE_LABELS, fixed, gain_formula_latex, gain_term_latex, gain_words, log_latex
from ui.settings_model import MetricSettings, zero_idcg_words
from ui.text_direction import isolated, names_list, visible  # noqa: F401 - re-exported

FORMULA_TERMS = 4  # terms shown before "…" in a long sum
_MARKDOWN_SPECIALS = re.compile(r"([\\`*_{}\[\]()#+\-.!|~$<>:&])")


def plain(text: object) -> str:
    """``text`` made safe for elements that render markdown (st.error, st.caption...): shown literally.

    The one escaper for user text (document, query and run names) on every page. Invisible direction controls are
    left out of what is shown (the text itself, in the state and the links, keeps them).
    """
    return _MARKDOWN_SPECIALS.sub(r"\\\1", visible(text))


def text_line(text: object) -> None:
    """``st.text`` of a sentence that may name user documents, queries or runs (shown literally, directions kept
    to the sentence's own)."""
    st.text(visible(text))


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
    "in_cutoff": "Counted",
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
    highlight: int | None = None,
    colour: str = "#CC79A7",
    readable: bool = False,
) -> None:
    """The per-position table from ndcg_core, formatted, with a CSV download of the exact numbers.

    ``highlight``: that rank's row is shaded in ``colour`` (the linked views' colour of the rank, ui/linked.py).
    ``readable`` (Present mode): an HTML table of the main columns, whose text grows with the page's (a data grid
    keeps its 13 px on a projector, and its 14 columns needed scrolling sideways at 1280 px); no download.
    """
    if readable:
        _readable_table(result, names, highlight, colour)
        return
    table = table_arrow(result, names)
    config = {
        column: st.column_config.NumberColumn(label, format="%.4f")
        for column, label in TABLE_LABELS.items()
        if column in table.column_names
    }
    # Short headers (the full words in their help) and the rank and document pinned: the 14 columns are wider than a
    # 1440 px page with the sidebar, and the columns scrolled into view kept no name beside them. (Not "Counted" too:
    # three pinned columns took two thirds of a phone's width.)
    config["contribution"] = st.column_config.NumberColumn("Contrib.", format="%.4f",
                                                           help="Contribution: gain ÷ discount at this position")
    config["ideal_contribution"] = st.column_config.NumberColumn(
        "Ideal contrib.", format="%.4f", help="Ideal contribution: the ideal list's gain ÷ discount at this position")
    config["rank"] = st.column_config.NumberColumn("Rank", format="%d", width="small", pinned=True)
    config["relevance"] = st.column_config.NumberColumn("Grade", format="%g", width="small")
    config["ideal_relevance"] = st.column_config.NumberColumn("Ideal grade", format="%g")  # "small" cut its name
    config["in_cutoff"] = st.column_config.CheckboxColumn("Counted", width="small",
                                                          help="Within the cutoff (rank ≤ k): counted in DCG@k")
    if "document" in table.column_names:
        config["document"] = st.column_config.TextColumn("Document", pinned=True)
    cut = not bool(np.all(result.table["in_cutoff"].to_numpy()))  # some positions lie below the cutoff k
    shown = table if highlight is None and not cut else _shaded(table_frame(result, names), highlight, colour)
    # "Counted" next to the names, where it is seen without scrolling the table sideways.
    order = ["rank", *(["document"] if "document" in table.column_names else []), "in_cutoff"]
    order += [column for column in table.column_names if column not in order]
    st.dataframe(shown, hide_index=True, column_config=config, column_order=order, height=height, width="stretch",
                 placeholder="–")  # an undefined NDCG@i (IDCG@i = 0 under "skip"): the grid drew a grey "None"
    st.download_button(
        "Download this table as CSV",
        lambda: table_frame(result, names).to_csv(index=False).encode(),  # built only when clicked, not on every rerun
        file_name=file_name,
        mime="text/csv",
        icon=":material/download:",
        key=f"{key}_csv",
        help="Every column at full precision, one row per position.",
    )


READABLE_COLUMNS = ("rank", "document", "relevance", "gain", "discount", "contribution", "cumulative_dcg",
                    "cumulative_idcg", "ndcg_at_rank")


def _readable_table(result: ndcg_core.ListResult, names: Sequence[str] | None, highlight: int | None,
                    colour: str) -> None:
    frame = table_frame(result, names)
    shown = [column for column in READABLE_COLUMNS if column in frame.columns]
    text = pd.DataFrame({
        TABLE_LABELS[column]: (frame[column].map("{:g}".format) if column == "relevance"
                               else frame[column].map(fixed) if column not in ("rank", "document")
                               else frame[column])
        for column in shown
    })
    styles = _row_styles(frame, highlight, colour)
    st.table(text.style.apply(lambda column: styles, axis=0), hide_index=True)
    if not bool(frame["in_cutoff"].all()):
        st.caption(f"Grey rows lie below the cutoff k = {result.k}: they add nothing to DCG@{result.k} (their grades "
                   "still go into the ideal list).")


def _row_styles(frame: pd.DataFrame, rank: int | None, colour: str) -> list[str]:
    """Each row's style: rank ``rank``'s shaded, and the rows below the cutoff (not counted) in grey, as the ranked
    list and the chart show them."""
    tint = f"background-color: {colour}33; font-weight: bold"  # the colour at 20 % opacity, text stays dark
    uncounted = "color: #6b6b6b; background-color: #f2f2f2"  # grey, still readable (contrast 4.8:1)
    return [tint if row_rank == rank else "" if counted else uncounted
            for row_rank, counted in zip(frame["rank"], frame["in_cutoff"], strict=True)]


def _shaded(frame: pd.DataFrame, rank: int | None, colour: str):
    """``frame`` styled with :func:`_row_styles` (a Styler costs a few ms: only while a rank is highlighted or k
    cuts)."""
    styles = _row_styles(frame, rank, colour)
    return frame.style.apply(lambda column: styles, axis=0)


# --- formula -----------------------------------------------------------------------------------------------

def _elided(grades: Sequence[float], keep: int | None = None) -> list[tuple[int, float]]:
    """(position, grade) pairs to print: all of a short sum, else the first few, ``keep`` and the last.

    Position -1 stands for the "⋯" between positions that are not next to each other.
    """
    count = len(grades)
    if count <= FORMULA_TERMS + 2:
        return [(i + 1, float(g)) for i, g in enumerate(grades)]
    wanted = {*range(1, FORMULA_TERMS + 1), count} | ({keep} if keep is not None and 1 <= keep <= count else set())
    pairs: list[tuple[int, float]] = []
    for position in sorted(wanted):
        if pairs and position != pairs[-1][0] + 1:
            pairs.append((-1, math.nan))
        pairs.append((position, float(grades[position - 1])))
    return pairs


def _render_terms(
    pairs: list[tuple[int, float]], settings: MetricSettings, colours: Sequence[str] | None = None,
    highlight: int | None = None, shared: Mapping[int, float] | None = None,
) -> str:
    """The sum's terms; ``colours[i - 1]`` colours term i (the linked views' colours), ``highlight`` boxes one;
    ``shared`` gives the positions whose gain is their tie's mean gain, as the number it is."""
    log = log_latex(settings.log_base)
    parts = []
    for position, grade in pairs:
        if position == -1:
            parts.append(r"\cdots")
            continue
        numerator = (fixed(shared[position]) if shared and position in shared
                     else gain_term_latex(grade, settings.gain, dict(settings.gain_table)))
        term = rf"\frac{{{numerator}}}{{{log}({position}+1)}}"
        if colours is not None and position <= len(colours):
            term = rf"{{\color{{{colours[position - 1]}}}{term}}}"
        if position == highlight:
            term = rf"\boxed{{{term}}}"
        parts.append(term)
    return " + ".join(parts) if parts else "0"


def _shared_gains(result: ndcg_core.ListResult, tie_groups: Sequence[int] | None) -> dict[int, float]:
    """{position: the gain ``result`` gave it} for the positions in a tie group of more than one document."""
    if tie_groups is None:
        return {}
    sizes = Counter(tie_groups)
    gains = result.table["gain"].to_numpy()
    return {position: float(gains[position - 1]) for position, group in enumerate(tie_groups, start=1)
            if sizes[group] > 1 and position <= len(gains)}


def formula(
    result: ndcg_core.ListResult, settings: MetricSettings, *, colours: Sequence[str] | None = None,
    highlight: int | None = None, tie_groups: Sequence[int] | None = None,
) -> None:
    """DCG, IDCG and NDCG as formulas, then with this list's grades and totals substituted.

    ``colours`` (one per rank) writes each DCG term in its position's colour and ``highlight`` boxes rank
    ``highlight``'s terms in both sums (ui/linked.py). ``tie_groups`` (the list's, when ``result`` averaged the
    gains of tied documents): a tied document's term shows the mean gain it was given, not its own grade's gain.
    """
    table = result.table
    n = len(table)
    counted = table["relevance"].to_numpy()[table["in_cutoff"].to_numpy()]  # numpy: a .loc lookup costs 5x more
    depth = len(counted)
    ideal = np.asarray(result.ideal_relevances)[: result.ideal_depth]  # the core's cutoff rule, not re-derived
    log = log_latex(settings.log_base)
    gain, ideal_gain = gain_formula_latex(settings.gain), gain_formula_latex(settings.gain, "rel^{*}_i")
    k_label = "k" if result.k is not None else "n"
    k_value = result.k if result.k is not None else n
    # Without a cutoff the ideal sum runs over every judged document, m of them, which can be more than the n ranked.
    longer_ideal = result.k is None and result.ideal_depth > n
    ideal_label, ideal_value = ("m", result.ideal_depth) if longer_ideal else (k_label, k_value)

    definitions = st.columns(3)
    definitions[0].latex(rf"DCG@{k_label} = \sum_{{i=1}}^{{{k_label}}} \frac{{{gain}}}{{{log}(i+1)}}")
    definitions[1].latex(rf"IDCG@{ideal_label} = \sum_{{i=1}}^{{{ideal_label}}} \frac{{{ideal_gain}}}{{{log}(i+1)}}")
    definitions[2].latex(rf"NDCG@{k_label} = \frac{{DCG@{k_label}}}{{IDCG@{ideal_label}}}")
    st.caption(
        f"Here {k_label} = {k_value}"
        + ("" if result.k is None or result.k <= n else f" (the ranking has {n} documents)")
        + (f" and m = {ideal_value}" if longer_ideal else "")
        + "; rel* is the ideal order: every judged grade sorted from high to low"
        + ("" if not longer_ideal
           else f", all m = {ideal_value} of them: without a cutoff IDCG counts every judged document")
        + (f"; g(rel) is the gain of a grade in the sidebar's {gain_words(settings.gain_spec())}."
           if settings.gain == "custom" else ".")
    )
    shared = _shared_gains(result, tie_groups)
    st.latex(
        rf"DCG@{k_value} = {_render_terms(_elided(list(counted), highlight), settings, colours, highlight, shared)} = "
        rf"{fixed(result.dcg)}"
    )
    if shared:
        st.caption("Documents whose scores tied in the run share the mean of their gains (the Dataset page's "
                   f"“{TIE_RULE_LABELS['average']}”): their terms show that shared gain.")
    st.latex(
        rf"IDCG@{ideal_value} = {_render_terms(_elided(list(ideal), highlight), settings, None, highlight)} = "
        rf"{fixed(result.idcg)}"
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
