"""read_qrels, read_run, read_table: formats, sources, encodings, and every malformed case."""

from __future__ import annotations

import io
import os
import re
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_core import InvalidInput, evaluate_run, read_qrels, read_run, read_table

QRELS_TEXT = "q1 0 A 3\nq1 0 B 2\nq1 0 C 0\nq1 0 D 1\nq2 0 E 1\n"
RUN_TEXT = "q1 Q0 B 1 0.9 sys\nq1 Q0 X 2 0.8 sys\nq1 Q0 A 3 0.7 sys\nq2 Q0 E 1 5 sys\n"


# --------------------------------------------------------------------------- happy paths


def test_read_qrels():
    qrels = read_qrels(QRELS_TEXT.encode())
    assert list(qrels.columns) == ["query", "doc", "relevance"]
    assert qrels["query"].tolist() == ["q1"] * 4 + ["q2"]
    assert qrels["doc"].tolist() == ["A", "B", "C", "D", "E"]
    assert qrels["relevance"].tolist() == [3.0, 2.0, 0.0, 1.0, 1.0]
    assert qrels["relevance"].dtype == float


def test_read_run():
    run = read_run(RUN_TEXT.encode())
    assert list(run.columns) == ["query", "doc", "rank", "score", "tag"]
    assert run["doc"].tolist() == ["B", "X", "A", "E"]
    assert run["rank"].tolist() == [1, 2, 3, 1]
    assert run["rank"].dtype == np.int64
    assert run["score"].tolist() == [0.9, 0.8, 0.7, 5.0]
    assert run["tag"].tolist() == ["sys"] * 4


def test_files_feed_evaluate_run():
    result = evaluate_run(read_run(RUN_TEXT.encode()), read_qrels(QRELS_TEXT.encode()), k=3, gain="linear")
    assert result.per_query.loc["q1", "dcg"] == pytest.approx(2 + 3 / 2)
    assert result.per_query.loc["q2", "ndcg"] == pytest.approx(1.0)


def test_ids_are_categorical_text_sorted_like_text():
    run = read_run(b"q2 Q0 d10 1 3 s\nq2 Q0 d9 2 2 s\nq10 Q0 d10 1 1 s\nq10 Q0 D1 2 0.5 s\n")
    qrels = read_qrels(b"q2 0 d9 1\nq10 0 d10 2\n")
    table = read_table(b"query,doc,relevance,score\nq2, d9 ,1,3\nq1,d10,,2\n")
    for frame in (run, qrels, table):
        for column in ("query", "doc"):
            assert isinstance(frame[column].dtype, pd.CategoricalDtype)
            categories = list(frame[column].cat.categories)
            assert categories == sorted(set(frame[column].astype(str)))  # distinct ids, code point order
    assert run["doc"].tolist() == ["d10", "d9", "d10", "D1"]
    assert run.sort_values("doc", kind="stable")["doc"].tolist() == ["D1", "d10", "d10", "d9"]  # as text sorts
    assert (run["query"] == "q10").tolist() == [False, False, True, True]
    assert table["doc"].tolist() == ["d9", "d10"]  # spaces around table cells removed
    # Same figures as the same data with plain text ids.
    text_run = run.astype({"query": str, "doc": str})
    text_qrels = qrels.astype({"query": str, "doc": str})
    pd.testing.assert_frame_equal(evaluate_run(run, qrels, k=2).per_query,
                                  evaluate_run(text_run, text_qrels, k=2).per_query)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="ab\u00e9\u00ff\u4e2d\U0001f600Z0-", min_size=1, max_size=40), min_size=1,
                max_size=60), st.integers(min_value=0, max_value=30))
def test_document_categories_are_the_distinct_ids_in_code_point_order(ids, prefix_length):
    """The documents' codes come from an integer-key sort of the ids' bytes (8 bytes, then the next bytes beside
    the rank so far); ids sharing a long prefix take pyarrow's string sort instead. Both must give categories in
    code point order and the row's own id back."""
    ids = ["p" * prefix_length + value for value in ids]
    run = read_run("".join(f"q{row} Q0 {value} 1 1 s\n" for row, value in enumerate(ids)).encode())
    assert list(run["doc"].cat.categories) == sorted(set(ids))
    assert run["doc"].tolist() == ids


def test_ids_stay_text():
    qrels = read_qrels(b"007 0 0012 1\n1e5 0 NA 2\n")
    assert qrels["query"].tolist() == ["007", "1e5"]
    assert qrels["doc"].tolist() == ["0012", "NA"]


@pytest.mark.parametrize(
    "text",
    [
        "q1\t0\tA\t3\nq1\t0\tB\t2\n",  # tabs
        "q1   0  A 3\n\n\nq1 0 B   2   \n",  # several spaces, blank lines, trailing spaces
        "q1 0 A 3\r\nq1 0 B 2\r\n",  # Windows line ends
        "  q1 0 A 3\nq1 0 B 2",  # leading spaces, no final newline
    ],
)
def test_whitespace_variants(text):
    qrels = read_qrels(text.encode())
    assert qrels["doc"].tolist() == ["A", "B"]
    assert qrels["relevance"].tolist() == [3.0, 2.0]


def test_quotes_are_part_of_ids_in_trec_files():
    qrels = read_qrels(b'q1 0 "A 1\nq1 0 B" 2\n')
    assert qrels["doc"].tolist() == ['"A', 'B"']


def test_sources(tmp_path):
    path = tmp_path / "qrels.txt"
    path.write_bytes(QRELS_TEXT.encode())
    expected = read_qrels(QRELS_TEXT.encode())
    handle = io.BytesIO(QRELS_TEXT.encode())
    handle.read()  # like an UploadedFile already read once: getvalue() still gives everything
    for source in (str(path), path, io.BytesIO(QRELS_TEXT.encode()), io.StringIO(QRELS_TEXT), handle,
                   bytearray(QRELS_TEXT.encode())):
        pd.testing.assert_frame_equal(read_qrels(source), expected)
    with path.open("rb") as opened:
        pd.testing.assert_frame_equal(read_qrels(opened), expected)


def test_utf8_bom_and_latin1_fallback():
    with_bom = read_qrels("\ufeffq1 0 café 1\n".encode())
    assert with_bom["query"].tolist() == ["q1"] and with_bom["doc"].tolist() == ["café"]
    latin1 = read_qrels("q1 0 café 1\n".encode("latin-1"))  # not valid UTF-8: read as Latin-1
    assert latin1["doc"].tolist() == ["café"]


def test_progress_reports_fractions_up_to_one():
    seen: list[float] = []
    read_run(RUN_TEXT.encode(), progress=seen.append)
    assert seen and seen[-1] == 1.0 and all(0 <= f <= 1 for f in seen) and seen == sorted(seen)
    seen.clear()
    read_qrels(b"q1   0 A 1\n", progress=seen.append)  # careful path too
    assert seen[-1] == 1.0


def test_large_careful_path_reports_progress_in_chunks():
    lines = "".join(f"q{i % 50}  0  d{i}  {i % 4}\n" for i in range(300_000))  # double spaces: careful path
    seen: list[float] = []
    qrels = read_qrels(lines.encode(), progress=seen.append)
    assert len(qrels) == 300_000
    assert len(seen) >= 3 and seen[-1] == 1.0


def test_read_table_with_aliases_blank_grades_and_extra_columns():
    table = read_table(b"QID,DocNo,rel,score,note\nq1,d1,2,0.5,first\nq1, d2 ,,0.4,\n")
    assert list(table.columns) == ["query", "doc", "relevance", "score", "note"]
    assert table["doc"].tolist() == ["d1", "d2"]
    assert table["relevance"].iloc[0] == 2.0 and np.isnan(table["relevance"].iloc[1])
    assert table["note"].tolist() == ["first", ""]


@pytest.mark.parametrize(
    ("content", "separator"),
    [(b"query\tdoc\trelevance\trank\nq1\td1\t1\t1\n", "tab"), (b"query;doc;relevance;rank\nq1;d1;1;1\n", "semicolon")],
)
def test_read_table_separators(content, separator):
    table = read_table(content)
    assert table["rank"].tolist() == [1.0], separator


def test_read_table_with_semicolons_reads_decimal_commas():
    """A spreadsheet saved as CSV in a French or German locale: semicolons between cells, commas in the numbers.
    Its scores were refused ("the score '0,5' is not a number"); they are read as 0.5, and the figure is the
    hand-computed one: d2 (grade 2, score 1,25) ranks first, d1 (grade 1) second, DCG = 2 + 1/log2(3) = IDCG."""
    table = read_table(b"query;doc;relevance;score\nq1;d1;1;0,5\nq1;d2;2;1,25\nq1;d3;0;-0,75\n")
    assert table["score"].tolist() == [0.5, 1.25, -0.75] and table["relevance"].tolist() == [1.0, 2.0, 0.0]
    assert evaluate_run(table, k=3, gain="linear").value == 1.0
    assert read_table(b"query;doc;relevance;score\nq1;d1;1;0.5\n")["score"].tolist() == [0.5]  # a point still reads
    # One table with both marks, or a decimal comma beside commas between cells: refused with a hint, not misread.
    for content in (b"query;doc;relevance;score\nq1;d1;1;0,5\nq1;d2;2;1.25\n",
                    b'query,doc,relevance,score\nq1,d1,1,"0,5"\n'):
        with pytest.raises(InvalidInput, match=r"line 2: the score '0,5' is not a number \(a decimal comma\? Write 0\.5"):
            read_table(content)


def test_read_table_quoted_cells():
    table = read_table(b'query,doc,relevance,score\nq1,"doc, with comma",1,0.5\n')
    assert table["doc"].tolist() == ["doc, with comma"]


def test_read_table_rows_without_score_are_judged_but_not_retrieved():
    table = read_table(b"query,doc,relevance,score,rank\nq1,B,2,0.9,1\nq1,X,,0.8,2\nq1,A,3,0.7,3\nq1,D,1,,\n")
    assert np.isnan(table["score"].iloc[3]) and np.isnan(table["rank"].iloc[3])
    result = evaluate_run(table, k=3, gain="linear")
    # D was not retrieved but is judged: it joins the ideal list (3, 2, 1).
    assert result.value == pytest.approx((2 + 3 / 2) / (3 + 2 / np.log2(3) + 1 / 2))
    assert result.per_query.loc["q1", "n_retrieved"] == 3


def test_read_table_feeds_evaluate_run_without_qrels():
    table = read_table(b"query,doc,relevance,score\nq1,B,2,0.9\nq1,X,,0.8\nq1,A,3,0.7\n")
    result = evaluate_run(table, k=3, gain="linear")
    assert result.value == pytest.approx((2 + 3 / 2) / (3 + 2 / np.log2(3)))


# --------------------------------------------------------------------------- malformed files


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty"),
        (b"  \n\n \t\n", "empty"),
        (b"q1 0 A 1\nq1\x000 B", r"line 2: .*NUL byte.*binary"),
        (b"PK\x03\x04\x00\x00", r"line 1: .*binary"),
        (b"q1 0 A 1\n\nq1 0 B x\n", r"line 3: the relevance 'x' is not a number"),
        (b"q1 0 A 1\nq1 0 B\n", r"line 2: found 3 field\(s\), expected 4"),
        (b"q1 0 A 1\nq1 0 B 1 7\n", r"line 2: found 5 field\(s\), expected 4"),
        (b"q1 Q0 A 1 0.5 run\n", r"line 1: found 6 field\(s\).*run file"),
        (b"q1 0 A inf\n", r"line 1: the relevance 'inf' is infinite"),
        (b"q1 0 A nan\n", r"line 1: the relevance 'nan' is not a number"),
        (b"q1 0 A 1\n\nq1 0 A 2\n", r"line 3: query 'q1' judged document 'A' a second time"),
        (b"q1 0 A 1\nq2 0 A 1\nq1 0 B 1\nq2 0 B 1\nq1 0 A 3\n", r"line 5: query 'q1' judged document 'A'"),
    ],
)
def test_malformed_qrels(content, message):
    with pytest.raises(InvalidInput, match=message):
        read_qrels(content)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"q1 0 A 1\n", r"line 1: found 4 field\(s\), expected 6.*qrels file"),
        (b"q1 Q0 A 1 0.5 r\nq1 Q0 B 2 0.4\n", r"line 2: found 5 field\(s\), expected 6"),
        (b"q1 Q0 A 1 high r\n", r"line 1: the score 'high' is not a number"),
        (b"q1 Q0 A 1 0.5 r\nq1 Q0 B 2 -inf r\n", r"line 2: the score '-inf' is infinite"),
        (b"q1 Q0 A 1 0.5 r\nq1 Q0 A 2 0.4 r\n", r"line 2: query 'q1' retrieved document 'A' a second time"),
    ],
)
def test_malformed_run(content, message):
    with pytest.raises(InvalidInput, match=message):
        read_run(content)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"query,doc,score\nq1,d1,0.5\n", "no relevance column"),
        (b"q1,d1,1,0.5\n", "no query, doc, relevance column"),
        (b"query,doc,relevance\nq1,d1,1\n", "add a score column"),
        (b"query,qid,doc,relevance,score\n", "both mean 'query'"),
        (b"query,doc,relevance,score\n", "no data rows"),
        (b"query,doc,relevance,score\nq1,d1,1,0.5\nq1,d2,x,0.4\n", r"line 3: the relevance 'x' is not a number"),
        (b"query,doc,relevance,score\nq1,d1,-3,0.5\n", r"line 2: the relevance -3 is negative"),
        (b"query,doc,relevance,score\nq1,d1,1,0.5\nq1,d2,,\n", r"line 3: the score and the relevance are empty"),
        (b"query,doc,relevance,score,rank\nq1,d1,1,0.5,\n", r"line 2: the score or the rank is empty but not both"),
        (b'query,doc,relevance,score\nq1,"d1",1,0.5\nq1,d2,,\n', r"line 3: the score and the relevance are empty"),
        (b"query,doc,relevance,score\n\nq1,d1,1,0.5\nq1,,1,0.4\n", r"line 4: the doc cell is empty"),
        (b"query,doc,relevance,score\nq1,d1,1,0.5,9\n", r"line 2: the line has more cells than the header"),
        (b"query,doc,relevance,score\nq1,d1,1,0.5\nq1,d2,1,0.4,9,9\n", r"line 3: the line has more cells than the header \(6 cells; the header has 4 columns"),
        (b"query,doc,relevance,rank\nq1,d1,1,1\nq1,d1,2,2\n", r"line 3: query 'q1' listed document 'd1' a second"),
        (b'query,doc,relevance,score\nq1,"d 1",1,nan\n', r"line 2: the score 'nan' is not a number"),
        (b"query,doc,relevance,score\nq1,d1\x00,1,0.5\n", r"line 2: .*binary"),
    ],
)
def test_malformed_table(content, message):
    with pytest.raises(InvalidInput, match=message):
        read_table(content)


@pytest.mark.parametrize("source", [42, None, ["q1 0 A 1"]])
def test_unsupported_sources(source):
    with pytest.raises(InvalidInput, match="path"):
        read_qrels(source)


def test_missing_path(tmp_path):
    with pytest.raises(InvalidInput, match="does not exist"):
        read_run(tmp_path / "nope.txt")
    with pytest.raises(InvalidInput, match="folder"):
        read_run(tmp_path)


# --------------------------------------------------------------------------- oracle: pytrec_eval's own parsers


@pytest.mark.oracle
def test_files_agree_with_pytrec_eval_parsers_and_scores():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = np.random.default_rng(7)
    run_lines, qrels_lines = [], []
    for q in range(20):
        docs = rng.choice(200, size=30, replace=False)
        scores = np.round(rng.normal(size=30), 2)  # rounding makes ties
        run_lines += [f"q{q} Q0 doc{d} {r} {s} tag" for r, (d, s) in enumerate(zip(docs, scores, strict=True), 1)]
        judged = rng.choice(200, size=25, replace=False)
        qrels_lines += [f"q{q} 0 doc{d} {rng.integers(0, 4)}" for d in judged]
    run_text, qrels_text = "\n".join(run_lines) + "\n", "\n".join(qrels_lines) + "\n"
    run, qrels = read_run(run_text.encode()), read_qrels(qrels_text.encode())
    reference_run = pytrec_eval.parse_run(io.StringIO(run_text))
    reference_qrels = pytrec_eval.parse_qrel(io.StringIO(qrels_text))
    assert sum(map(len, reference_run.values())) == len(run)
    assert sum(map(len, reference_qrels.values())) == len(qrels)
    reference = pytrec_eval.RelevanceEvaluator(reference_qrels, {"ndcg_cut.10"}).evaluate(reference_run)
    result = evaluate_run(run, qrels, k=10, gain="linear")
    for query, values in reference.items():
        assert result.per_query.loc[query, "ndcg"] == pytest.approx(values["ndcg_cut_10"], abs=1e-12)


# --------------------------------------------------------------------------- files as real tools write them


@pytest.mark.parametrize(
    ("reader", "content"),
    [
        (read_run, b"q1 Q0 A 1 0.5 r\rq1 Q0 B 2 0.4 r\rq1 Q0 C 3 0.3 r\r"),  # old Mac OS: CR only
        (read_run, b"q1 Q0 A 1 0.5 r\r\nq1 Q0 B 2 0.4 r\rq1 Q0 C 3 0.3 r\n"),  # CRLF, CR and LF in one file
        (read_table, b"query,doc,relevance,score\rq1,A,1,0.5\rq1,B,0,0.4\rq1,C,2,0.3"),
        (read_table, b"query,doc,relevance,score\r\nq1,A,1,0.5\rq1,B,0,0.4\nq1,C,2,0.3\r\n"),
    ],
)
def test_every_line_end_ends_a_line(reader, content):
    frame = reader(content)
    assert frame["doc"].tolist() == ["A", "B", "C"]
    assert frame["query"].tolist() == ["q1"] * 3


def test_line_numbers_count_cr_only_lines():
    with pytest.raises(InvalidInput, match=r"line 3: the score 'x' is not a number"):
        read_run(b"q1 Q0 A 1 0.5 r\rq1 Q0 B 2 0.4 r\rq1 Q0 C 3 x r\r")


def test_utf8_bom_in_front_of_latin1_text_is_dropped():
    qrels = read_qrels(b"\xef\xbb\xbfq\xe9 0 caf\xe9 1\n")  # the BOM's bytes must not become "ï»¿"
    assert qrels["query"].tolist() == ["qé"]
    assert qrels["doc"].tolist() == ["café"]


def test_utf16_with_bom_is_read():
    qrels = read_qrels("q1 0 café 2\nq1 0 naïve 1\n".encode("utf-16"))
    assert qrels["doc"].tolist() == ["café", "naïve"] and qrels["relevance"].tolist() == [2.0, 1.0]


def test_mixed_utf8_and_latin1_lines_read_as_meant():
    # Line 1 written in UTF-8, line 2 appended by a Latin-1 tool: both mean "café".
    qrels = read_qrels("q1 0 café 1\n".encode() + b"q2 0 caf\xe9 1\nq3 0 na\xc3\xafve 1\n")
    assert qrels["doc"].tolist() == ["café", "café", "naïve"]
    assert list(qrels["doc"].cat.categories) == ["café", "naïve"]


def test_bom_at_the_start_of_a_later_line_is_dropped():
    qrels = read_qrels(b"\xef\xbb\xbfq1 0 A 1\n\xef\xbb\xbfq2 0 B 1\n")  # two files with BOMs, concatenated
    assert qrels["query"].tolist() == ["q1", "q2"]


def test_a_rank_trec_eval_would_not_read_leaves_the_rank_empty_and_says_so():
    """trec_eval never reads a run's rank field (it orders documents by score): a run with a rank of 10**23 + 1,
    'first' or 1.5 was refused ("the rank ... is too large"), while trec_eval and pytrec_eval evaluate it. The file is
    read, those ranks are kept empty (never overflowed: 2**53 + 1 is not kept as 2**53), the NDCG is pytrec_eval's on
    its own parse of the same file, and ``attrs["unread_ranks"]`` names how many lines, the first and its text."""
    import pytrec_eval

    text = ("q1 Q0 A 1 0.5 r\nq1 Q0 B 99999999999999999999999 0.9 r\nq1 Q0 C first 0.7 r\nq1 Q0 D 1.5 0.2 r\n"
            "q1 Q0 E 9007199254740993 0.1 r\nq1 Q0 F 9007199254740992 0.05 r\n")
    run = read_run(text.encode())
    assert run["rank"].dtype == "Int64"
    assert run["rank"].isna().tolist() == [False, True, True, True, True, False]
    assert run["rank"].dropna().tolist() == [1, 2**53]
    assert run.attrs["unread_ranks"] == (4, 2, "99999999999999999999999")
    qrels_text = "q1 0 A 1\nq1 0 B 0\nq1 0 C 2\nq1 0 D 3\nq1 0 F 1\n"
    ours = evaluate_run(run, read_qrels(qrels_text.encode()), k=None, gain="linear").per_query["ndcg"]["q1"]
    theirs = pytrec_eval.RelevanceEvaluator(pytrec_eval.parse_qrel(io.StringIO(qrels_text)), {"ndcg"}).evaluate(
        pytrec_eval.parse_run(io.StringIO(text)))["q1"]["ndcg"]
    # By score: B 0.9 (grade 0), C (2), A (1), D (3), E (not judged), F (1): DCG 2/log2 3 + 1/2 + 3/log2 5 + 1/log2 7
    # = 3.4101; IDCG 3 + 2/log2 3 + 1/2 + 1/log2 5 = 5.1925.
    assert ours == pytest.approx(theirs, abs=1e-12) and ours == pytest.approx(0.6567, abs=5e-5)
    # Every rank read: the plain int64 column and nothing to say.
    plain = read_run(b"q1 Q0 A 9007199254740992 0.5 r\nq1 Q0 B -3 0.4 r\nq1 Q0 C 2.0 0.3 r\n")
    assert plain["rank"].dtype == np.int64 and plain["rank"].tolist() == [2**53, -3, 2]
    assert plain.attrs["unread_ranks"] == ()
    # Typed as integers by the parser, one past 2**53: left empty, not read as 2**53.
    past = read_run(b"q1 Q0 A 9007199254740993 0.5 r\nq1 Q0 B 4 0.4 r\n")
    assert past["rank"].isna().tolist() == [True, False] and past.attrs["unread_ranks"] == (1, 1, "9007199254740993")


@pytest.mark.parametrize(("cell", "message"), [
    ("100000000000000000000001", r"table, line 3: the rank 1e\+23 is too large: ranks must lie between"),
    ("1.5", r"table, line 3: the rank 1.5 is not a whole number"),
])
def test_a_csv_rank_is_a_whole_number_as_in_a_trec_run(cell, message):
    """The CSV reader took ranks 1e23 + 1, 1e23 and 1e23 + 2 as one float, a three-way tie (NDCG 1.0000 on the
    Dataset page instead of 0.9639), and a rank of 1.5 as it was, both without a word."""
    table = f"query,doc,relevance,rank\nq1,d2,2,1\nq1,d1,0,{cell}\n".encode()
    with pytest.raises(InvalidInput, match=message):
        read_table(table)
    kept = read_table(b"query,doc,relevance,rank\nq1,d1,0,9007199254740992\nq1,d2,2,\nq1,d3,1,2.0\n")
    assert kept["rank"].tolist()[::2] == [2.0**53, 2.0] and np.isnan(kept["rank"][1])  # empty: not retrieved


@pytest.mark.parametrize("length", [131_073, 5 * 2**20])
def test_long_csv_fields_are_read(length):
    long_id = "x" * length  # Python's csv module stops at 131,072; pyarrow blocks at 4 MB
    table = read_table(f"query,doc,relevance,score\nq1,{long_id},1,0.5\nq1,B,0,0.4\n".encode())
    assert table["doc"].tolist() == [long_id, "B"]
    header = read_table(f"query,doc,relevance,score,{long_id}\nq1,A,1,0.5,n\n".encode())
    assert list(header.columns)[-1] == long_id


def test_a_doubled_space_never_shifts_fields():
    with pytest.raises(InvalidInput, match=r"line 2: found 5 field\(s\), expected 6"):
        read_run(b"q1 Q0 A 1 0.5 r\nq1 Q0  B 2 0.4\n")


def test_unclosed_quote_in_a_table_names_its_line():
    with pytest.raises(InvalidInput, match=r'line 3: a quote \(\"\) opens a cell that is never closed'):
        read_table(b'query,doc,relevance,score\nq1,A,1,0.5\nq1,"B,1,0.4\nq1,C,0,0.3\n')


def test_a_bad_line_in_a_million_line_file_is_named():
    lines = [f"q{i // 100} Q0 d{i} {i % 100 + 1} {1 - i % 100 / 100:.2f} run" for i in range(1_000_000)]
    lines[987_653] = "q9876 Q0 d987653 54 high run"
    with pytest.raises(InvalidInput, match=r"run file, line 987654: the score 'high' is not a number"):
        read_run("\n".join(lines).encode())
    lines[987_653] = "q9876 Q0 d987653 54 0.5"
    with pytest.raises(InvalidInput, match=r"run file, line 987654: found 5 field\(s\), expected 6"):
        read_run("\n".join(lines).encode())


@pytest.mark.parametrize(
    "content",
    [
        b"query,doc,relevance,score\rq1,d1,1,0.5\rq1,d2,x,0.4\r",
        b'query,doc,relevance,score\nq1,"d1\n',
        b"query,doc,relevance,score\n" + b"q1,d1,1,0.5" * 20_000 + b"\n",
        b"q1 Q0 A 1 0.5 r\n" * 3 + b"\x85\xff 0 1\n",
    ],
)
def test_no_parser_message_reaches_the_user(content):
    for reader in (read_table, read_run):
        with pytest.raises(InvalidInput) as caught:
            reader(content)
        message = str(caught.value)
        assert re.search(r"line \d+|header|empty", message), message
        for raw in ("CSV parse error", "Expected", "new-line character", "field larger", "straddl", "ArrowInvalid"):
            assert raw not in message


# --------------------------------------------------------------------------- reading as trec_eval reads

# trec_eval 10.0's own figures for the files below (built from usnistgov/trec_eval by bench/bench_files.py, run as
# `trec_eval -q -m ndcg_cut.10 qrels run`): 0.8403 and 0.3869. The oracle test re-runs it when the program is there.
TREC_EVAL = Path(os.environ.get("TREC_EVAL", Path.home() / ".cache" / "ndcg-explained" / "trec_eval" / "trec_eval"))
ATOL_QRELS = b"q1 0 A 1.5\nq1 0 B 1e1\nq1 0 C 2\n"
ATOL_RUN = b"q1 Q0 B 1 3 r\nq1 Q0 A 2 2 r\nq1 Q0 C 3 1 r\n"
BYTES_QRELS = b"q1 0 caf\xe9 1\nq1 0 x\xff 1\n"  # Latin-1 bytes
BYTES_RUN = b"q1 Q0 caf\xc3\xa9 1 2 r\nq1 Q0 x\xff 2 1 r\n"  # cafe-acute in UTF-8, then the same byte 0xFF


def test_trec_eval_reading_parses_relevance_with_c_atol():
    text = b"q1 0 A 1.5\nq1 0 B 1e1\nq1 0 C 2.9\nq1 0 D -1\nq1 0 E +3\nq1 0 F 07\nq1 0 G abc\nq1 0 H 0x10\n"
    assert read_qrels(text, reading="trec_eval")["relevance"].tolist() == [1, 1, 2, 0, 3, 7, 0, 0]
    assert read_qrels(ATOL_QRELS)["relevance"].tolist() == [1.5, 10.0, 2.0]  # ndcg_core's own reading


def test_trec_eval_reading_gives_trec_eval_figures():
    log3 = np.log2(3)
    trec = evaluate_run(read_run(ATOL_RUN), read_qrels(ATOL_QRELS, reading="trec_eval"), k=10, gain="linear")
    assert trec.per_query.loc["q1", "ndcg"] == pytest.approx((1 + 1 / log3 + 2 / 2) / (2 + 1 / log3 + 1 / 2), abs=1e-12)
    assert round(trec.per_query.loc["q1", "ndcg"], 4) == 0.8403  # what trec_eval printed
    ours = evaluate_run(read_run(ATOL_RUN), read_qrels(ATOL_QRELS), k=10, gain="linear")
    assert ours.per_query.loc["q1", "ndcg"] == pytest.approx((10 + 1.5 / log3 + 1) / (10 + 2 / log3 + 1.5 / 2), abs=1e-12)


def test_trec_eval_reading_matches_ids_as_bytes():
    # Default: an id that is not UTF-8 is Latin-1 text, so caf\xe9 (Latin-1) and caf\xc3\xa9 (UTF-8) are one id.
    ours = evaluate_run(read_run(BYTES_RUN), read_qrels(BYTES_QRELS), k=10, gain="linear")
    assert ours.per_query.loc["q1", "ndcg"] == pytest.approx(1.0)
    # trec_eval compares bytes: only x\xff matches (rank 2); caf\xe9 is judged but not retrieved.
    run, qrels = read_run(BYTES_RUN, reading="trec_eval"), read_qrels(BYTES_QRELS, reading="trec_eval")
    assert run["doc"].tolist() == ["café", "x\\xff"] and qrels["doc"].tolist() == ["caf\\xe9", "x\\xff"]
    trec = evaluate_run(run, qrels, k=10, gain="linear")
    assert trec.per_query.loc["q1", "ndcg"] == pytest.approx((1 / np.log2(3)) / (1 + 1 / np.log2(3)), abs=1e-12)
    assert round(trec.per_query.loc["q1", "ndcg"], 4) == 0.3869  # what trec_eval printed


# TREC Web track qrels grade spam -2 ("junk"); trec_eval and pytrec_eval read a negative grade as judged, not relevant.
NEGATIVE_QRELS = b"q1 0 A -2\nq1 0 B 1\nq1 0 C 2\nq1 0 D -1\nq2 0 A -2\nq2 0 E 1\n"
NEGATIVE_RUN = b"q1 Q0 A 1 4 r\nq1 Q0 B 2 3 r\nq1 Q0 C 3 2 r\nq1 Q0 D 4 1 r\nq2 Q0 A 1 2 r\nq2 Q0 E 2 1 r\n"


@pytest.mark.parametrize("reading", ["ndcg_core", "trec_eval"])
def test_negative_grades_are_judged_not_relevant(reading):
    """A ClueWeb qrels file (grades -2..4) was refused outright ("the relevance '-2' is negative")."""
    qrels = read_qrels(NEGATIVE_QRELS, reading=reading)
    assert qrels["relevance"].tolist() == [0, 1, 2, 0, 0, 1]
    assert qrels.attrs["negative_grades"] == (3, "-2")  # three lines, the first such grade
    assert read_qrels(QRELS_TEXT.encode()).attrs["negative_grades"] == ()
    result = evaluate_run(read_run(NEGATIVE_RUN), qrels, k=10, gain="linear")
    log3 = np.log2(3)
    # q1 ranks A(0) B(1) C(2) D(0): DCG = 1/log2 3 + 2/2; ideal C(2) B(1): 2 + 1/log2 3. A stays judged: 0% unjudged.
    assert result.per_query.loc["q1", "ndcg"] == pytest.approx((1 / log3 + 1) / (2 + 1 / log3), abs=1e-12)
    assert result.per_query.loc["q2", "ndcg"] == pytest.approx(1 / log3, abs=1e-12)
    assert result.unjudged_share == 0


@pytest.mark.oracle
def test_negative_grades_agree_with_pytrec_eval():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    text_qrels, text_run = NEGATIVE_QRELS.decode(), NEGATIVE_RUN.decode()
    reference = pytrec_eval.RelevanceEvaluator(pytrec_eval.parse_qrel(io.StringIO(text_qrels)), {"ndcg_cut.10"}
                                               ).evaluate(pytrec_eval.parse_run(io.StringIO(text_run)))
    result = evaluate_run(read_run(NEGATIVE_RUN), read_qrels(NEGATIVE_QRELS), k=10, gain="linear")
    assert set(reference) == {"q1", "q2"}
    for query, values in reference.items():
        assert result.per_query.loc[query, "ndcg"] == pytest.approx(values["ndcg_cut_10"], abs=1e-12)


def test_reading_must_be_known():
    with pytest.raises(InvalidInput, match="reading must be one of 'ndcg_core', 'trec_eval'"):
        read_qrels(QRELS_TEXT.encode(), reading="pytrec_eval")


@pytest.mark.oracle
@pytest.mark.skipif(not TREC_EVAL.exists(), reason="trec_eval not built (python bench/bench_files.py builds it)")
@pytest.mark.parametrize(("qrels", "run"), [(ATOL_QRELS, ATOL_RUN), (BYTES_QRELS, BYTES_RUN),
                                            (NEGATIVE_QRELS, NEGATIVE_RUN)])
def test_trec_eval_reading_against_the_trec_eval_program(tmp_path, qrels, run):
    (tmp_path / "qrels").write_bytes(qrels)
    (tmp_path / "run").write_bytes(run)
    output = subprocess.run([str(TREC_EVAL), "-q", "-m", "ndcg_cut.10", str(tmp_path / "qrels"), str(tmp_path / "run")],
                            capture_output=True, check=True, text=True).stdout
    printed = float(next(line.split()[2] for line in output.splitlines() if line.split()[1] == "q1"))
    ours = evaluate_run(read_run(run, reading="trec_eval"), read_qrels(qrels, reading="trec_eval"), k=10,
                        gain="linear")
    assert round(ours.per_query.loc["q1", "ndcg"], 4) == printed
    if qrels == NEGATIVE_QRELS:  # the default reading reads a negative grade as trec_eval does
        default = evaluate_run(read_run(run), read_qrels(qrels), k=10, gain="linear")
        assert round(default.per_query.loc["q1", "ndcg"], 4) == printed


def test_readers_record_where_trec_eval_would_read_otherwise():
    qrels = read_qrels(b"q1 0 A 1.5\nq1 0 B 1e1\nq1 0 C 2\nq2 0 D 1.5\nq2 0 E 2.0\n")
    assert qrels.attrs["trec_eval_differences"] == {"relevance": (3, "1.5", 1.5, 1.0)}  # 1.5 twice and 1e1
    assert read_qrels(QRELS_TEXT.encode()).attrs["trec_eval_differences"] == {}
    assert read_qrels(ATOL_QRELS, reading="trec_eval").attrs["trec_eval_differences"] == {}
    assert read_run(BYTES_RUN).attrs["trec_eval_differences"] == {"ids": 1}  # x\xff
    assert read_qrels(BYTES_QRELS).attrs["trec_eval_differences"] == {"ids": 2}
    assert read_run(RUN_TEXT.encode()).attrs["trec_eval_differences"] == {}


# --------------------------------------------------------------------------- whitespace between TREC fields


def _single_spaced_by_regex(data: bytes) -> bytes:
    """The rule spelled as regular expressions: runs of blanks become one space, none at a line's start or end."""
    data = re.sub(rb"[ \t\x0b\x0c]+", b" ", data)
    return re.sub(rb"(?m)^ | $", b"", data)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b" ", b"\t", b"\x0b", b"\x0c", b"\n", b"\r", b"a", b"7", b"\xff"]), max_size=40))
def test_runs_of_blanks_become_one_space_as_the_rule_says(pieces):
    from ndcg_core._parse import single_spaced

    data = b"".join(pieces)
    assert single_spaced(data) == _single_spaced_by_regex(data)


def test_tabs_and_aligned_columns_read_like_single_spaces():
    aligned = b"  q1\tQ0   d1  1\t 0.5  run \n\tq1 Q0 d2\t\t2 0.25 run\t\n"
    plain = b"q1 Q0 d1 1 0.5 run\nq1 Q0 d2 2 0.25 run\n"
    pd.testing.assert_frame_equal(read_run(aligned), read_run(plain))
