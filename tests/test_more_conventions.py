"""The presets added for issue 13, each against its library or the figures of its source.

* ir_measures: the installed package, on random lists.
* gdeval.pl, Elasticsearch rank_eval, Keras-RS, Quepid: not installable here; figures worked from the formulas their
  sources use (the Elasticsearch ones are those in its own test DiscountedCumulativeGainAtTests).
* Järvelin and Kekäläinen (2002): the DCG vector of the paper's own example, with b = 2.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from ndcg_core import CONVENTIONS, diagnose
from ndcg_core._search_space import discount_weights
from tests.test_diagnose import ir_measures_ndcg


@pytest.mark.oracle
@pytest.mark.parametrize("seed", range(30))
def test_ir_measures_preset_matches_the_package(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 25))
    grades = rng.integers(0, 4, n)
    scores = rng.integers(0, 5, n).astype(float)  # ties: ids decide, as in trec_eval
    ids = [f"d{int(x)}" for x in rng.choice(1000, size=n, replace=False)]
    extra = rng.integers(0, 4, int(rng.integers(0, 4)))
    k = None if seed % 3 == 0 else int(rng.integers(1, n + 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = ir_measures_ndcg(grades, scores, k, extra, ids)
    ours = CONVENTIONS["ir_measures"].evaluate(grades, scores, k=k, ideal_relevances=[*grades, *extra], doc_ids=ids)
    assert ours.ndcg == pytest.approx(expected, abs=1e-12)


@pytest.mark.oracle
def test_ir_measures_preset_ties_scores_as_its_pytrec_eval_provider_stores_them():
    """Scores 1 + 1e-9, 1 and 1 + 2e-9 are one tie in single precision: ir_measures gives 0.9502 (ids descending,
    d3 d2 d1); the preset said 1.0000, ranking them as double-precision numbers."""
    grades, scores, ids = [1, 0, 2], [1.000000001, 1.0, 1.000000002], ["d1", "d2", "d3"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = ir_measures_ndcg(np.array(grades), np.array(scores), None, np.array([], dtype=int), ids)
    assert expected == pytest.approx(0.950234, abs=1e-6)
    ours = CONVENTIONS["ir_measures"].evaluate(grades, scores, doc_ids=ids, ideal_relevances=grades)
    assert ours.ndcg == pytest.approx(expected, abs=1e-12)


def test_gdeval_by_its_formula():
    # qrels: a=2, b=0, c=1, x=3 (not retrieved); run scores a=1, b=2, c=1 (a and c tie: docno descending puts c first)
    convention = CONVENTIONS["trec_gdeval"]
    result = convention.evaluate([2, 0, 1], [1.0, 2.0, 1.0], k=20, ideal_relevances=[2, 0, 1, 3], doc_ids=["a", "b", "c"])
    dcg = 0 / math.log(2) + 1 / math.log(3) + 3 / math.log(4)  # b, c, a: gains 0, 1, 3 over ln(rank + 1)
    idcg = 7 / math.log(2) + 3 / math.log(3) + 1 / math.log(4)  # 3, 2, 1
    assert result.ndcg == pytest.approx(dcg / idcg)
    # a topic without a relevant document is left out (no value)
    assert math.isnan(convention.evaluate([0, 0], [1.0, 2.0], k=20).ndcg)


def test_elasticsearch_figures_from_its_own_test():
    # DiscountedCumulativeGainAtTests: ratings 3, 2, 3, 0, 1, 2 in hit order; DCG 13.848263629272981,
    # ideal (3, 3, 2, 2, 1, 0) 14.595390756454922
    result = CONVENTIONS["es_rank_eval"].evaluate([3, 2, 3, 0, 1, 2], k=10)
    assert result.dcg == pytest.approx(13.848263629272981, abs=1e-12)
    assert result.idcg == pytest.approx(14.595390756454922, abs=1e-12)
    assert result.ndcg == pytest.approx(13.848263629272981 / 14.595390756454922, abs=1e-12)


def test_elasticsearch_cuts_the_ideal_at_the_hits_returned():
    # 2 hits (ratings 1, 0), k = 10, a rated document with 3 not returned: the ideal is cut at 2 places (3, 1)
    result = CONVENTIONS["es_rank_eval"].evaluate([1, 0], [2.0, 1.0], k=10, ideal_relevances=[1, 0, 3])
    assert result.ndcg == pytest.approx(1 / (7 + 1 / math.log2(3)))
    trec_like = CONVENTIONS["ranx_ndcg_burges"].evaluate([1, 0], [2.0, 1.0], k=10, ideal_relevances=[1, 0, 3])
    assert trec_like.ndcg == pytest.approx(1 / (7 + 1 / math.log2(3)))  # same here: only 3 judged
    longer = [1, 0, 3, 2]
    es = CONVENTIONS["es_rank_eval"].evaluate([1, 0], [2.0, 1.0], k=10, ideal_relevances=longer).ndcg
    burges = CONVENTIONS["ranx_ndcg_burges"].evaluate([1, 0], [2.0, 1.0], k=10, ideal_relevances=longer).ndcg
    assert es == pytest.approx(1 / (7 + 3 / math.log2(3)))  # ideal (3, 2) only
    assert burges == pytest.approx(1 / (7 + 3 / math.log2(3) + 1 / 2))  # ideal (3, 2, 1) up to k


def test_keras_rs_by_its_default_functions():
    # labels 0, 1, 1 scored 3, 1, 2: ranked 0, 1(score 2), 1(score 1); gains 2^l - 1, discount 1/log2(rank + 1)
    result = CONVENTIONS["keras_rs"].evaluate([0, 1, 1], [3.0, 1.0, 2.0])
    assert result.ndcg == pytest.approx((1 / math.log2(3) + 1 / 2) / (1 + 1 / math.log2(3)))
    assert CONVENTIONS["keras_rs"].evaluate([0, 0], [1.0, 2.0]).ndcg == 0.0
    # Grades 0, 2, 1 scored 3, 1, 2, another document judged 3: gains 2^l - 1 (0, 1, 3 in rank order; linear gain
    # would give 0, 1, 2) and the ideal from the list's own labels (3, 1, 0: the judged 3 left out).
    graded = CONVENTIONS["keras_rs"].evaluate([0, 2, 1], [3.0, 1.0, 2.0], ideal_relevances=[0, 2, 1, 3])
    assert graded.ndcg == pytest.approx((1 / math.log2(3) + 3 / 2) / (3 + 1 / math.log2(3)), abs=1e-12)


@pytest.mark.parametrize("key", ["keras_rs", "es_rank_eval", "quepid"])
def test_presets_that_keep_the_input_order_inside_ties(key):
    # grades 0, 2 with equal scores: kept in input order, the 2 comes second (DCG 3 / log2 3 of IDCG 3); the other
    # tie rules would give 1.0 (optimistic), 0.8155 (average) or the order of the ids
    assert CONVENTIONS[key].evaluate([0, 2], [1.0, 1.0]).ndcg == pytest.approx(1 / math.log2(3), abs=1e-12)


def test_jarvelin_kekalainen_2002_dcg_vector():
    # the paper's example gain vector G' and its DCG' with b = 2 (figures as printed, 2 decimals)
    gains = np.array([3, 2, 3, 0, 0, 1, 2, 2, 3, 0], dtype=float)
    dcg = np.cumsum(gains * discount_weights("jk_b2", gains.size))
    assert np.round(dcg, 2).tolist() == [3, 5, 6.89, 6.89, 6.89, 7.28, 7.99, 8.66, 9.61, 9.61]


def test_every_preset_cites_its_source_and_version():
    for key, convention in CONVENTIONS.items():  # the first nine too, with the versions the oracle tests ran
        source = convention.source
        assert source and any(char.isdigit() for char in source), key
    for key in ("sklearn", "trec_eval", "pytrec_eval", "ranx_ndcg", "lightgbm", "xgboost", "torchmetrics",
                "ir_measures", "es_rank_eval", "keras_rs"):
        assert "as of " in CONVENTIONS[key].source, key


def test_diagnose_names_the_new_presets():
    value = CONVENTIONS["es_rank_eval"].evaluate([1, 0], [2.0, 1.0], k=10, ideal_relevances=[1, 0, 3, 2]).ndcg
    match = diagnose([1, 0], [2.0, 1.0], reported={"Elasticsearch": value}, k=10,
                     ideal_relevances=[1, 0, 3, 2]).findings[0].matches[0]
    assert "es_rank_eval" in match.presets


def test_quepid_ndcg_at_10_by_its_scorer():
    # 12 results ranked; ratings of the first 10 count; the ideal is every rated document (13 here), not cut at 10
    ratings = [1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3, 0]
    rated = [*ratings, 2]
    result = CONVENTIONS["quepid"].evaluate(ratings, ideal_relevances=rated)  # k = None: its default, 10
    dcg = sum((2 ** r - 1) / math.log2(i + 2) for i, r in enumerate(ratings[:10]))
    idcg = sum((2 ** r - 1) / math.log2(i + 2) for i, r in enumerate(sorted(rated, reverse=True)))
    assert result.ndcg == pytest.approx(dcg / idcg, abs=1e-12) and result.k == 10
    # ranked by scores first: the grade-2 document (score 0.9) leads
    assert CONVENTIONS["quepid"].evaluate([1, 0, 2], [0.1, 0.5, 0.9]).ndcg == pytest.approx(
        (3 + 0 + 1 / 2) / (3 + 1 / math.log2(3)))
    assert CONVENTIONS["quepid"].evaluate([0, 0]).ndcg == 0.0


def test_diagnose_names_quepid_from_its_number():
    ratings = [1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3, 0]
    value = CONVENTIONS["quepid"].evaluate(ratings, ideal_relevances=[*ratings, 2]).ndcg
    finding = diagnose(ratings, reported={"Quepid": value}, ideal_relevances=[*ratings, 2]).findings[0]
    assert "quepid" in finding.matches[0].presets


@pytest.mark.oracle
def test_the_scikit_learn_preset_refuses_a_list_of_one_document_as_ndcg_score_does():
    """Library conventions said "All 15 conventions agree: NDCG = 1.0000" for one document; ndcg_score raises."""
    from sklearn.metrics import ndcg_score

    import ndcg_core

    with pytest.raises(ValueError, match="more than 1 document"):
        ndcg_score([[3]], [[0.5]])
    with pytest.raises(ndcg_core.InvalidInput, match="refuses a list of 1 document"):
        CONVENTIONS["sklearn"].evaluate([3], [0.5])
    assert CONVENTIONS["sklearn"].evaluate([3, 0], [0.5, 0.1]).ndcg == pytest.approx(ndcg_score([[3, 0]], [[0.5, 0.1]]))
    assert CONVENTIONS["trec_eval"].evaluate([3], [0.5]).ndcg == 1.0  # trec_eval scores one document
