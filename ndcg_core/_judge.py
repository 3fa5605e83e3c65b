"""Judging a run: refuse repeated (query, doc) pairs and join the run rows with their judgments.

Third layer of the run engine: from the encoded ids, :func:`judge` returns
a :class:`Judgments` telling, for each run row, which judgment (if any) is
about the same (query, document) pair. A repeated pair needs a document
retrieved (judged) more than once, so only those rows are compared pair by
pair (usually a small share of the run); a document judged for one query
only is found with one table look-up by document code.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ._encode import EncodedIds, doc_codes, query_codes
from ._frames import RunColumns
from ._validation import InvalidInput


@dataclass(frozen=True)
class Judgments:
    """Which judgment each run row has.

    ``hit_rows`` are the run rows with a judgment and ``hit_judgments`` the
    index of that judgment; ``of_row`` holds 1 + that index for every run
    row (0: not judged).
    """

    hit_rows: np.ndarray
    hit_judgments: np.ndarray
    of_row: np.ndarray


def judge(columns: RunColumns, ids: EncodedIds) -> Judgments:
    """Join the run rows with the judgments; :class:`InvalidInput` names the first repeated pair."""
    run_query_all, judged_query = ids.query.run, ids.query.judged
    run_doc, judged_doc, n_docs = ids.doc.run, ids.doc.judged, ids.doc.n_docs
    # A repeated (query, doc) pair needs a document retrieved (judged) more than once, so only those
    # rows are compared pair by pair (usually a small share of the run).
    # One small table of flags per document code (it stays in the CPU cache), read once per run row:
    # 1 = retrieved more than once, 2 = judged, 4 = judged more than once.
    # The document codes index two tables: converted to the index type once.
    run_doc_index = run_doc if run_doc.dtype == np.intp else run_doc.astype(np.intp)
    flags = (np.bincount(run_doc_index, minlength=n_docs) > 1).view(np.uint8)  # (run rows per document) > 1
    # The look-up table of judgments: 1 + the index of the (last) judgment of each judged document;
    # other entries are never read. (32-bit: half the memory to jump around in, reusing the counts'.)
    index_type = np.int32 if judged_doc.size < 2**31 - 1 else np.int64
    table = np.empty(n_docs, dtype=index_type)
    judgment_number = np.arange(1, judged_doc.size + 1, dtype=index_type)
    table[judged_doc] = judgment_number
    flags[judged_doc] |= 2
    # A judgment that is not its document's last one: the document is judged more than once.
    judged_again = table.take(judged_doc) != judgment_number
    del judgment_number
    if judged_again.any():
        flags[judged_doc[judged_again]] |= 4
        judged_suspects = np.flatnonzero((flags.take(judged_doc) & 4) != 0)
    else:
        judged_suspects = np.zeros(0, dtype=np.intp)
    # Rows retrieving a repeated or a judged document (numpy finds the non-zero entries of a bool array
    # several times faster than those of a uint8 one).
    flagged = np.flatnonzero((flags != 0).take(run_doc_index))
    del run_doc_index
    run_flags = flags[run_doc[flagged]]
    suspects = flagged[(run_flags & 1) > 0]
    repeat = _first_duplicate(_pair_keys(run_query_all[suspects], run_doc[suspects], n_docs))
    if repeat is not None:
        _refuse_duplicate(int(suspects[repeat]), columns.run_queries, columns.run_docs, "The run", "retrieves document",
                          columns.run_row_numbers)
    repeat = _first_duplicate(_pair_keys(judged_query[judged_suspects], judged_doc[judged_suspects], n_docs))
    if repeat is not None:
        _refuse_duplicate(int(judged_suspects[repeat]), columns.judged_queries, columns.judged_docs,
                          columns.judgment_source, "judges document", columns.judged_row_numbers)

    hit_rows, hit_judgments = _join_judgments(run_query_all, run_doc, flagged, run_flags, judged_query, judged_doc,
                                              judged_suspects, n_docs, table=table)
    of_row = np.zeros(run_query_all.size, dtype=np.int32 if judged_doc.size < 2**31 - 1 else np.int64)
    of_row[hit_rows] = hit_judgments + 1
    return Judgments(hit_rows=hit_rows, hit_judgments=hit_judgments, of_row=of_row)


def _join_judgments(run_query, run_doc, flagged, run_flags, judged_query, judged_doc, shared, n_docs: int, *,
                    table: np.ndarray):
    """Rows of the run that have a judgment, and the index of that judgment (no pair listed twice).

    Only rows whose document is judged for some query can match (flag 2 or
    4 of ``run_flags``, the flags of the rows ``flagged``). A document judged for one query only then needs one
    look-up by document code (and the query must agree); the few judged for
    several queries (flag 4; ``shared``: their judgments) are looked up by
    (query, doc) key in a hash table. ``table`` holds, for each judged document
    code, 1 + the index of one of its judgments.
    """
    judged_doc_rows = (run_flags & 6) > 0
    candidates, run_flags = flagged[judged_doc_rows], run_flags[judged_doc_rows]
    candidate_doc = run_doc[candidates]
    judgment = table[candidate_doc] - 1
    once = (run_flags & 4) == 0
    single = once & (judged_query[judgment] == run_query[candidates])
    hit_rows, hit_judgments = candidates[single], judgment[single]
    several = candidates[~once]
    if several.size:
        # One hash table of the (unique: repeats were refused) pair keys: ~5x faster than a binary search
        # when most run rows retrieve a document judged for several queries (a shared catalogue).
        shared_pairs = pd.Index(_pair_keys(judged_query[shared], judged_doc[shared], n_docs))
        slot = shared_pairs.get_indexer(_pair_keys(run_query[several], run_doc[several], n_docs))
        match = slot >= 0
        hit_rows = np.concatenate([hit_rows, several[match]])
        hit_judgments = np.concatenate([hit_judgments, shared[slot[match]]])
    return hit_rows, hit_judgments



def first_repeated_pair(queries: pd.Series, docs: pd.Series) -> int | None:
    """Position of the first row whose (query, doc) pair appeared on an earlier row, or None.

    Uses the same block-wise id encoding as :func:`evaluate_run`; the file
    readers call it to name the line of a repeated pair.
    """
    queries, docs = queries.reset_index(drop=True), docs.reset_index(drop=True)
    if not pd.api.types.is_string_dtype(queries.dtype) and not isinstance(queries.dtype, pd.CategoricalDtype):
        queries = queries.astype(str)
    if not pd.api.types.is_string_dtype(docs.dtype) and not isinstance(docs.dtype, pd.CategoricalDtype):
        docs = docs.astype(str)
    queries_coded = query_codes(queries, queries.iloc[:0])
    docs_coded = doc_codes(docs, queries_coded.run, docs.iloc[:0], queries_coded.run[:0], queries_coded.names.size)
    n_docs, codes = docs_coded.n_docs, docs_coded.run
    seen_again = np.bincount(codes, minlength=n_docs) > 1
    suspects = np.flatnonzero(seen_again[codes])
    repeat = _first_duplicate(_pair_keys(queries_coded.run[suspects], codes[suspects], n_docs))
    return None if repeat is None else int(suspects[repeat])


def _pair_keys(query: np.ndarray, doc: np.ndarray, n_docs: int) -> np.ndarray:
    """One int64 per (query, doc) pair; the codes are far below 2**31 for any input that fits in memory."""
    return query.astype(np.int64) * n_docs + doc


def _refuse_duplicate(row: int, queries: pd.Series, docs: pd.Series, name: str, verb: str,
                      row_numbers: np.ndarray | None) -> None:
    shown = row + 1 if row_numbers is None else int(row_numbers[row]) + 1
    raise InvalidInput(
        f"{name} row {shown}: query {queries.iloc[row]!r} {verb} {docs.iloc[row]!r} "
        "a second time. Each (query, doc) pair may appear only once."
    )



def _first_duplicate(keys: np.ndarray) -> int | None:
    """Index of a row whose key appears earlier too, or None (sort-based, vectorised)."""
    ordered = np.sort(keys)  # whether any key repeats: a plain sort is several times faster than a stable argsort
    if not (ordered[1:] == ordered[:-1]).any():
        return None
    order = np.argsort(keys, kind="stable")
    repeated = keys[order][1:] == keys[order][:-1]
    if not repeated.any():
        return None
    return int(order[1:][repeated].min())

