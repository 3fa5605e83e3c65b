"""Input frames of a run: the columns read, checked and named, before any id is encoded.

First layer of the run engine (frames → ids → ranking → judgments → ideal
lists → metrics). :func:`read_frames` returns a :class:`RunColumns`: the
run's ids and ordering value (a score, or a rank negated: higher is better),
the judgments' ids and grades, and the row numbers used in messages. A run
without qrels carries its own ``relevance`` column: a row with a grade is a
judgment, a row with a score (rank) was retrieved. Error messages give
1-based row positions in the given DataFrames.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ._validation import InvalidInput


@dataclass(frozen=True)
class RunColumns:
    """The checked columns of a run and its judgments (ids still as given: text or categorical)."""

    run_queries: pd.Series
    run_docs: pd.Series
    order_value: np.ndarray  # higher first: the score, or minus the rank
    judged_queries: pd.Series
    judged_docs: pd.Series
    grades: np.ndarray
    run_row_numbers: np.ndarray | None  # 0-based rows of the given run frame, when some rows were left out
    judged_row_numbers: np.ndarray | None  # the same for the judgments taken from the run itself
    judgment_source: str  # "The qrels" or "The run": where judgments come from, for messages


def read_frames(run: pd.DataFrame, qrels: pd.DataFrame | None) -> RunColumns:
    """Check a run (and qrels) and return their columns; :class:`InvalidInput` names the first bad row."""
    needs = ("query", "doc")
    _require_frame(run, "The run", needs, "query, doc and score (or rank)")
    if "score" not in run.columns and "rank" not in run.columns:
        raise InvalidInput("The run needs a score column (higher is better) or a rank column (1 is best).")
    if qrels is None:
        _require_frame(run, "The run", (*needs, "relevance"), "query, doc, relevance and score (or rank)")
    else:
        _require_frame(qrels, "The qrels", (*needs, "relevance"), "query, doc and relevance")

    run_queries, run_docs = _ids(run, "query", "The run"), _ids(run, "doc", "The run")
    # Higher first: a score as it is, a rank negated (rank 1 first).
    order_column = "score" if "score" in run.columns else "rank"
    order_value = _numbers(run, order_column, "The run", allow_missing=qrels is None)
    if order_column == "rank":
        order_value = -order_value

    # Row numbers (0-based, in the given frames) of the run rows and the judgments, for messages.
    run_row_numbers = judged_row_numbers = None
    if qrels is None:
        # One table: a row with a grade is a judgment; a row with a score (rank) was retrieved.
        grades = _numbers(run, "relevance", "The run", allow_missing=True, non_negative=True)
        judged_rows, retrieved = ~np.isnan(grades), ~np.isnan(order_value)
        if not (judged_rows | retrieved).all():
            row = int(np.flatnonzero(~(judged_rows | retrieved))[0])
            raise InvalidInput(
                f"The run row {row + 1} (query {run_queries.iloc[row]!r}, doc {run_docs.iloc[row]!r}) has neither a "
                f"{order_column} nor a relevance: give it a {order_column} if it was retrieved, a relevance if it "
                "was judged, or both."
            )
        judged_row_numbers = np.flatnonzero(judged_rows)
        judged_queries = run_queries[judged_rows].reset_index(drop=True)
        judged_docs = run_docs[judged_rows].reset_index(drop=True)
        grades = grades[judged_rows]
        if not retrieved.all():  # judged documents the run did not retrieve: judgments only
            run_row_numbers = np.flatnonzero(retrieved)
            run_queries = run_queries[retrieved].reset_index(drop=True)
            run_docs = run_docs[retrieved].reset_index(drop=True)
            order_value = order_value[retrieved]
            if run_queries.empty:
                raise InvalidInput(f"The run has no row with a {order_column}: nothing was retrieved.")
    else:
        judged_queries, judged_docs = _ids(qrels, "query", "The qrels"), _ids(qrels, "doc", "The qrels")
        grades = _numbers(qrels, "relevance", "The qrels", non_negative=True)
    return RunColumns(run_queries=run_queries, run_docs=run_docs, order_value=order_value,
                      judged_queries=judged_queries, judged_docs=judged_docs, grades=grades,
                      run_row_numbers=run_row_numbers, judged_row_numbers=judged_row_numbers,
                      judgment_source="The qrels" if qrels is not None else "The run")


def _require_frame(frame, name: str, needed: tuple[str, ...], hint: str) -> None:
    if not isinstance(frame, pd.DataFrame):
        raise InvalidInput(f"{name} must be a pandas DataFrame with columns {hint}, got {type(frame).__name__}.")
    absent = [column for column in needed if column not in frame.columns]
    if absent:
        have = ", ".join(map(str, frame.columns)) or "none"
        raise InvalidInput(f"{name} is missing column(s) {', '.join(absent)}: it needs {hint} (it has: {have}).")
    if len(frame) == 0:
        raise InvalidInput(f"{name} is empty: it needs at least one row.")


def _ids(frame: pd.DataFrame, column: str, name: str) -> pd.Series:
    """The ``column`` of ``frame`` (index reset), refusing empty cells."""
    values = frame[column]
    if values.dtype == object:
        # Python objects: a separate isna pass costs as much as encoding them, so the id encoder finds empty
        # cells instead (they get code -1) and names the row (see ndcg_core._encode.refuse_empty_ids).
        return values.reset_index(drop=True)
    # (A categorical column marks an empty cell with code -1: one pass over small integers.)
    codes = values.array.codes if isinstance(values.dtype, pd.CategoricalDtype) else None
    if codes is not None and (codes.size == 0 or codes.min() >= 0):  # one pass, no temporary array
        missing = None
    else:
        missing = (codes < 0) if codes is not None else values.isna().to_numpy()
    if missing is not None and missing.any():
        row = int(np.flatnonzero(missing)[0]) + 1
        raise InvalidInput(f"{name} row {row}: the {column} id is empty. Every row needs a {column} id.")
    # Kept as given (text, categorical, numbers): the id encoder decides how to compare them as text.
    return values.reset_index(drop=True)


def text_categories(values: pd.Series) -> pd.Index | None:
    """The categories of a categorical id column when they are distinct text, else None.

    Categories that are not text (numbers, say) are turned into text; if two
    of them then read the same (1 and "1"), None: the caller falls back to
    comparing the ids as text row by row.
    """
    if not isinstance(values.dtype, pd.CategoricalDtype):
        return None
    categories = values.dtype.categories
    if isinstance(categories.dtype, pd.StringDtype):
        return categories
    if categories.dtype == object and pd.api.types.infer_dtype(categories, skipna=False) == "string":
        return categories
    as_text = categories.astype(str)
    return as_text if as_text.is_unique else None


def _numbers(frame: pd.DataFrame, column: str, name: str, *, allow_missing: bool = False,
             non_negative: bool = False) -> np.ndarray:
    """The ``column`` as a float array; the first bad row is named in the error."""
    raw = frame[column]
    if raw.dtype == np.float64 or pd.api.types.is_integer_dtype(raw.dtype) and not raw.hasnans:
        # Already numbers (e.g. from the file readers): one finiteness pass instead of parsing.
        values = raw.to_numpy(dtype=float)
        # A finite sum means every value is finite (a NaN or an infinity makes the sum NaN or infinite);
        # a huge finite sum that overflows only sends us to the full check below.
        finite = bool(np.isfinite(values.sum())) or bool(np.isfinite(values).all())
        if (finite or allow_missing and not np.isinf(values).any()) and not (
                non_negative and values.size and values.min() < 0):
            return values
    values = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    blank = raw.isna().to_numpy()
    not_number = np.isnan(values) & ~blank
    bad = not_number | (blank & (not allow_missing)) | np.isinf(values)
    if non_negative:
        bad |= values < 0
    if bad.any():
        at = int(np.flatnonzero(bad)[0])
        value = raw.iloc[at]
        where = f"{name} row {at + 1} (query {frame['query'].iloc[at]!r}, doc {frame['doc'].iloc[at]!r})"
        if not_number[at]:
            problem = f"the {column} {value!r} is not a number"
        elif blank[at]:
            problem = f"the {column} is empty"
        elif np.isinf(values[at]):
            problem = f"the {column} is infinite; it must be a finite number"
        else:
            problem = (f"the {column} is negative ({values[at]:g}); negative grades make NDCG unbounded, "
                       "so they are refused")
        raise InvalidInput(f"{where}: {problem}.")
    return values

