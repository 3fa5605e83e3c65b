"""Dataset page, figures: run evaluations (cached by content), the headline cards and the words around them.

Evaluations are kept with ``st.cache_resource`` keyed by the data set's content hash, the run and the
settings: a rerun that changes nothing recomputes nothing, and the million-row results are shared, never
copied (the page only reads them).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import streamlit as st

import ndcg_core
from ui.dataset_charts import CURVE_DEPTH
from ui.dataset_upload import LoadedDataset
from ui.formatting import MISSING, TIE_RULE_LABELS, apart, count, fixed
from ui.settings import MetricSettings
from ui.widgets import names_list, plain, text_line

TIE_RULES = TIE_RULE_LABELS  # the Dataset's name for them (ui.dataset_view re-exports it)
MISSING_RULES = {
    "ignore": "Leave them out (trec_eval default)",
    "zero": "Count them as NDCG 0 (trec_eval -c)",
}
RULE_NAMES = {"zero": "Zero", "one": "One", "skip": "Skip", "error": "Refuse"}


def run_options(settings: MetricSettings, *, ties: str, missing: str) -> dict:
    return {**settings.kwargs(), "ties": ties, "missing": missing}


@st.cache_resource(show_spinner=False, max_entries=16)
def _encoded(digest: str, run_name: str, _dataset: LoadedDataset) -> ndcg_core.EncodedRun:
    # Checked, id-encoded and joined once per data set and run: other k, gain or tie rules reuse it (read-only).
    # A CSV table (qrels None) carries its own grades; rows without score and rank are judged, not retrieved.
    return ndcg_core.encode_run(_dataset.runs[run_name], _dataset.qrels)


def encoded_run(dataset: LoadedDataset, run_name: str) -> ndcg_core.EncodedRun:
    """``ndcg_core.encode_run`` on one run, kept per data set content and run name."""
    return _encoded(dataset.digest, run_name, dataset)


@st.cache_resource(show_spinner=False, max_entries=32)
def _evaluate(digest: str, run_name: str, options: dict, _dataset: LoadedDataset) -> ndcg_core.RunResult:
    return ndcg_core.evaluate_run(encoded_run(_dataset, run_name), **options)


def evaluate(dataset: LoadedDataset, run_name: str, options: dict) -> ndcg_core.RunResult:
    """``ndcg_core.evaluate_run`` on one run, cached by content hash, run name and options."""
    return _evaluate(dataset.digest, run_name, options, dataset)


@st.cache_resource(show_spinner=False, max_entries=32)
def _curve(digest: str, run_name: str, options: dict, _dataset: LoadedDataset) -> pd.DataFrame:
    curve_options = {name: value for name, value in options.items() if name != "k"}
    return ndcg_core.ndcg_curve(encoded_run(_dataset, run_name), ks=range(1, CURVE_DEPTH + 1), **curve_options)


def curve(dataset: LoadedDataset, run_name: str, options: dict) -> pd.DataFrame:
    """Dataset NDCG@k for k = 1..20 (both aggregates), from ``ndcg_core.ndcg_curve``."""
    return _curve(dataset.digest, run_name, options, dataset)


@st.cache_resource(show_spinner=False, max_entries=32)
def _gap(digest: str, run_name: str, options: dict, _result: ndcg_core.RunResult) -> ndcg_core.AggregateGap:
    return ndcg_core.aggregate_gap(_result.per_query)


def figure(value: float) -> str:
    """A card's figure: four decimals, or "n/a" when the formula has no value (0 / 0)."""
    return fixed(value) if np.isfinite(value) else MISSING


def show_headline(dataset: LoadedDataset, run_name: str, options: dict, result: ndcg_core.RunResult, *,
                  settings: MetricSettings, label: str) -> None:
    """The four cards, what the mean is over, the trec_eval reading note, and why the two figures differ."""
    cutoff_note = "the whole run" if settings.k is None else f"the top {settings.k} documents"
    evaluated = len(result.per_query)
    in_mean = int(result.per_query["ndcg"].notna().sum())
    cards = st.columns(4)
    cards[0].metric(f"Mean of per-query {label}", figure(result.mean_ndcg),
                    help="(1/n) Σ NDCG_q over the queries in the mean: every query weighs the same.")
    cards[1].metric("Ratio of sums ΣDCG / ΣIDCG", figure(result.ratio_of_sums),
                    help="Σ DCG_q / Σ IDCG_q over every evaluated query: queries with a large IDCG weigh more.")
    cards[2].metric("Queries in the mean", f"{in_mean}",
                    help=f"{evaluated} queries evaluated; the mean of per-query {label} is over {in_mean} of them.")
    cards[3].metric(
        "Unjudged retrieved", f"{result.unjudged_share:.1%}",
        help=f"Share of the retrieved documents within {cutoff_note} that have no judgment (they count as grade 0).",
    )
    if in_mean != evaluated:
        left_out = evaluated - in_mean
        st.caption(f"{evaluated} queries evaluated; the mean is over {in_mean}: {count(left_out, 'query', 'queries')} "
                   f"with IDCG = 0 {'is' if left_out == 1 else 'are'} left out under the zero-IDCG rule "
                   f"{RULE_NAMES.get(settings.zero_idcg, settings.zero_idcg)}. The ratio of sums adds all {evaluated}.")
    show_negative_grades(dataset)
    show_unread_ranks(dataset.runs[run_name])
    show_trec_eval_reading(dataset, run_name, options, settings=settings)
    gap = _gap(dataset.digest, run_name, options, result)
    st.markdown("**Why the two figures differ here.** "
                + why_aggregates_differ(gap, zero_rule=settings.zero_idcg, label=label))


def show_rule_notes(result: ndcg_core.RunResult, *, settings: MetricSettings, missing: str) -> None:
    """What the zero-IDCG and missing-query rules did on this data, and the run's unjudged queries."""
    zero, absent = list(result.zero_idcg_queries), list(result.missing_queries)
    treatment = "left out of both figures" if missing == "ignore" else "counted with DCG 0 (NDCG 0)"
    zero_what = f"{count(len(zero), 'query has', 'queries have')} no relevant judged document"
    absent_what = f"{count(len(absent), 'judged query is', 'judged queries are')} absent from the run"
    notes = [
        _rule_note("Zero-IDCG rule", zero, zero_what, settings_rule_text(settings.zero_idcg, len(zero)),
                   unaffected="no query has IDCG = 0"),
        _rule_note("Missing-query rule", absent, absent_what, treatment, unaffected="every judged query is in the run"),
    ]
    unjudged_queries = list(result.unjudged_queries)
    if unjudged_queries:
        notes.append(f"{count(len(unjudged_queries), 'run query has', 'run queries have')} no judgments at all and "
                     f"cannot be evaluated ({describe_list(unjudged_queries)}).")
    text_line("\n".join(notes))


def _rule_note(rule: str, queries: list, what: str, effect: str, *, unaffected: str) -> str:
    """'<rule>: <what> (<the queries>); <effect>.', or that the rule changes nothing on this data."""
    if not queries:
        return f"{rule}: {unaffected}, so the rule changes nothing."
    return f"{rule}: {what} ({describe_list(queries)}); {effect}."


def show_negative_grades(dataset: LoadedDataset) -> None:
    """Say how the qrels' negative grades were read (ndcg_core's readers record them)."""
    negatives = dataset.qrels.attrs.get("negative_grades", ()) if dataset.qrels is not None else ()
    if negatives:
        lines, text = negatives
        st.caption(plain(
            f"{count(lines, 'judgment has', 'judgments have')} a negative grade (e.g. {text}; TREC Web track qrels "
            "grade spam −2): read as judged and not relevant (grade 0), as trec_eval and pytrec_eval read them."))


def show_unread_ranks(run: pd.DataFrame) -> None:
    """Say which ranks of a TREC run were not read (ndcg_core's reader records them; scores order the documents)."""
    unread = run.attrs.get("unread_ranks", ())
    if unread:
        lines, first, text = unread
        st.caption(plain(
            f"{count(lines, 'run line has', 'run lines have')} a rank that is not a whole number within ±2⁵³ (line "
            f"{first}: {text}). Ranks are not used: documents are ordered by score, as trec_eval orders them, so "
            f"{'it is' if lines == 1 else 'they are'} left empty."))


def show_trec_eval_reading(dataset: LoadedDataset, run_name: str, options: dict, *, settings: MetricSettings) -> None:
    """When trec_eval would read these files otherwise, say how, and what trec_eval would report."""
    if dataset.trec_eval is None:
        return
    parts = []
    frames = [dataset.qrels, dataset.runs[run_name]]
    differences = {name: value for frame in frames for name, value in frame.attrs.get("trec_eval_differences", {}).items()
                   if name != "ids"}
    # Counted in each file: the same id is usually in both (café judged in the qrels, retrieved in the run).
    ids = {what: frame.attrs.get("trec_eval_differences", {}).get("ids", 0)
           for what, frame in zip(("the qrels", "the run"), frames, strict=True)}
    if "relevance" in differences:
        lines, text, ours, theirs = differences["relevance"]
        parts.append(
            f"trec_eval reads the relevance field with C atol, which stops at the first character that is not a "
            f"digit: {count(lines, 'judgment reads', 'judgments read')} differently there (e.g. {text!r} is {ours:g} "
            f"here, {theirs:g} in trec_eval)."
        )
    if any(ids.values()):
        where = " and ".join(f"{count(n, 'id', 'ids')} in {what}" for what, n in ids.items() if n)
        verb = "is" if sum(ids.values()) == 1 else "are"
        parts.append(
            f"{where} {verb} not valid UTF-8: ndcg_core reads such ids as Latin-1 text, trec_eval "
            "compares raw bytes, so the same name written in UTF-8 in one file and in Latin-1 in the other matches "
            "here but not in trec_eval."
        )
    conventions = {**options, "gain": "linear", "log_base": 2.0, "zero_idcg": "zero", "ties": "trec_eval"}
    ours = evaluate(dataset, run_name, conventions).mean_ndcg
    theirs = evaluate(dataset.trec_eval, run_name, conventions).mean_ndcg
    measure = "ndcg" if settings.k is None else f"ndcg_cut.{settings.k}"
    # As many places as tell the two apart: at four, "would report 0.5551; ... gives 0.5551" for 0.55508 and 0.55515.
    theirs_text, ours_text = apart(theirs, ours, 4) if np.isfinite([theirs, ours]).all() else (figure(theirs), figure(ours))
    parts.append(
        f"On these files trec_eval ({measure}: linear gain, log2, ties by document id, IDCG = 0 counted as 0) would "
        f"report {theirs_text}; ndcg_core's own reading under the same conventions gives {ours_text}."
    )
    st.warning(plain(" ".join(parts)), icon=":material/difference:")


def why_aggregates_differ(gap: ndcg_core.AggregateGap, *, zero_rule: str, label: str = "NDCG") -> str:
    """One or two sentences explaining, for this data, why the two dataset figures differ (``label``: the cards'
    name of the metric, e.g. "NDCG@5")."""
    difference = gap.ratio_of_sums - gap.mean_ndcg
    if not np.isfinite(gap.mean_ndcg) and not np.isfinite(gap.ratio_of_sums):
        return ("Neither figure is defined: no query has a relevant judged document, so every IDCG is 0. The ratio "
                "of sums is then 0 / 0, and the zero-IDCG rule Skip leaves every query out of the mean. Pick another "
                "zero-IDCG rule in the sidebar, or check that the qrels grade some documents above 0.")
    if not np.isfinite(gap.ratio_of_sums):
        return (f"Only the mean is defined: no query has a relevant judged document, so ΣIDCG = 0 and the ratio of "
                f"sums is 0 / 0; the mean counts each query as {_rule_value(zero_rule)} (the zero-IDCG rule).")
    if not np.isfinite(gap.mean_ndcg):
        return "Only the ratio of sums is defined: no query is left in the mean under the zero-IDCG rule."
    if abs(difference) < 0.0005:
        lead = f"The two figures agree to three decimals ({fixed(gap.mean_ndcg, 3)})."
    else:
        higher = "higher" if difference > 0 else "lower"
        lead = f"The ratio of sums is {fixed(abs(difference), 3)} {higher} than the mean of per-query {label}."
    parts = [lead]
    if abs(gap.weighting_effect) >= 0.0005:
        leaning = "above" if gap.weighting_effect > 0 else "below"
        split = gap.mean_high_idcg - gap.mean_low_idcg
        # The median split illustrates the pull only when it points the same way and is as large; otherwise (the
        # pull comes from within the halves: 0.540 against 0.538 "pulled" it 0.018) say what the pull means.
        if np.isfinite(split) and split * gap.weighting_effect > 0 and abs(split) >= abs(gap.weighting_effect):
            why = (f"here those (IDCG ≥ the median {fixed(gap.median_idcg, 2)}) average {label} "
                   f"{fixed(gap.mean_high_idcg, 3)} and the others {fixed(gap.mean_low_idcg, 3)}, which pulls")
        else:
            tends = "higher" if gap.weighting_effect > 0 else "lower"
            why = f"here a query's {label} tends to be {tends} the larger its IDCG, which pulls"
        parts.append(
            f"The ratio of sums weights each query by its IDCG, so queries with many highly relevant documents count "
            f"more: {why} the ratio {fixed(abs(gap.weighting_effect), 3)} {leaning} the plain mean over the same "
            f"{gap.n_positive} queries."
        )
    if gap.n_zero_idcg and abs(gap.zero_idcg_effect) >= 0.0005:
        value = _rule_value(zero_rule)
        direction = "lowers" if gap.zero_idcg_effect > 0 else "raises"
        parts.append(
            f"{_queries(gap.n_zero_idcg)} with no relevant judged document (IDCG = 0) "
            f"{'counts' if gap.n_zero_idcg == 1 else 'count'} as {value} in the mean but "
            f"{'adds' if gap.n_zero_idcg == 1 else 'add'} nothing to either sum; that {direction} the mean by "
            f"{fixed(abs(gap.zero_idcg_effect), 3)}."
        )
    return " ".join(parts)


def query_notes(per_query: pd.DataFrame, *, zero_idcg: Sequence[str], missing: Sequence[str]) -> pd.Series:
    """A short note per query for the table: no relevant judged document, or missing from the run."""
    notes = pd.Series("", index=per_query.index, dtype=object)
    queries = per_query["query"].astype(str)
    notes[queries.isin([str(q) for q in zero_idcg])] = "IDCG = 0: nothing relevant"
    notes[queries.isin([str(q) for q in missing])] = "not in the run: counted as 0"
    return notes


def _rule_value(zero_rule: str) -> str:
    return {"zero": "0", "one": "1"}.get(zero_rule, "their rule's value")


def settings_rule_text(zero_idcg: str, number: int = 2) -> str:
    """What the sidebar's zero-IDCG rule does to those ``number`` queries, in words."""
    them = "it" if number == 1 else "them"
    return {
        "zero": f"the rule scores {them} 0, which pulls the mean down",
        "one": f"the rule scores {them} 1, which pushes the mean up",
        "skip": f"the rule leaves {them} out of the mean",
        "error": f"the rule refuses {them}",
    }[zero_idcg]




def _queries(number: int) -> str:
    return count(number, "query", "queries")


def describe_list(items, *, limit: int = 8) -> str:
    """'401, 402 and 3 more' (plain text; each id ``isolated``, so right-to-left ids keep the list's order)."""
    return names_list(items, limit=limit, more=" and {n} more")
