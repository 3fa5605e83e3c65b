"""The Library conventions page's ready-made cases: five inputs, each showing one classic disagreement.

Each case's rows are written as a small table (``document grade score [score_2]``; a row starting with ``-``
is judged but not ranked), its lesson as the sentence shown above the table.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd


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
        """The case as the page's input table (document, grade, score, score_2, ranked)."""
        n, extra = len(self.documents), len(self.extra_documents)
        blank = [np.nan] * extra
        return pd.DataFrame({
            "document": [*self.documents, *self.extra_documents],
            "grade": [float(g) for g in (*self.grades, *self.extra_grades)],
            "score": [*(self.scores or [np.nan] * n), *blank],
            "score_2": [*(self.scores_2 or [np.nan] * n), *blank],
            "ranked": [True] * n + [False] * extra,
        })


def case(key: str, title: str, table: str, lesson: str) -> Case:
    """A case from its rows written as a table: ``document grade score [score_2]`` per row, ``-`` before a row
    that is judged but not ranked."""
    rows = [line.split() for line in table.strip().splitlines()]
    ranked = [row for row in rows if row[0] != "-"]
    extra = [row[1:] for row in rows if row[0] == "-"]
    columns = list(zip(*ranked, strict=True))
    scores = [tuple(float(value) for value in column) for column in columns[2:]]
    return Case(key, title, lesson, columns[0], tuple(float(g) for g in columns[1]), *scores,
                extra_documents=tuple(row[0] for row in extra), extra_grades=tuple(float(row[1]) for row in extra))


CASES: dict[str, Case] = {item.key: item for item in (
    case("equal", "All grades equal: NDCG is 1 everywhere", """
        d1 2 0.9
        d2 2 0.7
        d3 2 0.4
        d4 2 0.1""",
         "When every document has the same grade, every order is an ideal order, so DCG = IDCG and every library "
         "reports 1, whatever its gain, tie or ideal rule."),
    case("ties", "Tied scores: trec_eval decides by document id", """
        A12 3 0.9
        B07 0 0.9
        C33 1 0.4
        D01 2 0.4""",
         "Two pairs of documents have equal scores. trec_eval (and pytrec_eval) puts the tied documents in "
         "descending document-id order, so here the non-relevant B07 goes above the grade-3 A12; scikit-learn "
         "averages the gains of a tied group instead; libraries that sort stably keep the input order."),
    case("ideal", "Ideal from all judgments lowers NDCG", """
        d1 2 0.9
        d2 1 0.5
        d3 0 0.1
        - d9 3""",
         "The ranking retrieved three judged documents in the best possible order, but a grade-3 document was "
         "judged and not retrieved. Libraries that build the ideal from every judgment (trec_eval, ranx) count it in "
         "IDCG, so NDCG drops below 1; libraries that only see the ranked list (scikit-learn, LightGBM) report 1."),
    case("all_zero", "All-zero query: 0 in scikit-learn, 1 in LightGBM", """
        d1 0 0.8
        d2 0 0.5
        d3 0 0.2""",
         "No document is relevant, so IDCG = 0 and NDCG = 0/0. scikit-learn and trec_eval report 0, LightGBM and "
         "XGBoost report 1. Averaged over a data set with such queries, the same model gets different scores."),
    case("gain", "Linear vs exponential gain reorders two rankers", """
        d1 3 0.95 0.40
        d2 2 0.10 0.90
        d3 2 0.15 0.80
        d4 2 0.20 0.70
        d5 0 0.90 0.20
        d6 0 0.85 0.10""",
         "Ranker 1 puts the single grade-3 document first and misses the rest; ranker 2 finds the three grade-2 "
         "documents first and puts the grade-3 document fourth. With linear gain (grade) ranker 2 wins; with "
         "exponential gain (2^grade − 1) the grade-3 document is worth 7 instead of 3, and ranker 1 wins."),
)}
CUSTOM = "custom"
