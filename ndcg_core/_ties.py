"""Ranking by scores, and what to do when scores tie.

* ``"average"``: every document in a group of tied scores gets the mean gain of
  the group (McSherry and Najork, 2008), which is the expected DCG over all
  orders of the tie; scikit-learn's ``ndcg_score`` does this.
* ``"optimistic"``: inside a tie, better grades first (an upper bound).
* ``"pessimistic"``: inside a tie, worse grades first (a lower bound).
* ``"stable"``: inside a tie, input order (LightGBM, XGBoost sort stably).
"""

from __future__ import annotations

import numpy as np

from ._gains import GainSpec, gains_of
from ._list import ListResult, _check_settings, _ideal_grades, build_result
from ._validation import LIST_TIE_RULES, InvalidInput, as_finite_numbers, as_grades, check_choice


def order_by_scores(scores: np.ndarray, grades: np.ndarray, ties: str) -> np.ndarray:
    """Indices that sort items by descending score, breaking ties by ``ties``.

    ``"average"`` keeps input order inside a tie; the averaging itself happens
    on the gains (see :func:`tie_averaged_gains`).
    """
    position = np.arange(scores.size)
    if ties == "optimistic":
        return np.lexsort((position, -grades, -scores))
    if ties == "pessimistic":
        return np.lexsort((position, grades, -scores))
    return np.lexsort((position, -scores))


def tie_groups(sorted_scores: np.ndarray) -> np.ndarray:
    """Label consecutive equal scores (already sorted) with a group number 0, 1, ..."""
    starts = np.ones(sorted_scores.size, dtype=bool)
    starts[1:] = sorted_scores[1:] != sorted_scores[:-1]
    return np.cumsum(starts) - 1


def tie_averaged_gains(gains: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Replace each gain by the mean gain of its tie group."""
    totals = np.bincount(groups, weights=gains)
    sizes = np.bincount(groups)
    return (totals / sizes)[groups]


def evaluate_scores(
    relevances,
    scores,
    *,
    ties: str = "average",
    k: int | None = None,
    gain: GainSpec = "exponential",
    log_base: float = 2.0,
    ideal_relevances=None,
    zero_idcg: str = "zero",
) -> ListResult:
    r"""Rank items by descending ``scores`` and evaluate the ranking.

    ``relevances[j]`` and ``scores[j]`` describe item j (in any order). The
    table's ``item`` column gives each position's index into the inputs.

    Ties (equal scores) leave the order undefined, so ``ties`` decides:

    * ``"average"`` (default, scikit-learn's ``ndcg_score`` and torchmetrics):
      every position of a tied group T gets the group's mean gain, so
      :math:`DCG = \sum_T \bar g_T \sum_{i \in T} 1/\log_b(i + 1)`, the expected
      DCG over all orders of each tie (McSherry and Najork, 2008). The ``gain``
      and ``contribution`` columns show the averaged values; ``relevance``
      shows the tied items in input order.
    * ``"optimistic"``: better grades first inside a tie (an upper bound).
    * ``"pessimistic"``: worse grades first inside a tie (a lower bound).
    * ``"stable"``: input order inside a tie (LightGBM and XGBoost sort stably).

    ``"optimistic" >= "average" >= "pessimistic"`` always holds for DCG.
    The ideal list does not depend on scores. Other parameters are those of
    :func:`evaluate`; scores may be any finite numbers (only their order matters).
    """
    grades = as_grades(relevances, what="relevances")
    score_values = as_scores(scores)
    if grades.size != score_values.size:
        raise InvalidInput(f"Got {grades.size} grades but {score_values.size} scores: give one score per document.")
    if grades.size == 0:
        raise InvalidInput("The ranking is empty: add at least one document with a grade.")
    check_choice(ties, LIST_TIE_RULES, name="tie rule")
    settings = _check_settings(k=k, gain=gain, log_base=log_base, zero_idcg=zero_idcg)
    ideal = _ideal_grades(grades, ideal_relevances)

    order = order_by_scores(score_values, grades, ties)
    ranked = grades[order]
    gains = gains_of(ranked, settings["gain"])
    if ties == "average":
        gains = tie_averaged_gains(gains, tie_groups(score_values[order]))
    return build_result(ranked, gains, ideal, **settings, item=order)


def as_scores(scores) -> np.ndarray:
    """Scores as a finite float array (any sign is fine: only their order matters)."""
    return as_finite_numbers(scores, what="scores")
