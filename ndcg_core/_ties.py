"""Ranking by scores, and what to do when scores tie: the one tie implementation.

:func:`evaluate_scores` (one list), :func:`evaluate_run` and
:func:`ranked_query` (many queries) and the library presets all rank with
:func:`order_rows` and average tied gains with :func:`tie_averaged_gains`.
The rules (``ties=``):

* ``"trec_eval"``: inside a tie, document id descending, comparing the ids'
  bytes (UTF-8) as C's ``strcmp`` does: trec_eval and pytrec_eval.
* ``"average"``: every document in a group of tied scores gets the mean gain of
  the group (McSherry and Najork, 2008), which is the expected DCG over all
  orders of the tie; scikit-learn's ``ndcg_score`` and torchmetrics do this.
  The rows themselves keep their input order inside the tie.
* ``"optimistic"``: inside a tie, better grades first (an upper bound).
* ``"pessimistic"``: inside a tie, worse grades first (a lower bound).
* ``"stable"``: inside a tie, input order (LightGBM and XGBoost sort stably; the ranx presets use it too,
  but ranx's own sort is unstable, so inside a tie ranx may give another order).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

TIE_RULES = ("trec_eval", "average", "optimistic", "pessimistic", "stable")

_SORT_BLOCK_ROWS = 16_000


def doc_id_ranks(ids) -> np.ndarray:
    """Rank of each id in byte order (equal ids share a rank): a larger id as ``strcmp`` sees it ranks higher.

    UTF-8 keeps code point order, so comparing the Python strings is comparing their bytes.

    >>> doc_id_ranks(["d9", "d10", "d9"]).tolist()
    [1, 0, 1]
    """
    names = np.asarray([str(name) for name in ids], dtype=object) if not isinstance(ids, np.ndarray) else ids
    _, ranks = np.unique(names.astype(str), return_inverse=True)
    return ranks.reshape(-1)


def order_rows(query: np.ndarray, value: np.ndarray, *, ties: str, grade: np.ndarray | None = None,
               doc_ids: Callable[[np.ndarray], object] | None = None, boundary: np.ndarray | None = None,
               grouped: bool | None = None, n_queries: int | None = None) -> np.ndarray | None:
    """Permutation ordering rows by query, then ``value`` descending, then the tie rule; None: already in order.

    ``query`` holds small integer codes; ``value`` the score (higher first).
    ``grade`` is needed by the optimistic and pessimistic rules; ``doc_ids(rows)``
    gives the ids of the given rows for the trec_eval rule (None: the row
    position stands in for the id, a later row counting as a larger id).
    ``boundary`` (rows i such that rows i and i + 1 belong to different
    queries) and ``grouped`` (each query's rows form one block, codes
    counting up) are computed when not given.

    Two fast passes instead of one multi-key lexsort: a quicksort on the
    values, then a stable sort on the query codes (radix for 16-bit codes);
    rows with equal (query, value) are then reordered by the tie rule,
    touching only the tied rows.
    """
    if boundary is None:
        boundary = np.flatnonzero(query[1:] != query[:-1])
    if grouped is None:
        grouped = query.size < 2 or bool((query[1:] >= query[:-1]).all())
    if n_queries is None:
        n_queries = int(query.max(initial=-1)) + 1
    order = None
    if grouped and query.size > 1:
        # Usual for a ranked run: every query's values strictly decrease, so no tie and nothing to sort.
        strictly = value[1:] < value[:-1]
        strictly[boundary] = True
        if strictly.all():
            return None
        del strictly
    if grouped:
        descending = value[1:] <= value[:-1]
        descending[boundary] = True  # a new query may start with any value
    if grouped and bool(descending.all()):
        # Already ranked (e.g. a TREC run file): grouped by query, best score first.
        tied_next = value[1:] == value[:-1]
        tied_next[boundary] = False
    elif grouped:  # sort cache-sized blocks of whole queries; each query keeps its rows' positions
        order = _sort_in_blocks(query, value)
        sorted_value = value[order]
        tied_next = sorted_value[1:] == sorted_value[:-1]
        tied_next[boundary] = False
    else:
        order = _sort_by_query_then_value(query, value, n_queries)
        sorted_query, sorted_value = query[order], value[order]
        tied_next = (sorted_query[1:] == sorted_query[:-1]) & (sorted_value[1:] == sorted_value[:-1])
    if not tied_next.any():
        return order
    if order is None:
        order = np.arange(query.size)
    tied = np.zeros(order.size, dtype=bool)
    tied[1:] |= tied_next
    tied[:-1] |= tied_next
    slots = np.flatnonzero(tied)
    group = np.cumsum(np.r_[True, ~tied_next])[slots]  # tie group of each tied slot
    members = order[slots]
    if ties == "trec_eval":
        rank_of_id = members if doc_ids is None else doc_id_ranks(np.asarray(doc_ids(members), dtype=object))
        tie_key = (-rank_of_id, members)
    elif ties == "optimistic":
        tie_key = (-grade[members], members)
    elif ties == "pessimistic":
        tie_key = (grade[members], members)
    else:  # "stable" and "average": input order
        tie_key = (members,)
    reorder = np.lexsort((*reversed(tie_key), group))
    order = order.copy()
    order[slots] = members[reorder]
    return order


def _sort_by_query_then_value(query: np.ndarray, value: np.ndarray, n_queries: int) -> np.ndarray:
    """Quicksort on the values, then a stable (radix, for 16-bit codes) sort on the query codes."""
    by_value = np.argsort(-value)
    code_type = np.uint16 if n_queries <= np.iinfo(np.uint16).max else np.int64
    return by_value[np.argsort(query.astype(code_type)[by_value], kind="stable")]


def _sort_in_blocks(query: np.ndarray, value: np.ndarray) -> np.ndarray:
    """The same order for rows grouped by query, sorting blocks of whole queries that fit the CPU cache.

    About twice as fast as one sort of a million rows; the loop runs once per
    block (dozens for a million rows), never per query or row.
    """
    bounds = np.r_[0, np.flatnonzero(query[1:] != query[:-1]) + 1, query.size]  # query starts, then the end
    # Each block ends at the first query start at or after a multiple of the block size.
    cuts = np.unique(np.r_[0, bounds[np.searchsorted(bounds, np.arange(_SORT_BLOCK_ROWS, query.size, _SORT_BLOCK_ROWS))],
                           query.size])
    order = np.empty(query.size, dtype=np.int64)
    for first, last in zip(cuts[:-1], cuts[1:], strict=True):
        local = query[first:last] - query[first]
        order[first:last] = first + _sort_by_query_then_value(local, value[first:last], int(local[-1]) + 1)
    return order


def tie_averaged_gains(sorted_query: np.ndarray, sorted_value: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """Replace each gain by the mean gain of its run of equal (query, value) neighbours (rows in ranked order)."""
    if gains.size == 0:
        return gains
    new_group = np.r_[True, (sorted_query[1:] != sorted_query[:-1]) | (sorted_value[1:] != sorted_value[:-1])]
    group = np.cumsum(new_group) - 1
    return (np.bincount(group, weights=gains) / np.bincount(group))[group]


def tie_group_labels(sorted_value: np.ndarray) -> np.ndarray:
    """Label consecutive equal values (already sorted) 0, 1, 2, ...: the tie groups of a ranked list."""
    starts = np.ones(sorted_value.size, dtype=bool)
    starts[1:] = sorted_value[1:] != sorted_value[:-1]
    return np.cumsum(starts) - 1
