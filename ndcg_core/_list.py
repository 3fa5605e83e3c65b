"""NDCG of one ranked list: the kernel behind :func:`evaluate` and :func:`evaluate_scores`."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ._discounts import discounts
from ._gains import GainSpec, check_gain, gains_of
from ._validation import ZERO_IDCG_RULES, InvalidInput, as_grades, check_choice, check_k, check_log_base

TABLE_COLUMNS = (
    "rank", "item", "relevance", "gain", "discount", "contribution", "cumulative_cg", "cumulative_dcg",
    "ideal_relevance", "ideal_gain", "ideal_contribution", "cumulative_idcg", "ndcg_at_rank", "in_cutoff",
)


@dataclass(frozen=True)
class ListResult:
    """CG, DCG, IDCG and NDCG of one ranked list, with the per-position table.

    ``table`` has one row per position of the ranking. Its running columns
    (``cumulative_*``, ``ndcg_at_rank``) continue past the cutoff so a chart
    can show what positions beyond k would add; ``in_cutoff`` marks the rows
    that count towards the headline figures.
    """

    cg: float
    dcg: float
    idcg: float
    ndcg: float
    k: int | None
    table: pd.DataFrame = field(repr=False)
    ideal_relevances: np.ndarray = field(repr=False)


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
) -> ListResult:
    r"""Evaluate one ranked list of relevance grades.

    .. math::

        CG@k = \sum_{i=1}^{k} g(rel_i), \quad
        DCG@k = \sum_{i=1}^{k} \frac{g(rel_i)}{\log_b(i + 1)}, \quad
        NDCG@k = \frac{DCG@k}{IDCG@k}

    where IDCG@k is the DCG@k of the ideal ranking: the judged grades sorted
    in descending order.

    Parameters
    ----------
    relevances : sequence of non-negative numbers
        Grades in ranked order, position 1 first.
    k : positive int or None, keyword-only
        Cutoff. ``None`` evaluates the whole ranking, and the ideal list is cut
        at the same depth (as 003_f44d929bf8cc7fa4.txt does). A k larger than
        the ranking counts every ranked document, while the ideal list is cut
        at k, as trec_eval's ``ndcg_cut`` does: with extra judged documents,
        IDCG@k can then be larger than IDCG@len(ranking).
    gain : {"linear", "exponential"} or mapping grade -> gain
        ``"linear"``: g(rel) = rel; ``"exponential"``: g(rel) = 2**rel - 1;
        a mapping is a gain table.
    log_base : float > 1
        Base b of the discount log_b(i + 1). DCG depends on it, NDCG does not.
    ideal_relevances : sequence of non-negative numbers, optional
        All judged grades for the query, possibly including documents that are
        not in the ranking. Defaults to ``relevances``. It must include the
        ranked documents' grades, otherwise NDCG could exceed 1.
    zero_idcg : {"zero", "one", "skip", "error"}
        NDCG when IDCG is 0 (no relevant judged document): 0, 1, NaN or
        raise :class:`InvalidInput`.

    Returns
    -------
    ListResult
        ``cg``, ``dcg``, ``idcg``, ``ndcg`` (floats), ``k``, the per-position
        ``table`` and the sorted ``ideal_relevances``. CG sums gains, so it
        equals the sum of grades only under linear gain.

    Raises
    ------
    InvalidInput
        For an empty ranking, a grade that is negative, NaN, infinite or not a
        number, a grade missing from a gain table, an exponential gain that
        overflows, a k that is not a positive whole number, a log base that is
        not a finite number above 1, an unknown gain or zero_idcg name, or
        ``zero_idcg="error"`` when IDCG is 0.

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
    """
    grades = as_grades(relevances, what="relevances")
    if grades.size == 0:
        raise InvalidInput("The ranking is empty: add at least one document with a grade.")
    settings = _check_settings(k=k, gain=gain, log_base=log_base, zero_idcg=zero_idcg)
    ideal = _ideal_grades(grades, ideal_relevances)
    gains = gains_of(grades, settings["gain"])
    return build_result(grades, gains, ideal, **settings, item=np.arange(grades.size))


def _check_settings(*, k, gain, log_base, zero_idcg) -> dict:
    return {
        "k": check_k(k),
        "gain": check_gain(gain),
        "log_base": check_log_base(log_base),
        "zero_idcg": check_choice(zero_idcg, ZERO_IDCG_RULES, name="zero_idcg rule"),
    }


def _ideal_grades(grades: np.ndarray, ideal_relevances) -> np.ndarray:
    """All judged grades sorted descending; checked to cover the ranked grades."""
    if ideal_relevances is None:
        return np.sort(grades)[::-1]
    ideal = np.sort(as_grades(ideal_relevances, what="ideal_relevances"))[::-1]
    ranked = np.sort(grades)[::-1]
    padded = np.zeros(max(ideal.size, ranked.size))
    padded[: ideal.size] = ideal
    if (ranked > padded[: ranked.size]).any():
        raise InvalidInput(
            "ideal_relevances must contain the grades of every ranked document (plus any extra judged ones); "
            "otherwise the 'ideal' could be worse than the ranking and NDCG would exceed 1."
        )
    return ideal


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
) -> ListResult:
    """Assemble a :class:`ListResult` from ranked grades and their (possibly tie-averaged) gains."""
    n = grades.size
    depth = n if k is None else min(k, n)
    ideal_depth = n if k is None else k
    ideal_cut = ideal[:ideal_depth]
    ideal_gains = gains_of(ideal_cut, gain)

    disc = discounts(max(n, ideal_cut.size), log_base)
    contributions = gains / disc[:n]
    ideal_contributions = ideal_gains / disc[: ideal_cut.size]

    with np.errstate(over="ignore"):
        cg = float(gains[:depth].sum())
        dcg = float(contributions[:depth].sum())
        idcg = float(ideal_contributions.sum())
        columns = _columns(grades, gains, contributions, disc[:n], ideal, gain, zero_idcg, depth, item)
    _check_no_overflow(cg, idcg, columns)
    table = pd.DataFrame(columns)  # keys in TABLE_COLUMNS order; no columns= (it would reindex: 2x slower)
    if idcg == 0 and zero_idcg == "error":
        raise InvalidInput(
            "IDCG is 0 (no judged document has a positive gain), so NDCG = DCG / IDCG is undefined (0/0). "
            "Choose another zero_idcg rule ('zero', 'one' or 'skip') to give it a value."
        )
    ndcg = float(normalise(dcg, idcg, zero_idcg))

    return ListResult(cg=cg, dcg=dcg, idcg=idcg, ndcg=ndcg, k=k, table=table, ideal_relevances=ideal)


def _check_no_overflow(cg: float, idcg: float, columns: dict[str, np.ndarray]) -> None:
    """Refuse sums that overflowed to infinity rather than report inf or NaN as a result."""
    running = (columns["cumulative_cg"], columns["cumulative_dcg"], columns["cumulative_idcg"])
    if not (np.isfinite(cg) and np.isfinite(idcg) and all(np.isfinite(column).all() for column in running)):
        raise InvalidInput(
            "The gains are too large to add up: a sum overflowed (beyond about 1e308). "
            "Use smaller grades or linear gain."
        )


def _columns(grades, gains, contributions, disc, ideal, gain, zero_idcg, depth, item) -> dict[str, np.ndarray]:
    """The per-position table's columns, in TABLE_COLUMNS order (plain arrays: checked before the frame is built)."""
    n = grades.size
    ideal_at = np.zeros(n)
    shared = min(n, ideal.size)
    ideal_at[:shared] = ideal[:shared]
    ideal_gain = gains_of(ideal_at, gain)
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
