"""Dataset page: evaluate a TREC run (or a CSV) against judgments, both dataset formulas, query by query."""

import streamlit as st

import ndcg_core
import ui
from ui import dataset_view as view
from ui.settings import current_settings, show_url_warning
from ui.state import open_in_playground
from ui.widgets import plain

ui.page_shell()  # first: a run Streamlit started without app.py goes through it (see ui/__init__.py)

show_url_warning()
st.title("Dataset: NDCG over many queries")
st.caption(
    "Upload TREC judgments (qrels) and a run, or one CSV, or use the bundled sample. Every figure comes from "
    "ndcg_core.evaluate_run with the settings in the sidebar."
)

# --- input ---------------------------------------------------------------------------------------------------
SOURCES = {"sample": "Bundled sample", "trec": "TREC qrels + run", "csv": "One CSV"}
source = st.radio("Data", list(SOURCES), format_func=SOURCES.get, horizontal=True, key="dataset_source")
if source == "sample":
    if view.current_dataset().digest != "sample":
        st.button("Switch back to the bundled sample", key="dataset_use_sample", on_click=view.use_sample)
elif source == "trec":
    left, right = st.columns(2)
    qrels_file = left.file_uploader(
        "Qrels (TREC: query 0 doc grade)", key="dataset_qrels_file",
        help="One judgment per line: query id, an unused column (0), document id, grade. Whitespace separated.",
    )
    run_files = right.file_uploader(
        "Run(s) (TREC: query Q0 doc rank score tag)", key="dataset_run_files", accept_multiple_files=True,
        help="Six whitespace-separated columns per line. Upload two runs to compare them on the Compare page.",
    )
    if qrels_file is not None and run_files:
        view.load_uploads("trec", qrels_file, run_files)
    elif qrels_file is not None or run_files:
        st.info("Add both the qrels file and at least one run file to evaluate them.", icon=":material/attach_file:")
else:
    tables = st.file_uploader(
        "CSV with columns query, doc, relevance and score or rank", key="dataset_csv_files",
        accept_multiple_files=True,
        help="One row per (query, document). Rows with an empty score and rank are judged but not retrieved; "
        "an empty relevance means unjudged. Several CSVs are several runs.",
    )
    if tables:
        view.load_uploads("csv", None, tables)
view.show_load_error()

dataset = view.current_dataset()
settings = current_settings()
run_names = list(dataset.runs)
view.restore_from_url({
    "dataset_run": ("run", run_names), "dataset_ties": ("ties", list(view.TIE_RULES)),
    "dataset_missing": ("missing", list(view.MISSING_RULES)),
})
top = st.columns([2, 2, 2])
run_name = top[0].selectbox("Run", run_names, key="dataset_run", help="Each uploaded run file (or CSV) is one run.")
ties = top[1].selectbox(
    "Tied scores", list(view.TIE_RULES), format_func=view.TIE_RULES.get, key="dataset_ties",
    help="How documents with equal scores are ordered. trec_eval sorts them by document id, descending.",
)
missing = top[2].selectbox(
    "Judged queries missing from the run", list(view.MISSING_RULES), format_func=view.MISSING_RULES.get,
    key="dataset_missing",
)
st.text(f"Data: {dataset.label} · run: {run_name}")

options = view.run_options(settings, ties=ties, missing=missing)
try:
    with st.spinner("Evaluating…"):
        result = view.evaluate(dataset, run_name, options)
except ndcg_core.InvalidInput as error:
    st.error(f"This data cannot be evaluated with the current settings: {plain(error)}", icon=":material/warning:")
    st.stop()
except Exception as error:  # noqa: BLE001 - never a traceback on screen; say what happened instead
    st.error(f"Unexpected problem while evaluating ({plain(type(error).__name__)}: {plain(error)}). Try other "
             "settings, or reload the files.", icon=":material/error:")
    st.stop()

label = "NDCG" if settings.k is None else f"NDCG@{settings.k}"
cutoff_note = "the whole run" if settings.k is None else f"the top {settings.k} documents"

# --- headline --------------------------------------------------------------------------------------------------
cards = st.columns(4)
cards[0].metric(f"Mean of per-query {label}", f"{result.mean_ndcg:.4f}", help="(1/n) Σ NDCG_q: every query weighs the same.")
cards[1].metric("Ratio of sums ΣDCG / ΣIDCG", f"{result.ratio_of_sums:.4f}", help="Σ DCG_q / Σ IDCG_q: queries with a large IDCG weigh more.")
cards[2].metric("Queries evaluated", f"{len(result.per_query)}")
cards[3].metric(
    "Unjudged retrieved", f"{result.unjudged_share:.1%}",
    help=f"Share of the retrieved documents within {cutoff_note} that have no judgment (they count as grade 0).",
)
gap = ndcg_core.aggregate_gap(result.per_query)
st.markdown("**Why the two figures differ here.** " + view.why_aggregates_differ(gap, zero_rule=settings.zero_idcg))

notes = []
zero_queries = list(result.zero_idcg_queries)
if zero_queries:
    rule = view.settings_rule_text(settings.zero_idcg)
    notes.append(f"Zero-IDCG rule: {view.count(len(zero_queries), 'query has', 'queries have')} no relevant judged document ({view.describe_list(zero_queries)}); {rule}.")
else:
    notes.append("Zero-IDCG rule: no query has IDCG = 0, so the rule changes nothing.")
missing_queries = list(result.missing_queries)
if missing_queries:
    treatment = "left out of both figures" if missing == "ignore" else "counted with DCG 0 (NDCG 0)"
    notes.append(f"Missing-query rule: {view.count(len(missing_queries), 'judged query is', 'judged queries are')} absent from the run ({view.describe_list(missing_queries)}); {treatment}.")
else:
    notes.append("Missing-query rule: every judged query is in the run, so the rule changes nothing.")
unjudged_queries = list(result.unjudged_queries)
if unjudged_queries:
    notes.append(f"{view.count(len(unjudged_queries), 'run query has', 'run queries have')} no judgments at all and cannot be evaluated ({view.describe_list(unjudged_queries)}).")
st.text("\n".join(notes))

# --- charts ----------------------------------------------------------------------------------------------------
left, right = st.columns(2)
left.plotly_chart(view.histogram_chart(result.per_query["ndcg"], mean=result.mean_ndcg, label=label), key="dataset_histogram")
right.plotly_chart(view.curve_chart(view.curve(dataset, run_name, options), k=settings.k), key="dataset_curve")

# --- per query -------------------------------------------------------------------------------------------------
st.subheader("Per query")
per_query = result.per_query.reset_index().rename(columns={"index": "query"})
per_query.insert(  # next to the figures it explains
    per_query.columns.get_loc("ndcg") + 1, "note",
    view.query_notes(per_query, zero_idcg=result.zero_idcg_queries, missing=result.missing_queries),
)
selection = st.dataframe(
    per_query,
    hide_index=True,
    on_select="rerun",
    selection_mode="single-row",
    key="dataset_table",
    column_config={
        "query": st.column_config.TextColumn("Query"),
        "ndcg": st.column_config.NumberColumn(label, format="%.4f"),
        "dcg": st.column_config.NumberColumn("DCG", format="%.4f"),
        "idcg": st.column_config.NumberColumn("IDCG", format="%.4f"),
        "n_retrieved": st.column_config.NumberColumn("Retrieved"),
        "n_judged_retrieved": st.column_config.NumberColumn("Judged & retrieved"),
        "n_judged": st.column_config.NumberColumn("Judged", help="Judged documents of the query (the ideal list)."),
        "n_relevant": st.column_config.NumberColumn("Relevant", help="Judged documents with a grade above 0."),
        "note": st.column_config.TextColumn("Note", help="Why a query's figure needs a second look."),
        "n_unjudged_in_cutoff": st.column_config.NumberColumn(
            "Unjudged in cutoff", help="Retrieved documents within the cutoff without a judgment (counted as grade 0)."
        ),
    },
)
st.download_button(
    "Download per-query CSV", per_query.to_csv(index=False).encode(), file_name=f"per_query_{label.lower()}.csv",
    mime="text/csv", key="dataset_download",
)

queries = per_query["query"].astype(str).tolist()
selected_rows = list(selection.selection.rows) if selection is not None else []
if selected_rows and selected_rows != st.session_state.get("dataset_table_applied"):
    st.session_state["dataset_query"] = queries[selected_rows[0]]  # a new row click picks that query
st.session_state["dataset_table_applied"] = selected_rows
if st.session_state.get("dataset_query") not in queries:
    st.session_state.pop("dataset_query", None)
view.restore_from_url({"dataset_query": ("query", queries)})
query = st.selectbox("Open one query's ranking", queries, key="dataset_query", help="Or select a row of the table.")
# Share links name the run, rules and query; they reproduce the page for the bundled sample (uploads stay private).
view.mirror_to_url({"run": run_name, "ties": ties, "missing": missing, "query": query} if dataset.digest == "sample"
                   else {"run": None, "ties": None, "missing": None, "query": None})
row = per_query[per_query["query"].astype(str) == query].iloc[0]
st.text(f"Query {query}: {label} = {row['ndcg']:.4f}, DCG = {row['dcg']:.4f}, IDCG = {row['idcg']:.4f}")
# The click is recorded by a callback and acted on here, so a rerun in between cannot lose it.
st.button(f"Open query {plain(query)} in the Playground", key="dataset_open", type="primary",
          on_click=view.request_open, args=(query,))
requested = view.take_open_request()
if requested is not None and requested in queries:
    try:
        listed = view.query_ranking(dataset, run_name, requested, ties=ties)
    except ndcg_core.InvalidInput as error:  # e.g. a judged query the run did not retrieve anything for
        st.warning(f"This query cannot be opened in the Playground: {plain(error)}", icon=":material/info:")
    else:
        open_in_playground(listed.docs, listed.grades, extra_names=listed.extra_docs,
                           extra_grades=listed.extra_grades, settings=settings, tie_groups=listed.tie_groups)
st.caption(
    f"The Playground gets the run's top {view.PLAYGROUND_MAX_DOCS} documents at most, in the order of the tie rule; "
    "unjudged documents get grade 0 and judged documents not shown become extra judged documents, so IDCG is the "
    "same. Under the tie rule “average” the tied documents' gains stay averaged there, so the figure is the same."
)
