"""The Dataset page's layout: inputs, the run and its rules, the headline, the charts and the per-query views.

``pages/dataset.py`` calls :func:`show`. The data and its evaluation come from ``dataset_view`` (which holds the
encoded run in ``st.cache_resource``); every figure is ``ndcg_core.evaluate_run``'s.
"""

from __future__ import annotations

import streamlit as st

import ndcg_core
from ui import dataset_queries, dataset_report, dataset_state, dataset_upload, incomplete_view, present
from ui import dataset_view as view
from ui.messages import user_message
from ui.settings import current_settings, show_url_warning
from ui.widgets import plain, text_line


def show() -> None:
    show_url_warning()
    link_notice = st.empty()  # the link's run, rules or query that could not be used: known further down
    st.title("Dataset: NDCG over many queries")
    st.caption(
        "Upload TREC judgments (qrels) and a run, or one CSV, or use the bundled sample. Every figure comes from "
        "ndcg_core.evaluate_run with the settings in the sidebar."
    )
    dataset_upload.show_inputs()
    dataset = view.current_dataset()
    view.mark_uploads_in_url(dataset)
    settings = current_settings()
    run_name, ties, missing = _run_choices(dataset)
    text_line(f"Data: {dataset.label} · run: {run_name}")
    options = view.run_options(settings, ties=ties, missing=missing)
    result = _evaluate(dataset, run_name, options)
    label = "NDCG" if settings.k is None else f"NDCG@{settings.k}"
    dataset_report.show_headline(dataset, run_name, options, result, settings=settings, label=label)
    dataset_report.show_rule_notes(result, settings=settings, missing=missing)
    left, right = st.columns(2)
    present.plotly_chart(view.histogram_chart(result.per_query["ndcg"], mean=result.mean_ndcg, label=label),
                         where=left, narrow=True, key="dataset_histogram", theme=None)
    present.plotly_chart(view.curve_chart(view.curve(dataset, run_name, options), k=settings.k), where=right, narrow=True,
                         key="dataset_curve", theme=None)
    dataset_queries.show(dataset, run_name, options, result, settings=settings, label=label, ties=ties)
    incomplete_view.show(dataset, run_name, options, label=label)
    view.show_link_warning(link_notice, (run_name, ties, missing, dataset_state.picked_query()))


def _run_choices(dataset) -> tuple[str, str, str]:
    """The run, the tie rule and the missing-query rule (restored from a link first, then the user's choice)."""
    run_names = list(dataset.runs)
    view.restore_from_url({
        dataset_state.RUN_KEY: ("run", run_names, "run"),
        dataset_state.TIES_KEY: ("ties", list(view.TIE_RULES), "tie rule"),
        dataset_state.MISSING_KEY: ("missing", list(view.MISSING_RULES), "rule for missing queries"),
    })
    top = st.columns([2, 2, 2])
    run_name = top[0].selectbox("Run", run_names, key=dataset_state.RUN_KEY, persist_state="session",
                                help="Each uploaded run file (or CSV) is one run.")
    ties = top[1].selectbox(
        "Tied scores", list(view.TIE_RULES), format_func=view.TIE_RULES.get, key=dataset_state.TIES_KEY, persist_state="session",
        help="How documents with equal scores are ordered. trec_eval and pytrec_eval sort them by document id, "
             "descending (Z to A, comparing bytes); scikit-learn averages their gains.",
    )
    missing = top[2].selectbox(
        "Judged queries missing from the run", list(view.MISSING_RULES), format_func=view.MISSING_RULES.get,
        key=dataset_state.MISSING_KEY, persist_state="session",
    )
    return run_name, ties, missing


def _evaluate(dataset, run_name: str, options):
    """The run's evaluation; on a refusal or a surprise, a sentence instead of a traceback, and the page stops."""
    try:
        with st.spinner("Evaluating…"):
            return view.evaluate(dataset, run_name, options)
    except ndcg_core.InvalidInput as error:
        st.error(f"This data cannot be evaluated with the current settings: {plain(user_message(error))}", icon=":material/warning:")
    except Exception as error:  # noqa: BLE001 - never a traceback on screen; say what happened instead
        st.error(f"Unexpected problem while evaluating ({plain(type(error).__name__)}: {plain(error)}). Try other "
                 "settings, or reload the files.", icon=":material/error:")
    st.stop()
