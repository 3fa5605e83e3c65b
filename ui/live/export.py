"""The Live class's CSV export of every answer: what a teacher opens in a spreadsheet.

One row per answer (position, kind, student, nickname, the answer as stored and in words, its chart group, points,
correct, revision, the time it was submitted in UTC), and no cell a spreadsheet would run as a formula.
"""

from __future__ import annotations

import io
import json

import pandas as pd
from sqlalchemy.engine import Engine

from ui.live import activities, store


def export_table(rows: list[dict]) -> pd.DataFrame:
    """The CSV export's table: the answer time as UTC date and time a spreadsheet reads (it was Unix seconds,
    1795549517.398267), the chart's group of the answer named as such (an estimate's 0.05-wide bin, "0.55" for an
    answer of 0.53, sat in a column called "label"), and no cell a spreadsheet would run as a formula."""
    table = pd.DataFrame(rows, columns=["position", "kind", "student", "nickname", "answer", "label", "points",
                                        "correct", "revision", "submitted_at", "spec"])
    # A reorder's answer is stored as indices into its activity's names ({"order": [1, 2, 0, 4, 3], ...}).
    words = [activities.answer_words(kind, json.loads(spec), json.loads(answer))
             for kind, spec, answer in zip(table["kind"], table["spec"], table["answer"], strict=True)]
    table.insert(table.columns.get_loc("answer") + 1, "answer_in_words", words)
    table = table.drop(columns="spec")
    table["submitted_at"] = pd.to_datetime(table["submitted_at"], unit="s", utc=True).dt.strftime("%Y-%m-%d %H:%M:%S")
    table = table.rename(columns={"label": "chart_group", "submitted_at": "submitted_at_utc"})
    return table.map(csv_safe)


def answers_csv(engine: Engine, *, code: str, secret: str) -> str:
    """The CSV file of every answer the session holds now (the teacher's secret is checked by the store)."""
    buffer = io.StringIO()
    export_table(store.export_rows(engine, code=code, secret=secret)).to_csv(buffer, index=False)
    return buffer.getvalue()


def csv_safe(value: object) -> object:
    """A cell a spreadsheet will not run: text starting with = + - @ (or tab/CR) gets a leading apostrophe.

    Nicknames are student text; opened in a spreadsheet, "=HYPERLINK(...)" would otherwise be a formula.
    """
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value
