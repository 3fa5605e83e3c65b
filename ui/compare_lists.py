"""Compare, mode 1: two rankings of the same judged documents, side by side (the view; its state, buttons' actions
and link are :mod:`ui.compare_lists_state`)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

import ndcg_core
from ui import cells, flip_section, present, session, url_state
from ui.charts import contribution_chart
from ui.compare_charts import difference_chart
from ui.compare_lists_state import (  # noqa: F401 - the mode's keys and example are read through this module too
    ANY_GAIN,
    DOCS_KEY,
    EDITOR_COLUMNS,
    EDITOR_KEY,
    EXAMPLE_DOCS,
    EXAMPLE_ORDERS,
    IDEAL_REQUEST_KEY,
    LINK_SCOPE,
    LOADED_NOTICE_KEY,
    ORDER_KEYS,
    base_row_names,
    checked_documents,
    ensure_documents,
    has_edits,
    ideal_order,
    load_playground,
    publish_lists,
    renamed_documents,
    request_ideal,
    request_open,
    reset_documents,
    share_link,
    swap_orders,
    synced_order,
    take_open_request,
)
from ui.formatting import compact, fixed, signed
from ui.messages import user_message
from ui.metric_cards import metric_cards
from ui.ranked_list import pending_order, ranked_list
from ui.settings import MetricSettings
from ui.state import open_in_playground, playground_list
from ui.widgets import plain, text_line


def position_differences(result_a: ndcg_core.ListResult, result_b: ndcg_core.ListResult,
                         names_a: list[str], names_b: list[str]) -> pd.DataFrame:
    """Per rank: each ranking's document, grade and contribution (counted positions only), and B − A."""
    table_a, table_b = result_a.table, result_b.table
    frame = pd.DataFrame({
        "rank": table_a["rank"].to_numpy(),
        "document_a": names_a,
        "grade_a": table_a["relevance"].to_numpy(),
        "contribution_a": np.where(table_a["in_cutoff"], table_a["contribution"], 0.0),
        "document_b": names_b,
        "grade_b": table_b["relevance"].to_numpy(),
        "contribution_b": np.where(table_b["in_cutoff"], table_b["contribution"], 0.0),
    })
    frame["difference"] = frame["contribution_b"] - frame["contribution_a"]
    return frame


def difference_sentence(frame: pd.DataFrame, result_a: ndcg_core.ListResult, result_b: ndcg_core.ListResult) -> str:
    """Plain words: which ranking wins on DCG and the positions that account for it."""
    gap = result_b.dcg - result_a.dcg
    if abs(gap) < 1e-12 and (frame["difference"].abs() < 1e-12).all():
        return "Both rankings give every counted position the same contribution, so their DCG and NDCG are equal."
    leader, other = ("B", "A") if gap > 0 else ("A", "B")
    lead = (f"Ranking {leader} has the higher DCG by {fixed(abs(gap))} (NDCG {fixed(max(result_a.ndcg, result_b.ndcg))} vs "
            f"{fixed(min(result_a.ndcg, result_b.ndcg))}).") if abs(gap) >= 1e-12 else "Both rankings have the same DCG."
    biggest = frame.reindex(frame["difference"].abs().sort_values(ascending=False).index).head(3)
    biggest = biggest[biggest["difference"].abs() > 1e-12]
    parts = []
    for row in biggest.itertuples(index=False):
        parts.append(
            f"rank {row.rank}: A has {row.document_a} (grade {compact(row.grade_a)}), B has {row.document_b} "
            f"(grade {compact(row.grade_b)}), {signed(row.difference)} for B"
        )
    if not parts:
        return lead
    return f"{lead} The largest differences: " + "; ".join(parts) + "."


def two_rankings(settings: MetricSettings) -> None:
    """The documents editor, both rankings (drag to reorder), their cards and charts, and what differs."""
    ensure_documents()
    notice = st.empty()  # the link's warning, once this run knows whether the rankings changed since
    names_now, grades_now, extra_names, extra_grades = playground_list()
    # Buttons act through callbacks: they change the state before the next run starts, so every element of
    # that run already shows the result (and a rerun in between cannot lose the click).
    buttons = st.container(horizontal=True)  # filled in call order: two here, three once the ideal is known
    # A list whose names repeat cannot be two rankings of the same documents (loaded, it raised a traceback).
    every_name = [*names_now, *extra_names]
    unique = len(set(every_name)) == len(every_name)
    buttons.button("Playground list", key="compare_from_playground", disabled=not names_now or not unique,
                   help="Load the Playground's documents and grades into both rankings." + (
                       "" if unique else " Not available: the Playground's list names a document twice."),
                   on_click=load_playground, args=(names_now, grades_now, extra_names, extra_grades))
    if loaded := session.forget(LOADED_NOTICE_KEY):
        st.info(loaded, icon=":material/playlist_add:")
    buttons.button("Example", key="compare_example", help="Back to the example of eight documents.",
                   on_click=reset_documents,
                   args=(EXAMPLE_DOCS["document"], EXAMPLE_DOCS["grade"], EXAMPLE_ORDERS))

    if refused := session.guard_editor(EDITOR_KEY, rows=len(session.widget(DOCS_KEY)), columns=EDITOR_COLUMNS):
        st.error(refused, icon=":material/warning:")
    with st.expander("Judged documents (shared by both rankings): edit names and grades, add or delete rows", expanded=False):
        edited = st.data_editor(
            cells.shown(session.widget(DOCS_KEY), ["grade"]), num_rows="dynamic", hide_index=True, key=EDITOR_KEY,
            column_config={
                "document": st.column_config.TextColumn("Document", required=True),
                # Text, read by ui.cells: a number column dropped "-1" and "2,5" without a word.
                "grade": st.column_config.TextColumn("Grade", required=True, default="0",
                                                     help="Relevance grade: 0 = not relevant, higher = more relevant"),
            },
            width="stretch",
        )
    renamed: dict[str, str] = {}
    try:
        documents = checked_documents(cells.read(edited, {"grade": cells.grade}), gain=settings.gain_spec())
        renamed = renamed_documents(
            base_row_names(session.widget(DOCS_KEY), session.widget(EDITOR_KEY))
        )
    except (cells.CellError, ndcg_core.InvalidInput) as error:
        if has_edits(session.widget(EDITOR_KEY)):  # else the table as it was set is refused: said below
            st.error(f"Edit not applied: {cells.refusal(error)}", icon=":material/warning:")
        try:
            # Not under the sidebar's gain: the table was accepted under the gain of its moment, and a gain chosen
            # since (exponential after a grade of 5000 under linear gain) leaves it in place; the evaluation below
            # says why there are no numbers. Checked under it, this raised again: a traceback.
            documents = checked_documents(session.widget(DOCS_KEY), gain=ANY_GAIN)
        except ndcg_core.InvalidInput as refused:  # not from this page (its editor and links refuse such tables)
            st.error(f"These documents cannot be compared: {plain(user_message(refused))} Edit them in the table "
                     "above, or load the example.", icon=":material/warning:")
            return
    names = documents["document"].tolist()
    grade_of = dict(zip(names, documents["grade"], strict=True))

    # Apply the ideal button and drags first (before anything is drawn), so every element of this run shows them.
    ideal = ideal_order(documents)
    requested = session.forget(IDEAL_REQUEST_KEY)
    orders = {}
    for side, key in ORDER_KEYS.items():
        order = ideal if side == requested else synced_order(session.widget(key), names, renamed)
        perm = pending_order(f"compare_list_{side}", len(order), names=order, grades=[grade_of[n] for n in order])
        if perm is not None:
            order = [order[i] for i in perm]
        session.set_widget(key, order)
        orders[side] = order
    link = publish_lists(documents, orders)
    with notice:
        url_state.show_warning(LINK_SCOPE)

    buttons.button("A: ideal", key="compare_ideal_a", help="Put ranking A in the ideal order.",
                   on_click=request_ideal, args=("A",))
    buttons.button("B: ideal", key="compare_ideal_b", help="Put ranking B in the ideal order.",
                   on_click=request_ideal, args=("B",))
    buttons.button("Swap A ↔ B", key="compare_swap", on_click=swap_orders)

    options = settings.kwargs()
    all_grades = documents["grade"].tolist()
    try:
        results = {
            side: ndcg_core.evaluate([grade_of[n] for n in order], ideal_relevances=all_grades, **options)
            for side, order in orders.items()
        }
    except ndcg_core.InvalidInput as error:
        st.error(f"These rankings cannot be evaluated with the current settings: {plain(user_message(error))}",
                 icon=":material/warning:")
        return

    # Full-width card rows (four cards in half a page would truncate the numbers)
    st.markdown("**Ranking A**")
    metric_cards(results["A"], key="cards-a")
    st.markdown("**Ranking B** (deltas are B − A)")
    metric_cards(results["B"], previous=results["A"], key="cards-b")
    columns = st.columns(2)
    for column, side in zip(columns, ("A", "B"), strict=True):
        with column:
            st.header(f"Ranking {side}")
            order = orders[side]
            ranked_list(order, [grade_of[n] for n in order], results[side].table["contribution"].tolist(),
                        key=f"compare_list_{side}", k=settings.k,
                        ndcg=results[side].ndcg, label=f"Ranking {side}")
            present.plotly_chart(contribution_chart(results[side].table, k=settings.k), narrow=True,
                                 key=f"compare_chart_{side}", theme=None)
            st.button(f"Open ranking {side} in the Playground", key=f"compare_open_{side}",
                      on_click=request_open, args=(side,))
    requested = take_open_request()
    if requested in orders:
        order = orders[requested]
        open_in_playground(order, [grade_of[n] for n in order], settings=settings)
    st.caption("The ideal list is all judged documents sorted by grade: the same for A and B, so IDCG is equal.")
    st.header("Which positions make the difference")
    frame = position_differences(results["A"], results["B"], orders["A"], orders["B"])
    text_line(difference_sentence(frame, results["A"], results["B"]))
    present.plotly_chart(difference_chart(frame), key="compare_difference_chart", theme=None)
    flip_section.for_lists(orders, grade_of, all_grades, settings)  # issue 13 item 6
    if not present.active():  # Present mode hides the editing chrome, as on the Playground
        st.header("Share these rankings")
        share_link(link, settings)
