"""The CSV table format of :func:`ndcg_core.read_table`: header, aliases, cells and their checks."""

from __future__ import annotations

import contextlib
import re

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv

from ._parse import LineNumbers, categorical, column_numbers, numbers, parse, text, text_type
from ._source import Content, decode_ids
from ._validation import InvalidInput

#: Accepted header names (case-insensitive, surrounding spaces ignored) for read_table.
COLUMN_ALIASES = {
    "query": ("query", "qid", "query_id", "queryid", "topic", "topic_id"),
    "doc": ("doc", "docno", "doc_id", "docid", "document", "document_id", "item", "item_id"),
    "relevance": ("relevance", "rel", "grade", "label", "judgment", "judgement"),
    "score": ("score", "sim", "similarity", "prediction"),
    "rank": ("rank", "position", "pos"),
}
NUMERIC = ("relevance", "score", "rank")


def read_table_content(content: Content) -> tuple[pd.DataFrame, LineNumbers]:
    """The table's columns (see :func:`ndcg_core.read_table`) and its row-to-line map."""
    data = content.data
    if re.search(rb"(?m)^[ \t]+$", data):  # whitespace-only lines are blank lines, as in TREC files
        data = re.sub(rb"(?m)^[ \t]+$", b"", data)
    header_line, body_start = _header_position(data)
    header_bytes = data[:body_start].strip()
    separator = max((",", "\t", ";"), key=header_bytes.decode("latin-1").count)
    header = _header_cells(header_bytes, separator, content)
    names = _column_names(header)
    body = data[body_start:]
    lines = LineNumbers(body, first_line=header_line + 1)
    ids = text_type(content)
    types = {name: pa.float64() if name in NUMERIC else ids for name in names}
    table = None
    with contextlib.suppress(pa.ArrowInvalid):
        table = parse(body, names, types, delimiter=separator, quoted=True) if body.strip() else None
    if separator == ";" and body.strip() and not _numbers_read(table, names):
        # Semicolons separate cells where the comma is the decimal mark (a spreadsheet saved in a French,
        # German, ... locale writes 0,5): read its numbers that way.
        with contextlib.suppress(pa.ArrowInvalid):
            table = parse(body, names, types, delimiter=separator, quoted=True, decimal_point=",")
    if body.strip() and not _numbers_read(table, names):
        _refuse_cell_counts(body, names, separator, lines)
        try:
            table = parse(body, names, dict.fromkeys(names, ids), delimiter=separator, quoted=True)
        except pa.ArrowInvalid:
            raise InvalidInput(f"table: the file could not be read as cells separated by {separator!r} like the "
                               f"header ({', '.join(names)}).") from None
    if table is None or table.num_rows == 0:
        raise InvalidInput("table: the file has a header but no data rows.")
    result: dict[str, object] = {}
    for column in ("query", "doc"):
        values = categorical(table[column], ids="text", strip=True)
        empty = np.flatnonzero(values.categories == "")
        if empty.size:
            row = int(np.flatnonzero(values.codes == empty[0])[0])
            raise InvalidInput(f"table, line {lines.line(row)}: the {column} cell is empty.")
        result[column] = values
    for column in NUMERIC:
        if column in names:
            # A rank is a whole number, as in a TREC run: 1.5 or 1e23 (past float's whole numbers, where
            # neighbouring ranks collapse into a tie) is refused, not read as a float.
            result[column] = numbers(_cells(table[column]), what="table", column=column, lines=lines,
                                     non_negative=column == "relevance", allow_empty=True, whole=column == "rank")
    _check_retrieval_cells(result, lines)
    extras = {name: text(table[name], ids="text") for name in names if name not in result}
    return pd.DataFrame({**result, **extras}), lines


def _numbers_read(table: pa.Table | None, names: list[str]) -> bool:
    """Whether the parser read the table and typed every numeric column (finite numbers or empty cells)."""
    return table is not None and all(column_numbers(table[name]) is not None for name in NUMERIC if name in names)


def _header_position(data: bytes) -> tuple[int, int]:
    """1-based line number of the header (the first non-blank line) and the offset just after it."""
    position, line = 0, 1
    while True:
        end = data.find(b"\n", position)
        end = len(data) if end < 0 else end
        if data[position:end].strip() or end >= len(data):
            return line, min(end + 1, len(data))
        position, line = end + 1, line + 1


def _header_cells(header: bytes, separator: str, content: Content) -> list[str]:
    """The header's cell texts, parsed by the same parser as the rows (quotes allowed, any length)."""
    try:
        table = pacsv.read_csv(
            pa.py_buffer(header + b"\n"),
            read_options=pacsv.ReadOptions(autogenerate_column_names=True, use_threads=False),
            parse_options=pacsv.ParseOptions(delimiter=separator),
            convert_options=pacsv.ConvertOptions(column_types={}, strings_can_be_null=False),
        )
        cells = [table.column(i)[0].as_py() for i in range(table.num_columns)]
    except pa.ArrowInvalid:
        cells = header.decode("utf-8", "replace").split(separator)
    if not content.utf8:
        cells = decode_ids([cell.encode("utf-8", "surrogateescape") if isinstance(cell, str) else cell
                            for cell in cells], ids="text")
    return [str(cell) for cell in cells]


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
            f"Found: {', '.join(cell[:80] for cell in header)}."
        )
    if "score" not in names and "rank" not in names:
        raise InvalidInput("table: add a score column (higher is better) or a rank column (1 is best) "
                           "so the documents can be ordered.")
    return names


def _refuse_cell_counts(body: bytes, names: list[str], separator: str, lines: LineNumbers) -> None:
    """The first row with more or fewer cells than the header, found by the parser itself (one thread)."""
    found: list[tuple[int, int]] = []

    def handler(row) -> str:
        if not found:
            found.append((row.number, row.actual_columns, row.text))
        return "skip"

    with contextlib.suppress(pa.ArrowInvalid):
        pacsv.read_csv(
            pa.py_buffer(body),
            read_options=pacsv.ReadOptions(column_names=names, use_threads=False, block_size=max(len(body), 1) + 1),
            parse_options=pacsv.ParseOptions(delimiter=separator, invalid_row_handler=handler),
            convert_options=pacsv.ConvertOptions(column_types=dict.fromkeys(names, pa.string()),
                                                 strings_can_be_null=False),
        )
    if found:
        number, actual, row_text = found[0]
        kind = "more" if actual > len(names) else "fewer"
        line = lines.line(number - 1) if number else "?"
        if (row_text or "").count('"') % 2:
            raise InvalidInput(f'table, line {line}: a quote (") opens a cell that is never closed; close it, or '
                               "remove the quote.")
        raise InvalidInput(
            f"table, line {line}: the line has {kind} cells than the header ({actual} cells; the header has "
            f"{len(names)} columns: {', '.join(names)})."
        )


def _cells(column: pa.ChunkedArray) -> np.ndarray | pd.Series:
    if pa.types.is_dictionary(column.type):
        return pd.Series(categorical(column, ids="text")).astype(str)
    return column_numbers(column)


def _check_retrieval_cells(columns: dict, lines: LineNumbers) -> None:
    """Empty score and rank cells mark a judged document the run did not retrieve; it needs a grade."""
    order = [name for name in ("score", "rank") if name in columns]
    empty = np.column_stack([np.isnan(columns[name]) for name in order])
    partly = empty.any(axis=1) & ~empty.all(axis=1)
    if partly.any():
        row = int(np.flatnonzero(partly)[0])
        raise InvalidInput(
            f"table, line {lines.line(row)}: the score or the rank is empty but not both. Fill both, "
            "or leave both empty for a judged document the run did not retrieve."
        )
    orphan = empty.all(axis=1) & np.isnan(columns["relevance"])
    if orphan.any():
        row = int(np.flatnonzero(orphan)[0])
        missing = " and ".join(order)
        raise InvalidInput(
            f"table, line {lines.line(row)}: the {missing} and the relevance are empty. "
            f"A retrieved document needs a {order[0]}; a judged document the run did not retrieve needs a relevance."
        )
