"""Compare, mode 2: two runs on the Dataset page's data set, per query, with a bootstrap verdict.

The run pickers and bootstrap options keep their keys in the session; the slide view hides them and reads
the saved choices instead. The data set, its tie and missing-query rules come from the Dataset page.

Share link: a session's first visit to this mode restores the runs, the bootstrap's resamples, seed and level, the
Dataset page's two rules and the flip grid's query from the URL (see :mod:`ui.url_state`); every run publishes
them, so the address bar and the share box reproduce every figure. Only the bundled sample's runs can be named: a
comparison of uploaded runs publishes ``runs_unlinked`` and its share box says why there is no link.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

import ndcg_core
from ui import compare_charts as charts
from ui import dataset_state, dataset_view, flip_section, present, session, url_state
from ui.copy_link import copy_link
from ui.dataset_report import MISSING_RULES
from ui.formatting import TIE_RULE_LABELS, fixed, percent, signed_change
from ui.messages import user_message
from ui.settings import MetricSettings
from ui.state import dataset_run_choices
from ui.widgets import plain, text_line

# the run pickers' and bootstrap options' widget keys, and their defaults (kept while the slide view hides them)
RUN_A_KEY, RUN_B_KEY = "compare_run_a", "compare_run_b"
BOOTSTRAP_KEYS = {"compare_n_boot": 10_000, "compare_seed": 0, "compare_confidence": 0.95}
N_BOOT_KEY, SEED_KEY, CONFIDENCE_KEY = BOOTSTRAP_KEYS
CHOICE_KEYS = (RUN_A_KEY, RUN_B_KEY, *BOOTSTRAP_KEYS)
RESAMPLES, SEEDS, CONFIDENCES = (1_000, 100_000), (0, 2**31 - 1), (0.90, 0.95, 0.99)  # what the pickers offer
LINK_KEY = "compare_runs_link"
LINK_SCOPE, FLIP_SCOPE = "compare_runs", "compare_flip"  # this mode's link warnings in ui.url_state


@dataclass
class RunsLink:
    """The runs comparison's share-link bookkeeping (the choices themselves are the widget keys above)."""

    read: bool = False  # the URL was read (once per session: afterwards the address follows the page)
    warned_for: dict | None = None  # the parameters shown when a bad link's warning was first shown


def _link_state() -> RunsLink:
    return session.page_state(LINK_KEY, RunsLink)


def verdict(comparison: ndcg_core.Comparison, *, name_a: str, name_b: str, metric: str) -> str:
    """The stakeholder sentence, e.g. 'B is better on 31 of 50 queries; the mean NDCG improvement is +0.0412, 95% CI
    +0.0105 to +0.0718' ("improvement", not "gain": in NDCG a gain is what a grade is worth). Four decimals, as the
    cards beside it: at two, a mean of +0.0036 read "improvement is 0.00" (as if the runs were the same) and its
    interval "-0.05–0.05"."""
    c = comparison
    level = percent(c.confidence)
    if c.wins >= c.losses:
        better, worse, better_count, worse_count, sign = name_b, name_a, c.wins, c.losses, 1.0
    else:
        better, worse, better_count, worse_count, sign = name_a, name_b, c.losses, c.wins, -1.0
    low, high = sorted((sign * c.ci_low, sign * c.ci_high))
    gain = sign * c.mean_difference
    word = "improvement" if gain >= 0 else "change"
    sentence = (
        f"{better} is better on {better_count} of {c.n_queries} queries ({worse} on {worse_count}, {c.ties} tied); "
        f"the mean {metric} {word} is {signed_change(gain, 4)}, {level} CI {signed_change(low, 4)} to "
        f"{signed_change(high, 4)}."
    )
    if c.ci_low > 0 or c.ci_high < 0:
        winner = name_b if c.ci_low > 0 else name_a
        sentence += (f" The interval excludes 0, so {winner}'s advantage is unlikely to be a fluke of which queries "
                     "were sampled.")
    else:
        sentence += " The interval includes 0, so these queries do not show a reliable difference in the mean."
    return sentence


def run_choices(run_names: list[str]) -> tuple[str, str, int, int, float]:
    """The run pickers and bootstrap options (drawn only outside the slide view; their keys persist)."""
    pick = st.columns([2, 2, 1, 1, 1])
    name_a = pick[0].selectbox("System A (baseline)", run_names, index=0, key=RUN_A_KEY, persist_state="session")
    name_b = pick[1].selectbox("System B (challenger)", run_names, index=1, key=RUN_B_KEY, persist_state="session")
    n_boot = pick[2].number_input("Resamples", *RESAMPLES, BOOTSTRAP_KEYS[N_BOOT_KEY], step=1_000, key=N_BOOT_KEY,
                                  persist_state="session", help="Bootstrap resamples of the queries.")
    seed = pick[3].number_input("Seed", *SEEDS, BOOTSTRAP_KEYS[SEED_KEY], key=SEED_KEY, persist_state="session",
                                help="Seed of the bootstrap (numpy).")
    confidence = pick[4].selectbox("Confidence", list(CONFIDENCES), index=1, format_func=percent,
                                   key=CONFIDENCE_KEY, persist_state="session")
    return name_a, name_b, int(n_boot), int(seed), float(confidence)


def saved_choices(run_names: list[str]) -> tuple[str, str, int, int, float]:
    """The choices the pickers hold (the slide view shows the comparison without drawing them)."""
    n_boot, seed, confidence = (session.widget(key, default) for key, default in BOOTSTRAP_KEYS.items())
    return (session.widget(RUN_A_KEY, run_names[0]), session.widget(RUN_B_KEY, run_names[1]), int(n_boot), int(seed),
            float(confidence))


@st.cache_resource(show_spinner=False, max_entries=16)
def _comparison(digest: str, name_a: str, name_b: str, options: dict, n_boot: int, seed: int, confidence: float,
                _dataset) -> ndcg_core.Comparison:
    # The bootstrap costs ~0.3 s for 10,000 queries and 3 s for 100,000 (10,000 resamples): computed once per data
    # set, runs and options, not on every rerun of the page (read-only, shared like the evaluations it starts from).
    result_a = dataset_view.evaluate(_dataset, name_a, options)
    result_b = dataset_view.evaluate(_dataset, name_b, options)
    return ndcg_core.compare_runs(result_a.per_query["ndcg"], result_b.per_query["ndcg"], n_boot=n_boot, seed=seed,
                                  confidence=confidence)


# --- share link --------------------------------------------------------------------------------------------------

def is_sample(dataset) -> bool:
    """Whether the data is the bundled sample, the only data a link can name (every session has it)."""
    return dataset.digest == dataset_view.sample_dataset().digest


def link_choices(run_names: list[str]) -> url_state.RunsChoices:
    """What a link may hold: exactly what the pickers and the Dataset page's rules offer."""
    defaults = url_state.ComparedRuns(run_names[0], run_names[1], BOOTSTRAP_KEYS[N_BOOT_KEY],
                                      BOOTSTRAP_KEYS[SEED_KEY], BOOTSTRAP_KEYS[CONFIDENCE_KEY],
                                      dataset_state.DEFAULT_TIES, dataset_state.DEFAULT_MISSING)
    return url_state.RunsChoices(tuple(run_names), RESAMPLES, SEEDS, CONFIDENCES, tuple(dataset_view.TIE_RULES),
                                 tuple(dataset_view.MISSING_RULES), defaults)


def restore_from_link(dataset) -> None:
    """On the session's first visit to this mode: the link's runs, bootstrap options and rules, set before the
    pickers are drawn (the slide view reads them from the same keys). A refused link leaves every default."""
    link = _link_state()
    if link.read:
        return
    link.read = True
    params = url_state.params()
    if not is_sample(dataset):  # a link names the bundled sample's runs; this session has loaded others
        if any(name in params for name in ("run_a", "run_b", "runs_unlinked")):
            url_state.warn(LINK_SCOPE, "The link compares runs of the bundled sample, but this session has other "
                                       "data loaded, so its runs are shown.")
        return
    runs, problem = url_state.compared_runs_from_params(params, link_choices(list(dataset.runs)))
    url_state.warn(LINK_SCOPE, problem)
    if runs is None:
        return
    for key, value in ((RUN_A_KEY, runs.run_a), (RUN_B_KEY, runs.run_b), (N_BOOT_KEY, runs.resamples),
                       (SEED_KEY, runs.seed), (CONFIDENCE_KEY, runs.confidence), (dataset_state.TIES_KEY, runs.ties),
                       (dataset_state.MISSING_KEY, runs.missing)):
        session.set_widget(key, value)


def restore_flip_query(queries: list[str]) -> None:
    """The flip grid's query from the link, once its options (the queries both runs rank) are known."""
    url_state.restore_choice(flip_section.QUERY_KEY, "flip_query", queries, scope=FLIP_SCOPE,
                             label="query for “Does my choice flip the winner?”")


def publish(params: dict[str, str | None]) -> None:
    """Put this mode's parameters in the URL, and keep a bad link's warnings only until they change (they are about
    the link's comparison, not about the one the user made since)."""
    url_state.publish({**dict.fromkeys(url_state.COMPARE_RUNS_PARAMS + ("ties", "missing")), **params})
    link = _link_state()
    if url_state.warning(LINK_SCOPE) is None and url_state.warning(FLIP_SCOPE) is None:
        link.warned_for = None
    elif link.warned_for is None:
        link.warned_for = params
    elif link.warned_for != params:
        url_state.warn(LINK_SCOPE, None)
        url_state.warn(FLIP_SCOPE, None)
        link.warned_for = None


def share_link(params: dict[str, str | None], settings: MetricSettings) -> None:
    """The copy box: this page's address with the settings, the mode and the comparison (what the address bar holds)."""
    if params == url_state.UPLOADED_RUNS_LINK:
        st.caption("This comparison cannot be shared as a link: its runs were uploaded, and a link cannot carry "
                   "files. Opening the address shows the bundled sample's runs with a note.")
        return
    shown = {name: value for name, value in params.items() if value is not None}
    copy_link(url_state.link(url_state.page_address("/compare"), {**url_state.settings_params(settings), "compare": "runs", **shown}),
              key="compare_runs_share_link", label="Share link of this comparison")
    st.caption("Opening the link restores both runs, the resamples, the seed and the confidence level, the Dataset "
               "page's tie and missing-query rules, the query of the flip grid, and the settings.")


def two_runs(settings: MetricSettings, *, slide_view: bool, heading=None) -> None:
    """Pick two runs, compare them per query; the full details, or one slide (under ``heading``)."""
    notice = st.empty()  # the link's warnings, once this run knows whether the comparison changed since
    params = _two_runs(settings, slide_view=slide_view, heading=heading)
    publish(params)
    with notice.container():
        url_state.show_warning(LINK_SCOPE)
        url_state.show_warning(FLIP_SCOPE)


def _two_runs(settings: MetricSettings, *, slide_view: bool, heading) -> dict[str, str | None]:
    """The comparison; returns the parameters that reproduce it (the uploaded-runs marker for uploaded data)."""
    dataset = dataset_view.current_dataset()
    run_names = list(dataset.runs)
    restore_from_link(dataset)
    params: dict[str, str | None] = dict(url_state.UPLOADED_RUNS_LINK)
    if len(run_names) < 2:
        st.info(
            "The current data set has a single run. Upload two or more runs on the Dataset page, or switch back to "
            "the bundled sample (BM25 and neural runs).", icon=":material/info:",
        )
        st.button("Use the bundled sample", key="compare_use_sample", on_click=dataset_view.use_sample)
        return params
    if slide_view:
        name_a, name_b, n_boot, seed, confidence = saved_choices(run_names)
    else:
        text_line(f"Data: {dataset.label}")
        name_a, name_b, n_boot, seed, confidence = run_choices(run_names)
    ties, missing = dataset_run_choices()  # the Dataset page's choices, read through a state function
    if is_sample(dataset):  # published before anything can fail: the address is always what is shown
        params = url_state.compared_runs_params(url_state.ComparedRuns(name_a, name_b, n_boot, seed, confidence,
                                                                       ties, missing))
    if name_a == name_b or name_a not in run_names or name_b not in run_names:
        st.warning("Pick two different runs.", icon=":material/balance:")
        return params
    options = dataset_view.run_options(settings, ties=ties, missing=missing)
    try:
        with st.spinner("Evaluating both runs…"):
            result_a = dataset_view.evaluate(dataset, name_a, options)
            result_b = dataset_view.evaluate(dataset, name_b, options)
            comparison = _comparison(dataset.digest, name_a, name_b, options, n_boot, seed, confidence, dataset)
    except ndcg_core.InvalidInput as error:
        st.error(f"These runs cannot be compared with the current settings: {plain(user_message(error))}",
                 icon=":material/warning:")
        return params
    except Exception as error:  # noqa: BLE001 - never a traceback on screen; say what happened instead
        st.error(f"Unexpected problem while comparing ({plain(type(error).__name__)}: {plain(error)}).",
                 icon=":material/error:")
        return params
    metric = "NDCG" if settings.k is None else f"NDCG@{settings.k}"
    sentence = verdict(comparison, name_a=name_a, name_b=name_b, metric=metric)
    if slide_view:  # the flip grid is not drawn, so its query is not part of what is shown
        slide_summary(comparison, heading, name_a=name_a, name_b=name_b, metric=metric, sentence=sentence)
        return params
    details(comparison, result_a, result_b, name_a=name_a, name_b=name_b, metric=metric, sentence=sentence,
            ties=ties, missing=missing, settings=settings)
    query = flip_section.for_runs(dataset, name_a, name_b, settings, ties=ties,  # issue 13 item 6
                                  restore_query=restore_flip_query if is_sample(dataset) else None,
                                  missing=missing, compared=comparison.n_queries)
    if is_sample(dataset):
        params = {**params, "flip_query": query}
    if not present.active():  # Present mode hides the editing chrome, as on the Playground
        st.header("Share this comparison")
        share_link(params, settings)
    return params


def details(comparison, result_a, result_b, *, name_a, name_b, metric, sentence, ties, missing, settings) -> None:
    """The verdict, five cards, both charts and the per-query table (with a CSV download)."""
    with st.container(border=True):
        text_line(sentence)
    cards = st.columns(5)
    cards[0].metric(f"Mean {metric}: A", fixed(comparison.mean_a))
    cards[1].metric(f"Mean {metric}: B", fixed(comparison.mean_b), delta=signed_change(comparison.mean_difference, 4))
    cards[2].metric("B better", comparison.wins)
    cards[3].metric("Tied", comparison.ties)
    cards[4].metric("A better", comparison.losses)
    text_line(
        f"A = {name_a}, B = {name_b}. Compared on the {comparison.n_queries} queries both runs were evaluated on "
        f"(settings: {settings.describe()}; tied scores: {TIE_RULE_LABELS.get(ties, ties)}; missing queries: "
        f"{MISSING_RULES.get(missing, missing)})."
    )
    left, right = st.columns(2)
    present.plotly_chart(charts.differences_histogram(comparison, name_a=name_a, name_b=name_b, metric=metric),
                         where=left, narrow=True, key="compare_differences", theme=None)
    present.plotly_chart(charts.bootstrap_chart(comparison), where=right, narrow=True, key="compare_bootstrap",
                         theme=None)
    table = (
        result_a.per_query[["ndcg"]].rename(columns={"ndcg": "A"})
        .join(result_b.per_query[["ndcg"]].rename(columns={"ndcg": "B"}), how="inner")
        .assign(difference=lambda frame: frame["B"] - frame["A"])
        .rename_axis("query").reset_index()
    )
    st.dataframe(table, hide_index=True, key="compare_table", placeholder="–", column_config={
        "query": st.column_config.TextColumn("Query"),
        "A": st.column_config.NumberColumn(f"A: {metric}", format="%.4f"),
        "B": st.column_config.NumberColumn(f"B: {metric}", format="%.4f"),
        "difference": st.column_config.NumberColumn("B − A", format="%+.4f"),
    })
    st.download_button("Download per-query comparison (CSV)", table.to_csv(index=False).encode(),
                       file_name="per_query_comparison.csv", mime="text/csv", key="compare_download")


def slide_summary(comparison, heading, *, name_a, name_b, metric, sentence) -> None:
    """One screen for a slide: three large numbers and one chart, with a PNG of the chart."""
    heading.header(f"{plain(name_b)} vs {plain(name_a)}: {metric}")
    big = st.columns(3)
    big[0].metric(f"Mean {metric} of {plain(name_b)}", fixed(comparison.mean_b, 3),
                  delta=f"{signed_change(comparison.mean_difference)} vs {plain(name_a)}")
    big[1].metric(f"Queries where {plain(name_b)} is better", f"{comparison.wins} of {comparison.n_queries}")
    # "difference", not "gain": in NDCG a gain is what a grade is worth (see verdict)
    big[2].metric(f"{percent(comparison.confidence)} CI of the mean difference",
                  f"{signed_change(comparison.ci_low)} to {signed_change(comparison.ci_high)}")
    slide = charts.slide_chart(comparison, name_a=name_a, name_b=name_b, metric=metric)
    present.plotly_chart(slide, key="compare_slide_chart", config=charts.modebar_config("ndcg_comparison"),
                         theme=None)  # as in its PNG: the chart's own slide-sized text, not the page theme's
    text_line(sentence)
    if charts.png_export_available():
        st.download_button("Download the chart as PNG (1600×900)", data=lambda: charts.png_bytes(slide),
                           file_name="ndcg_comparison.png", mime="image/png", key="compare_png", on_click="ignore")
    else:
        st.caption("PNG export needs Chrome/Chromium for kaleido, which is not available on this server: use the "
                   "camera icon in the chart's toolbar (Download plot as PNG, 1600×900 at 2x).")
