"""tie_band against brute force over every order of every tie, and against scikit-learn."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_core import InvalidInput, tie_band


def brute_force_ndcgs(grades, scores, *, k, gain, ideal):
    """NDCG of every order the ties allow, written from the formula (no ndcg_core code); None when IDCG = 0."""
    grades = np.asarray(grades, dtype=float)
    scores = np.asarray(scores, dtype=float)
    n = grades.size
    values = sorted(set(scores.tolist()), reverse=True)
    groups = [[j for j in range(n) if scores[j] == value] for value in values]
    g = (lambda x: x) if gain == "linear" else (lambda x: 2.0 ** x - 1)
    depth = n if k is None else min(k, n)
    ideal_sorted = sorted(ideal, reverse=True)[: len(ideal) if k is None else k]  # k=None: no cutoff anywhere
    idcg = sum(g(x) / math.log2(i + 2) for i, x in enumerate(ideal_sorted))
    if idcg == 0:
        return None
    results = []
    for choice in itertools.product(*(itertools.permutations(group) for group in groups)):
        order = [j for block in choice for j in block]
        dcg = sum(g(grades[j]) / math.log2(i + 2) for i, j in enumerate(order[:depth]))
        results.append(dcg / idcg)
    return results


lists = st.integers(1, 8).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 4), min_size=n, max_size=n),
        st.lists(st.integers(0, 3), min_size=n, max_size=n),  # few score values: many ties
        st.one_of(st.none(), st.integers(1, n + 2)),
        st.lists(st.integers(0, 4), max_size=3),
        st.sampled_from(["linear", "exponential"]),
        st.sampled_from(["zero", "one", "skip"]),  # decides every order's figure when the ideal is all zero
    )
)


@settings(max_examples=300, deadline=None)
@given(lists)
def test_band_equals_brute_force_over_every_tie_order(case):
    grades, scores, k, extra, gain, rule = case
    ideal = [*grades, *extra]
    band = tie_band(grades, [float(s) for s in scores], k=k, gain=gain, ideal_relevances=ideal, zero_idcg=rule)
    every = brute_force_ndcgs(grades, scores, k=k, gain=gain, ideal=ideal)
    if every is None:  # IDCG = 0: no order has an NDCG of its own; the rule gives all three figures
        value = {"zero": 0.0, "one": 1.0, "skip": math.nan}[rule]
        np.testing.assert_equal([band.low, band.expected, band.high], [value] * 3)
        return
    assert band.low == pytest.approx(min(every), abs=1e-12)
    assert band.high == pytest.approx(max(every), abs=1e-12)
    assert band.expected == pytest.approx(sum(every) / len(every), abs=1e-12)
    assert band.orders == len(every)
    assert band.low <= band.expected <= band.high


@settings(max_examples=200, deadline=None)
@given(lists)
def test_expected_equals_scikit_learn(case):
    from sklearn.metrics import ndcg_score

    grades, scores, k, _, _, _ = case
    if len(grades) < 2:
        return  # scikit-learn refuses single-document lists
    band = tie_band(grades, [float(s) for s in scores], k=k, gain="linear")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = ndcg_score([grades], [scores], k=k)
    assert band.expected == pytest.approx(expected, abs=1e-12)


def test_group_straddling_the_cutoff_by_hand():
    # scores 2 > 1 = 1 = 1; k = 2: position 2 holds one of the tied grades {3, 0, 0} (gains 3, 0, 0 linear)
    band = tie_band([1, 3, 0, 0], [2.0, 1.0, 1.0, 1.0], k=2, gain="linear")
    idcg = 3 + 1 / math.log2(3)
    assert band.high == pytest.approx((1 + 3 / math.log2(3)) / idcg)
    assert band.low == pytest.approx(1 / idcg)
    assert band.expected == pytest.approx((1 + 1 / math.log2(3)) / idcg)  # mean gain 1 at position 2
    assert (band.tied_groups, band.tied_documents, band.orders) == (1, 3, 6)


def test_no_ties_is_a_point():
    band = tie_band([3, 2, 0], [0.3, 0.2, 0.1])
    assert band.low == band.expected == band.high
    assert band.width == 0 and band.orders == 1 and band.tied_groups == 0


@pytest.mark.parametrize(("rule", "value"), [("zero", 0.0), ("one", 1.0), ("skip", math.nan)])
def test_zero_idcg_rules_apply_to_all_three(rule, value):
    band = tie_band([0, 0], [1.0, 1.0], zero_idcg=rule)  # IDCG = 0: the rule decides every figure of the band
    np.testing.assert_equal([band.low, band.expected, band.high], [value] * 3)


def test_refuses_what_evaluate_scores_refuses():
    with pytest.raises(InvalidInput):
        tie_band([1, 2], [1.0])
    with pytest.raises(InvalidInput):
        tie_band([1, -2], [1.0, 2.0])


def test_the_number_of_orders_is_written_as_a_size_once_it_is_huge():
    """Hundreds of tied documents have ~10^200 orders and more: the caption printed all the digits (three lines)."""
    from ui.formatting import grouped

    scores = np.repeat(np.arange(100.0), 5)[:496]
    band = tie_band(np.zeros(496), scores, k=10)
    orders = math.prod(math.factorial(size) for size in np.unique(scores, return_counts=True)[1])
    assert band.orders == orders and len(str(orders)) > 100
    assert grouped(orders) == f"about {orders / 10 ** (len(str(orders)) - 1):.1f} × 10^{len(str(orders)) - 1}"
    assert grouped(999_999_999_999_999) == "999,999,999,999,999" and grouped(10**15) == "about 1.0 × 10^15"


def test_a_tie_band_rows_ideal_words_name_the_list_the_libraries_in_it_use():
    """No judged document outside the ranking: trec_eval, pytrec_eval, ranx and ir_measures (ideal from every
    judgment) were listed under "ideal from the ranked list" (helper-63). With one, each source has its row."""
    from ui.tie_band_view import tie_band_rows

    alone = tie_band_rows([3, 0, 1, 2], [0.9, 0.9, 0.4, 0.4])
    assert {row["setting"].split(", ")[1] for row in alone} == {"one ideal list (every judged document is ranked)"}
    assert "trec_eval ndcg_cut" in alone[0]["markers"] and "scikit-learn ndcg_score" in alone[0]["markers"]
    extra = tie_band_rows([3, 0, 1, 2], [0.9, 0.9, 0.4, 0.4], judged=[3, 0, 1, 2, 3])
    by_ideal = {row["setting"].split(", ")[1] for row in extra}
    assert by_ideal == {"ideal from the ranked list", "ideal from every judgment"}
    trec = [row["setting"] for row in extra if "trec_eval ndcg_cut" in row["markers"]]
    assert trec and all("ideal from every judgment" in setting for setting in trec)


def test_a_library_that_cuts_a_long_list_by_default_is_marked_in_a_band_with_its_cutoff():
    """40 documents with tied scores and no k: XGBoost's 'ndcg' counts the top 32 only (its default), and its dot was
    drawn at 0.6084 on the uncut 2^grade - 1 band, which runs from 0.6962 to 0.6995: a tie order gave NDCG outside
    the range of every tie order. Every dot now lies in its band; XGBoost's is in a row of its own, cut at 32."""
    from ui.tie_band_view import tie_band_rows

    rng = np.random.default_rng(5)
    grades = rng.integers(0, 4, 40).tolist()
    scores = np.round(rng.random(40), 2).tolist()
    rows = tie_band_rows(grades, scores, judged=grades)
    for row in rows:
        band = row["band"]
        for label, value in row["markers"].items():
            assert band.low - 1e-12 <= value <= band.high + 1e-12, (row["setting"], label, value)
    cut = [row for row in rows if "XGBoost ndcg@k" in row["markers"]]
    assert len(cut) == 1 and cut[0]["setting"].endswith(", cut at 32 (the library's default)")
    assert cut[0]["markers"]["XGBoost ndcg@k"] == pytest.approx(0.6083983668608043, abs=1e-12)  # XGBoost 3's eval
    assert set(cut[0]["markers"]) == {"XGBoost ndcg@k", "XGBoost ndcg@k-"}
    assert cut[0]["band"].low <= 0.6084 <= cut[0]["band"].high
