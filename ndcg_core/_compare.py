"""Paired comparison of two systems on the same queries: win/tie/loss and a bootstrap CI."""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ._validation import InvalidInput, check_tolerance, float_or_infinity

# Bootstrap resamples are drawn in blocks so memory stays bounded (n_boot x n_queries indices at once would be
# 800 MB for 10 000 resamples of 10 000 queries). Drawing in blocks yields the same numbers as one big draw.
_BLOCK_CELLS = 2_000_000


@dataclass(frozen=True)
class Comparison:
    """System B against system A, query by query (differences are B − A).

    ``n_queries`` queries have a score from both systems (the others are left
    out); ``mean_a`` and ``mean_b`` are each system's mean over them and
    ``mean_difference`` = mean_b − mean_a, the observed effect.
    ``differences`` is a Series indexed by query (or position). ``wins`` counts
    queries where B is better by more than ``tie_tolerance``, ``losses`` where
    A is better, ``ties`` the rest. ``ci_low``/``ci_high`` is the percentile
    bootstrap interval of the mean difference at ``confidence``;
    ``share_not_better`` is the share of bootstrap means ≤ 0 (a one-sided
    bootstrap p-value for "B is better"). ``bootstrap_means`` holds the
    ``n_boot`` resampled mean differences drawn with ``seed`` (for a histogram).
    """

    n_queries: int
    mean_a: float
    mean_b: float
    mean_difference: float
    wins: int
    ties: int
    losses: int
    ci_low: float
    ci_high: float
    confidence: float
    n_boot: int
    seed: int
    share_not_better: float
    differences: pd.Series = field(repr=False)
    bootstrap_means: np.ndarray = field(repr=False)


def compare_runs(
    per_query_a,
    per_query_b,
    *,
    n_boot: int = 10_000,
    seed: int = 0,
    confidence: float = 0.95,
    tie_tolerance: float = 1e-9,
) -> Comparison:
    r"""Compare per-query scores of system A and system B with a paired bootstrap.

    With differences :math:`d_q = b_q - a_q` over the :math:`n` queries both
    systems have a score for, the observed effect is
    :math:`\bar d = \frac{1}{n}\sum_q d_q`. The bootstrap draws ``n_boot``
    resamples of :math:`n` queries with replacement (numpy
    ``default_rng(seed).integers(0, n, size=(n_boot, n))``), takes the mean
    difference of each, and reports the :math:`(1-c)/2` and :math:`(1+c)/2`
    quantiles of those means (percentile method, numpy's default linear
    interpolation) as the confidence interval at level :math:`c`.

    Parameters
    ----------
    per_query_a, per_query_b : pandas Series indexed by query, or 1-D sequences
        Per-query scores (e.g. ``RunResult.per_query["ndcg"]``). Two Series are
        aligned on their common queries, ids compared as text (401 is "401",
        as everywhere in ndcg_core; a query listed twice is refused); plain sequences are paired by
        position and must have the same length. Queries with a missing value
        (NaN, e.g. skipped by the zero-IDCG rule) in either system are left out.
    n_boot : int, keyword-only
        Number of bootstrap resamples (≥ 1).
    seed : int, keyword-only
        Seed of the numpy generator, so the interval is reproducible.
    confidence : float in (0, 1), keyword-only
        Confidence level of the interval.
    tie_tolerance : float ≥ 0, keyword-only
        Differences with absolute value at most this count as ties.

    Returns
    -------
    Comparison

    Examples
    --------
    Four queries; B - A = 0.1, 0, 0.2, -0.1, so B wins 2, ties 1, loses 1 and
    the mean difference is 0.05. The interval comes from 1,000 resamples
    drawn with seed 0 (reproducible).

    >>> c = compare_runs([0.2, 0.5, 0.4, 0.9], [0.3, 0.5, 0.6, 0.8], n_boot=1000, seed=0)
    >>> (c.wins, c.ties, c.losses), round(c.mean_difference, 4)
    ((2, 1, 1), 0.05)
    >>> round(c.ci_low, 4), round(c.ci_high, 4), c.share_not_better
    (-0.05, 0.15, 0.268)
    """
    a, b = _paired(per_query_a, per_query_b)
    n_boot, seed, confidence, tie_tolerance = _check_options(n_boot, seed, confidence, tie_tolerance)
    differences = b - a
    values = differences.to_numpy(dtype=float)
    means = bootstrap_means(values, n_boot=n_boot, seed=seed)
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(means, [tail, 1.0 - tail])
    return Comparison(
        n_queries=int(values.size),
        mean_a=float(a.mean()),
        mean_b=float(b.mean()),
        mean_difference=float(values.mean()),
        wins=int(np.count_nonzero(values > tie_tolerance)),
        ties=int(np.count_nonzero(np.abs(values) <= tie_tolerance)),
        losses=int(np.count_nonzero(values < -tie_tolerance)),
        ci_low=float(low),
        ci_high=float(high),
        confidence=confidence,
        n_boot=n_boot,
        seed=seed,
        share_not_better=float(np.mean(means <= 0.0)),
        differences=differences,
        bootstrap_means=means,
    )


def bootstrap_means(values: np.ndarray, *, n_boot: int, seed: int) -> np.ndarray:
    """Means of ``n_boot`` resamples (with replacement) of ``values``, vectorised in blocks."""
    rng = np.random.default_rng(seed)
    n = values.size
    block = max(1, _BLOCK_CELLS // n)
    means = np.empty(n_boot)
    for start in range(0, n_boot, block):
        stop = min(n_boot, start + block)
        indices = rng.integers(0, n, size=(stop - start, n))
        means[start:stop] = values[indices].mean(axis=1)
    return means


MOST_RESAMPLES = 10**8  # 800 MB of means: far more than any interval needs, and an array numpy can allocate

# --- validation ----------------------------------------------------------------------------------------------

def _paired(per_query_a, per_query_b) -> tuple[pd.Series, pd.Series]:
    if isinstance(per_query_a, pd.Series) and isinstance(per_query_b, pd.Series):
        a, b = _by_query(per_query_a, "A").align(_by_query(per_query_b, "B"), join="inner")
    else:
        a, b = _as_series(per_query_a, "A"), _as_series(per_query_b, "B")
        if a.size != b.size:
            raise InvalidInput(
                f"System A has {a.size} per-query scores and system B has {b.size}; a paired comparison needs one "
                "score per query from each system, in the same query order."
            )
    try:
        a, b = a.astype(float), b.astype(float)
    except (TypeError, ValueError):
        raise InvalidInput("Per-query scores must be numbers.") from None
    both = a.notna() & b.notna()
    a, b = a[both], b[both]
    if a.size == 0:
        raise InvalidInput("The two systems have no query in common with a score for both, so there is nothing to compare.")
    if not (np.isfinite(a.to_numpy()).all() and np.isfinite(b.to_numpy()).all()):
        raise InvalidInput("Per-query scores must be finite numbers.")
    return a, b


def _by_query(scores: pd.Series, name: str) -> pd.Series:
    """The scores indexed by query id as text, as ndcg_core compares ids everywhere: ``evaluate_run``'s per_query
    has "401" where a user's own figures grouped by an integer column have 401 (and 401.0 once pandas made the
    column decimal), and aligning them as they are found no query in common. A query listed twice is refused:
    aligned, it was paired twice and its difference counted twice."""
    index = scores.index
    if pd.api.types.is_float_dtype(index.dtype):
        values = index.to_numpy(dtype=float)
        if np.isfinite(values).all() and (np.abs(values) < 2.0**53).all() and (values == np.trunc(values)).all():
            index = pd.Index(values.astype(np.int64))
    keys = pd.Index([str(key) for key in index], dtype=object)
    if keys.has_duplicates:
        twice = keys[keys.duplicated()][0]
        raise InvalidInput(f"System {name} lists query {twice!r} twice; give one score per query (a paired comparison "
                           "pairs each query's scores once).")
    return pd.Series(scores.to_numpy(), index=keys, name=scores.name)


def _as_series(values, name: str) -> pd.Series:
    if isinstance(values, pd.Series):
        return values.reset_index(drop=True)
    if isinstance(values, (str, bytes)):
        raise InvalidInput(f"System {name}'s per-query scores must be a list of numbers, not text.")
    try:
        return pd.Series(np.asarray(values, dtype=float).reshape(-1))
    except (TypeError, ValueError, OverflowError):  # OverflowError: an int beyond float's range (10**400)
        raise InvalidInput(f"System {name}'s per-query scores must be a list of numbers.") from None


def _check_options(n_boot, seed, confidence, tie_tolerance) -> tuple[int, int, float, float]:
    if isinstance(n_boot, bool) or not isinstance(n_boot, (numbers.Integral, np.integer)) or n_boot < 1:
        raise InvalidInput(f"n_boot (the number of bootstrap resamples) must be a whole number ≥ 1, got {n_boot!r}.")
    if n_boot > MOST_RESAMPLES:  # numpy refused the array with its own ValueError ("Maximum allowed dimension")
        raise InvalidInput(f"n_boot is {len(str(int(n_boot)))} digits long: use at most {MOST_RESAMPLES:,} (10,000 is plenty "
                           "for a 95% interval).")
    if isinstance(seed, bool) or not isinstance(seed, (numbers.Integral, np.integer)) or seed < 0:
        raise InvalidInput(f"seed must be a whole number ≥ 0, got {seed!r}.")
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real) \
            or not 0 < float_or_infinity(confidence) < 1:
        raise InvalidInput(f"confidence must be a number between 0 and 1 (e.g. 0.95), got {confidence!r}.")
    return int(n_boot), int(seed), float(confidence), check_tolerance(tie_tolerance, name="tie_tolerance")


@dataclass(frozen=True)
class AggregateGap:
    """Why the mean of per-query NDCG and the ratio of sums differ on one data set.

    ``ratio_of_sums − mean_ndcg = weighting_effect + zero_idcg_effect`` exactly, where

    * ``zero_idcg_effect = mean_positive − mean_ndcg``: queries with IDCG = 0 enter the mean with the
      zero-IDCG rule's value (0 or 1; left out when skipped) but add nothing to either sum;
    * ``weighting_effect = ratio_of_sums − mean_positive``: the ratio of sums is the IDCG-weighted mean
      of the per-query NDCG over the queries with IDCG > 0, so it leans towards queries with many
      highly relevant documents.

    ``n_queries`` queries were evaluated (the rows of ``per_query``; those the zero-IDCG rule skipped are left out
    of ``mean_ndcg``); ``n_positive`` of them have IDCG > 0 (``mean_positive`` is their mean NDCG) and
    ``n_zero_idcg`` have IDCG = 0. ``median_idcg`` is the median IDCG of the queries with IDCG > 0;
    ``mean_high_idcg`` / ``mean_low_idcg`` are the mean NDCG of the queries with IDCG > 0 at or above /
    below the median IDCG (NaN when there are fewer than two such queries).
    """

    mean_ndcg: float
    ratio_of_sums: float
    mean_positive: float
    weighting_effect: float
    zero_idcg_effect: float
    n_queries: int
    n_positive: int
    n_zero_idcg: int
    median_idcg: float
    mean_high_idcg: float
    mean_low_idcg: float


def aggregate_gap(per_query: pd.DataFrame) -> AggregateGap:
    r"""Split the gap between the two dataset formulas of 000_0bdd5abdb117b00b.txt into its two causes.

    .. math::

        \frac{\sum_q DCG_q}{\sum_q IDCG_q} = \sum_{q: IDCG_q > 0} w_q \, NDCG_q,
        \quad w_q = \frac{IDCG_q}{\sum_{q'} IDCG_{q'}}

    whereas the mean gives every query weight :math:`1/n`.

    Parameters
    ----------
    per_query : DataFrame with columns ``dcg``, ``idcg`` and ``ndcg``
        One row per evaluated query (``RunResult.per_query``); ``ndcg`` may be NaN for queries the
        zero-IDCG rule skipped.
    """
    if not isinstance(per_query, pd.DataFrame):
        raise InvalidInput("per_query must be a DataFrame with columns dcg, idcg and ndcg (RunResult.per_query), "
                           f"got {type(per_query).__name__}.")
    missing = {"dcg", "idcg", "ndcg"} - set(per_query.columns)
    if missing:
        raise InvalidInput(f"per_query needs the columns dcg, idcg and ndcg; missing: {', '.join(sorted(missing))}.")
    dcg = per_query["dcg"].to_numpy(dtype=float)
    idcg = per_query["idcg"].to_numpy(dtype=float)
    ndcg = per_query["ndcg"].to_numpy(dtype=float)
    if ndcg.size == 0:
        raise InvalidInput("There are no evaluated queries, so there is no dataset NDCG to explain.")
    positive = idcg > 0
    counted = ~np.isnan(ndcg)
    mean_ndcg = float(ndcg[counted].mean()) if counted.any() else float("nan")
    total_idcg = idcg[positive].sum()
    ratio = float(dcg[positive].sum() / total_idcg) if total_idcg > 0 else float("nan")
    mean_positive = float(ndcg[positive].mean()) if positive.any() else float("nan")
    median = float(np.median(idcg[positive])) if positive.any() else float("nan")
    high = positive & (idcg >= median)
    low = positive & (idcg < median)
    enough = positive.sum() >= 2 and high.any() and low.any()
    return AggregateGap(
        mean_ndcg=mean_ndcg,
        ratio_of_sums=ratio,
        mean_positive=mean_positive,
        weighting_effect=ratio - mean_positive,
        zero_idcg_effect=mean_positive - mean_ndcg,
        n_queries=int(ndcg.size),
        n_positive=int(positive.sum()),
        n_zero_idcg=int((~positive).sum()),
        median_idcg=median,
        mean_high_idcg=float(ndcg[high].mean()) if enough else float("nan"),
        mean_low_idcg=float(ndcg[low].mean()) if enough else float("nan"),
    )
