"""The list formats inside share links, pure and exact: a Playground list, the Conventions table, a gain table,
the Compare page's orders.

Each encoder writes numbers with :func:`ui.url_rules.format_number` (the shortest text that reads back as the
same float), so a decoded link holds exactly the shared values; each decoder reads with the rules of
:mod:`ui.url_rules` and refuses anything malformed with :class:`~ui.url_rules.LinkError`, whose message names the
entry, never the link's text. :mod:`ui.url_state` (which pages call) builds the pages' parameters on these.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import quote, unquote

from ui.url_rules import (
    MAX_LINK_DOCUMENTS,
    MAX_NAME_CHARS,
    MAX_PARAM_CHARS,
    LinkError,
    format_number,
    parse_int,
    parse_number,
)

CONVENTIONS_COLUMNS = ["document", "grade", "score", "score_2", "ranked"]


@dataclass(frozen=True)
class RankingLink:
    """The parameters for a ranking, or (``params`` empty) the reason it cannot be put in a link."""

    params: dict[str, str]
    problem: str | None = None

    @classmethod
    def checked(cls, params: dict[str, str], *, count: int, unlinked_key: str, whose: str) -> RankingLink:
        """``params``, or ``{unlinked_key: count}`` and the reason when a value is longer than a link holds.

        ``count`` is the number of documents; ``whose`` ("its", "their") words the reason for what is shared."""
        longest = max(len(value) for value in params.values())
        if longest > MAX_PARAM_CHARS:
            return cls({unlinked_key: str(count)}, f"{whose} names and grades need {longest:,} characters (a link "
                                                   f"holds at most {MAX_PARAM_CHARS:,} per list)")
        return cls(params)

    @classmethod
    def too_many(cls, count: int, *, unlinked_key: str, whose: str) -> RankingLink | None:
        """``{unlinked_key: count}`` and the reason when ``count`` documents are more than a link holds, else None."""
        if count <= MAX_LINK_DOCUMENTS:
            return None
        has = "it has" if whose == "its" else "they have"
        return cls({unlinked_key: str(count)}, f"{has} {count:,} documents (a link holds at most "
                                               f"{MAX_LINK_DOCUMENTS:,})")


# --- a gain table ----------------------------------------------------------------------------------------------

def read_gain_table(text: str) -> tuple[tuple[tuple[float, float], ...] | None, str | None]:
    """'grade:gain,...' (numbers only, each grade once, gains checked by ndcg_core): ``(table, None)``; ``(None,
    ndcg_core's reason)`` when the numbers read but the gains are refused; ``(None, None)`` when the text is not a
    gain table."""
    import ndcg_core

    if len(text) > 2_000:
        return None, None
    pairs: dict[float, float] = {}
    try:
        for chunk in text.split(","):
            grade_text, gain_text = chunk.split(":")
            grade = parse_number(grade_text, "a grade")
            if grade in pairs:
                return None, None
            pairs[grade] = parse_number(gain_text, "a gain")
    except ValueError:
        return None, None
    try:
        checked = ndcg_core.check_gain(pairs)
    except ndcg_core.InvalidInput as error:
        return None, str(error)
    return tuple(sorted((float(g), float(v)) for g, v in checked.items())), None


def parse_gain_table(text: str) -> tuple[tuple[float, float], ...] | None:
    """:func:`read_gain_table`'s table; None when unusable."""
    return read_gain_table(text)[0]


# --- the Playground's documents -------------------------------------------------------------------------------

def encode_name(name: str) -> str:
    """A name inside a link's list: ASCII punctuation, spaces and invisible characters percent-encoded, letters of
    every script kept (``Zoë``, not ``Zo%C3%AB``, which the address then encoded again as ``Zo%25C3%25AB``)."""
    return "".join(ch if _kept_in_links(ch) else quote(ch, safe="") for ch in str(name))


def _kept_in_links(ch: str) -> bool:
    if ch.isascii():
        return ch.isalnum() or ch in "-_.~"
    return unicodedata.category(ch)[0] in "LMNPS"  # letters, marks, numbers, punctuation, symbols: not C or Z


def encode_documents(names: Sequence[str], grades: Sequence[float]) -> str:
    """'D1:3,D2:1' with percent-encoded names (:func:`encode_name`) and exact grades."""
    return ",".join(f"{encode_name(n)}:{format_number(g)}" for n, g in zip(names, grades, strict=True))


def decode_documents(text: str) -> tuple[tuple[str, ...], tuple[float, ...]]:
    """Inverse of :func:`encode_documents`; :class:`LinkError` with a plain reason when malformed."""
    if len(text) > MAX_PARAM_CHARS:
        raise LinkError(f"it is longer than {MAX_PARAM_CHARS:,} characters")
    if text == "":
        return (), ()
    chunks = text.split(",")
    if len(chunks) > MAX_LINK_DOCUMENTS:
        raise LinkError(f"it has more than {MAX_LINK_DOCUMENTS:,} documents")
    names, grades = [], []
    for position, chunk in enumerate(chunks, start=1):
        parts = chunk.split(":")
        if len(parts) != 2:
            raise LinkError(f"entry {position} is not of the form name:grade")
        name = unquote(parts[0])
        if not name.strip() or len(name) > MAX_NAME_CHARS:
            raise LinkError(f"the name of entry {position} is empty or longer than {MAX_NAME_CHARS} characters")
        names.append(name)
        grades.append(parse_number(parts[1], f"the grade of entry {position}"))
    return tuple(names), tuple(grades)


# --- an order of a list's documents (the Compare page's two rankings) -----------------------------------------

def encode_order(positions: Sequence[int]) -> str:
    """'2,0,1': each ranked document as its row in the documents' list (a name would repeat the names' text)."""
    return ",".join(str(int(position)) for position in positions)


def decode_order(text: str, size: int) -> tuple[int, ...]:
    """Inverse of :func:`encode_order` for a list of ``size`` documents: every row exactly once, else
    :class:`LinkError` (a link that drops or repeats a document would show a ranking nobody made)."""
    if len(text) > MAX_PARAM_CHARS:
        raise LinkError(f"it is longer than {MAX_PARAM_CHARS:,} characters")
    chunks = text.split(",") if text else []
    positions = [parse_int(chunk, low=0, high=size - 1) for chunk in chunks]
    if len(positions) != size or None in positions or len(set(positions)) != size:
        raise LinkError(f"it does not name each of the {size:,} documents exactly once")
    return tuple(positions)


# --- the Quiz's checked answers (what a reload of the quiz keeps) -------------------------------------------

MAX_ANSWERS = 20


def encode_answers(answers: Mapping[int, str]) -> str | None:
    """'1:B_2:0.62_3:2,1,0,4,3/5': each checked question's number and its answer's text, by number; None if none."""
    return "_".join(f"{number}:{text}" for number, text in sorted(answers.items())) or None


def decode_answers(text: str) -> dict[int, str]:
    """Inverse of :func:`encode_answers`: {question number: answer text}, or :class:`LinkError` when malformed
    (the texts are checked against their questions by the page)."""
    if len(text) > MAX_PARAM_CHARS:
        raise LinkError(f"it is longer than {MAX_PARAM_CHARS:,} characters")
    answers: dict[int, str] = {}
    for position, entry in enumerate(text.split("_"), 1):
        number_text, separator, answer = entry.partition(":")
        number = parse_int(number_text, low=1, high=MAX_ANSWERS)
        if not separator or number is None or number in answers or not answer:
            raise LinkError(f"entry {position} is not a question number and an answer")
        answers[number] = answer
    return answers


# --- the Conventions page's input table -------------------------------------------------------------------

MAX_LINK_ROWS = 200
MAX_ROWS_CHARS = 20_000


def _cell_text(value) -> str:
    import pandas as pd

    return "" if value is None or pd.isna(value) else format_number(float(value))


def encode_rows(rows) -> str | None:
    """Rows of (document, grade, score, score_2, ranked) as 'name:grade:score:score_2:ranked,...', exact numbers.

    None when too big for a link."""
    if len(rows) > MAX_LINK_ROWS:
        return None
    import pandas as pd

    text = ",".join(
        ":".join((encode_name("" if pd.isna(name) else str(name)), _cell_text(grade), _cell_text(score),
                  _cell_text(score_2), "0" if ranked is False or ranked == 0 else "1"))
        for name, grade, score, score_2, ranked in rows
    )
    return text if len(text) <= MAX_ROWS_CHARS else None


def decode_rows(text: str) -> list[dict]:
    """Inverse of :func:`encode_rows` (grades are checked later, like an edit); :class:`LinkError` when malformed."""
    if len(text) > MAX_ROWS_CHARS:
        raise LinkError(f"it is longer than {MAX_ROWS_CHARS:,} characters")
    chunks = text.split(",") if text else []
    if not chunks or len(chunks) > MAX_LINK_ROWS:
        raise LinkError(f"it needs 1 to {MAX_LINK_ROWS} rows")
    records = []
    for position, chunk in enumerate(chunks, start=1):
        parts = chunk.split(":")
        if len(parts) != 5 or parts[4] not in ("0", "1"):
            raise LinkError(f"row {position} is not of the form name:grade:score:score_2:ranked")
        name = unquote(parts[0])
        if len(name) > MAX_NAME_CHARS:
            raise LinkError(f"the name of row {position} is longer than {MAX_NAME_CHARS} characters")
        cells = [math.nan if part == "" else parse_number(part, f"the {what} of row {position}", negative=True)
                 for part, what in zip(parts[1:4], ("grade", "score", "second score"), strict=True)]
        records.append(dict(zip(CONVENTIONS_COLUMNS, [name or None, *cells, parts[4] == "1"], strict=True)))
    return records
