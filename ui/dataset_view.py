"""Dataset page building blocks: loading files into session state, evaluating them, and dataset-level charts.

One canonical :class:`LoadedDataset` lives in ``st.session_state["dataset"]`` (the bundled sample until the
user loads something). A failed upload never replaces it: the error is shown and the previous data stay.
The Compare page reads the same state for its "two runs" mode.

Parsed files are cached with ``st.cache_data`` keyed by a hash of the file's content (not by session), so a
file uploaded again, or by another student, is not parsed twice.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import ndcg_core
from ui import url_state
from ui.chart_style import PALETTE, apply_style
from ui.settings import MetricSettings
from ui.widgets import plain

DATA_DIR = Path(__file__).resolve().parents[1] / "data"
SAMPLE_FILES = {"qrels": "sample.qrels", "BM25": "run_bm25.txt", "Neural": "run_neural.txt"}
STATE_KEY = "dataset"
ERROR_KEY = "dataset_error"
CURVE_DEPTH = 20
PLAYGROUND_MAX_DOCS = 100  # the Playground stays usable with this many ranked documents
TIE_RULES = {
    "trec_eval": "By document id, descending (trec_eval, pytrec_eval)",
    "average": "Average over the tied group (scikit-learn)",
    "optimistic": "Relevant first (best case)",
    "pessimistic": "Relevant last (worst case)",
    "stable": "In file order",
}
MISSING_RULES = {
    "ignore": "Leave them out (trec_eval default)",
    "zero": "Count them as NDCG 0 (trec_eval -c)",
}


@dataclass(frozen=True)
class LoadedDataset:
    """Judgments and one or more runs, as parsed by ndcg_core's readers.

    ``qrels`` is None for CSV tables, which carry their own ``relevance`` column. ``digest`` identifies the
    content (for caching evaluations); ``source`` the uploaded files (so the same upload is read only once).
    """

    label: str
    qrels: pd.DataFrame | None
    runs: dict[str, pd.DataFrame] = field(repr=False)
    digest: str
    source: tuple = ()


# --- loading -----------------------------------------------------------------------------------------------

def content_digest(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


class ParsedFiles:
    """A small cross-session LRU cache of parsed files, keyed by (kind, content hash).

    Why not ``st.cache_data``: a cached function may not update a progress bar created outside it (Streamlit
    refuses to replay such calls), and the readers report progress while parsing large files. The frames are
    shared between sessions and never modified (the pages only read them).
    """

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.frames: OrderedDict[tuple[str, str], pd.DataFrame] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[str, str]) -> pd.DataFrame | None:
        with self.lock:
            frame = self.frames.get(key)
            if frame is not None:
                self.frames.move_to_end(key)
            return frame

    def put(self, key: tuple[str, str], frame: pd.DataFrame) -> None:
        with self.lock:
            self.frames[key] = frame
            while len(self.frames) > self.capacity:
                self.frames.popitem(last=False)


@st.cache_resource(show_spinner=False)
def parsed_files() -> ParsedFiles:
    return ParsedFiles(capacity=6)


READERS: dict[str, Callable] = {"qrels": ndcg_core.read_qrels, "run": ndcg_core.read_run, "table": ndcg_core.read_table}


def _parse(kind: str, content: bytes, progress: Callable[[float], None] | None) -> pd.DataFrame:
    key = (kind, content_digest(content))
    cache = parsed_files()
    frame = cache.get(key)
    if frame is None:
        frame = READERS[kind](content, progress=progress)
        cache.put(key, frame)
    return frame


KIND_NAMES = {"qrels": "TREC qrels file", "run": "TREC run file", "table": "CSV file"}


def parse_file(kind: str, name: str, content: bytes, progress: Callable[[float], None] | None = None) -> pd.DataFrame:
    """Parse ``content``; every failure becomes InvalidInput naming the file (and the reader's line number)."""
    limit_mb = st.get_option("server.maxUploadSize")
    if len(content) > limit_mb * 1024 * 1024:
        raise ndcg_core.InvalidInput(
            f"{name} is {len(content) / 1024 / 1024:.0f} MB, over the {limit_mb} MB upload limit. "
            "Evaluate a subset of the queries, or run the app with a larger server.maxUploadSize."
        )
    if not content.strip():
        raise ndcg_core.InvalidInput(f"{name} is empty.")
    try:
        return _parse(kind, content, progress)
    except ndcg_core.InvalidInput as error:
        raise ndcg_core.InvalidInput(f"{name}: {error}") from None
    except Exception as error:  # noqa: BLE001 - any reader failure is the file's fault, shown as a message
        raise ndcg_core.InvalidInput(
            f"{name} could not be read as a {KIND_NAMES[kind]} ({type(error).__name__}: {error})."
        ) from None


@st.cache_data(show_spinner=False)
def sample_dataset() -> LoadedDataset:
    """The bundled sample: data/sample.qrels with the BM25 and neural runs (see scripts/make_sample_data.py)."""
    qrels = ndcg_core.read_qrels(DATA_DIR / SAMPLE_FILES["qrels"])
    runs = {name: ndcg_core.read_run(DATA_DIR / file) for name, file in SAMPLE_FILES.items() if name != "qrels"}
    return LoadedDataset(label="Bundled sample (60 topics, BM25 and neural runs)", qrels=qrels, runs=runs, digest="sample")


def current_dataset() -> LoadedDataset:
    """The session's data set; the bundled sample until something else is loaded."""
    if STATE_KEY not in st.session_state:
        st.session_state[STATE_KEY] = sample_dataset()
    return st.session_state[STATE_KEY]


def set_dataset(dataset: LoadedDataset) -> None:
    st.session_state[STATE_KEY] = dataset
    st.session_state.pop(ERROR_KEY, None)
    st.session_state.pop("dataset_run", None)  # the run picker's options changed


def load_uploads(kind: str, qrels_file, run_files: list) -> None:
    """Parse uploaded files with a progress bar; on success replace the data set, on failure keep it.

    ``kind`` is "trec" (``qrels_file`` + TREC runs) or "csv" (CSV tables, ``qrels_file`` None).
    """
    files = ([qrels_file] if qrels_file is not None else []) + list(run_files)
    source = (kind, *(uploaded.file_id for uploaded in files))
    current = current_dataset()
    failed = st.session_state.get(ERROR_KEY)
    if source == current.source or (failed and failed[0] == source):
        return  # already loaded, or already refused: don't parse again on every rerun
    names = [uploaded.name for uploaded in run_files]
    if len(set(names)) != len(names):
        _refuse(source, "Two uploaded runs have the same file name; rename one so the runs can be told apart.")
        return
    progress = st.progress(0.0, text="Reading files…")
    try:
        qrels = None
        runs: dict[str, pd.DataFrame] = {}
        digests = []
        steps = len(files)
        for step, uploaded in enumerate(files):
            text = f"Reading {uploaded.name} ({uploaded.size / 1024 / 1024:.1f} MB)…"
            progress.progress(step / steps, text=text)

            def report(fraction: float, step: int = step, text: str = text) -> None:
                progress.progress(min((step + fraction) / steps, 1.0), text=text)

            content = uploaded.getvalue()
            digests.append(content_digest(content))
            if uploaded is qrels_file:
                qrels = parse_file("qrels", uploaded.name, content, report)
            else:
                runs[uploaded.name] = parse_file("run" if kind == "trec" else "table", uploaded.name, content, report)
        progress.progress(1.0, text="Checking the files fit together…")
        _check_fit(qrels, runs)
    except ndcg_core.InvalidInput as error:
        progress.empty()
        _refuse(source, str(error))
        return
    progress.empty()
    label = ", ".join(uploaded.name for uploaded in files)
    set_dataset(LoadedDataset(label=label, qrels=qrels, runs=runs, digest=content_digest("|".join([kind, *digests]).encode()), source=source))


def use_sample() -> None:
    """Button callback: back to the bundled sample."""
    set_dataset(sample_dataset())


OPEN_KEY = "dataset_open_request"


def request_open(query: str) -> None:
    """Button callback: remember which query to open in the Playground (acted on by the page's next run)."""
    st.session_state[OPEN_KEY] = query


def take_open_request() -> str | None:
    return st.session_state.pop(OPEN_KEY, None)


def _check_fit(qrels: pd.DataFrame | None, runs: dict[str, pd.DataFrame]) -> None:
    if qrels is not None:
        judged = set(qrels["query"].unique())
        for name, run in runs.items():
            if judged.isdisjoint(run["query"].unique()):
                raise ndcg_core.InvalidInput(
                    f"No query of {name} appears in the qrels file, so nothing can be evaluated. "
                    "Check that the run and the qrels belong to the same collection (and that the files are not swapped)."
                )


def _refuse(source: tuple, message: str) -> None:
    st.session_state[ERROR_KEY] = (source, message)


def show_load_error() -> None:
    """The last refused upload's message, with a reminder that the previous data are still shown."""
    failed = st.session_state.get(ERROR_KEY)
    if failed:
        # The message quotes the file (names, cells): escaped so it shows as typed, never as markdown.
        message = f"{failed[1]}\n\nNothing was replaced: the page still shows {current_dataset().label}."
        st.error(plain(message), icon=":material/warning:")


# --- share links ---------------------------------------------------------------------------------------------

def restore_from_url(fields: dict[str, tuple[str, Sequence[str]]]) -> None:
    """On a session's first visit, take widget values from the URL: ``{state key: (param, allowed values)}``.

    Anything not in the allowed values is ignored (a malformed link falls back to the default)."""
    for key, (param, allowed) in fields.items():
        url_state.restore_choice(key, param, allowed, scope="dataset", label=param)


def mirror_to_url(values: dict[str, str | None]) -> None:
    """Publish ``{param: value}`` to the URL (None removes it); app.py writes the URL once per run (ui.url_state)."""
    url_state.publish(values)


# --- evaluation ----------------------------------------------------------------------------------------------

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


@st.cache_data(show_spinner=False, max_entries=64)
def _evaluate(digest: str, run_name: str, options: dict, _dataset: LoadedDataset):
    return ndcg_core.evaluate_run(encoded_run(_dataset, run_name), **options)


def evaluate(dataset: LoadedDataset, run_name: str, options: dict):
    """``ndcg_core.evaluate_run`` on one run, cached by content hash, run name and options."""
    return _evaluate(dataset.digest, run_name, options, dataset)


@st.cache_data(show_spinner=False, max_entries=64)
def _curve(digest: str, run_name: str, options: dict, _dataset: LoadedDataset) -> pd.DataFrame:
    curve_options = {name: value for name, value in options.items() if name != "k"}
    return ndcg_core.ndcg_curve(encoded_run(_dataset, run_name), ks=range(1, CURVE_DEPTH + 1), **curve_options)


def curve(dataset: LoadedDataset, run_name: str, options: dict) -> pd.DataFrame:
    """Dataset NDCG@k for k = 1..20 (both aggregates), from ``ndcg_core.ndcg_curve``."""
    return _curve(dataset.digest, run_name, options, dataset)


# --- one query for the Playground --------------------------------------------------------------------------

def query_ranking(dataset: LoadedDataset, run_name: str, query: str, *, ties: str,
                  limit: int = PLAYGROUND_MAX_DOCS) -> ndcg_core.RankedQuery:
    """The run's ranking of ``query`` for the Playground: ``ndcg_core.ranked_query`` under the page's tie rule.

    Its documents are in the tie rule's order (unjudged ones with grade 0), judged documents not shown (not
    retrieved, or past ``limit``) are extra judged documents, and under "average" the tie groups come along,
    so the Playground's NDCG equals the data set's row for any cutoff up to ``limit``.
    """
    return ndcg_core.ranked_query(encoded_run(dataset, run_name), query=query, ties=ties, limit=limit)


# --- charts --------------------------------------------------------------------------------------------------

def _layout(fig: go.Figure, *, title: str, x_title: str, y_title: str, height: int = 360) -> go.Figure:
    return apply_style(fig, title=title, x_title=x_title, y_title=y_title, height=height, yaxis={"rangemode": "tozero"})


def histogram_chart(ndcg: pd.Series, *, mean: float, label: str) -> go.Figure:
    """Per-query NDCG in 20 bins of width 0.05 on [0, 1], with the mean marked."""
    values = ndcg.dropna().to_numpy(dtype=float)
    edges = np.linspace(0.0, 1.0, 21)
    counts, _ = np.histogram(values, bins=edges)
    centres = (edges[:-1] + edges[1:]) / 2
    fig = go.Figure()
    fig.add_bar(
        x=centres, y=counts, width=0.048, marker={"color": PALETTE["actual"]}, name="queries",
        customdata=np.column_stack([edges[:-1], edges[1:]]),
        hovertemplate="NDCG %{customdata[0]:.2f}–%{customdata[1]:.2f}<br><b>%{y} queries</b><extra></extra>",
    )
    fig.add_vline(x=mean, line={"color": PALETTE["discount"], "dash": "dash", "width": 3})
    fig.add_annotation(
        x=mean, y=1.0, yref="paper", text=f"mean {mean:.3f}", showarrow=False, xanchor="right", yanchor="bottom",
        font={"size": 14, "color": PALETTE["discount"]},
    )
    _layout(fig, title=f"Per-query {label} ({values.size} queries)", x_title=label, y_title="number of queries", height=400)
    fig.update_layout(showlegend=False, margin={"b": 90})
    fig.update_xaxes(range=[0, 1.0], dtick=0.1)
    return fig


def curve_chart(curve_frame: pd.DataFrame, *, k: int | None) -> go.Figure:
    """Dataset NDCG@k for k = 1..20: mean of per-query NDCG and ratio of sums."""
    fig = go.Figure()
    ks = curve_frame["k"].to_numpy()
    fig.add_scatter(
        x=ks, y=curve_frame["mean_ndcg"], name="Mean of per-query NDCG", mode="lines+markers",
        line={"color": PALETTE["actual"], "width": 3}, marker={"size": 9, "symbol": "circle"},
        hovertemplate="k = %{x}<br>mean NDCG@%{x} = %{y:.4f}<extra></extra>",
    )
    fig.add_scatter(
        x=ks, y=curve_frame["ratio_of_sums"], name="Ratio of sums ΣDCG / ΣIDCG", mode="lines+markers",
        line={"color": PALETTE["ideal"], "width": 3, "dash": "dash"}, marker={"size": 9, "symbol": "diamond"},
        hovertemplate="k = %{x}<br>ΣDCG@%{x} / ΣIDCG@%{x} = %{y:.4f}<extra></extra>",
    )
    if k is not None and 1 <= k <= CURVE_DEPTH:
        fig.add_vline(x=k, line={"color": PALETTE["text"], "dash": "dot", "width": 2})
        fig.add_annotation(x=k, y=0.0, yref="paper", text=f"k = {k}", showarrow=False, xanchor="left", yanchor="bottom")
    _layout(fig, title="Dataset NDCG@k for k = 1..20", x_title="cutoff k", y_title="NDCG@k", height=400)
    fig.update_layout(legend={"orientation": "h", "yanchor": "top", "y": -0.22, "xanchor": "left", "x": 0.0},
                      margin={"b": 90})
    fig.update_xaxes(dtick=1, range=[0.5, CURVE_DEPTH + 0.5])
    fig.update_yaxes(range=[0, 1.02])
    return fig


# --- words ---------------------------------------------------------------------------------------------------

def why_aggregates_differ(gap: ndcg_core.AggregateGap, *, zero_rule: str) -> str:
    """One or two sentences explaining, for this data, why the two dataset figures differ."""
    difference = gap.ratio_of_sums - gap.mean_ndcg
    if not np.isfinite(difference):
        return "Only one of the two figures is defined for this data (no query has a relevant judged document)."
    if abs(difference) < 0.0005:
        lead = f"The two figures agree to three decimals ({gap.mean_ndcg:.3f})."
    else:
        higher = "higher" if difference > 0 else "lower"
        lead = f"The ratio of sums is {abs(difference):.3f} {higher} than the mean of per-query NDCG."
    parts = [lead]
    if np.isfinite(gap.mean_high_idcg) and abs(gap.weighting_effect) >= 0.0005:
        leaning = "above" if gap.weighting_effect > 0 else "below"
        parts.append(
            f"The ratio of sums weights each query by its IDCG, so queries with many highly relevant documents count "
            f"more: here those (IDCG ≥ the median {gap.median_idcg:.2f}) average NDCG {gap.mean_high_idcg:.3f} and the "
            f"others {gap.mean_low_idcg:.3f}, which pulls the ratio {abs(gap.weighting_effect):.3f} {leaning} the "
            f"plain mean over the same {gap.n_positive} queries."
        )
    if gap.n_zero_idcg and abs(gap.zero_idcg_effect) >= 0.0005:
        value = {"zero": "0", "one": "1"}.get(zero_rule, "their rule's value")
        direction = "lowers" if gap.zero_idcg_effect > 0 else "raises"
        parts.append(
            f"{_queries(gap.n_zero_idcg)} with no relevant judged document (IDCG = 0) count as {value} in the mean "
            f"but add nothing to either sum; that {direction} the mean by {abs(gap.zero_idcg_effect):.3f}."
        )
    return " ".join(parts)


def query_notes(per_query: pd.DataFrame, *, zero_idcg: Sequence[str], missing: Sequence[str]) -> pd.Series:
    """A short note per query for the table: no relevant judged document, or missing from the run."""
    notes = pd.Series("", index=per_query.index, dtype=object)
    queries = per_query["query"].astype(str)
    notes[queries.isin([str(q) for q in zero_idcg])] = "IDCG = 0: no relevant judged document"
    notes[queries.isin([str(q) for q in missing])] = "not in the run: counted as 0"
    return notes


def settings_rule_text(zero_idcg: str) -> str:
    """What the sidebar's zero-IDCG rule does to those queries, in words."""
    return {
        "zero": "the rule scores them 0, which pulls the mean down",
        "one": "the rule scores them 1, which pushes the mean up",
        "skip": "the rule leaves them out of the mean",
        "error": "the rule refuses them",
    }[zero_idcg]


def count(number: int, singular: str, plural: str) -> str:
    """'1 query has' / '3 queries have'."""
    return f"{number} {singular if number == 1 else plural}"


def _queries(number: int) -> str:
    return count(number, "query", "queries")


def describe_list(items, *, limit: int = 8) -> str:
    """'401, 402 and 3 more' (plain text)."""
    items = [str(item) for item in items]
    if len(items) <= limit:
        return ", ".join(items)
    return ", ".join(items[:limit]) + f" and {len(items) - limit} more"
