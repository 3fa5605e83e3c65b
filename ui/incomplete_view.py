"""Dataset page, "Unjudged documents": the usual figure next to the condensed list, judged@k and the top-grade case.

Every figure is ``ndcg_core.incomplete_run`` on the page's encoded run (vectorised: three evaluations of the whole
run, so a million-query run stays cheap) and ``ndcg_core.incomplete_summary``, cached like the page's other evaluations (by
content hash, run name and options). The page call is ``show(dataset, run_name, options, label=...)``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

import ndcg_core
from ui import dataset_state
from ui.dataset_report import encoded_run, evaluate
from ui.dataset_upload import LoadedDataset
from ui.formatting import fixed, grouped, percent
from ui.messages import user_message
from ui.widgets import plain, text_line

SHOWN_ROWS = 100
COLUMNS = {
    "query": st.column_config.TextColumn("Query"),
    "standard": st.column_config.NumberColumn("Usual (unjudged = 0)", format="%.4f"),
    "condensed": st.column_config.NumberColumn("Condensed list", format="%.4f",
                                               help="Unjudged documents removed before ranking (Sakai 2007)."),
    "upper": st.column_config.NumberColumn("Unjudged at top grade", format="%.4f",
                                           help="Every unjudged document judged at the query's highest grade."),
    "n_unjudged_in_cutoff": st.column_config.NumberColumn("Unjudged in cutoff"),
}


@st.cache_resource(show_spinner=False, max_entries=16)
def _figures(digest: str, run_name: str, options: dict, _dataset: LoadedDataset) -> pd.DataFrame:
    # the page's own (cached) encoded run and evaluation: two evaluations are left to do here, no encoding
    return ndcg_core.incomplete_run(encoded_run(_dataset, run_name),
                                    standard=evaluate(_dataset, run_name, options), **options)


@st.cache_resource(show_spinner=False, max_entries=16)
def _summary(digest: str, run_name: str, options: dict, _dataset: LoadedDataset) -> dict:
    # the cards' means, kept with the figures they summarise: a rerun that changes nothing computes nothing
    return ndcg_core.incomplete_summary(_figures(digest, run_name, options, _dataset))


def figures(dataset: LoadedDataset, run_name: str, options: dict) -> pd.DataFrame:
    """``ndcg_core.incomplete_run`` on one run (read-only, shared), cached by content hash, run and options."""
    return _figures(dataset.digest, run_name, options, dataset)


def show(dataset: LoadedDataset, run_name: str, options: dict, *, label: str) -> None:
    """Overall cards, the queries with unjudged documents (largest spread first) and the picked query's line."""
    st.header("Unjudged documents: how much could they change the figure?")
    try:
        with st.spinner("Evaluating the run without its unjudged documents, and with them judged…"):
            per_query = figures(dataset, run_name, options)
    except ndcg_core.InvalidInput as error:
        st.info(f"Not available with these settings: {plain(user_message(error))}", icon=":material/info:")
        return
    summary = _summary(dataset.digest, run_name, options, dataset)
    depth = "the whole ranking" if options.get("k") is None else f"the top {options['k']}"
    judged = "Judged" if options.get("k") is None else f"Judged@{options['k']}"  # the card, the table, the query line
    cards = st.columns(4)
    cards[0].metric(f"Mean {label}, unjudged = 0", fixed(summary["standard"]),
                    help="The usual figure (trec_eval, scikit-learn): an unjudged document counts as not relevant.")
    cards[1].metric("Condensed list", fixed(summary["condensed"]),
                    help="Sakai (2007): unjudged documents are removed before ranking, so judged ones move up; "
                         "IDCG is unchanged. ir_measures: nDCG(judged_only=True).")
    cards[2].metric("Unjudged at top grade", fixed(summary["upper"]),
                    help="Every unjudged document judged at its query's highest grade; those judgments also join "
                         "the ideal list, so this can come out below the usual figure.")
    cards[3].metric(judged, percent(summary["judged_at_k"]),
                    help=f"Mean share of judged documents in {depth} of each query.")
    affected = summary["queries_with_unjudged"]
    if affected == 0:
        tail = ("Judging more documents could not change it." if abs(summary["upper"] - summary["standard"]) < 5e-5
                else f"Unjudged documents below the cutoff can still matter: judged at the top grade they would join "
                     f"the ideal list, and the figure would be {fixed(summary['upper'])}.")
        text_line(f"Every retrieved document in {depth} is judged, so the condensed list is the usual list: both give "
                f"{fixed(summary['standard'])}. {tail}")
        return
    have = "has" if affected == 1 else "have"
    text_line(f"{grouped(affected)} of {grouped(len(per_query))} {'query' if len(per_query) == 1 else 'queries'} {have} "
            f"unjudged documents in {depth}. The usual figure counts "
            "them as not relevant; the condensed list leaves them out; the third figure assumes each was "
            "judged at its query's top grade (grade 1 for a query with no relevant judgment, which has no top grade to "
            "lend).")
    table = per_query[per_query["n_unjudged_in_cutoff"] > 0].rename_axis("query").reset_index()
    table["query"] = table["query"].astype(str)
    spread = (table[["condensed", "upper"]].max(axis=1) - table["standard"]).abs().to_numpy(dtype=float)
    shown = table.iloc[np.argsort(-np.nan_to_num(spread), kind="stable")[:SHOWN_ROWS]]
    if summary["upper"] < summary["standard"]:
        st.caption("The top-grade figure is below the usual one: judging the unjudged documents at the top grade also "
                   "adds them to each query's ideal list, and most of them sit below the cutoff, so IDCG grows more "
                   "than DCG.")
    if affected == 1:
        st.caption("The one query with unjudged documents.")
    else:
        st.caption(f"The {grouped(len(shown))} queries whose figure moves most (of {grouped(affected)} with unjudged "
                   "documents).")
    st.dataframe(shown, hide_index=True, key="dataset_unjudged_table", placeholder="–",
                 column_config={**COLUMNS, "judged_at_k": st.column_config.NumberColumn(judged, format="percent")})
    query = dataset_state.picked_query()
    if query is not None and str(query) in per_query.index.astype(str):
        row = per_query.loc[per_query.index.astype(str) == str(query)].iloc[0]
        text_line(f"Query {query}: usual {fixed(row['standard'])}, condensed {fixed(row['condensed'])}, unjudged at "
                f"top grade {fixed(row['upper'])}, {judged.lower()} {percent(row['judged_at_k'])}.")
