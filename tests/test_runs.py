"""evaluate_run and ndcg_curve: hand-derived values, list-level equivalence, oracles."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_core import InvalidInput, RunResult, evaluate, evaluate_run, evaluate_scores, ndcg_curve
from tests.conftest import ranx_evaluate

LOG2_3 = math.log2(3)


def frame(rows, columns):
    return pd.DataFrame(rows, columns=columns)


# q1: B and A are judged, X is not; D is judged but never retrieved.
QRELS = frame(
    [("q1", "A", 3), ("q1", "B", 2), ("q1", "C", 0), ("q1", "D", 1)],
    ["query", "doc", "relevance"],
)
RUN = frame(
    [("q1", "B", 0.9), ("q1", "X", 0.8), ("q1", "A", 0.7), ("q1", "C", 0.6)],
    ["query", "doc", "score"],
)


# --------------------------------------------------------------------------- hand-derived values


def test_linear_gain_with_unjudged_and_unretrieved_documents():
    result = evaluate_run(RUN, QRELS, k=3, gain="linear")
    # Ranking B(2), X(unjudged -> 0), A(3): 2/1 + 0 + 3/log2(4).
    dcg = 2 + 0 + 3 / 2
    # Ideal from all judgments 3, 2, 1 (D included), cut at 3.
    idcg = 3 + 2 / LOG2_3 + 1 / 2
    row = result.per_query.loc["q1"]
    assert row["dcg"] == pytest.approx(dcg, abs=1e-12)
    assert row["idcg"] == pytest.approx(idcg, abs=1e-12)
    assert result.value == pytest.approx(dcg / idcg, abs=1e-12)
    assert row["n_retrieved"] == 4
    assert row["n_judged_retrieved"] == 3
    assert row["n_judged"] == 4
    assert row["n_relevant"] == 3
    assert row["n_unjudged_in_cutoff"] == 1
    assert result.unjudged_share == pytest.approx(1 / 3)
    assert isinstance(result, RunResult)
    assert result.k == 3 and result.gain == "linear" and result.ties == "trec_eval"


def test_exponential_gain_is_the_default():
    result = evaluate_run(RUN, QRELS, k=3)
    dcg = (2**2 - 1) + (2**3 - 1) / 2
    idcg = (2**3 - 1) + (2**2 - 1) / LOG2_3 + (2**1 - 1) / 2
    assert result.value == pytest.approx(dcg / idcg, abs=1e-12)


def test_k_none_uses_every_retrieved_and_every_judged_document():
    result = evaluate_run(RUN, QRELS, gain="linear")
    dcg = 2 + 0 + 3 / 2 + 0 / math.log2(5)
    idcg = 3 + 2 / LOG2_3 + 1 / 2 + 0
    assert result.per_query.loc["q1", "dcg"] == pytest.approx(dcg, abs=1e-12)
    assert result.per_query.loc["q1", "idcg"] == pytest.approx(idcg, abs=1e-12)
    assert result.k is None


def test_k_beyond_the_depth_equals_no_cutoff():
    deep = evaluate_run(RUN, QRELS, k=50, gain="linear")
    whole = evaluate_run(RUN, QRELS, gain="linear")
    assert deep.value == pytest.approx(whole.value, abs=1e-15)
    # 5 judged docs would matter: with k=1 only the first counts.
    first = evaluate_run(RUN, QRELS, k=1, gain="linear")
    assert first.value == pytest.approx(2 / 3, abs=1e-12)


def test_log_base_changes_dcg_but_not_ndcg():
    base2 = evaluate_run(RUN, QRELS, k=3, gain="linear")
    base_e = evaluate_run(RUN, QRELS, k=3, gain="linear", log_base=math.e)
    assert base_e.per_query.loc["q1", "dcg"] == pytest.approx(2 / math.log(2) + 3 / math.log(4), abs=1e-12)
    assert base_e.value == pytest.approx(base2.value, abs=1e-12)


def test_rank_column_orders_like_scores():
    by_rank = RUN.drop(columns="score").assign(rank=[1, 2, 3, 4])
    assert evaluate_run(by_rank, QRELS, k=3).value == pytest.approx(evaluate_run(RUN, QRELS, k=3).value, abs=1e-15)
    reversed_ranks = RUN.drop(columns="score").assign(rank=[4, 3, 2, 1])  # C, A, X, B
    expected = (0 + 3 / LOG2_3 + 0 + 2 / math.log2(5)) / (3 + 2 / LOG2_3 + 1 / 2 + 0)
    assert evaluate_run(reversed_ranks, QRELS, gain="linear").value == pytest.approx(expected, abs=1e-12)


def test_score_is_used_when_both_score_and_rank_exist():
    both = RUN.assign(rank=[4, 3, 2, 1])  # ranks disagree with the scores; trec_eval ignores ranks
    assert evaluate_run(both, QRELS, k=3).value == pytest.approx(evaluate_run(RUN, QRELS, k=3).value, abs=1e-15)


def test_relevance_column_when_qrels_is_none():
    table = frame(
        [("q1", "B", 0.9, 2), ("q1", "X", 0.8, np.nan), ("q1", "A", 0.7, 3)],
        ["query", "doc", "score", "relevance"],
    )
    result = evaluate_run(table, k=3, gain="linear")
    # Judgments are the run's own grades (no D): ideal 3, 2.
    assert result.value == pytest.approx((2 + 3 / 2) / (3 + 2 / LOG2_3), abs=1e-12)
    assert result.per_query.loc["q1", "n_unjudged_in_cutoff"] == 1  # empty relevance = not judged


def test_rows_without_score_are_judgments_only_when_qrels_is_none():
    table = frame(
        [("q1", "B", 0.9, 2), ("q1", "X", 0.8, np.nan), ("q1", "A", 0.7, 3), ("q1", "D", np.nan, 1)],
        ["query", "doc", "score", "relevance"],
    )
    result = evaluate_run(table, k=3, gain="linear")
    # D was not retrieved but is judged: ideal 3, 2, 1; ranking B(2), X(unjudged), A(3).
    assert result.value == pytest.approx((2 + 3 / 2) / (3 + 2 / LOG2_3 + 1 / 2), abs=1e-12)
    with pytest.raises(InvalidInput, match=r"row 2 .*neither a score nor a relevance"):
        evaluate_run(table.assign(relevance=[2, np.nan, 3, 1], score=[0.9, np.nan, 0.7, np.nan]))
    with pytest.raises(InvalidInput, match=r"The run row 4: query 'q1' judges document 'B' a second time"):
        evaluate_run(table.assign(doc=["B", "X", "A", "B"]))


TIES_RUN = frame([("q2", "d1", 1.0), ("q2", "d2", 1.0), ("q2", "d3", 1.0)], ["query", "doc", "score"])
TIES_QRELS = frame([("q2", "d1", 1), ("q2", "d3", 2)], ["query", "doc", "relevance"])
TIES_IDCG = 2 + 1 / LOG2_3


@pytest.mark.parametrize(
    ("ties", "dcg"),
    [
        ("trec_eval", 2 + 0 + 1 / 2),  # doc id descending: d3, d2, d1
        ("average", 1 + 1 / LOG2_3 + 1 / 2),  # every position gets the mean gain (1 + 0 + 2) / 3
        ("optimistic", 2 + 1 / LOG2_3 + 0),  # d3, d1, d2
        ("pessimistic", 0 + 1 / LOG2_3 + 2 / 2),  # d2, d1, d3
        ("stable", 1 + 0 + 2 / 2),  # row order d1, d2, d3
    ],
)
def test_tie_rules(ties, dcg):
    result = evaluate_run(TIES_RUN, TIES_QRELS, ties=ties, gain="linear")
    assert result.per_query.loc["q2", "dcg"] == pytest.approx(dcg, abs=1e-12)
    assert result.value == pytest.approx(dcg / TIES_IDCG, abs=1e-12)


def test_trec_eval_tie_break_uses_byte_order_of_ids():
    run = frame([("q", "B", 1.0), ("q", "a", 1.0), ("q", "b", 1.0)], ["query", "doc", "score"])
    qrels = frame([("q", "a", 1), ("q", "b", 2), ("q", "B", 3)], ["query", "doc", "relevance"])
    # Descending byte order: "b" > "a" > "B" (upper case sorts first in ASCII).
    result = evaluate_run(run, qrels, k=1, gain="linear")
    assert result.per_query.loc["q", "dcg"] == pytest.approx(2.0)


MULTI_RUN = frame(
    [("q1", "B", 0.9), ("q1", "X", 0.8), ("q1", "A", 0.7), ("q1", "C", 0.6),
     ("q4", "Z", 0.5),  # q4 has no judgments at all
     ("q5", "E", 0.4)],  # q5 is judged, but only with grade 0
    ["query", "doc", "score"],
)
MULTI_QRELS = pd.concat(
    [QRELS, frame([("q3", "F", 2), ("q5", "E", 0)], ["query", "doc", "relevance"])], ignore_index=True
)
Q1_DCG3 = 2 + 3 / 2
Q1_IDCG3 = 3 + 2 / LOG2_3 + 1 / 2


def test_unjudged_and_missing_queries_are_reported():
    result = evaluate_run(MULTI_RUN, MULTI_QRELS, k=3, gain="linear")
    assert result.unjudged_queries == ("q4",)
    assert result.missing_queries == ("q3",)
    assert result.zero_idcg_queries == ("q5",)
    # plain str, as documented (tuple[str, ...]): numpy's str_ printed them "(np.str_('q4'),)" in the result's repr
    assert "np.str_" not in repr(result)
    assert {type(name) for name in (*result.unjudged_queries, *result.missing_queries,
                                    *result.zero_idcg_queries)} == {str}
    assert list(result.per_query.index) == ["q1", "q5"]
    assert result.mean_ndcg == pytest.approx((Q1_DCG3 / Q1_IDCG3 + 0) / 2, abs=1e-12)
    assert result.ratio_of_sums == pytest.approx(Q1_DCG3 / Q1_IDCG3, abs=1e-12)


def test_missing_zero_counts_absent_judged_queries():
    result = evaluate_run(MULTI_RUN, MULTI_QRELS, k=3, gain="linear", missing="zero")
    assert list(result.per_query.index) == ["q1", "q3", "q5"]
    assert result.per_query.loc["q3", "idcg"] == pytest.approx(2.0)
    assert result.per_query.loc["q3", "ndcg"] == 0.0
    assert result.per_query.loc["q3", "n_retrieved"] == 0
    assert result.mean_ndcg == pytest.approx(Q1_DCG3 / Q1_IDCG3 / 3, abs=1e-12)
    # Its IDCG joins the denominator of the ratio of sums.
    assert result.ratio_of_sums == pytest.approx(Q1_DCG3 / (Q1_IDCG3 + 2), abs=1e-12)


def test_aggregate_selects_the_value():
    mean = evaluate_run(MULTI_RUN, MULTI_QRELS, k=3, gain="linear", aggregate="mean")
    ratio = evaluate_run(MULTI_RUN, MULTI_QRELS, k=3, gain="linear", aggregate="ratio_of_sums")
    assert mean.value == mean.mean_ndcg
    assert ratio.value == ratio.ratio_of_sums
    assert mean.value != pytest.approx(ratio.value)


@pytest.mark.parametrize(("rule", "q5", "mean"), [
    ("zero", 0.0, (Q1_DCG3 / Q1_IDCG3 + 0) / 2),
    ("one", 1.0, (Q1_DCG3 / Q1_IDCG3 + 1) / 2),
    ("skip", np.nan, Q1_DCG3 / Q1_IDCG3),
])
def test_zero_idcg_rules(rule, q5, mean):
    result = evaluate_run(MULTI_RUN, MULTI_QRELS, k=3, gain="linear", zero_idcg=rule)
    assert result.per_query.loc["q5", "ndcg"] == pytest.approx(q5, nan_ok=True)
    assert result.mean_ndcg == pytest.approx(mean, abs=1e-12)
    assert result.ratio_of_sums == pytest.approx(Q1_DCG3 / Q1_IDCG3, abs=1e-12)


def test_zero_idcg_error_names_the_query():
    with pytest.raises(InvalidInput, match="IDCG is 0 for query 'q5': "):
        evaluate_run(MULTI_RUN, MULTI_QRELS, k=3, zero_idcg="error")
    two = pd.DataFrame({"query": ["a", "b"], "doc": ["x", "y"], "score": [1.0, 1.0]})
    judged = pd.DataFrame({"query": ["a", "b"], "doc": ["x", "y"], "relevance": [0, 0]})
    with pytest.raises(InvalidInput, match="IDCG is 0 for queries 'a', 'b': "):  # said "for query 'a', 'b'"
        evaluate_run(two, judged, zero_idcg="error")


def test_all_skipped_gives_nan():
    run = frame([("q", "a", 1.0)], ["query", "doc", "score"])
    qrels = frame([("q", "a", 0)], ["query", "doc", "relevance"])
    result = evaluate_run(run, qrels, zero_idcg="skip")
    assert math.isnan(result.value) and math.isnan(result.ratio_of_sums)


def test_gain_table():
    result = evaluate_run(RUN, QRELS, k=3, gain={0: 0, 1: 1, 2: 5, 3: 10})
    dcg = 5 + 10 / 2
    idcg = 10 + 5 / LOG2_3 + 1 / 2
    assert result.value == pytest.approx(dcg / idcg, abs=1e-12)


def test_integer_ids_are_compared_as_text():
    run = frame([(1, 10, 0.5), (1, 11, 0.4)], ["query", "doc", "score"])
    qrels = frame([("1", "11", 1)], ["query", "doc", "relevance"])
    result = evaluate_run(run, qrels, gain="linear")
    assert result.per_query.loc["1", "dcg"] == pytest.approx(1 / LOG2_3)


@pytest.mark.parametrize("which", ["qrels", "run"])
def test_whole_number_decimal_ids_match_integer_ids(which):
    """Integer ids that pandas made decimal (a column that once held a missing cell, JSON, a spreadsheet) still
    match the other frame's integers: as text "11.0" never equalled "11", and every retrieved document counted as
    unjudged, NDCG 0 without a word. Hand figures: doc 11 (grade 1) at rank 2 and doc 12 (grade 2) unretrieved:
    DCG = 1/log2(3), IDCG = 2 + 1/log2(3)."""
    run = frame([(1, 10, 0.5), (1, 11, 0.4), (2, 20, 0.9)], ["query", "doc", "score"])
    qrels = frame([(1, 11, 1), (1, 12, 2), (2, 20, 3)], ["query", "doc", "relevance"])
    if which == "qrels":
        qrels = qrels.astype({"query": float, "doc": float})
    else:
        run = run.astype({"query": float, "doc": float})
    result = evaluate_run(run, qrels, gain="linear")
    assert list(result.per_query.index) == ["1", "2"]
    assert result.per_query.loc["1", "dcg"] == pytest.approx(1 / LOG2_3, abs=1e-15)
    assert result.per_query.loc["1", "idcg"] == pytest.approx(2 + 1 / LOG2_3, abs=1e-15)
    assert result.per_query.loc["2", "ndcg"] == 1.0
    # Decimals that are not whole numbers stay text, as trec_eval reads ids: 11.5 is not 11.
    halves = frame([(1, 11.5, 1)], ["query", "doc", "relevance"])
    assert evaluate_run(run.astype({"doc": float}), halves, gain="linear").per_query.loc["1", "dcg"] == 0.0


@pytest.mark.parametrize("other", ["int64", "str", "category", "object"])
@pytest.mark.parametrize("column", ["doc", "query"])
def test_integer_ids_in_an_object_column_match_the_other_frames_ids(column, other):
    """Integer ids held in an object column (``pd.concat`` of frames whose ids differ in type, ``df.T.T``, rows
    built from records with a missing value) were kept as Python ints and compared with the other frame's ids as
    text: 10 never equalled "10", so with object doc ids every retrieved document counted as unjudged and the run
    scored NDCG 0.0 without a word (the same ids as int64: 0.8155); with object query ids no query matched. Hand
    figures, linear gain: query 1 ranks doc 10 (grade 0) above doc 11 (grade 1): (1/log2 3) / 1; query 2 ranks doc
    10 (grade 2) first: 1."""
    run = frame([(1, 10, 2.0), (1, 11, 1.0), (2, 10, 1.0)], ["query", "doc", "score"])
    qrels = frame([(1, 10, 0), (1, 11, 1), (2, 10, 2)], ["query", "doc", "relevance"])
    kinds = {"int64": "int64", "str": str, "category": "category", "object": object}
    object_run = run.astype({column: object}), qrels.astype({column: str if other == "category" else kinds[other]})
    object_qrels = run.astype({column: str if other == "category" else kinds[other]}), qrels.astype({column: object})
    for first, second in (object_run, object_qrels):
        if other == "category":  # as the file readers give them
            first, second = (frame_.astype({column: "category"}) if frame_[column].dtype != object else frame_
                             for frame_ in (first, second))
        result = evaluate_run(first, second, gain="linear")
        assert list(result.per_query.index) == ["1", "2"]
        assert result.per_query["ndcg"].tolist() == pytest.approx([1 / LOG2_3, 1.0], abs=1e-15)
        assert result.unjudged_share == 0.0


@pytest.mark.parametrize("ids", [[10.0, 11.0, 10.0], [10, 11.0, 10]], ids=["decimals", "mixed"])
def test_whole_number_ids_in_an_object_column_match_integer_ids(ids):
    """Doc ids 10.0, 11.0 held in an object column (concatenated frames, a column built cell by cell) against int64
    qrels: every document counted as unjudged and NDCG was 0.0 without a word, where the same ids in a float64
    column match (test_whole_number_decimal_ids_match_integer_ids). Hand figures as in
    test_integer_ids_in_an_object_column_match_the_other_frames_ids."""
    run = frame([(1, 10, 2.0), (1, 11, 1.0), (2, 10, 1.0)], ["query", "doc", "score"])
    run["doc"] = pd.Series(ids, dtype=object)
    qrels = frame([(1, 10, 0), (1, 11, 1), (2, 10, 2)], ["query", "doc", "relevance"])
    result = evaluate_run(run, qrels, gain="linear")
    assert result.per_query["ndcg"].tolist() == pytest.approx([1 / LOG2_3, 1.0], abs=1e-15)
    assert result.unjudged_share == 0.0


@pytest.mark.parametrize("empty", [None, np.nan, pd.NA])
@pytest.mark.parametrize("column", ["doc", "query"])
def test_an_empty_id_in_an_object_column_is_named(column, empty):
    """pd.NA in an object query column of the run raised numpy's "TypeError: boolean value of NA is ambiguous"
    instead of naming the row (the qrels' same cell was named)."""
    run = frame([("q1", "a", 2.0), ("q1", "b", 1.0)], ["query", "doc", "score"]).astype({column: object})
    run.loc[1, column] = empty
    qrels = frame([("q1", "a", 1)], ["query", "doc", "relevance"])
    with pytest.raises(InvalidInput, match=f"The run row 2: the {column} id is empty"):
        evaluate_run(run, qrels)


# --------------------------------------------------------------------------- refused inputs


@pytest.mark.parametrize(
    ("run", "qrels", "message"),
    [
        ("not a frame", QRELS, "DataFrame"),
        (RUN.drop(columns="score"), QRELS, "score column"),
        (RUN.drop(columns="doc"), QRELS, "doc"),
        (RUN.iloc[:0], QRELS, "empty"),
        (RUN, QRELS.drop(columns="relevance"), "relevance"),
        (RUN, None, "relevance"),
        (pd.concat([RUN, RUN.iloc[[2]]]), QRELS, r"row 5.*'A' a second time"),
        (RUN, pd.concat([QRELS, QRELS.iloc[[1]]]), r"qrels row 5.*'B' a second time"),
        (RUN.assign(score=[0.9, "high", 0.7, 0.6]), QRELS, r"row 2 .*'high' is not a number"),
        (RUN.assign(score=[0.9, np.nan, 0.7, 0.6]), QRELS, r"row 2 .*score is empty"),
        (RUN.assign(score=[0.9, np.inf, 0.7, 0.6]), QRELS, r"row 2 .*infinite"),
        (RUN, QRELS.assign(relevance=[3, -1, 0, 1]), r"row 2 .*negative"),
        (RUN, QRELS.assign(relevance=[3, np.nan, 0, 1]), r"row 2 .*empty"),
        (RUN.assign(query=["q1", None, "q1", "q1"]), QRELS, r"row 2: the query id is empty"),
        (RUN.assign(query="other"), QRELS, "No query of the run has any judgment"),
    ],
)
def test_refused_inputs(run, qrels, message):
    with pytest.raises(InvalidInput, match=message):
        evaluate_run(run, qrels)


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ({"k": 0}, "positive whole number"),
        ({"k": 2.5}, "positive whole number"),
        ({"gain": "quadratic"}, "Unknown gain"),
        ({"log_base": 1}, "greater than 1"),
        ({"aggregate": "median"}, "Unknown aggregate"),
        ({"zero_idcg": "nan"}, "Unknown zero_idcg rule"),
        ({"missing": "drop"}, "Unknown missing-query rule"),
        ({"ties": "random"}, "Unknown tie rule"),
        ({"gain": {0: 0, 1: 1}}, "missing from the gain table"),
    ],
)
def test_refused_options(option, message):
    with pytest.raises(InvalidInput, match=message):
        evaluate_run(RUN, QRELS, **option)


def test_exponential_overflow_is_refused():
    with pytest.raises(InvalidInput, match="overflows"):
        evaluate_run(RUN, QRELS.assign(relevance=[3, 2000, 0, 1]))


# --------------------------------------------------------------------------- ndcg_curve


def test_curve_equals_evaluate_run_at_each_k():
    curve = ndcg_curve(MULTI_RUN, MULTI_QRELS, ks=range(1, 8), gain="linear", missing="zero")
    assert list(curve.columns) == ["k", "mean_ndcg", "ratio_of_sums", "n_queries"]
    assert list(curve["k"]) == list(range(1, 8))
    for row in curve.itertuples():
        single = evaluate_run(MULTI_RUN, MULTI_QRELS, k=row.k, gain="linear", missing="zero")
        assert row.mean_ndcg == pytest.approx(single.mean_ndcg, abs=1e-12)
        assert row.ratio_of_sums == pytest.approx(single.ratio_of_sums, abs=1e-12)
        assert row.n_queries == 3


def test_curve_handles_average_ties_and_skip():
    curve = ndcg_curve(TIES_RUN, TIES_QRELS, ks=[3, 1], ties="average", gain="linear", zero_idcg="skip")
    assert list(curve["k"]) == [1, 3]
    assert curve["mean_ndcg"].iloc[1] == pytest.approx((1 + 1 / LOG2_3 + 1 / 2) / TIES_IDCG, abs=1e-12)
    assert curve["mean_ndcg"].iloc[0] == pytest.approx(1 / 2, abs=1e-12)  # mean gain 1 over ideal 2


def test_the_curves_query_count_is_said_to_leave_out_skipped_queries():
    """ndcg_curve's docstring said each row "equals evaluate_run(..., k=k)", but under zero_idcg="skip" its
    n_queries counts the queries in the mean (58 on the bundled neural run) where RunResult.n_queries counts every
    evaluated query (60). The figures are equal; the docstring now says what n_queries counts."""
    curve = ndcg_curve(MULTI_RUN, MULTI_QRELS, ks=[1, 3], gain="linear", zero_idcg="skip")
    single = evaluate_run(MULTI_RUN, MULTI_QRELS, k=3, gain="linear", zero_idcg="skip")
    assert single.n_queries == 2 and single.zero_idcg_queries == ("q5",)
    assert curve["n_queries"].tolist() == [1, 1] == [int(single.per_query["ndcg"].notna().sum())] * 2
    assert "RunResult.n_queries" in ndcg_curve.__doc__ and "skip" in ndcg_curve.__doc__


@pytest.mark.parametrize("ks", [[], [0, 3], "abc", None])
def test_curve_refuses_bad_cutoffs(ks):
    with pytest.raises(InvalidInput):
        ndcg_curve(RUN, QRELS, ks=ks)


def test_curve_refuses_zero_idcg_with_error_rule():
    with pytest.raises(InvalidInput, match="q5"):
        ndcg_curve(MULTI_RUN, MULTI_QRELS, ks=[1, 2], zero_idcg="error")


# --------------------------------------------------------------------------- random runs


def random_run(seed: int, *, n_queries: int = 6, pool: int = 25, tie_levels: int | None = 4):
    """A random run and qrels: unjudged retrieved docs, unretrieved judged docs, ties."""
    rng = np.random.default_rng(seed)
    run_rows, qrels_rows = [], []
    for q in range(n_queries):
        retrieved = rng.choice(pool, size=rng.integers(1, 16), replace=False)
        if tie_levels is None:
            scores = rng.permutation(retrieved.size) + rng.random()
        else:
            scores = rng.integers(0, tie_levels, retrieved.size).astype(float)
        run_rows += [(f"q{q}", f"d{d}", float(s)) for d, s in zip(retrieved, scores, strict=True)]
        judged = rng.choice(pool, size=rng.integers(0, 12), replace=False)
        qrels_rows += [(f"q{q}", f"d{d}", int(rng.integers(0, 4))) for d in judged]
    qrels_rows.append(("q_missing", "d0", 2))
    return (frame(run_rows, ["query", "doc", "score"]), frame(qrels_rows, ["query", "doc", "relevance"]))


def per_query_lists(run, qrels, query):
    rows = run[run["query"] == query]
    judged = qrels[qrels["query"] == query]
    grade_of = dict(zip(judged["doc"], judged["relevance"], strict=True))
    grades = [grade_of.get(doc, 0) for doc in rows["doc"]]
    return grades, rows["score"].to_numpy(), list(judged["relevance"]), list(rows["doc"])


@pytest.mark.parametrize("ties", ["average", "optimistic", "pessimistic", "stable"])
@pytest.mark.parametrize("k", [None, 1, 3, 10])
@pytest.mark.parametrize("seed", range(4))
def test_equals_evaluate_scores_per_query(ties, k, seed):
    run, qrels = random_run(seed)
    result = evaluate_run(run, qrels, k=k, ties=ties)
    assert len(result.per_query) > 0
    for query, row in result.per_query.iterrows():
        grades, scores, ideal, _ = per_query_lists(run, qrels, query)
        # Runs: k=None means no cutoff on the ideal either, i.e. a k covering every judgment.
        depth = k if k is not None else len(grades) + len(ideal)
        expected = evaluate_scores(grades, scores, ties=ties, k=depth, ideal_relevances=ideal)
        assert row["dcg"] == pytest.approx(expected.dcg, abs=1e-12)
        assert row["idcg"] == pytest.approx(expected.idcg, abs=1e-12)
        assert row["ndcg"] == pytest.approx(expected.ndcg, abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_trec_eval_ties_equal_evaluate_in_doc_descending_order(seed):
    run, qrels = random_run(seed)
    result = evaluate_run(run, qrels, k=5, gain="exponential")
    for query, row in result.per_query.iterrows():
        grades, scores, ideal, docs = per_query_lists(run, qrels, query)
        # trec_eval's rule: score descending, then doc id descending by its bytes (strcmp), so "d19" before "d1".
        by_doc = sorted(range(len(docs)), key=lambda i: docs[i].encode(), reverse=True)
        order = sorted(by_doc, key=lambda i: -scores[i])
        expected = evaluate([grades[i] for i in order], k=5, ideal_relevances=ideal)
        assert row["ndcg"] == pytest.approx(expected.ndcg, abs=1e-12)


def test_trec_eval_ties_put_a_longer_id_before_its_prefix():
    # "d19" > "d1" byte-wise, so the tied d19 (grade 3) ranks first: DCG = IDCG = 2**3 - 1 = 7, NDCG 1.
    # The other way round it would be 7 / log2(3) = 0.6309.
    run = frame([("q", "d1", 1.0), ("q", "d19", 1.0)], ["query", "doc", "score"])
    qrels = frame([("q", "d1", 0), ("q", "d19", 3)], ["query", "doc", "relevance"])
    row = evaluate_run(run, qrels, gain="exponential").per_query.loc["q"]
    assert row["dcg"] == pytest.approx(7.0, abs=1e-12)
    assert row["idcg"] == pytest.approx(7.0, abs=1e-12)
    assert row["ndcg"] == pytest.approx(1.0, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(
    data=st.lists(
        st.tuples(st.integers(0, 2), st.integers(0, 7), st.integers(0, 3), st.integers(0, 3)),
        min_size=1, max_size=25, unique_by=lambda t: (t[0], t[1]),
    ),
    extra=st.lists(st.tuples(st.integers(0, 2), st.integers(8, 10), st.integers(0, 3)), max_size=6,
                   unique_by=lambda t: (t[0], t[1])),
    k=st.one_of(st.none(), st.integers(1, 12)),
    ties=st.sampled_from(["average", "optimistic", "pessimistic", "stable"]),
    gain=st.sampled_from(["linear", "exponential"]),
)
def test_property_per_query_equals_list_evaluation(data, extra, k, ties, gain):
    run = frame([(f"q{q}", f"d{d}", float(s)) for q, d, s, _ in data], ["query", "doc", "score"])
    # Judge the retrieved docs with grade g (grade 0 entries stay unjudged half the time), plus extras.
    judged = [(f"q{q}", f"d{d}", g) for q, d, _, g in data if g > 0 or d % 2 == 0]
    judged += [(f"q{q}", f"d{d}", g) for q, d, g in extra]
    if not judged:
        return
    qrels = frame(judged, ["query", "doc", "relevance"])
    if not set(run["query"]) & set(qrels["query"]):
        with pytest.raises(InvalidInput, match="No query of the run has any judgment"):
            evaluate_run(run, qrels, k=k, ties=ties, gain=gain)
        return
    result = evaluate_run(run, qrels, k=k, ties=ties, gain=gain)
    for query, row in result.per_query.iterrows():
        grades, scores, ideal, _ = per_query_lists(run, qrels, query)
        depth = k if k is not None else len(grades) + len(ideal)
        expected = evaluate_scores(grades, scores, ties=ties, k=depth, ideal_relevances=ideal, gain=gain)
        assert row["ndcg"] == pytest.approx(expected.ndcg, abs=1e-12)
        assert row["dcg"] == pytest.approx(expected.dcg, abs=1e-12)


# --------------------------------------------------------------------------- oracles


def as_dicts(run, qrels):
    run_dict, qrels_dict = {}, {}
    for query, doc, score in run[["query", "doc", "score"]].itertuples(index=False):
        run_dict.setdefault(query, {})[doc] = float(score)
    for query, doc, grade in qrels[["query", "doc", "relevance"]].itertuples(index=False):
        qrels_dict.setdefault(query, {})[doc] = int(grade)
    return run_dict, qrels_dict


@pytest.mark.oracle
@pytest.mark.parametrize("ranked", [False, True])
@pytest.mark.parametrize("seed", range(12))
def test_oracle_pytrec_eval_ndcg_cut(seed, ranked):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    run, qrels = random_run(seed, n_queries=8)  # many score ties: trec_eval breaks them by doc id
    if ranked:  # as in a TREC run file: grouped by query, best score first (the no-sort fast path)
        run = run.sort_values(["query", "score"], ascending=[True, False], ignore_index=True)
    run_dict, qrels_dict = as_dicts(run, qrels)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels_dict, {"ndcg_cut.1,3,5,10", "ndcg"})
    reference = evaluator.evaluate(run_dict)
    for k, measure in [(1, "ndcg_cut_1"), (3, "ndcg_cut_3"), (5, "ndcg_cut_5"), (10, "ndcg_cut_10"), (None, "ndcg")]:
        result = evaluate_run(run, qrels, k=k, gain="linear", ties="trec_eval")
        expected = {query: values[measure] for query, values in reference.items()}
        got = result.per_query["ndcg"].to_dict()
        assert set(got) == set(expected)
        for query, value in expected.items():
            assert got[query] == pytest.approx(value, abs=1e-12), (k, query)
        assert result.mean_ndcg == pytest.approx(np.mean(list(expected.values())), abs=1e-12)


@pytest.mark.oracle
@pytest.mark.parametrize("seed", range(6))
def test_oracle_ranx(seed):
    run, qrels = random_run(seed, n_queries=8, tie_levels=None)  # ranx's tie order is its own: no ties here
    run_dict, qrels_dict = as_dicts(run, qrels)
    # ranx needs the same queries on both sides: keep judged queries that the run retrieved for.
    common = sorted(set(run_dict) & set(qrels_dict))
    ranx_qrels = {q: qrels_dict[q] for q in common}
    ranx_run = {q: run_dict[q] for q in common}
    for metric, gain in [("ndcg", "linear"), ("ndcg_burges", "exponential")]:
        for k in (3, 10):
            expected = ranx_evaluate(ranx_qrels, ranx_run, f"{metric}@{k}", return_mean=False)
            result = evaluate_run(run, qrels, k=k, gain=gain)
            got = result.per_query["ndcg"].reindex(common).to_numpy()
            np.testing.assert_allclose(got, np.asarray(expected, dtype=float), rtol=0, atol=1e-12)


@pytest.mark.parametrize("shuffle", [False, True])
def test_block_wise_id_encoding_matches_one_block(monkeypatch, shuffle):
    """Document ids are encoded in blocks of whole queries; tiny blocks must give the same result."""
    import ndcg_core._encode as runs_module

    run, qrels = random_run(11, n_queries=30)
    if shuffle:  # rows not grouped by query
        run = run.sample(frac=1, random_state=3).reset_index(drop=True)
    expected = evaluate_run(run, qrels, k=5, missing="zero")
    monkeypatch.setattr(runs_module, "_BLOCK_ROWS", 7)
    small_blocks = evaluate_run(run, qrels, k=5, missing="zero")
    pd.testing.assert_frame_equal(small_blocks.per_query, expected.per_query)
    with pytest.raises(InvalidInput, match="a second time"):
        evaluate_run(pd.concat([run, run.iloc[[len(run) // 2]]], ignore_index=True), qrels)
    with pytest.raises(InvalidInput, match="qrels row .* a second time"):
        evaluate_run(run, pd.concat([qrels, qrels.iloc[[len(qrels) // 2]]], ignore_index=True))


def test_block_wise_sorting_matches_one_sort(monkeypatch):
    """Rows grouped by query are sorted in blocks of whole queries; tiny blocks must give the same result."""
    import ndcg_core._ties as runs_module

    run, qrels = random_run(5, n_queries=40)  # grouped by query, scores in random order, many ties
    expected = {ties: evaluate_run(run, qrels, k=4, ties=ties).per_query for ties in ("trec_eval", "average")}
    monkeypatch.setattr(runs_module, "_SORT_BLOCK_ROWS", 5)
    for ties, per_query in expected.items():
        pd.testing.assert_frame_equal(evaluate_run(run, qrels, k=4, ties=ties).per_query, per_query)


def test_index_dtypes_and_ignored_columns_do_not_matter():
    expected = evaluate_run(RUN, QRELS, k=3).value
    odd_index = RUN.set_index(pd.Index([10, 3, 7, 1]))
    categorical = RUN.astype({"query": "category", "doc": "category"})
    as_object = RUN.astype({"query": object, "doc": object})
    with_relevance = RUN.assign(relevance=[0, 0, 0, 0])  # ignored when qrels are given
    for variant in (odd_index, categorical, as_object, with_relevance):
        assert evaluate_run(variant, QRELS, k=3).value == pytest.approx(expected, abs=1e-15)
    with pytest.raises(InvalidInput, match="row 2 "):  # positions, not index labels
        evaluate_run(odd_index.assign(score=[0.9, "x", 0.7, 0.6]), QRELS)


# --------------------------------------------------------------------------- categorical ids


def as_categorical(frame: pd.DataFrame, *, reverse: bool = False, unused: tuple[str, ...] = ()) -> pd.DataFrame:
    """The frame with query/doc as Categorical; categories reversed and padded with unused ids on request."""
    columns = {}
    for column in ("query", "doc"):
        categories = sorted(set(frame[column]) | set(unused), reverse=reverse)
        columns[column] = pd.Categorical(frame[column], categories=categories)
    return frame.assign(**columns)


@pytest.mark.parametrize("ties", ["trec_eval", "average", "optimistic", "pessimistic", "stable"])
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("order", ["grouped", "ranked", "shuffled"])
def test_categorical_ids_equal_text_ids(ties, seed, order):
    run, qrels = random_run(seed, n_queries=12)
    if order == "ranked":
        run = run.sort_values(["query", "score"], ascending=[False, False], ignore_index=True)
    elif order == "shuffled":
        run = run.sample(frac=1, random_state=seed).reset_index(drop=True)
    expected = evaluate_run(run, qrels, k=5, ties=ties, missing="zero")
    variants = [
        (as_categorical(run), as_categorical(qrels)),
        # Different category orders and unused categories on each side: the categories must be matched.
        (as_categorical(run, reverse=True, unused=("zz", "q_only_category")), as_categorical(qrels, unused=("d999",))),
        (as_categorical(run), qrels),  # only one side categorical
        (run, as_categorical(qrels, reverse=True)),
    ]
    for run_variant, qrels_variant in variants:
        for _ in range(2):  # the second call reuses the kept category match
            result = evaluate_run(run_variant, qrels_variant, k=5, ties=ties, missing="zero")
            pd.testing.assert_frame_equal(result.per_query, expected.per_query)
            assert result.missing_queries == expected.missing_queries
            assert result.unjudged_queries == expected.unjudged_queries
            assert result.value == expected.value


def test_categorical_run_and_qrels_with_disjoint_documents_and_queries():
    run = as_categorical(frame([("q1", "A", 2.0), ("q1", "B", 1.0), ("q9", "Z", 1.0)], ["query", "doc", "score"]))
    qrels = as_categorical(frame([("q1", "C", 2), ("q1", "B", 1), ("q5", "A", 3)], ["query", "doc", "relevance"]))
    result = evaluate_run(run, qrels, gain="linear", missing="zero")
    # q1: A unjudged (0), B grade 1 at rank 2; ideal 2, 1.
    assert result.per_query.loc["q1", "dcg"] == pytest.approx(1 / LOG2_3, abs=1e-15)
    assert result.per_query.loc["q1", "idcg"] == pytest.approx(2 + 1 / LOG2_3, abs=1e-15)
    assert result.per_query.loc["q5", "dcg"] == 0  # judged, never retrieved (A is retrieved for q1 only)
    assert result.unjudged_queries == ("q9",)
    assert result.missing_queries == ("q5",)


def test_categorical_table_without_qrels_equals_text_table():
    table = frame(
        [("q1", "A", 3.0, 0.9), ("q1", "B", np.nan, 0.8), ("q1", "C", 1.0, np.nan), ("q2", "A", 2.0, 0.5)],
        ["query", "doc", "relevance", "score"],
    )
    expected = evaluate_run(table, k=2)
    result = evaluate_run(as_categorical(table, unused=("x",)), k=2)
    pd.testing.assert_frame_equal(result.per_query, expected.per_query)


def test_categorical_repeated_pairs_and_empty_ids_are_refused():
    doubled = as_categorical(frame([("q1", "A", 1.0), ("q1", "B", 0.5), ("q1", "A", 0.2)], ["query", "doc", "score"]))
    with pytest.raises(InvalidInput, match="run row 3: query 'q1' retrieves document 'A' a second time"):
        evaluate_run(doubled, QRELS)
    judged_twice = as_categorical(pd.concat([QRELS, QRELS.iloc[[1]]], ignore_index=True))
    with pytest.raises(InvalidInput, match="qrels row 5: .* 'B' a second time"):
        evaluate_run(as_categorical(RUN), judged_twice)
    with pytest.raises(InvalidInput, match="row 2: the doc id is empty"):
        evaluate_run(RUN.assign(doc=pd.Categorical(["B", None, "A", "C"])), QRELS)


def test_non_text_categories_are_compared_as_text():
    run = frame([("q1", 7, 0.9), ("q1", 8, 0.5)], ["query", "doc", "score"]).astype({"doc": "category"})
    qrels = frame([("q1", "7", 2), ("q1", "9", 1)], ["query", "doc", "relevance"])
    result = evaluate_run(run, qrels, gain="linear")
    assert result.per_query.loc["q1", "dcg"] == pytest.approx(2.0, abs=1e-15)
    # 7 and "7" are different categories but the same id as text: a repeated pair.
    clash = frame([("q1", 7, 0.9), ("q1", "7", 0.5)], ["query", "doc", "score"]).astype({"doc": "category"})
    with pytest.raises(InvalidInput, match="a second time"):
        evaluate_run(clash, qrels)


def test_changing_a_categorical_value_in_place_is_seen():
    """The kept category match belongs to the categories, never to the rows."""
    run, qrels = as_categorical(RUN, unused=("D",)), as_categorical(QRELS)
    before = evaluate_run(run, qrels, k=3, gain="linear").value
    run.loc[1, "doc"] = "D"  # X (unjudged) becomes D (grade 1), an existing category
    after = evaluate_run(run, qrels, k=3, gain="linear")
    assert after.per_query.loc["q1", "dcg"] == pytest.approx(2 + 1 / LOG2_3 + 3 / 2, abs=1e-12)
    assert after.value > before


@pytest.mark.parametrize("grades", ["fractional", "many_levels", "sparse_integers"])
@pytest.mark.parametrize("k", [None, 3])
def test_ideal_lists_for_any_kind_of_grade(grades, k):
    """The ideal lists are built by counting grades; fractional or many distinct grades must agree too."""
    run, qrels = random_run(21, n_queries=40, pool=30)
    rng = np.random.default_rng(4)
    values = {
        "fractional": rng.choice([0.0, 0.5, 1.25, 2.75], size=len(qrels)),
        "many_levels": rng.random(len(qrels)) * 3,  # nearly every grade distinct: the sorting fallback
        "sparse_integers": rng.choice([0, 7, 1000], size=len(qrels)).astype(float),
    }[grades]
    qrels = qrels.assign(relevance=values)
    result = evaluate_run(run, qrels, k=k, gain="linear", ties="stable")
    for query, row in result.per_query.iterrows():
        ranking, scores, ideal, _ = per_query_lists(run, qrels, query)
        depth = k if k is not None else len(ranking) + len(ideal)
        expected = evaluate_scores(ranking, scores, ties="stable", k=depth, ideal_relevances=ideal, gain="linear")
        assert row["idcg"] == pytest.approx(expected.idcg, rel=1e-12, abs=1e-12)
        assert row["dcg"] == pytest.approx(expected.dcg, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("more_judged", [False, True])
@pytest.mark.parametrize("sorted_categories", [True, False])
def test_pyarrow_categories_matched(seed, more_judged, sorted_categories):
    """Categorical text ids are matched on their category arrays: sorted as text (as the readers give them) by
    binary search on their bytes, otherwise with pyarrow's hash of the smaller category array; both, in both
    directions (more run categories, more judged categories), must agree with plain text ids."""
    import ndcg_core._categorical_codes as categorical_module
    from ndcg_core._byte_keys import sorted_positions
    from ndcg_core._io import _categorical

    def as_categories(ids: pd.Series) -> pd.Categorical:
        values = _categorical(ids)
        if sorted_categories:
            return values
        return values.reorder_categories(values.categories[::-1])

    run, qrels = random_run(seed, n_queries=30, pool=60)
    qrels = pd.concat([qrels, frame([("q0", "a_first", 1), ("q1", "zz_last", 2)], ["query", "doc", "relevance"])],
                      ignore_index=True)
    if more_judged:  # many judged documents the run never retrieved: the judged categories outnumber the run's
        extra = frame([(f"q{i % 30}", f"extra{i}", i % 3) for i in range(500)], ["query", "doc", "relevance"])
        qrels = pd.concat([qrels, extra], ignore_index=True)
    else:  # many retrieved documents nobody judged: the run's categories outnumber the judged ones
        extra = frame([(f"q{i % 30}", f"unjudged{i}", -1.0 - i) for i in range(500)], ["query", "doc", "score"])
        run = pd.concat([run, extra], ignore_index=True)
    expected = evaluate_run(run, qrels, k=5, missing="zero")
    as_read = [frame.assign(query=as_categories(frame["query"]), doc=as_categories(frame["doc"]))
               for frame in (run, qrels)]
    run_categories, judged_categories = (f["doc"].cat.categories for f in as_read)
    arrow = [categorical_module._arrow_text(categories) for categories in (run_categories, judged_categories)]
    assert arrow[0] is not None and arrow[1] is not None
    assert (sorted_positions(*arrow) is not None) == sorted_categories  # which of the two matchers runs
    assert (len(judged_categories) > len(run_categories)) == more_judged
    result = evaluate_run(*as_read, k=5, missing="zero")
    pd.testing.assert_frame_equal(result.per_query, expected.per_query)


def test_no_hidden_cache_and_thread_safe():
    """Nothing is kept between calls (no module-level state); concurrent evaluations agree."""
    from concurrent.futures import ThreadPoolExecutor

    before = module_state()
    run, qrels = random_run(8, n_queries=10)
    expected = evaluate_run(run, qrels, k=4).per_query

    def evaluate_fresh(_):
        return evaluate_run(as_categorical(run), as_categorical(qrels), k=4).per_query

    with ThreadPoolExecutor(4) as pool:
        for per_query in pool.map(evaluate_fresh, range(20)):
            pd.testing.assert_frame_equal(per_query, expected)
    assert module_state() == before


def module_state() -> dict:
    """Every ndcg_core module's globals: their names, and each module-level container (dict, list, set, bytearray)
    by identity, size and the identities of its contents; each functools cache by its size."""
    import importlib
    import pkgutil
    import sys

    import ndcg_core

    for info in pkgutil.iter_modules(ndcg_core.__path__):
        importlib.import_module(f"ndcg_core.{info.name}")
    state = {}
    for name, module in sorted(sys.modules.items()):
        if name != "ndcg_core" and not name.startswith("ndcg_core."):
            continue
        for attr, value in vars(module).items():
            if attr.startswith("__"):  # Python's own (__builtins__, a __warningregistry__ a warning adds)
                continue
            if isinstance(value, dict):
                contents = tuple((id(key), id(item)) for key, item in value.items())
            elif isinstance(value, list | set | bytearray):
                contents = tuple(sorted(map(id, value))) if isinstance(value, set) else tuple(map(id, value))
            elif hasattr(value, "cache_info"):
                contents = value.cache_info().currsize
            else:
                contents = None
            state[(name, attr)] = (id(value), contents)
    return state


@pytest.mark.parametrize("grades", [[0, 2, 0.5, 3], [0, 0, 0, 0], [1, 4, 4, 2], [0.0, 0.25, 0.5, 0.75]])
def test_judgment_counts_for_any_kind_of_grade(grades):
    qrels = QRELS.assign(relevance=grades)
    row = evaluate_run(RUN, qrels, k=2, zero_idcg="zero").per_query.loc["q1"]
    assert row["n_judged"] == 4
    assert row["n_relevant"] == sum(grade > 0 for grade in grades)


# --------------------------------------------------------------------------- shared documents, any row order


def shared_documents_data(seed: int, *, ties: bool):
    """Queries retrieving and judging documents from one small pool (so most are shared between queries)."""
    rng = np.random.default_rng(seed)
    runs, judgments = [], []
    for query in range(40):
        retrieved = rng.choice(60, size=int(rng.integers(1, 30)), replace=False)
        scores = rng.integers(0, 5, retrieved.size) / 4 if ties else rng.permutation(retrieved.size) / 7
        runs.append(pd.DataFrame({"query": f"q{query:02d}", "doc": [f"d{d}" for d in retrieved], "score": scores}))
        judged = rng.choice(60, size=int(rng.integers(0, 20)), replace=False)
        judgments.append(pd.DataFrame({"query": f"q{query:02d}", "doc": [f"d{d}" for d in judged],
                                       "relevance": rng.integers(0, 4, judged.size)}))
    run = pd.concat(runs, ignore_index=True)
    run = run.sort_values(["query", "score"], ascending=[True, False], kind="stable", ignore_index=True)
    return run, pd.concat(judgments, ignore_index=True)


def reference_per_query(run: pd.DataFrame, qrels: pd.DataFrame, k: int) -> pd.DataFrame:
    """Linear-gain NDCG@k with trec_eval's tie rule, by plain pandas sorting and merging."""
    joined = run.merge(qrels, on=["query", "doc"], how="left")
    ranked = joined.sort_values(["query", "score", "doc"], ascending=[True, False, False], ignore_index=True)
    ranked["position"] = ranked.groupby("query").cumcount()
    top = ranked[ranked["position"] < k]
    dcg = (top["relevance"].fillna(0) / np.log2(top["position"] + 2)).groupby(top["query"]).sum()
    ideal = qrels.sort_values(["query", "relevance"], ascending=[True, False], ignore_index=True)
    ideal["position"] = ideal.groupby("query").cumcount()
    ideal = ideal[ideal["position"] < k]
    idcg = (ideal["relevance"] / np.log2(ideal["position"] + 2)).groupby(ideal["query"]).sum()
    queries = sorted(set(run["query"]) & set(qrels["query"]))
    return pd.DataFrame({
        "dcg": dcg.reindex(queries, fill_value=0.0), "idcg": idcg.reindex(queries),
        "n_retrieved": run.groupby("query").size().reindex(queries),
        "n_judged_retrieved": joined["relevance"].notna().groupby(joined["query"]).sum().reindex(queries),
        "n_judged": qrels.groupby("query").size().reindex(queries),
    })


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("qrels_order", ["grouped", "shuffled"])
def test_shared_documents_in_any_order_equal_a_plain_reference(seed, ties, qrels_order):
    run, qrels = shared_documents_data(seed, ties=ties)
    if qrels_order == "shuffled":
        qrels = qrels.sample(frac=1, random_state=seed).reset_index(drop=True)
    expected = reference_per_query(run, qrels, k=7)
    for run_variant, qrels_variant in ((run, qrels), (as_categorical(run), as_categorical(qrels))):
        per_query = evaluate_run(run_variant, qrels_variant, k=7, gain="linear").per_query
        assert list(per_query.index) == list(expected.index)
        np.testing.assert_allclose(per_query["dcg"], expected["dcg"], rtol=0, atol=1e-12)
        np.testing.assert_allclose(per_query["idcg"], expected["idcg"], rtol=0, atol=1e-12)
        for column in ("n_retrieved", "n_judged_retrieved", "n_judged"):
            assert (per_query[column].to_numpy() == expected[column].to_numpy()).all(), column
        # The same rows in another order within each query give the same figures.
        shuffled = run_variant.sample(frac=1, random_state=seed).reset_index(drop=True)
        pd.testing.assert_frame_equal(evaluate_run(shuffled, qrels_variant, k=7, gain="linear").per_query,
                                      per_query)


@pytest.mark.parametrize("categorical", [False, True])
def test_a_repeated_judgment_among_shared_documents_is_refused(categorical):
    run, qrels = shared_documents_data(0, ties=False)
    qrels = qrels.sample(frac=1, random_state=1).reset_index(drop=True)
    doubled = pd.concat([qrels, qrels.iloc[[7]]], ignore_index=True)
    query, doc = qrels.loc[7, "query"], qrels.loc[7, "doc"]
    if categorical:
        run, doubled = as_categorical(run), as_categorical(doubled)
    with pytest.raises(InvalidInput, match=f"qrels row {len(doubled)}: query '{query}' judges document '{doc}'"):
        evaluate_run(run, doubled)


def _as_integer_ids(frame: pd.DataFrame, *, scale: int, offset: int) -> pd.DataFrame:
    """The frame with "q<n>" / "d<n>" ids as the integers n * scale + offset (int64)."""
    return frame.assign(**{column: frame[column].str[1:].map(lambda text: int(text) * scale + offset
                                                              if text.isdigit() else -7).astype(np.int64)
                           for column in ("query", "doc")})


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("order", ["grouped", "shuffled"])
@pytest.mark.parametrize(("scale", "offset"), [(1, 0), (1, -1_000), (3, 2**40), (2**57, 0)])
def test_integer_ids_equal_text_ids(seed, order, scale, offset):
    """Integer ids (coded per (query, doc) pair straight from the integers, or hashed when pair keys would
    overflow: the last scale) give the values of the same ids as text."""
    run, qrels = random_run(seed, n_queries=40, pool=30)
    if order == "shuffled":
        run = run.sample(frac=1, random_state=seed).reset_index(drop=True)
    as_int = [_as_integer_ids(f, scale=scale, offset=offset) for f in (run, qrels)]
    as_text = [f.assign(query=f["query"].astype(str), doc=f["doc"].astype(str)) for f in as_int]
    expected = evaluate_run(*as_text, k=5, missing="zero").per_query
    pd.testing.assert_frame_equal(evaluate_run(*as_int, k=5, missing="zero").per_query, expected)


@pytest.mark.parametrize("dtype", ["int64", "str", "categorical"])
@pytest.mark.parametrize("order", ["grouped", "shuffled"])
def test_repeated_pair_named_with_a_shared_catalogue(dtype, order):
    """Documents shared by many queries (a catalogue: the per-pair codes) or integer ids: a repeated pair is
    still refused with its row (1-based, in the given frame)."""
    rng = np.random.default_rng(4)
    n_queries, per_query = 300, 10
    docs = np.concatenate([rng.choice(40, per_query, replace=False) for _ in range(n_queries)])
    run = pd.DataFrame({"query": np.repeat(np.arange(n_queries), per_query), "doc": docs,
                        "score": rng.random(docs.size)})
    qrels = run.iloc[::3][["query", "doc"]].assign(relevance=1).reset_index(drop=True)
    if order == "shuffled":
        run = run.sample(frac=1, random_state=1).reset_index(drop=True)
    repeated = pd.concat([run, run.iloc[[777]]], ignore_index=True)
    judged_twice = pd.concat([qrels, qrels.iloc[[55]]], ignore_index=True)

    def typed(frame):
        if dtype == "int64":
            return frame
        text = frame.assign(query="q" + frame["query"].astype(str), doc="d" + frame["doc"].astype(str))
        text = text.assign(query=text["query"].astype("str"), doc=text["doc"].astype("str"))
        return as_categorical(text) if dtype == "categorical" else text

    query, doc = (typed(run)[column].iloc[777] for column in ("query", "doc"))
    with pytest.raises(InvalidInput, match=rf"The run row {len(run) + 1}: query {re.escape(repr(query))} "
                                           rf"retrieves document {re.escape(repr(doc))} a second time"):
        evaluate_run(typed(repeated), typed(qrels), k=5)
    query, doc = (typed(qrels)[column].iloc[55] for column in ("query", "doc"))
    with pytest.raises(InvalidInput, match=rf"The qrels row {len(qrels) + 1}: query {re.escape(repr(query))} "
                                           rf"judges document {re.escape(repr(doc))} a second time"):
        evaluate_run(typed(run), typed(judged_twice), k=5)
    # Without the repeats: the values of the same ids as text.
    expected = evaluate_run(*[f.astype({"query": str, "doc": str}) for f in (typed(run), typed(qrels))], k=5)
    pd.testing.assert_frame_equal(evaluate_run(typed(run), typed(qrels), k=5).per_query, expected.per_query)


def test_ndcg_curve_reads_none_as_the_whole_list():
    """ndcg_curve(ks=[None]) was refused ("None is not a cutoff here") although k=None means the whole list in
    every other function; its row now equals evaluate_run(k=None) and pytrec_eval's whole-list ndcg (0.766363 on
    the bundled BM25 run, linear gain), and comes after the whole-number cutoffs."""
    import pytrec_eval

    from ndcg_core import read_qrels, read_run

    run, qrels = read_run("data/run_bm25.txt"), read_qrels("data/sample.qrels")
    curve = ndcg_curve(run, qrels, ks=[None, 5], gain="linear")
    assert curve["k"].tolist() == [5, None]
    judged = {}
    for query, doc, grade in zip(qrels["query"], qrels["doc"], qrels["relevance"], strict=True):
        judged.setdefault(str(query), {})[str(doc)] = int(grade)
    scored = {}
    for query, doc, score in zip(run["query"], run["doc"], run["score"], strict=True):
        scored.setdefault(str(query), {})[str(doc)] = float(score)
    per_query = pytrec_eval.RelevanceEvaluator(judged, {"ndcg", "ndcg_cut.5"}).evaluate(scored)
    assert curve["mean_ndcg"].iloc[1] == pytest.approx(np.mean([v["ndcg"] for v in per_query.values()]), abs=1e-12)
    assert curve["mean_ndcg"].iloc[0] == pytest.approx(np.mean([v["ndcg_cut_5"] for v in per_query.values()]),
                                                       abs=1e-12)
    for settings_ in ({"gain": "exponential", "zero_idcg": "skip"}, {"ties": "average", "discount": "jk"}):
        row = ndcg_curve(run, qrels, ks=[None], **settings_).iloc[0]
        whole = evaluate_run(run, qrels, k=None, **settings_)
        assert row["mean_ndcg"] == pytest.approx(whole.value, abs=1e-12)
        assert row["ratio_of_sums"] == pytest.approx(
            evaluate_run(run, qrels, k=None, aggregate="ratio_of_sums", **settings_).value, abs=1e-12)
