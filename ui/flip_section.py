""""Does my choice flip the winner?" on the Compare page: ``ndcg_core.winner_grid`` overall and per query.

* :func:`for_lists` - two rankings of the same judged documents (one query);
* :func:`for_runs` - two runs on the data set: the grid over every query, and the grid of one picked query.

The grid varies gain, cutoff, ideal list and IDCG = 0 rule around the sidebar's settings (log base 2); the runs'
tie rule is the page's. ``ui.flip_grid_view.show_winner_grid`` draws it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd
import streamlit as st

import ndcg_core
from ui import dataset_view
from ui.flip_grid_view import show_winner_grid
from ui.settings import MetricSettings
from ui.widgets import plain

MAX_RUN_QUERIES = 200  # the grid ranks and evaluates each query on its own: ~14 s for 200 queries, once (cached)


def baseline(settings: MetricSettings) -> tuple[dict, str]:
    """``winner_grid``'s baseline from the sidebar, and a note when a setting is outside the grid's choices."""
    gain = settings.gain if settings.gain in ("linear", "exponential") else "exponential"
    zero = settings.zero_idcg if settings.zero_idcg in ("zero", "one") else "zero"
    notes = []
    if gain != settings.gain:
        notes.append("the custom gain table is replaced by 2^grade − 1")
    if zero != settings.zero_idcg:
        notes.append(f"the IDCG = 0 rule “{settings.zero_idcg}” by 0")
    if settings.log_base != "2":
        notes.append("the discount uses log base 2")
    note = f" (In this grid {', '.join(notes)}.)" if notes else ""
    return {"k": settings.k, "gain": gain, "zero_idcg": zero, "ideal": "all_judged"}, note


def _intro(note: str, *, who: str = "") -> None:
    st.subheader("Does my choice flip the winner?")
    st.caption(f"{who}Each cell evaluates both again with that row's gain and that column's cutoff: it names the "
               "winner, then the NDCG of A vs B. The first row and the first column are the sidebar's settings; ⚠ "
               "marks a cell whose winner differs from theirs. The list under the table also tries the other ideal "
               "list (ranked documents only) and the other IDCG = 0 rule." + note)


def for_lists(orders: Mapping[str, Sequence[str]], grade_of: Mapping[str, float], all_grades: Sequence[float],
              settings: MetricSettings) -> None:
    """Two rankings of one query: the grid for ranking A vs ranking B."""
    choices, note = baseline(settings)
    _intro(note)
    try:
        grid = ndcg_core.winner_grid([[grade_of[n] for n in orders["A"]]], [[grade_of[n] for n in orders["B"]]],
                                     judged=[list(all_grades)], **choices)
    except ndcg_core.InvalidInput as error:
        st.info(f"Not available: {plain(error)}", icon=":material/info:")
        return
    show_winner_grid(grid, ("A", "B"), key="compare_flip_lists")


@st.cache_resource(show_spinner=False, max_entries=8)
def _lists(digest: str, run_name: str, ties: str, _dataset) -> dict[str, tuple[list[float], list[float]]]:
    """Per query: the run's ranked grades (unjudged = 0) and every judged grade, from ``ndcg_core.ranked_query``."""
    encoded = dataset_view.encoded_run(_dataset, run_name)
    lists = {}
    for query in encoded.query_names.astype(str):
        try:
            listed = ndcg_core.ranked_query(encoded, query=query, ties=ties)
        except ndcg_core.InvalidInput:
            continue  # not retrieved, or not judged: no NDCG to compare
        lists[query] = (listed.grades.tolist(), listed.ideal_relevances.tolist())
    return lists


@st.cache_resource(show_spinner=False, max_entries=16)
def _grid(digest: str, name_a: str, name_b: str, ties: str, choices: tuple, queries: tuple, _dataset) -> pd.DataFrame:
    a, b = _lists(digest, name_a, ties, _dataset), _lists(digest, name_b, ties, _dataset)
    return ndcg_core.winner_grid([a[q][0] for q in queries], [b[q][0] for q in queries],
                                 judged=[a[q][1] for q in queries], **dict(choices))


def for_runs(dataset, name_a: str, name_b: str, settings: MetricSettings, *, ties: str) -> None:
    """Two runs: the grid over every query both runs rank, then the grid of one picked query."""
    choices, note = baseline(settings)
    _intro(note + (" Tied scores are ordered by the page's rule; under “average” the run's own order is used."
                   if ties == "average" else ""), who=f"A = {plain(name_a)}, B = {plain(name_b)}. ")
    queries_a = dataset_view.encoded_run(dataset, name_a).query_names
    if len(queries_a) > MAX_RUN_QUERIES:
        st.caption(f"This data set has {len(queries_a):,} queries; the grid ranks each query on its own, so it is "
                   f"offered up to {MAX_RUN_QUERIES} queries. Use two rankings of one query instead.")
        return
    rule = "stable" if ties == "average" else ties
    a, b = _lists(dataset.digest, name_a, rule, dataset), _lists(dataset.digest, name_b, rule, dataset)
    queries = tuple(sorted(set(a) & set(b)))
    if not queries:
        st.info("The two runs share no judged query.", icon=":material/info:")
        return
    frozen = tuple(sorted(choices.items()))
    st.markdown(f"**Overall**: mean NDCG over the {len(queries)} queries both runs rank")
    show_winner_grid(_grid(dataset.digest, name_a, name_b, rule, frozen, queries, dataset), ("A", "B"),
                     key="compare_flip_runs")
    query = st.selectbox("One query", queries, key="compare_flip_query", help="The same grid for a single query.")
    st.markdown(f"**Query {plain(query)}**")
    show_winner_grid(_grid(dataset.digest, name_a, name_b, rule, frozen, (query,), dataset), ("A", "B"),
                     key="compare_flip_query_grid")
