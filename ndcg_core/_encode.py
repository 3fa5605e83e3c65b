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
  the run and the judgments are matched (:mod:`ndcg_core._categorical_codes`:
  categories sorted as text by binary search on their bytes). Nothing is
  kept between calls: hold an
  :class:`~ndcg_core.EncodedRun` to evaluate the same data again.

Ids are compared as text: ``1`` in the run matches ``"1"`` in the qrels.
Integer ids in both frames are hashed as integers (equal integers have equal
text), anything else that is not text is turned into text first. One
exception: decimal ids that are all whole numbers, beside integer ids, are
read as those integers (``1.0`` matches ``1``: pandas makes integer ids
decimal as soon as a cell is missing).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from ._categorical_codes import categorical_doc_codes, categorical_query_codes
from ._codes import DocCodes, EncodedIds, QueryCodes
from ._frames import RunColumns, text_categories
from ._validation import InvalidInput


def encode_ids(columns: RunColumns) -> EncodedIds:
    """Encode the ids of a run and its judgments (see the module docstring).

    Raises :class:`InvalidInput` naming the first row with an empty id (None or NaN in an object column).
    """
    run_ids = (columns.run_queries, columns.run_docs)
    judged_ids = (columns.judged_queries, columns.judged_docs)
    run_contents = [_object_contents(ids) for ids in run_ids]  # one pass over an object column, used twice
    judged_contents = [_object_contents(ids) for ids in judged_ids]
    for series, column, contents in zip(run_ids, ("query", "doc"), run_contents, strict=True):
        _refuse_empty_objects(series, column, "The run", columns.run_row_numbers, contents)
    for series, column, contents in zip(judged_ids, ("query", "doc"), judged_contents, strict=True):
        _refuse_empty_objects(series, column, columns.judgment_source, columns.judged_row_numbers, contents)
    run_queries, judged_queries = _comparable(run_ids[0], judged_ids[0], run_contents[0], judged_contents[0])
    run_docs, judged_docs = _comparable(run_ids[1], judged_ids[1], run_contents[1], judged_contents[1])
    query = query_codes(run_queries, judged_queries)
    if query.names.size and not isinstance(query.names[0], str):  # integer ids: the names are their text
        query = replace(query, names=np.asarray(query.names.astype(str), dtype=object))
    _refuse_negative(query.run, "query", "The run", columns.run_row_numbers)
    _refuse_negative(query.judged, "query", columns.judgment_source, columns.judged_row_numbers)
    doc = _integer_pair_codes(run_docs, query.run, judged_docs, query.judged)
    if doc is None:
        doc = doc_codes(run_docs, query.run, judged_docs, query.judged, query.names.size)
        if doc.n_docs < query.run.size // 4:  # a shared catalogue: each document retrieved by many queries
            doc = pair_codes(query.run, doc.run, query.judged, doc.judged, doc.n_docs) or doc
    _refuse_negative(doc.run, "doc", "The run", columns.run_row_numbers)
    _refuse_negative(doc.judged, "doc", columns.judgment_source, columns.judged_row_numbers)
    return EncodedIds(query=query, doc=doc)


_TEXT = ("string", "bytes", "empty")  # pandas' infer_dtype of an object column of text only (no empty cell)
_NUMBERS = ("integer", "floating", "mixed-integer-float")


def _object_contents(ids: pd.Series) -> str | None:
    """What an object column holds (pandas' ``infer_dtype``, empty cells counted: one pass over the values), else
    None. Text only (``_TEXT``) is compared as it is; integers or a mix (``pd.concat`` of frames whose ids differ in
    type, ``df.T.T``) must become numbers or text first: the int 10 never equals the text "10" of the other frame's
    ids, and every document would count as unjudged. (``is_string_dtype`` of the object dtype itself is True, so
    asking it had taken every object column for text.)"""
    return pd.api.types.infer_dtype(ids, skipna=False) if ids.dtype == object else None


def _refuse_empty_objects(ids: pd.Series, column: str, name: str, row_numbers: np.ndarray | None,
                          contents: str | None) -> None:
    """Empty cells (None, NaN, pd.NA) of an object column, named by row before anything compares them: one that is
    not all text is about to become text, where None reads "None", and pd.NA cannot be compared at all. A column of
    text only has none, and is not looked at again (a pass over a million ids costs ~50 ms)."""
    if contents is not None and contents not in _TEXT:
        _refuse_negative(np.where(ids.isna().to_numpy(), -1, 0), column, name, row_numbers)


def _object_numbers(ids: pd.Series, contents: str | None) -> pd.Series:
    """An object column of numbers as a numeric column (int64 when every id is an int that int64 holds, else
    float64), so that it is matched as the same ids in a numeric column are: 10.0 held as an object matched no
    integer 10 (its text is "10.0"), and every document counted as unjudged. Anything else is returned as it is."""
    if contents not in _NUMBERS:
        return ids
    try:
        values = np.asarray(ids.to_numpy(), dtype=np.int64 if contents == "integer" else np.float64)
    except OverflowError:  # integers beyond int64: compared as text
        return ids
    return pd.Series(values, index=ids.index, name=ids.name)


def _refuse_negative(codes: np.ndarray, column: str, name: str, row_numbers: np.ndarray | None) -> None:
    """Code -1 marks an empty id (None, NaN): name its row (1-based, in the given frame)."""
    if codes.size and codes.min() < 0:
        row = int(np.flatnonzero(codes < 0)[0])
        shown = row + 1 if row_numbers is None else int(row_numbers[row]) + 1
        raise InvalidInput(f"{name} row {shown}: the {column} id is empty. Every row needs a {column} id.")


def _comparable(run_ids: pd.Series, judged_ids: pd.Series, run_contents: str | None,
                judged_contents: str | None) -> tuple[pd.Series, pd.Series]:
    """The two id columns in forms whose equality is the equality of their text.

    Text and categorical columns are kept; integer columns are kept when the
    other column is integer too (equal integers, equal text; hashing integers
    is far cheaper than making text); anything else becomes text. ``*_contents``: what an object column holds
    (:func:`_object_contents`; None for other dtypes).
    """
    def kind(ids: pd.Series, contents: str | None) -> str:
        if text_categories(ids) is not None:
            return "category"
        if isinstance(ids.dtype, pd.CategoricalDtype):
            return "other"
        if pd.api.types.is_integer_dtype(ids.dtype) and not pd.api.types.is_bool_dtype(ids.dtype):
            return "integer"
        if ids.dtype == object:
            return "text" if contents in _TEXT else "other"
        if pd.api.types.is_string_dtype(ids.dtype):
            return "text"
        return "other"

    run_ids, judged_ids = _whole_floats_as_integers(_object_numbers(run_ids, run_contents),
                                                    _object_numbers(judged_ids, judged_contents))
    kinds = kind(run_ids, run_contents), kind(judged_ids, judged_contents)
    integers = kinds == ("integer", "integer") or judged_ids.empty and kinds[0] == "integer"
    return tuple(ids if k in ("category", "text") or k == "integer" and integers else ids.astype(str)
                 for ids, k in zip((run_ids, judged_ids), kinds, strict=True))


def _whole_floats_as_integers(run_ids: pd.Series, judged_ids: pd.Series) -> tuple[pd.Series, pd.Series]:
    """Decimal ids that are all whole numbers, beside integer ids, as integers: ``1.0`` matches ``1``.

    A column of integer ids turns into decimals in pandas as soon as one cell was ever missing (or when read
    from JSON or a spreadsheet); as text ``"1.0"`` would never equal ``"1"``, and every retrieved document would
    count as unjudged without a word. Only whole numbers int64 holds exactly (|id| < 2**53) are converted.
    """
    def whole(ids: pd.Series) -> bool:
        if not pd.api.types.is_float_dtype(ids.dtype) or isinstance(ids.dtype, pd.CategoricalDtype):
            return False
        values = ids.to_numpy(dtype=np.float64, na_value=np.nan)
        return bool(np.isfinite(values).all() and (np.abs(values) < 2.0 ** 53).all()
                    and (values == np.trunc(values)).all())

    if _exact_integers(run_ids) and whole(judged_ids):
        return run_ids, judged_ids.astype(np.int64)
    if whole(run_ids) and (_exact_integers(judged_ids) or judged_ids.empty):
        return run_ids.astype(np.int64), judged_ids
    return run_ids, judged_ids


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
        return categorical_query_codes(run_queries.array.codes, run_categories, judged_queries)
    n_run = len(run_queries)
    head = run_queries.iloc[:4096]
    # A shuffled run changes query on most rows: seen on its first rows, it skips the grouped attempt.
    mostly_changing = len(head) >= 1024 and int((head.iloc[1:].to_numpy() != head.iloc[:-1].to_numpy()).sum()) > len(head) // 2
    if n_run > 1 and not mostly_changing:
        starts = np.flatnonzero(np.r_[True, _changes(run_queries)])
        heads = run_queries.iloc[starts].reset_index(drop=True)
        codes, names = pd.factorize(pd.concat([heads, judged_queries], ignore_index=True))
        if (codes[: starts.size] == np.arange(starts.size)).all():  # no query id in two separate groups
            run_codes = np.repeat(np.arange(starts.size), np.diff(np.r_[starts, n_run]))
            return QueryCodes(run_codes, codes[starts.size:], np.asarray(names, dtype=object), starts, None)
    coded = _small_integer_codes(run_queries, judged_queries)
    codes, names = coded if coded is not None else pd.factorize(pd.concat([run_queries, judged_queries],
                                                                           ignore_index=True))
    return QueryCodes(codes[:n_run], codes[n_run:], np.asarray(names, dtype=object), None, None)


def _small_integer_codes(run_ids: pd.Series, judged_ids: pd.Series) -> tuple[np.ndarray, np.ndarray] | None:
    """What ``pd.factorize`` gives for the run ids then the judged ids (codes in order of first appearance, the
    ids by code) when both are integers in a range not much wider than their count, else None.

    A table indexed by id replaces the hash table: about four times faster
    on a million shuffled query ids.
    """
    run, judged = _as_int64(run_ids), _as_int64(judged_ids)
    if run is None or judged is None or run.size == 0:
        return None
    ids = np.concatenate([run, judged])
    low, high = int(ids.min()), int(ids.max())
    if high - low >= 4 * ids.size:
        return None
    ids -= low
    first_row = np.full(high - low + 1, ids.size, dtype=np.int64)
    np.minimum.at(first_row, ids, np.arange(ids.size))
    used = np.flatnonzero(first_row < ids.size)
    used = used[np.argsort(first_row[used], kind="stable")]  # ids in order of first appearance
    code_of_id = np.empty(first_row.size, dtype=np.int64)
    code_of_id[used] = np.arange(used.size)
    return code_of_id[ids], used + low


def _exact_integers(ids: pd.Series) -> bool:
    """Whether the ids are integers that int64 holds exactly (not bool): a look at the dtype, no pass over the rows."""
    exact = pd.api.types.is_signed_integer_dtype(ids.dtype) or (
        pd.api.types.is_unsigned_integer_dtype(ids.dtype) and ids.dtype.itemsize < 8)
    return exact and not pd.api.types.is_bool_dtype(ids.dtype)


def _as_int64(ids: pd.Series) -> np.ndarray | None:
    """The ids as int64 when they are integers that int64 holds exactly (not bool), else None."""
    return ids.to_numpy(dtype=np.int64) if _exact_integers(ids) else None


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
    one factorize is cheaper than the blocks; so is a run of one block or less.
    """
    run_categories = text_categories(run_docs)
    if run_categories is not None:
        return categorical_doc_codes(run_docs.array.codes, run_categories, judged_docs)
    if len(run_docs) <= _BLOCK_ROWS or _few_distinct(run_docs):  # one table is small: no blocks, no sample
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


def pair_codes(run_query: np.ndarray, run_doc: np.ndarray, judged_query: np.ndarray, judged_doc: np.ndarray,
               span: int) -> DocCodes | None:
    """Document codes, one per distinct (query, doc) pair, from any integer doc codes below ``span``.

    Judged pairs get codes 0, 1, ... (equal pairs, equal codes); a run row
    gets the code of its judged pair, or a code of its own (the number of
    judged pairs plus its row) when its pair is not judged. Codes are then
    still equal within a query exactly when the ids are, and the judge never
    meets a document judged for several queries: with a shared catalogue
    (every item retrieved and judged for many users) that turns its
    pair-by-pair hash look-up of every run row into one table look-up. None when a run pair repeats, so that the caller's codes let the
    judge name the repeated row (rare: it is refused).
    """
    run_keys = np.multiply(run_query, span, dtype=np.int64)
    run_keys += run_doc
    # Sorted, the run's pairs show a repeat as two equal neighbours, and the judged pairs are found by binary
    # search with few cache misses (a hash table of a million keys costs about three times as much; a binary
    # search of each run row in the judged pairs, five times as much on shuffled rows). Keys are distinct
    # unless refused, so any sort will do: the stable one (timsort) is nearly free on a run grouped by query
    # (its keys come in sorted runs), the default one (quicksort) is ~8x faster on shuffled rows.
    grouped = run_query.size < 2 or bool((run_query[1:] >= run_query[:-1]).all())
    by_key = np.argsort(run_keys, kind="stable" if grouped else None)
    sorted_keys = run_keys[by_key]
    del run_keys
    if (sorted_keys[1:] == sorted_keys[:-1]).any():
        return None
    judged_keys = np.multiply(judged_query, span, dtype=np.int64)
    judged_keys += judged_doc
    # Judged pairs sorted and numbered (a quicksort of int64 beats a hash table), then searched in sorted order:
    # the binary searches walk the run's keys forwards, cache-friendly.
    by_judged = np.argsort(judged_keys)
    judged_keys = judged_keys[by_judged]
    first = np.empty(judged_keys.size, dtype=bool)
    first[:1] = True
    np.not_equal(judged_keys[1:], judged_keys[:-1], out=first[1:])
    judged_codes = np.empty(judged_keys.size, dtype=np.int64)
    judged_codes[by_judged] = np.cumsum(first) - 1
    judged_pairs = judged_keys[first]
    slot = np.minimum(np.searchsorted(sorted_keys, judged_pairs), max(sorted_keys.size - 1, 0))
    found = np.flatnonzero(sorted_keys[slot] == judged_pairs) if sorted_keys.size else slot[:0]
    # A run row without a judgment gets a code of its own: the number of judged pairs plus its row number.
    run_codes = np.arange(len(judged_pairs), len(judged_pairs) + sorted_keys.size, dtype=np.int64)
    run_codes[by_key[slot[found]]] = found
    return DocCodes(run_codes, judged_codes.astype(np.int64, copy=False), max(len(judged_pairs) + run_codes.size, 1))


def _integer_pair_codes(run_docs: pd.Series, run_query: np.ndarray, judged_docs: pd.Series,
                        judged_query: np.ndarray) -> DocCodes | None:
    """:func:`pair_codes` straight from integer ids (no hashing of the ids), when both columns hold integers
    whose (query, doc) pairs fit in an int64 key; else None."""
    run_ids, judged_ids = _as_int64(run_docs), _as_int64(judged_docs)
    if run_ids is None or judged_ids is None:
        return None
    both = (run_ids, judged_ids) if judged_ids.size else (run_ids,)
    low, high = min(int(ids.min()) for ids in both), max(int(ids.max()) for ids in both)
    span = high - low + 1
    n_queries = int(max(run_query.max(initial=0), judged_query.max(initial=0))) + 1
    if n_queries * span >= 2**62:  # pair keys would overflow: hash the ids instead
        return None
    if low:
        run_ids, judged_ids = run_ids - low, judged_ids - low
    return pair_codes(run_query, run_ids, judged_query, judged_ids, span)


_SAMPLE_ROWS = 50_000


def _changes(ids: pd.Series) -> np.ndarray:
    """Whether each row's id differs from the row before it (one value fewer than rows).

    Python strings are compared by numpy (about 7x faster than pandas' object comparison, which checks each pair
    for missing values that the caller has already refused); other columns by pandas (pyarrow's kernel for text).
    """
    if ids.dtype == object:
        values = ids.to_numpy()
        return np.asarray(values[1:] != values[:-1], dtype=bool)
    return (ids.iloc[1:].reset_index(drop=True) != ids.iloc[:-1].reset_index(drop=True)).to_numpy(dtype=bool)


def _few_distinct(ids: pd.Series) -> bool:
    """Whether evenly spaced ids repeat a lot: under 80% distinct in a sample of 50,000 (a catalogue of up to
    about 100,000 documents; a million distinct ids give 100%)."""
    step = max(1, len(ids) // _SAMPLE_ROWS)
    sample = ids.iloc[::step]
    return len(sample) >= 1_000 and len(pd.unique(sample)) < 0.8 * len(sample)
