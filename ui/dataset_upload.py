"""Dataset page, loading: the upload widgets, parsing each file once, and the session's data set.

One canonical :class:`LoadedDataset` lives in the page's state (:mod:`ui.dataset_state`; the bundled sample until
the user loads something). A failed upload never replaces it: the error is shown and the previous data stay.
The Compare page reads the same state for its "two runs" mode.

Parsed files are kept in a small cross-session cache keyed by a hash of the file's content (not by session),
so a file uploaded again, or by another student, is not parsed twice; and a rerun with the same uploads
does not even hash them (their upload ids are compared first).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import streamlit as st

import ndcg_core
from ui import dataset_state, focus
from ui.formatting import megabytes
from ui.text_direction import isolate_quoted
from ui.widgets import plain

DATA_DIR = Path(__file__).resolve().parents[1] / "data"
SAMPLE_FILES = {"qrels": "sample.qrels", "BM25": "run_bm25.txt", "Neural": "run_neural.txt"}
KIND_NAMES = {"qrels": "TREC qrels file", "run": "TREC run file", "table": "CSV file"}
SOURCES = {"sample": "Bundled sample", "trec": "TREC qrels + run", "csv": "One CSV"}


@dataclass(frozen=True)
class LoadedDataset:
    """Judgments and one or more runs, as parsed by ndcg_core's readers.

    ``qrels`` is None for CSV tables, which carry their own ``relevance`` column. ``digest`` identifies the
    content (for caching evaluations); ``source`` the uploaded files (so the same upload is read only once).
    ``trec_eval`` holds the same files read as trec_eval reads them (``reading="trec_eval"``), only when that
    reading differs from ndcg_core's (grades such as ``1.5`` or ``1e1``, ids that are not UTF-8).
    """

    label: str
    qrels: pd.DataFrame | None
    runs: dict[str, pd.DataFrame] = field(repr=False)
    digest: str
    source: tuple = ()
    trec_eval: LoadedDataset | None = field(default=None, repr=False)


def content_digest(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


class ParsedFiles:
    """A small cross-session LRU cache of parsed files, keyed by (kind, content hash, reading).

    Why not ``st.cache_data``: a cached function may not update a progress bar created outside it (Streamlit
    refuses to replay such calls), and it would copy a million-row frame on every hit. The frames are shared
    between sessions and never modified (the pages only read them).
    """

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.frames: OrderedDict[tuple[str, str, str], pd.DataFrame] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[str, str, str]) -> pd.DataFrame | None:
        with self.lock:
            frame = self.frames.get(key)
            if frame is not None:
                self.frames.move_to_end(key)
            return frame

    def put(self, key: tuple[str, str, str], frame: pd.DataFrame) -> None:
        with self.lock:
            self.frames[key] = frame
            while len(self.frames) > self.capacity:
                self.frames.popitem(last=False)


@st.cache_resource(show_spinner=False)
def parsed_files() -> ParsedFiles:
    return ParsedFiles(capacity=8)


def _read(kind: str, content: bytes, progress, reading: str) -> pd.DataFrame:
    if kind == "table":
        return ndcg_core.read_table(content, progress=progress)
    reader = ndcg_core.read_qrels if kind == "qrels" else ndcg_core.read_run
    return reader(content, progress=progress, reading=reading)


def parse_file(kind: str, name: str, content: bytes, progress: Callable[[float], None] | None = None, *,
               digest: str | None = None, reading: str = "ndcg_core") -> pd.DataFrame:
    """Parse ``content`` once; every failure becomes InvalidInput naming the file (and the reader's line)."""
    limit_mb = st.get_option("server.maxUploadSize")
    if len(content) > limit_mb * 1024 * 1024:
        raise ndcg_core.InvalidInput(
            f"{name} is {megabytes(len(content), 0)}, over the {limit_mb} MB upload limit. "
            "Evaluate a subset of the queries, or run the app with a larger server.maxUploadSize."
        )
    if not content.strip():
        raise ndcg_core.InvalidInput(f"{name} is empty.")
    key = (kind, digest or content_digest(content), reading)
    cache = parsed_files()
    frame = cache.get(key)
    if frame is not None:
        return frame
    try:
        frame = _read(kind, content, progress, reading)
    except ndcg_core.InvalidInput as error:
        raise ndcg_core.InvalidInput(f"{name}: {error}") from None
    except Exception as error:  # noqa: BLE001 - any reader failure is the file's fault, shown as a message
        raise ndcg_core.InvalidInput(
            f"{name} could not be read as a {KIND_NAMES[kind]} ({type(error).__name__}: {error})."
        ) from None
    cache.put(key, frame)
    return frame


@st.cache_resource(show_spinner=False)
def sample_dataset() -> LoadedDataset:
    """The bundled sample: data/sample.qrels with the BM25 and neural runs (see scripts/make_sample_data.py)."""
    qrels = ndcg_core.read_qrels(DATA_DIR / SAMPLE_FILES["qrels"])
    runs = {name: ndcg_core.read_run(DATA_DIR / file) for name, file in SAMPLE_FILES.items() if name != "qrels"}
    return LoadedDataset(label="Bundled sample (60 topics, BM25 and neural runs)", qrels=qrels, runs=runs, digest="sample")


def current_dataset() -> LoadedDataset:
    """The session's data set; the bundled sample until something else is loaded."""
    page = dataset_state.state()
    if page.dataset is None:
        page.dataset = sample_dataset()
    return page.dataset


def set_dataset(dataset: LoadedDataset) -> None:
    page = dataset_state.state()
    page.dataset, page.load_error = dataset, None
    # The run picker's options changed: set its value (not just forget it), or the browser keeps showing the old
    # run's name in the box while the page evaluates the new first run.
    dataset_state.set_run(next(iter(dataset.runs)))


def use_sample() -> None:
    """Button callback: back to the bundled sample."""
    set_dataset(sample_dataset())


def show_inputs() -> None:
    """The data source picker and the upload widgets; a new upload is parsed (once) and becomes the data set."""
    source = st.radio("Data", list(SOURCES), format_func=SOURCES.get, horizontal=True, key=dataset_state.SOURCE_KEY, persist_state="session")
    if source == "sample":
        if current_dataset().digest != "sample":
            st.button("Switch back to the bundled sample", key="dataset_use_sample", on_click=use_sample)
    elif source == "trec":
        left, right = st.columns(2)
        qrels_file = focus.file_uploader(
            "Qrels (TREC: query 0 doc grade)", key=dataset_state.QRELS_FILE_KEY, where=left,
            help="One judgment per line: query id, an unused column (0), document id, grade. Whitespace separated.",
        )
        run_files = focus.file_uploader(
            "Run(s) (TREC: query Q0 doc rank score tag)", key=dataset_state.RUN_FILES_KEY, accept_multiple_files=True,
            where=right,
            help="Six whitespace-separated columns per line. Upload two runs to compare them on the Compare page.",
        )
        if qrels_file is not None and run_files:
            load_uploads("trec", qrels_file, run_files)
        elif qrels_file is not None or run_files:
            # A file over the upload limit never reaches the app (Streamlit's uploader refuses it in the browser, its
            # reason in a tooltip): a 228 MB run left only this box, which said to add a file that had been added.
            st.info(f"Add both the qrels file and at least one run file to evaluate them. A file over the "
                    f"{st.get_option('server.maxUploadSize')} MB upload limit is refused before it reaches the app: "
                    "it shows in red in the uploader (point at it for the reason).", icon=":material/attach_file:")
    else:
        tables = focus.file_uploader(
            "CSV with columns query, doc, relevance and score or rank", key=dataset_state.CSV_FILES_KEY,
            accept_multiple_files=True,
            help="One row per (query, document). Rows with an empty score and rank are judged but not retrieved; "
            "an empty relevance means unjudged. Several CSVs are several runs.",
        )
        if tables:
            load_uploads("csv", None, tables)
    show_load_error()


def load_uploads(kind: str, qrels_file, run_files: list) -> None:
    """Parse uploaded files with a progress bar; on success replace the data set, on failure keep it.

    ``kind`` is "trec" (``qrels_file`` + TREC runs) or "csv" (CSV tables, ``qrels_file`` None).
    """
    files = ([qrels_file] if qrels_file is not None else []) + list(run_files)
    source = (kind, *(uploaded.file_id for uploaded in files))
    current = current_dataset()
    failed = dataset_state.state().load_error
    if source == current.source or (failed and failed[0] == source):
        return  # already loaded, or already refused: don't parse again on every rerun
    names = [uploaded.name for uploaded in run_files]
    if len(set(names)) != len(names):
        _refuse(source, "Two uploaded runs have the same file name; rename one so the runs can be told apart.")
        return
    progress = st.progress(0.0, text="Reading files…")
    try:
        qrels, runs, digests, contents = None, {}, [], {}
        for step, uploaded in enumerate(files):
            text = f"Reading {uploaded.name} ({megabytes(uploaded.size)})…"
            progress.progress(step / len(files), text=text)

            def report(fraction: float, step: int = step, text: str = text) -> None:
                progress.progress(min((step + fraction) / len(files), 1.0), text=text)

            content = uploaded.getvalue()
            digests.append(content_digest(content))
            file_kind = "qrels" if uploaded is qrels_file else "run" if kind == "trec" else "table"
            contents[uploaded.name] = (file_kind, content, digests[-1])
            frame = parse_file(file_kind, uploaded.name, content, report, digest=digests[-1])
            if uploaded is qrels_file:
                qrels = frame
            else:
                runs[uploaded.name] = frame
        progress.progress(1.0, text="Checking the files fit together…")
        _check_fit(qrels, runs)
        digest = content_digest("|".join([kind, *digests]).encode())
        trec_eval = _trec_eval_reading(qrels, runs, contents, qrels_file, digest)
    except ndcg_core.InvalidInput as error:
        progress.empty()
        _refuse(source, str(error))
        return
    progress.empty()
    label = ", ".join(uploaded.name for uploaded in files)
    set_dataset(LoadedDataset(label=label, qrels=qrels, runs=runs, digest=digest, source=source, trec_eval=trec_eval))


def _trec_eval_reading(qrels, runs: dict, contents: dict, qrels_file, digest: str) -> LoadedDataset | None:
    """The files read as trec_eval reads them, only when some file reads differently there (see the readers)."""
    frames = [qrels, *runs.values()] if qrels is not None else []
    if not any(frame.attrs.get("trec_eval_differences") for frame in frames):
        return None
    again = {name: parse_file(kind, name, content, digest=digest, reading="trec_eval")
             for name, (kind, content, digest) in contents.items()}
    return LoadedDataset(label="read as trec_eval reads", qrels=again[qrels_file.name],
                         runs={name: again[name] for name in runs}, digest=f"{digest}:trec_eval")


def _check_fit(qrels: pd.DataFrame | None, runs: dict[str, pd.DataFrame]) -> None:
    if qrels is None:  # CSV tables: their relevance column holds the judgments
        for name, table in runs.items():
            if not table["relevance"].notna().any():
                raise ndcg_core.InvalidInput(
                    f"{name} has no judgment: every relevance cell is empty, so nothing can be evaluated. "
                    "Fill in the relevance (grade) of the documents that were judged."
                )
    if qrels is not None:
        judged = set(qrels["query"].unique())
        for name, run in runs.items():
            if judged.isdisjoint(run["query"].unique()):
                raise ndcg_core.InvalidInput(
                    f"No query of {name} appears in the qrels file, so nothing can be evaluated. "
                    "Check that the run and the qrels belong to the same collection (and that the files are not swapped)."
                )


def _refuse(source: tuple, message: str) -> None:
    dataset_state.state().load_error = (source, message)


def show_load_error() -> None:
    """The last refused upload's message, with a reminder that the previous data are still shown."""
    failed = dataset_state.state().load_error
    if failed:
        # The message quotes the file (names, cells): escaped so it shows as typed, never as markdown.
        # The ids it quotes set apart (ui.text_direction.isolate_quoted), as every ndcg_core refusal on screen.
        message = f"{isolate_quoted(failed[1])}\n\nNothing was replaced: the page still shows {current_dataset().label}."
        st.error(plain(message), icon=":material/warning:")
