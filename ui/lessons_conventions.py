"""Lessons 5 to 8 of the Step by step page: the conventions that make libraries disagree.

Linear vs exponential gain, the ideal list from all judged documents, lists whose grades are all 0, and the
two ways to average a data set. Every figure comes from ``ndcg_core``.
"""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

import ndcg_core
from ui.formatting import num, signed_change
from ui.lesson_inputs import DOCUMENT_003_EXTRA, DOCUMENT_003_GRADES, grades_field, lesson_kwargs, lesson_table
from ui.messages import reason_only
from ui.settings import MetricSettings
from ui.widgets import plain


def lesson_gain(settings: MetricSettings) -> None:
    st.markdown(
        "**Linear** gain uses the grade itself (001, 003, scikit-learn, trec_eval); **exponential** gain uses "
        "2^grade − 1 (000, the formulas of 002 and 004, LightGBM, XGBoost), which makes a top grade worth far more "
        "than a middling one. The same list gets different DCG, IDCG and NDCG: the code of 002 and 004 divides the "
        "grades themselves, so it prints the linear figure, not the one their formulas give (Worked examples)."
    )
    grades = grades_field("Grades in ranked order", (3.0, 2.0, 3.0, 0.0, 1.0), key="lesson_gain_grades",
                          help="Default: the list of Source document 004.")
    if grades is None:
        return
    base = {**lesson_kwargs(settings)}
    linear = ndcg_core.evaluate(grades, **{**base, "gain": "linear"})
    exponential = ndcg_core.evaluate(grades, **{**base, "gain": "exponential"})
    # Two tables of four columns (side by side, stacked on a phone): one of six held 629 px in a phone's 354.
    sides = (("linear", "Linear gain: the grade", linear), ("exponential", "Exponential gain: 2^grade − 1", exponential))
    for column, (name, title, result) in zip(st.columns(2), sides, strict=True):
        with column:
            st.markdown(f"**{title}**")
            lesson_table(
                pd.DataFrame({
                    "Rank": result.table["rank"].astype(int),
                    "Grade": result.table["relevance"],
                    "Gain": result.table["gain"],
                    "Contribution": result.table["contribution"],
                }),
                key=f"gain-{name}",
                numbers=("Grade", "Gain", "Contribution"),
            )
    left, right = st.columns(2)
    left.metric("NDCG, linear gain", num(linear.ndcg), help=f"DCG {num(linear.dcg)} / IDCG {num(linear.idcg)}")
    right.metric("NDCG, exponential gain", num(exponential.ndcg), delta=num(exponential.ndcg - linear.ndcg),
                 help=f"DCG {num(exponential.dcg)} / IDCG {num(exponential.idcg)}")


def lesson_ideal_all_judged(settings: MetricSettings) -> None:
    st.markdown(
        "Where does the ideal list come from? From the **ranking alone** (sort what was retrieved), or from **all "
        "judged documents** for the query, including relevant ones the system never retrieved. Source document 003 "
        "knows two more judged documents, D7 (grade 3) and D8 (grade 2): the ideal top 6 becomes 3, 3, 3, 2, 2, 2, "
        "IDCG grows and NDCG drops (with linear gain, to 0.785). trec_eval does this; scikit-learn cannot, since it "
        "only sees the ranked list."
    )
    included = st.multiselect(
        "Judged documents that were not retrieved, counted in the ideal", list(DOCUMENT_003_EXTRA),
        default=list(DOCUMENT_003_EXTRA), format_func=lambda name: f"{name} (grade {num(DOCUMENT_003_EXTRA[name])})",
        key="lesson_extra_docs", persist_state="session",
    )
    ranked = list(DOCUMENT_003_GRADES)
    # The document's nDCG_6: both lists cut at the ranking's 6 places (k=None would keep every judgment).
    alone = ndcg_core.evaluate(ranked, **lesson_kwargs(settings, k=len(ranked)))
    judged = ndcg_core.evaluate(
        ranked, ideal_relevances=ranked + [DOCUMENT_003_EXTRA[name] for name in included],
        **lesson_kwargs(settings, k=len(ranked)),
    )
    lesson_table(
        pd.DataFrame(
            {
                "Ideal taken from": ["the ranking alone (D1–D6)", "all judged documents" + (f" (+ {', '.join(included)})" if included else "")],
                "Ideal top 6 grades": [", ".join(num(g) for g in r.ideal_relevances[:6]) for r in (alone, judged)],
                "DCG": [alone.dcg, judged.dcg],
                "IDCG": [alone.idcg, judged.idcg],
                "NDCG": [alone.ndcg, judged.ndcg],
            }
        ),
        key="all-judged",
    )
    if included:
        st.markdown(
            f"Same DCG ({num(alone.dcg)}), larger IDCG ({num(alone.idcg)} → {num(judged.idcg)}): NDCG falls from "
            f"{num(alone.ndcg)} to {num(judged.ndcg)}. The ranking is judged against documents it missed."
        )


def lesson_all_zero(settings: MetricSettings) -> None:
    st.markdown(
        "If no document is relevant, IDCG = 0 and NDCG = DCG / IDCG = 0 / 0 is undefined. Libraries disagree: "
        "scikit-learn and trec_eval report 0, LightGBM and XGBoost 1; the code of source document 000 skips "
        "such lists when averaging, and source document 002's code returns 0.0."
    )
    size = st.slider("Documents, all graded 0", 1, 8, 4, key="lesson_zero_size", persist_state="session")
    rescue = st.toggle("Give the last document grade 1", key="lesson_zero_rescue", persist_state="session")
    grades = [0.0] * size
    if rescue:
        grades[-1] = 1.0
    rows, refusal, sums = [], None, None
    for rule, label in (("zero", "0 (scikit-learn, trec_eval)"), ("one", "1 (LightGBM, XGBoost)"),
                        ("skip", "skip (left out of averages)"), ("error", "refuse (error)")):
        try:
            result = ndcg_core.evaluate(grades, **lesson_kwargs(settings, zero_idcg=rule))
            shown = "left out (NaN)" if math.isnan(result.ndcg) else num(result.ndcg)
            sums = (num(result.dcg), num(result.idcg))  # the rule only decides NDCG, never DCG or IDCG
            rows.append({"Rule for IDCG = 0": label, "DCG": sums[0], "IDCG": sums[1], "NDCG": shown})
        except ndcg_core.InvalidInput as error:
            refusal = reason_only(error)  # its advice (another rule) is what the rows above show
            rows.append({"Rule for IDCG = 0": label, "DCG": sums[0], "IDCG": sums[1], "NDCG": "refused (below)"})
    lesson_table(pd.DataFrame(rows), key="all-zero", numbers=())  # its cells are already words and num()'s figures
    if refusal:  # in full under the table: a table cell cut it off mid-word ("… is unde")
        st.caption(f"Refuse: {plain(refusal)} The other rules above each give it a value.")
    if rescue:
        st.info("With one relevant document IDCG > 0, so every rule gives the same, well-defined NDCG.")


def lesson_dataset(settings: MetricSettings) -> None:
    st.markdown(
        "A data set has many queries. Source document 000 gives two ways to combine them: the **mean of the "
        "per-query NDCGs** (usual: every query counts the same) or **ΣDCG / ΣIDCG** (queries with a large IDCG, "
        "i.e. many highly relevant documents, weigh more)."
    )
    defaults = {"Q1": (3.0, 1.0, 2.0, 0.0, 2.0), "Q2": (0.0, 0.0, 1.0), "Q3": (3.0, 3.0, 2.0, 3.0)}
    columns = st.columns(len(defaults))
    lists: dict[str, list[float]] = {}
    for column, (query, default) in zip(columns, defaults.items(), strict=True):
        with column:
            grades = grades_field(f"{query} grades", default, key=f"lesson_dataset_{query}")
            if grades is not None:
                lists[query] = grades
    if len(lists) < len(defaults):
        return
    # The three lists as a tiny run (documents in ranked order, each judged), evaluated by ndcg_core.
    run = pd.DataFrame(
        [
            (query, f"{query}-d{position}", position, grade)
            for query, grades in lists.items()
            for position, grade in enumerate(grades, start=1)
        ],
        columns=["query", "doc", "rank", "relevance"],
    )
    evaluated = ndcg_core.evaluate_run(run, **lesson_kwargs(settings))
    per_query = evaluated.per_query[["dcg", "idcg", "ndcg"]]
    # A query the zero-IDCG rule "skip" leaves out has no NDCG: "–", as on the Dataset page (the grid drew "None").
    st.dataframe(per_query.round(3).rename(columns=str.upper), width="stretch", placeholder="–")
    skipped = [str(query) for query, ndcg in per_query["ndcg"].items() if math.isnan(ndcg)]
    counted = [f"NDCG{'₁₂₃'[j]}" for j, query in enumerate(per_query.index) if query not in skipped]
    mean, ratio = evaluated.mean_ndcg, evaluated.ratio_of_sums
    left, right = st.columns(2)
    left.metric("Mean of per-query NDCG", num(mean),
                help=f"({' + '.join(counted)}) / {len(counted)}" if counted
                else "No query has an NDCG to average.")
    # The gap between two ways of averaging, not a gain: grey, with no arrow (a green "↑ 0.142" read as "better").
    right.metric("ΣDCG / ΣIDCG", num(ratio),
                 delta=None if math.isnan(mean - ratio) else f"{signed_change(ratio - mean)} vs the mean",
                 delta_color="off", delta_arrow="off", help="(DCG₁ + DCG₂ + DCG₃) / (IDCG₁ + IDCG₂ + IDCG₃)")
    # Two formulas, not one with a gap: on a phone the line broke after the first "=", and its value sat beside the
    # second formula ("0.811   ΣDCG / ΣIDCG = 0.953").
    st.latex(r"\frac{1}{n}\sum_q NDCG_q = " + num(mean, missing=r"\text{undefined}"))
    st.latex(r"\frac{\sum_q DCG_q}{\sum_q IDCG_q} = " + num(ratio, missing=r"\text{undefined}"))
    if skipped:
        names = " and ".join(skipped) if len(skipped) < 3 else "Q1, Q2 and Q3"
        st.caption(f"{names} {'has' if len(skipped) == 1 else 'have'} IDCG = 0: the sidebar's zero-IDCG rule (skip) "
                   f"leaves {'it' if len(skipped) == 1 else 'them'} out of the mean, so n = {len(counted)}.")
    st.caption(
        "The ratio of sums is a weighted mean of the NDCGs, each query weighted by its IDCG, so it leans towards "
        "the queries with the biggest IDCG. Queries with IDCG = 0 add nothing to either sum."
    )
