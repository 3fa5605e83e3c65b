"""The list engine against reference libraries on random inputs (scikit-learn, pytrec_eval, ranx)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ndcg_core import evaluate, evaluate_scores
from tests.conftest import ranx_evaluate

pytestmark = pytest.mark.oracle

sklearn_metrics = pytest.importorskip("sklearn.metrics")

SEEDS = range(40)


def random_case(seed: int, *, ties: bool, float_grades: bool = False):
    """Grades and scores for one list; few distinct scores when ``ties`` (so ties are frequent)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 25))
    grades = rng.uniform(0, 4, n).round(1) if float_grades else rng.integers(0, 5, n).astype(float)
    scores = rng.integers(0, 4, n).astype(float) if ties else rng.permutation(n) + rng.uniform(0, 0.5, n)
    k = None if rng.random() < 0.3 else int(rng.integers(1, n + 5))
    return grades, scores, k


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ties", [True, False])
def test_sklearn_ndcg_score(seed, ties):
    grades, scores, k = random_case(seed, ties=ties, float_grades=seed % 3 == 0)
    if len(grades) < 2:
        grades, scores = np.append(grades, 1.0), np.append(scores, -1.0)  # sklearn needs 2+ documents
    expected = sklearn_metrics.ndcg_score([grades], [scores], k=k)
    ours = evaluate_scores(grades, scores, ties="average", gain="linear", k=k, zero_idcg="zero")
    assert ours.ndcg == pytest.approx(expected, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ties", [True, False])
@pytest.mark.parametrize("log_base", [2, 10, math.e])
def test_sklearn_dcg_score(seed, ties, log_base):
    grades, scores, k = random_case(seed, ties=ties)
    if len(grades) < 2:
        grades, scores = np.append(grades, 1.0), np.append(scores, -1.0)
    expected = sklearn_metrics.dcg_score([grades], [scores], k=k, log_base=log_base)
    ours = evaluate_scores(grades, scores, ties="average", gain="linear", k=k, log_base=log_base)
    assert ours.dcg == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_sklearn_all_zero_grades_give_zero():
    assert sklearn_metrics.ndcg_score([[0, 0, 0]], [[3, 2, 1]]) == 0.0
    assert evaluate_scores([0, 0, 0], [3, 2, 1], gain="linear", zero_idcg="zero").ndcg == 0.0


def test_sklearn_refuses_negative_grades_too():
    with pytest.raises(ValueError, match="negative"):
        sklearn_metrics.ndcg_score([[1, -1]], [[1, 2]])


# ---------------------------------------------------------------- pytrec_eval: unretrieved judged documents


@pytest.mark.parametrize("seed", range(30))
def test_pytrec_eval_ndcg_cut_with_unretrieved_judged_documents(seed):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = np.random.default_rng(1000 + seed)
    n_retrieved, n_unretrieved = int(rng.integers(1, 15)), int(rng.integers(0, 8))
    grades = rng.integers(0, 4, n_retrieved)
    extra = rng.integers(0, 4, n_unretrieved)
    k = int(rng.integers(1, 25))
    retrieved = [f"doc{i:03d}" for i in range(n_retrieved)]
    qrels = {"q": {**{d: int(g) for d, g in zip(retrieved, grades, strict=True)},
                   **{f"extra{j:03d}": int(g) for j, g in enumerate(extra)}}}
    run = {"q": {d: float(n_retrieved - i) for i, d in enumerate(retrieved)}}  # distinct, in order
    measured = pytrec_eval.RelevanceEvaluator(qrels, {f"ndcg_cut.{k}", "ndcg"}).evaluate(run)["q"]
    all_judged = [*grades, *extra]
    if sum(all_judged) == 0:
        assert measured[f"ndcg_cut_{k}"] == 0.0
        return
    ours = evaluate(grades, k=k, gain="linear", ideal_relevances=all_judged)
    assert ours.ndcg == pytest.approx(measured[f"ndcg_cut_{k}"], rel=1e-12)
    # trec_eval's plain "ndcg" keeps the whole ideal list: a k that covers every judgment
    whole = evaluate(grades, k=len(all_judged) + n_retrieved, gain="linear", ideal_relevances=all_judged)
    assert whole.ndcg == pytest.approx(measured["ndcg"], rel=1e-12)


# ---------------------------------------------------------------- ranx: exponential gain (Burges)


@pytest.mark.parametrize("seed", range(30))
def test_ranx_ndcg_burges_exponential_gain(seed):
    rng = np.random.default_rng(2000 + seed)
    n = int(rng.integers(1, 20))
    grades = rng.integers(0, 5, n)
    if grades.sum() == 0:
        grades[0] = 1
    scores = rng.permutation(n).astype(float)  # distinct: ranx's order inside ties is not specified
    k = int(rng.integers(1, n + 4))
    ids = [f"d{i}" for i in range(n)]
    qrels = {"q": dict(zip(ids, grades, strict=True))}
    run = {"q": dict(zip(ids, scores, strict=True))}
    burges = ranx_evaluate(qrels, run, f"ndcg_burges@{k}")
    jarvelin = ranx_evaluate(qrels, run, f"ndcg@{k}")
    assert evaluate_scores(grades, scores, gain="exponential", k=k).ndcg == pytest.approx(burges, rel=1e-12)
    assert evaluate_scores(grades, scores, gain="linear", k=k).ndcg == pytest.approx(jarvelin, rel=1e-12)
