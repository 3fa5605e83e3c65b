"""Property tests of the URL layer (ui.url_state): exact round trips, and no traceback for any parameter value.

The codec properties run on the pure functions (many examples, fast); the page properties open the real app
under AppTest with a modest number of examples (each run costs ~0.3-1 s).
"""

from __future__ import annotations

import contextlib
import math
from urllib.parse import parse_qsl, urlsplit

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ndcg_core
from tests.conftest import app_link_params, app_page_paths, run_page
from ui import conventions_view, url_state
from ui import quiz_model as quiz
from ui.formatting import fixed
from ui.ranking import Ranking
from ui.settings_model import GAIN_LABELS, LOG_BASES, ZERO_IDCG_LABELS, MetricSettings

NAMES = st.text(min_size=1, max_size=30).filter(lambda name: name.strip() != "")
GRADES = st.floats(min_value=0, max_value=1e300, allow_nan=False, allow_infinity=False)
SCORES = st.floats(allow_nan=False, allow_infinity=False)
HOSTILE = st.one_of(
    st.text(max_size=60),
    st.sampled_from(["²", "٣", "１", "1e400", "-0", "nan", "inf", "%00", "\u202e", "\x00", "", " 3", "3 "]),
    st.integers(min_value=0, max_value=10).map(lambda n: "9" * (10 ** n if n < 6 else 100_000)),
    st.lists(st.sampled_from(["D1", ":", ",", "3", "²", "%", "x", "-1", "1e9"]), max_size=40).map("".join),
)
APP = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def metric_settings(draw) -> MetricSettings:
    grades = sorted(draw(st.sets(GRADES, min_size=1, max_size=5)))
    gains = sorted(draw(st.lists(GRADES, min_size=len(grades), max_size=len(grades))))
    return MetricSettings(
        gain=draw(st.sampled_from(list(GAIN_LABELS))), gain_table=tuple(zip(grades, gains, strict=True)),
        log_base=draw(st.sampled_from(list(LOG_BASES))), k=draw(st.none() | st.integers(1, 100_000)),
        zero_idcg=draw(st.sampled_from(list(ZERO_IDCG_LABELS))),
    )


# --- the codec: exact round trips ----------------------------------------------------------------------------

@given(st.lists(st.tuples(NAMES, GRADES), min_size=1, max_size=20))
def test_documents_round_trip_exactly(documents):
    names, grades = (tuple(column) for column in zip(*documents, strict=True))
    assert url_state.decode_documents(url_state.encode_documents(names, grades)) == (names, grades)


@given(metric_settings())
def test_settings_round_trip_exactly(metric):
    parsed, problem = url_state.settings_from_link(url_state.settings_params(metric))
    assert problem is None
    expected = metric if metric.gain == "custom" else MetricSettings(
        gain=metric.gain, log_base=metric.log_base, k=metric.k, zero_idcg=metric.zero_idcg)
    assert parsed == expected


@given(st.lists(st.tuples(st.none() | NAMES, st.none() | GRADES, st.none() | SCORES, st.none() | SCORES, st.booleans()),
                min_size=1, max_size=15))
def test_conventions_rows_round_trip_exactly(rows):
    text = url_state.encode_rows(rows)
    decoded = url_state.decode_rows(text)
    for row, record in zip(rows, decoded, strict=True):
        for value, column in zip(row, url_state.CONVENTIONS_COLUMNS, strict=True):
            got = record[column]
            if column == "document":
                assert got == value
            elif column == "ranked":
                assert got is value
            else:
                assert (math.isnan(got) if value is None else got == value)


@given(st.dictionaries(st.sampled_from(url_state.SETTINGS_PARAMS + url_state.PAGE_PARAMS), HOSTILE, max_size=6))
def test_parsers_never_raise_anything_but_their_own_refusal(params):
    url_state.settings_from_link(params)
    url_state.ranking_from_params(params)
    for name, value in params.items():
        assert url_state.parse_int(value, low=0, high=10**6) is None or value.isascii()
        with contextlib.suppress(url_state.LinkError):
            assert url_state.decode_rows(value), name
        assert quiz.parse_seed(value) is None or 0 <= quiz.parse_seed(value) <= quiz.MAX_SEED


# --- the pages: share links reopen to the same numbers -------------------------------------------------------

@APP
@given(st.lists(st.tuples(NAMES.filter(lambda n: len(n) <= 12), st.integers(0, 4).map(float) | GRADES.map(lambda g: g % 50)),
                min_size=1, max_size=8),
       st.lists(st.tuples(NAMES.filter(lambda n: len(n) <= 12), st.integers(0, 4).map(float)), max_size=3),
       metric_settings())
def test_every_playground_share_link_reopens_to_the_same_numbers(documents, extra, metric):
    names, grades = (tuple(column) for column in zip(*documents, strict=True))
    extra_names, extra_grades = (tuple(column) for column in zip(*extra, strict=True)) if extra else ((), ())
    ranking = Ranking(names, grades, extra_names, extra_grades)
    # A non-custom link carries no gain table (the default one stays); a custom table must hold every grade.
    gain = "linear" if metric.gain == "custom" else metric.gain
    metric = MetricSettings(gain=gain, log_base=metric.log_base, k=metric.k, zero_idcg=metric.zero_idcg)
    link = url_state.playground_link(ranking, metric)
    at = run_page(None, query_params=dict(parse_qsl(urlsplit(link).query, keep_blank_values=True)))
    assert not at.exception
    assert at.session_state["playground"].ranking == ranking
    assert at.session_state["settings"] == metric
    try:
        result = ndcg_core.evaluate(list(grades), ideal_relevances=list(grades + extra_grades), **metric.kwargs())
    except ndcg_core.InvalidInput:
        assert at.error  # refused with a message, on the reopened page as on the shared one
        return
    shown = {m.label.split("@")[0]: m.value for m in at.metric}
    assert shown["NDCG"] == ("n/a" if math.isnan(result.ndcg) else f"{result.ndcg:.4f}")
    assert shown["DCG"] == fixed(result.dcg)  # 4 decimals; from 1e15 on (grade 48, 2^48 - 1) scientific notation
    assert at.query_params.get("docs") == url_state.encode_documents(names, grades)  # the URL is the shared link


@APP
@given(st.lists(st.tuples(st.integers(0, 3).map(float), SCORES.map(lambda s: s % 1e6)), min_size=2, max_size=6))
def test_every_conventions_link_reopens_to_the_same_numbers(rows):
    frame = pd.DataFrame({"document": [f"d{i}" for i in range(len(rows))], "grade": [g for g, _ in rows],
                          "score": [s for _, s in rows], "score_2": [None] * len(rows), "ranked": [True] * len(rows)})
    text = conventions_view.encode_input(frame)
    at = run_page("conventions", query_params={"case": "custom", "rows": text})
    assert not at.exception and not at.warning
    expected = conventions_view.conventions_table(conventions_view.checked_input(frame, gain="exponential"), k=None)["ndcg"].tolist()
    editor = at.dataframe(key=f"conventions_editor_{conventions_view.CUSTOM}").value  # text cells, read back exactly
    assert [float(text) for text in editor["score"]] == frame["score"].tolist()
    shown = next(table.value for table in at.table if "Library" in table.value.columns)
    # Exact: the link's scores are not rounded, so no new ties appear (NDCG 1.0 stayed 0.93 before).
    np.testing.assert_array_equal(shown["NDCG"].to_numpy(dtype=float), np.asarray(expected, dtype=float))  # nan == nan


@APP
@given(st.integers(0, quiz.MAX_SEED))
def test_every_quiz_link_reopens_to_the_same_questions(seed):
    at = run_page("quiz", query_params={"seed": str(seed)})
    assert not at.exception and at.session_state["quiz"].seed == seed
    assert at.query_params["seed"] == str(seed)
    # The questions drawn are the seed's: each question shown as a table lists its documents in its order (a
    # reorder question is the drag list instead).
    shown = [df.value["Document"].tolist() for df in at.dataframe if "Document" in df.value.columns]
    tabled = [question for question in quiz.generate_quiz(seed) if question.kind != "reorder"]
    assert tabled
    for question in tabled:
        assert question.ranked_names() in shown, (question.number, shown)


# --- the pages: no traceback for any parameter value ------------------------------------------------------------

PAGES = app_page_paths()
LINK_PARAMS = app_link_params()  # every parameter the app reads: a page ignores the ones it does not read


@pytest.mark.parametrize("page", PAGES)
@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(params=st.dictionaries(st.sampled_from(LINK_PARAMS), HOSTILE, min_size=1, max_size=4))
def test_hostile_parameters_never_raise(page, params, live_db):
    at = run_page(page, query_params=params)
    assert not at.exception, (params, at.exception)


def test_names_in_links_keep_their_letters_and_escape_what_the_format_or_the_eye_needs():
    """A name such as "Zoë" was written "Zo%C3%AB" inside the link's list, which the address encoded again
    ("Zo%25C3%25AB"): letters of every script now stay letters; the list's delimiters, "%", ASCII punctuation,
    spaces and invisible characters (a right-to-left override, a zero width space) are still escaped, and each
    decodes back to the name."""
    from ui.url_codecs import decode_documents, encode_documents, encode_name

    assert encode_name("Zoë") == "Zoë" and encode_name("東京") == "東京" and encode_name("Ωμέγα-2") == "Ωμέγα-2"
    assert encode_name("a,b:c%d e") == "a%2Cb%3Ac%25d%20e"
    assert encode_name("D\u202e2") == "D%E2%80%AE2" and encode_name("a\u200bb") == "a%E2%80%8Bb"
    assert encode_name("a\u00a0b") == "a%C2%A0b"  # a no-break space: a space to the eye, escaped like one
    names = ("Zoë", "a,b:c%d e", "D\u202e2", "東京", "x\u00a0y")
    assert decode_documents(encode_documents(names, (3, 2, 1, 0, 4)))[0] == names
