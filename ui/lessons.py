"""The short lessons of the Step by step page, each with a live mini-example.

This module holds the lesson tabs and the four lessons on what the metric does (CG ignores order, why
normalise, binary vs graded ideal, what k does); ``ui.lessons_conventions`` holds the four on the choices
that make libraries disagree. Every figure comes from ``ndcg_core``. Document names can come from users, so they are shown as plain text (tables, escaped markdown), never
interpreted as markdown or HTML.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

import ndcg_core
from ui import charts, present, session
from ui.formatting import gain_words, num
from ui.lesson_inputs import (
    DOCUMENT_003_GRADES,
    DOCUMENT_003_NAMES,
    grades_field,
    lesson_kwargs,
    lesson_table,
    list_table,
)
from ui.lessons_conventions import lesson_all_zero, lesson_dataset, lesson_gain, lesson_ideal_all_judged
from ui.lessons_unjudged import lesson_unjudged
from ui.messages import user_message
from ui.ranking import make_ranking
from ui.settings import MetricSettings
from ui.walkthrough import ideal_names
from ui.widgets import plain

# Short titles: all nine tabs fit a 1440 px screen with the sidebar open (longer ones pushed the 9th out of view).
LESSON_TITLES = (
    "1 · CG vs DCG",
    "2 · Normalise",
    "3 · Binary vs graded",
    "4 · Cutoff k",
    "5 · Linear vs exp.",
    "6 · All judged",
    "7 · All grades 0",
    "8 · Datasets",
    "9 · Unjudged",
)
# Lesson 4's list: NDCG@k falls from k = 1 to 2, then rises again (tests/test_step_by_step.py asserts it).
DOWN_THEN_UP_GRADES = (3.0, 0.0, 3.0, 3.0, 0.0)


LESSON_TAB_KEY = "lesson_tab"
OPEN_LESSON_KEY = "lesson_tab_open"  # the lesson last opened, kept for the page's next visit


def _remember_lesson() -> None:
    session.set_widget(OPEN_LESSON_KEY, session.widget(LESSON_TAB_KEY))


def lessons(settings: MetricSettings) -> None:
    """The short lessons, in the order the documents teach them, each with a live mini-example."""
    st.caption(
        f"Each lesson uses the sidebar's gain and log base ({gain_words(settings.gain)}, log base {settings.log_base}) "
        "and its own cutoff; change the small inputs to see the numbers move."
    )
    # The lesson open last comes back with the page: a student on lesson 7 who opened the Playground returned to
    # lesson 1 (a tab's choice is a widget value, which Streamlit forgets when another page runs).
    # (Kept by the tab's callback, before the run: the default must already be the tab chosen, or the run resets it.)
    opened = session.widget(OPEN_LESSON_KEY)
    tabs = st.tabs(list(LESSON_TITLES), key=LESSON_TAB_KEY, on_change=_remember_lesson,
                   default=opened if opened in LESSON_TITLES else None)
    views = (
        lesson_cg_ignores_order, lesson_normalise, lesson_ideal_binary_graded, lesson_cutoff,
        lesson_gain, lesson_ideal_all_judged, lesson_all_zero, lesson_dataset,
        lesson_unjudged,  # ui.lessons_unjudged (issue 13 item 3)
    )
    for tab, view in zip(tabs, views, strict=True):
        with tab:
            try:
                view(settings)
            except ndcg_core.InvalidInput as error:  # in the sidebar's words (a grade too large for its gain)
                st.error(plain(user_message(error)), icon=":material/warning:")


def lesson_cg_ignores_order(settings: MetricSettings) -> None:
    grades = list(DOCUMENT_003_GRADES)
    swapped = grades[:2] + [grades[3], grades[2]] + grades[4:]  # Source document 003's own swap: D3 and D4
    source, changed = (ndcg_core.evaluate(g, **lesson_kwargs(settings)) for g in (grades, swapped))
    st.markdown(
        "**Cumulative gain** adds up the gains of the list and ignores where they sit: swap two documents and "
        "CG stays put, while **DCG**, which divides each gain by log(rank + 1), moves. "
        f"*(Source document 001 says so; the list is source document 003's, which swaps D3 and D4: under the sidebar's settings DCG "
        f"goes from {num(source.dcg)} to {num(changed.dcg)} while CG stays {num(source.cg)}.)*"
    )
    size = len(DOCUMENT_003_GRADES)
    first, second = st.columns(2)
    a = first.selectbox("Swap position", range(1, size + 1), index=2, key="lesson_swap_a", persist_state="session")
    b = second.selectbox("with position", range(1, size + 1), index=3, key="lesson_swap_b", persist_state="session")
    order = list(range(size))
    order[a - 1], order[b - 1] = order[b - 1], order[a - 1]
    names = [DOCUMENT_003_NAMES[j] for j in order]
    before = ndcg_core.evaluate(list(DOCUMENT_003_GRADES), **lesson_kwargs(settings))
    after = ndcg_core.evaluate([DOCUMENT_003_GRADES[j] for j in order], **lesson_kwargs(settings))
    left, right = st.container(key="side-by-side-tables").columns(2)  # its tables' padding: ui/app_style.py
    with left:
        st.markdown("**Before** (Source document 003's order)")
        st.table(list_table(DOCUMENT_003_NAMES, before), hide_index=True)
    with right:
        st.markdown(f"**After** swapping positions {a} and {b}")
        st.table(list_table(names, after), hide_index=True)
    cards = st.columns(2)
    cards[0].metric("CG after the swap", num(after.cg), delta=num(after.cg - before.cg), delta_color="off",
                    help=f"Before: {num(before.cg)}")
    cards[1].metric("DCG after the swap", num(after.dcg), delta=num(after.dcg - before.dcg),
                    help=f"Before: {num(before.dcg)}")
    if a == b:
        st.info("Pick two different positions to swap.")
    elif after.dcg == before.dcg:
        st.info("These two documents have the same grade, so the swap changes nothing. Try positions 3 and 4.")
    else:
        direction = "drops" if after.dcg < before.dcg else "rises"
        st.success(f"CG stays {num(before.cg)}, but DCG {direction} from {num(before.dcg)} to {num(after.dcg)}.")


def lesson_normalise(settings: MetricSettings) -> None:
    st.markdown(
        "DCG adds up the gain of every relevant document a list holds, so a long list with more relevant documents "
        "(even badly ordered) can out-score a short, perfect one; a document graded 0 adds nothing. "
        "Dividing by the **ideal DCG** of the same documents puts every query on a 0-to-1 scale. "
        "*(Source document 001: 'DCG at 10 can be higher than DCG at 3 simply due to the length of the list'; "
        "Source document 003.)*"
    )
    short = (2.0, 1.0, 0.0)
    pattern = (1.0, 0.0, 2.0, 0.0, 3.0, 1.0, 0.0, 2.0, 1.0, 3.0)
    length = st.slider("Documents in query B's list", 3, len(pattern), 8, key="lesson_long_length", persist_state="session")
    long = pattern[:length]
    results = {
        "A (short, perfectly ordered)": (short, ndcg_core.evaluate(list(short), **lesson_kwargs(settings))),
        "B (longer, jumbled)": (long, ndcg_core.evaluate(list(long), **lesson_kwargs(settings))),
    }
    lesson_table(
        pd.DataFrame(
            {
                "Query": list(results),
                "Grades": [", ".join(num(g) for g in grades) for grades, _ in results.values()],
                "DCG": [result.dcg for _, result in results.values()],
                "IDCG": [result.idcg for _, result in results.values()],
                "NDCG": [result.ndcg for _, result in results.values()],
            }
        ),
        key="normalise",
    )
    a, b = (result for _, result in results.values())
    if b.dcg > a.dcg:
        relevant = sum(grade > 0 for grade in long)
        st.success(
            f"B's DCG ({num(b.dcg)}) beats A's ({num(a.dcg)}) only because B's longer list holds more relevant "
            f"documents ({relevant} graded above 0, against A's {sum(grade > 0 for grade in short)}), not because it "
            f"ranks them better. Normalised, A scores {num(a.ndcg)} and B {num(b.ndcg)}: A's ranking is the better one."
        )
    else:
        st.info(f"With {length} documents B's DCG ({num(b.dcg)}) is still below A's ({num(a.dcg)}): make B longer, "
                "until its next relevant documents add enough gain.")


def lesson_ideal_binary_graded(settings: MetricSettings) -> None:
    st.markdown(
        "The ideal ranking sorts the judged documents by grade. With **binary** relevance (0 or 1) that just means "
        "'every relevant document first'; with **graded** relevance the order among relevant documents matters too: "
        "highest grade first. *(Source document 001, 'What exactly is ideal?')*"
    )
    kind = st.segmented_control(
        "Relevance", ["Binary (0 / 1)", "Graded (0–3)"], default="Graded (0–3)", key="lesson_relevance_kind", persist_state="session",
    ) or "Graded (0–3)"
    binary = kind.startswith("Binary")
    default = (1.0, 0.0, 1.0, 1.0, 0.0) if binary else (3.0, 2.0, 0.0, 0.0, 1.0)
    grades = grades_field("Grades in ranked order", default, key=f"lesson_ideal_grades_{'binary' if binary else 'graded'}")
    if grades is None:
        return
    if binary and any(g not in (0.0, 1.0) for g in grades):
        st.warning("Binary relevance uses only 0 (not relevant) and 1 (relevant).")
    result = ndcg_core.evaluate(grades, **lesson_kwargs(settings))
    names = [f"D{j + 1}" for j in range(len(grades))]
    ideal_order = ideal_names(make_ranking(names, grades))
    st.dataframe(
        pd.DataFrame(
            {
                "Rank": result.table["rank"].astype(int),
                "Your ranking": [f"{n} ({num(g)})" for n, g in zip(names, grades, strict=True)],
                "Ideal ranking": [f"{n} ({num(g)})" for n, g in zip(ideal_order, result.table["ideal_relevance"], strict=True)],
            }
        ),
        hide_index=True,
    )
    st.markdown(
        f"DCG = {num(result.dcg)}, IDCG = {num(result.idcg)}, so **NDCG = {num(result.ndcg)}**."
        + (" Any order that puts the relevant documents first is ideal." if binary else "")
    )


def ndcg_by_cutoff(grades, settings: MetricSettings) -> list[float]:
    """NDCG@k for k = 1..len(grades), each from ndcg_core.evaluate with that cutoff."""
    return [ndcg_core.evaluate(list(grades), **lesson_kwargs(settings, k=k)).ndcg for k in range(1, len(grades) + 1)]


def first_dip_and_rise(values: list[float]) -> tuple[int, int] | None:
    """(k where NDCG@k first falls, later k where it rises again), 1-based; None if it never does both."""
    falls = [k for k in range(2, len(values) + 1) if values[k - 1] < values[k - 2] - 1e-12]
    if not falls:
        return None
    rises = [k for k in range(falls[0] + 1, len(values) + 1) if values[k - 1] > values[k - 2] + 1e-12]
    return (falls[0], rises[0]) if rises else None


def lesson_cutoff(settings: MetricSettings) -> None:
    st.markdown(
        "NDCG@k looks only at the top k positions, of the ranking **and** of the ideal. Growing k adds a term to "
        "both DCG and IDCG, so NDCG@k can go **down and then up again**: it is not monotonic in k. "
        "*(Source document 000 and source document 004 use NDCG@p / NDCG@k.)*"
    )
    grades = grades_field("Grades in ranked order", DOWN_THEN_UP_GRADES, key="lesson_cutoff_grades")
    if grades is None:
        return
    values = ndcg_by_cutoff(grades, settings)
    k = st.slider("Cutoff k", 1, len(grades), min(2, len(grades)), key="lesson_cutoff_k", persist_state="session") if len(grades) > 1 else 1
    at_k = ndcg_core.evaluate(grades, **lesson_kwargs(settings, k=k))
    left, right = st.columns([1, 2])
    with left:
        # NDCG@k undefined (every grade 0, the sidebar's rule "skip"): "–", not the grid's grey "None".
        st.dataframe(pd.DataFrame({"k": range(1, len(values) + 1), "NDCG@k": [round(v, 3) for v in values]}),
                     hide_index=True, placeholder="–")
        st.metric(f"NDCG@{k}", num(at_k.ndcg), help=f"DCG@{k} = {num(at_k.dcg)}, IDCG@{k} = {num(at_k.idcg)}")
    with right:
        full = ndcg_core.evaluate(grades, **lesson_kwargs(settings))
        present.plotly_chart(charts.cumulative_chart(full.table, highlight=k), width="stretch", key="lesson_cutoff_chart",
                             theme=None)
    turn = first_dip_and_rise(values)
    if turn:
        down, up = turn
        st.success(
            f"NDCG@k falls from {num(values[down - 2])} at k = {down - 1} to {num(values[down - 1])} at k = {down}, "
            f"then rises to {num(values[up - 1])} at k = {up}."
        )
    else:
        st.info("This list's NDCG@k never falls and then rises. Try 3, 0, 3, 3, 0.")
