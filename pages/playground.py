"""Playground: edit grades, drag to reorder, and watch CG, DCG, IDCG and NDCG move."""

import streamlit as st

import ndcg_core
from ui import charts, playground_view, state, widgets
from ui.ranked_list import ranked_list
from ui.settings import current_settings, show_url_warning

settings = current_settings()
playground_view.apply_pending_changes(settings)  # drags and edits since the last run, applied exactly once
ranking = state.current_ranking()

st.title("Playground")
st.caption(
    "Drag documents into a new order or edit their grades: every number, chart and formula below follows. "
    f"Settings (sidebar): {settings.describe()}."
)
show_url_warning()
if message := state.url_warning():
    st.warning(message, icon=":material/link_off:")

try:
    result = ndcg_core.evaluate(list(ranking.grades), ideal_relevances=ranking.ideal_relevances(), **settings.kwargs())
except ndcg_core.InvalidInput as error:  # e.g. the "refuse" zero-IDCG rule on a list without relevant documents
    st.error(f"NDCG cannot be computed with these settings: {error}", icon=":material/error:")
    st.caption("Change the rule in the sidebar, or give a document a positive grade here:")
    playground_view.ranking_editor(ranking)
    st.stop()
widgets.metric_cards(result, playground_view.previous_metrics(ranking, settings, result))
playground_view.order_buttons()

list_column, editor_column = st.columns([1.15, 1], gap="large")
with list_column:
    st.subheader("Ranked list")
    ranked_list(
        ranking.names, ranking.grades, result.table["contribution"].tolist(), key=playground_view.LIST_KEY, k=settings.k
    )
with editor_column:
    st.subheader("Grades")
    playground_view.show_edit_error()
    playground_view.ranking_editor(ranking)
    st.caption("Double-click a grade or a name to edit it; use the row tools to add or delete documents. "
               "Sorting by a column header only changes the view, never the ranking.")
    with st.expander(f"Extra judged documents, not in the ranking ({len(ranking.extra_names)})",
                     expanded=bool(ranking.extra_names)):
        st.caption("Documents someone judged but the ranker did not return (like D7 and D8 in document 003). "
                   "Their grades join the ideal list, so they can raise IDCG.")
        playground_view.extra_editor(ranking)
        playground_view.extra_note(ranking, settings, result)

st.subheader("Position by position")
contribution_tab, cumulative_tab, decomposition_tab = st.tabs(
    ["Contribution: yours vs ideal", "Cumulative DCG, IDCG and NDCG@i", "Gain ÷ discount"]
)
with contribution_tab:
    st.plotly_chart(charts.contribution_chart(result.table, k=settings.k), key="playground_contribution", theme=None)
with cumulative_tab:
    st.plotly_chart(charts.cumulative_chart(result.table, k=settings.k), key="playground_cumulative", theme=None)
with decomposition_tab:
    st.plotly_chart(charts.decomposition_chart(result.table, k=settings.k), key="playground_decomposition", theme=None)

st.subheader("The formula, with these numbers")
widgets.formula(result, settings)

st.subheader("Per-position table")
widgets.show_table(result, names=ranking.names, key="playground_table", height=min(38 + 35 * len(ranking.names), 420))

st.subheader("Share this exact state")
playground_view.share_link(ranking, settings)
