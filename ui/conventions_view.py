"""Conventions explorer building blocks: ready-made cases, input checking, the side-by-side table.

Canonical state: ``conventions_input`` (the input table: document, grade, score, second score, ranked)
and ``conventions_case`` (the case it came from). The editor is keyed by case so switching cases resets it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

import ndcg_core
from ui import url_state

INPUT_COLUMNS = url_state.CONVENTIONS_COLUMNS
SETTING_COLUMNS = {"gain": "Gain", "ties": "Tied scores", "ideal": "Ideal from", "zero_idcg": "IDCG = 0 gives"}
IDEAL_WORDS = {"ranking": "the ranked list only", "all_judged": "all judged documents"}
TIE_WORDS = {"average": "gains averaged", "stable": "input order", "trec_eval": "doc id, Z→A"}
ZERO_WORDS = {"zero": "0", "one": "1", "skip": "skipped", "error": "error"}
HIGHLIGHT = "background-color: #FFE8B3; font-weight: 700"  # light orange: readable, not the only cue (see caption)


@dataclass(frozen=True)
class Case:
    """A ready-made input that shows one classic disagreement between libraries."""

    key: str
    title: str
    lesson: str
    documents: tuple[str, ...]
    grades: tuple[float, ...]
    scores: tuple[float, ...] | None = None
    scores_2: tuple[float, ...] | None = None
    extra_documents: tuple[str, ...] = ()
    extra_grades: tuple[float, ...] = ()

    def frame(self) -> pd.DataFrame:
        n, extra = len(self.documents), len(self.extra_documents)
        blank = [np.nan] * extra
        return pd.DataFrame({
            "document": [*self.documents, *self.extra_documents],
            "grade": [float(g) for g in (*self.grades, *self.extra_grades)],
            "score": [*(self.scores or [np.nan] * n), *blank],
            "score_2": [*(self.scores_2 or [np.nan] * n), *blank],
            "ranked": [True] * n + [False] * extra,
        })


CASES: dict[str, Case] = {case.key: case for case in (
    Case(
        key="equal",
        title="All grades equal: NDCG is 1 everywhere",
        lesson="When every document has the same grade, every order is an ideal order, so DCG = IDCG and every "
        "library reports 1, whatever its gain, tie or ideal rule.",
        documents=("d1", "d2", "d3", "d4"), grades=(2, 2, 2, 2), scores=(0.9, 0.7, 0.4, 0.1),
    ),
    Case(
        key="ties",
        title="Tied scores: trec_eval decides by document id",
        lesson="Two pairs of documents have equal scores. trec_eval (and pytrec_eval) puts the tied documents "
        "in descending document-id order, so here the non-relevant B07 goes above the grade-3 A12; scikit-learn "
        "averages the gains of a tied group instead; libraries that sort stably keep the input order.",
        documents=("A12", "B07", "C33", "D01"), grades=(3, 0, 1, 2), scores=(0.9, 0.9, 0.4, 0.4),
    ),
    Case(
        key="ideal",
        title="Ideal from all judgments lowers NDCG",
        lesson="The ranking retrieved three judged documents in the best possible order, but a grade-3 document was "
        "judged and not retrieved. Libraries that build the ideal from every judgment (trec_eval, ranx) count it in "
        "IDCG, so NDCG drops below 1; libraries that only see the ranked list (scikit-learn, LightGBM) report 1.",
        documents=("d1", "d2", "d3"), grades=(2, 1, 0), scores=(0.9, 0.5, 0.1),
        extra_documents=("d9",), extra_grades=(3,),
    ),
    Case(
        key="all_zero",
        title="All-zero query: 0 in scikit-learn, 1 in LightGBM",
        lesson="No document is relevant, so IDCG = 0 and NDCG = 0/0. scikit-learn and trec_eval report 0, LightGBM "
        "and XGBoost report 1. Averaged over a data set with such queries, the same model gets different scores.",
        documents=("d1", "d2", "d3"), grades=(0, 0, 0), scores=(0.8, 0.5, 0.2),
    ),
    Case(
        key="gain",
        title="Linear vs exponential gain reorders two rankers",
        lesson="Ranker 1 puts the single grade-3 document first and misses the rest; ranker 2 finds the three grade-2 "
        "documents first and puts the grade-3 document fourth. With linear gain (grade) ranker 2 wins; with "
        "exponential gain (2^grade − 1) the grade-3 document is worth 7 instead of 3, and ranker 1 wins.",
        documents=("d1", "d2", "d3", "d4", "d5", "d6"), grades=(3, 2, 2, 2, 0, 0),
        scores=(0.95, 0.10, 0.15, 0.20, 0.90, 0.85), scores_2=(0.40, 0.90, 0.80, 0.70, 0.20, 0.10),
    ),
)}
CUSTOM = "custom"


@dataclass(frozen=True)
class CheckedInput:
    """The ranked documents (grades, scores, ids) and all judged grades, validated."""

    documents: list[str]
    grades: list[float]
    scores: list[float] | None
    scores_2: list[float] | None
    all_grades: list[float]


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
    ndcg_core.check_grades(rows["grade"].tolist(), gain=gain)  # negative, NaN, non-numeric, too large for gain
    scores = _scores(ranked["score"], "score")
    scores_2 = _scores(ranked["score_2"], "second ranker's score")
    if scores is None and scores_2 is not None:
        raise ndcg_core.InvalidInput("Fill in the first score column before the second ranker's scores.")
    return CheckedInput(
        documents=names, grades=ranked["grade"].astype(float).tolist(), scores=scores, scores_2=scores_2,
        all_grades=rows["grade"].astype(float).tolist(),
    )


def _scores(column: pd.Series, what: str) -> list[float] | None:
    if column.isna().all():
        return None
    if column.isna().any():
        raise ndcg_core.InvalidInput(f"Fill in the {what} for every ranked document, or leave the whole column empty.")
    values = column.astype(float).tolist()
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
        row["ndcg"] = _ndcg(convention, given, given.scores, k=k)
        if given.scores_2 is not None:
            row["ndcg_2"] = _ndcg(convention, given, given.scores_2, k=k)
            row["better"] = _better(row["ndcg"], row["ndcg_2"])
        row["gain"] = convention.gain
        row["ties"] = TIE_WORDS.get(convention.ties, convention.ties)
        row["ideal"] = IDEAL_WORDS.get(convention.ideal, convention.ideal)
        row["zero_idcg"] = ZERO_WORDS.get(convention.zero_idcg, convention.zero_idcg)
        rows.append(row)
    return pd.DataFrame(rows)


def reasons() -> list[tuple[str, str]]:
    """(label, one-line reason) of every convention."""
    return [(convention.label, convention.reason) for convention in ndcg_core.CONVENTIONS.values()]


def _ndcg(convention, given: CheckedInput, scores: list[float] | None, *, k: int | None) -> float:
    try:
        return float(convention.evaluate(given.grades, scores, k=k, ideal_relevances=given.all_grades,
                                         doc_ids=given.documents).ndcg)
    except ndcg_core.InvalidInput:
        return float("nan")  # e.g. a convention that refuses IDCG = 0: shown as an empty cell


def _better(first: float, second: float) -> str:
    if not (np.isfinite(first) and np.isfinite(second)):
        return "–"
    if abs(first - second) < 1e-12:
        return "tie"
    return "ranker 1" if first > second else "ranker 2"


def differing(column: pd.Series) -> pd.Series:
    """True where a cell differs from the column's most common value (numbers compared to 1e-9)."""
    if column.dtype.kind == "f":
        rounded = column.round(9)
        common = rounded.mode(dropna=False)
        return rounded != common.iloc[0] if not common.empty else pd.Series(False, index=column.index)
    common = column.astype(str).mode()
    return column.astype(str) != common.iloc[0]


def styled(table: pd.DataFrame, labels: dict[str, str]):
    """Styler with readable headers, highlighting cells that differ from the majority in their column."""
    columns = [labels[c] for c in table.columns if c != "library"]
    formats = {labels[c]: "{:.4f}" for c in ("ndcg", "ndcg_2") if c in table}
    return (
        table.rename(columns=labels).style
        .apply(lambda column: [HIGHLIGHT if flag else "" for flag in differing(column)], subset=columns)
        .format(formats, na_rep="–")
    )
