"""Properties of CG, DCG and NDCG that hold for every input (hypothesis)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ndcg_core import evaluate, evaluate_scores, worst_order

grades_lists = st.lists(st.integers(min_value=0, max_value=6), min_size=1, max_size=30)
float_grades = st.lists(
    st.floats(min_value=0, max_value=10, allow_nan=False, allow_infinity=False), min_size=1, max_size=30
)
gains = st.sampled_from(["linear", "exponential"])
cutoffs = st.one_of(st.none(), st.integers(min_value=1, max_value=40))
bases = st.sampled_from([2.0, math.e, 10.0, 1.5, 7.0])

TOL = 1e-12


@settings(max_examples=200, deadline=None)
@given(grades=st.one_of(grades_lists, float_grades), gain=gains, k=cutoffs, zero=st.sampled_from(["zero", "one"]))
def test_ndcg_between_zero_and_one(grades, gain, k, zero):
    result = evaluate(grades, gain=gain, k=k, zero_idcg=zero)
    assert -TOL <= result.ndcg <= 1 + TOL
    ndcg_at_rank = result.table["ndcg_at_rank"].to_numpy()
    assert (ndcg_at_rank >= -TOL).all() and (ndcg_at_rank <= 1 + TOL).all()


@settings(max_examples=150, deadline=None)
@given(grades=grades_lists, extra=st.lists(st.integers(0, 6), max_size=10), gain=gains, k=cutoffs)
def test_ndcg_between_zero_and_one_with_extra_judgments(grades, extra, gain, k):
    result = evaluate(grades, gain=gain, k=k, ideal_relevances=grades + extra)
    assert -TOL <= result.ndcg <= 1 + TOL


@settings(max_examples=150, deadline=None)
@given(grades=grades_lists, gain=gains, k=cutoffs, base=bases)
def test_ideal_order_scores_one(grades, gain, k, base):
    assume(max(grades) > 0)
    ideal = sorted(grades, reverse=True)
    assert evaluate(ideal, gain=gain, k=k, log_base=base).ndcg == pytest.approx(1.0, abs=TOL)


@settings(max_examples=150, deadline=None)
@given(grades=grades_lists, data=st.data(), gain=gains, k=cutoffs, base=bases)
def test_worst_order_has_the_lowest_dcg_of_every_order(grades, data, gain, k, base):
    """ndcg_core.worst_order (the Playground's "Worst order" button): grades ascending, ties in input order, and no
    other order of the same grades has a lower DCG (nor, so, a lower NDCG)."""
    order = worst_order(grades)
    assert [grades[i] for i in order] == sorted(grades)
    assert all(order[i] < order[i + 1] for i in range(len(order) - 1) if grades[order[i]] == grades[order[i + 1]])
    worst = evaluate([grades[i] for i in order], gain=gain, k=k, log_base=base)
    other = data.draw(st.permutations(grades))
    assert worst.dcg <= evaluate(other, gain=gain, k=k, log_base=base).dcg + TOL * max(1.0, abs(worst.dcg))


@settings(max_examples=150, deadline=None)
@given(grades=grades_lists, gain=gains, k=cutoffs, base=bases)
def test_ndcg_does_not_depend_on_log_base(grades, gain, k, base):
    base2 = evaluate(grades, gain=gain, k=k)
    other = evaluate(grades, gain=gain, k=k, log_base=base)
    assert other.ndcg == pytest.approx(base2.ndcg, rel=1e-12, abs=1e-15)
    # while DCG scales by log2(base)
    assert other.dcg == pytest.approx(base2.dcg * math.log2(base), rel=1e-12, abs=1e-15)


@settings(max_examples=200, deadline=None)
@given(grades=grades_lists, data=st.data(), gain=gains, k=cutoffs)
def test_moving_higher_grade_above_lower_never_lowers_dcg(grades, data, gain, k):
    assume(len(grades) >= 2)
    i = data.draw(st.integers(0, len(grades) - 2))
    j = data.draw(st.integers(i + 1, len(grades) - 1))
    assume(grades[j] > grades[i])
    swapped = list(grades)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    before = evaluate(grades, gain=gain, k=k)
    after = evaluate(swapped, gain=gain, k=k)
    assert after.dcg >= before.dcg - TOL
    assert after.ndcg >= before.ndcg - TOL


@settings(max_examples=150, deadline=None)
@given(grades=grades_lists, seed=st.integers(0, 2**32 - 1), gain=gains)
def test_cg_does_not_depend_on_order(grades, seed, gain):
    shuffled = np.random.default_rng(seed).permutation(grades)
    assert evaluate(shuffled, gain=gain).cg == pytest.approx(evaluate(grades, gain=gain).cg)


@settings(max_examples=150, deadline=None)
@given(grades=grades_lists, extra=st.integers(0, 20), gain=gains)
def test_k_at_least_length_equals_no_cutoff(grades, extra, gain):
    whole = evaluate(grades, gain=gain)
    cut = evaluate(grades, gain=gain, k=len(grades) + extra)
    assert (cut.cg, cut.dcg, cut.idcg, cut.ndcg) == (whole.cg, whole.dcg, whole.idcg, whole.ndcg)


@settings(max_examples=200, deadline=None)
@given(
    grades=grades_lists,
    data=st.data(),
    gain=gains,
    k=cutoffs,
)
def test_tie_average_between_pessimistic_and_optimistic(grades, data, gain, k):
    scores = data.draw(st.lists(st.integers(0, 3), min_size=len(grades), max_size=len(grades)))
    dcg = {
        rule: evaluate_scores(grades, scores, ties=rule, gain=gain, k=k).dcg
        for rule in ("optimistic", "average", "pessimistic", "stable")
    }
    assert dcg["pessimistic"] - TOL <= dcg["average"] <= dcg["optimistic"] + TOL
    assert dcg["pessimistic"] - TOL <= dcg["stable"] <= dcg["optimistic"] + TOL


@settings(max_examples=100, deadline=None)
@given(grades=grades_lists, gain=gains, k=cutoffs)
def test_without_ties_every_rule_agrees(grades, gain, k):
    scores = list(range(len(grades), 0, -1))  # distinct and already in the given order
    expected = evaluate(grades, gain=gain, k=k).ndcg
    for rule in ("optimistic", "average", "pessimistic", "stable"):
        assert evaluate_scores(grades, scores, ties=rule, gain=gain, k=k).ndcg == pytest.approx(expected)


@settings(max_examples=100, deadline=None)
@given(grades=grades_lists, gain=gains)
def test_average_ties_of_all_equal_scores_is_order_free(grades, gain):
    # when every score ties, the expected DCG is the same for any input order
    scores = [0.0] * len(grades)
    reversed_result = evaluate_scores(grades[::-1], scores, gain=gain)
    assert evaluate_scores(grades, scores, gain=gain).dcg == pytest.approx(reversed_result.dcg)


@settings(max_examples=100, deadline=None)
@given(grades=grades_lists, gain=gains, k=cutoffs)
def test_running_columns_end_at_headline_figures(grades, gain, k):
    result = evaluate(grades, gain=gain, k=k)
    counted = result.table[result.table["in_cutoff"]]
    assert counted["cumulative_dcg"].iloc[-1] == pytest.approx(result.dcg)
    assert counted["cumulative_cg"].iloc[-1] == pytest.approx(result.cg)
    assert len(counted) == (len(grades) if k is None else min(k, len(grades)))


@given(grades=grades_lists, extra=st.lists(st.integers(0, 6), max_size=10), gain=gains, k=cutoffs)
def test_the_ideal_table_has_one_row_per_counted_place_and_sums_to_idcg(grades, extra, gain, k):
    """``ListResult.ideal_table``: the places IDCG counts, past the ranking's end too (what the charts draw)."""
    result = evaluate(grades, ideal_relevances=grades + extra, gain=gain, k=k)
    places = result.ideal_table
    assert len(places) == result.ideal_depth and places["place"].tolist() == list(range(1, result.ideal_depth + 1))
    assert places["ideal_relevance"].tolist() == sorted(grades + extra, reverse=True)[: result.ideal_depth]
    assert math.isclose(places["ideal_contribution"].sum(), result.idcg, rel_tol=1e-12, abs_tol=1e-12)
    assert math.isclose(places["cumulative_idcg"].iloc[-1] if len(places) else 0.0, result.idcg, rel_tol=1e-12,
                        abs_tol=1e-12)
    shared = min(len(places), len(grades))  # where both exist, the per-position table has the same ideal figures
    assert places["ideal_contribution"].iloc[:shared].tolist() == result.table["ideal_contribution"].iloc[:shared].tolist()
