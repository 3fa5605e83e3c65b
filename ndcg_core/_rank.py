"""Ranking a run: order each query's rows by the tie rule and keep the first k, with their gains.

Fourth layer of the run engine: :func:`rank` takes an
:class:`~ndcg_core.EncodedRun`, orders its rows with the one tie
implementation (:func:`ndcg_core._ties.order_rows`), keeps each query's
first ``depth`` rows (the cutoff rule of :mod:`ndcg_core._ideal`) and looks
their gains up. A retrieved document without a judgment counts as grade 0:
gain 0, never looked up in a gain table.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._encoded_run import EncodedRun
from ._gains import GainSpec, gain_values
from ._ideal import ranking_depth
from ._ties import order_rows, tie_averaged_gains


@dataclass(frozen=True)
class RankedRows:
    """The kept rows of a ranked run, query by query, best first.

    ``query`` (code), ``position`` (0-based rank in its query), ``gain`` (tie
    averaged under ``"average"``), ``judged`` (the row has a judgment) and
    ``row`` (position of the row among ``EncodedRun.query``).
    """

    query: np.ndarray
    position: np.ndarray
    gain: np.ndarray
    judged: np.ndarray
    row: np.ndarray


def rank(encoded: EncodedRun, *, ties: str, gain: GainSpec, depth: int | None) -> RankedRows:
    """Order every query's rows by ``ties`` and keep the first ``depth`` (None: all) with their gains."""
    query, value, judgment = encoded.query, encoded.value, encoded.judgment
    grade = _per_row(encoded.grades, judgment) if ties in ("optimistic", "pessimistic") else None
    order = order_rows(query, value, ties=ties, grade=grade, doc_ids=encoded.doc_ids, boundary=encoded.boundary,
                       grouped=encoded.grouped, n_queries=encoded.n_queries)
    sorted_query = query if order is None else query[order]
    if encoded.grouped:  # sorting within queries keeps every query's block where it was
        starts = np.r_[0, encoded.boundary + 1] if query.size else np.zeros(0, dtype=np.int64)
    else:
        starts = _group_starts(sorted_query)
    lengths = np.diff(np.r_[starts, sorted_query.size])
    kept = ranking_depth(depth, lengths)
    kept_before = np.cumsum(kept) - kept
    position = np.arange(int(kept.sum())) - np.repeat(kept_before, kept)
    slots = np.repeat(starts, kept) + position  # places in the ranked order
    row = slots if order is None else order[slots]
    kept_judgment = judgment[row]
    judged_gain = gain_values(encoded.grades, gain) if encoded.grades.size else np.zeros(0)
    if ties == "average":  # a tie group may straddle the cutoff: average over the whole group first
        sorted_judgment = judgment if order is None else judgment[order]
        sorted_value = value if order is None else value[order]
        gains = tie_averaged_gains(sorted_query, sorted_value, _per_row(judged_gain, sorted_judgment))[slots]
    else:
        gains = _per_row(judged_gain, kept_judgment)
    return RankedRows(query=np.repeat(sorted_query[starts], kept), position=position, gain=gains,
                      judged=kept_judgment > 0, row=row)


def _group_starts(sorted_query: np.ndarray) -> np.ndarray:
    """Index of the first row of each (contiguous) query group."""
    if sorted_query.size == 0:
        return np.zeros(0, dtype=np.int64)
    return np.r_[0, np.flatnonzero(sorted_query[1:] != sorted_query[:-1]) + 1]


def _per_row(values: np.ndarray, judgment: np.ndarray) -> np.ndarray:
    """``values`` of each row's judgment (``judgment`` = 1 + its index), 0 for rows without one."""
    out = np.zeros(judgment.size)
    hit = np.flatnonzero(judgment > 0)
    out[hit] = values[judgment[hit] - 1]
    return out
