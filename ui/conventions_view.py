"""Library conventions, the model and the output: checking the input table, its share-link text, the table of
every preset's NDCG and the words around it.

The ready-made cases are :mod:`ui.conventions_cases`; the input table, its state and link are
:mod:`ui.conventions_input`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

import ndcg_core
from ui import url_state
from ui.conventions_cases import CASES, CUSTOM, Case  # noqa: F401 - the page's cases, used through this module
from ui.formatting import fixed, preset_discount_words
from ui.ranking import Ranking, first_repeated_name
from ui.widgets import plain, text_line

INPUT_COLUMNS = url_state.CONVENTIONS_COLUMNS
SETTING_COLUMNS = {"gain": "Gain", "ties": "Tied scores", "ideal": "Ideal from", "zero_idcg": "If IDCG = 0",
                   "discount": "Discount"}
IDEAL_WORDS = {"ranking": "the ranked list only", "all_judged": "all judged documents"}
TIE_WORDS = {"average": "gains averaged", "stable": "input order", "trec_eval": "doc id, Z→A"}
ZERO_WORDS = {"zero": "0", "one": "1", "skip": "skipped", "error": "error"}
HIGHLIGHT = "background-color: #FFE8B3; font-weight: 700"  # light orange: readable, not the only cue (see caption)




@dataclass(frozen=True)
class CheckedInput(Ranking):
    """The validated input: a :class:`ui.ranking.Ranking` (the ranked rows in table order, the unticked rows as
    extra judged documents) with each ranker's scores (None: the rows' order is the ranking)."""

    scores: tuple[float, ...] | None = None
    scores_2: tuple[float, ...] | None = None

    @property
    def documents(self) -> list[str]:
        """The ranked documents' ids (trec_eval breaks score ties by them)."""
        return list(self.names)

    @property
    def all_grades(self) -> list[float]:
        """Every judged grade, ranked or not (what each library's ideal list may be built from)."""
        return self.ideal_relevances()


def checked_input(frame: pd.DataFrame, *, gain) -> CheckedInput:
    """Validate the edited table; InvalidInput says what is wrong (the caller keeps the last valid input).

    Grades are checked by ``ndcg_core.check_grades`` under ``gain`` (the sidebar's), never a default gain.
    """
    rows = frame.dropna(how="all", subset=["document", "grade", "score", "score_2"]).copy()
    if rows["grade"].isna().any():
        raise ndcg_core.InvalidInput("Every row needs a grade (0 = not relevant).")
    rows["ranked"] = rows["ranked"].fillna(True).astype(bool)
    ranked = rows[rows["ranked"]]
    if ranked.empty:
        raise ndcg_core.InvalidInput("At least one document must be ranked (tick 'ranked').")
    names = [str(name) if isinstance(name, str) and name.strip() else f"#{i}" for i, name in enumerate(ranked["document"], 1)]
    _refuse_repeated_names(names)
    ndcg_core.check_grades(rows["grade"].tolist(), gain=gain)  # negative, NaN, non-numeric, too large for gain
    scores = _scores(ranked["score"], "score")
    scores_2 = _scores(ranked["score_2"], "second ranker's score")
    if scores is None and scores_2 is not None:
        raise ndcg_core.InvalidInput("Fill in the first score column before the second ranker's scores.")
    extra = rows[~rows["ranked"]]
    return CheckedInput(
        tuple(names), tuple(ranked["grade"].astype(float)), tuple(str(name) for name in extra["document"]),
        tuple(extra["grade"].astype(float)), scores=scores, scores_2=scores_2,
    )


def _refuse_repeated_names(names: list[str]) -> None:
    """Refuse two ranked documents with one name: trec_eval, pytrec_eval and ir_measures order tied scores by
    document id, so such a pair has no order there (a run holds each document once), yet the table gave them a
    figure (0.8597 for grades 1 and 2 tied, where distinct ids give 1.0000)."""
    repeated = first_repeated_name(names)
    if repeated is not None:
        name, first, second = repeated
        raise ndcg_core.InvalidInput(
            f"document {name[:20]!r} is in the table twice (ranked rows {first} and {second}). A ranking holds "
            "each document once, and trec_eval orders tied scores by document id: give each its own name.")


def _scores(column: pd.Series, what: str) -> tuple[float, ...] | None:
    if column.isna().all():
        return None
    if column.isna().any():
        raise ndcg_core.InvalidInput(f"Fill in the {what} for every ranked document, or leave the whole column empty.")
    values = tuple(column.astype(float).tolist())
    if not np.isfinite(values).all():  # inf made every NDCG NaN (and the summary line crash)
        raise ndcg_core.InvalidInput(f"Every {what} must be a finite number, not infinite.")
    return values


# --- share link: the format and its rules live in ui.url_state -----------------------------------------------

MAX_LINK_ROWS = url_state.MAX_LINK_ROWS
MAX_LINK_CHARS = url_state.MAX_ROWS_CHARS


def encode_input(frame: pd.DataFrame) -> str | None:
    """The input table as one URL parameter (exact numbers, see :func:`ui.url_state.encode_rows`); None if too big."""
    rows = frame.dropna(how="all", subset=["document", "grade", "score", "score_2"])
    return url_state.encode_rows(list(rows[INPUT_COLUMNS].itertuples(index=False)))


def decode_input(text: str) -> pd.DataFrame:
    """Inverse of :func:`encode_input`; ValueError with a plain reason when malformed."""
    return pd.DataFrame.from_records(url_state.decode_rows(text), columns=INPUT_COLUMNS)


def conventions_table(given: CheckedInput, *, k: int | None) -> pd.DataFrame:
    """One row per preset in ndcg_core.CONVENTIONS: the NDCG it reports and the settings that define it
    (the one-line reasons are listed under the table by :func:`reasons`)."""
    rows = []
    for convention in ndcg_core.CONVENTIONS.values():
        row = {"library": convention.label}
        row["ndcg"], refused = _ndcg(convention, given, given.scores, k=k)
        if given.scores_2 is not None:
            row["ndcg_2"], refused_2 = _ndcg(convention, given, given.scores_2, k=k)
            row["better"] = _better(row["ndcg"], row["ndcg_2"])
            refused = refused or refused_2
        row["note"] = refused  # why a cell has no value, beside it: the library's own refusal, in its words
        row["gain"] = convention.gain
        row["ties"] = TIE_WORDS.get(convention.ties, convention.ties)
        if convention.unstable_ties:  # ranx: input order only as far as its unstable sort keeps it (not in large ties)
            row["ties"] += " (unstable sort)"
        row["ideal"] = IDEAL_WORDS.get(convention.ideal, convention.ideal)
        row["zero_idcg"] = ZERO_WORDS.get(convention.zero_idcg, convention.zero_idcg)
        row["discount"] = preset_discount_words(convention.discount, convention.log_base)
        rows.append(row)
    return pd.DataFrame(rows)


def reasons() -> list[tuple[str, str]]:
    """(label, one-line reason) of every convention."""
    return [(convention.label, convention.reason) for convention in ndcg_core.CONVENTIONS.values()]


def _ndcg(convention, given: CheckedInput, scores: tuple[float, ...] | None, *,
          k: int | None) -> tuple[float, str]:
    """(NDCG, "") or, when the library gives no value for this input, (NaN, why): it would refuse it (a
    fractional grade; IDCG = 0 under "error"), in its words, or it leaves a query with IDCG = 0 out. A library
    that reads a fractional grade as its whole part (trec_eval, ranx) gives its figure on those grades, said."""
    try:
        result, read = ndcg_core.evaluate_as_read(convention.key, list(given.grades),
                                                  None if scores is None else list(scores), k=k,
                                                  ideal_relevances=given.all_grades, doc_ids=given.documents)
    except ndcg_core.InvalidInput as error:
        return float("nan"), str(error)
    value = float(result.ndcg)
    if read:  # trec_eval and ranx print a figure for 1.5 without a word: the one on the grades they read
        return value, (f"Takes fractional grades without an error and reads each as its whole part "
                       f"({ndcg_core.read_words(read)}): its figure on those grades.")
    return value, "" if value == value else "IDCG = 0, and this library leaves such a query out."


def _better(first: float, second: float) -> str:
    if not (np.isfinite(first) and np.isfinite(second)):
        return "–"
    if abs(first - second) < 1e-12:
        return "tie"
    return "ranker 1" if first > second else "ranker 2"


def differing(column: pd.Series) -> pd.Series:
    """True where a cell differs from the column's most common value (numbers compared to 1e-9)."""
    if column.dtype.kind == "f":
        # The most common *number*: with fractional grades most libraries give none, and the few real values
        # were flagged as the odd ones out. A cell with no value differs from it (its Note says why).
        rounded = column.round(9)
        common = rounded.mode(dropna=True)
        return rounded != common.iloc[0] if not common.empty else pd.Series(False, index=column.index)
    common = column.astype(str).mode()
    return column.astype(str) != common.iloc[0]


HIGHLIGHTS_IN_WORDS = "The highlighted cells, in words"
LIBRARY_ORDER = "library"
# The table's row orders: (label with one ranker, label with two).
ROW_ORDERS = {LIBRARY_ORDER: ("Library", "Library"), "ndcg": ("NDCG, highest first", "Ranker 1's NDCG, highest first"),
              "ndcg_low": ("NDCG, lowest first", "Ranker 1's NDCG, lowest first")}


def rows_in_order(table: pd.DataFrame, order: str | None) -> pd.DataFrame:
    """The table's rows in the chosen order: the presets' own (``LIBRARY_ORDER``, or nothing chosen) or by the first
    ranker's NDCG (highest or lowest first; equal values keep the presets' order, no value last).

    The results were a data grid sorted by a click on a header; as a static table (cells that wrap, read as shown)
    they are sorted here, by the values ndcg_core gave, not by their text."""
    if order not in ("ndcg", "ndcg_low"):
        return table
    return table.sort_values("ndcg", ascending=order == "ndcg_low", kind="stable", na_position="last")


def highlight_words(table: pd.DataFrame, labels: dict[str, str]) -> list[str]:
    """One line per column with highlighted cells: its most common value, how many give it (not always a majority:
    a plurality) and the libraries that differ from it
    (:func:`differing`, the highlight's own rule), with their values as the table writes them.

    The highlight is a colour and bold only, which a screen reader does not announce (Streamlit's grid gives it the
    raw data), nor can everyone tell the orange apart: these lines say the same in words. The cells themselves keep
    their values (the figures are read as numbers: a marker in a cell would make them text)."""
    lines = []
    for column in (c for c in table.columns if c not in ("library", "note")):
        flags = differing(table[column])
        if not flags.any():
            continue
        words = table[column].map(lambda value: fixed(value, missing="–")) if column in ("ndcg", "ndcg_2") \
            else table[column].astype(str)
        common = words[~flags].mode().iloc[0]
        odd = "; ".join(f"{library} ({word})" for library, word in zip(table.loc[flags, "library"], words[flags],
                                                                       strict=True))
        lines.append(f"{labels[column]}: {common} for {int((~flags).sum())} of {len(table)} (the most common); "
                     f"highlighted: {odd}.")
    return lines or ["No cell differs from its column's most common value."]


def styled(table: pd.DataFrame, labels: dict[str, str]):
    """Styler with readable headers, highlighting cells that differ from the majority in their column."""
    columns = [labels[c] for c in table.columns if c not in ("library", "note")]
    formats = {labels[c]: lambda value: fixed(value, missing="–") for c in ("ndcg", "ndcg_2") if c in table}
    return (
        table.rename(columns=labels).style
        .apply(lambda column: [HIGHLIGHT if flag else "" for flag in differing(column)], subset=columns)
        .format(formats)
    )


def show_results(given: CheckedInput, *, k: int | None) -> None:
    """The side-by-side table under every preset and the sentence that sums it up."""
    table = conventions_table(given, k=k)
    cutoff = "the whole list" if k is None else f"k = {k} (from the sidebar)"
    st.header(f"NDCG under each library's convention, at {cutoff}")
    st.caption("Of the sidebar's settings only the cutoff k applies here: each library brings its own gain, "
               "discount (log base) and zero-IDCG rule.")
    labels = {
        "library": "Library", "ndcg": "NDCG" if given.scores_2 is None else "NDCG, ranker 1",
        "ndcg_2": "NDCG, ranker 2", "better": "Better ranker", **SETTING_COLUMNS, "note": "Note",
    }
    if not table["note"].any():
        table = table.drop(columns="note")
    else:  # a Note (why a library gives no value) comes last: beside NDCG it pushed the settings out of view
        table = table[[column for column in table.columns if column != "note"] + ["note"]]
    order = st.segmented_control("Rows in order of", list(ROW_ORDERS), default=LIBRARY_ORDER,
                                 key="conventions_row_order", persist_state="session",
                                 format_func=lambda key: ROW_ORDERS[key][0 if given.scores_2 is None else 1])
    # A static table in every mode: its cells wrap (the grid cut "Elasticsearch / OpenSearch rank_eval dcg…" and the
    # Discount column at 1280 px with the sidebar open) and a screen reader reads each cell as shown ("1.0000"; the
    # grid read its raw data, "1", and only the columns in view). The grid's header sort is the order control above.
    st.table(styled(rows_in_order(table, order), labels), hide_index=True)
    with st.expander(HIGHLIGHTS_IN_WORDS):  # right after the table, where a screen reader's user meets it
        st.markdown("\n".join(f"- {plain(line)}" for line in highlight_words(table, labels)))
    rankers = {"ndcg": ""} if given.scores_2 is None else {"ndcg": "Ranker 1: ", "ndcg_2": "Ranker 2: "}
    for column, prefix in rankers.items():  # with two rankers, a sentence each (ranker 2's values went unsaid)
        text_line(prefix + _agreement(table, column, first=column == "ndcg"))
    if "better" in table:
        for ranker in ("ranker 1", "ranker 2"):
            winners = table.loc[table["better"] == ranker, "library"].tolist()
            if winners:
                text_line(f"{ranker.capitalize()} wins under: {', '.join(winners)}.")


def _agreement(table: pd.DataFrame, column: str, *, first: bool) -> str:
    """How far the conventions agree on ``column``'s NDCG, and (``first``) why some give no value."""
    values = table[column].dropna().round(4).unique()
    refusing = int(table[column].isna().sum())
    refused = "" if not refusing else (f" {refusing} of the {len(table)} give no value for this input "
                                       + ("(their Note says why)." + _no_value_reasons(table) if first else "(as above)."))
    if len(values) == 1 and not refusing:
        return f"All {len(table)} conventions agree: NDCG = {fixed(values[0])}."
    if len(values) == 1:
        return f"The conventions that give a value agree: NDCG = {fixed(values[0])}.{refused}"
    if len(values) == 0:
        return f"No convention gives a value for this input.{refused}"
    return f"The conventions give {len(values)} different values, from {fixed(values.min())} to {fixed(values.max())}.{refused}"


def _no_value_reasons(table: pd.DataFrame) -> str:
    """One line per reason a library gives no value, naming the libraries it applies to; then the libraries that
    give a value on grades they read otherwise (trec_eval and ranx: 1.5 as 1), which have a note too."""
    groups: dict[tuple[bool, str], list[str]] = {}
    for label, note, value in zip(table["library"], table["note"], table["ndcg"], strict=True):
        if note:
            groups.setdefault((value != value, note.removeprefix(f"{label} ")), []).append(label)
    return "".join(f"\nNo value from {', '.join(labels)}: {reason}" if no_value else f"\n{', '.join(labels)}: {reason}"
                   for (no_value, reason), labels in sorted(groups.items(), key=lambda item: not item[0][0]))


def show_explanations() -> None:
    """Why each library computes it its way, and the call that reproduces each figure."""
    with st.expander("Why each library computes it this way"):
        st.markdown("\n".join(f"- **{plain(label)}**: {plain(reason)}" for label, reason in reasons()))
    with st.expander("How to get the same number from each library"):
        for convention in ndcg_core.CONVENTIONS.values():
            st.markdown(f"**{plain(convention.label)}** ({plain(convention.library)})")
            st.code(convention.call, language="python", wrap_lines=True)
            if convention.caveat:
                st.caption(plain(convention.caveat))
            st.caption(f"Source: {plain(convention.source)}")  # every preset cites its source and version
    st.caption(f"Highlighted (orange, bold) = differs from the most common value in its column (in words: “"
               f"{HIGHLIGHTS_IN_WORDS}” under the table).")
