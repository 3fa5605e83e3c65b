"""Id encoding: query and document ids (any dtype) become small integer codes.

Second layer of the run engine. :func:`encode_ids` turns the ids of a
:class:`~ndcg_core._frames.RunColumns` into an :class:`EncodedIds`:

* query codes count up in order of first appearance in the run (run queries
  first, then judged queries the run lacks); a run grouped by query has only
  the first id of each group hashed;
* document codes are equal within a query exactly when the ids are equal;
  they are assigned block by block of whole queries (about 50,000 rows per
  block) so each hash table fits the CPU cache;
* categorical columns (what the file readers return) are not hashed row by
  row: their codes are used as they are, and only the category arrays of
  the run and the judgments are matched (sorted text categories block by
  block). Nothing is kept between calls: hold an
  :class:`~ndcg_core.EncodedRun` to evaluate the same data again.

Ids are compared as text: ``1`` in the run matches ``"1"`` in the qrels.
Integer ids in both frames are hashed as integers (equal integers have equal
text), anything else that is not text is turned into text first.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from ._frames import RunColumns, text_categories
from ._validation import InvalidInput


@dataclass(frozen=True)
class QueryCodes:
    """Integer codes of the query ids of the run rows and of the judgments."""

    run: np.ndarray
    judged: np.ndarray
    names: np.ndarray  # the id of each code (object array)
    run_starts: np.ndarray | None  # first row of each query block when the run is grouped by query, else None
    name_index: pd.Index | None  # the names as a text Index, when at hand without work


@dataclass(frozen=True)
class DocCodes:
    """Integer codes of the document ids of the run rows and of the judgments (``n_docs`` codes in all)."""

    run: np.ndarray
    judged: np.ndarray
    n_docs: int


@dataclass(frozen=True)
class EncodedIds:
    """Query and document codes of a run and its judgments."""

    query: QueryCodes
    doc: DocCodes

    @property
    def n_queries(self) -> int:
        return self.query.names.size


def encode_ids(columns: RunColumns) -> EncodedIds:
    """Encode the ids of a run and its judgments (see the module docstring).

    Raises :class:`InvalidInput` naming the first row with an empty id (None or NaN in an object column).
    """
    for series, column in ((columns.run_queries, "query"), (columns.run_docs, "doc")):
        _refuse_empty_objects(series, column, "The run", columns.run_row_numbers)
    for series, column in ((columns.judged_queries, "query"), (columns.judged_docs, "doc")):
        _refuse_empty_objects(series, column, columns.judgment_source, columns.judged_row_numbers)
    run_queries, judged_queries = _comparable(columns.run_queries, columns.judged_queries)
    run_docs, judged_docs = _comparable(columns.run_docs, columns.judged_docs)
    query = query_codes(run_queries, judged_queries)
    if query.names.size and not isinstance(query.names[0], str):  # integer ids: the names are their text
        query = replace(query, names=np.asarray(query.names.astype(str), dtype=object))
    _refuse_negative(query.run, "query", "The run", columns.run_row_numbers)
    _refuse_negative(query.judged, "query", columns.judgment_source, columns.judged_row_numbers)
    doc = doc_codes(run_docs, query.run, judged_docs, query.judged, query.names.size)
    _refuse_negative(doc.run, "doc", "The run", columns.run_row_numbers)
    _refuse_negative(doc.judged, "doc", columns.judgment_source, columns.judged_row_numbers)
    return EncodedIds(query=query, doc=doc)


def _refuse_empty_objects(ids: pd.Series, column: str, name: str, row_numbers: np.ndarray | None) -> None:
    """Empty cells of an object column that is not all text (it is about to become text, where None reads "None")."""
    if ids.dtype == object and not pd.api.types.is_string_dtype(ids.dtype):
        _refuse_negative(np.where(ids.isna().to_numpy(), -1, 0), column, name, row_numbers)


def _refuse_negative(codes: np.ndarray, column: str, name: str, row_numbers: np.ndarray | None) -> None:
    """Code -1 marks an empty id (None, NaN): name its row (1-based, in the given frame)."""
    if codes.size and codes.min() < 0:
        row = int(np.flatnonzero(codes < 0)[0])
        shown = row + 1 if row_numbers is None else int(row_numbers[row]) + 1
        raise InvalidInput(f"{name} row {shown}: the {column} id is empty. Every row needs a {column} id.")


def _comparable(run_ids: pd.Series, judged_ids: pd.Series) -> tuple[pd.Series, pd.Series]:
    """The two id columns in forms whose equality is the equality of their text.

    Text and categorical columns are kept; integer columns are kept when the
    other column is integer too (equal integers, equal text; hashing integers
    is far cheaper than making text); anything else becomes text.
    """
    def kind(ids: pd.Series) -> str:
        if text_categories(ids) is not None:
            return "category"
        if isinstance(ids.dtype, pd.CategoricalDtype):
            return "other"
        if pd.api.types.is_integer_dtype(ids.dtype) and not pd.api.types.is_bool_dtype(ids.dtype):
            return "integer"
        if pd.api.types.is_string_dtype(ids.dtype):
            return "text"
        return "other"

    kinds = kind(run_ids), kind(judged_ids)
    integers = kinds == ("integer", "integer") or judged_ids.empty and kinds[0] == "integer"
    return tuple(ids if k in ("category", "text") or k == "integer" and integers else ids.astype(str)
                 for ids, k in zip((run_ids, judged_ids), kinds, strict=True))


def query_codes(run_queries: pd.Series, judged_queries: pd.Series) -> QueryCodes:
    """Integer codes for query ids (run queries first, in order of appearance) and the ids by code.

    A run is usually grouped by query; then only the
    first id of each group is hashed, together with the judgments' ids, and
    the group starts hold the first row of each group (None when the run is
    not grouped). Categorical ids are not hashed at all: their codes are
    renumbered, and their text categories give the ids' Index directly
    (None otherwise: the per-query table builds it from the ids).
    """
    run_categories = text_categories(run_queries)
    if run_categories is not None:
        return _categorical_query_codes(run_queries.array.codes, run_categories, judged_queries)
    n_run = len(run_queries)
    head = run_queries.iloc[:4096]
    # A shuffled run changes query on most rows: seen on its first rows, it skips the grouped attempt.
    mostly_changing = len(head) >= 1024 and int((head.iloc[1:].to_numpy() != head.iloc[:-1].to_numpy()).sum()) > len(head) // 2
    if n_run > 1 and not mostly_changing:
        changes = (run_queries.iloc[1:].reset_index(drop=True) != run_queries.iloc[:-1].reset_index(drop=True))
        starts = np.flatnonzero(np.r_[True, changes.to_numpy(dtype=bool)])
        heads = run_queries.iloc[starts].reset_index(drop=True)
        codes, names = pd.factorize(pd.concat([heads, judged_queries], ignore_index=True))
        if (codes[: starts.size] == np.arange(starts.size)).all():  # no query id in two separate groups
            run_codes = np.repeat(np.arange(starts.size), np.diff(np.r_[starts, n_run]))
            return QueryCodes(run_codes, codes[starts.size:], np.asarray(names, dtype=object), starts, None)
    codes, names = pd.factorize(pd.concat([run_queries, judged_queries], ignore_index=True))
    return QueryCodes(codes[:n_run], codes[n_run:], np.asarray(names, dtype=object), None, None)


_BLOCK_ROWS = 50_000


def doc_codes(run_docs: pd.Series, run_query: np.ndarray, judged_docs: pd.Series, judged_query: np.ndarray,
               n_queries: int) -> DocCodes:
    """Integer codes for document ids: within a query, equal codes exactly when the ids are equal.

    Pairs are only ever compared inside one query, so the ids are encoded
    block by block of whole queries (about 50,000 rows each) instead of in
    one table for the whole run: each hash table then stays small enough for
    the CPU cache, which makes encoding a million distinct ids about three
    times faster. Codes are still unique across blocks. The loop is over
    blocks, a handful for a million rows, never over queries or rows. When
    documents repeat across queries (a recommender's catalogue: a sample of
    the run has many repeats), one table for all rows is small anyway and
    one factorize is cheaper than the blocks.
    """
    run_categories = text_categories(run_docs)
    if run_categories is not None:
        return _categorical_doc_codes(run_docs.array.codes, run_categories, judged_docs)
    if _few_distinct(run_docs):
        codes, uniques = pd.factorize(pd.concat([run_docs, judged_docs], ignore_index=True))
        n_run = len(run_docs)
        return DocCodes(codes[:n_run], codes[n_run:], max(len(uniques), 1))
    code_type = np.uint16 if n_queries <= np.iinfo(np.uint16).max else np.int64
    grouped = run_query.size < 2 or bool((run_query[1:] >= run_query[:-1]).all())
    run_order = np.arange(run_query.size) if grouped else np.argsort(run_query.astype(code_type), kind="stable")
    judged_order = np.argsort(judged_query.astype(code_type), kind="stable")
    run_in_order = run_docs if grouped else run_docs.take(run_order).reset_index(drop=True)
    judged_in_order = judged_docs.take(judged_order).reset_index(drop=True)

    run_start = np.r_[0, np.cumsum(np.bincount(run_query, minlength=n_queries))]
    judged_start = np.r_[0, np.cumsum(np.bincount(judged_query, minlength=n_queries))]
    rows_before = run_start + judged_start  # rows of queries with a smaller code
    cuts = np.unique(np.r_[0, np.searchsorted(rows_before, np.arange(_BLOCK_ROWS, rows_before[-1], _BLOCK_ROWS)),
                           n_queries])

    run_codes, judged_codes = np.empty(run_query.size, np.int64), np.empty(judged_query.size, np.int64)
    offset = 0
    for first, last in zip(cuts[:-1], cuts[1:], strict=True):
        run_rows = slice(run_start[first], run_start[last])
        judged_rows = slice(judged_start[first], judged_start[last])
        block = pd.concat([run_in_order.iloc[run_rows], judged_in_order.iloc[judged_rows]], ignore_index=True)
        codes, uniques = pd.factorize(block)
        if codes.size and codes.min() < 0:  # an empty id keeps code -1 (refused by the caller, naming its row)
            codes = np.where(codes < 0, -1 - offset, codes)
        n_block_run = run_rows.stop - run_rows.start
        run_codes[run_order[run_rows]] = codes[:n_block_run] + offset
        judged_codes[judged_order[judged_rows]] = codes[n_block_run:] + offset
        offset += len(uniques)
    return DocCodes(run_codes, judged_codes, max(offset, 1))


_SAMPLE_ROWS = 50_000


def _few_distinct(ids: pd.Series) -> bool:
    """Whether evenly spaced ids repeat a lot: under 80% distinct in a sample of 50,000 (a catalogue of up to
    about 100,000 documents; a million distinct ids give 100%)."""
    step = max(1, len(ids) // _SAMPLE_ROWS)
    sample = ids.iloc[::step]
    return len(sample) >= 1_000 and len(pd.unique(sample)) < 0.8 * len(sample)


def _categorical_query_codes(category: np.ndarray, categories: pd.Index, judged_queries: pd.Series) -> QueryCodes:
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


def _categorical_doc_codes(run_category: np.ndarray, categories: pd.Index,
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
    if n > 2 * _BLOCK_ROWS and _sorted_text(categories) and _sorted_text(other):
        positions = _sorted_positions(categories, other)
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


def _sorted_text(index: pd.Index) -> bool:
    """True for text ids in strictly increasing (code point) order, as the file readers make them."""
    if not isinstance(index.dtype, pd.StringDtype):
        return False
    values = index.array
    return bool(np.asarray(values[1:] > values[:-1]).all())


def _sorted_positions(categories: pd.Index, other: pd.Index) -> np.ndarray:
    """:func:`_matched_positions` for two sorted id arrays, in blocks small enough for the CPU cache.

    An id of ``other`` can only equal a category of the block whose range
    of values holds it, so each block of ~50,000 categories is matched with
    its slice of ``other`` (found by bisection) in its own small hash table:
    about twice as fast as one table. The loop is over blocks (dozens for a
    million ids), never over ids.
    """
    starts = list(range(0, len(categories), _BLOCK_ROWS))
    other_cuts = [0, *(bisect.bisect_left(other, categories[start]) for start in starts[1:]), len(other)]
    category_cuts = [*starts, len(categories)]
    positions = np.full(len(other), -1, dtype=np.int64)
    for block in range(len(starts)):
        part = slice(other_cuts[block], other_cuts[block + 1])
        if part.stop > part.start:
            first, last = category_cuts[block], category_cuts[block + 1]
            positions[part] = _matched_positions(categories[first:last], other[part], first)
    return positions

