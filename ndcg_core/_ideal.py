r"""The ideal list and the cutoff: one rule for one list and for a whole run.

* **Ideal list.** Every judged grade of the query (ranked or not), sorted in
  descending order; among equal grades the input order is kept (it does not
  change IDCG, but a display of the ideal order needs one answer).
* **Cutoff k.** The ranking counts its first :math:`\min(k, n)` documents; the
  ideal list counts its first :math:`k` places (as trec_eval's ``ndcg_cut``),
  so with extra judged documents IDCG@k can use more places than the ranking
  has.
* **k = None** means *no cutoff* on either list: DCG over the whole ranking and
  IDCG over every judged grade (trec_eval's plain ``ndcg``). Cutting the ideal
  list at the ranking's length instead is the explicit option
  ``cut_ideal_at_ranking=True`` of :func:`ndcg_core.evaluate`.

:func:`evaluate`, :func:`evaluate_scores`, :func:`evaluate_run`,
:func:`ndcg_curve`, :func:`ranked_query` and the presets all use the functions
below; the app reads the results (``ListResult.ideal_order``, ``depth``,
``ideal_depth``) instead of rebuilding them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validation import as_finite_numbers


def ideal_order(grades) -> np.ndarray:
    """Indices that put ``grades`` in the ideal order: grade descending, ties in input order.

    ``grades`` are checked as numbers (text, None, NaN or a list inside the list raise :class:`InvalidInput`,
    where ``ideal_order(['x'])`` raised numpy's ValueError).

    >>> ideal_order([1, 3, 0, 3]).tolist()
    [1, 3, 0, 2]
    """
    values = as_finite_numbers(grades, what="grades")
    return np.argsort(-values, kind="stable")


def worst_order(grades) -> np.ndarray:
    """Indices that put ``grades`` in the worst order: grade ascending, ties in input order.

    The mirror of :func:`ideal_order`: as the discounts shrink with the rank, this order has the lowest DCG of all
    orders of the list (the rearrangement inequality), so NDCG's lowest value for these grades.

    >>> worst_order([1, 3, 0, 3]).tolist()
    [2, 0, 1, 3]
    """
    values = as_finite_numbers(grades, what="grades")
    return np.argsort(values, kind="stable")


def ranking_depth(k: int | None, n_ranked):
    """How many ranked positions count: all of them for ``k=None``, else ``min(k, n)`` (works on arrays)."""
    return n_ranked if k is None else np.minimum(k, n_ranked)


def ideal_depth(k: int | None, n_judged, *, n_ranked=None, cut_ideal_at_ranking: bool = False):
    """How many places of the ideal list count (works on arrays).

    ``k=None``: every judged grade (or the ranking's length with
    ``cut_ideal_at_ranking``); otherwise ``min(k, n_judged)``: places past
    the judged grades would add nothing.
    """
    if k is None:
        return np.minimum(n_ranked, n_judged) if cut_ideal_at_ranking else n_judged
    return np.minimum(k, n_judged)


@dataclass(frozen=True)
class IdealLists:
    """The ideal lists of many queries, as flat arrays (query code, 0-based place, gain), query by query.

    ``n_relevant`` and ``n_judged`` count, per query, the judgments with a
    grade above 0 and all judgments.
    """

    query: np.ndarray
    position: np.ndarray
    gain: np.ndarray
    n_relevant: np.ndarray
    n_judged: np.ndarray


def ideal_lists(query: np.ndarray, grades: np.ndarray, gains: np.ndarray, n_queries: int,
                depth: int | None) -> IdealLists:
    """Each query's ideal list (its judged gains by grade descending), first ``depth`` places only.

    ``query``, ``grades`` and ``gains`` describe the judgments (query codes
    below ``n_queries``); ``depth`` None keeps every place (the k=None rule).

    Grades take few values, so no sort is needed: the judgments are counted
    per (query, grade), and the ideal list of a query is each grade repeated
    that many times, best grade first, cut at ``depth``. (A sort is the
    fallback when the grades take so many values that the table of counts
    would outgrow the judgments.)
    """
    if grades.size == 0:
        empty = np.zeros(0, dtype=np.int64)
        return IdealLists(empty, empty, np.zeros(0), np.zeros(n_queries, np.int64), np.zeros(n_queries, np.int64))
    top = grades.max()
    whole = grades.astype(np.intp) if top < 2**20 else None
    if whole is not None and n_queries * (top + 1) <= 4 * grades.size + 1024 and (whole == grades).all():
        # Whole-number grades: grade g is level g (levels no judgment has stay empty).
        n_levels = int(top) + 1
        level = whole
        n_positive_levels = n_levels - 1  # all but grade 0
    else:
        del whole
        levels, level = np.unique(grades, return_inverse=True)
        n_levels = levels.size
        if n_queries * n_levels > 4 * grades.size + 1024:  # too many distinct grades: sort instead
            order = _ideal_order(query, grades)
            ideal_query, ideal_gain = query[order], gains[order]
            ideal_position = positions_within(ideal_query)
            if depth is not None:
                kept = ideal_position < depth
                ideal_query, ideal_position, ideal_gain = ideal_query[kept], ideal_position[kept], ideal_gain[kept]
            return IdealLists(ideal_query, ideal_position, ideal_gain,
                              np.bincount(query[grades > 0], minlength=n_queries), np.bincount(query, minlength=n_queries))
        level = level.reshape(-1).astype(np.intp, copy=False)
        n_positive_levels = int(np.count_nonzero(levels > 0))
    level_gain = np.zeros(n_levels)
    level_gain[::-1][level] = gains  # the gain of each grade, best grade first
    # Cell (query, best-first level), in place in one array: query * n_levels + n_levels - 1 - level.
    cell = np.multiply(query, n_levels, dtype=np.intp)
    cell += n_levels - 1
    cell -= level
    del level
    count = np.bincount(cell, minlength=n_queries * n_levels).reshape(n_queries, n_levels)
    del cell
    n_relevant = count[:, :n_positive_levels].sum(axis=1)
    n_judged = count.sum(axis=1)
    if depth is not None:  # how many of each grade fall within the first `depth` places (the cutoff rule)
        before = np.cumsum(count, axis=1) - count
        count = np.minimum(before + count, depth) - np.minimum(before, depth)
    ideal_gain = np.repeat(np.tile(level_gain, n_queries), count.ravel())
    per_query = count.sum(axis=1)
    ideal_query = np.repeat(np.arange(n_queries), per_query)
    ideal_position = np.arange(ideal_query.size) - np.repeat(np.cumsum(per_query) - per_query, per_query)
    return IdealLists(ideal_query, ideal_position, ideal_gain, n_relevant, n_judged)


def _ideal_order(query: np.ndarray, grades: np.ndarray) -> np.ndarray:
    """Judgments ordered by query, then grade descending."""
    by_grade = np.argsort(-grades)  # the order among equal grades does not change IDCG
    code_type = np.uint16 if query.size == 0 or query.max() <= np.iinfo(np.uint16).max else np.int64
    return by_grade[np.argsort(query.astype(code_type)[by_grade], kind="stable")]



def positions_within(sorted_query: np.ndarray) -> np.ndarray:
    """0-based position of each row inside its (contiguous) query group."""
    n = sorted_query.size
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.flatnonzero(np.r_[True, sorted_query[1:] != sorted_query[:-1]])
    # Row index minus the index of its group's first row (one repeat over the few group starts).
    return np.arange(n) - np.repeat(starts, np.diff(np.r_[starts, n]))
