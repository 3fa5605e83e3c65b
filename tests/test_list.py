"""The list engine (evaluate, evaluate_scores) against values derived by hand from the formulas."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import ndcg_core
from ndcg_core import evaluate, evaluate_scores

LOG2 = math.log2

REQUIRED_COLUMNS = [
    "rank", "item", "relevance", "gain", "discount", "contribution", "cumulative_cg", "cumulative_dcg",
    "ideal_relevance", "ideal_gain", "ideal_contribution", "cumulative_idcg", "ndcg_at_rank", "in_cutoff",
]


def test_exponential_gain_by_hand():
    # [3, 2, 3, 0, 1]: gains 7, 3, 7, 0, 1; ideal [3, 3, 2, 1, 0]: gains 7, 7, 3, 1, 0
    result = evaluate([3, 2, 3, 0, 1])
    dcg = 7 / 1 + 3 / LOG2(3) + 7 / 2 + 0 / LOG2(5) + 1 / LOG2(6)
    idcg = 7 / 1 + 7 / LOG2(3) + 3 / 2 + 1 / LOG2(5) + 0
    assert result.cg == 7 + 3 + 7 + 0 + 1
    assert result.dcg == pytest.approx(dcg, rel=1e-15)
    assert result.idcg == pytest.approx(idcg, rel=1e-15)
    assert result.ndcg == pytest.approx(dcg / idcg, rel=1e-15)
    assert result.k is None
    np.testing.assert_array_equal(result.ideal_relevances, [3, 3, 2, 1, 0])


def test_linear_gain_by_hand():
    result = evaluate([3, 2, 0, 0, 1], gain="linear")
    dcg = 3 + 2 / LOG2(3) + 0 + 0 + 1 / LOG2(6)
    idcg = 3 + 2 / LOG2(3) + 1 / 2
    assert result.cg == 6
    assert result.dcg == pytest.approx(dcg, rel=1e-15)
    assert result.idcg == pytest.approx(idcg, rel=1e-15)
    assert result.ndcg == pytest.approx(dcg / idcg, rel=1e-15)


def test_gain_table():
    table = {0: 0, 1: 2, 2: 5, 3: 10}
    result = evaluate([1, 3, 0], gain=table)
    dcg = 2 / 1 + 10 / LOG2(3) + 0
    idcg = 10 / 1 + 2 / LOG2(3) + 0
    assert result.cg == 12
    assert result.dcg == pytest.approx(dcg)
    assert result.ndcg == pytest.approx(dcg / idcg)


def test_non_integer_grades_are_allowed():
    result = evaluate([0.5, 2.5], gain="exponential")
    assert result.dcg == pytest.approx((2**0.5 - 1) + (2**2.5 - 1) / LOG2(3))


@pytest.mark.parametrize("log_base", [math.e, 10.0, 3.0, 1.5])
def test_log_base_changes_dcg_but_not_ndcg(log_base):
    base2 = evaluate([1, 3, 0, 2])
    other = evaluate([1, 3, 0, 2], log_base=log_base)
    # log_b(x) = log2(x) / log2(b): every discount is divided by log2(b), DCG is multiplied by it
    assert other.dcg == pytest.approx(base2.dcg * LOG2(log_base), rel=1e-12)
    assert other.ndcg == pytest.approx(base2.ndcg, rel=1e-12)


def test_discounts():
    np.testing.assert_allclose(ndcg_core.discounts(4), [1, LOG2(3), 2, LOG2(5)], rtol=1e-15)
    np.testing.assert_allclose(ndcg_core.discounts(2, math.e), [math.log(2), math.log(3)], rtol=1e-15)
    np.testing.assert_allclose(ndcg_core.discounts(2, 10.0), [math.log10(2), math.log10(3)], rtol=1e-15)
    assert ndcg_core.discounts(0).shape == (0,)


def test_gains_of():
    grades = np.array([0.0, 1.0, 2.0, 3.0])
    np.testing.assert_array_equal(ndcg_core.gains_of(grades, "linear"), [0, 1, 2, 3])
    np.testing.assert_array_equal(ndcg_core.gains_of(grades, "exponential"), [0, 1, 3, 7])
    np.testing.assert_array_equal(ndcg_core.gains_of(grades, {0.0: 0, 1.0: 1, 2.0: 4, 3.0: 9}), [0, 1, 4, 9])


# ------------------------------------------------------------------ cutoff k


def test_cutoff_counts_first_k_and_cuts_ideal_at_k():
    result = evaluate([1, 0, 3, 2], k=2, gain="linear")
    assert result.k == 2
    assert result.cg == 1
    assert result.dcg == pytest.approx(1 + 0)
    assert result.idcg == pytest.approx(3 + 2 / LOG2(3))
    assert result.ndcg == pytest.approx(1 / (3 + 2 / LOG2(3)))


def test_k_larger_than_list_is_whole_list():
    whole = evaluate([2, 0, 1])
    for k in (3, 4, 100):
        cut = evaluate([2, 0, 1], k=k)
        assert (cut.cg, cut.dcg, cut.idcg, cut.ndcg) == (whole.cg, whole.dcg, whole.idcg, whole.ndcg)
        assert cut.table["in_cutoff"].all()


def test_k_one():
    result = evaluate([1, 3], k=1)
    assert result.dcg == 1
    assert result.idcg == 7
    assert result.ndcg == pytest.approx(1 / 7)


def test_integral_float_k_is_accepted():
    assert evaluate([1, 3], k=1.0).ndcg == evaluate([1, 3], k=1).ndcg
    assert evaluate([1, 3], k=np.int64(1)).k == 1


# ------------------------------------------------------------------ ideal from extra judged documents


def test_ideal_from_extra_judged_documents():
    # ranking [1, 0] with two more judged documents of grade 3 that were not retrieved
    result = evaluate([1, 0], gain="linear", ideal_relevances=[1, 0, 3, 3])
    np.testing.assert_array_equal(result.ideal_relevances, [3, 3, 1, 0])
    np.testing.assert_array_equal(result.ideal_order, [2, 3, 0, 1])  # positions in ideal_relevances
    # k=None means no cutoff anywhere: IDCG over every judged grade (3, 3, 1, 0)
    assert result.idcg == pytest.approx(3 + 3 / LOG2(3) + 1 / 2)
    assert result.ndcg == pytest.approx(1 / (3 + 3 / LOG2(3) + 1 / 2))
    assert (result.depth, result.ideal_depth) == (2, 4)
    # the explicit option cuts the ideal at the ranking's length (2): 3 + 3/log2(3)
    cut = evaluate([1, 0], gain="linear", ideal_relevances=[1, 0, 3, 3], cut_ideal_at_ranking=True)
    assert cut.idcg == pytest.approx(3 + 3 / LOG2(3))
    assert (cut.depth, cut.ideal_depth) == (2, 2)
    # ... and is ignored when k is given
    assert evaluate([1, 0], k=3, gain="linear", ideal_relevances=[1, 0, 3, 3], cut_ideal_at_ranking=True).ideal_depth == 3


def test_k_none_means_no_cutoff_in_every_function():
    """evaluate, evaluate_scores, evaluate_run and the presets agree on k=None: IDCG over every judgment."""
    import pandas as pd

    from ndcg_core import CONVENTIONS, evaluate_run, evaluate_scores

    expected = 1 / (3 + 3 / LOG2(3) + 1 / 2)  # DCG 1 (grade 1 first), IDCG of [3, 3, 1, 0]
    assert evaluate([1, 0], gain="linear", ideal_relevances=[1, 0, 3, 3]).ndcg == pytest.approx(expected, abs=1e-15)
    scored = evaluate_scores([1, 0], [2.0, 1.0], gain="linear", ideal_relevances=[1, 0, 3, 3])
    assert scored.ndcg == pytest.approx(expected, abs=1e-15)
    assert CONVENTIONS["trec_eval"].evaluate([1, 0], [2.0, 1.0], ideal_relevances=[1, 0, 3, 3]).ndcg == pytest.approx(
        expected, abs=1e-15)
    run = pd.DataFrame({"query": "q", "doc": ["a", "b"], "score": [2.0, 1.0]})
    qrels = pd.DataFrame({"query": "q", "doc": ["a", "b", "c", "d"], "relevance": [1, 0, 3, 3]})
    assert evaluate_run(run, qrels, gain="linear").value == pytest.approx(expected, abs=1e-15)


def test_ideal_with_k_beyond_ranking_keeps_k_ideal_positions():
    # trec_eval's ndcg_cut.3 with 2 retrieved documents: IDCG@3 uses three ideal positions
    result = evaluate([1, 0], k=3, gain="linear", ideal_relevances=[1, 0, 3, 3])
    assert result.dcg == 1
    assert result.idcg == pytest.approx(3 + 3 / LOG2(3) + 1 / 2)


def test_ideal_must_contain_ranked_grades():
    with pytest.raises(ndcg_core.InvalidInput, match="ideal_relevances must contain"):
        evaluate([3, 2], ideal_relevances=[2, 2])


# ------------------------------------------------------------------ zero IDCG


@pytest.mark.parametrize(("rule", "expected"), [("zero", 0.0), ("one", 1.0)])
def test_zero_idcg_rules(rule, expected):
    result = evaluate([0, 0, 0], zero_idcg=rule)
    assert result.idcg == 0
    assert result.ndcg == expected


def test_zero_idcg_skip_is_nan_and_error_raises():
    assert math.isnan(evaluate([0, 0], zero_idcg="skip").ndcg)
    with pytest.raises(ndcg_core.InvalidInput, match="IDCG is 0"):
        evaluate([0, 0], zero_idcg="error")
    # a relevant document below the cutoff still leaves IDCG@k > 0 (the ideal moves it up)
    assert evaluate([0, 1], k=1, zero_idcg="error").ndcg == 0


# ------------------------------------------------------------------ the table


def test_table_columns_and_values():
    result = evaluate([1, 3, 0], k=2)
    table = result.table
    assert isinstance(table, pd.DataFrame)
    assert list(table.columns) == REQUIRED_COLUMNS
    assert len(table) == 3
    np.testing.assert_array_equal(table["rank"], [1, 2, 3])
    np.testing.assert_array_equal(table["item"], [0, 1, 2])
    np.testing.assert_array_equal(table["relevance"], [1, 3, 0])
    np.testing.assert_array_equal(table["gain"], [1, 7, 0])
    np.testing.assert_allclose(table["discount"], [1, LOG2(3), 2])
    np.testing.assert_allclose(table["contribution"], [1, 7 / LOG2(3), 0])
    np.testing.assert_allclose(table["cumulative_cg"], [1, 8, 8])
    np.testing.assert_allclose(table["cumulative_dcg"], [1, 1 + 7 / LOG2(3), 1 + 7 / LOG2(3)])
    np.testing.assert_array_equal(table["ideal_relevance"], [3, 1, 0])
    np.testing.assert_array_equal(table["ideal_gain"], [7, 1, 0])
    np.testing.assert_allclose(table["ideal_contribution"], [7, 1 / LOG2(3), 0])
    np.testing.assert_allclose(table["cumulative_idcg"], [7, 7 + 1 / LOG2(3), 7 + 1 / LOG2(3)])
    at_two = (1 + 7 / LOG2(3)) / (7 + 1 / LOG2(3))
    np.testing.assert_allclose(table["ndcg_at_rank"], [1 / 7, at_two, at_two])
    np.testing.assert_array_equal(table["in_cutoff"], [True, True, False])
    # the headline figures are the running columns at the cutoff
    assert result.dcg == pytest.approx(table["cumulative_dcg"].iloc[1])
    assert result.ndcg == pytest.approx(table["ndcg_at_rank"].iloc[1])


def test_table_is_built_on_first_use_once_and_survives_replace(monkeypatch):
    """A caller that reads only the figures (a search over conventions, a quiz generator) builds no DataFrame."""
    import dataclasses

    built = []
    real_frame = pd.DataFrame
    monkeypatch.setattr(pd, "DataFrame", lambda *args, **kwargs: built.append(1) or real_frame(*args, **kwargs))
    result = evaluate([1, 3, 0], k=2)
    assert result.ndcg == pytest.approx((1 + 7 / LOG2(3)) / (7 + 1 / LOG2(3))) and built == []
    assert result.table is result.table and len(built) == 1
    cut = dataclasses.replace(result, k=1)  # as ndcg_core's Quepid convention does
    np.testing.assert_array_equal(cut.table["cumulative_cg"], [1, 8, 8])


def test_table_ndcg_at_rank_is_ndcg_at_each_cutoff():
    grades = [2, 0, 3, 1, 1]
    table = evaluate(grades).table
    for i in range(1, len(grades) + 1):
        assert table["ndcg_at_rank"].iloc[i - 1] == pytest.approx(evaluate(grades, k=i).ndcg)


def test_accepts_numpy_pandas_and_tuples():
    expected = evaluate([3, 1, 2]).ndcg
    assert evaluate(np.array([3, 1, 2])).ndcg == expected
    assert evaluate(pd.Series([3, 1, 2])).ndcg == expected
    assert evaluate((3.0, 1.0, 2.0)).ndcg == expected
    assert evaluate(np.array([3, 1, 2], dtype=np.uint8)).ndcg == expected


def test_single_document():
    result = evaluate([2])
    assert (result.cg, result.dcg, result.idcg, result.ndcg) == (3, 3, 3, 1)


# ------------------------------------------------------------------ ties


def test_scores_rank_descending_and_item_column_points_back():
    result = evaluate_scores([0, 3, 1], [0.1, 0.9, 0.5], gain="linear")
    np.testing.assert_array_equal(result.table["item"], [1, 2, 0])
    np.testing.assert_array_equal(result.table["relevance"], [3, 1, 0])
    assert result.ndcg == 1.0


def test_negative_scores_are_fine():
    assert evaluate_scores([1, 2], [-5.0, -1.0]).ndcg == 1.0


def test_tie_rules_on_a_hand_example():
    # grades [0, 3, 1], scores [5, 5, 1]: documents 0 and 1 tie for positions 1-2
    grades, scores = [0, 3, 1], [5, 5, 1]
    idcg = 3 + 1 / LOG2(3)
    optimistic = 3 + 0 / LOG2(3) + 1 / 2
    pessimistic = 0 + 3 / LOG2(3) + 1 / 2
    # average: both tied positions get the mean gain 1.5 (expected DCG over the two orders)
    average = 1.5 * (1 + 1 / LOG2(3)) + 1 / 2
    rules = {"optimistic": optimistic, "pessimistic": pessimistic, "average": average, "stable": pessimistic}
    for rule, dcg in rules.items():
        result = evaluate_scores(grades, scores, ties=rule, gain="linear")
        assert result.dcg == pytest.approx(dcg), rule
        assert result.ndcg == pytest.approx(dcg / idcg), rule
    assert average == pytest.approx((optimistic + pessimistic) / 2)


def test_stable_keeps_input_order_inside_ties():
    result = evaluate_scores([1, 2, 3], [0, 0, 0], ties="stable", gain="linear")
    np.testing.assert_array_equal(result.table["relevance"], [1, 2, 3])
    result = evaluate_scores([3, 2, 1], [0, 0, 0], ties="stable", gain="linear")
    assert result.ndcg == 1.0


def test_average_ties_with_cutoff_inside_the_tie():
    # three tied documents with gains 3, 0, 0 (linear); k=2 cuts the tie
    result = evaluate_scores([3, 0, 0], [1, 1, 1], k=2, ties="average", gain="linear")
    # each tied position carries the mean gain 1; positions 1 and 2 count
    assert result.dcg == pytest.approx(1 + 1 / LOG2(3))
    assert result.idcg == 3
    np.testing.assert_allclose(result.table["gain"], [1, 1, 1])


def test_average_ties_with_exponential_gain_average_gains_not_grades():
    result = evaluate_scores([3, 1], [2, 2], ties="average")
    mean_gain = (7 + 1) / 2  # not 2**mean_grade - 1 = 3
    assert result.dcg == pytest.approx(mean_gain * (1 + 1 / LOG2(3)))


def test_scores_and_grades_must_have_same_length():
    with pytest.raises(ndcg_core.InvalidInput, match="2 grades but 3 scores"):
        evaluate_scores([1, 2], [1, 2, 3])
