"""incomplete_judgments: condensed-list NDCG and judged@k against ir_measures, the bounds by hand."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from ndcg_core import InvalidInput, evaluate, incomplete_judgments


def test_docstring_example_by_hand():
    # ranking: unjudged, 3, unjudged, 1, 0; judged elsewhere: a 2; k = 3, linear gain
    result = incomplete_judgments([None, 3, None, 1, 0], k=3, gain="linear", ideal_relevances=[3, 0, 1, 2])
    idcg = 3 + 2 / math.log2(3) + 1 / 2
    assert result.standard == pytest.approx((3 / math.log2(3)) / idcg)
    assert result.condensed == pytest.approx((3 + 1 / math.log2(3)) / idcg)  # 3, 1, 0 move up
    assert result.judged_at_k == pytest.approx(1 / 3)
    assert (result.n_unjudged, result.n_unjudged_at_k, result.highest) == (2, 2, 3.0)
    # upper: the two unjudged documents judged 3; they join the ideal list [3, 3, 3, 2, ...]
    assert result.upper == pytest.approx((3 + 3 / math.log2(3) + 3 / 2) / (3 + 3 / math.log2(3) + 3 / 2))
    assert result.lower == result.standard


def test_nothing_unjudged_all_figures_agree():
    result = incomplete_judgments([3, 0, 2], gain="linear")
    expected = evaluate([3, 0, 2], gain="linear").ndcg
    assert result.standard == result.condensed == result.upper == pytest.approx(expected)
    assert result.judged_at_k == 1.0


def test_everything_unjudged():
    result = incomplete_judgments([None, None], k=2)
    assert result.condensed == 0.0 and result.judged_at_k == 0 and result.standard == 0.0  # IDCG = 0: the rule's 0
    assert result.upper == 1.0  # every document at the assumed grade 1: the ranking is ideal
    assert incomplete_judgments([None, None], k=2, zero_idcg="one").condensed == 1.0


def test_nothing_judged_retrieved_has_an_empty_condensed_list_worth_zero():
    """The condensed list of a ranking whose documents are all unjudged was NaN ('no condensed list'), and the
    Dataset page's mean left such queries out, unlike trec_eval -J (pytrec_eval judged_docs_only_flag), which counts
    them as 0: DCG of an empty list over the query's ideal."""
    result = incomplete_judgments([None, None], k=2, gain="linear", ideal_relevances=[2, 1])
    assert result.condensed == 0.0 and result.standard == 0.0


def test_scores_rank_first_then_unjudged_are_removed():
    # scores put the unjudged document first; condensed drops it and the grade-2 document leads
    result = incomplete_judgments([2, float("nan"), 0], [0.5, 0.9, 0.1], k=1, gain="linear")
    assert result.standard == 0.0 and result.condensed == 1.0 and result.judged_at_k == 0.0


@pytest.mark.oracle
@pytest.mark.parametrize("seed", range(30))
def test_against_ir_measures(seed):
    ir_measures = pytest.importorskip("ir_measures")
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 20))
    grades = rng.integers(0, 4, n).astype(float)
    unjudged = rng.random(n) < (0.3 if seed % 5 else 1.0)  # every fifth seed: nothing retrieved is judged
    scores = rng.permutation(n).astype(float)  # distinct: no tie rule involved
    extra = rng.integers(0, 4, int(rng.integers(0, 4)))
    k = int(rng.integers(1, n + 3))
    qrels = [ir_measures.Qrel("q", f"d{j}", int(g)) for j, g in enumerate(grades) if not unjudged[j]]
    qrels += [ir_measures.Qrel("q", f"x{j}", int(g)) for j, g in enumerate(extra)]
    if not qrels:
        return
    run = [ir_measures.ScoredDoc("q", f"d{j}", float(s)) for j, s in enumerate(scores)]
    measures = [ir_measures.nDCG @ k, ir_measures.nDCG(judged_only=True) @ k, ir_measures.Judged @ k]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        values = ir_measures.calc_aggregate(measures, qrels, run)
    marks = [None if unjudged[j] else g for j, g in enumerate(grades)]
    result = incomplete_judgments(marks, scores, k=k, gain="linear",
                                  ideal_relevances=[*grades[~unjudged], *extra])
    assert result.standard == pytest.approx(values[measures[0]], abs=1e-12)
    assert result.condensed == pytest.approx(values[measures[1]], abs=1e-12)  # nothing judged retrieved too
    assert result.judged_at_k == pytest.approx(values[measures[2]], abs=1e-12)


def test_refusals():
    with pytest.raises(InvalidInput):
        incomplete_judgments([])
    with pytest.raises(InvalidInput):
        incomplete_judgments([1, None], [1.0])
    with pytest.raises(InvalidInput):
        incomplete_judgments([1, "x"])


def test_log_base_and_discount_are_taken_as_evaluate_takes_them():
    """incomplete_judgments had no log_base or discount keyword (evaluate, evaluate_scores, tie_band, evaluate_run and
    incomplete_run all take them): under Järvelin-Kekäläinen's discount, where the base changes NDCG, no condensed
    figure matched the user's evaluate(..., discount="jk", log_base=10). By hand: grades 3, ?, 1, 2 (? unjudged);
    with b = 10 ranks 1-9 are undiscounted, so the standard DCG is 3 + 0 + 1 + 2 = 6 over IDCG 3 + 2 + 1 = 6 (NDCG
    1), and so is the condensed list's."""
    import ndcg_core

    result = ndcg_core.incomplete_judgments([3, None, 1, 2], gain="linear", discount="jk", log_base=10)
    assert result.standard == pytest.approx(1.0) and result.condensed == pytest.approx(1.0)
    plain = ndcg_core.incomplete_judgments([3, None, 1, 2], gain="linear")  # log_b(i + 1): 3 + 1/2 + 2/log2(5)
    assert plain.standard == pytest.approx((3 + 1 / 2 + 2 / math.log2(5)) / (3 + 2 / math.log2(3) + 1 / 2))
    assert result.standard == ndcg_core.evaluate([3, 0, 1, 2], gain="linear", discount="jk", log_base=10).ndcg
