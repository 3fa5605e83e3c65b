"""ndcg_core.compare_runs and ndcg_core.aggregate_gap: hand-checked values, a plain bootstrap as oracle, refusals."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ndcg_core


def plain_bootstrap(differences, *, n_boot, seed, confidence):
    """The textbook loop: resample queries with replacement, average, take percentiles."""
    rng = np.random.default_rng(seed)
    values = np.asarray(differences, dtype=float)
    means = np.array([values[rng.integers(0, values.size, size=values.size)].mean() for _ in range(n_boot)])
    return means, np.quantile(means, [(1 - confidence) / 2, (1 + confidence) / 2])


def test_counts_means_and_interval_match_a_plain_bootstrap():
    a = [0.2, 0.5, 0.5, 0.9, 0.4, 0.3]
    b = [0.4, 0.5, 0.3, 1.0, 0.8, 0.35]
    result = ndcg_core.compare_runs(a, b, n_boot=500, seed=3, confidence=0.9)
    assert (result.wins, result.ties, result.losses) == (4, 1, 1)
    assert result.n_queries == 6
    assert result.mean_a == pytest.approx(np.mean(a)) and result.mean_b == pytest.approx(np.mean(b))
    assert result.mean_difference == pytest.approx((0.2 + 0 - 0.2 + 0.1 + 0.4 + 0.05) / 6)
    means, (low, high) = plain_bootstrap(np.subtract(b, a), n_boot=500, seed=3, confidence=0.9)
    # one big draw and row-by-row draws of the same generator give the same integers
    np.testing.assert_allclose(result.bootstrap_means, means)
    assert (result.ci_low, result.ci_high) == pytest.approx((low, high))
    assert result.share_not_better == pytest.approx(np.mean(means <= 0))


def test_blocked_draws_equal_one_big_draw():
    rng = np.random.default_rng(11)
    a, b = rng.random(3_000), rng.random(3_000)
    result = ndcg_core.compare_runs(a, b, n_boot=2_000, seed=5)  # 6 M cells: drawn in blocks
    values = b - a
    indices = np.random.default_rng(5).integers(0, values.size, size=(2_000, values.size))
    np.testing.assert_allclose(result.bootstrap_means, values[indices].mean(axis=1))


def test_same_seed_same_interval_and_identical_systems():
    scores = [0.1, 0.7, 0.4]
    first = ndcg_core.compare_runs(scores, [0.2, 0.6, 0.9], seed=1, n_boot=300)
    again = ndcg_core.compare_runs(scores, [0.2, 0.6, 0.9], seed=1, n_boot=300)
    assert (first.ci_low, first.ci_high) == (again.ci_low, again.ci_high)
    same = ndcg_core.compare_runs(scores, scores, n_boot=100)
    assert (same.wins, same.ties, same.losses) == (0, 3, 0)
    assert same.ci_low == same.ci_high == same.mean_difference == 0.0


def test_series_are_aligned_on_common_queries_and_nan_is_left_out():
    a = pd.Series({"q1": 0.5, "q2": 0.2, "q3": np.nan, "q4": 0.9})
    b = pd.Series({"q2": 0.6, "q1": 0.5, "q3": 0.4, "q5": 1.0})
    result = ndcg_core.compare_runs(a, b, n_boot=50)
    assert sorted(result.differences.index) == ["q1", "q2"]
    assert result.differences["q2"] == pytest.approx(0.4)
    assert (result.wins, result.ties) == (1, 1)


def test_series_of_integer_and_text_query_ids_are_the_same_queries():
    """evaluate_run's per_query is indexed by the query ids as text ("401"); a user's own per-query figures grouped
    by an integer query column are indexed by 401. compare_runs said "The two systems have no query in common" for
    the same three queries, where every other function of ndcg_core matches 401 with "401"."""
    run = pd.DataFrame({"query": [401, 401, 402, 403], "doc": ["a", "b", "a", "c"], "score": [2.0, 1.0, 1.0, 1.0]})
    qrels = pd.DataFrame({"query": [401, 401, 402, 403], "doc": ["a", "b", "a", "c"], "relevance": [0, 1, 2, 1]})
    a = ndcg_core.evaluate_run(run, qrels, gain="linear").per_query["ndcg"]  # 0.6309, 1, 1 (index "401", ...)
    b = pd.Series([0.5, 1.0, 0.25], index=pd.Index([403, 401, 402]))
    result = ndcg_core.compare_runs(a, b, n_boot=50)
    assert result.n_queries == 3
    assert result.differences.sort_index().to_dict() == pytest.approx(
        {"401": 1.0 - 1 / np.log2(3), "402": -0.75, "403": -0.5}, abs=1e-12)
    whole_floats = pd.Series([0.5, 1.0, 0.25], index=pd.Index([403.0, 401.0, 402.0]))  # ids pandas made decimal
    assert ndcg_core.compare_runs(a, whole_floats, n_boot=50).n_queries == 3


def test_a_query_listed_twice_in_a_series_is_refused():
    """A Series holding query q2 twice was paired with the other system's q2 twice (its difference counted twice in
    the mean and the interval) without a word."""
    a = pd.Series([0.2, 0.4, 0.6], index=["q1", "q2", "q2"])
    b = pd.Series([0.3, 0.5], index=["q1", "q2"])
    with pytest.raises(ndcg_core.InvalidInput, match="System A lists query 'q2' twice"):
        ndcg_core.compare_runs(a, b)
    with pytest.raises(ndcg_core.InvalidInput, match="System B lists query 'q2' twice"):
        ndcg_core.compare_runs(b, a)


@pytest.mark.parametrize(
    ("a", "b", "options", "needle"),
    [
        ([0.1, 0.2], [0.3], {}, "same query order"),
        ([np.nan], [0.2], {}, "no query in common"),
        ([0.1], [np.inf], {}, "finite"),
        ([0.1], [0.2], {"n_boot": 0}, "n_boot"),
        ([0.1], [0.2], {"confidence": 1.0}, "between 0 and 1"),
        ([0.1], [0.2], {"seed": -1}, "seed"),
        ("abc", [0.2], {}, "not text"),
    ],
)
def test_refused_inputs(a, b, options, needle):
    with pytest.raises(ndcg_core.InvalidInput, match=needle):
        ndcg_core.compare_runs(a, b, **options)


def test_aggregate_gap_splits_the_difference_exactly():
    # Three queries by hand: DCG/IDCG = 1/2, 6/8 and 0/0 (zero-IDCG rule "zero" gives 0)
    per_query = pd.DataFrame({"dcg": [1.0, 6.0, 0.0], "idcg": [2.0, 8.0, 0.0], "ndcg": [0.5, 0.75, 0.0]})
    gap = ndcg_core.aggregate_gap(per_query)
    assert gap.mean_ndcg == pytest.approx(1.25 / 3)
    assert gap.ratio_of_sums == pytest.approx(7 / 10)
    assert gap.mean_positive == pytest.approx(0.625)
    assert gap.weighting_effect == pytest.approx(0.7 - 0.625)  # the IDCG-8 query (NDCG 0.75) weighs 4x more
    assert gap.zero_idcg_effect == pytest.approx(0.625 - 1.25 / 3)
    assert gap.weighting_effect + gap.zero_idcg_effect == pytest.approx(gap.ratio_of_sums - gap.mean_ndcg)
    assert (gap.n_positive, gap.n_zero_idcg) == (2, 1)
    assert (gap.mean_high_idcg, gap.mean_low_idcg) == (0.75, 0.5)


def test_aggregate_gap_on_a_real_run_matches_evaluate_run():
    run = pd.DataFrame({"query": ["a", "a", "b", "b", "c"], "doc": ["1", "2", "1", "2", "1"], "score": [2, 1, 2, 1, 1]})
    qrels = pd.DataFrame({"query": ["a", "a", "b", "c"], "doc": ["1", "2", "2", "1"], "relevance": [1, 3, 2, 0]})
    result = ndcg_core.evaluate_run(run, qrels)
    gap = ndcg_core.aggregate_gap(result.per_query)
    assert gap.mean_ndcg == pytest.approx(result.mean_ndcg)
    assert gap.ratio_of_sums == pytest.approx(result.ratio_of_sums)
    with pytest.raises(ndcg_core.InvalidInput, match="columns"):
        ndcg_core.aggregate_gap(pd.DataFrame({"ndcg": [1.0]}))
