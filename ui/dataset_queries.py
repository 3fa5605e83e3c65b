"""Dataset page, query by query: a searchable, paged per-query table and the "open in the Playground" hand-off.

Built for a million queries: the table shows one page (100 rows) of the queries that match the search box, in
the chosen order; the picker offers that page's queries only. The prepared table, the orders and the search
results are cached by content hash, run and settings, so paging or reopening the page recomputes nothing
heavy; the CSV download is generated only when it is clicked.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

import ndcg_core
from ui import dataset_state, url_state
from ui import dataset_view as view
from ui.dataset_report import MISSING_RULES, figure, query_notes
from ui.dataset_upload import LoadedDataset
from ui.formatting import TIE_RULE_LABELS, fixed, grouped
from ui.messages import user_message
from ui.settings import MetricSettings
from ui.state import open_in_playground
from ui.widgets import plain, text_line

PAGE_ROWS = 100
# An id copied from the page's sentences carries the invisible marks that set it apart there (ui.widgets.isolated).
COPIED_MARKS = "\u2068\u2069"
ORDERS = {"query": "Query id", "worst": "Lowest NDCG first", "best": "Highest NDCG first"}
COLUMNS = {
    "query": st.column_config.TextColumn("Query", pinned=True),  # in view while the counts scroll sideways
    "dcg": st.column_config.NumberColumn("DCG", format="%.4f"),
    "idcg": st.column_config.NumberColumn("IDCG", format="%.4f"),
    "n_retrieved": st.column_config.NumberColumn("Retrieved"),
    "n_judged_retrieved": st.column_config.NumberColumn("Judged & retrieved"),
    "n_judged": st.column_config.NumberColumn("Judged", help="Judged documents of the query (the ideal list)."),
    "n_relevant": st.column_config.NumberColumn("Relevant", help="Judged documents with a grade above 0."),
    # Wide enough for its longest note: beside NDCG at its own width it showed "IDCG = 0:" and no more (1440 px).
    "note": st.column_config.TextColumn("Note", help="Why a query's figure needs a second look.", width=180),
    "n_unjudged_in_cutoff": st.column_config.NumberColumn(
        "Unjudged in cutoff", help="Retrieved documents within the cutoff without a judgment (counted as grade 0)."
    ),
}


@st.cache_resource(show_spinner=False, max_entries=16)
def _table(digest: str, run_name: str, options: dict, _result: ndcg_core.RunResult) -> pd.DataFrame:
    """The per-query figures with a query column and a note column (read-only, shared)."""
    table = _result.per_query.reset_index().rename(columns={"index": "query"})
    table["query"] = table["query"].astype(str)
    # Last, where its width pushes no figure out of view (most rows have no note; the Query column stays pinned).
    table["note"] = query_notes(table, zero_idcg=_result.zero_idcg_queries, missing=_result.missing_queries)
    return table


@st.cache_resource(show_spinner=False, max_entries=16)
def _rows(digest: str, run_name: str, options: dict, order: str, search: str, _table: pd.DataFrame) -> np.ndarray:
    """Positions of the rows matching ``search`` (case-insensitive, part of the id), in ``order``."""
    if order == "query":
        positions = np.arange(len(_table))
    else:  # queries without a figure (IDCG = 0 under Skip) go last either way
        ndcg = _table["ndcg"].to_numpy(dtype=float)
        key = np.where(np.isnan(ndcg), np.inf, ndcg if order == "worst" else -ndcg)
        positions = np.argsort(key, kind="stable")
    if search:
        found = _table["query"].str.contains(search, case=False, regex=False).to_numpy()
        positions = positions[found[positions]]
    return positions


@st.cache_resource(show_spinner=False, max_entries=16)
def _index(digest: str, run_name: str, options: dict, _table: pd.DataFrame) -> pd.Index:
    return pd.Index(_table["query"])




def show(dataset: LoadedDataset, run_name: str, options: dict, result: ndcg_core.RunResult, *,
         settings: MetricSettings, label: str, ties: str) -> None:
    """The per-query section: search, order, one page of the table, the picker and the Playground button."""
    st.header("Per query")
    table = _table(dataset.digest, run_name, options, result)
    left, middle, right = st.columns([3, 2, 1])
    search = left.text_input("Find a query", key=dataset_state.SEARCH_KEY, persist_state="session", on_change=dataset_state.first_page,
                             placeholder="part of a query id", help="Case-insensitive; matches any part of the id.")
    search = search.strip().strip(COPIED_MARKS).strip()
    order = middle.selectbox("Order", list(ORDERS), format_func=ORDERS.get, key=dataset_state.ORDER_KEY, persist_state="session")
    rows = _rows(dataset.digest, run_name, options, order, search, table)
    pages = max(1, -(-len(rows) // PAGE_ROWS))
    page = right.number_input("Page", min_value=1, max_value=pages, step=1, key=dataset_state.PAGE_KEY, persist_state="session")
    shown = table.iloc[rows[(page - 1) * PAGE_ROWS: page * PAGE_ROWS]]
    if len(rows) == 0:
        st.info(f"No query id contains {plain(search)!r}.{_left_out_note(result, search, options)}",
                icon=":material/search_off:")
    else:
        first = (page - 1) * PAGE_ROWS
        st.caption(f"Rows {grouped(first + 1)}–{grouped(first + len(shown))} of {grouped(len(rows))} "
                   f"{'matching ' if search else ''}queries (page {grouped(page)} of {grouped(pages)}).")
    grid_key = dataset_state.table_key(dataset.digest, run_name, options, order, search, page)
    selection = st.dataframe(shown, hide_index=True, on_select="rerun", selection_mode="single-row", key=grid_key,
                             column_config={**COLUMNS, "ndcg": st.column_config.NumberColumn(label, format="%.4f")},
                             placeholder="–")  # a skipped query's NDCG (the grid drew "None")
    st.download_button("Download per-query CSV", lambda: table.to_csv(index=False).encode(),
                       file_name=f"per_query_{label.lower()}.csv", mime="text/csv", key="dataset_download")
    query = _picked_query(dataset, run_name, options, table, shown, selection, search)
    if query is None:
        return
    # Share links name the run, rules and query; they reproduce the page for the bundled sample (uploads stay private).
    view.mirror_to_url({"run": run_name, "ties": ties, "missing": options["missing"], "query": query}
                       if dataset.digest == "sample" else {"run": None, "ties": None, "missing": None, "query": None})
    row = table.iloc[_index(dataset.digest, run_name, options, table).get_loc(query)]
    undefined = "" if np.isfinite(row["ndcg"]) else " (no value: IDCG = 0 and the zero-IDCG rule leaves it out)"
    text_line(f"Query {query}: {label} = {figure(row['ndcg'])}{undefined}, DCG = {fixed(row['dcg'])}, "
            f"IDCG = {fixed(row['idcg'])}")
    retrieved = int(row["n_retrieved"])
    if retrieved > view.PLAYGROUND_MAX_DOCS and (settings.k is None or settings.k > view.PLAYGROUND_MAX_DOCS):
        st.warning(f"Query {plain(query)} has {retrieved:,} retrieved documents: the Playground's NDCG counts its top "
                   f"{view.PLAYGROUND_MAX_DOCS:,} only, so it will differ from this row. With a cutoff k of at most "
                   f"{view.PLAYGROUND_MAX_DOCS:,} the two are equal.", icon=":material/warning:")
    # The click is recorded by a callback and acted on here, so a rerun in between cannot lose it.
    st.button(f"Open query {plain(query)} in the Playground", key="dataset_open", type="primary",
              on_click=view.request_open, args=(query,))
    requested = view.take_open_request()
    if requested is not None and requested in _index(dataset.digest, run_name, options, table):
        try:
            listed = view.query_ranking(dataset, run_name, requested, ties=ties)
        except ndcg_core.InvalidInput as error:  # e.g. a judged query the run did not retrieve anything for
            st.warning(f"This query cannot be opened in the Playground: {plain(user_message(error))}", icon=":material/info:")
        else:
            open_in_playground(listed.docs, listed.grades, extra_names=listed.extra_docs,
                               extra_grades=listed.extra_grades, settings=settings, tie_groups=listed.tie_groups)
    st.caption(
        f"The Playground gets the run's top {view.PLAYGROUND_MAX_DOCS:,} documents at most, in the order of the tie "
        "rule; unjudged documents get grade 0 and judged documents not shown become extra judged documents, so IDCG "
        f"is the same. Under “{TIE_RULE_LABELS['average']}” the tied documents' gains stay averaged there, so the "
        "figure is the same."
    )


def _left_out_note(result: ndcg_core.RunResult, search: str, options: dict) -> str:
    """Why a judged query the search names is not in the table: the run has none of its documents, and the
    missing-query rule leaves such queries out ("" when no such query's id contains ``search``)."""
    if not search or options.get("missing") != "ignore":
        return ""
    if not pd.Index(result.missing_queries, dtype=str).str.contains(search, case=False, regex=False).any():
        return ""
    return (f" A judged query's id does, but the run retrieved nothing for it: the rule “{MISSING_RULES['ignore']}” "
            f"leaves such queries out, “{MISSING_RULES['zero']}” lists them.")


def _picked_query(dataset, run_name: str, options: dict, table: pd.DataFrame, shown: pd.DataFrame, selection,
                  search: str) -> str | None:
    """The query to open: a clicked row, a share link's query, the picker; only this page's queries are offered."""
    index = _index(dataset.digest, run_name, options, table)
    page = dataset_state.state()
    selected_rows = list(selection.selection.rows) if selection is not None else []
    if selected_rows and selected_rows != page.table_rows and selected_rows[0] < len(shown):
        dataset_state.pick_query(shown["query"].iloc[selected_rows[0]])  # a new row click picks that query
    page.table_rows = selected_rows
    linked = url_state.params().get("query")
    if dataset_state.picked_query() is None and linked is not None:
        if linked in index:
            dataset_state.pick_query(linked)
        else:
            url_state.add_warning(dataset_state.LINK_SCOPE, f"The link's query “{linked}” is not one of this run's queries, "
                                                     "so the first query is shown.")
    exact = search.strip()
    if exact and exact in index and page.search != exact:
        dataset_state.pick_query(exact)  # typing a whole query id picks that query
    # Acted on only once it is a query of the table: a whole id typed while a rule leaves that query out is picked
    # when a rule change brings it in (the picker stayed on another query while the table showed only that one).
    page.search = exact if exact in index else ""
    current = dataset_state.picked_query()
    options_shown = shown["query"].tolist()
    if current is not None and current not in index:
        # Set, not forgotten: a forgotten key left the browser showing the old data set's query ("401") over the
        # first query of the new one, which the text below and the button named.
        current = options_shown[0] if options_shown else None
        dataset_state.pick_query(current)
    if current is not None and current not in options_shown:
        options_shown.insert(0, current)
    if not options_shown:
        return None
    return st.selectbox("Open one query's ranking", options_shown, key=dataset_state.QUERY_KEY, persist_state="session",
                        help="The queries of this page (and the one picked); search or page to reach others, "
                             "or select a row of the table.")
