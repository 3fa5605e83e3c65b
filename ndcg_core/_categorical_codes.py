"""Id encoding for categorical columns (what the file readers return): codes used as they are.

Only the category arrays of the run and of the judgments are matched, never the rows: categories sorted as
text (the readers') by binary search on their bytes (:func:`ndcg_core._byte_keys.sorted_positions`), other
pyarrow text by one hash table of the smaller array, anything else by ``pd.factorize``. Part of the second
layer of the run engine (:mod:`ndcg_core._encode`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ._byte_keys import sorted_positions
from ._codes import DocCodes, QueryCodes
from ._frames import text_categories


def categorical_query_codes(category: np.ndarray, categories: pd.Index, judged_queries: pd.Series) -> QueryCodes:
    """:func:`query_codes` for a categorical query column: codes renumbered in order of first appearance.

    Only the (few) query categories are compared as text, with the judgments'
    query ids; the rows are never hashed.
    """
    n_run = category.size
    starts = np.r_[0, np.flatnonzero(category[1:] != category[:-1]) + 1]
    heads = category[starts]
    code_of_category = np.full(len(categories), -1, dtype=np.int64)
    if np.bincount(heads, minlength=len(categories)).max(initial=0) <= 1:  # grouped: one block of rows per query
        code_of_category[heads] = np.arange(heads.size)
        # (32-bit codes: half the memory of a million-row array, and codes never come near 2**31.)
        run_codes = np.repeat(np.arange(heads.size, dtype=np.int32), np.diff(np.r_[starts, n_run]))
        run_names = categories.take(heads)
        run_starts = starts
    else:
        used, first_row = np.unique(category, return_index=True)
        used = used[np.argsort(first_row, kind="stable")]
        code_of_category[used] = np.arange(used.size)
        run_codes = code_of_category[category]
        run_names = categories.take(used)
        run_starts = None
    judged_category, judged_categories = _codes_and_categories(judged_queries)
    in_run = _category_positions(categories, judged_categories)
    judged_code = np.where(in_run >= 0, code_of_category[np.maximum(in_run, 0)], -1)
    only_judged = judged_code < 0
    if only_judged.any():  # judged queries the run lacks: only the categories some judgment uses
        only_judged &= np.bincount(judged_category, minlength=judged_code.size) > 0
    judged_code[only_judged] = run_names.size + np.arange(int(only_judged.sum()))
    judged_names = judged_categories[only_judged]
    names = np.concatenate([np.asarray(run_names, dtype=object), np.asarray(judged_names, dtype=object)])
    # The ids by code as a text Index too (the per-query table's index), when the categories are text already.
    text = isinstance(run_names.dtype, pd.StringDtype) and run_names.dtype == judged_names.dtype
    name_index = (run_names if judged_names.empty else run_names.append(judged_names)) if text else None
    return QueryCodes(run_codes, _take_by_runs(judged_code.astype(np.int32), judged_category), names, run_starts,
                      name_index)


def _take_by_runs(table: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """``table[codes]``, looked up once per run of equal neighbouring codes when there are few runs.

    Qrels list each query's judgments together, so their query codes come in
    long runs: repeating one value per run avoids converting every code to
    an index.
    """
    changes = np.flatnonzero(codes[1:] != codes[:-1])
    if codes.size == 0 or 8 * changes.size > codes.size:
        return table.take(codes)
    starts = np.r_[0, changes + 1]
    return np.repeat(table.take(codes[starts]), np.diff(np.r_[starts, codes.size]))


def categorical_doc_codes(run_category: np.ndarray, categories: pd.Index,
                           judged_docs: pd.Series) -> DocCodes:
    """:func:`doc_codes` for a categorical doc column: the run's codes as they are.

    The judgments' documents get the code of the equal run category, or a
    new code past the run's; the category arrays are matched, not the rows
    (see :func:`_category_positions`).
    """
    judged_category, judged_categories = _codes_and_categories(judged_docs)
    position = _category_positions(categories, judged_categories, number_absent=True)
    n_docs = int(position.max(initial=len(categories) - 1)) + 1
    return DocCodes(run_category, position.take(judged_category), max(n_docs, 1))


def _codes_and_categories(ids: pd.Series) -> tuple[np.ndarray, pd.Index]:
    """Integer codes and distinct text ids of an id column (categorical or not)."""
    categories = text_categories(ids)
    if categories is not None:
        return ids.array.codes, categories
    codes, uniques = pd.factorize(ids.astype(str) if not pd.api.types.is_string_dtype(ids.dtype) else ids)
    return codes.astype(np.int64), pd.Index(uniques)


def _category_positions(categories: pd.Index, other: pd.Index, *, number_absent: bool = False) -> np.ndarray:
    """Position in ``categories`` of each id of ``other``.

    An id absent from ``categories`` gets -1, or with ``number_absent`` the
    next free number past them (len(categories), len(categories) + 1, ...).
    """
    if other is categories:
        return np.arange(len(categories))
    if len(other) == 0:
        return np.zeros(0, dtype=np.int64)
    n = len(categories)
    arrow = _arrow_text(categories), _arrow_text(other)
    if arrow[0] is not None and arrow[1] is not None:
        # Categories sorted as text (what the readers give): binary search on their bytes, no hash table.
        positions = sorted_positions(*arrow)
        if positions is None:
            positions = _hashed_positions(*(ids.cast(pa.large_string()) for ids in arrow))
    else:
        positions = _matched_positions(categories, other, 0)
    if number_absent:
        absent = positions < 0
        positions[absent] = n + np.arange(int(absent.sum()))
    return positions


def _matched_positions(categories: pd.Index, other: pd.Index, first: int) -> np.ndarray:
    """Position (plus ``first``) in ``categories`` of each id of ``other``, -1 when absent: one hash table."""
    # Equal ids get equal codes.
    codes, _ = pd.factorize(pd.concat([pd.Series(categories, dtype=object) if categories.dtype == object
                                       else pd.Series(categories), pd.Series(other).astype(categories.dtype)],
                                      ignore_index=True))
    n = len(categories)
    position_of_code = np.full(int(codes.max()) + 1, -1, dtype=np.int64)
    position_of_code[codes[:n]] = np.arange(first, first + n)
    return position_of_code[codes[n:]]


def _arrow_text(index: pd.Index) -> pa.Array | None:
    """The ids as a pyarrow string array (no copy) when they are pyarrow-backed text, else None."""
    if not (isinstance(index.dtype, pd.StringDtype) and index.dtype.storage == "pyarrow"):
        return None
    ids = pa.array(index.array)
    return ids.combine_chunks() if isinstance(ids, pa.ChunkedArray) else ids


def _hashed_positions(categories: pa.Array, other: pa.Array) -> np.ndarray:
    """:func:`_matched_positions` for pyarrow text: one hash table of the smaller array, probed by the larger.

    The run's document categories (a million for a TREC run) usually
    outnumber the judged ones: hashing only the judged ones and probing with
    the run's is about three times faster (warm) than one table of both, and
    no block loop is needed.
    """
    if len(other) >= len(categories):
        return pc.index_in(other, value_set=categories).fill_null(-1).to_numpy().astype(np.int64)
    in_other = pc.index_in(categories, value_set=other).fill_null(-1).to_numpy()
    found = np.flatnonzero(in_other >= 0)
    positions = np.full(len(other), -1, dtype=np.int64)
    positions[in_other[found]] = found  # ids are distinct on both sides: each match is one category
    return positions
