r"""NDCG when some retrieved documents have no judgment: the usual figure, the condensed list, judged@k, bounds.

* **standard**: an unjudged document counts as not relevant (grade 0), as
  trec_eval, scikit-learn and every library do.
* **condensed** (Sakai, 2007, "Alternatives to bpref", SIGIR): the unjudged
  documents are removed from the ranking *before* it is cut at k, so the
  judged documents below them move up; the ideal list is unchanged. ir_measures
  computes it as ``nDCG(judged_only=True)``.
* **judged@k**: the share of the first k ranked documents that have a judgment
  (k = None: of the whole ranking); a low value warns that the figures rest on
  guesses (ir_measures' ``Judged@k``).
* **lower** and **upper**: NDCG if every unjudged document were judged at 0
  (= standard) or at the highest grade (``highest``, by default the highest
  judged grade). In the upper case those documents also join the ideal list,
  as a judgment would put them there; so "upper" is the figure under the most
  generous judgment, not a bound on every possible one (IDCG grows too).

Rankings, ties and the ideal list are those of :func:`evaluate` and
:func:`evaluate_scores`, which compute every figure here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._list import evaluate, evaluate_scores
from ._validation import InvalidInput, as_finite_numbers, as_grades, check_k, check_sequence


@dataclass(frozen=True)
class IncompleteJudgments:
    """The figures of one ranked list with unjudged documents (the module docstring has their definitions).

    ``standard``: NDCG with unjudged documents as grade 0; ``condensed``: NDCG of the list without them (Sakai
    2007); ``judged_at_k``: the share of the first k documents that are judged; ``lower`` (= ``standard``) and
    ``upper``: NDCG with every unjudged document at grade 0 or at ``highest``, the grade assumed for them;
    ``n_unjudged``: unjudged documents in the ranking, ``n_unjudged_at_k`` of them within the cutoff.
    """

    standard: float
    condensed: float
    judged_at_k: float
    lower: float
    upper: float
    n_unjudged: int
    n_unjudged_at_k: int
    highest: float


def incomplete_judgments(
    relevances,
    scores=None,
    *,
    k: int | None = None,
    gain="exponential",
    ideal_relevances=None,
    zero_idcg: str = "zero",
    ties: str = "stable",
    highest: float | None = None,
    log_base: float = 2.0,
    discount: str = "log",
) -> IncompleteJudgments:
    """Standard, condensed-list, judged@k and bound NDCG of one ranking with unjudged documents.

    Parameters
    ----------
    relevances : sequence of non-negative numbers or None
        One grade per retrieved document (in ranked order when ``scores`` is
        None); ``None`` or NaN marks a document without a judgment.
    scores : sequence of numbers, optional
        Model scores, ranked descending with the tie rule ``ties``.
    ties : str
        The tie rule for equal scores (:data:`TIE_RULES`). Its default,
        ``"stable"`` (tied documents keep the order given), differs on purpose
        from :func:`evaluate_scores`' ``"average"``: the condensed list is the
        ranked list with its unjudged documents struck out (Sakai 2007), and
        only a tie rule that places each document on its own keeps the judged
        documents of a tie in the same places relative to each other in both
        lists. Pass ``ties="average"`` for scikit-learn's tie handling.
    k, gain, zero_idcg, log_base, discount
        As in :func:`evaluate` (``log_base`` and ``discount`` were missing, so
        a Järvelin–Kekäläinen figure, where the base changes NDCG, had no
        condensed-list counterpart).
    ideal_relevances : sequence of non-negative numbers, optional
        Every judged grade of the query (the ranked judged ones and those not
        retrieved). Defaults to the judged grades of the ranking.
    highest : number, optional
        The grade assumed for unjudged documents in the upper figure (default:
        the highest judged grade, 1 when nothing is judged).

    >>> result = incomplete_judgments([None, 3, None, 1, 0], k=3, gain="linear", ideal_relevances=[3, 0, 1, 2])
    >>> round(result.standard, 4), round(result.condensed, 4), round(result.judged_at_k, 4)
    (0.3975, 0.7625, 0.3333)
    """
    marks = (relevances.tolist() if isinstance(relevances, np.ndarray) and relevances.ndim == 1
             else check_sequence(relevances, what="relevances", of="one grade (or None when unjudged) per document"))
    unjudged = np.array([value is None or (isinstance(value, float) and math.isnan(value)) for value in marks])
    if unjudged.size == 0:
        raise InvalidInput("The ranking is empty: add at least one document.")
    judged = as_grades([0.0 if missing else value for value, missing in zip(marks, unjudged, strict=True)],
                       what="relevances")
    all_judged = judged[~unjudged] if ideal_relevances is None else as_grades(ideal_relevances,
                                                                               what="ideal_relevances")
    cutoff = check_k(k)
    top = float(all_judged.max()) if all_judged.size and all_judged.max() > 0 else 1.0
    highest = top if highest is None else float(as_grades([highest], what="highest")[0])
    settings = {"k": cutoff, "gain": gain, "zero_idcg": zero_idcg, "log_base": log_base, "discount": discount}
    score_values = None if scores is None else as_finite_numbers(scores, what="scores")
    if score_values is not None and score_values.size != judged.size:
        raise InvalidInput(f"Got {judged.size} grades but {score_values.size} scores: give one score per document.")
    ideal = np.r_[all_judged, np.zeros(max(judged.size - all_judged.size, 0))]  # enough places for the ranked ones

    def run(grades, keep, extra_ideal=()):
        pool = np.r_[ideal, np.array(extra_ideal, dtype=float)]
        if score_values is None:
            return evaluate(grades[keep], ideal_relevances=pool, **settings)
        return evaluate_scores(grades[keep], score_values[keep], ties=ties, ideal_relevances=pool, **settings)

    everything = np.ones(judged.size, dtype=bool)
    standard = run(judged, everything)
    assumed = np.where(unjudged, highest, judged)
    upper = run(assumed, everything, extra_ideal=[highest] * int(unjudged.sum()))
    # Nothing judged in the ranking: the condensed list is empty, so DCG 0 over the same ideal (NDCG 0, or the
    # zero-IDCG rule's value when IDCG = 0), as trec_eval -J counts it.
    condensed = run(judged, ~unjudged).ndcg if (~unjudged).any() else (0.0 if standard.idcg > 0 else standard.ndcg)
    order = standard.table["item"].to_numpy()
    depth = order.size if cutoff is None else min(cutoff, order.size)
    unjudged_at_k = int(unjudged[order[:depth]].sum())
    return IncompleteJudgments(
        standard=standard.ndcg, condensed=condensed,
        judged_at_k=1 - unjudged_at_k / depth, lower=standard.ndcg, upper=upper.ndcg,
        n_unjudged=int(unjudged.sum()), n_unjudged_at_k=unjudged_at_k, highest=highest,
    )
