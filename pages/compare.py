"""Compare rankers: two rankings of the same judged documents, or two runs on the data set, with a verdict."""

import streamlit as st

import ndcg_core
from ui import compare_view as view
from ui import dataset_view
from ui.charts import contribution_chart
from ui.ranked_list import pending_order, ranked_list
from ui.settings import current_settings, show_url_warning
from ui.state import playground_list
from ui.widgets import metric_cards

show_url_warning()
st.title("Compare rankers")
settings = current_settings()
MODES = {"lists": "Two rankings of the same documents", "runs": "Two runs on the data set"}
mode = st.radio("Compare", list(MODES), format_func=MODES.get, horizontal=True, key="compare_mode")


def two_rankings() -> None:
    view.ensure_documents()
    names_now, grades_now, _, _ = playground_list()
    buttons = st.columns(5)
    if buttons[0].button("Use the Playground's documents", key="compare_from_playground", disabled=not names_now):
        view.reset_documents(names_now, grades_now)
        st.rerun()
    if buttons[1].button("Back to the example", key="compare_example"):
        view.reset_documents(view.EXAMPLE_DOCS["document"], view.EXAMPLE_DOCS["grade"], view.EXAMPLE_ORDERS)
        st.rerun()

    with st.expander("Judged documents (shared by both rankings): edit names and grades, add or delete rows", expanded=False):
        edited = st.data_editor(
            st.session_state[view.DOCS_KEY], num_rows="dynamic", hide_index=True, key="compare_docs_editor",
            column_config={
                "document": st.column_config.TextColumn("Document", required=True),
                "grade": st.column_config.NumberColumn("Grade", min_value=0, required=True),
            },
            width="stretch",
        )
    try:
        documents = view.checked_documents(edited)
    except ndcg_core.InvalidInput as error:
        st.error(f"Edit not applied: {error}", icon="⚠️")
        documents = view.checked_documents(st.session_state[view.DOCS_KEY])
    names = documents["document"].tolist()
    grade_of = dict(zip(names, documents["grade"], strict=True))

    # Apply drags first (before anything is drawn), so every element of this run shows the new orders.
    orders = {}
    for side, key in view.ORDER_KEYS.items():
        order = view.synced_order(st.session_state[key], names)
        perm = pending_order(f"compare_list_{side}", len(order))
        if perm is not None:
            order = [order[i] for i in perm]
        st.session_state[key] = order
        orders[side] = order

    if buttons[2].button("A: ideal order", key="compare_ideal_a"):
        orders["A"] = st.session_state[view.ORDER_KEYS["A"]] = view.ideal_order(documents)
    if buttons[3].button("B: ideal order", key="compare_ideal_b"):
        orders["B"] = st.session_state[view.ORDER_KEYS["B"]] = view.ideal_order(documents)
    if buttons[4].button("Swap A and B", key="compare_swap"):
        orders = {"A": orders["B"], "B": orders["A"]}
        for side, key in view.ORDER_KEYS.items():
            st.session_state[key] = orders[side]

    options = settings.kwargs()
    all_grades = documents["grade"].tolist()
    try:
        results = {
            side: ndcg_core.evaluate([grade_of[n] for n in order], ideal_relevances=all_grades, **options)
            for side, order in orders.items()
        }
    except ndcg_core.InvalidInput as error:
        st.error(f"These rankings cannot be evaluated with the current settings: {error}", icon="⚠️")
        return

    columns = st.columns(2)
    for column, side in zip(columns, ("A", "B"), strict=True):
        with column:
            st.subheader(f"Ranking {side}")
            metric_cards(results[side], previous=results["A"] if side == "B" else None)
            order = orders[side]
            ranked_list(order, [grade_of[n] for n in order], results[side].table["contribution"].tolist(),
                        key=f"compare_list_{side}", k=settings.k)
            st.plotly_chart(contribution_chart(results[side].table, k=settings.k), key=f"compare_chart_{side}")
    if settings.k is None:
        st.caption("Deltas on B's cards are B − A. The ideal list is all judged documents sorted by grade (the same for A and B).")
    st.subheader("Which positions make the difference")
    frame = view.position_differences(results["A"], results["B"], orders["A"], orders["B"])
    st.text(view.difference_sentence(frame, results["A"], results["B"]))
    st.plotly_chart(view.difference_chart(frame), key="compare_difference_chart")


def two_runs() -> None:
    dataset = dataset_view.current_dataset()
    run_names = list(dataset.runs)
    st.text(f"Data: {dataset.label}")
    if len(run_names) < 2:
        st.info(
            "The current data set has a single run. Upload two or more runs on the Dataset page, or switch back to "
            "the bundled sample (BM25 and neural runs).", icon="ℹ️",
        )
        if st.button("Use the bundled sample", key="compare_use_sample"):
            dataset_view.set_dataset(dataset_view.sample_dataset())
            st.rerun()
        return
    pick = st.columns([2, 2, 1, 1, 1])
    name_a = pick[0].selectbox("System A (baseline)", run_names, index=0, key="compare_run_a")
    name_b = pick[1].selectbox("System B (challenger)", run_names, index=1, key="compare_run_b")
    n_boot = pick[2].number_input("Bootstrap resamples", 1_000, 100_000, 10_000, step=1_000, key="compare_n_boot")
    seed = pick[3].number_input("Seed", 0, 2**31 - 1, 0, key="compare_seed")
    confidence = pick[4].selectbox("Confidence", [0.90, 0.95, 0.99], index=1, format_func="{:.0%}".format,
                                   key="compare_confidence")
    if name_a == name_b:
        st.warning("Pick two different runs.", icon="⚖️")
        return
    ties = st.session_state.get("dataset_ties", "trec_eval")
    missing = st.session_state.get("dataset_missing", "ignore")
    options = dataset_view.run_options(settings, ties=ties, missing=missing)
    try:
        with st.spinner("Evaluating both runs…"):
            result_a = dataset_view.evaluate(dataset, name_a, options)
            result_b = dataset_view.evaluate(dataset, name_b, options)
            comparison = ndcg_core.compare_runs(result_a.per_query["ndcg"], result_b.per_query["ndcg"],
                                                n_boot=int(n_boot), seed=int(seed), confidence=float(confidence))
    except ndcg_core.InvalidInput as error:
        st.error(f"These runs cannot be compared with the current settings: {error}", icon="⚠️")
        return
    metric = "NDCG" if settings.k is None else f"NDCG@{settings.k}"
    sentence = view.verdict(comparison, name_a=name_a, name_b=name_b, metric=metric)
    slide = view.slide_chart(comparison, name_a=name_a, name_b=name_b, metric=metric)

    details, summary = st.tabs(["Details", "Slide summary"])
    with details:
        st.text(sentence)
        cards = st.columns(5)
        cards[0].metric(f"Mean {metric}: A", f"{comparison.mean_a:.4f}")
        cards[1].metric(f"Mean {metric}: B", f"{comparison.mean_b:.4f}", delta=f"{comparison.mean_difference:+.4f}")
        cards[2].metric("B better", comparison.wins)
        cards[3].metric("Tied", comparison.ties)
        cards[4].metric("A better", comparison.losses)
        st.text(
            f"A = {name_a}, B = {name_b}. Compared on the {comparison.n_queries} queries both runs were evaluated on "
            f"(settings: {settings.describe()}; tied scores: {ties}; missing queries: {missing})."
        )
        left, right = st.columns(2)
        left.plotly_chart(view.differences_histogram(comparison, name_a=name_a, name_b=name_b, metric=metric),
                          key="compare_differences")
        right.plotly_chart(view.bootstrap_chart(comparison), key="compare_bootstrap")
        table = (
            result_a.per_query[["ndcg"]].rename(columns={"ndcg": "A"})
            .join(result_b.per_query[["ndcg"]].rename(columns={"ndcg": "B"}), how="inner")
            .assign(difference=lambda frame: frame["B"] - frame["A"])
            .rename_axis("query").reset_index()
        )
        st.dataframe(table, hide_index=True, key="compare_table", column_config={
            "query": st.column_config.TextColumn("Query"),
            "A": st.column_config.NumberColumn(f"A: {metric}", format="%.4f"),
            "B": st.column_config.NumberColumn(f"B: {metric}", format="%.4f"),
            "difference": st.column_config.NumberColumn("B − A", format="%+.4f"),
        })
        st.download_button("Download per-query comparison (CSV)", table.to_csv(index=False).encode(),
                           file_name="per_query_comparison.csv", mime="text/csv", key="compare_download")
    with summary:
        st.header(f"{view.plain(name_b)} vs {view.plain(name_a)}")
        big = st.columns(3)
        big[0].metric(f"Mean {metric}", f"{comparison.mean_b:.3f}", delta=f"{comparison.mean_difference:+.3f} vs A")
        big[1].metric(f"Queries where {view.plain(name_b)} is better", f"{comparison.wins} of {comparison.n_queries}")
        big[2].metric(f"{comparison.confidence:.0%} CI of the mean gain",
                      f"{comparison.ci_low:+.3f} to {comparison.ci_high:+.3f}")
        st.plotly_chart(slide, key="compare_slide_chart", config=view.modebar_config("ndcg_comparison"))
        st.text(sentence)
        if view.png_export_available():
            st.download_button("Download the chart as PNG (1600×900)", data=lambda: view.png_bytes(slide),
                               file_name="ndcg_comparison.png", mime="image/png", key="compare_png", on_click="ignore")
        else:
            st.caption("PNG export needs Chrome/Chromium for kaleido, which is not available on this server: use the "
                       "camera icon in the chart's toolbar (Download plot as PNG, 1600×900 at 2x).")


if mode == "lists":
    two_rankings()
else:
    two_runs()
