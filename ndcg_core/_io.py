"""Readers for judgment (qrels) files, run files and CSV tables.

Formats
-------
* qrels (TREC): one judgment per line, ``query iteration doc relevance``,
  e.g. ``q1 0 D7 2``; the iteration column is ignored.
* run (TREC): one retrieved document per line,
  ``query Q0 doc rank score tag``, e.g. ``q1 Q0 D3 1 12.5 mysystem``.
* table (CSV): a header row naming the columns ``query``, ``doc``,
  ``relevance`` and ``score`` and/or ``rank`` (see :data:`COLUMN_ALIASES` for
  accepted alternative names), separated by commas, tabs or semicolons.
  An empty relevance cell means "not judged"; a row whose score and rank
  cells are empty is a judged document the run did not retrieve (it enters
  the ideal list only, as in trec_eval).

TREC files are whitespace separated (spaces or tabs, any number); blank lines
are skipped; quotes are part of the ids. Ids are kept as text exactly as
written (``007`` stays ``007``), in pandas Categorical columns (categories =
the distinct ids, sorted as text): compare and sort them as text as usual.

Sources, encodings, line ends
-----------------------------
A path (``str`` or :class:`os.PathLike`), the file content as ``bytes``, or
an open file object (binary or text; a Streamlit ``UploadedFile`` works).
UTF-8 with or without a byte-order mark, UTF-16 with one; an id that is not
valid UTF-8 is read as Latin-1, id by id (so files mixing the two read as
meant); ``\\n``, ``\\r\\n`` and ``\\r`` line ends. See :mod:`ndcg_core._source`.

Reading as trec_eval reads
--------------------------
``reading="trec_eval"`` (read_qrels, read_run) reproduces trec_eval's own
parsing where it differs from the default: the relevance field goes through
C ``atol`` (``1.5`` is 1, ``1e1`` is 1, ``2.9`` is 2; a negative grade is 0 in
both readings), and an id that is not valid UTF-8
keeps its bytes (shown with ``\\xNN`` escapes) instead of being read as
Latin-1, so it matches only the same bytes in the other file, as trec_eval's
``strcmp`` does. The default reading keeps fractional grades and reads such
ids as Latin-1 text.

Parsing is ``pyarrow.csv`` (multithreaded C++) with the ids dictionary-encoded
by the parser; a 1M-line run reads in a few tenths of a second. Every problem
raises :class:`InvalidInput` naming the 1-based line number and what is
wrong, never the parser's own message: the line is looked for only when the
parse fails (see :mod:`ndcg_core._parse`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import pyarrow as pa

from ._parse import (
    LineNumbers,
    categorical,
    column_numbers,
    first_repeat,
    grades,
    many_ids_type,
    not_utf8_ids,
    numbers,
    one_delimiter,
    parse,
    ranks,
    single_spaced,
    text_type,
)
from ._source import Content, read_content
from ._table import COLUMN_ALIASES, read_table_content
from ._validation import InvalidInput

ProgressCallback = Callable[[float], None] | None

QRELS_FIELDS = ("query", "iteration", "doc", "relevance")
RUN_FIELDS = ("query", "q0", "doc", "rank", "score", "tag")
READINGS = ("ndcg_core", "trec_eval")

__all__ = ["COLUMN_ALIASES", "READINGS", "read_qrels", "read_run", "read_table"]


def read_qrels(source, *, reading: str = "ndcg_core", progress: ProgressCallback = None) -> pd.DataFrame:
    """Read a TREC qrels file (``query iteration doc relevance`` per line).

    Returns a DataFrame with columns ``query`` and ``doc`` (categorical text)
    and ``relevance`` (float, non-negative). A (query, doc) pair judged twice
    is refused. A negative grade (the TREC Web tracks grade spam -2) is read
    as 0, judged and not relevant, as trec_eval and pytrec_eval read it;
    ``attrs["negative_grades"]`` is then ``(lines, example text)``, else
    ``()``. ``reading="trec_eval"`` parses the relevance with C ``atol`` and
    keeps non-UTF-8 ids as bytes, as trec_eval does (see the module notes).

    >>> read_qrels(b"q1 0 A 2\\nq1 0 B 1.5\\n")["relevance"].tolist()
    [2.0, 1.5]
    >>> spam = read_qrels(b"q1 0 A 2\\nq1 0 B -2\\n")
    >>> spam["relevance"].tolist(), spam.attrs["negative_grades"]
    ([2.0, 0.0], (1, '-2'))
    >>> read_qrels(b"q1 0 A 2\\nq1 0 B 1.5\\n", reading="trec_eval")["relevance"].tolist()
    [2.0, 1.0]
    """
    ids = _ids(reading)
    what = "qrels file"
    _report(progress, 0.0)
    content = read_content(source, what)
    # Relevance as dictionary text: a few distinct values, each read both ways (ours and trec_eval's) once.
    table, lines = _whitespace(content, QRELS_FIELDS, {"relevance": text_type(content)}, what,
                               "query iteration doc relevance (e.g. 'q1 0 D7 2')", progress)
    query, doc = categorical(table["query"], ids=ids), categorical(table["doc"], ids=ids)
    relevance, grade_difference, negatives = grades(table["relevance"], what=what, lines=lines, reading=reading)
    frame = pd.DataFrame({"query": query, "doc": doc, "relevance": relevance})
    _refuse_repeats(frame, what, "judged", lines)
    _note_differences(frame, table, reading, relevance=grade_difference)
    frame.attrs["negative_grades"] = negatives
    _report(progress, 1.0)
    return frame


def read_run(source, *, reading: str = "ndcg_core", progress: ProgressCallback = None) -> pd.DataFrame:
    """Read a TREC run file (``query Q0 doc rank score tag`` per line).

    Returns a DataFrame with columns ``query``, ``doc`` (categorical text),
    ``rank`` (int), ``score`` (float) and ``tag`` (categorical text), in file order. A
    document retrieved twice for the same query is refused. Documents are
    ordered by score, as trec_eval orders them; trec_eval never reads the rank
    field, so a rank that is not a whole number within ±2**53 is kept empty
    (the column is then pandas' nullable ``Int64``) and ``attrs["unread_ranks"]``
    is ``(lines, first line, its text)``, else ``()``. ``reading="trec_eval"``
    keeps non-UTF-8 ids as bytes, as trec_eval compares them (see the module notes).

    >>> odd = read_run(b"q1 Q0 A 1 2.5 r\\nq1 Q0 B 99999999999999999999999 1.5 r\\n")
    >>> odd["rank"].tolist(), odd.attrs["unread_ranks"]
    ([1, <NA>], (1, 2, '99999999999999999999999'))
    """
    ids = _ids(reading)
    what = "run file"
    _report(progress, 0.0)
    content = read_content(source, what)
    table, lines = _whitespace(content, RUN_FIELDS, {"rank": pa.int64(), "score": pa.float64()}, what,
                               "query Q0 doc rank score tag (e.g. 'q1 Q0 D3 1 12.5 run1')", progress)
    rank, unread_ranks = ranks(_values(table["rank"]), lines=lines)
    score = numbers(_values(table["score"]), what=what, column="score", lines=lines)
    frame = pd.DataFrame({
        "query": categorical(table["query"], ids=ids), "doc": categorical(table["doc"], ids=ids),
        "rank": rank, "score": score, "tag": categorical(table["tag"], ids=ids),
    })
    _refuse_repeats(frame, what, "retrieved", lines)
    _note_differences(frame, table, reading)
    frame.attrs["unread_ranks"] = unread_ranks
    _report(progress, 1.0)
    return frame


def read_table(source, *, progress: ProgressCallback = None) -> pd.DataFrame:
    """Read a CSV table with a header: query, doc, relevance, and score and/or rank.

    Header names are matched case-insensitively, with the aliases in
    :data:`COLUMN_ALIASES` (``qid``, ``docno``, ``rel``, ...). The separator
    is detected from the header line (comma, tab or semicolon); cells may be
    quoted with ``"``. A semicolon-separated table whose numbers use the
    decimal comma (``0,5``, as spreadsheets write in many locales) is read so. Returns the columns ``query``, ``doc`` (categorical
    text, surrounding spaces removed), ``relevance`` (float; NaN where the
    cell is empty, meaning "not judged"), ``score`` and/or ``rank`` (float;
    NaN on rows of judged documents that were not retrieved), then any other
    columns as text. A (query, doc) pair listed twice is refused.
    ``evaluate_run(table)`` understands all of this.
    """
    _report(progress, 0.0)
    content = read_content(source, "table")
    frame, lines = read_table_content(content)
    _refuse_repeats(frame, "table", "listed", lines)
    _report(progress, 1.0)
    return frame


# --------------------------------------------------------------------------- TREC files


def _whitespace(content: Content, fields: tuple[str, ...], numeric: dict[str, pa.DataType], what: str,
                layout: str, progress: ProgressCallback) -> tuple[pa.Table, LineNumbers]:
    """Parse a whitespace-separated TREC file; numbers typed by the parser, or as text when it refused them."""
    data, delimiter = content.data, one_delimiter(content.data)
    _report(progress, 0.1)
    ids = text_type(content)
    names = list(fields)
    types = {name: numeric.get(name, ids) for name in names if name not in ("iteration", "q0")}
    types["doc"] = many_ids_type(content)
    table = _plain(data, names, types, delimiter, numeric)
    if table is None:  # runs of spaces or tabs, leading or trailing ones, or a bad line somewhere
        data, delimiter = single_spaced(data), " "
        table = _plain(data, names, types, delimiter, numeric)
    lines = LineNumbers(data)
    if table is None:
        _refuse_field_counts(data, delimiter, fields, what, layout, lines)
        try:  # the field counts are right: some number is not, and the checks on the text will say which
            table = parse(data, names, dict.fromkeys(types, ids), delimiter=delimiter, quoted=False)
        except pa.ArrowInvalid:
            raise InvalidInput(f"{what}: the file could not be read; each line must be {layout}.") from None
    _report(progress, 0.6)
    return table, lines


def _plain(data: bytes, names: list[str], types: dict[str, pa.DataType], delimiter: str,
           numeric: dict[str, pa.DataType]) -> pa.Table | None:
    """The parse of a file with one delimiter between fields and every number typed, else None.

    An empty field (two delimiters in a row, one at a line's start or end) is
    read as null and makes this fail, so a doubled space can never shift the
    fields of a line and go unnoticed.
    """
    try:
        table = parse(data, names, types, delimiter=delimiter, quoted=False, empty_is_null=True)
    except pa.ArrowInvalid:
        return None
    if any(table[name].null_count for name in types):
        return None
    if any(column_numbers(table[name]) is None for name in numeric if not pa.types.is_dictionary(types[name])):
        return None
    return table


def _refuse_field_counts(data: bytes, delimiter: str, fields: tuple[str, ...], what: str, layout: str,
                         lines: LineNumbers) -> None:
    """Refuse the first non-blank line without exactly ``len(fields)`` fields (counted over the bytes)."""
    array = np.frombuffer(data, dtype=np.uint8)
    newline = np.flatnonzero(array == 10)
    starts, ends = np.r_[0, newline + 1], np.r_[newline, array.size]
    gaps = np.flatnonzero(array == ord(delimiter))
    counts = np.searchsorted(gaps, ends) - np.searchsorted(gaps, starts) + 1
    counts = counts[ends > starts]  # the parser's rows: blank lines are skipped
    wrong = np.flatnonzero(counts != len(fields))
    if wrong.size:
        row = int(wrong[0])
        count = int(counts[row])
        raise InvalidInput(
            f"{what}, line {lines.line(row)}: found {count} field(s), expected {len(fields)}: "
            f"each line must be {layout}.{_format_hint(count, fields)}"
        )


def _format_hint(count: int, fields: tuple[str, ...]) -> str:
    if fields == RUN_FIELDS and count == len(QRELS_FIELDS):
        return " This looks like a qrels file: use the judgments (qrels) upload for it."
    if fields == QRELS_FIELDS and count == len(RUN_FIELDS):
        return " This looks like a run file: use the run upload for it."
    return ""


# --------------------------------------------------------------------------- shared


def _values(column: pa.ChunkedArray) -> np.ndarray | pd.Series:
    """Numbers the parser typed (numpy), else the column's text for :func:`numbers` to check."""
    if pa.types.is_dictionary(column.type) or pa.types.is_string(column.type) or pa.types.is_binary(column.type):
        return pd.Series(categorical(column, ids="text")).astype(str)
    return column_numbers(column)


def _refuse_repeats(frame: pd.DataFrame, what: str, verb: str, lines: LineNumbers) -> None:
    row = first_repeat(frame["query"].array, frame["doc"].array)
    if row is not None:
        raise InvalidInput(
            f"{what}, line {lines.line(row)}: query {frame['query'].iloc[row]!r} "
            f"{verb} document {frame['doc'].iloc[row]!r} a second time. Each (query, doc) pair may appear only once."
        )


def _note_differences(frame: pd.DataFrame, table: pa.Table, reading: str, *, relevance: tuple = ()) -> None:
    """Record in ``frame.attrs["trec_eval_differences"]`` where trec_eval would read this file otherwise.

    ``{"relevance": (lines, example text, ndcg_core's value, trec_eval's value)}`` when some grade text
    reads differently (``1.5``, ``1e1``), ``{"ids": distinct ids}`` when some ids are not UTF-8 (read as
    Latin-1 here, compared as bytes by trec_eval). Empty when both readings agree (always for
    ``reading="trec_eval"``).
    """
    differences: dict[str, object] = {}
    if reading == "ndcg_core":
        if relevance:
            differences["relevance"] = relevance
        ids = not_utf8_ids(table["query"]) + not_utf8_ids(table["doc"])
        if ids:
            differences["ids"] = ids
    frame.attrs["trec_eval_differences"] = differences


def _ids(reading: str) -> str:
    if reading not in READINGS:
        raise InvalidInput(f"reading must be one of {', '.join(map(repr, READINGS))}, got {reading!r}.")
    return "bytes" if reading == "trec_eval" else "text"


def _report(progress: ProgressCallback, fraction: float) -> None:
    if progress is not None:
        progress(fraction)




def _categorical(ids: pd.Series) -> pd.Categorical:
    """Text ids in memory as the readers give them: a Categorical with distinct categories sorted as text."""
    codes, uniques = pd.factorize(ids, sort=True)
    return pd.Categorical.from_codes(codes, categories=uniques, validate=False)
