"""Lesson 9 of the Step by step page: documents nobody judged.

The usual NDCG counts an unjudged document as not relevant; the condensed list (Sakai 2007) removes it before
ranking; judged@k says how much of the top k rests on judgments; the top-grade figure shows what a generous
judgment would give. Every figure comes from ``ndcg_core.incomplete_judgments``.
"""

from __future__ import annotations

import re

import pandas as pd
import streamlit as st

import ndcg_core
from ui.formatting import apart, compact, num, percent
from ui.lesson_inputs import MAX_LESSON_LIST, lesson_table
from ui.settings import MetricSettings
from ui.widgets import plain

DEFAULT_MARKS = "3, ?, 2, ?, 0, 1"
UNJUDGED = {"?", "-", "na", "nan", "none"}


def parse_marks(text: str) -> list[float | None] | None:
    """Grades typed in ranked order, ``?`` for a document without a judgment; None (with a message) if unreadable."""
    pieces = [piece for piece in re.split(r"[,;\s]+", text.strip()) if piece]
    if not pieces or len(pieces) > MAX_LESSON_LIST:
        st.error(f"Type 1 to {MAX_LESSON_LIST} grades, with ? for an unjudged document, e.g. {DEFAULT_MARKS}.",
                 icon=":material/warning:")
        return None
    marks: list[float | None] = []
    for piece in pieces:
        if piece.lower() in UNJUDGED:
            marks.append(None)
            continue
        try:
            marks.append(float(piece))
        except ValueError:
            st.error(f"'{plain(piece)}' is neither a grade nor ?. Example: {DEFAULT_MARKS}.", icon=":material/warning:")
            return None
    return marks


def lesson_unjudged(settings: MetricSettings) -> None:
    st.markdown(
        "Real judgments are incomplete: a system often retrieves documents **nobody judged**. The usual NDCG "
        "(trec_eval, scikit-learn) counts them as not relevant, which punishes a new system for finding documents "
        "the judges never saw. The **condensed list** (Sakai, 2007) removes them before ranking, so the judged "
        "documents below move up; **judged@k** says how much of the top k rests on real judgments."
    )
    marks = parse_marks(st.text_input("Grades in ranked order (? = not judged)", DEFAULT_MARKS,
                                      key="lesson_unjudged_grades", persist_state="session"))
    if marks is None:
        return
    k = st.slider("Cutoff k", 1, len(marks), min(3, len(marks)), key="lesson_unjudged_k", persist_state="session")
    result = ndcg_core.incomplete_judgments(marks, **{**settings.kwargs(), "k": k})
    condensed_rank, rank = [], 0
    for mark in marks:
        rank += mark is not None
        condensed_rank.append("removed" if mark is None else str(rank))
    # A static table: as a grid on a 390 px phone its Grade column cut "not judged (counts as 0)" to "not judge".
    lesson_table(pd.DataFrame({
        "Usual rank": range(1, len(marks) + 1),
        "Grade": ["not judged (counts as 0)" if mark is None else compact(mark) for mark in marks],
        "Rank in the condensed list": condensed_rank,
    }), key="unjudged", numbers=())
    cards = st.columns(4)
    cards[0].metric(f"Usual NDCG@{k}", num(result.standard), help="Unjudged = grade 0.")
    cards[1].metric(f"Condensed NDCG@{k}", num(result.condensed), help="Unjudged documents removed first.")
    cards[2].metric(f"Judged@{k}", percent(result.judged_at_k),
                    help=f"{result.n_unjudged_at_k} of the top {k} documents have no judgment.")
    cards[3].metric(f"Unjudged at grade {compact(result.highest)}", num(result.upper),
                    help="Every unjudged document judged at the highest grade (it joins the ideal list too).")
    if result.n_unjudged == 0:
        st.info(f"Every document is judged: the condensed list is the usual list, and both give {num(result.standard)}.")
    else:
        verb, them = ("is", "it") if result.n_unjudged_at_k == 1 else ("are", "them")
        st.markdown(
            f"{result.n_unjudged_at_k} of the top {k} documents {verb} unjudged (judged@{k} = "
            f"{percent(result.judged_at_k)}): the usual figure, {num(result.standard)}, treats {them} as a miss{'' if them == 'it' else 'es'}, the "
            f"condensed list gives {num(result.condensed)}. A low judged@k means: judge more documents before "
            "trusting either number. The Dataset page shows all three figures for every query of a run."
        )
        if result.upper < result.standard:
            # The two figures with the places it takes to see the difference (0.883 and 0.883 under a custom gain).
            upper, standard = apart(result.upper, result.standard)
            st.caption(f"Why is “unjudged at grade {compact(result.highest)}” ({upper}) lower than the usual figure "
                       f"({standard})? {_why_lower(result, k)}")
    if settings.log_base != "2":
        st.caption("This lesson uses the discount log₂(i + 1), whatever the sidebar's base.")


def _why_lower(result: ndcg_core.IncompleteJudgments, k: int) -> str:
    """Why judging every unjudged document at the top grade can lower NDCG@k, in words that count them right.

    The sentence comes after "1 of the top 3 documents is unjudged": it used to say "those 2 documents" (no 2 had
    been named) and "the DCG of the ones inside the top 3" (one document). NDCG@k falls when IDCG@k grows by more
    than DCG@k does, and DCG@k grows only through the unjudged documents inside the top k.
    """
    grade, total, inside = compact(result.highest), result.n_unjudged, result.n_unjudged_at_k
    if total == 1:
        judged = f"Judging the unjudged document at grade {grade} also puts it in the ideal list"
    else:
        judged = f"Judging the {total} unjudged documents at grade {grade} also puts them in the ideal list"
    if inside == 0:
        dcg = f", which gains nothing: {'it is not' if total == 1 else 'none of them is'} in the top {k}"
    elif inside < total:
        dcg = f", which gains only from the {inside} of them in the top {k}"
    else:
        dcg = ""
    return f"{judged}: IDCG@{k} grows by more than DCG@{k}{dcg}."
