"""Parsing with ``pyarrow.csv`` and turning its columns into the readers' pandas columns.

One parse, multithreaded, with ids dictionary-encoded by the parser and
numbers typed by it. When the parser refuses the file (a wrong field count,
a non-number, a rank too large for 64 bits) nothing of its message reaches
the user: the caller looks for the first bad line itself (field counts are
counted over the bytes with numpy; numbers are parsed again as text and
checked column by column) and names it. Only a failing file pays for that.
"""

from __future__ import annotations

import re
from decimal import Decimal

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from ._byte_keys import byte_order_codes
from ._source import Content, data_lines, decode_ids
from ._validation import InvalidInput

TEXT = pa.dictionary(pa.int32(), pa.string())
BYTES = pa.dictionary(pa.int32(), pa.binary())
_BLOCK = 1 << 22  # 4 MB: larger blocks than pyarrow's 1 MB default, fewer dictionaries to unify
_TEXT_DTYPE = pd.StringDtype("pyarrow", na_value=np.nan)  # pandas' default text dtype, ``str``
_LARGEST_RANK = 2**53  # a float (what pandas and the table keep) counts whole numbers exactly up to here


def text_type(content: Content) -> pa.DataType:
    """Dictionary-encoded text when the file is UTF-8, else bytes (decoded id by id afterwards)."""
    return TEXT if content.utf8 else BYTES


def many_ids_type(content: Content) -> pa.DataType:
    """Plain text for a column of mostly distinct ids (documents), encoded afterwards by one sort."""
    return pa.string() if content.utf8 else BYTES


def one_delimiter(data: bytes) -> tuple[bytes, str]:
    """The delimiter to try first on a TREC file: a space, or a tab when the file has tabs and no spaces."""
    return (" " if b"\t" in data and b" " in data else "\t" if b"\t" in data else " ")


_IS_BLANK = np.zeros(256, dtype=bool)
_IS_BLANK[list(b" \t\x0b\x0c")] = True


def single_spaced(data: bytes) -> bytes:
    """The data with every run of spaces or tabs made one space, and none at a line's start or end.

    TREC files separate fields by any run of whitespace; the parser wants one
    delimiter. Only files the plain parse refused pay for this (every line
    stays where it was, so line numbers still hold).
    """
    if not data:
        return data
    array = np.frombuffer(data, dtype=np.uint8)
    blank = _IS_BLANK[array]
    kept = ~blank
    kept[1:] |= ~blank[:-1]  # a blank is kept when it starts a run of blanks
    kept[0] = True
    array, blank = array[kept], blank[kept]
    array[blank] = 32
    newline = array == 10
    at_edge = np.empty_like(newline)  # a line's first or last byte
    at_edge[0], at_edge[1:] = True, newline[:-1]
    at_edge[:-1] |= newline[1:]
    at_edge[-1] = True
    return array[~(blank & at_edge)].tobytes()


def parse(data: bytes, names: list[str], types: dict[str, pa.DataType], *, delimiter: str,
          quoted: bool, empty_is_null: bool = False, decimal_point: str = ".") -> pa.Table:
    """``pyarrow.csv.read_csv`` without a header row; raises ``pa.ArrowInvalid`` on any problem."""
    block = _BLOCK
    while True:
        try:
            return pacsv.read_csv(
                pa.BufferReader(data),  # zero-copy, and read without the GIL (a Python file object needs it)
                read_options=pacsv.ReadOptions(column_names=names, block_size=block, use_threads=True),
                parse_options=pacsv.ParseOptions(delimiter=delimiter, quote_char='"' if quoted else False,
                                                 ignore_empty_lines=True),
                convert_options=pacsv.ConvertOptions(column_types=types, include_columns=list(types), null_values=[""],
                                                     strings_can_be_null=empty_is_null, quoted_strings_can_be_null=False,
                                                     decimal_point=decimal_point),
            )
        except pa.ArrowInvalid as error:
            # A line longer than a block (a 5 MB id, say) is legal: read again with blocks that hold it.
            if "straddling" not in str(error) or block >= len(data) + 1:
                raise
            block = min(block * 8, len(data) + 1)


def categorical(column: pa.ChunkedArray, *, ids: str, strip: bool = False) -> pd.Categorical:
    """A dictionary column as a pandas Categorical of text, categories distinct and sorted as text.

    The parser encodes each block on its own; the dictionaries are unified
    once, decoded (bytes columns) and stripped (tables) as whole dictionaries,
    and sorted, so the cost grows with the number of distinct ids, not rows.
    """
    if column.num_chunks == 0:
        return pd.Categorical.from_codes(np.zeros(0, dtype=np.int32), categories=pd.Index([], dtype=str))
    if pa.types.is_string(column.type) and not strip:
        return _sorted_codes(column)
    column = column.unify_dictionaries()
    dictionary = column.chunk(0).dictionary
    codes = np.concatenate([chunk.indices.to_numpy(zero_copy_only=False) for chunk in column.chunks])
    merge = strip or pa.types.is_binary(dictionary.type)
    if pa.types.is_binary(dictionary.type):
        dictionary = pa.array(decode_ids(dictionary.to_pylist(), ids=ids), type=pa.string())
    if strip:
        dictionary = pc.utf8_trim_whitespace(dictionary)
    order = pc.array_sort_indices(dictionary).to_numpy()
    ordered = dictionary.take(pa.array(order))
    code_of = np.empty(len(order), dtype=np.int32)
    if merge and len(ordered) > 1:
        # Equal neighbours after sorting (two spellings that strip or decode to one id) share one category.
        new_group = np.ones(len(ordered), dtype=bool)
        new_group[1:] = pc.not_equal(ordered.slice(1), ordered.slice(0, len(ordered) - 1)).to_numpy(
            zero_copy_only=False)
        code_of[order] = np.cumsum(new_group) - 1
        ordered = ordered.filter(pa.array(new_group))
    else:
        code_of[order] = np.arange(len(order), dtype=np.int32)
    categories = pd.Index(pd.arrays.ArrowStringArray(ordered, dtype=_TEXT_DTYPE))
    return pd.Categorical.from_codes(code_of[codes], dtype=_distinct_categories(categories), validate=False)


def not_utf8_ids(column: pa.ChunkedArray) -> int:
    """How many distinct ids of a bytes dictionary column are not valid UTF-8 (0 for a text column)."""
    if column.num_chunks == 0 or not pa.types.is_dictionary(column.type) or \
            not pa.types.is_binary(column.type.value_type):
        return 0
    count = 0
    for value in column.unify_dictionaries().chunk(0).dictionary.to_pylist():
        try:
            value.decode("utf-8")
        except UnicodeDecodeError:
            count += 1
    return count


def _sorted_codes(column: pa.ChunkedArray) -> pd.Categorical:
    """A plain text column (many distinct ids, such as a run's documents) encoded by one sort.

    Cheaper than letting the parser build a dictionary per block and unifying
    them (which hashes every id twice) before sorting the categories anyway:
    the ids are ranked in byte order by :func:`byte_order_codes` (equal ids,
    equal codes), and one row of each code gives the categories.
    """
    ids = column.combine_chunks()
    found = byte_order_codes(ids)
    if found is None:  # ids sharing long prefixes: pyarrow's string sort
        order = pc.array_sort_indices(ids)
        ordered = ids.take(order)
        new_group = np.ones(len(ordered), dtype=bool)
        if len(ordered) > 1:
            new_group[1:] = pc.not_equal(ordered.slice(1), ordered.slice(0, len(ordered) - 1)).to_numpy(
                zero_copy_only=False)
        codes = np.empty(len(ordered), dtype=np.int32)
        codes[order.to_numpy()] = np.cumsum(new_group) - 1
        distinct = ordered.filter(pa.array(new_group))
    else:
        codes, first = found
        distinct = ids.take(pa.array(first))
    categories = pd.Index(pd.arrays.ArrowStringArray(distinct, dtype=_TEXT_DTYPE))
    return pd.Categorical.from_codes(codes, dtype=_distinct_categories(categories), validate=False)


def _distinct_categories(categories: pd.Index) -> pd.CategoricalDtype:
    """The dtype of categories known to be distinct (sorted, merged above): pandas' own constructor would hash
    every id again to check that, which costs as much as the rest of this step on a million ids."""
    from_fastpath = getattr(pd.CategoricalDtype, "_from_fastpath", None)
    return from_fastpath(categories, False) if from_fastpath else pd.CategoricalDtype(categories)


def text(column: pa.ChunkedArray, *, ids: str) -> pd.Series:
    """A dictionary column (a run's tag, a table's extra column) as plain text."""
    return pd.Series(categorical(column, ids=ids)).astype(str)


def first_repeat(query: pd.Categorical, doc: pd.Categorical) -> int | None:
    """Row of the first (query, doc) pair that appeared on an earlier row, or None (on the parser's codes).

    Only rows whose document appears more than once in the file can repeat a
    pair, so only those are sorted (a run retrieves most documents once).
    """
    suspects = np.flatnonzero(np.bincount(doc.codes, minlength=len(doc.categories))[doc.codes] > 1)
    if suspects.size == 0:
        return None
    keys = query.codes[suspects].astype(np.int64) * len(doc.categories) + doc.codes[suspects]
    order = np.argsort(keys, kind="stable")
    repeated = keys[order[1:]] == keys[order[:-1]]
    if not repeated.any():
        return None
    return int(suspects[order[1:][repeated].min()])


def numbers(values: pd.Series | np.ndarray, *, what: str, column: str, lines: LineNumbers,
            non_negative: bool = False, allow_empty: bool = False, whole: bool = False) -> np.ndarray:
    """A column of numbers as floats; the first bad value is refused with its line.

    ``values`` is either an array the parser typed (finite numbers, NaN only
    where a cell was empty) or text the parser could not type, checked here
    value by value (vectorised) to name the first bad line.
    """
    if isinstance(values, np.ndarray):
        if _clean(values, non_negative=non_negative, allow_empty=allow_empty, whole=whole):
            return values
        numeric, raw = values.astype(float), None
        empty = np.isnan(numeric)
        not_number = np.zeros(len(numeric), dtype=bool)
        too_large = np.abs(values) > _LARGEST_RANK if whole else not_number
    else:
        raw = pd.Series(values, dtype=str).str.strip()
        empty = (raw == "").to_numpy()
        spelled_nan = raw.str.lower().isin(["nan", "-nan", "+nan"]).to_numpy()
        numeric = pd.to_numeric(raw.where(~empty & ~spelled_nan), errors="coerce").to_numpy(
            dtype=float, na_value=np.nan)
        not_number = np.isnan(numeric) & ~empty
        too_large = np.abs(np.nan_to_num(numeric)) > _LARGEST_RANK if whole else np.zeros(len(numeric), dtype=bool)
    with np.errstate(invalid="ignore"):
        negative = numeric < 0 if non_negative else np.zeros(len(numeric), dtype=bool)
        fraction = (numeric != np.floor(numeric)) & np.isfinite(numeric) if whole else negative & False
    bad = not_number | np.isinf(numeric) | (empty & (not allow_empty)) | negative | too_large | fraction
    if not bad.any():
        return numeric
    row = int(np.flatnonzero(bad)[0])
    if raw is not None:
        shown = repr(raw.iloc[row])
    elif values.dtype.kind in "iu":  # the exact integer: as a float, 9007199254740993 reads 9.0072e+15, in range
        shown = f"{int(values[row]):,}"
    else:
        shown = f"{numeric[row]:g}"
    if empty[row] and not allow_empty:
        problem = f"the {column} is empty"
    elif not_number[row]:
        problem = f"the {column} {shown} is not a number"
        if raw is not None and re.fullmatch(r"[+-]?\d*,\d+", raw.iloc[row]):
            problem += (f" (a decimal comma? Write {raw.iloc[row].replace(',', '.')}, or separate the cells with "
                        "semicolons and write every number with a comma)")
    elif np.isinf(numeric[row]):
        problem = f"the {column} {shown} is infinite; it must be a finite number"
    elif negative[row]:
        problem = (f"the {column} {shown} is negative; negative grades make NDCG unbounded, so they are refused "
                   "(use 0 for 'not relevant')")
    elif too_large[row]:
        problem = (f"the {column} {shown} is too large: ranks must lie between -{_LARGEST_RANK:,} and "
                   f"{_LARGEST_RANK:,} to be told apart")
    else:
        problem = f"the {column} {numeric[row]:g} is not a whole number"
    raise InvalidInput(f"{what}, line {lines.line(row)}: {problem}.")


def ranks(values: pd.Series | np.ndarray, *, lines: LineNumbers) -> tuple[np.ndarray | pd.arrays.IntegerArray, tuple]:
    """A TREC run's rank field: whole numbers within ±2**53, else empty, and what was left empty.

    trec_eval never reads this field (it orders a query's documents by score), so a rank that is not a whole
    number ("1e3x", a 23-digit number) does not refuse the file: it is kept empty (pandas' nullable ``Int64``) and
    ``(lines, first line, its text)`` says so; ``()`` when every rank was read (the column is then ``int64``).
    """
    if isinstance(values, np.ndarray) and _clean(values, non_negative=False, allow_empty=False, whole=True):
        return values.astype(np.int64, copy=False), ()
    raw = pd.Series(values).astype(str).str.strip()
    numeric = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    with np.errstate(invalid="ignore"):
        unread = ~np.isfinite(numeric) | (np.abs(numeric) > _LARGEST_RANK) | (numeric != np.floor(numeric))
        # Near the bound a float rounds (2**53 + 1 reads 2**53): those few are checked on their exact text.
        for row in np.flatnonzero(~unread & (np.abs(numeric) >= _LARGEST_RANK // 2)):
            unread[row] = abs(Decimal(raw.iloc[row])) > _LARGEST_RANK
    if not unread.any():
        return numeric.astype(np.int64), ()
    # Exact integers from the text (a float keeps whole numbers exactly up to 2**53, which is the bound).
    whole = np.where(unread, 0, numeric).astype(np.int64)
    first = int(np.flatnonzero(unread)[0])
    return pd.arrays.IntegerArray(whole, unread), (int(unread.sum()), lines.line(first), raw.iloc[first])


def _clean(values: np.ndarray, *, non_negative: bool, allow_empty: bool, whole: bool) -> bool:
    """Quick pass for what the parser typed: True when no value needs a closer look."""
    if values.size == 0:
        return True
    if values.dtype.kind in "iu":
        low, high = values.min(), values.max()
        return (not non_negative or low >= 0) and (not whole or (low >= -_LARGEST_RANK and high <= _LARGEST_RANK))
    if whole:
        return False
    if not allow_empty and np.isnan(values).any():
        return False
    return not non_negative or not (values < 0).any()


def column_numbers(column: pa.ChunkedArray) -> np.ndarray | None:
    """A parser-typed numeric column as a numpy array (NaN where empty), or None when it holds a NaN or an
    infinity the parser accepted (``nan``, ``inf``): the caller then re-reads the file as text to refuse it."""
    if pa.types.is_floating(column.type):
        if pc.any(pc.is_nan(column)).as_py() or pc.any(pc.is_inf(column)).as_py():
            return None
        return column.to_numpy()
    if pa.types.is_integer(column.type) and column.null_count == 0:
        return column.to_numpy()
    if pa.types.is_null(column.type):  # every cell empty
        return np.full(len(column), np.nan)
    return column.to_numpy().astype(float) if pa.types.is_integer(column.type) else None


def grades(column: pa.ChunkedArray, *, what: str, lines: LineNumbers,
           reading: str) -> tuple[np.ndarray, tuple, tuple]:
    """A qrels relevance column (dictionary text) as floats, and how trec_eval's reading would differ.

    Each distinct text is converted once, both ways: as a number (ndcg_core's
    reading: ``1.5`` is 1.5, ``1e1`` is 10; NaN and infinities refused with
    their line) and with C ``atol`` (trec_eval's reading: ``1.5`` is 1,
    ``1e1`` is 1, ``abc`` is 0). A negative grade is 0 in both: judged, not
    relevant, as trec_eval reads it (TREC Web track qrels grade spam -2).
    ``reading`` picks which one is returned. The second item is ``()`` when
    both readings agree on every line, else ``(lines that differ, example
    text, ndcg_core's value, trec_eval's value)``; the third is ``()``
    without negative grades, else ``(lines, example text)``.
    """
    column = column.unify_dictionaries() if column.num_chunks else column
    texts = column.chunk(0).dictionary.to_pylist() if column.num_chunks else []
    texts = [value.decode("latin-1") if isinstance(value, bytes) else value for value in texts]
    codes = np.concatenate([chunk.indices.to_numpy(zero_copy_only=False) for chunk in column.chunks]) \
        if column.num_chunks else np.zeros(0, dtype=np.int32)
    trec = np.maximum(np.array([_atol(text) for text in texts] or [0], dtype=float), 0.0)
    raw = pd.Series(texts, dtype=str).str.strip()
    numeric = pd.to_numeric(raw.where(~raw.str.lower().isin(["nan", "-nan", "+nan"]) & (raw != "")),
                            errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    per_text = np.bincount(codes, minlength=len(texts))
    negatives = _used(numeric < 0, per_text, texts)
    if reading == "trec_eval":
        return trec[codes], (), negatives
    bad = ~np.isfinite(numeric)
    if bad.any():  # name the first line holding a bad text
        row = int(np.flatnonzero(bad[codes])[0])
        numbers(pd.Series([texts[codes[row]]]), what=what, column="relevance", lines=_Shifted(lines, row))
    numeric = np.maximum(numeric, 0.0)
    values = numeric[codes] if len(texts) else np.zeros(0)
    differs = _used(numeric != trec, per_text, texts)
    if not differs:
        return values, (), negatives
    first = texts.index(differs[1])
    return values, (*differs, float(numeric[first]), float(trec[first])), negatives


def _used(flagged: np.ndarray, per_text: np.ndarray, texts: list[str]) -> tuple:
    """``(lines, the first such text that occurs)`` for the distinct texts ``flagged``, or ``()`` if none occurs."""
    occurring = flagged & (per_text > 0)
    if not occurring.any():
        return ()
    return int(per_text[occurring].sum()), texts[int(np.flatnonzero(occurring)[0])]


class _Shifted:
    """Line numbers for a one-row check of row ``row``."""

    def __init__(self, lines: LineNumbers, row: int) -> None:
        self.lines, self.row = lines, row

    def line(self, _row: int) -> int:
        return self.lines.line(self.row)


_ATOL = re.compile(rb"[ \t\n\v\f\r]*([+-]?[0-9]+)")
_LONG_MAX = 2**63 - 1


def _atol(value: str | bytes) -> int:
    match = _ATOL.match(value.encode() if isinstance(value, str) else value)
    if match is None:
        return 0
    return max(-_LONG_MAX - 1, min(_LONG_MAX, int(match.group(1))))


class LineNumbers:
    """Maps a parsed row to its 1-based line in the file; built only when a message needs it."""

    def __init__(self, data: bytes, *, first_line: int = 1) -> None:
        self.data = data
        self.first_line = first_line
        self._lines: np.ndarray | None = None

    def line(self, row: int) -> int:
        if self._lines is None:
            self._lines = data_lines(self.data, first_line=self.first_line)
        return int(self._lines[row]) if row < len(self._lines) else int(self._lines[-1])
