"""NDCG of one ranked list: :func:`evaluate` (grades in ranked order) and :func:`evaluate_scores` (ranked by scores)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import pandas as pd

from ._discounts import discounts
from ._gains import GainSpec, check_gain, gain_values
from ._ideal import ideal_depth, ideal_order, ranking_depth
from ._score_order import ranked_by_score
from ._ties import tie_averaged_gains
from ._validation import (
    ZERO_IDCG_RULES,
    InvalidInput,
    as_finite_numbers,
    as_grades,
    check_choice,
    check_discount,
    check_flag,
    check_k,
    check_labels,
    check_log_base,
)

TABLE_COLUMNS = (
    "rank", "item", "relevance", "gain", "discount", "contribution", "cumulative_cg", "cumulative_dcg",
    "ideal_relevance", "ideal_gain", "ideal_contribution", "cumulative_idcg", "ndcg_at_rank", "in_cutoff",
)


@dataclass(frozen=True)
class ListResult:
    """CG, DCG, IDCG and NDCG of one ranked list, with the per-position table.

    ``cg``, ``dcg``, ``idcg`` and ``ndcg`` are the figures at the cutoff ``k``
    (None: the whole list).

    ``table`` has one row per position of the ranking. Its running columns
    (``cumulative_*``, ``ndcg_at_rank``) continue past the cutoff so a chart
    can show what positions beyond k would add; ``in_cutoff`` marks the rows
    that count towards the headline figures.

    ``ideal_relevances`` is the ideal list (every judged grade, descending)
    and ``ideal_order`` the indices that sort the judged grades given (the
    ``ideal_relevances`` argument, else the ranked grades) into it, ties in
    input order. ``depth`` is the number of ranked positions counted and
    ``ideal_depth`` the number of ideal places counted (see
    :mod:`ndcg_core._ideal` for the rule); the app reads these rather than
    recomputing them.

    ``table_columns`` holds the table's columns as arrays; the DataFrame is
    built from them on first use of ``table`` (a caller that needs only the
    figures, such as a search over conventions, never pays for it).

    ``ideal_table`` has one row per ideal place IDCG counts (``ideal_depth``
    rows; more than the ranking's when judged documents outside it make the
    ideal list longer), so a chart or a walk can show the places the ranking
    does not reach: their contributions sum to ``idcg``; ``ideal_columns``
    holds its columns as arrays, as ``table_columns`` does the table's.
    """

    cg: float
    dcg: float
    idcg: float
    ndcg: float
    k: int | None
    table_columns: Mapping[str, np.ndarray] = field(repr=False, compare=False)
    ideal_relevances: np.ndarray = field(repr=False)
    ideal_order: np.ndarray = field(repr=False, default_factory=lambda: np.zeros(0, dtype=np.int64))
    depth: int = 0
    ideal_depth: int = 0
    ideal_columns: Mapping[str, np.ndarray] = field(repr=False, compare=False, default_factory=dict)

    @cached_property
    def table(self) -> pd.DataFrame:
        """The per-position table, one row per ranked position, columns in TABLE_COLUMNS order."""
        return pd.DataFrame(self.table_columns)  # keys in order; no columns= (it would reindex: 2x slower)

    @cached_property
    def ideal_table(self) -> pd.DataFrame:
        """One row per ideal place counted in IDCG: ``place``, ``ideal_relevance``, ``ideal_gain``, ``discount``,
        ``ideal_contribution``, ``cumulative_idcg`` (its last value is ``idcg``)."""
        return pd.DataFrame(self.ideal_columns)


def normalise(dcg: np.ndarray | float, idcg: np.ndarray | float, zero_idcg: str) -> np.ndarray:
    """Return DCG / IDCG with the ``zero_idcg`` rule applied where IDCG is 0.

    ``"zero"`` gives 0 (scikit-learn, trec_eval), ``"one"`` gives 1 (LightGBM,
    XGBoost), ``"skip"`` gives NaN (left out of averages); ``"error"`` is
    handled by the caller, so here it also gives NaN.
    """
    dcg = np.asarray(dcg, dtype=float)
    idcg = np.asarray(idcg, dtype=float)
    positive = idcg > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.divide(dcg, idcg, out=np.zeros(np.broadcast(dcg, idcg).shape), where=positive)
    fill = {"zero": 0.0, "one": 1.0}.get(zero_idcg, np.nan)
    return np.where(positive, ratio, fill)


def evaluate(
    relevances,
    *,
    k: int | None = None,
    gain: GainSpec = "exponential",
    log_base: float = 2.0,
    ideal_relevances=None,
    zero_idcg: str = "zero",
    tie_groups=None,
    cut_ideal_at_ranking: bool = False,
    discount: str = "log",
) -> ListResult:
    r"""Evaluate one ranked list of relevance grades.

    .. math::

        CG@k = \sum_{i=1}^{k} g(rel_i), \quad
        DCG@k = \sum_{i=1}^{k} \frac{g(rel_i)}{\log_b(i + 1)}, \quad
        NDCG@k = \frac{DCG@k}{IDCG@k}

    where IDCG@k is the DCG@k of the ideal ranking: the judged grades sorted
    in descending order. That is the ``"log"`` discount; ``discount="jk"``
    divides by Järvelin and Kekäläinen's (2002) discount instead (1 before
    rank b, :math:`\log_b i` from rank b on: :mod:`ndcg_core._discounts`).

    Parameters
    ----------
    relevances : sequence of non-negative numbers
        Grades in ranked order, position 1 first.
    k : positive int or None, keyword-only
        Cutoff. ``None`` means no cutoff: DCG over the whole ranking and IDCG
        over every judged grade (trec_eval's ``ndcg``), as in every function
        of ndcg_core. A k larger than the ranking counts every ranked
        document, while the ideal list is cut at k, as trec_eval's
        ``ndcg_cut`` does: with extra judged documents, IDCG@k can then be
        larger than IDCG@len(ranking).
    gain : {"linear", "exponential"} or mapping grade -> gain
        ``"linear"``: g(rel) = rel; ``"exponential"``: g(rel) = 2**rel - 1;
        a mapping is a gain table.
    log_base : float > 1
        Base b of the discount. Under ``"log"`` DCG depends on it, NDCG does
        not; under ``"jk"`` NDCG depends on it too (b sets how many top ranks
        go undiscounted: b = 2 in the paper's examples).
    ideal_relevances : sequence of non-negative numbers, optional
        All judged grades for the query, possibly including documents that are
        not in the ranking. Defaults to ``relevances``. It must include the
        ranked documents' grades, otherwise NDCG could exceed 1.
    zero_idcg : {"zero", "one", "skip", "error"}
        NDCG when IDCG is 0 (no relevant judged document): 0, 1, NaN or
        raise :class:`InvalidInput`.
    tie_groups : sequence of labels, optional
        One label per ranked position; neighbouring positions with the same
        label are documents with tied scores, and each gets the mean gain of
        its group (the ``"average"`` tie rule of :func:`evaluate_scores`, which
        :func:`ranked_query` hands over this way).
    cut_ideal_at_ranking : bool
        With ``k=None``, cut the ideal list at the ranking's length instead of
        keeping every judged grade (the convention of a library that only sees
        the ranked documents). Ignored when k is given.
    discount : {"log", "jk"}
        ``"log"``: divide the gain at rank i by log_b(i + 1) (every library);
        ``"jk"``: by 1 for i < b and log_b(i) from rank b on (Järvelin and
        Kekäläinen 2002, the ``"jarvelin_kekalainen_2002"`` preset).

    Returns
    -------
    ListResult
        ``cg``, ``dcg``, ``idcg``, ``ndcg`` (floats), ``k``, the per-position
        ``table``, the sorted ``ideal_relevances`` with their ``ideal_order``,
        and the ``depth`` / ``ideal_depth`` counted. CG sums gains, so it
        equals the sum of grades only under linear gain.

    Raises
    ------
    InvalidInput
        For an empty ranking, a grade that is negative, NaN, infinite or not a
        number, a grade missing from a gain table, an exponential gain that
        overflows, a k that is not a positive whole number, a log base that is
        not a finite number above 1, an unknown gain, discount or zero_idcg
        name, or ``zero_idcg="error"`` when IDCG is 0.

    Examples
    --------
    The list of 004_d08dec0f5f88387e.txt, exponential gain:
    DCG@5 = 7/1 + 3/log2(3) + 7/2 + 0/log2(5) + 1/log2(6) and the ideal
    order is [3, 3, 2, 1, 0].

    >>> result = evaluate([3, 2, 3, 0, 1], k=5)
    >>> round(result.dcg, 4), round(result.idcg, 4), round(result.ndcg, 4)
    (12.7796, 13.3472, 0.9575)
    >>> round(evaluate([3, 2, 3, 0, 1], k=5, gain="linear").ndcg, 4)
    0.9724

    Järvelin and Kekäläinen's own example (b = 2, linear gain): DCG at rank 3
    is 3 + 2 + 3/log2(3).

    >>> round(evaluate([3, 2, 3], gain="linear", discount="jk").dcg, 2)
    6.89
    """
    grades = as_grades(relevances, what="relevances")
    if grades.size == 0:
        raise InvalidInput("The ranking is empty: add at least one document with a grade.")
    settings = _check_settings(k=k, gain=gain, log_base=log_base, zero_idcg=zero_idcg, discount=discount)
    ideal, order = _ideal_grades(grades, ideal_relevances)
    gains = gain_values(grades, settings["gain"])
    if tie_groups is not None:
        labels = np.asarray(check_labels(tie_groups, grades.size, what="tie_groups", noun="tie-group label"))
        gains = tie_averaged_gains(np.zeros(grades.size, dtype=np.int8), labels, gains)
    return build_result(grades, gains, ideal, **settings, item=np.arange(grades.size), ideal_order=order,
                        cut_ideal_at_ranking=check_flag(cut_ideal_at_ranking, name="cut_ideal_at_ranking"))


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
    doc_ids=None,
    cut_ideal_at_ranking: bool = False,
    discount: str = "log",
) -> ListResult:
    r"""Rank items by descending ``scores`` and evaluate the ranking.

    ``relevances[j]`` and ``scores[j]`` describe item j (in any order). The
    table's ``item`` column gives each position's index into the inputs.

    Ties (equal scores) leave the order undefined, so ``ties`` decides (the
    rules of :mod:`ndcg_core._ties`, shared with :func:`evaluate_run`):

    * ``"average"`` (default, scikit-learn's ``ndcg_score`` and torchmetrics):
      every position of a tied group T gets the group's mean gain, so
      :math:`DCG = \sum_T \bar g_T \sum_{i \in T} 1/\log_b(i + 1)`, the expected
      DCG over all orders of each tie (McSherry and Najork, 2008). The ``gain``
      and ``contribution`` columns show the averaged values; ``relevance``
      shows the tied items in input order.
    * ``"optimistic"``: better grades first inside a tie (an upper bound).
    * ``"pessimistic"``: worse grades first inside a tie (a lower bound).
    * ``"stable"``: input order inside a tie (LightGBM and XGBoost sort stably).
    * ``"trec_eval"``: document id descending inside a tie (byte order, as
      trec_eval); ``doc_ids`` gives the ids (without them a later input
      position counts as a larger id).

    ``"optimistic" >= "average" >= "pessimistic"`` always holds for DCG.
    The ideal list does not depend on scores. Other parameters, and the
    meaning of ``k=None`` (no cutoff) and ``discount``, are those of :func:`evaluate`; scores
    may be any finite numbers (only their order matters).

    Examples
    --------
    Scores 1, 1, 0.5 for grades 0, 3, 1 (linear gain): the first two tie.

    >>> for rule in ("optimistic", "average", "pessimistic"):
    ...     print(rule, f'{evaluate_scores([0, 3, 1], [1, 1, 0.5], ties=rule, gain="linear").ndcg:.4f}')
    optimistic 0.9639
    average 0.8115
    pessimistic 0.6590
    >>> evaluate_scores([0, 3, 1], [1, 1, 0.5], ties="trec_eval", doc_ids=["a", "b", "c"]).table["item"].tolist()
    [1, 0, 2]
    """
    grades = as_grades(relevances, what="relevances")
    score_values = as_finite_numbers(scores, what="scores")
    if grades.size != score_values.size:
        raise InvalidInput(f"Got {grades.size} grades but {score_values.size} scores: give one score per document.")
    if grades.size == 0:
        raise InvalidInput("The ranking is empty: add at least one document with a grade.")
    order = ranked_by_score(grades, score_values, ties=ties, doc_ids=doc_ids)
    settings = _check_settings(k=k, gain=gain, log_base=log_base, zero_idcg=zero_idcg, discount=discount)
    ideal, ideal_positions = _ideal_grades(grades, ideal_relevances)

    single_query = np.zeros(grades.size, dtype=np.int8)
    ranked = grades[order]
    gains = gain_values(ranked, settings["gain"])
    if ties == "average":
        gains = tie_averaged_gains(single_query, score_values[order], gains)
    return build_result(ranked, gains, ideal, **settings, item=order, ideal_order=ideal_positions,
                        cut_ideal_at_ranking=check_flag(cut_ideal_at_ranking, name="cut_ideal_at_ranking"))


def _check_settings(*, k, gain, log_base, zero_idcg, discount) -> dict:
    return {
        "discount": check_discount(discount),
        "k": check_k(k),
        "gain": check_gain(gain),
        "log_base": check_log_base(log_base),
        "zero_idcg": check_choice(zero_idcg, ZERO_IDCG_RULES, name="zero_idcg rule"),
    }


def _ideal_grades(grades: np.ndarray, ideal_relevances) -> tuple[np.ndarray, np.ndarray]:
    """All judged grades sorted descending, and the order that sorts them; checked to cover the ranked grades."""
    if ideal_relevances is None:
        order = ideal_order(grades)
        return grades[order], order
    judged = as_grades(ideal_relevances, what="ideal_relevances")
    order = ideal_order(judged)
    ideal = judged[order]
    ranked = np.sort(grades)[::-1]
    padded = np.zeros(max(ideal.size, ranked.size))
    padded[: ideal.size] = ideal
    if (ranked > padded[: ranked.size]).any():
        raise InvalidInput(
            "ideal_relevances must contain the grades of every ranked document (plus any extra judged ones); "
            "otherwise the 'ideal' could be worse than the ranking and NDCG would exceed 1."
        )
    return ideal, order


def build_result(
    grades: np.ndarray,
    gains: np.ndarray,
    ideal: np.ndarray,
    *,
    k: int | None,
    gain: GainSpec,
    log_base: float,
    zero_idcg: str,
    item: np.ndarray,
    ideal_order: np.ndarray,
    cut_ideal_at_ranking: bool = False,
    discount: str = "log",
) -> ListResult:
    """Assemble a :class:`ListResult` from ranked grades and their (possibly tie-averaged) gains."""
    n = grades.size
    depth = int(ranking_depth(k, n))
    counted_ideal = int(ideal_depth(k, ideal.size, n_ranked=n, cut_ideal_at_ranking=cut_ideal_at_ranking))
    ideal_cut = ideal[:counted_ideal]
    ideal_gains = gain_values(ideal_cut, gain)

    disc = discounts(max(n, ideal_cut.size), log_base, discount=discount)
    contributions = gains / disc[:n]
    ideal_contributions = ideal_gains / disc[: ideal_cut.size]

    with np.errstate(over="ignore"):
        cg = float(gains[:depth].sum())
        dcg = float(contributions[:depth].sum())
        idcg = float(ideal_contributions.sum())
        columns = _columns(grades, gains, contributions, disc[:n], ideal, gain, zero_idcg, depth, item)
    _check_no_overflow(cg, idcg, columns, linear=isinstance(gain, str) and gain == "linear")
    if idcg == 0 and zero_idcg == "error":
        raise InvalidInput(
            "IDCG is 0 (no judged document has a positive gain), so NDCG = DCG / IDCG is undefined (0/0). "
            "Choose another zero_idcg rule ('zero', 'one' or 'skip') to give it a value."
        )
    ndcg = float(normalise(dcg, idcg, zero_idcg))

    places = {"place": np.arange(1, ideal_cut.size + 1), "ideal_relevance": ideal_cut, "ideal_gain": ideal_gains,
              "discount": disc[: ideal_cut.size], "ideal_contribution": ideal_contributions,
              "cumulative_idcg": np.cumsum(ideal_contributions)}
    return ListResult(cg=cg, dcg=dcg, idcg=idcg, ndcg=ndcg, k=k, table_columns=columns, ideal_relevances=ideal,
                      ideal_order=ideal_order, depth=depth, ideal_depth=counted_ideal, ideal_columns=places)


def _check_no_overflow(cg: float, idcg: float, columns: dict[str, np.ndarray], *, linear: bool = False) -> None:
    """Refuse sums that overflowed to infinity rather than report inf or NaN as a result (``linear``: the gain is
    the grade already, so only smaller grades help)."""
    running = (columns["cumulative_cg"], columns["cumulative_dcg"], columns["cumulative_idcg"])
    if not (np.isfinite(cg) and np.isfinite(idcg) and all(np.isfinite(column).all() for column in running)):
        raise InvalidInput(
            "The gains are too large to add up: a sum overflowed (beyond about 1e308). "
            + ("Use smaller grades." if linear else "Use smaller grades or linear gain.")
        )


def _columns(grades, gains, contributions, disc, ideal, gain, zero_idcg, depth, item) -> dict[str, np.ndarray]:
    """The per-position table's columns, in TABLE_COLUMNS order (plain arrays: checked before the frame is built)."""
    n = grades.size
    ideal_at = np.zeros(n)
    shared = min(n, ideal.size)
    ideal_at[:shared] = ideal[:shared]
    ideal_gain = gain_values(ideal_at, gain)
    ideal_contribution = ideal_gain / disc
    cumulative_dcg = np.cumsum(contributions)
    cumulative_idcg = np.cumsum(ideal_contribution)
    return {
        "rank": np.arange(1, n + 1),
        "item": item,
        "relevance": grades,
        "gain": gains,
        "discount": disc,
        "contribution": contributions,
        "cumulative_cg": np.cumsum(gains),
        "cumulative_dcg": cumulative_dcg,
        "ideal_relevance": ideal_at,
        "ideal_gain": ideal_gain,
        "ideal_contribution": ideal_contribution,
        "cumulative_idcg": cumulative_idcg,
        "ndcg_at_rank": normalise(cumulative_dcg, cumulative_idcg, zero_idcg),
        "in_cutoff": np.arange(n) < depth,
    }
