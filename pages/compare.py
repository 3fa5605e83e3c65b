"""Compare rankers: two rankings of the same judged documents, or two runs on the data set, with a verdict."""

import streamlit as st

import ndcg_core
import ui
from ui import compare_view as view
from ui import dataset_view, session, url_state
from ui.charts import contribution_chart
from ui.messages import user_message
from ui.ranked_list import pending_order, ranked_list
from ui.settings import current_settings, show_url_warning
from ui.state import dataset_run_choices, open_in_playground, playground_list
from ui.widgets import metric_cards, plain

ui.page_shell()  # first: a run Streamlit started without app.py goes through it (see ui/__init__.py)

show_url_warning()
settings = current_settings()
MODES = {"lists": "Two rankings of the same documents", "runs": "Two runs on the data set"}
url_state.restore_choice("compare_mode", "compare", list(MODES), scope="compare", label="comparison mode")
url_state.restore_choice("compare_slide", "slide", ["1"], scope="compare", label="slide view")
if session.widget("compare_slide") == "1":
    session.set_widget("compare_slide", True)
url_state.show_warning("compare")
# Widgets not drawn in a run lose their state; re-assigning keeps the choices while the slide view hides them.
for persistent in ("compare_mode", "compare_run_a", "compare_run_b", "compare_n_boot", "compare_seed", "compare_confidence"):
    session.keep(persistent)
slide_view = session.widget("compare_mode") == "runs" and session.widget("compare_slide", False)
if slide_view:
    heading, switch = st.columns([5, 1], vertical_alignment="bottom")  # slide_summary writes the heading
    switch.toggle("Slide view", key="compare_slide")
    mode = "runs"
else:
    st.title("Compare rankers")
    left, right = st.columns([4, 1], vertical_alignment="bottom")
    mode = left.radio("Compare", list(MODES), format_func=MODES.get, horizontal=True, key="compare_mode")
    if mode == "runs":
        right.toggle("Slide view", key="compare_slide", help="One clean screen for a slide: big numbers and one chart.")


def two_rankings() -> None:
    view.ensure_documents()
    names_now, grades_now, _, _ = playground_list()
    # Buttons act through callbacks: they change the state before the next run starts, so every element of
    # that run already shows the result (and a rerun in between cannot lose the click).
    buttons = st.container(horizontal=True)  # filled in call order: two here, three once the ideal is known
    buttons.button("Playground list", key="compare_from_playground", disabled=not names_now,
                   help="Load the Playground's documents and grades into both rankings.",
                   on_click=view.reset_documents, args=(names_now, grades_now))
    buttons.button("Example", key="compare_example", help="Back to the example of eight documents.",
                   on_click=view.reset_documents,
                   args=(view.EXAMPLE_DOCS["document"], view.EXAMPLE_DOCS["grade"], view.EXAMPLE_ORDERS))

    refused = session.guard_editor(view.EDITOR_KEY, rows=len(session.widget(view.DOCS_KEY)), columns=["document", "grade"])
    if refused:
        st.error(refused, icon=":material/warning:")
    with st.expander("Judged documents (shared by both rankings): edit names and grades, add or delete rows", expanded=False):
        edited = st.data_editor(
            session.widget(view.DOCS_KEY), num_rows="dynamic", hide_index=True, key=view.EDITOR_KEY,
            column_config={
                "document": st.column_config.TextColumn("Document", required=True),
                "grade": st.column_config.NumberColumn("Grade", min_value=0, required=True),
            },
            width="stretch",
        )
    renamed: dict[str, str] = {}
    try:
        documents = view.checked_documents(edited)
        renamed = view.renamed_documents(
            view.base_row_names(session.widget(view.DOCS_KEY), session.widget(view.EDITOR_KEY))
        )
    except ndcg_core.InvalidInput as error:
        st.error(f"Edit not applied: {plain(user_message(error))}", icon=":material/warning:")
        documents = view.checked_documents(session.widget(view.DOCS_KEY))
    names = documents["document"].tolist()
    grade_of = dict(zip(names, documents["grade"], strict=True))

    # Apply drags first (before anything is drawn), so every element of this run shows the new orders.
    orders = {}
    for side, key in view.ORDER_KEYS.items():
        order = view.synced_order(session.widget(key), names, renamed)
        perm = pending_order(f"compare_list_{side}", len(order))
        if perm is not None:
            order = [order[i] for i in perm]
        session.set_widget(key, order)
        orders[side] = order

    ideal = view.ideal_order(documents)
    buttons.button("A: ideal", key="compare_ideal_a", help="Put ranking A in the ideal order.",
                   on_click=view.set_order, args=("A", ideal))
    buttons.button("B: ideal", key="compare_ideal_b", help="Put ranking B in the ideal order.",
                   on_click=view.set_order, args=("B", ideal))
    buttons.button("Swap A ↔ B", key="compare_swap", on_click=view.swap_orders)

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
    metric_cards(results["A"])
    st.markdown("**Ranking B** (deltas are B − A)")
    metric_cards(results["B"], previous=results["A"])
    columns = st.columns(2)
    for column, side in zip(columns, ("A", "B"), strict=True):
        with column:
            st.subheader(f"Ranking {side}")
            order = orders[side]
            ranked_list(order, [grade_of[n] for n in order], results[side].table["contribution"].tolist(),
                        key=f"compare_list_{side}", k=settings.k)
            st.plotly_chart(contribution_chart(results[side].table, k=settings.k), key=f"compare_chart_{side}")
            st.button(f"Open ranking {side} in the Playground", key=f"compare_open_{side}",
                      on_click=view.request_open, args=(side,))
    requested = view.take_open_request()
    if requested in orders:
        order = orders[requested]
        open_in_playground(order, [grade_of[n] for n in order], settings=settings)
    st.caption("The ideal list is all judged documents sorted by grade: the same for A and B, so IDCG is equal.")
    st.subheader("Which positions make the difference")
    frame = view.position_differences(results["A"], results["B"], orders["A"], orders["B"])
    st.text(view.difference_sentence(frame, results["A"], results["B"]))
    st.plotly_chart(view.difference_chart(frame), key="compare_difference_chart")


def run_choices(run_names: list[str]) -> tuple[str, str, int, int, float]:
    """The run pickers and bootstrap options (drawn only outside the slide view; their keys persist)."""
    pick = st.columns([2, 2, 1, 1, 1])
    name_a = pick[0].selectbox("System A (baseline)", run_names, index=0, key="compare_run_a")
    name_b = pick[1].selectbox("System B (challenger)", run_names, index=1, key="compare_run_b")
    n_boot = pick[2].number_input("Resamples", 1_000, 100_000, 10_000, step=1_000, key="compare_n_boot",
                                  help="Bootstrap resamples of the queries.")
    seed = pick[3].number_input("Seed", 0, 2**31 - 1, 0, key="compare_seed", help="Seed of the bootstrap (numpy).")
    confidence = pick[4].selectbox("Confidence", [0.90, 0.95, 0.99], index=1, format_func="{:.0%}".format,
                                   key="compare_confidence")
    return name_a, name_b, int(n_boot), int(seed), float(confidence)


def saved_choices(run_names: list[str]) -> tuple[str, str, int, int, float]:
    name_a = session.widget("compare_run_a", run_names[0])
    name_b = session.widget("compare_run_b", run_names[1])
    return (name_a, name_b, int(session.widget("compare_n_boot", 10_000)), int(session.widget("compare_seed", 0)),
            float(session.widget("compare_confidence", 0.95)))


def two_runs(slide_view: bool) -> None:
    dataset = dataset_view.current_dataset()
    run_names = list(dataset.runs)
    if len(run_names) < 2:
        st.info(
            "The current data set has a single run. Upload two or more runs on the Dataset page, or switch back to "
            "the bundled sample (BM25 and neural runs).", icon=":material/info:",
        )
        st.button("Use the bundled sample", key="compare_use_sample", on_click=dataset_view.use_sample)
        return
    if slide_view:
        name_a, name_b, n_boot, seed, confidence = saved_choices(run_names)
    else:
        st.text(f"Data: {dataset.label}")
        name_a, name_b, n_boot, seed, confidence = run_choices(run_names)
    if name_a == name_b or name_a not in run_names or name_b not in run_names:
        st.warning("Pick two different runs.", icon=":material/balance:")
        return
    ties, missing = dataset_run_choices()  # the Dataset page's choices, read through its state function
    options = dataset_view.run_options(settings, ties=ties, missing=missing)
    try:
        with st.spinner("Evaluating both runs…"):
            result_a = dataset_view.evaluate(dataset, name_a, options)
            result_b = dataset_view.evaluate(dataset, name_b, options)
            comparison = ndcg_core.compare_runs(result_a.per_query["ndcg"], result_b.per_query["ndcg"],
                                                n_boot=n_boot, seed=seed, confidence=confidence)
    except ndcg_core.InvalidInput as error:
        st.error(f"These runs cannot be compared with the current settings: {plain(user_message(error))}",
                 icon=":material/warning:")
        return
    except Exception as error:  # noqa: BLE001 - never a traceback on screen; say what happened instead
        st.error(f"Unexpected problem while comparing ({plain(type(error).__name__)}: {plain(error)}).",
                 icon=":material/error:")
        return
    metric = "NDCG" if settings.k is None else f"NDCG@{settings.k}"
    sentence = view.verdict(comparison, name_a=name_a, name_b=name_b, metric=metric)
    if slide_view:
        slide_summary(comparison, name_a=name_a, name_b=name_b, metric=metric, sentence=sentence)
    else:
        details(comparison, result_a, result_b, name_a=name_a, name_b=name_b, metric=metric, sentence=sentence,
                ties=ties, missing=missing)


def details(comparison, result_a, result_b, *, name_a, name_b, metric, sentence, ties, missing) -> None:
    with st.container(border=True):
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


def slide_summary(comparison, *, name_a, name_b, metric, sentence) -> None:
    """One screen for a slide: three large numbers and one chart, with a PNG of the chart."""
    heading.header(f"{plain(name_b)} vs {plain(name_a)}: {metric}")
    big = st.columns(3)
    big[0].metric(f"Mean {metric} of {plain(name_b)}", f"{comparison.mean_b:.3f}",
                  delta=f"{comparison.mean_difference:+.3f} vs {plain(name_a)}")
    big[1].metric(f"Queries where {plain(name_b)} is better", f"{comparison.wins} of {comparison.n_queries}")
    big[2].metric(f"{comparison.confidence:.0%} CI of the mean gain", f"{comparison.ci_low:+.3f} to {comparison.ci_high:+.3f}")
    slide = view.slide_chart(comparison, name_a=name_a, name_b=name_b, metric=metric)
    st.plotly_chart(slide, key="compare_slide_chart", config=view.modebar_config("ndcg_comparison"))
    st.text(sentence)
    if view.png_export_available():
        st.download_button("Download the chart as PNG (1600×900)", data=lambda: view.png_bytes(slide),
                           file_name="ndcg_comparison.png", mime="image/png", key="compare_png", on_click="ignore")
    else:
        st.caption("PNG export needs Chrome/Chromium for kaleido, which is not available on this server: use the "
                   "camera icon in the chart's toolbar (Download plot as PNG, 1600×900 at 2x).")


url_state.publish({"compare": mode, "slide": "1" if mode == "runs" and session.widget("compare_slide") else None})
if mode == "lists":
    two_rankings()
else:
    two_runs(slide_view)
