"""The tie band as a page section: ``ui.tie_band_view.show_tie_band`` plus what to say when nothing ties.

* :func:`show` - for a page with grades and scores (Library conventions): the band, or, when no two scores
  tie, the sentence that the band is a single point (its value from ``ndcg_core.tie_band``).
* :func:`show_for_ranking` - for the Playground, whose lists have no scores: a list opened from the Dataset
  page under the "average" tie rule carries its tie groups, and the band is drawn for them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import streamlit as st

import ndcg_core
from ui.formatting import fixed
from ui.messages import user_message
from ui.tie_band_view import show_tie_band, tie_band_rows
from ui.widgets import plain, text_line


def show(grades: Sequence[float], scores: Sequence[float] | None, *, k: int | None = None,
         judged: Sequence[float] | None = None, doc_ids: Sequence[str] | None = None, key: str = "tie_band",
         title: str = "The tie band") -> None:
    """The tie band of one scored list; a sentence instead when the list has no scores or no tied scores."""
    try:
        _show(grades, scores, k=k, judged=judged, doc_ids=doc_ids, key=key, title=title)
    except ndcg_core.InvalidInput as error:  # the band shows every library, some with 2^grade - 1 gain
        st.caption(f"{title}: not shown for these grades under every library's gain: {plain(user_message(error))}")


def _show(grades, scores, *, k, judged, doc_ids, key, title) -> None:
    if scores is None:
        st.caption(f"{title}: fill in the Score column to see how far tied scores alone can move NDCG.")
        return
    band = ndcg_core.tie_band(grades, scores, k=k, gain="exponential")
    if band.tied_groups == 0:
        linear = ndcg_core.tie_band(grades, scores, k=k, gain="linear")
        st.markdown(f"### {title}")
        text_line(f"No two scores tie, so every tie rule gives the same order: the band shrinks to a single point, "
                f"NDCG = {fixed(band.expected)} with gain 2^grade − 1 ({fixed(linear.expected)} with gain = grade; "
                "ideal from the ranked list). Give two documents the same score to see a band."
                + _single_precision_ties(grades, scores))
        return
    if title != "The tie band":
        st.markdown(f"**{title}**")
    settings = {"k": k, "judged": None if judged is None else list(judged),
                "doc_ids": None if doc_ids is None else list(doc_ids)}
    show_tie_band(list(grades), list(scores), key=key, **settings)
    with st.expander("Where each library lands in the band"):
        st.dataframe(landing_table(tie_band_rows(list(grades), list(scores), **settings)), hide_index=True,
                     key=f"{key}_landing")


def _single_precision_ties(grades, scores) -> str:
    """A sentence, for scores with no tie, when some tie once rounded to single precision as some libraries keep
    them."""
    if not ndcg_core.score_order(list(grades), list(scores), precision="float32").tied:
        return ""
    libraries = [c.label for c in ndcg_core.CONVENTIONS.values() if c.score_precision == "float32"]
    return (f"\nBut some scores are closer than single precision can tell apart, and {', '.join(libraries)} keep "
            "scores in single precision: for them those scores tie, and their tie rule decides the order (so their "
            "NDCG can differ from the others' here).")


def landing_table(rows: list[dict]) -> pd.DataFrame:
    """One row per (setting, library): its NDCG and where it sits (lowest / highest order, the average, between)."""
    records = []
    for row in rows:
        band = row["band"]
        for library, value in row["markers"].items():
            where = ("the only value (the tied documents share a grade)" if band.width < 1e-12 else
                     "the worst order" if abs(value - band.low) < 1e-9 else
                     "the best order" if abs(value - band.high) < 1e-9 else
                     "the average over orders" if abs(value - band.expected) < 1e-9 else "inside the band")
            records.append({"Setting": row["setting"], "Library": library, "NDCG": round(value, 4), "Lands on": where})
    return pd.DataFrame(records, columns=["Setting", "Library", "NDCG", "Lands on"])


def show_for_ranking(names: Sequence[str], grades: Sequence[float], tie_groups: Sequence[int] | None, *,
                     extra_grades: Sequence[float] = (), k: int | None = None) -> None:
    """Playground: the tie band of a list that still carries its run's tie groups (nothing otherwise).

    The groups become scores that tie exactly where the run's did (each group one score, higher first), so
    ``ndcg_core.tie_band`` ranks the list back in the shown order and explores every order inside each group.
    """
    if tie_groups is None:
        return
    labels = np.asarray(list(tie_groups))
    scores = -np.r_[0, np.cumsum(labels[1:] != labels[:-1])].astype(float)  # one score per run of equal labels
    if np.unique(scores).size == scores.size:
        return  # no tie left: the run's order is the only one
    judged = list(grades) + list(extra_grades) if len(extra_grades) else None
    with st.expander("The tie band: how far the run's tied scores alone can move NDCG", expanded=False):
        show_tie_band(list(grades), scores.tolist(), k=k, judged=judged, doc_ids=list(names), key="playground_tie_band")
        st.markdown("**Where each library lands in the band**")
        rows = tie_band_rows(list(grades), scores.tolist(), k=k, judged=judged, doc_ids=list(names))
        st.dataframe(landing_table(rows), hide_index=True, key="playground_tie_band_landing")


def show_for_conventions(given, *, k: int | None) -> None:
    """Library conventions: the band of ranker 1 (and of ranker 2 when its scores are given), ``given`` being
    ``ui.conventions_view.CheckedInput``."""
    rankers = [("", given.scores)] + ([(", ranker 2", given.scores_2)] if given.scores_2 is not None else [])
    for suffix, scores in rankers:
        title = "The tie band" + (", ranker 1" if len(rankers) > 1 and not suffix else suffix)
        show(given.grades, scores, k=k, judged=given.all_grades, doc_ids=given.documents,
             key=f"conventions_tie_band{suffix.replace(', ranker ', '_')}", title=title)
