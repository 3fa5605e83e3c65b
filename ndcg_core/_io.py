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
are skipped. Ids are kept as text exactly as written (``007`` stays
``007``), in pandas Categorical columns (categories = the distinct ids,
sorted as text): compare and sort them as text as usual.

Sources
-------
A path (``str`` or :class:`os.PathLike`), the file content as ``bytes``, or
an open file object (binary or text; a Streamlit ``UploadedFile`` works).

Text encoding: UTF-8, with or without a byte-order mark. A file that is not
valid UTF-8 is read as Latin-1 (every byte is one character), which is what
older Windows tools usually wrote; ids then keep one character per byte.

Every problem raises :class:`InvalidInput` naming the 1-based line number and
what is wrong. Parsing uses pandas' C parser; the checks are vectorised, so a
1M-line run reads in a few seconds.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Callable

import numpy as np
import pandas as pd

from ._runs import first_repeated_pair
from ._validation import InvalidInput

ProgressCallback = Callable[[float], None] | None

QRELS_FIELDS = ("query", "iteration", "doc", "relevance")
RUN_FIELDS = ("query", "q0", "doc", "rank", "score", "tag")

#: Accepted header names (case-insensitive, surrounding spaces ignored) for read_table.
COLUMN_ALIASES = {
    "query": ("query", "qid", "query_id", "queryid", "topic", "topic_id"),
    "doc": ("doc", "docno", "doc_id", "docid", "document", "document_id", "item", "item_id"),
    "relevance": ("relevance", "rel", "grade", "label", "judgment", "judgement"),
    "score": ("score", "sim", "similarity", "prediction"),
    "rank": ("rank", "position", "pos"),
}

_CHUNK_ROWS = 250_000


# --------------------------------------------------------------------------- public readers


def read_qrels(source, *, progress: ProgressCallback = None) -> pd.DataFrame:
    """Read a TREC qrels file (``query iteration doc relevance`` per line).

    Returns a DataFrame with columns ``query`` and ``doc`` (categorical text, see
    :func:`_categorical`) and
    ``relevance`` (float, non-negative). A (query, doc) pair judged twice is
    refused.
    """
    text = _read_text(source, "qrels file")
    frame = _parse_whitespace(text, QRELS_FIELDS, ("relevance",), "qrels file",
                              "query iteration doc relevance (e.g. 'q1 0 D7 2')", progress)
    relevance = _checked_numbers(frame, text, "qrels file", "relevance", non_negative=True)
    result = pd.DataFrame({"query": _categorical(frame["query"]), "doc": _categorical(frame["doc"]),
                           "relevance": relevance})
    _refuse_duplicate_pairs(result, text, "qrels file", "judged")
    return result


def read_run(source, *, progress: ProgressCallback = None) -> pd.DataFrame:
    """Read a TREC run file (``query Q0 doc rank score tag`` per line).

    Returns a DataFrame with columns ``query``, ``doc`` (categorical text), ``rank``
    (int), ``score`` (float) and ``tag`` (text), in file order. A document
    retrieved twice for the same query is refused.
    """
    text = _read_text(source, "run file")
    frame = _parse_whitespace(text, RUN_FIELDS, ("rank", "score"), "run file",
                              "query Q0 doc rank score tag (e.g. 'q1 Q0 D3 1 12.5 run1')", progress)
    rank = _checked_numbers(frame, text, "run file", "rank")
    whole = rank == np.floor(rank)
    if not whole.all():
        row = int(np.flatnonzero(~whole)[0])
        raise InvalidInput(f"run file, line {_line_of(text, row)}: the rank {rank[row]:g} is not a whole number.")
    score = _checked_numbers(frame, text, "run file", "score")
    result = pd.DataFrame(
        {"query": _categorical(frame["query"]), "doc": _categorical(frame["doc"]), "rank": rank.astype(np.int64),
         "score": score,
         "tag": frame["tag"]}
    )
    _refuse_duplicate_pairs(result, text, "run file", "retrieved")
    return result


def read_table(source, *, progress: ProgressCallback = None) -> pd.DataFrame:
    """Read a CSV table with a header: query, doc, relevance, and score and/or rank.

    Header names are matched case-insensitively, with the aliases in
    :data:`COLUMN_ALIASES` (``qid``, ``docno``, ``rel``, ...). The separator
    is detected from the header line (comma, tab or semicolon). Returns the
    columns ``query``, ``doc`` (categorical text, surrounding spaces removed),
    ``relevance`` (float; NaN where the cell is empty, meaning "not judged"),
    ``score`` and/or ``rank`` (float; NaN on rows of judged documents that
    were not retrieved), then any other columns as text. A (query, doc) pair
    listed twice is refused. ``evaluate_run(table)`` understands all of this.
    """
    text = _read_text(source, "table")
    first_line = next((line for line in text.split("\n") if line.strip()), "")
    separator = max((",", "\t", ";"), key=first_line.count)
    header = next(csv.reader([first_line.strip()], delimiter=separator))
    names = _column_names(header)
    numeric = tuple(name for name in ("relevance", "score", "rank") if name in names)
    frame = _fast_table(text, separator, header, names, numeric)
    if frame is None:
        frame = _careful_table(text, separator, names, progress)
    elif progress is not None:
        progress(1.0)
    if len(frame) == 0:
        raise InvalidInput("table: the file has a header but no data rows.")
    for column in ("query", "doc"):
        values = frame[column].fillna("").astype(str).str.strip()
        empty = (values == "").to_numpy()
        if empty.any():
            row = int(np.flatnonzero(empty)[0])
            raise InvalidInput(f"table, line {_line_of(text, row, header=True)}: the {column} cell is empty.")
        frame[column] = values
    result = {"query": _categorical(frame["query"]), "doc": _categorical(frame["doc"])}
    result["relevance"] = _checked_numbers(frame, text, "table", "relevance", non_negative=True, allow_empty=True,
                                           header=True)
    for column in ("score", "rank"):
        if column in frame.columns:
            result[column] = _checked_numbers(frame, text, "table", column, header=True)
    _check_retrieval_cells(result, text)
    extras = {name: frame[name] for name in frame.columns if name not in result}
    table = pd.DataFrame({**result, **extras})
    _refuse_duplicate_pairs(table, text, "table", "listed", header=True)
    return table


# --------------------------------------------------------------------------- reading bytes and text


def _read_text(source, what: str) -> str:
    data = _read_source(source, what)
    if isinstance(data, str):
        text = data
    else:
        if b"\x00" in data:
            line = data[: data.index(b"\x00")].count(b"\n") + 1
            raise InvalidInput(
                f"{what}, line {line}: the file contains a NUL byte, so it looks like a binary file "
                "(for example a spreadsheet or a zip), not text. Save it as plain UTF-8 text."
            )
        text = _decode(data)
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise InvalidInput(f"The {what} is empty: it has no lines with data.")
    return text


def _read_source(source, what: str) -> bytes | str:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, (str, os.PathLike)):
        try:
            with open(source, "rb") as handle:
                return handle.read()
        except FileNotFoundError:
            raise InvalidInput(f"The {what} {os.fspath(source)!r} does not exist.") from None
        except IsADirectoryError:
            raise InvalidInput(f"The {what} {os.fspath(source)!r} is a folder, not a file.") from None
        except OSError as error:
            raise InvalidInput(f"The {what} {os.fspath(source)!r} cannot be read: {error.strerror}.") from None
    # A file object: prefer getvalue() (BytesIO, Streamlit UploadedFile), which ignores the read position.
    reader = getattr(source, "getvalue", None) or getattr(source, "read", None)
    if reader is None:
        raise InvalidInput(
            f"The {what} must be a file path, the file's bytes or an open file, got {type(source).__name__}."
        )
    data = reader()
    if not isinstance(data, (bytes, bytearray, str)):
        raise InvalidInput(f"Reading the {what} gave {type(data).__name__}, not text or bytes.")
    return data if isinstance(data, str) else bytes(data)


def _decode(data: bytes) -> str:
    """UTF-8 (a BOM is dropped by the caller); anything else is read as Latin-1."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


# --------------------------------------------------------------------------- parsing
#
# Two paths. The fast one hands the bytes to pandas' multi-threaded pyarrow
# CSV engine with a single-character separator and typed numeric columns; it
# gives up (returns None) on anything unusual: quotes, several spaces or tabs
# in a row, a wrong field count, a non-number, "nan". The careful one uses the
# C parser with any run of whitespace as separator, reads every field as
# text, and then finds the first bad line for the error message.


def _parse_whitespace(text: str, fields: tuple[str, ...], numeric: tuple[str, ...], what: str, layout: str,
                      progress: ProgressCallback) -> pd.DataFrame:
    if progress is not None:
        progress(0.0)
    frame = _fast_whitespace(text, fields, numeric)
    if frame is not None:
        if progress is not None:
            progress(1.0)
        return frame
    counts = _fields_per_line(text)
    wrong = (counts != 0) & (counts != len(fields))
    if wrong.any():
        line = int(np.flatnonzero(wrong)[0])
        count = int(counts[line])
        raise InvalidInput(
            f"{what}, line {line + 1}: found {count} field(s), expected {len(fields)}: "
            f"each line must be {layout}.{_format_hint(count, fields)}"
        )
    try:
        reader = pd.read_csv(
            io.StringIO(text), sep=r"\s+", header=None, names=list(fields), dtype=str,
            quoting=csv.QUOTE_NONE, keep_default_na=False, na_values=[], engine="c", chunksize=_CHUNK_ROWS,
        )
        frame = _collect_chunks(reader, text, progress)
    except pd.errors.ParserError as error:  # not expected after the field count check
        raise InvalidInput(f"{what}: {_parser_problem(error, len(fields))}; each line must be {layout}.") from None
    for column in numeric:
        frame[column] = _numeric(frame[column], text, what, column, non_negative=column == "relevance")
    return frame


def _fields_per_line(text: str) -> np.ndarray:
    """Number of whitespace-separated fields on each line (vectorised over the bytes)."""
    data = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
    newline = data == 10
    gap = newline | (data == 32) | (data == 9) | (data == 13)
    field_start = np.flatnonzero(~gap[1:] & gap[:-1]) + 1
    if data.size and not gap[0]:
        field_start = np.r_[0, field_start]
    line_start = np.r_[0, np.flatnonzero(newline) + 1, data.size + 1]
    # Fields starting before each line's start, differenced: fields per line.
    return np.diff(np.searchsorted(field_start, line_start)) if data.size else np.zeros(1, dtype=np.int64)


def _looks_plain(text: str) -> bool:
    """True when the fast parser can be trusted: no quotes and no spelled-out NaN."""
    return '"' not in text and "nan" not in text.lower()


def _fast_whitespace(text: str, fields: tuple[str, ...], numeric: tuple[str, ...]) -> pd.DataFrame | None:
    if not _looks_plain(text):
        return None
    first_line = next((line for line in text.split("\n", 20) if line.strip()), "")
    separator = "\t" if "\t" in first_line and " " not in first_line.strip() else " "
    # Without a header pyarrow names the columns f0, f1, ...: text columns must be typed as text while
    # parsing, or an id such as 007 would be read as the number 7.
    text_columns = {f"f{i}": str for i, name in enumerate(fields) if name not in numeric}
    frame = _try_pyarrow(text, sep=separator, header=None, dtype=text_columns)
    if frame is None or frame.shape[1] != len(fields):
        return None
    frame.columns = list(fields)
    return _typed_or_none(frame, fields, numeric, allow_empty=())


def _fast_table(text: str, separator: str, header: list[str], names: list[str],
                numeric: tuple[str, ...]) -> pd.DataFrame | None:
    if not _looks_plain(text):
        return None
    text_columns = {original: str for original, name in zip(header, names, strict=True) if name not in numeric}
    frame = _try_pyarrow(text, sep=separator, header=0, dtype=text_columns)
    if frame is None or [str(c) for c in frame.columns] != header:
        return None
    frame.columns = names
    return _typed_or_none(frame, names, numeric, allow_empty=("relevance", "score", "rank"))


def _typed_or_none(frame: pd.DataFrame, names, numeric, *, allow_empty) -> pd.DataFrame | None:
    """The frame with float numeric columns, or None when anything needs the careful path."""
    for name in names:
        column = frame[name]
        if name in numeric:
            if not pd.api.types.is_numeric_dtype(column.dtype) or pd.api.types.is_bool_dtype(column.dtype):
                return None  # a non-number somewhere (or an all-empty column)
            values = column.to_numpy(dtype=float, na_value=np.nan)
            if np.isinf(values).any() or (np.isnan(values).any() and name not in allow_empty):
                return None
            frame[name] = values
        elif not pd.api.types.is_string_dtype(column.dtype):
            return None
        elif name in ("query", "doc"):
            if column.isna().any():
                return None
        else:
            frame[name] = column.fillna("")
    return frame


def _try_pyarrow(text: str, **options) -> pd.DataFrame | None:
    try:
        return pd.read_csv(io.BytesIO(text.encode("utf-8")), engine="pyarrow", keep_default_na=False,
                           na_values=[""], **options)
    except (ValueError, TypeError, KeyError, ImportError, pd.errors.ParserError):
        # ParserError is a ValueError; a missing pyarrow is an ImportError.
        return None


def _careful_table(text: str, separator: str, names: list[str], progress: ProgressCallback) -> pd.DataFrame:
    # One spare column catches lines with one cell too many; more than that is a ParserError.
    spare = "__spare__"
    try:
        reader = pd.read_csv(io.StringIO(text), sep=separator, header=None, skiprows=_header_skip(text),
                             names=[*names, spare], dtype=str, keep_default_na=False, skipinitialspace=True,
                             engine="c", chunksize=_CHUNK_ROWS)
        frame = _collect_chunks(reader, text, progress)
    except pd.errors.ParserError as error:
        raise InvalidInput(
            f"table: {_parser_problem(error, len(names))} like the header ({', '.join(names)})."
        ) from None
    if len(frame) == 0:
        return frame
    too_many = (frame[spare].notna() & (frame[spare] != "")).to_numpy()
    too_few = frame[names[-1]].isna().to_numpy()
    if too_many.any() or too_few.any():
        row = int(np.flatnonzero(too_many | too_few)[0])
        kind = "more" if too_many[row] else "fewer"
        raise InvalidInput(
            f"table, line {_line_of(text, row, header=True)}: the line has {kind} cells than the header "
            f"({len(names)} columns: {', '.join(names)})."
        )
    frame = frame.drop(columns=spare)
    for column in ("relevance", "score", "rank"):
        if column in frame.columns:
            frame[column] = _numeric(frame[column], text, "table", column, non_negative=column == "relevance",
                                     allow_empty=True, header=True)
    return frame


def _header_skip(text: str) -> int:
    """Lines up to and including the header (blank lines before it are skipped too)."""
    for number, line in enumerate(text.split("\n", 1000), start=1):
        if line.strip():
            return number
    return 0


def _format_hint(count: int, fields: tuple[str, ...]) -> str:
    if fields == RUN_FIELDS and count == len(QRELS_FIELDS):
        return " This looks like a qrels file: use the judgments (qrels) upload for it."
    if fields == QRELS_FIELDS and count == len(RUN_FIELDS):
        return " This looks like a run file: use the run upload for it."
    return ""


def _collect_chunks(reader, text: str, progress: ProgressCallback) -> pd.DataFrame:
    total_lines = max(text.count("\n") + 1, 1)
    chunks = []
    rows = 0
    for chunk in reader:
        chunks.append(chunk)
        rows += len(chunk)
        if progress is not None:
            progress(min(rows / total_lines, 1.0))
    if progress is not None:
        progress(1.0)
    if not chunks:
        return pd.DataFrame()
    return pd.concat(chunks, ignore_index=True) if len(chunks) > 1 else chunks[0].reset_index(drop=True)


def _parser_problem(error: Exception, expected: int) -> str:
    """Turn pandas' "Expected 5 fields in line 7, saw 6" into plain words."""
    message = str(error)
    marker = "Expected "
    if marker in message:
        detail = message[message.index(marker):].strip()
        try:
            line = int(detail.split(" line ")[1].split(",")[0])
            seen = int(detail.rsplit("saw ", 1)[1].split()[0].strip("."))
            return f"line {line} has {seen} cells, expected {expected}"
        except (IndexError, ValueError):
            return detail
    return message.strip().splitlines()[-1]


def _checked_numbers(frame: pd.DataFrame, text: str, what: str, column: str, *, non_negative: bool = False,
                     allow_empty: bool = False, header: bool = False) -> np.ndarray:
    """A numeric column already parsed as floats; negative values refused with their line."""
    values = frame[column].to_numpy(dtype=float, na_value=np.nan)
    if non_negative and (values < 0).any():
        row = int(np.flatnonzero(values < 0)[0])
        raise InvalidInput(
            f"{what}, line {_line_of(text, row, header=header)}: the {column} {values[row]:g} is negative; "
            "negative grades make NDCG unbounded, so they are refused (use 0 for 'not relevant')."
        )
    return values


def _numeric(values: pd.Series, text: str, what: str, column: str, *, non_negative: bool = False,
             allow_empty: bool = False, header: bool = False) -> np.ndarray:
    """Parse a text column as floats; name the first bad line."""
    stripped = values.fillna("").str.strip()
    empty = (stripped == "").to_numpy()
    numbers = pd.to_numeric(stripped.where(~empty), errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    not_number = np.isnan(numbers) & ~empty
    lowered = stripped.str.lower()
    spelled_nan = lowered.isin(["nan", "-nan", "+nan"]).to_numpy()
    bad = not_number | spelled_nan | np.isinf(numbers) | (empty & (not allow_empty))
    if non_negative:
        bad |= numbers < 0
    if not bad.any():
        return numbers
    row = int(np.flatnonzero(bad)[0])
    raw = values.iloc[row]
    if empty[row]:
        problem = f"the {column} is empty"
    elif not_number[row] or spelled_nan[row]:
        problem = f"the {column} {raw!r} is not a number"
    elif np.isinf(numbers[row]):
        problem = f"the {column} {raw!r} is infinite; it must be a finite number"
    else:
        problem = (f"the {column} {raw!r} is negative; negative grades make NDCG unbounded, so they are refused "
                   "(use 0 for 'not relevant')")
    raise InvalidInput(f"{what}, line {_line_of(text, row, header=header)}: {problem}.")


def _check_retrieval_cells(columns: dict, text: str) -> None:
    """Empty score and rank cells mark a judged document the run did not retrieve; it needs a grade."""
    order = [name for name in ("score", "rank") if name in columns]
    empty = np.column_stack([np.isnan(columns[name]) for name in order])
    partly = empty.any(axis=1) & ~empty.all(axis=1)
    if partly.any():
        row = int(np.flatnonzero(partly)[0])
        raise InvalidInput(
            f"table, line {_line_of(text, row, header=True)}: the score or the rank is empty but not both. Fill both, "
            "or leave both empty for a judged document the run did not retrieve."
        )
    orphan = empty.all(axis=1) & np.isnan(columns["relevance"])
    if orphan.any():
        row = int(np.flatnonzero(orphan)[0])
        missing = " and ".join(order)
        raise InvalidInput(
            f"table, line {_line_of(text, row, header=True)}: the {missing} and the relevance are empty. "
            f"A retrieved document needs a {order[0]}; a judged document the run did not retrieve needs a relevance."
        )


def _column_names(header: list[str]) -> list[str]:
    """Canonical names for a CSV header; refuses missing or doubled columns."""
    lookup = {alias: name for name, aliases in COLUMN_ALIASES.items() for alias in aliases}
    names: list[str] = []
    for original in header:
        name = lookup.get(original.strip().lower(), original.strip())
        if name in names:
            raise InvalidInput(f"table: two header columns both mean {name!r}; keep only one.")
        names.append(name)
    absent = [name for name in ("query", "doc", "relevance") if name not in names]
    if absent:
        raise InvalidInput(
            f"table: the header has no {', '.join(absent)} column. The first line must name the columns "
            "query, doc, relevance and score (or rank), e.g. 'query,doc,relevance,score'. "
            f"Found: {', '.join(header)}."
        )
    if "score" not in names and "rank" not in names:
        raise InvalidInput("table: add a score column (higher is better) or a rank column (1 is best) "
                           "so the documents can be ordered.")
    return names


def _refuse_duplicate_pairs(frame: pd.DataFrame, text: str, what: str, verb: str, *, header: bool = False) -> None:
    row = first_repeated_pair(frame["query"], frame["doc"])
    if row is not None:
        raise InvalidInput(
            f"{what}, line {_line_of(text, row, header=header)}: query {frame['query'].iloc[row]!r} "
            f"{verb} document {frame['doc'].iloc[row]!r} a second time. Each (query, doc) pair may appear only once."
        )


def _categorical(ids: pd.Series) -> pd.Categorical:
    """Text ids as a Categorical: each distinct id stored once, categories sorted as text.

    The ids stay exactly the text of the file; only the storage changes. It
    takes far less memory than one string per row (a run retrieves the same
    query id ~100 times), and ``evaluate_run`` works on the integer codes
    instead of hashing a million ids on every call. Sorted categories make
    sorting the column give the same order as sorting the text would.
    """
    codes, uniques = pd.factorize(ids, sort=True)
    return pd.Categorical.from_codes(codes, categories=uniques, validate=False)


def _line_of(text: str, row: int, *, header: bool = False) -> int:
    """1-based file line of data row ``row`` (0-based), skipping blank lines (and the header)."""
    # Only called to build an error message, so splitting the text here is fine.
    seen = -1 if header else 0
    number = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            if seen == row:
                return number
            seen += 1
    return number
