"""Shared fixtures: AppTest for a page of the app."""

from __future__ import annotations

import os
from pathlib import Path

# One thread for the native libraries the oracle tests call (LightGBM, XGBoost and torch through OpenMP, ranx through
# numba): by default each starts a thread per core that spin-waits between calls, and with two pytest workers and the
# browser tests' Chromium on a 2-core machine those spinning threads take the CPU from the work (measured quiet:
# test_diagnose's 100 XGBoost evaluations 4.8 s -> 0.2 s, LightGBM's 4.1 s -> 1.8 s). Set before any of them loads;
# the app servers the browser tests start inherit it.
for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")
# ranx's kernels run as the Python they are written in: the same code and the same figures (bit for bit on the
# conformance battery's lists, compiled against interpreted), without numba compiling them first. In a fresh
# environment (CI's new virtual environment, where numba's cache is empty) that compilation cost ~30 CPU-seconds in
# one worker, more than every other oracle test together; the oracle's lists are small, and the interpreter runs
# them in milliseconds. ranx's compiled path is still compared with ndcg_core on a million run lines in
# bench/bench_files.py.
os.environ.setdefault("NUMBA_DISABLE_JIT", "1")

import pytest  # noqa: E402 (after the thread settings above)
from hypothesis import settings  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

# No per-example time limit for the property tests: hypothesis' default 200 ms deadline is a timed test, and on two
# shared cores with Chromium busy an example took 280 ms and failed a suite run. Speed is measured in bench/.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"


@pytest.fixture(autouse=True, scope="session")
def component_scan_once():
    """Scan the installed packages for Streamlit components once per test process, not once per AppTest.

    Every new AppTest scans the metadata of every installed distribution for component manifests before its first
    run (``BidiComponentManager.discover_and_register_components``). With the oracle libraries installed that is
    ~65 ms, about half of a page's first AppTest run, and the suite creates about a thousand AppTests. The packages
    cannot change during a test run, so the first scan's result is reused; a running server scans once anyway.
    """
    from streamlit.components.v2 import manifest_scanner

    scan = manifest_scanner.scan_component_manifests
    found = []

    def scan_once(*args, **kwargs):
        if not found:
            found.append(scan(*args, **kwargs))
        return list(found[0])

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(manifest_scanner, "scan_component_manifests", scan_once)
        yield


@pytest.fixture(autouse=True, scope="session")
def script_runs_awaited_by_join():
    """Wait for an AppTest run by joining its script thread instead of Streamlit's 1 ms polling loop.

    ``local_script_runner.require_widgets_deltas`` wakes up every millisecond and scans every event of the run
    (one per element sent) for the end; each wake-up also takes the GIL from the script it waits for. Py-spy on
    the page tests put ~10 % of their samples there. The run ends exactly when the script thread ends (Streamlit
    joins it right after this wait), so a join with the same timeout waits for the same thing; a run that does
    not end in time is stopped and reported with Streamlit's own message.
    """
    from streamlit.testing.v1 import local_script_runner

    polling = local_script_runner.require_widgets_deltas

    def joined(runner, timeout: float = 3) -> None:
        thread = getattr(runner, "_script_thread", None)
        if thread is None:  # not the runner this was written for: Streamlit's own wait
            polling(runner, timeout)
            return
        thread.join(timeout)
        if not runner.script_stopped():
            runner.request_stop()
            runner.join()
            raise RuntimeError(f"AppTest script run timed out after {timeout}(s)")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(local_script_runner, "require_widgets_deltas", joined)
        yield


@pytest.fixture(autouse=True)
def server_pages_mode(monkeypatch):
    """Make every AppTest run see the pages as a running server does (a test-harness fix, private on purpose).

    A server leaves Streamlit's legacy ``pages/`` mode for good once app.py's ``st.navigation`` has run
    (``ui.page_shell`` does it on the very first visit; tests/browser/test_deep_links_browser.py proves
    that on a fresh server). AppTest re-enters that mode on every ``run()``, where a page requested by its
    url path (equal to its file stem) would run on its own, without app.py, and lose a ``st.switch_page``
    made in a button callback. AppTest resets Streamlit's private class flag itself, so only resetting that same
    flag undoes it; the app's own fix is public API (``ui.page_shell``, tested without this fixture in
    tests/test_app_shell.py).
    """
    from streamlit.runtime.pages_manager import PagesManager

    original = PagesManager.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    monkeypatch.setattr(PagesManager, "__init__", init)


def run_page(page: str | None = None, *, query_params: dict | None = None, timeout: float = 30) -> AppTest:
    """Run ``app.py`` (the real entry point with its sidebar) on ``pages/<page>.py``, as a deep link opens it.

    The page is chosen before the first run (each url_path is its file's stem, so AppTest's file-name hash is the
    page's), so the page runs once with the link's parameters, as in a browser opening the link.
    """
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    for name, value in (query_params or {}).items():
        at.query_params[name] = value
    if page is not None:
        at.switch_page(f"pages/{page}.py")
    return at.run()


def app_page_paths() -> tuple[str, ...]:
    """Every page's file stem, once, from the app's own navigation (ui.navigation.app_pages), so a new page is covered.

    A file's stem is its url_path ("playground" for the default page, which Streamlit serves at the root).
    """
    from unittest import mock

    from ui import navigation

    with mock.patch.object(navigation.st, "Page", lambda page, **options: Path(page).stem):
        stems = [path for group in navigation.app_pages().values() for path in group]
    return tuple(dict.fromkeys(stems))


def app_link_params() -> tuple[str, ...]:
    """Every query parameter the app reads, from its own registries (ui/url_state.py): the settings, every page's
    parameters, the Why-differ page's fields, the app's switches (MANAGED) and the Live class's (LIVE_PARAMS)."""
    from ui import url_state

    return tuple(sorted(url_state.MANAGED | set(url_state.LIVE_PARAMS)))


@pytest.fixture
def live_db(tmp_path, monkeypatch):
    """A throwaway SQLite database for the Live class page (the app reads its URL from NDCG_LIVE_DB_URL)."""
    from ui.live import schema

    url = f"sqlite:///{tmp_path / 'live.sqlite3'}"
    monkeypatch.setenv("NDCG_LIVE_DB_URL", url)
    engine = schema.create_engine(url)
    schema.migrate(engine)
    yield engine
    engine.dispose()


def run_async(coroutine):
    """Run ``coroutine`` to its end on an event loop of its own, in a thread of its own, and return its result.

    A worker that ran browser tests keeps Playwright's sync API (session-scoped) and its running event loop in the
    test thread, where ``asyncio.run()`` refuses to start."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as worker:
        return worker.submit(asyncio.run, coroutine).result()


def ranx_evaluate(qrels: dict, run: dict, metric: str, *, return_mean: bool = True):
    """``ranx.evaluate`` on dict qrels ({query: {doc: grade}}) and run ({query: {doc: score}}).

    ranx holds document ids in numpy fixed-width strings and numba compiles its readers once per width: in a fresh
    environment (CI's new virtual environment, where numba's cache is empty) each width cost ~4 s of compilation in
    every worker, and the oracle tests used four. The ids are renamed to six-digit labels in their sorted order, so
    every call has one width and ranx's order of the ids (hence of tied documents) is unchanged. Grades and scores
    go in as given: ranx's ``Qrels`` reads a grade as an integer itself (1.5 as 1).
    """
    ranx = pytest.importorskip("ranx")
    ids = sorted({doc for docs in (*qrels.values(), *run.values()) for doc in docs})
    label = {doc: f"{position:06d}" for position, doc in enumerate(ids)}
    ranx_qrels = ranx.Qrels({query: {label[doc]: grade for doc, grade in docs.items()} for query, docs in qrels.items()})
    ranx_run = ranx.Run({query: {label[doc]: score for doc, score in docs.items()} for query, docs in run.items()})
    return ranx.evaluate(ranx_qrels, ranx_run, metric, return_mean=return_mean)


def assert_no_settings_sidebar(page: str, use_page=lambda at: None) -> None:
    """``page`` (a page that states its own convention) draws no metric settings and puts none in its address,
    also after ``use_page(at)`` (which may check the page too); the settings chosen on the Playground before are
    still there afterwards."""
    at = run_page("playground")
    at.radio(key="settings_gain").set_value("linear").run()
    at.switch_page(f"pages/{page}.py").run()
    assert not at.exception
    assert [e.value for e in at.sidebar.get("header")] == []  # no "Metric settings"
    assert not at.sidebar.radio and not at.sidebar.number_input and not at.sidebar.selectbox
    use_page(at)
    assert not {"gain", "base", "k", "z", "gt"} & set(at.query_params), dict(at.query_params)
    at.switch_page("pages/playground.py").run()
    assert at.radio(key="settings_gain").value == "linear" and at.query_params["gain"] == "linear"


def chart_specs(at: AppTest) -> list[dict]:
    """The page's plotly figures as the browser receives them (JSON specs), in page order."""
    import json

    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def chart_values(data):
    """A chart's array as a numpy array: plotly sends lists, or typed arrays as {"dtype", "bdata"[, "shape"]}."""
    import base64

    import numpy as np

    if not isinstance(data, dict):
        return np.asarray(data)
    array = np.frombuffer(base64.b64decode(data["bdata"]), dtype=np.dtype(data["dtype"]))
    if "shape" in data:
        array = array.reshape([int(part) for part in data["shape"].split(",")])
    return array


def is_band(chart: dict) -> bool:
    """The tie band's chart: its first trace is a bar from low to high on a setting row ("gain = ...")."""
    data = chart.get("data")
    first = data[0].get("y") if isinstance(data, list) and data else None
    return isinstance(first, list) and bool(first) and str(first[0]).startswith("gain")


def band_chart(at) -> dict:
    return next(c for c in chart_specs(at) if is_band(c))


def band_rows(chart: dict) -> dict[str, dict]:
    """{setting: {"low", "high", "expected", "markers": {label: value}}} from the chart's traces (3 per row)."""
    rows = {}
    data = chart["data"]
    for line, diamond, dots in zip(data[0::3], data[1::3], data[2::3], strict=True):
        rows[line["y"][0]] = {"low": line["x"][0], "high": line["x"][1], "expected": diamond["x"][0],
                              "markers": dict(zip(dots.get("text", []), dots.get("x", []), strict=True))}
    return rows


def hand_dcg(gains) -> float:
    """DCG by hand from the formula: the sum of gain_i / log2(i + 1) over ranks i = 1, 2, ..."""
    import math

    return sum(gain / math.log2(i + 2) for i, gain in enumerate(gains))


# The tie example shown on two pages (Library conventions' "ties" case, Why differ's tie example): ids A12, B07,
# C33, D01 graded 3, 0, 1, 2 and scored 0.9, 0.9, 0.4, 0.4, i.e. two tied pairs.
TIES_GRADES, TIES_SCORES = [3, 0, 1, 2], [0.9, 0.9, 0.4, 0.4]


def assert_ties_example_linear_band(linear: dict) -> None:
    """The linear-gain row of the tie band drawn for the tie example (``band_rows``), against hand figures and
    scikit-learn."""
    from sklearn.metrics import ndcg_score

    idcg = hand_dcg([3, 2, 1, 0])
    assert linear["low"] == pytest.approx(hand_dcg([0, 3, 1, 2]) / idcg)  # the worse grade first in each tie
    assert linear["high"] == pytest.approx(hand_dcg([3, 0, 2, 1]) / idcg)
    assert linear["expected"] == pytest.approx(ndcg_score([TIES_GRADES], [TIES_SCORES]))
    assert linear["markers"]["scikit-learn ndcg_score"] == pytest.approx(linear["expected"])  # it averages ties
    # trec_eval breaks ties by document id, descending: B07 (0) before A12 (3), D01 (2) before C33 (1)
    assert linear["markers"]["trec_eval ndcg_cut"] == pytest.approx(hand_dcg([0, 3, 2, 1]) / idcg)


def copy_links(at: AppTest) -> dict[str, str]:
    """The links the page offers to copy (``ui.copy_link``): {the box's label: the link}."""
    import json

    found = {}
    for element in at.get("bidi_component"):
        if element.proto.component_name == "ndcg_copy_link":
            data = json.loads(element.proto.json)
            found[data["label"]] = data["url"]
    return found


@pytest.fixture
def app_page():
    """``app_page("playground")`` returns an AppTest that has run that page."""
    return run_page


@pytest.fixture
def url_writes(monkeypatch):
    """The query-string messages sent to the browser, in order (Streamlit 1.67 turns each into a history.pushState;
    ui/history.py makes those of the same page a replace)."""
    from streamlit.runtime.state.query_params import QueryParams

    sent = []
    original = QueryParams._send_query_param_msg

    def counting(self):
        sent.append(self.to_dict())
        original(self)

    monkeypatch.setattr(QueryParams, "_send_query_param_msg", counting)
    return sent
