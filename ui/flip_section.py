""""Does my choice flip the winner?" on the Compare page: ``ndcg_core.winner_grid`` overall and per query.

* :func:`for_lists` - two rankings of the same judged documents (one query);
* :func:`for_runs` - two runs on the data set: the grid over every query, and the grid of one picked query.

The grid varies gain, cutoff, ideal list and IDCG = 0 rule around the sidebar's settings (log base 2); for runs
also the tie rule (``ndcg_core.run_winner_grid``, vectorised over queries, so no limit on their number). ``ui.flip_grid_view.show_winner_grid`` draws it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import pandas as pd
import streamlit as st

import ndcg_core
from ui import dataset_view
from ui.dataset_report import MISSING_RULES
from ui.flip_grid_view import show_winner_grid
from ui.messages import user_message
from ui.settings import MetricSettings
from ui.settings_model import ZERO_IDCG_LABELS
from ui.widgets import plain


def baseline(settings: MetricSettings) -> tuple[dict, str]:
    """``winner_grid``'s baseline from the sidebar, and a note when a setting is outside the grid's choices."""
    gain = settings.gain if settings.gain in ("linear", "exponential") else "exponential"
    zero = settings.zero_idcg if settings.zero_idcg in ("zero", "one") else "zero"
    notes = []
    if gain != settings.gain:
        notes.append("the custom gain table is replaced by 2^grade − 1")
    if zero != settings.zero_idcg:
        # The grid's means then count queries the sidebar's rule leaves out (or refuses): they differ from the cards.
        notes.append(f"NDCG when IDCG = 0 is “{ZERO_IDCG_LABELS['zero']}” instead of the sidebar's "
                     f"“{ZERO_IDCG_LABELS[settings.zero_idcg]}”, so its means count those queries as 0")
    if settings.log_base != "2":
        notes.append("the discount uses log base 2")
    note = f" (In this grid {', '.join(notes)}.)" if notes else ""
    return {"k": settings.k, "gain": gain, "zero_idcg": zero, "ideal": "all_judged"}, note


def _intro(note: str, *, who: str = "") -> None:
    st.header("Does my choice flip the winner?")
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
                                     ideal_relevances=[list(all_grades)], **choices)
    except ndcg_core.InvalidInput as error:
        st.info(f"Not available: {plain(user_message(error))}", icon=":material/info:")
        return
    show_winner_grid(grid, ("A", "B"), key="compare_flip_lists")


@st.cache_resource(show_spinner=False, max_entries=8)
def _ratios(digest: str, run_name: str, k: int | None, _dataset) -> ndcg_core.RunRatios:
    """``ndcg_core.run_ratios`` of one run (every tie rule, gain and cutoff), once per data set, run and k."""
    return ndcg_core.run_ratios(dataset_view.encoded_run(_dataset, run_name), k=k)


@st.cache_resource(show_spinner=False, max_entries=16)
def _grid(digest: str, name_a: str, name_b: str, choices: tuple, query: str | None, _dataset) -> pd.DataFrame:
    options = dict(choices)
    a, b = (_ratios(digest, name, options["k"], _dataset) for name in (name_a, name_b))
    return ndcg_core.run_winner_grid(a, b, queries=None if query is None else [query], **options)


QUERY_KEY = "compare_flip_query"  # the picked query's widget key


def for_runs(dataset, name_a: str, name_b: str, settings: MetricSettings, *, ties: str,
             restore_query: Callable[[list[str]], None] | None = None, missing: str = "ignore",
             compared: int | None = None) -> str | None:
    """Two runs: the grid over every query both runs rank (any number: ``run_winner_grid`` is vectorised over
    queries), then the grid of one picked query. The tie rule is a dimension of the grid, the page's rule first.
    ``compared``: how many queries the cards above compare (under ``missing="zero"`` also those a run lacks).

    ``restore_query`` gets the queries offered before the picker is drawn (a share link's query is set then);
    returns the picked query, or None when the grid is not available."""
    choices, note = baseline(settings)
    _intro(note + " A second table varies the tie rule (the Dataset page's rule first): it matters where a run "
                  "gives documents equal scores.", who=f"A = {plain(name_a)}, B = {plain(name_b)}. ")
    frozen = tuple(sorted({**choices, "ties": ties}.items()))
    try:
        with st.spinner("Evaluating both runs under every convention…"):
            grid = _grid(dataset.digest, name_a, name_b, frozen, None, dataset)
    except ndcg_core.InvalidInput as error:
        st.info(f"Not available: {plain(user_message(error))}", icon=":material/info:")
        return None
    queries = grid.attrs["query_ids"]
    shared = grid.attrs["queries"]
    st.markdown(f"**Overall**: mean NDCG over the {shared:,} queries both runs rank")
    if missing == "zero" and compared is not None and compared > shared:
        # The cards count a query a run lacks as 0, the grid leaves it out: with no word, the grid's "B wins" sat
        # under cards whose means said A (0.500 vs 0.930 on 2 queries; 0.6667 vs 0.6199 on 3).
        left_out = compared - shared
        st.info(f"Unlike the cards above, this grid leaves out the {left_out:,} judged "
                f"{'query' if left_out == 1 else 'queries'} that only one run (or neither) retrieved, which the "
                f"missing-query rule “{MISSING_RULES['zero']}” counts there as NDCG 0: its means and its winner can "
                "differ from theirs.", icon=":material/info:")
    show_winner_grid(grid, ("A", "B"), key="compare_flip_runs")
    if restore_query is not None:
        restore_query([str(query) for query in queries])
    query = st.selectbox("One query", queries, key=QUERY_KEY, help="The same grid for a single query.")
    st.markdown(f"**Query {plain(query)}**")
    show_winner_grid(_grid(dataset.digest, name_a, name_b, frozen, str(query), dataset), ("A", "B"),
                     key="compare_flip_query_grid")
    return str(query)
