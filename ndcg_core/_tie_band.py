"""The tie band: the lowest, expected and highest NDCG over every order of tied scores.

When a model gives several documents the same score, the ranking is not one
list but a set of lists (one per order of each tied group). Libraries pick one
(input order, document id, ...) or average over all of them (scikit-learn). The
band shows the whole range, computed without enumerating any permutation:

* **highest**: inside each tied group, higher grades first. A tied group takes
  a block of consecutive positions whose weights w_i = 1/log_b(i + 1) (0 past
  the cutoff k) never increase (nor do Järvelin and Kekäläinen's: 1 before rank
  b, then 1/log_b(i)), so by the rearrangement inequality pairing the
  largest gains with the largest weights maximises sum g_i w_i. The ideal list
  does not depend on the scores, so this maximises NDCG too.
* **lowest**: worse grades first inside each tie (the same argument reversed).
* **expected** (uniform over the orders of each tie, independently): every
  position of a tied group T holds each of its documents with probability
  1/|T|, so E[DCG] = sum_T mean(g_T) * sum_{i in T, i <= k} w_i, exactly what
  the ``"average"`` tie rule computes (McSherry and Najork, 2008) and equal to
  scikit-learn's ``ndcg_score`` with ``ignore_ties=False``. This holds when a
  group straddles the cutoff: each of its positions above k gets the group's
  mean gain. Since IDCG is fixed, E[NDCG] = E[DCG] / IDCG.

The three figures are :func:`evaluate_scores` under its ``"pessimistic"``,
``"average"`` and ``"optimistic"`` tie rules: the tie orders are defined once,
in ``_ties.py``
(``order_rows``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._list import evaluate_scores
from ._ties import tie_group_labels
from ._validation import as_finite_numbers


@dataclass(frozen=True)
class TieBand:
    """Lowest, expected and highest NDCG over every order of the tied scores.

    Attributes
    ----------
    low, expected, high : float
        NDCG with worse grades first in every tie, the mean over all tie
        orders (scikit-learn's value), and NDCG with better grades first.
    tied_groups : int
        Number of groups of two or more documents sharing a score.
    tied_documents : int
        Documents in those groups.
    orders : int
        How many distinct document orders the ties allow (product of the
        groups' factorials; can be astronomically large, it is never enumerated).
    """

    low: float
    expected: float
    high: float
    tied_groups: int
    tied_documents: int
    orders: int

    @property
    def width(self) -> float:
        """high - low: how much the tie rule alone can move NDCG."""
        return self.high - self.low


def tie_band(
    relevances,
    scores,
    *,
    k: int | None = None,
    gain="exponential",
    log_base: float = 2.0,
    ideal_relevances=None,
    zero_idcg: str = "zero",
    discount: str = "log",
) -> TieBand:
    """Lowest, expected and highest NDCG over all orders of tied scores.

    Parameters are those of :func:`evaluate_scores` (without ``ties``): grades
    and scores of the same documents, cutoff ``k`` (``None``: the whole list,
    the ideal cut at the same depth), ``gain``, ``log_base``, ``discount``, the optional
    ``ideal_relevances`` (every judged grade of the query) and the ``zero_idcg``
    rule. With ``zero_idcg="skip"`` and IDCG = 0 all three figures are NaN.

    Raises :class:`InvalidInput` for the inputs :func:`evaluate_scores` refuses.

    >>> band = tie_band([3, 0, 1], [1.0, 1.0, 0.5], gain="linear")
    >>> round(band.low, 4), round(band.expected, 4), round(band.high, 4)
    (0.659, 0.8115, 0.9639)
    """
    settings = {"k": k, "gain": gain, "log_base": log_base, "ideal_relevances": ideal_relevances,
                "zero_idcg": zero_idcg, "discount": discount}
    low = evaluate_scores(relevances, scores, ties="pessimistic", **settings).ndcg
    expected = evaluate_scores(relevances, scores, ties="average", **settings).ndcg
    high = evaluate_scores(relevances, scores, ties="optimistic", **settings).ndcg
    score_values = as_finite_numbers(scores, what="scores")
    sizes = np.bincount(tie_group_labels(np.sort(score_values)[::-1]))
    tied = sizes[sizes > 1]
    orders = math.prod(math.factorial(size) for size in tied.tolist())
    return TieBand(low=low, expected=expected, high=high, tied_groups=int(tied.size),
                   tied_documents=int(tied.sum()), orders=orders)

