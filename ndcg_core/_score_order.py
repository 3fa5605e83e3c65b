"""The order of one list by its scores, and which ranked documents tie: :func:`score_order`.

The Playground's score mode shows a list ranked by typed scores: the order and
the tie groups come from here (the one tie implementation, ``order_rows`` in
``_ties.py``), never from a sort in the app.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._ties import TIE_RULES, order_rows, tie_group_labels
from ._validation import InvalidInput, as_finite_numbers, as_grades, check_choice, check_doc_ids


@dataclass(frozen=True)
class ScoreOrder:
    """``order[i]``: the input index of the document at rank i + 1; ``tie_groups[i]``: its tie group label.

    Documents share a label exactly when their scores are equal (labels count up from 0 down the ranking).
    """

    order: tuple[int, ...]
    tie_groups: tuple[int, ...]

    @property
    def tied(self) -> bool:
        """True when at least two documents share a score."""
        return len(set(self.tie_groups)) < len(self.tie_groups)


SCORE_PRECISIONS = ("double", "float32")


def stored_scores(scores, *, precision: str = "double") -> np.ndarray:
    """Scores as a library keeps them: double precision, or rounded to single precision (``"float32"``, as
    pytrec_eval, XGBoost and torchmetrics store them), where scores closer than about 1e-7 (relative) tie.

    >>> stored_scores([1.000000001, 1.0], precision="float32").tolist()
    [1.0, 1.0]
    >>> stored_scores([2e39, 1e39, 1.0], precision="float32").tolist()  # both past float32's range: a tie
    [1.7976931348623157e+308, 1.7976931348623157e+308, 1.0]
    """
    check_choice(precision, SCORE_PRECISIONS, name="score precision")
    values = as_finite_numbers(scores, what="scores")
    if precision != "float32":
        return values
    with np.errstate(over="ignore"):
        single = values.astype(np.float32).astype(float)
    # Beyond single precision's range (about 3.4e38) a library stores the score as ±inf: above (below) every other
    # score and tied with any other such score. Double's largest number keeps exactly that order and stays finite
    # for the checks downstream (the whole input was refused as "infinite (or beyond about 1e308)").
    return np.where(np.isinf(single), np.copysign(np.finfo(float).max, single), single)


def score_order(relevances, scores, *, ties: str = "average", doc_ids=None, precision: str = "double") -> ScoreOrder:
    """Rank documents by descending score; ``ties`` orders equal scores (the rules of :func:`evaluate_scores`).

    ``relevances`` are needed by the ``"optimistic"`` and ``"pessimistic"``
    rules, ``doc_ids`` by ``"trec_eval"`` (without them a later input position
    counts as a larger id). Under ``"average"`` tied documents keep their input
    order (their gains are averaged by :func:`evaluate` with ``tie_groups``).
    ``precision``: the scores as a library stores them (:func:`stored_scores`).

    >>> score_order([0, 3, 1], [1.0, 1.0, 2.0], ties="optimistic")
    ScoreOrder(order=(2, 1, 0), tie_groups=(0, 1, 1))
    >>> score_order([0, 3, 1], [1.0, 1.0, 2.0], ties="trec_eval", doc_ids=["b", "a", "c"]).order
    (2, 0, 1)
    >>> score_order([1, 0], [1.000000001, 1.0], precision="float32").tied
    True
    """
    grades = as_grades(relevances, what="relevances")
    values = stored_scores(scores, precision=precision)
    if grades.size != values.size:
        raise InvalidInput(f"Got {grades.size} grades but {values.size} scores: give one score per document.")
    order = ranked_by_score(grades, values, ties=ties, doc_ids=doc_ids)
    return ScoreOrder(order=tuple(int(i) for i in order),
                      tie_groups=tuple(int(g) for g in tie_group_labels(values[order])))


def ranked_by_score(grades: np.ndarray, scores: np.ndarray, *, ties: str, doc_ids=None) -> np.ndarray:
    """Input positions in ranked order (scores descending, ties broken by ``ties``) of one list.

    The single definition behind :func:`score_order` and :func:`ndcg_core.evaluate_scores`: the tie rule and
    ``doc_ids`` are checked here (one id per document, compared as text).
    """
    check_choice(ties, TIE_RULES, name="tie rule")
    names = check_doc_ids(doc_ids, grades.size)
    ids = None if names is None else np.asarray(names, dtype=object)
    order = order_rows(np.zeros(grades.size, dtype=np.int8), scores, ties=ties, grade=grades,
                       doc_ids=None if ids is None else ids.__getitem__)
    return np.arange(grades.size) if order is None else order
