"""Playground: edit grades, drag to reorder, and watch CG, DCG, IDCG and NDCG move."""

import streamlit as st

import ndcg_core
import ui
from ui import charts, playground_view, state, tie_band_section, url_state, widgets
from ui.ranked_list import ranked_list
from ui.ranking import evaluate
from ui.settings import current_settings, show_url_warning

ui.page_shell()  # first: a run Streamlit started without app.py goes through it (see ui/__init__.py)

settings = current_settings()
playground_view.apply_pending_changes(settings)  # drags and edits since the last run, applied exactly once
ranking = state.current_ranking()
link = playground_view.publish_ranking(ranking)  # the URL follows the list, whatever happens below

st.title("Playground")
st.caption(
    "Drag documents into a new order or edit their grades: every number, chart and formula below follows. "
    f"Settings (sidebar): {settings.describe()}."
)
show_url_warning()
url_state.show_warning(state.SCOPE)

try:
    result = evaluate(ranking, **settings.kwargs())
except ndcg_core.InvalidInput as error:  # e.g. "Refuse" on a list without relevant documents, or a gain overflow
    result = None
    playground_view.evaluation_problem(ranking, settings, error)
    playground_view.show_edit_error()
    playground_view.ranking_editor(ranking)

if result is not None:
    widgets.metric_cards(result, playground_view.previous_metrics(ranking, settings, result), reserve_delta=True)
    playground_view.tie_note(ranking)
    tie_band_section.show_for_ranking(ranking.names, ranking.grades, ranking.tie_groups,
                                      extra_grades=ranking.extra_grades, k=settings.k)  # a run's tied scores
    playground_view.order_buttons()

    list_column, editor_column = st.columns([1.15, 1], gap="large")
    with list_column:
        st.subheader("Ranked list")
        ranked_list(ranking.names, ranking.grades, result.table["contribution"].tolist(), key=playground_view.LIST_KEY,
                    k=settings.k)
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
    chart_name = st.segmented_control(
        "Chart", list(charts.CHARTS), default="contribution", format_func=lambda name: charts.CHARTS[name][0],
        key="playground_chart", label_visibility="collapsed", required=True,
    )  # one chart at a time: each rerun (and the browser) draws only the chart being looked at
    build = charts.CHARTS[chart_name or "contribution"][1]
    st.plotly_chart(build(result.table, k=settings.k), key=f"playground_{chart_name}", theme=None)

    st.subheader("The formula, with these numbers")
    widgets.formula(result, settings)

    st.subheader("Per-position table")
    widgets.show_table(result, names=ranking.names, key="playground_table",
                       height=min(46 + 35 * len(ranking.names), 420))

    st.subheader("Share this exact state")
    playground_view.share_link(link, settings)
