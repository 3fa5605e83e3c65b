"""What the short lessons share: their metric options and the small grade lists readers type in."""

from __future__ import annotations

import re

import pandas as pd
import streamlit as st

import ndcg_core
from ui import cells
from ui.formatting import num
from ui.settings import MetricSettings
from ui.widgets import plain

MAX_LESSON_LIST = 20
# The list of 003_f44d929bf8cc7fa4.txt, used by lessons 1 and 6, and its two judged documents it did not rank.
DOCUMENT_003_NAMES = ("D1", "D2", "D3", "D4", "D5", "D6")
DOCUMENT_003_GRADES = (3.0, 2.0, 3.0, 0.0, 1.0, 2.0)
DOCUMENT_003_EXTRA = {"D7": 3.0, "D8": 2.0}


def lesson_kwargs(settings: MetricSettings, **overrides) -> dict:
    """The sidebar's gain, base and zero-IDCG rule; lessons choose their own cutoff (whole list by default)."""
    return {**settings.kwargs(), "k": None, **overrides}


def grades_field(label: str, default: tuple[float, ...], key: str, *, help: str | None = None) -> list[float] | None:
    """A comma-separated list of grades typed by the reader; None (with a message) when it cannot be read."""
    text = st.text_input(label, ", ".join(num(g) for g in default), key=key, help=help, persist_state="session")
    pieces = [piece for piece in re.split(r"[,;\s]+", text.strip()) if piece]
    if not pieces:
        st.error("Type at least one grade, e.g. 3, 2, 0, 1.", icon=":material/warning:")
        return None
    if len(pieces) > MAX_LESSON_LIST:
        st.error(f"Keep lesson lists short: at most {MAX_LESSON_LIST} grades (the Playground takes longer ones).")
        return None
    try:
        # The Playground's rules for a typed grade (ui/cells.py): Python's float() also read "٣" as 3, "1_0" as 10,
        # and "nan" or "inf" through to ndcg_core, whose refusal named its own argument ("relevances: position 2").
        return [cells.grade(piece, f"Grade {position}") for position, piece in enumerate(pieces, 1)]
    except cells.CellError as error:
        st.error(str(error), icon=":material/warning:")
        return None


def list_frame(names, result: ndcg_core.ListResult) -> pd.DataFrame:
    table = result.table
    return pd.DataFrame(
        {
            "Rank": table["rank"].astype(int),
            "Document": list(names),
            "Grade": table["relevance"],
            "Gain": table["gain"].round(3),
            "Discount": table["discount"].round(3),
            "Contribution": table["contribution"].round(3),
        }
    )


def list_table(names, result: ndcg_core.ListResult):
    """:func:`list_frame` for ``st.table``, numbers written by ``num``: a static table takes the width of its text.

    Lesson 1 shows two of them side by side; as data grids (416 px of columns in a 385 px column at 1280 × 720) they
    cut the Contribution column to "1." and "0.", the figures the lesson adds up.
    """
    frame = list_frame(names, result)
    numbers = ["Grade", "Gain", "Discount", "Contribution"]
    return frame.style.format(num, subset=numbers).format(plain, subset=["Document"])


def lesson_table(frame: pd.DataFrame, *, key: str, numbers: tuple[str, ...] = ("DCG", "IDCG", "NDCG")) -> None:
    """A lesson's small table as a static ``st.table`` whose text wraps, numbers written by ``num``.

    On a 390 px phone the lessons' data grids held 394-629 px of columns in 354 px and scrolled sideways: lesson 2's
    IDCG and NDCG, lesson 5's exponential columns and lessons 6's and 7's NDCG were out of view. A static table
    wraps its words instead (``st-key-lesson-table-*``, ui/app_style.py); its cells are markdown, so only the
    lessons' own words and numbers go in, never a name a user typed.
    """
    with st.container(key=f"lesson-table-{key}"):
        st.table(frame.style.format(num, subset=[c for c in numbers if c in frame.columns]), hide_index=True)
