"""Numbers typed into a data editor's text cells, read with one set of rules on every page.

Grades and scores are text columns, not number columns: a number column drops what it cannot read ("2,5", "abc",
"-1" under a minimum) without a word and shows 1.000000001 as "1". A text cell keeps what was typed, and these
functions read it or say why not (:class:`CellError`, naming the cell by ``where``). Whether a grade suits the
chosen gain is the core's check (``ndcg_core.check_grades``), not this module's.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping

import pandas as pd

from ui.messages import user_message
from ui.url_rules import format_number
from ui.widgets import plain

MAX_CHARS = 40  # the longest float repr is 24 characters; anything longer is refused, not truncated
_NUMBER_TEXT = re.compile(r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


class CellError(ValueError):
    """A cell (or an edit) that cannot be used; the message names the cell and the problem."""


def _empty(value) -> bool:
    return value is None or value is pd.NA or (isinstance(value, str) and not value.strip())


def is_blank(value) -> bool:
    """An empty cell: nothing typed, whitespace, or a missing value (NaN included)."""
    return _empty(value) or (isinstance(value, float) and math.isnan(value))


def _shown(text: str) -> str:
    return f"“{plain(text[:20])}{'…' if len(text) > 20 else ''}”"


def grade(value, where: str) -> float:
    """A grade from a cell (text, or a number a client sent): finite, ≥ 0, or CellError saying why."""
    return _non_negative(value, where, "grade", blank="Type a number (0 = not relevant).", examples="0, 1, 2 or 3")


def gain(value, where: str) -> float:
    """A gain from a cell of the custom gain table: finite, ≥ 0, or CellError saying why."""
    return _non_negative(value, where, "gain", blank="Type a number such as 0, 1, 3 or 7.", examples="0, 1, 3 or 7")


def _non_negative(value, where: str, what: str, *, blank: str, examples: str) -> float:
    if _empty(value):  # (NaN is not blank here: a client that sends NaN is told so)
        raise CellError(f"{where}: the {what} is blank. {blank}")
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise CellError(f"{where}: the {what} is not a number.")
    if isinstance(value, str):
        text = value.strip()
        if len(text) > MAX_CHARS:
            raise CellError(f"{where}: {_shown(text)} is {len(text):,} characters long; a {what} has at most "
                            f"{MAX_CHARS} (type a number such as {examples}).")
        _refuse_decimal_comma(text, where)
        if not _NUMBER_TEXT.fullmatch(text):
            raise CellError(f"{where}: {_shown(text)} is not a number. Type a number such as {examples}.")
        value = text
    try:
        number = float(value)
    except OverflowError:  # an integer beyond ~1.8e308 digits-long (a client, not the grid, can send one)
        raise CellError(f"{where}: the {what} is too large (beyond about 1.8e308).") from None
    except (TypeError, ValueError):
        raise CellError(f"{where}: the {what} is not a number.") from None
    if math.isnan(number):
        raise CellError(f"{where}: the {what} is missing (NaN). {blank}")
    if math.isinf(number):
        raise CellError(f"{where}: the {what} is infinite (or beyond about 1.8e308). Use a finite number such as "
                        f"{examples}.")
    if number < 0:
        raise CellError(f"{where}: {what} {number:g} is negative. A {what} is 0 or more.")
    if number == 0 and isinstance(value, str) and re.search(r"[1-9]", value.lower().split("e")[0]):
        # "1e-400" reads as 0.0: said, not silently rounded to a grade the person did not type.
        raise CellError(f"{where}: {_shown(value)} is too small for a computer number (below about 5e-324) and "
                        f"would be read as 0. Type 0, or a number such as {examples}.")
    return number + 0.0  # "-0" is 0: it was kept as -0.0, shown as "-0" in the table, the formula (2^{-0}) and links


def _refuse_decimal_comma(text: str, where: str) -> None:
    if "," in text and _NUMBER_TEXT.fullmatch(text.replace(",", ".", 1)):
        raise CellError(f"{where}: {_shown(text)} has a decimal comma. Type a decimal point: "
                        f"{plain(text.replace(',', '.', 1))}.")


def score(value, where: str) -> float:
    """A score from a cell: any finite number (negative too), or CellError saying why."""
    if _empty(value):
        raise CellError(f"{where}: the score is blank. Type a number (higher ranks first).")
    text = value.strip() if isinstance(value, str) else value
    if isinstance(text, str):
        _refuse_decimal_comma(text, where)
    if isinstance(text, bool) or not isinstance(text, (str, int, float)) or (
            isinstance(text, str) and (len(text) > MAX_CHARS or not _NUMBER_TEXT.fullmatch(text))):
        raise CellError(f"{where}: the score is not a number. Type a number such as 2.5 or -1.")
    try:
        number = float(text)
    except (OverflowError, TypeError, ValueError):
        raise CellError(f"{where}: the score is not a finite number.") from None
    if not math.isfinite(number):
        raise CellError(f"{where}: the score is missing or infinite. Type a finite number.")
    return number


def as_text(value) -> str:
    """A number as a text cell shows it, exactly (3, 2.5, 1.000000001); a missing value as an empty cell ("", which
    the grid draws as nothing: it draws a missing value as a grey "None")."""
    return "" if is_blank(value) else format_number(float(value))


def shown(frame: pd.DataFrame, columns) -> pd.DataFrame:
    """``frame`` with its number ``columns`` as text cells (exact, empty where missing), for a data editor."""
    table = frame.copy()
    for column in columns:
        table[column] = pd.array([as_text(value) for value in frame[column]], dtype="string")
    return table


def read(typed: pd.DataFrame, readers: Mapping[str, Callable[[object, str], float]]) -> pd.DataFrame:
    """The edited table with each column in ``readers`` read by it (an empty cell is NaN: the page says whether
    it may be empty); :class:`CellError` for the first unreadable cell, named "Row n" as the table numbers it."""
    frame = typed.copy()
    for column, reader in readers.items():
        frame[column] = pd.array([math.nan if is_blank(value) else reader(value, f"Row {row}")
                                  for row, value in enumerate(typed[column], 1)], dtype="float64")
    return frame


def refusal(error: Exception) -> str:
    """Why an edit was refused, ready for st.error: a cell's message as it is (it quotes the cell already
    escaped), the core's in the sidebar's words and escaped."""
    return str(error) if isinstance(error, CellError) else plain(user_message(error))
