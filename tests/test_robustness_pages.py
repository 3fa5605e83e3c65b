"""Bad and hostile input on every page: malformed URL parameters, and files that are not what they claim.

Part of the catalogue in docs/robustness.md (the Playground and the settings are in test_robustness.py).
Every case: no traceback, a message that names the problem (and the file), the previous data still shown.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlencode

import pytest
from streamlit import config
from streamlit.runtime.state.query_params import CLIENT_STATE_QUERY_STRING_MAX_LENGTH

import ndcg_core
from tests.conftest import app_link_params, app_page_paths, run_page
from tests.test_conventions_page import libraries_table
from ui import state, url_rules, url_state

DATA = Path(__file__).resolve().parents[1] / "data"
QRELS = (DATA / "sample.qrels").read_bytes()
BM25 = (DATA / "run_bm25.txt").read_bytes()
SAMPLE_LABEL = "Bundled sample"

PAGES = app_page_paths()
PARAMS = app_link_params()  # every query parameter any page reads
HOSTILE_VALUES = {
    "empty": "",
    "negative": "-1",
    "overflow": "1e999",
    "script": "\x00<script>alert(1)</script>",
    "markdown": "**b** [l](javascript:alert(1))",
    "unicode": "🙂\u202e:1,\ufeff:2",
}
_ESCAPE = re.compile(r"\\(.)")


def unescaped(markdown: str) -> str:
    """What the reader sees of an escaped markdown message."""
    return _ESCAPE.sub(r"\1", markdown)


def errors(at) -> str:
    return unescaped(" ".join(element.value for element in at.error))


def assert_clean(at) -> None:
    assert not at.exception, [exception.value for exception in at.exception]


# --- every URL parameter, malformed, on every page ---------------------------------------------------------------

def link_warnings(at) -> str:
    return unescaped(" ".join(element.value for element in at.warning))


def assert_drew_something(at) -> None:
    # (a projector link of the Live class leaves the title out, and says why the link shows nothing)
    assert at.title or at.header or at.subheader or at.error or at.warning, "the page drew nothing"


def assert_no_rendered_markup(at) -> None:
    # Hostile text from the URL is never shown as rendered markdown or HTML.
    for element in at.markdown:
        assert "<script>" not in element.value
        assert "[l](javascript" not in element.value


def test_the_page_and_parameter_lists_come_from_the_app():
    assert {"why_differ", "for_teachers", "live_class", "playground", "dataset", "step_by_step"} <= set(PAGES)
    assert {"tg", "sc", "tie", "unlinked", "compare", "present", "g", "cut", "rb", "join", "screen", "teacher"} <= set(
        PARAMS)


@pytest.mark.parametrize("value_name", list(HOSTILE_VALUES))
@pytest.mark.parametrize("page", PAGES)
def test_every_page_survives_malformed_url_parameters(page, value_name, live_db):
    value = HOSTILE_VALUES[value_name]
    at = run_page(page, query_params=dict.fromkeys(PARAMS, value))
    assert_clean(at)
    assert_drew_something(at)
    assert_no_rendered_markup(at)


# Longer than every per-parameter limit (ui/url_rules.MAX_PARAM_CHARS, url_state.MAX_TEXT_CHARS, ...), but sent a few
# parameters at a time: Streamlit drops a whole query string over its cap, and the page would run as a plain visit.
OVERSIZED = "9" * (max(url_rules.MAX_PARAM_CHARS, url_state.MAX_TEXT_CHARS) + 1_000)
_PER_LINK = CLIENT_STATE_QUERY_STRING_MAX_LENGTH // (len(OVERSIZED) + 16)
OVERSIZED_LINKS = [PARAMS[i:i + _PER_LINK] for i in range(0, len(PARAMS), _PER_LINK)]


@pytest.mark.parametrize("page", PAGES)
def test_every_page_warns_about_oversized_url_parameters(page, live_db):
    shown = []
    for names in OVERSIZED_LINKS:
        params = dict.fromkeys(names, OVERSIZED)
        assert len(urlencode(params)) < CLIENT_STATE_QUERY_STRING_MAX_LENGTH  # the page really gets the link
        at = run_page(page, query_params=params)
        assert_clean(at)
        assert_drew_something(at)
        shown.append(link_warnings(at))
        if "present" in names:  # the app's switches are read on every page
            assert "The link's Present mode could not be read" in shown[-1], shown[-1]


@pytest.mark.parametrize("value_name", list(HOSTILE_VALUES) + ["oversized"])
def test_live_class_refuses_malformed_links(value_name, live_db):
    """One Live class parameter at a time (together, the first one read decides what the page shows)."""
    value = HOSTILE_VALUES.get(value_name, OVERSIZED)
    for name in url_state.LIVE_PARAMS:
        at = run_page("live_class", query_params={name: value})
        assert_clean(at)
        assert_no_rendered_markup(at)
        messages = " ".join(element.value for kind in ("warning", "error", "info") for element in getattr(at, kind))
        if name in ("student", "teacher", "screen") and value.strip():
            assert "link" in messages and ("not valid" in messages or "does not show any session" in messages), (
                name, messages)


# The link warnings each page shows for the truncated link below (gain, docs, seed and pos are cut off; an empty k is
# no cutoff). Every page that draws the settings sidebar says that the link's gain was not used; the Live class,
# the Quiz, "Why do my numbers differ?" and For teachers draw no settings (a gain in their link changes nothing there).
TRUNCATED = {"gain": "expon", "k": "", "docs": "D1:3,D2:", "seed": "12ab", "pos": "3x"}
GAIN_WARNING = "The link's gain could not be read"
TRUNCATED_WARNINGS = {
    "playground": (GAIN_WARNING, "The link's document list could not be used"),
    "step_by_step": (GAIN_WARNING, "The link's position could not be read"),
    "quiz": ("The link's seed could not be read",),  # the quiz has no settings sidebar: its questions set theirs
    "dataset": (GAIN_WARNING,), "compare": (GAIN_WARNING,), "conventions": (GAIN_WARNING,),
    "worked_examples": (GAIN_WARNING,), "for_teachers": (), "why_differ": (),
    "live_class": (),
}


@pytest.mark.parametrize("page", PAGES)
def test_truncated_links_fall_back(page, live_db):
    """A link cut off in the middle of a parameter (as chat apps sometimes do)."""
    assert page in TRUNCATED_WARNINGS, "a new page: say which link warnings it shows"
    at = run_page(page, query_params=TRUNCATED)
    assert_clean(at)
    warnings = link_warnings(at)
    for expected in TRUNCATED_WARNINGS[page]:
        assert expected in warnings, warnings
    # What the page shows is the default state: the same as a visit without the link.
    plain = run_page(page)
    assert_clean(plain)
    if "settings" in plain.session_state:
        assert at.session_state["settings"] == plain.session_state["settings"]
    if state.RANKING_KEY in plain.session_state:
        assert at.session_state[state.RANKING_KEY].ranking == plain.session_state[state.RANKING_KEY].ranking
    # Every figure shown (cards and formulas) is the plain visit's: e.g. "D2:" is not read as grade 0.
    assert [(m.label, m.value) for m in at.metric] == [(m.label, m.value) for m in plain.metric]
    assert [element.value for element in at.latex] == [element.value for element in plain.latex]


# --- files on the Dataset page -----------------------------------------------------------------------------------

@pytest.fixture
def dataset_page():
    at = run_page("dataset")
    assert_clean(at)
    return at


def upload_trec(at, qrels: bytes, run: bytes, *, qrels_name: str = "judgments.qrels", run_name: str = "myrun.txt"):
    at.radio(key="dataset_source").set_value("trec").run()
    at.file_uploader(key="dataset_qrels_file").set_value((qrels_name, qrels, "text/plain"))
    at.file_uploader(key="dataset_run_files").set_value([(run_name, run, "text/plain")])
    return at.run()


def upload_csv(at, content: bytes, *, name: str = "table.csv"):
    at.radio(key="dataset_source").set_value("csv").run()
    at.file_uploader(key="dataset_csv_files").set_value((name, content, "text/csv"))
    return at.run()


def shown_data(at) -> str:
    return at.text[0].value  # "Data: <label> · run: <run>"


def assert_refused(at, *needles: str) -> None:
    assert_clean(at)
    message = errors(at)
    for needle in needles:
        assert needle in message, message
    assert "Nothing was replaced" in message
    assert SAMPLE_LABEL in shown_data(at)


@pytest.mark.parametrize(
    ("qrels", "needles"),
    [
        (b"401 DOC1 1\n", ("judgments.qrels", "line 1", "expected 4")),
        (b"401 0 DOC1 high\n", ("line 1", "'high' is not a number")),
        (b"401 0 DOC1 inf\n", ("line 1", "infinite")),
        (b"401 0 DOC1 nan\n", ("line 1", "not a number")),
        (QRELS + b"402 0\n", ("line", "expected 4")),  # malformed last line
        (b"\x00\x01\x02\xff\xfe" * 100, ("binary",)),
        (b"", ("empty",)),
        (b"  \n\n", ("empty",)),
        (QRELS.decode().encode("utf-16-le"), ("binary", "UTF-8")),  # UTF-16 without a BOM: NUL bytes (with one: read)
    ],
    ids=["wrong-columns", "grade-word", "infinite", "nan", "malformed-line", "binary", "empty", "blank", "utf16"],
)
def test_bad_qrels_file_is_refused_and_the_data_kept(dataset_page, qrels, needles):
    at = upload_trec(dataset_page, qrels, BM25)
    assert_refused(at, *needles)


@pytest.mark.parametrize(
    ("run", "needles"),
    [
        (b"401 Q0 DOC1 1\n", ("myrun.txt", "line 1", "expected 6")),
        (b"401 Q0 DOC1 1 abc tag\n", ("line 1", "'abc' is not a number")),
        (b"401 Q0 DOC1 1 inf tag\n", ("line 1", "infinite")),
        (BM25 + b"401 Q0 DOC1 1 3.0\n", ("line 3001", "expected 6")),
        (BM25[: len(BM25) // 2], ("expected 6",)),  # cut in the middle of a line
        (bytes(range(256)) * 4, ("binary",)),
        (b"", ("empty",)),
    ],
    ids=["wrong-columns", "score-word", "infinite", "short-last-line", "truncated", "binary", "empty"],
)
def test_bad_run_file_is_refused_and_the_data_kept(dataset_page, run, needles):
    at = upload_trec(dataset_page, QRELS, run)
    assert_refused(at, *needles)


@pytest.mark.parametrize(
    ("content", "needles"),
    [
        (b"query,doc\n1,a\n", ("table.csv", "no relevance column")),
        (b"a,b,c,d\n1,2,3,4\n", ("table.csv", "relevance")),
        (b"query,doc,relevance,score\n401,a,1,0.5\n401,b,2,0.4,extra\n", ("line 3", "more cells")),
        (b"query,doc,relevance,score\n401,a,x,0.5\n", ("line 2", "'x' is not a number")),
        (b"query,doc,relevance,score\n", ("no data rows",)),
        (b"", ("empty",)),
        (b"\x89PNG\r\n\x1a\n" + bytes(range(256)), ("binary",)),
        # Every relevance cell empty: it once replaced the data set and then failed as if the qrels were wrong.
        (b"query,doc,relevance,score\nq1,d1,,3\nq1,d2,,2\n", ("table.csv has no judgment", "relevance cell")),
    ],
    ids=["missing-columns", "wrong-names", "extra-cell", "relevance-word", "header-only", "empty", "binary",
         "no-judgment"],
)
def test_bad_csv_is_refused_and_the_data_kept(dataset_page, content, needles):
    at = upload_csv(dataset_page, content)
    assert_refused(at, *needles)


def test_crlf_and_byte_order_mark_are_accepted(dataset_page):
    """Windows line ends and a UTF-8 BOM are ordinary text: the files load and give ndcg_core's figures."""
    at = upload_trec(dataset_page, b"\xef\xbb\xbf" + QRELS.replace(b"\n", b"\r\n"), BM25.replace(b"\n", b"\r\n"))
    assert_clean(at)
    assert not at.error
    assert "judgments.qrels" in shown_data(at)
    expected = ndcg_core.evaluate_run(ndcg_core.read_run(BM25), ndcg_core.read_qrels(QRELS))
    shown = {metric.label: metric.value for metric in at.metric}
    assert shown["Mean of per-query NDCG"] == f"{expected.mean_ndcg:.4f}"


@pytest.mark.parametrize(
    "content",
    [
        "query,doc,relevance,score\n401,caf\u00e9,1,0.5\n402,b,0,0.1\n".encode("latin-1"),
        "query,doc,relevance,score\n401,caf\u00e9,1,0.5\n".encode() + "402,d\u00e8s,0,0.1\n".encode("latin-1"),
    ],
    ids=["latin-1", "mixed-utf8-latin-1"],
)
def test_legacy_and_mixed_encodings_load_without_a_traceback(dataset_page, content):
    """Not UTF-8: the reader falls back to Latin-1 for the whole file (a mixed file shows some mojibake)."""
    at = upload_csv(dataset_page, content)
    assert_clean(at)
    assert not at.error
    assert "table.csv" in shown_data(at)


def test_file_over_the_upload_cap_is_refused(dataset_page):
    """Streamlit's server.maxUploadSize stops a big file in the browser; the page re-checks it (1 MB here)."""
    usual = config.get_option("server.maxUploadSize")
    config.set_option("server.maxUploadSize", 1)
    try:
        at = upload_trec(dataset_page, QRELS, BM25 * 12)  # ~1.3 MB
        assert_refused(at, "upload limit")
    finally:
        config.set_option("server.maxUploadSize", usual)


def test_a_good_upload_after_a_refused_one_is_applied(dataset_page):
    at = upload_trec(dataset_page, b"nonsense\n", BM25)
    assert errors(at)
    at = upload_trec(at, QRELS, BM25, qrels_name="fixed.qrels")
    assert_clean(at)
    assert not at.error
    assert "fixed.qrels" in shown_data(at)


def test_hostile_names_in_files_are_shown_as_text(dataset_page):
    qrels = b"**q1** 0 <img_src=x_onerror=alert(1)> 2\n**q1** 0 [l](javascript:alert(1)) 1\n"
    run = b"**q1** Q0 <img_src=x_onerror=alert(1)> 1 2.0 t\n**q1** Q0 [l](javascript:alert(1)) 2 1.0 t\n"
    at = upload_trec(dataset_page, qrels, run, run_name="<b>run</b>.txt")
    assert_clean(at)
    assert not at.error
    for element in at.markdown:
        assert "[l](javascript" not in element.value and "<img" not in element.value
    assert "**q1**" in at.selectbox(key="dataset_query").options


# --- the Compare page's shared document table ------------------------------------------------------------------

@pytest.mark.parametrize(
    ("delta", "needle"),
    [
        ({"edited_rows": {"1": {"grade": "abc"}}}, "row 2: “abc” is not a number"),
        ({"edited_rows": {"1": {"grade": "1,5"}}}, "row 2: “1,5” has a decimal comma"),
        ({"edited_rows": {"1": {"grade": None}}}, "needs a grade"),
        ({"edited_rows": {"1": {"grade": float("nan")}}}, "nan"),
        ({"edited_rows": {"1": {"grade": -1}}}, "negative"),
        ({"edited_rows": {"1": {"grade": 1e6}}}, "too large"),
        ({"edited_rows": {"1": {"document": "D1"}}}, "unique"),
        ({"edited_rows": {"1": {"document": ""}}}, "document name"),
        ({"deleted_rows": list(range(8))}, "at least one document"),
    ],
    ids=["non-numeric", "decimal-comma", "blank", "nan", "negative", "huge", "duplicate-name", "empty-name", "empty-list"],
)
def test_compare_documents_editor_refuses_bad_rows_and_keeps_the_rankings(delta, needle):
    at = run_page("compare")
    assert_clean(at)
    before = [metric.value for metric in at.metric]
    at.session_state["compare_docs_editor"] = {"edited_rows": {}, "added_rows": [], "deleted_rows": [], **delta}
    at.run()
    assert_clean(at)
    assert needle.lower() in errors(at).lower()
    assert "edit not applied" in errors(at).lower()
    assert [metric.value for metric in at.metric] == before


def test_compare_hostile_document_name_is_text():
    at = run_page("compare")
    name = "**bold** [l](javascript:alert(1)) <img src=x onerror=alert(1)>"
    at.session_state["compare_docs_editor"] = {"edited_rows": {"1": {"document": name}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert_clean(at)
    for element in [*at.markdown, *at.caption, *at.error, *at.warning, *at.info]:
        assert name not in element.value


def test_a_direction_override_in_a_name_does_not_reverse_the_sentence_that_names_it():
    """A document named "D\u202e2" (a right-to-left override, invisible) reversed the rest of every sentence that
    named it ("rank 2: A has D2 (grade 2), …" read backwards). Shown text leaves direction controls out; the name
    itself, in the state, keeps them."""
    at = run_page("compare")
    at.session_state["compare_docs_editor"] = {"edited_rows": {"1": {"document": "D\u202e2"}}, "added_rows": [],
                                               "deleted_rows": []}
    at.run()
    assert_clean(at)
    shown = [element.value for element in [*at.markdown, *at.caption, *at.error, *at.warning, *at.info, *at.text]]
    # "Ranking A has the higher DCG … rank 2: A has D2 (grade 2), B has D4 (grade 0), …" (the difference sentence)
    assert any("rank 2: A has D2 (grade 2)" in text for text in shown), shown
    assert not [text for text in shown if "\u202e" in text]


# --- grades typed into the lessons (Step by step page) -----------------------------------------------------------

LESSON_FIELD = "lesson_cutoff_grades"


@pytest.mark.parametrize(
    ("typed", "needle"),
    [
        ("abc", "not a number"),
        ("", "at least one grade"),
        ("-1", "negative"),
        ("nan", "nan"),
        ("inf", "not a number"),  # the Playground's rule for a typed grade (ui/cells.py)
        ("1e6", "too large"),
        ("1," * 200, "at most"),
    ],
    ids=["non-numeric", "blank", "negative", "nan", "infinite", "huge", "too-long"],
)
def test_lesson_grades_field_refuses_bad_input(typed, needle):
    at = run_page("step_by_step")
    at.text_input(key=LESSON_FIELD).set_value(typed).run()
    assert_clean(at)
    assert needle in errors(at).lower()


@pytest.mark.parametrize("typed", ["**x**", "[x](//evil.example/a)"])
def test_lesson_grades_field_quotes_text_literally(typed):
    at = run_page("step_by_step")
    at.text_input(key=LESSON_FIELD).set_value(typed).run()
    assert_clean(at)
    raw = " ".join(element.value for element in at.error)
    assert "not a number" in raw
    assert typed not in raw, "the typed text reached st.error unescaped (rendered as markdown)"


# --- the Conventions page's input table ------------------------------------------------------------------------

CONVENTIONS_CASE = "equal"  # the page's first case: d1, d2, d3 with grade 2 and scores 0.9, 0.7, 0.4


@pytest.mark.parametrize(
    ("delta", "needle"),
    [
        ({"edited_rows": {"0": {"grade": "abc"}}}, "row 1: “abc” is not a number"),
        ({"edited_rows": {"0": {"grade": "2,5"}}}, "decimal comma. type a decimal point: 2.5"),
        ({"edited_rows": {"2": {"score": "0,4"}}}, "row 3: “0,4” has a decimal comma"),
        ({"edited_rows": {"0": {"grade": ""}}}, "every row needs a grade"),
        ({"edited_rows": {"0": {"grade": -1}}}, "negative"),
        ({"edited_rows": {"0": {"grade": 1e6}}}, "too large"),
        ({"edited_rows": {"0": {"score": float("nan")}}}, "score"),
        ({"deleted_rows": "all"}, "at least one document"),
    ],
    ids=["non-numeric-grade", "decimal-comma-grade", "decimal-comma-score", "blank-grade", "negative-grade", "huge-grade", "missing-score", "empty"],
)
def test_conventions_input_refuses_bad_rows(delta, needle):
    at = run_page("conventions")
    assert at.selectbox(key="conventions_case").value == CONVENTIONS_CASE
    key = f"conventions_editor_{CONVENTIONS_CASE}"
    valid_edit = {"1": {"grade": 0}}  # d2 (scored second) judged 0: every library's NDCG drops below 1
    at.session_state[key] = {"edited_rows": valid_edit, "added_rows": [], "deleted_rows": []}
    at.run()
    last_valid = libraries_table(at).value.copy()  # the libraries' figures
    assert (last_valid["NDCG"] < 1).all(), last_valid
    if delta.get("deleted_rows") == "all":
        delta = {"deleted_rows": list(range(len(at.session_state[f"conventions_base_{CONVENTIONS_CASE}"])))}
    # The browser sends the editor's whole edit state: the valid edit and then the bad one.
    edit = {"edited_rows": {**valid_edit, **delta.get("edited_rows", {})}, "added_rows": [],
            "deleted_rows": delta.get("deleted_rows", [])}
    at.session_state[key] = edit
    at.run()
    assert_clean(at)
    assert needle in errors(at).lower()
    assert libraries_table(at).value.equals(last_valid)  # the figures of the last valid input stay, not the case's


@pytest.mark.parametrize("score", [float("inf"), float("-inf")])
def test_conventions_infinite_score_is_explained(score):
    at = run_page("conventions")
    at.session_state[f"conventions_editor_{CONVENTIONS_CASE}"] = {
        "edited_rows": {"0": {"score": score}}, "added_rows": [], "deleted_rows": [],
    }
    at.run()
    assert_clean(at)
    assert "score" in errors(at).lower()


def test_a_name_set_apart_keeps_its_isolate_and_loses_its_own_controls():
    """The app's isolates around a name (ui.widgets.isolated) survive visible(); a name's own controls, a lone
    isolate or one holding a control do not (an override typed in a name reversed the rest of the sentence)."""
    from ui.widgets import isolated, plain, visible

    assert isolated("D\u202e2") == "\u2068D2\u2069"
    assert visible(f"a {isolated('سؤال-1')}, {isolated('x')} b") == "a \u2068سؤال-1\u2069, \u2068x\u2069 b"
    assert visible("a\u2068b c\u202ed\u2069 e\u2067") == "ab cd e"
    assert plain(isolated("*q*")) == "\u2068\\*q\\*\u2069"
