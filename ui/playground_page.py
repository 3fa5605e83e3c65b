"""The Playground page's layout: cards, the ranked list beside the chart, the editors, formula, table and link.

``pages/playground.py`` calls :func:`show`; the pieces it draws live in their own modules (``playground_view``
for the list's edits and buttons, ``linked`` for the shared highlight, ``predict``, ``ghost``, ``score_mode``,
``present``). Every number shown comes from ``ndcg_core`` through :func:`ui.ranking.evaluate`.
"""

from __future__ import annotations

import streamlit as st

import ndcg_core
from ui import charts, ghost, linked, playground_view, predict, present, score_mode, session, state, url_state, widgets
from ui.metric_cards import metric_cards
from ui.ranked_list import ranked_list
from ui.ranking import Ranking, evaluate
from ui.settings import current_settings, show_url_warning
from ui.settings_model import MetricSettings


def show() -> None:
    settings = current_settings()
    playground_view.apply_pending_changes(settings)  # drags and edits since the last run, applied exactly once
    linked.apply_list_click(playground_view.LIST_KEY)  # a row clicked in the ranked list: its rank is highlighted
    ranking = state.current_ranking()
    link = playground_view.publish_ranking(ranking)  # the URL follows the list, whatever happens below
    _header(settings)
    try:
        result = evaluate(ranking, **settings.kwargs())
    except ndcg_core.InvalidInput as error:  # e.g. "Refuse" on a list without relevant documents, or a gain overflow
        playground_view.evaluation_problem(ranking, settings, error)
        playground_view.show_edit_error()
        playground_view.ranking_editor(ranking)
        return
    hidden = predict.hold(ranking, settings, result)  # "Predict first": the new numbers wait for a guess
    highlight = linked.playground_highlight(len(ranking.names))
    colours = linked.position_colours(len(ranking.names))
    previous = _cards(ranking, settings, result, hidden=hidden)
    _list_and_chart(ranking, settings, result, previous, hidden=hidden, highlight=highlight, colours=colours)
    score_mode.controls()  # "Rank by scores" and its tie rule (under the list: the cards, list and chart fit one screen)
    if not hidden:
        score_mode.tie_section(ranking, settings, result)  # the typed scores' tie band, or a run's tied scores
    if not present.active():  # Present mode hides the editing chrome
        _editors(ranking, settings, result, hidden=hidden)
    if not hidden:
        st.header("The formula, with these numbers")
        widgets.formula(result, settings, colours=colours, highlight=highlight, tie_groups=ranking.tie_groups)
        st.header("Per-position table")
        widgets.show_table(result, names=ranking.names, key="playground_table",
                           height=min(46 + 35 * len(ranking.names), 420), highlight=highlight,
                           colour=colours[highlight - 1] if highlight else "#CC79A7", readable=present.active())
    if not present.active():
        st.header("Share this exact state")
        playground_view.share_link(link, settings)


def _header(settings: MetricSettings) -> None:
    title_column, caption_column = st.columns([1.15, 2], vertical_alignment="center")  # one row: room for the chart
    title_column.title("Playground")
    if present.active():  # Present mode: no editing instructions, just what the numbers assume
        caption_column.caption(f"Settings (sidebar): {settings.describe()}.")
    else:
        caption_column.caption(
            "Drag documents into a new order or edit their grades: every number, chart and formula below follows. "
            f"Settings (sidebar): {settings.describe()}."
        )
    show_url_warning()
    url_state.show_warning(state.SCOPE)


def _cards(ranking: Ranking, settings: MetricSettings, result, *, hidden: bool):
    """The metric cards (or the guess form while a prediction is pending) and the order buttons; the previous
    metrics, for the deltas and the ghost bars (None while hidden)."""
    previous = None
    # One element whatever it holds (cards, a verdict, the guess form): what follows keeps its place in the page, so
    # the ranked list is not drawn anew when a move hides the numbers, and keeps the keyboard focus on the moved row.
    with st.container(key="playground_numbers"):
        if hidden:
            predict.guess_form(ranking, settings, result)
        else:
            predict.show_feedback()
            previous = playground_view.previous_metrics(ranking, settings, result)
            metric_cards(result, previous, reserve_delta=True)
    playground_view.order_buttons(ranking, settings, after=predict.toggle)  # "Predict first" ends the row
    return previous


def _list_and_chart(ranking: Ranking, settings: MetricSettings, result, previous, *, hidden: bool,
                    highlight: int | None, colours: list[str]) -> None:
    # The list and the chart side by side: with the cards they fit one projected screen (1280 x 720 and up). The list
    # is the wider of the two: at 1280 x 720 (sidebar open) at [1, 1.2] its Name column was 62 px, ~5 characters
    # ("doc71…"); at [1.1, 1] it holds 12, and the chart's view picker still fits beside it (at [1.2, 1] it was cut).
    list_column, chart_column = st.columns([1.1, 1], gap="medium")
    with list_column:
        contributions = [None] * len(ranking.names) if hidden else result.table["contribution"].tolist()
        ranked_list(ranking.names, ranking.grades, contributions, key=playground_view.LIST_KEY, k=settings.k,
                    ndcg=None if hidden else result.ndcg,  # the screen-reader announcement must not give it away
                    withheld=predict.withheld_words(result) if hidden else None,
                    rank_colours=colours, highlight=highlight, select_seq=state.playground().list_select_seq)
        if present.active() and ranking.extra_names:  # their editor is hidden, and IDCG counts them
            st.caption(playground_view.extra_words(ranking))
    with chart_column:
        if hidden:
            predict.hidden_note("The charts, the formula and the per-position table are")
            return
        chart_name = session.widget("playground_chart") or "contribution"  # the control is drawn under the chart
        figure = charts.CHARTS[chart_name][1](result.table, k=settings.k, highlight=highlight,
                                              ideal_places=result.ideal_table)
        if chart_name == "contribution":
            figure = ghost.with_ghost(figure, previous, result)  # the state before the latest change, as ghosts
        chart_key = linked.chart_key(f"playground_{chart_name}", highlight)
        present.plotly_chart(present.playground_figure(linked.link_figure(figure, highlight), chart_name),
                             key=chart_key, theme=None, on_select=linked.on_bar_click(chart_key), selection_mode="points")
        st.segmented_control(
            "Chart", list(charts.CHARTS), default="contribution", format_func=present.chart_label,
            key="playground_chart", persist_state="session", label_visibility="collapsed", required=True,
        )  # one chart at a time: each rerun (and the browser) draws only the chart being looked at
        linked.highlight_note(ranking.names, highlight)


def _editors(ranking: Ranking, settings: MetricSettings, result, *, hidden: bool) -> None:
    editor_column, extra_column = st.columns([1, 1], gap="large")
    with editor_column:
        st.header("Grades")
        playground_view.show_edit_error()
        playground_view.show_duplicate_names(ranking)
        playground_view.ranking_editor(ranking)
        # How to edit with a keyboard too: double-clicking was the only way this said (helper-69, keyboard only).
        st.caption("Double-click (on a phone, double-tap) a grade or a name to edit it, or with the keyboard: Tab into "
                   "the table, go to the cell with the arrows, type and press Enter. Use the row tools to add or delete "
                   "documents. The rows follow the ranking: reorder it in the list above.")
    with extra_column, st.expander(f"Extra judged documents, not in the ranking ({len(ranking.extra_names)})",
                                   expanded=bool(ranking.extra_names)):
        st.caption("Documents someone judged but the ranker did not return (source document 003's D7 and D8 are "
                   "such documents). Their grades join the ideal list, so they can raise IDCG.")
        playground_view.extra_editor(ranking)
        if not hidden:
            playground_view.extra_note(ranking, settings, result)
