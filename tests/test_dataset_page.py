"""Dataset page (AppTest): the bundled sample, real uploads through st.file_uploader, refusals, the Playground hand-off.

AppTest (streamlit >= 1.5x) drives ``st.file_uploader`` directly: ``at.file_uploader(key=...).set_value((name,
bytes, mime))`` registers the file with the test's upload manager, so these tests go through the page's real
upload handling (UploadedFile, file_id, getvalue), not through session state.
"""

from __future__ import annotations

import inspect
import io
import json
import re
from pathlib import Path

import numpy as np
import pytest
from streamlit import config

import ndcg_core
from tests.conftest import chart_specs, chart_values, run_page
from ui import dataset_state, dataset_view
from ui.widgets import isolated

DATA = Path(__file__).resolve().parents[1] / "data"
QRELS, BM25, NEURAL = (DATA / name for name in ("sample.qrels", "run_bm25.txt", "run_neural.txt"))


def reference(run_path: Path, **options) -> ndcg_core.RunResult:
    return ndcg_core.evaluate_run(ndcg_core.read_run(run_path), ndcg_core.read_qrels(QRELS), **options)


def unescaped(markdown: str) -> str:
    """The text a reader sees: messages quoting files are markdown-escaped (backslash before punctuation)."""
    return re.sub(r"\\(.)", r"\1", markdown)


def headline(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def assert_headline(at, expected: ndcg_core.RunResult, label: str = "NDCG") -> None:
    shown = headline(at)
    assert shown[f"Mean of per-query {label}"] == f"{expected.mean_ndcg:.4f}"
    assert shown["Ratio of sums ΣDCG / ΣIDCG"] == f"{expected.ratio_of_sums:.4f}"
    assert shown["Queries in the mean"] == str(int(expected.per_query["ndcg"].notna().sum()))
    assert shown["Unjudged retrieved"] == f"{expected.unjudged_share:.1%}"


def per_query_table(at):
    return next(frame.value for frame in at.dataframe if "ndcg" in frame.value.columns)


def upload_trec(at, qrels: bytes, *runs: tuple[str, bytes], qrels_name: str = "my.qrels"):
    at.radio(key="dataset_source").set_value("trec").run()
    at.file_uploader(key="dataset_qrels_file").set_value((qrels_name, qrels, "text/plain"))
    at.file_uploader(key="dataset_run_files").set_value([(name, content, "text/plain") for name, content in runs])
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.fixture
def page():
    at = run_page("dataset")
    assert not at.exception, at.exception
    return at


def test_sample_is_shown_with_both_aggregates(page):
    expected = reference(BM25)
    assert_headline(page, expected)
    # the hand-computable relation: ratio of sums = sum DCG / sum IDCG of the per-query table
    table = per_query_table(page)
    assert np.isclose(table["dcg"].sum() / table["idcg"].sum(), expected.ratio_of_sums)
    assert np.isclose(table["ndcg"].mean(), expected.mean_ndcg)
    notes = "\n".join(t.value for t in page.text)
    assert f"2 queries have no relevant judged document ({isolated(417)}, {isolated(452)})" in notes
    assert f"1 judged query is absent from the run ({isolated(433)})" in notes
    assert "1 run query has no judgments at all" in notes and "461" in notes
    why = next(m.value for m in page.markdown if "Why the two figures differ" in m.value)
    gap = ndcg_core.aggregate_gap(expected.per_query)
    assert f"{abs(expected.ratio_of_sums - expected.mean_ndcg):.3f} higher" in why
    assert f"lowers the mean by {gap.zero_idcg_effect:.3f}" in why


def test_per_query_table_histogram_and_curve_match_ndcg_core():
    at = run_page("dataset", query_params={"k": "10"})
    expected = reference(BM25, k=10)
    assert_headline(at, expected, "NDCG@10")
    table = per_query_table(at).set_index("query")
    np.testing.assert_allclose(table.loc[expected.per_query.index, "ndcg"], expected.per_query["ndcg"])
    charts = chart_specs(at)
    histogram = next(c for c in charts if "Per-query" in c["layout"]["title"]["text"])
    assert chart_values(histogram["data"][0]["y"]).astype(float).sum() == len(expected.per_query)
    curve = next(c for c in charts if "k = 1..20" in c["layout"]["title"]["text"])
    reference_curve = ndcg_core.ndcg_curve(ndcg_core.read_run(BM25), ndcg_core.read_qrels(QRELS))
    shown = chart_values(curve["data"][0]["y"]).astype(float)
    np.testing.assert_allclose(shown, reference_curve["mean_ndcg"])
    np.testing.assert_allclose(shown[9], expected.mean_ndcg)  # the curve at k = 10 is the headline figure
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Download per-query CSV" in labels
    # The query id stays in view while the counts scroll sideways (the table is 30 px wider than 1280 px with the
    # sidebar: scrolled to "Unjudged in cutoff", no column named the query).
    grid = next(frame.proto for frame in at.dataframe if "ndcg" in frame.value.columns)
    assert json.loads(grid.columns)["query"]["pinned"] is True


def test_switching_run_and_rules(page):
    page.selectbox(key="dataset_run").set_value("Neural").run()
    assert_headline(page, reference(NEURAL))
    page.selectbox(key="dataset_run").set_value("BM25")
    page.selectbox(key="dataset_missing").set_value("zero").run()
    expected = reference(BM25, missing="zero")
    assert_headline(page, expected)
    assert headline(page)["Queries in the mean"] == "60"


def test_zero_idcg_rule_from_the_sidebar_settings():
    at = run_page("dataset", query_params={"z": "one"})
    assert_headline(at, reference(BM25, zero_idcg="one"))
    why = next(m.value for m in at.markdown if "Why the two figures differ" in m.value)
    assert "count as 1" in why and "raises the mean" in why
    at = run_page("dataset", query_params={"z": "skip"})
    expected = reference(BM25, zero_idcg="skip")
    assert_headline(at, expected)
    assert np.isclose(expected.mean_ndcg, expected.per_query["ndcg"].dropna().mean())


def test_upload_trec_files_through_the_file_uploader(page):
    at = upload_trec(page, QRELS.read_bytes(), ("neural.txt", NEURAL.read_bytes()), ("bm25.txt", BM25.read_bytes()))
    assert not at.error
    assert "my.qrels, neural.txt, bm25.txt" in at.text[0].value
    assert_headline(at, reference(NEURAL))
    at.selectbox(key="dataset_run").set_value("bm25.txt").run()
    assert_headline(at, reference(BM25))


def test_upload_csv_through_the_file_uploader(page):
    csv = DATA / "sample_bm25.csv"
    page.radio(key="dataset_source").set_value("csv").run()
    page.file_uploader(key="dataset_csv_files").set_value(("sample_bm25.csv", csv.read_bytes(), "text/csv"))
    page.run()
    assert not page.exception and not page.error, [e.value for e in page.error]
    # The CSV holds the BM25 run and every judgment (unretrieved ones with empty score and rank): same figures
    assert_headline(page, reference(BM25))
    assert_headline(page, ndcg_core.evaluate_run(ndcg_core.read_table(csv), None))
    assert f"1 judged query is absent from the run ({isolated(433)})" in "\n".join(t.value for t in page.text)


def test_csv_with_a_judged_unretrieved_row_by_hand(page):
    table = b"query,doc,relevance,score\nq1,a,1,0.9\nq1,b,,0.5\nq1,c,3,0.1\nq1,d,2,\n"
    page.radio(key="dataset_source").set_value("csv").run()
    page.file_uploader(key="dataset_csv_files").set_value(("tiny.csv", table, "text/csv"))
    page.run()
    assert not page.exception and not page.error, [e.value for e in page.error]
    # ranking a(1), b(unjudged), c(3); ideal 3, 2, 1 from every judgment; exponential gain
    by_hand = (1 + 7 / 2) / (7 + 3 / np.log2(3) + 1 / 2)
    assert headline(page)["Mean of per-query NDCG"] == f"{by_hand:.4f}"
    dataset = page.session_state[dataset_state.STATE_KEY].dataset
    listed = dataset_view.query_ranking(dataset, "tiny.csv", "q1", ties="trec_eval")
    assert (listed.docs, listed.grades.tolist(), listed.extra_docs, listed.extra_grades.tolist()) == (
        ("a", "b", "c"), [1.0, 0.0, 3.0], ("d",), [2.0])


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (b"401 Q0 DOC1 1 3.5 tag\n401 Q0 DOC2 2 3.1 tag\n401 Q0 DOC3 3 two tag\n", "line 3"),
        (b"401 Q0 DOC1 1 3.5 tag\n401 Q0 DOC2\n", "line 2"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00", "looks like a binary file"),
        (b"", "empty"),
    ],
    ids=["bad-score", "short-line", "binary", "empty"],
)
def test_bad_run_file_shows_a_message_and_keeps_the_previous_data(page, content, needle):
    before = headline(page)
    at = upload_trec(page, QRELS.read_bytes(), ("broken.txt", content))
    assert at.error, "a refused file must say why"
    message = unescaped(at.error[0].value)
    assert "broken.txt" in message and needle in message
    assert "Nothing was replaced" in message
    assert headline(at) == before  # previous data set still shown
    assert "Bundled sample" in at.text[0].value


def test_csv_with_wrong_columns_is_refused(page):
    page.radio(key="dataset_source").set_value("csv").run()
    page.file_uploader(key="dataset_csv_files").set_value(("wrong.csv", b"qid,docno,label\n1,a,2\n", "text/csv"))
    page.run()
    assert not page.exception
    assert page.error and "wrong.csv" in unescaped(page.error[0].value)
    assert headline(page)["Queries in the mean"] == "59"


def test_file_over_the_upload_cap_is_refused(page):
    usual = config.get_option("server.maxUploadSize")
    config.set_option("server.maxUploadSize", 1)  # MB
    try:
        big = BM25.read_bytes() * 12  # ~1.3 MB
        at = upload_trec(page, QRELS.read_bytes(), ("huge.txt", big))
        assert at.error and "over the 1 MB upload limit" in at.error[0].value
        assert headline(at)["Queries in the mean"] == "59"
    finally:
        config.set_option("server.maxUploadSize", usual)


def test_swapped_files_are_refused_with_a_hint(page):
    at = upload_trec(page, BM25.read_bytes(), ("qrels_by_mistake.txt", QRELS.read_bytes()), qrels_name="run.txt")
    assert at.error and "Nothing was replaced" in at.error[0].value


def test_open_query_in_playground_keeps_its_ndcg():
    at = run_page("dataset", query_params={"k": "10"})
    at.selectbox(key="dataset_query").set_value("405").run()
    expected = reference(BM25, k=10).per_query.loc["405"]
    assert f"NDCG@10 = {expected['ndcg']:.4f}" in " ".join(t.value for t in at.text)
    at.button(key="dataset_open").click().run()
    assert not at.exception, at.exception
    ranking = at.session_state["playground"].ranking
    assert len(ranking.names) == 50  # the run's 50 documents for that query
    qrels = ndcg_core.read_qrels(QRELS)
    judged = qrels[qrels["query"] == "405"]
    assert set(ranking.names) | set(ranking.extra_names) >= set(judged["doc"])
    result = ndcg_core.evaluate(list(ranking.grades), k=10, ideal_relevances=list(ranking.grades) + list(ranking.extra_grades))
    assert result.ndcg == pytest.approx(expected["ndcg"])


def test_open_query_without_cutoff_matches_the_whole_run_figure(page):
    page.selectbox(key="dataset_query").set_value("410").run()
    page.button(key="dataset_open").click().run()
    ranking = page.session_state["playground"].ranking
    settings = page.session_state["settings"]
    expected = reference(BM25).per_query.loc["410", "ndcg"]
    ideal = list(ranking.grades) + list(ranking.extra_grades)
    assert ndcg_core.evaluate(list(ranking.grades), k=settings.k, ideal_relevances=ideal).ndcg == pytest.approx(expected)


def test_query_ranking_follows_trec_eval_tie_order():
    dataset = dataset_view.sample_dataset()
    run = dataset.runs["BM25"]
    tied = run[run.duplicated(["query", "score"], keep=False)].iloc[0]
    names = list(dataset_view.query_ranking(dataset, "BM25", tied["query"], ties="trec_eval").docs)
    group = run[(run["query"] == tied["query"]) & (run["score"] == tied["score"])]["doc"].tolist()
    positions = [names.index(doc) for doc in sorted(group, reverse=True)]
    assert positions == sorted(positions)  # descending document id inside the tie, as trec_eval


def test_share_link_restores_run_rules_and_query():
    at = run_page("dataset", query_params={"run": "Neural", "ties": "pessimistic", "query": "405", "k": "10"})
    assert not at.exception, at.exception
    assert_headline(at, reference(NEURAL, k=10, ties="pessimistic"), "NDCG@10")
    assert at.selectbox(key="dataset_query").value == "405"
    at.run()  # the tab's first run leaves the address as opened; the next one writes the state
    params = {name: at.query_params[name] for name in ("run", "ties", "missing", "query")}
    flat = {name: value[0] if isinstance(value, list) else value for name, value in params.items()}
    assert flat == {"run": "Neural", "ties": "pessimistic", "missing": "ignore", "query": "405"}
    bad = run_page("dataset", query_params={"run": "nope", "query": "<b>x</b>"})
    assert not bad.exception and bad.selectbox(key="dataset_run").value == "BM25"


def test_names_from_files_are_shown_as_text_not_markdown(page):
    qrels = b"**q1** 0 <img/src=x/onerror=alert(1)> 2\n**q1** 0 [a](javascript:alert(1)) 1\n"
    run = b"**q1** Q0 [a](javascript:alert(1)) 1 2.0 t\n**q1** Q0 <img/src=x/onerror=alert(1)> 2 1.0 t\n"
    at = upload_trec(page, qrels, ("_evil_*.txt", run))
    assert not at.error, [e.value for e in at.error]
    label = at.button(key="dataset_open").label
    assert label == "Open query \\*\\*q1\\*\\* in the Playground"  # escaped: shows **q1** literally
    assert unescaped(label) == "Open query **q1** in the Playground"
    bad = upload_trec(at, qrels, ("**broken**.txt", b"**q1** Q0 [x](javascript:alert(1)) 1 two t\n"))
    message = bad.error[0].value
    assert "\\*\\*broken\\*\\*" in message and "\\_evil\\_\\*.txt" in message.replace("\\.", ".")


def test_refuse_rule_for_zero_idcg_shows_which_queries():
    at = run_page("dataset", query_params={"z": "error"})
    assert not at.exception, at.exception
    message = unescaped(at.error[0].value)
    assert "cannot be evaluated with the current settings" in message and "417" in message
    # In the sidebar's words, as on the Compare page (it said "Choose another zero_idcg rule ('zero', 'one' or 'skip')")
    assert "Choose another “NDCG when IDCG = 0” setting in the sidebar" in message and "zero_idcg" not in message
    compare = run_page("compare", query_params={"z": "error", "compare": "runs"})
    assert not compare.exception and "cannot be compared" in unescaped(compare.error[0].value)
    assert "setting in the sidebar" in unescaped(compare.error[0].value)


def test_per_query_notes_flag_zero_idcg_and_missing_queries():
    at = run_page("dataset")
    at.selectbox(key="dataset_missing").set_value("zero").run()
    table = per_query_table(at).set_index("query")
    assert table.loc["417", "note"] == table.loc["452", "note"] == "IDCG = 0: nothing relevant"
    assert table.loc["433", "note"] == "not in the run: counted as 0" and table.loc["433", "ndcg"] == 0
    assert (table.drop(index=["417", "452", "433"])["note"] == "").all()
    # The note is the last column, wide enough to read: beside NDCG at its own width the grid showed "IDCG = 0:"
    # and pushed the counts out of view at 1440 px.
    grid = next(frame.proto for frame in at.dataframe if "ndcg" in frame.value.columns)
    assert list(per_query_table(at).columns)[-1] == "note"
    assert json.loads(grid.columns)["note"]["width"] == 180


def test_a_whole_query_id_searched_while_a_rule_leaves_it_out_is_picked_when_the_rule_brings_it_in():
    """433 is judged but not in the run. Searched under "Leave them out", the page said only "No query id contains
    '433'"; then, with "Count them as NDCG 0", the table showed only 433 while the picker, its figures and the
    Playground button stayed on 401."""
    at = run_page("dataset")
    at.text_input(key="dataset_search").input("433").run()
    note = " ".join(i.value for i in at.info)
    assert "No query id contains '433'. A judged query's id does, but the run retrieved nothing for it" in note
    assert "“Count them as NDCG 0 (trec_eval -c)” lists them" in note
    at.selectbox(key="dataset_missing").set_value("zero").run()
    assert per_query_table(at)["query"].tolist() == ["433"]
    assert at.selectbox(key="dataset_query").value == "433"
    assert any(t.value.startswith("Query 433: NDCG = 0.0000") for t in at.text)
    assert [b.label for b in at.button if b.key == "dataset_open"] == ["Open query 433 in the Playground"]
    at.text_input(key="dataset_search").input("zz").run()  # part of no id, judged or not
    assert [i.value for i in at.info if "zz" in i.value] == ["No query id contains 'zz'."]


# --- issue 16 item 2, issue 12: what the cards count, and no raw nan ----------------------------------------

ALL_ZERO_QRELS = b"q1 0 A 0\nq1 0 B 0\nq2 0 C 0\n"
ALL_ZERO_RUN = b"q1 Q0 A 1 2.0 t\nq1 Q0 B 2 1.0 t\nq2 Q0 C 1 1.0 t\n"


def everything_shown(at) -> str:
    parts = [m.value for m in at.markdown] + [t.value for t in at.text] + [c.value for c in at.caption]
    parts += [f"{m.label} {m.value}" for m in at.metric] + [w.value for w in at.warning] + [i.value for i in at.info]
    return "\n".join(parts)


def test_skip_with_no_relevant_judgment_says_so_in_words():
    at = upload_trec(run_page("dataset", query_params={"z": "skip"}), ALL_ZERO_QRELS, ("zero.txt", ALL_ZERO_RUN))
    shown = headline(at)
    assert shown["Mean of per-query NDCG"] == "n/a" and shown["Ratio of sums ΣDCG / ΣIDCG"] == "n/a"
    assert shown["Queries in the mean"] == "0"
    words = everything_shown(at)
    assert "Neither figure is defined: no query has a relevant judged document" in words
    assert "Only one of the two figures" not in words
    assert "NDCG = n/a (no value: IDCG = 0 and the zero-IDCG rule leaves it out)" in words
    assert not re.search(r"\bnan\b", words, flags=re.IGNORECASE), words


@pytest.mark.parametrize(("rule", "value"), [("zero", "0.0000"), ("one", "1.0000")])
def test_other_rules_with_no_relevant_judgment_show_their_value(rule, value):
    at = upload_trec(run_page("dataset", query_params={"z": rule}), ALL_ZERO_QRELS, ("zero.txt", ALL_ZERO_RUN))
    expected = ndcg_core.evaluate_run(ndcg_core.read_run(ALL_ZERO_RUN), ndcg_core.read_qrels(ALL_ZERO_QRELS),
                                      zero_idcg=rule)
    assert headline(at)["Mean of per-query NDCG"] == value == f"{expected.mean_ndcg:.4f}"
    assert headline(at)["Ratio of sums ΣDCG / ΣIDCG"] == f"{expected.ratio_of_sums:.4f}"
    assert headline(at)["Queries in the mean"] == "2"
    assert not re.search(r"\bnan\b", everything_shown(at), flags=re.IGNORECASE)


@pytest.mark.parametrize("rule", ["zero", "one", "skip"])
def test_queries_card_counts_what_the_mean_is_over(rule):
    at = run_page("dataset", query_params={"z": rule})
    expected = reference(BM25, zero_idcg=rule)
    in_mean = expected.per_query["ndcg"].dropna()
    assert headline(at)["Queries in the mean"] == str(len(in_mean))
    assert np.isclose(in_mean.mean(), expected.mean_ndcg)
    captions = " ".join(c.value for c in at.caption)
    if rule == "skip":  # 59 evaluated, 417 and 452 have IDCG = 0
        assert len(in_mean) == 57
        assert "59 queries evaluated; the mean is over 57: 2 queries with IDCG = 0 are left out" in captions
    else:
        assert len(in_mean) == 59 and "the mean is over" not in captions


def test_the_why_sentence_names_the_metric_as_the_cards_do():
    """With k = 5 the cards said "Mean of per-query NDCG@5" and the sentence under them "the mean of per-query
    NDCG" (found by an exploratory pass)."""
    at = run_page("dataset", query_params={"k": "5"})
    why = next(m.value for m in at.markdown if m.value.startswith("**Why the two figures differ here.**"))
    assert "than the mean of per-query NDCG@5." in why and "average NDCG@5 " in why, why
    assert "Mean of per-query NDCG@5" in headline(at)


# --- issue 11 item 4: the page says where trec_eval reads the files otherwise ----------------------------------

def test_trec_eval_reading_is_named_with_its_figure():
    at = run_page("dataset", query_params={"k": "10", "gain": "linear"})
    at = upload_trec(at, b"q1 0 A 1.5\nq1 0 B 1e1\nq1 0 C 2\n", ("frac.txt", b"q1 Q0 B 1 3 r\nq1 Q0 A 2 2 r\nq1 Q0 C 3 1 r\n"))
    note = unescaped(at.warning[0].value)
    assert "C atol" in note and "2 judgments read differently there (e.g. '1.5' is 1.5 here, 1 in trec_eval)" in note
    assert "trec_eval (ndcg_cut.10: linear gain" in note and "would report 0.8403" in note  # trec_eval 10.0's figure
    log3 = np.log2(3)
    assert f"gives {(10 + 1.5 / log3 + 1) / (10 + 2 / log3 + 1.5 / 2):.4f}" in note
    plain_files = upload_trec(at, QRELS.read_bytes(), ("bm25.txt", BM25.read_bytes()))
    assert not plain_files.warning  # both readings agree: nothing to say


def test_ids_that_are_not_utf8_are_counted_in_each_file():
    """café and naïve, judged in a Latin-1 qrels and retrieved in a Latin-1 run: the note said "4 ids are not valid
    UTF-8" (each id once per file, added up). trec_eval matches the bytes of both files: the figures agree."""
    qrels = "q1 0 café 2\nq1 0 naïve 1\nq1 0 plain 0\n".encode("latin-1")
    run = "q1 Q0 naïve 1 3 r\nq1 Q0 café 2 2 r\nq1 Q0 plain 3 1 r\n".encode("latin-1")
    at = upload_trec(run_page("dataset", query_params={"gain": "linear"}), qrels, ("latin1.txt", run))
    note = unescaped(at.warning[0].value)
    assert note.startswith("2 ids in the qrels and 2 ids in the run are not valid UTF-8: "), note
    ndcg = (1 + 2 / np.log2(3)) / (2 + 1 / np.log2(3))  # by hand: naïve (1) first, café (2) second
    assert f"would report {ndcg:.4f}" in note and f"gives {ndcg:.4f}" in note


def test_a_qrels_file_with_negative_grades_is_read_as_trec_eval_reads_it():
    """A ClueWeb-style qrels file (spam graded -2) was refused: "the relevance '-2' is negative"."""
    at = run_page("dataset", query_params={"k": "10", "gain": "linear"})
    qrels = b"q1 0 A -2\nq1 0 B 1\nq1 0 C 2\nq1 0 D -1\nq2 0 A -2\nq2 0 E 1\n"
    run = b"q1 Q0 A 1 4 r\nq1 Q0 B 2 3 r\nq1 Q0 C 3 2 r\nq1 Q0 D 4 1 r\nq2 Q0 A 1 2 r\nq2 Q0 E 2 1 r\n"
    at = upload_trec(at, qrels, ("web.txt", run))
    assert not at.error
    log3 = np.log2(3)
    q1, q2 = (1 / log3 + 1) / (2 + 1 / log3), 1 / log3  # A and D count as grade 0 (judged), as in trec_eval
    shown = headline(at)
    assert shown["Mean of per-query NDCG@10"] == f"{(q1 + q2) / 2:.4f}" and shown["Unjudged retrieved"] == "0.0%"
    note = next(caption.value for caption in at.caption if "negative grade" in caption.value)
    assert unescaped(note).startswith("3 judgments have a negative grade (e.g. -2;")
    assert "read as judged and not relevant (grade 0), as trec_eval and pytrec_eval read them" in unescaped(note)
    assert not at.warning  # trec_eval reads these files the same way: no difference to report


def test_a_run_with_ranks_trec_eval_does_not_read_is_evaluated_and_the_page_says_so():
    """A run whose rank field holds 10**23 (trec_eval never reads ranks; it orders by score) was refused with "the
    rank ... is too large". It is evaluated by score, and a note says which ranks were left empty and why."""
    at = run_page("dataset", query_params={"k": "10", "gain": "linear"})
    qrels = b"q1 0 A 1\nq1 0 B 2\n"
    run = b"q1 Q0 A 1 0.2 r\nq1 Q0 B 100000000000000000000000 0.9 r\nq1 Q0 C 3 0.5 r\n"
    at = upload_trec(at, qrels, ("odd.txt", run))
    assert not at.error
    # By score: B (2), C (not judged), A (1): DCG 2 + 1/2, IDCG 2 + 1/log2 3.
    assert headline(at)["Mean of per-query NDCG@10"] == f"{2.5 / (2 + 1 / np.log2(3)):.4f}"
    note = unescaped(next(caption.value for caption in at.caption if "rank that is not" in caption.value))
    assert note == ("1 run line has a rank that is not a whole number within ±2⁵³ (line 2: 100000000000000000000000). "
                    "Ranks are not used: documents are ordered by score, as trec_eval orders them, so it is left empty.")


# --- issue 11 item 3: usable with a very large number of queries -------------------------------------------

def many_queries(n: int) -> tuple[bytes, bytes]:
    qrels = "".join(f"q{i} 0 d{i} {i % 3}\n" for i in range(n)).encode()
    run = "".join(f"q{i} Q0 d{i} 1 1.0 t\nq{i} Q0 x{i} 2 0.5 t\n" for i in range(n)).encode()
    return qrels, run


# Every public function of ndcg_core (the page calls them as ``ndcg_core.<name>``, so the wrapper is what runs).
CORE_FUNCTIONS = tuple(name for name in dir(ndcg_core)
                       if not name.startswith("_") and inspect.isfunction(getattr(ndcg_core, name)))
# What the page computes for a data set; each of these must have run before the reruns below, and none again
# (ranked_query runs only when a query is opened in the Playground, so it is among those that must not run at all).
PAGE_COMPUTES = ("read_qrels", "read_run", "encode_run", "evaluate_run", "ndcg_curve", "aggregate_gap",
                 "incomplete_run", "incomplete_summary")


def test_many_queries_page_search_and_reruns_recompute_nothing(monkeypatch):
    calls = dict.fromkeys(CORE_FUNCTIONS, 0)
    for name in calls:
        original = getattr(ndcg_core, name)

        def counted(*args, _name=name, _original=original, **kwargs):
            calls[_name] += 1
            return _original(*args, **kwargs)

        monkeypatch.setattr(ndcg_core, name, counted)
    qrels, run = many_queries(200_000)
    at = upload_trec(run_page("dataset", timeout=120), qrels, ("many.txt", run))
    assert headline(at)["Queries in the mean"] == "200000"  # IDCG 0 on every third query: counted as 0
    assert len(per_query_table(at)) == 100
    assert len(at.selectbox(key="dataset_query").options) == 100
    assert "Rows 1–100 of 200,000 queries (page 1 of 2,000)" in " ".join(c.value for c in at.caption)
    before = dict(calls)
    assert not [name for name in PAGE_COMPUTES if not before[name]], before
    at.run()  # a rerun that changes nothing
    assert calls == before, {n: (before[n], c) for n, c in calls.items() if c != before[n]}
    at.number_input(key="dataset_page").set_value(1500).run()  # paging: nothing evaluated again
    in_text_order = sorted(f"q{i}" for i in range(200_000))  # the table's default order: query id, as text
    assert calls == before and per_query_table(at)["query"].tolist() == in_text_order[149_900:150_000]
    at.text_input(key="dataset_search").input("q19999").run()
    table = per_query_table(at)
    assert table["query"].tolist()[:2] == ["q19999", "q199990"] and len(table) == 11
    assert at.selectbox(key="dataset_query").options[0] == "q19999"  # the exact id is offered first
    assert calls == before, {n: (before[n], c) for n, c in calls.items() if c != before[n]}


def test_one_query_with_unjudged_documents_is_counted_in_the_singular():
    """'1 of 3 queries have unjudged documents' and 'The 1 queries whose figure moves most (of 1 ...)'."""
    qrels = b"q1 0 a 1\nq1 0 b 0\nq2 0 c 2\nq3 0 d 1\n"
    run = b"q1 Q0 a 1 3 r\nq1 Q0 x 2 2 r\nq2 Q0 c 1 1 r\nq3 Q0 d 1 1 r\n"  # x: the one unjudged document
    at = upload_trec(run_page("dataset"), qrels, ("small.txt", run))
    texts = [t.value for t in at.text]
    assert any(t.startswith("1 of 3 queries has unjudged documents in the whole ranking.") for t in texts), texts
    assert "The one query with unjudged documents." in [c.value for c in at.caption]
    table = at.dataframe[-1].value  # the unjudged documents' table, last on the page
    assert table["query"].tolist() == ["q1"] and table["n_unjudged_in_cutoff"].tolist() == [1]


def test_a_second_query_opened_in_the_playground_shows_no_change_against_the_first():
    """Opening q 401, then 402: the cards showed 402's figures as changes from 401's ("NDCG 0.6790 -0.0194"), and
    the chart drew 401's bars as the 'before' ghosts; another list is no change of this one."""
    at = run_page("dataset")
    for query in ("401", "402"):
        at.switch_page("pages/dataset.py").run()
        at.selectbox(key="dataset_query").set_value(query).run()
        at.button(key="dataset_open").click().run()
        assert not at.exception, at.exception
        expected = reference(BM25).per_query.loc[query, "ndcg"]
        ndcg = next(m for m in at.metric if m.label == "NDCG")
        assert ndcg.value == f"{expected:.4f}"
        assert [m.delta for m in at.metric[:4]] == ["±0"] * 4, query


def test_a_link_whose_run_rules_or_query_cannot_be_used_says_so_until_the_choices_change():
    """/dataset?run=zzz&query=😀 showed BM25 and query 401 with no word: the page kept its link warnings under a
    scope nothing showed, and a query the run does not have was dropped silently."""
    at = run_page("dataset", query_params={"run": "zzz", "ties": "nope", "query": "😀"})
    assert not at.exception
    assert [w.value for w in at.warning] == [
        "The link's run could not be read, so the default is shown. The link's tie rule could not be read, so the "
        "default is shown. The link's query “😀” is not one of this run's queries, so the first query is shown."]
    at.run()
    assert len(at.warning) == 1  # a rerun keeps it
    at.selectbox(key="dataset_ties").set_value("average").run()
    assert not at.warning  # the user's own choice ends it
    good = run_page("dataset", query_params={"ties": "average"})
    assert not good.warning and good.selectbox(key="dataset_ties").value == "average"


def test_with_one_side_uploaded_the_page_says_a_file_over_the_limit_never_arrives(page):
    """A 228 MB run (over the upload limit) was refused by the browser's uploader, its reason in a tooltip, and the
    page said "Add both the qrels file and at least one run file" although both had been added."""
    page.radio(key="dataset_source").set_value("trec").run()
    page.file_uploader(key="dataset_qrels_file").set_value(("my.qrels", QRELS.read_bytes(), "text/plain")).run()
    (info,) = page.info
    limit = config.get_option("server.maxUploadSize")
    assert unescaped(info.value) == (
        "Add both the qrels file and at least one run file to evaluate them. A file over the "
        f"{limit} MB upload limit is refused before it reaches the app: it shows in red in the uploader (point at it "
        "for the reason).")
    assert limit == 1024  # .streamlit/config.toml: room for a depth-1000 MS MARCO dev run (~230 MB)


def test_a_skipped_querys_ndcg_is_a_dash_not_none():
    """Under "NDCG when IDCG = 0: skip" a query with no relevant judgment has no NDCG; its cell drew a grey "None"
    (the data grid's word for a missing value, raw Python text to a reader). It is "–", as elsewhere."""
    qrels = b"q1 0 a 2\nq1 0 b 0\nq2 0 c 0\n"
    run = b"q1 Q0 b 1 2.0 r\nq1 Q0 a 2 1.0 r\nq2 Q0 c 1 1.0 r\n"
    at = upload_trec(run_page("dataset", query_params={"z": "skip"}), qrels, ("run.txt", run))
    table = next(frame for frame in at.dataframe if "ndcg" in frame.value.columns)
    assert table.value.set_index("query")["ndcg"].isna().to_dict() == {"q1": False, "q2": True}
    assert table.proto.HasField("placeholder") and table.proto.placeholder == "–"


def per_query_grid(at):
    return next(frame for frame in at.dataframe if "ndcg" in frame.value.columns)


def test_each_page_of_rows_is_a_new_grid_with_nothing_selected():
    """Page 2 showed page 1's selected row (its 3rd) checked beside another query while the picker named page 1's
    query; and an uploaded data set's ids were cut to the sample's width ('naïve-1' on every row): the grid, under
    one key, kept the selection and column widths of the first rows it drew."""
    at = run_page("dataset")
    sample_grid = per_query_grid(at).key
    qrels, run = many_queries(250)
    at = upload_trec(at, qrels, ("many.txt", run))
    grid = per_query_grid(at)
    assert grid.key != sample_grid  # a new data set: a new grid, measured on its own ids
    at.session_state[grid.key] = {"selection": {"rows": [2], "columns": [], "cells": []}}
    at.run()
    assert at.selectbox(key="dataset_query").value == grid.value["query"].iloc[2] == "q10"
    at.run()
    assert per_query_grid(at).key == grid.key  # a rerun keeps the grid and its selection
    assert at.session_state[grid.key]["selection"]["rows"] == [2]
    at.number_input(key="dataset_page").set_value(2).run()
    second = per_query_grid(at)
    assert second.value["query"].iloc[2] != "q10"
    assert at.session_state[second.key]["selection"]["rows"] == []  # no row of page 2 is checked
    assert at.selectbox(key="dataset_query").value == "q10"  # the picked query stays picked
    at.session_state[second.key] = {"selection": {"rows": [2], "columns": [], "cells": []}}
    at.run()
    assert at.selectbox(key="dataset_query").value == second.value["query"].iloc[2]  # page 2's 3rd row is picked


def test_right_to_left_query_ids_in_a_note_keep_the_list_order_and_a_copied_id_is_found():
    """'(naïve-4150, سؤال-120, سؤال-3977, سؤال-4845, 查询-1193)' was drawn '(naïve-4150, 4845-سؤال ,3977-سؤال ,120-سؤال,
    查询-1193)': the Arabic ids and the commas between them made one right-to-left run, in reverse order. Each id is now
    set apart (a first-strong isolate), and an id copied from the note, marks and all, is found by the search."""
    ids = ["naïve-4150", "سؤال-120", "سؤال-3977", "שאלה-4845", "查询-1193"]
    qrels = "".join(f"{q} 0 d{i} 0\n" for i, q in enumerate(ids)) + "q-ok 0 good 2\n"
    run = "".join(f"{q} Q0 d{i} 1 1.0 t\n" for i, q in enumerate(ids)) + "q-ok Q0 good 1 1.0 t\n"
    at = upload_trec(run_page("dataset"), qrels.encode(), ("rtl.txt", run.encode()))
    notes = "\n".join(t.value for t in at.text)
    in_file_order = sorted(ids)  # the run's query order, as the note lists them
    listed = ", ".join(f"\u2068{q}\u2069" for q in in_file_order)
    assert f"Zero-IDCG rule: 5 queries have no relevant judged document ({listed});" in notes
    at.text_input(key="dataset_search").input(f"\u2068{ids[2]}\u2069").run()  # copied from the note
    assert per_query_table(at)["query"].tolist() == [ids[2]]
    assert at.selectbox(key="dataset_query").value == ids[2]


def test_the_trec_eval_reading_note_writes_its_two_figures_apart():
    """'trec_eval ... would report 0.5551; ndcg_core's own reading under the same conventions gives 0.5551': 2,000
    queries, one judged '1.5' (read 1 by trec_eval's atol), put the two means 0.00004 apart, the same to four places."""
    qrels = "".join(f"q{i} 0 A 1\n" for i in range(1, 2000)) + "q0 0 A 1\nq0 0 B 1.5\n"
    run = "".join(f"q{i} Q0 A 1 2 r\n" for i in range(2000)) + "q0 Q0 B 2 1 r\n"
    at = upload_trec(run_page("dataset", query_params={"gain": "linear"}), qrels.encode(), ("one.txt", run.encode()))
    q0 = (1 + 1.5 / np.log2(3)) / (1.5 + 1 / np.log2(3))  # ndcg_core reads 1.5; trec_eval reads 1, so q0 scores 1
    ours, theirs = (1999 + q0) / 2000, 1.0
    assert f"{ours:.4f}" == f"{theirs:.4f}" == "1.0000"
    note = unescaped(at.warning[0].value)
    assert f"would report 1; ndcg_core's own reading under the same conventions gives {ours:.5f}." in note


def test_an_address_of_uploaded_files_says_so_when_opened_without_them():
    """The Dataset page's address after an upload held only the settings, so a colleague opening it saw the bundled
    sample's figures with no word; the address now marks uploaded data, and opening it says the sample is shown."""
    at = upload_trec(run_page("dataset"), QRELS.read_bytes(), ("private_bm25.txt", BM25.read_bytes()))
    at.run()  # an action after the upload: the address is written
    address = dict(at.query_params)
    assert address["data_unlinked"] == "1" and "private" not in json.dumps(address)
    opened = run_page("dataset", query_params=address)
    assert not opened.exception
    assert [w.value for w in opened.warning] == [dataset_view.UPLOADED_LINK]
    assert headline(opened) == headline(run_page("dataset"))  # the bundled sample's figures
    opened.selectbox(key="dataset_run").set_value("Neural").run()
    assert not opened.warning and "data_unlinked" not in opened.query_params  # the user's own choice ends it
    assert "data_unlinked" not in run_page("dataset").query_params


def test_right_to_left_query_ids_in_a_refusal_keep_the_list_order():
    """Under the rule "Refuse" (z=error) ndcg_core's refusal lists the queries with IDCG = 0 ("IDCG is 0 for queries
    'سؤال-120', 'سؤال-3977', 'שאלה-4845': …"), and the page showed it as written: the three ids and the commas between
    them made one right-to-left run, drawn "',3977-سؤال' ,'120-سؤال 4845-שאלה''". Each quoted id is now set apart
    (a first-strong isolate) inside its quotes, in the list's order; the message's other words are as ndcg_core wrote
    them."""
    ids = ["سؤال-120", "سؤال-3977", "שאלה-4845"]
    qrels = "".join(f"{q} 0 d{i} 0\n" for i, q in enumerate(ids)) + "q-ok 0 good 2\n"
    run = "".join(f"{q} Q0 d{i} 1 1.0 t\n" for i, q in enumerate(ids)) + "q-ok Q0 good 1 1.0 t\n"
    at = upload_trec(run_page("dataset", query_params={"z": "error"}), qrels.encode(), ("rtl.txt", run.encode()))
    (error,) = [e.value for e in at.error if "IDCG is 0" in e.value]
    with pytest.raises(ndcg_core.InvalidInput) as refused:  # what ndcg_core says of the same data: plain text
        ndcg_core.evaluate_run(ndcg_core.read_run(io.StringIO(run)), ndcg_core.read_qrels(io.StringIO(qrels)),
                               zero_idcg="error")
    core, in_order = str(refused.value), sorted(ids)  # the queries in ndcg_core's order (its encoding's: sorted)
    assert "\u2068" not in core and ", ".join(f"'{q}'" for q in in_order) in core
    listed = ", ".join(f"'\u2068{q}\u2069'" for q in in_order)
    assert f"IDCG is 0 for queries {listed}: no judged document has a positive gain" in unescaped(error)
