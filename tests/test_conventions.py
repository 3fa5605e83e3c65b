"""Each CONVENTIONS preset against the library it names, on random inputs.

Every library is called for real: scikit-learn's ndcg_score, pytrec_eval's
RelevanceEvaluator, ranx's evaluate, a LightGBM Booster evaluating its
``init_score`` (no tree trained), an XGBoost Booster with 0 rounds evaluating
its ``base_margin``, and torchmetrics' retrieval_normalized_dcg.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from ndcg_core import CONVENTIONS, Convention, evaluate
from tests.conftest import ranx_evaluate

pytestmark = pytest.mark.oracle

CASES = range(25)


def random_list(seed: int, *, ties: bool = True, max_grade: int = 4):
    """Integer grades, integer-valued scores (exact in float32), a cutoff, extra judgments, document ids."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 30))
    grades = rng.integers(0, max_grade + 1, n)
    if seed % 7 == 3:
        grades[:] = 0  # no relevant document: the zero-IDCG rule decides
    scores = rng.integers(0, 5 if ties else 10 * n, n).astype(float)
    if not ties:
        scores = rng.permutation(n).astype(float)
    k = None if seed % 4 == 0 else int(rng.integers(1, n + 4))
    extra = rng.integers(0, max_grade + 1, int(rng.integers(0, 6)))
    # ids of varying length, so string order differs from number order ("d9" > "d10")
    ids = [f"d{int(x)}" for x in rng.choice(1000, size=n, replace=False)]
    return grades, scores, k, extra, ids


def test_contract_keys_and_fields():
    assert {"sklearn", "trec_eval", "ranx_ndcg", "ranx_ndcg_burges", "lightgbm", "xgboost", "torchmetrics"} <= set(
        CONVENTIONS
    )
    for key, convention in CONVENTIONS.items():
        assert isinstance(convention, Convention)
        assert convention.key == key
        assert convention.gain in ("linear", "exponential")
        assert convention.ties in ("average", "stable", "trec_eval")
        assert convention.ideal in ("ranking", "all_judged")
        assert convention.zero_idcg in ("zero", "one", "skip")  # "skip": gdeval leaves such a topic out
        assert convention.label and convention.library and convention.reason
        assert "\n" not in convention.reason


def test_given_order_without_scores():
    # scores=None evaluates the list as given, with the preset's gain
    assert CONVENTIONS["sklearn"].evaluate([3, 2, 3, 0, 1], k=5).ndcg == pytest.approx(
        evaluate([3, 2, 3, 0, 1], k=5, gain="linear").ndcg
    )
    assert CONVENTIONS["lightgbm"].evaluate([3, 2, 3, 0, 1], k=5).ndcg == pytest.approx(
        evaluate([3, 2, 3, 0, 1], k=5, gain="exponential").ndcg
    )


def test_ranking_ideal_ignores_extra_judgments_and_all_judged_uses_them():
    sklearn_like = CONVENTIONS["sklearn"].evaluate([1, 0], ideal_relevances=[1, 0, 3])
    trec_like = CONVENTIONS["trec_eval"].evaluate([1, 0], ideal_relevances=[1, 0, 3])
    assert sklearn_like.ndcg == 1.0
    # trec_eval without a cutoff keeps every judged document in the ideal list: [3, 1, 0]
    assert trec_like.idcg == pytest.approx(3 + 1 / np.log2(3))
    assert trec_like.k is None


def test_trec_eval_ties_by_document_id_descending():
    convention = CONVENTIONS["trec_eval"]
    # "b" > "a": b ranks first among the tied scores
    assert convention.evaluate([0, 3], [1.0, 1.0], doc_ids=["a", "b"]).ndcg == 1.0
    assert convention.evaluate([3, 0], [1.0, 1.0], doc_ids=["a", "b"]).ndcg < 1.0
    # string order, not number order: "d9" > "d10"
    assert convention.evaluate([0, 3], [1.0, 1.0], doc_ids=["d10", "d9"]).ndcg == 1.0


# ---------------------------------------------------------------- library calls


def sklearn_ndcg(grades, scores, k, extra, ids):
    from sklearn.metrics import ndcg_score

    return ndcg_score([grades], [scores], k=k)


def trec_eval_ndcg(grades, scores, k, extra, ids):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels = {"q": {**{d: int(g) for d, g in zip(ids, grades, strict=True)},
                   **{f"x{j}": int(g) for j, g in enumerate(extra)}}}
    run = {"q": {d: float(s) for d, s in zip(ids, scores, strict=True)}}
    measure = "ndcg" if k is None else f"ndcg_cut.{k}"
    values = pytrec_eval.RelevanceEvaluator(qrels, {measure}).evaluate(run)["q"]
    return values[measure.replace(".", "_")]


def ranx_ndcg(metric):
    def call(grades, scores, k, extra, ids):
        qrels = {"q": {**dict(zip(ids, grades, strict=True)), **{f"x{j}": g for j, g in enumerate(extra)}}}
        run = {"q": dict(zip(ids, scores, strict=True))}
        return ranx_evaluate(qrels, run, metric if k is None else f"{metric}@{k}")

    return call


def lightgbm_ndcg(grades, scores, k, extra, ids):
    lgb = pytest.importorskip("lightgbm")
    features = np.zeros((len(grades), 1))
    dataset = lgb.Dataset(features, label=grades, group=[len(grades)], init_score=scores, params={"verbosity": -1})
    params = {"objective": "lambdarank", "metric": "ndcg", "ndcg_eval_at": [k or len(grades)], "verbosity": -1}
    booster = lgb.Booster(params, dataset)  # no boosting round: the scores are the init_score
    return booster.eval_train()[0][2]


def xgboost_ndcg(minus: bool):
    def call(grades, scores, k, extra, ids):
        xgb = pytest.importorskip("xgboost")
        matrix = xgb.DMatrix(np.zeros((len(grades), 1)), label=grades, base_margin=scores)
        matrix.set_group([len(grades)])
        metric = ("ndcg" if k is None else f"ndcg@{k}") + ("-" if minus else "")
        booster = xgb.train({"objective": "rank:ndcg", "eval_metric": metric}, matrix, num_boost_round=0)
        return float(booster.eval(matrix).rsplit(":", 1)[1])

    return call


def torchmetrics_ndcg(grades, scores, k, extra, ids):
    torch = pytest.importorskip("torch")
    functional = pytest.importorskip("torchmetrics.functional.retrieval")
    value = functional.retrieval_normalized_dcg(
        torch.tensor(scores, dtype=torch.float32), torch.tensor(grades, dtype=torch.long), top_k=k
    )
    return float(value)


# key -> (library call, whether ties are deterministic in the library, tolerance)
LIBRARIES = {
    "sklearn": (sklearn_ndcg, True, 1e-12),
    "trec_eval": (trec_eval_ndcg, True, 1e-12),  # integer-valued scores: pytrec_eval's float32 loses nothing
    "pytrec_eval": (trec_eval_ndcg, True, 1e-12),
    "ranx_ndcg": (ranx_ndcg("ndcg"), False, 1e-12),
    "ranx_ndcg_burges": (ranx_ndcg("ndcg_burges"), False, 1e-12),
    "lightgbm": (lightgbm_ndcg, True, 1e-12),
    "xgboost": (xgboost_ndcg(minus=False), True, 1e-12),  # exact with float32-representable scores
    "xgboost_minus": (xgboost_ndcg(minus=True), True, 1e-12),
    "torchmetrics": (torchmetrics_ndcg, True, 2e-6),  # float32 arithmetic
}


def test_every_preset_has_a_library_check():
    # presets whose library is not installable here are checked against their sources' figures in
    # tests/test_more_conventions.py (ir_measures there too, against the installed package); the
    # Järvelin–Kekäläinen preset has no library: tests/test_jarvelin_kekalainen.py checks the paper's own figures
    assert set(LIBRARIES) == set(CONVENTIONS) - {"ir_measures", "trec_gdeval", "es_rank_eval", "keras_rs",
                                                   "quepid", "jarvelin_kekalainen_2002"}


@pytest.mark.parametrize("seed", CASES)
@pytest.mark.parametrize("key", sorted(LIBRARIES))
def test_preset_matches_library(key, seed):
    call, deterministic_ties, tolerance = LIBRARIES[key]
    grades, scores, k, extra, ids = random_list(seed, ties=deterministic_ties)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = call(grades, scores, k, extra, ids)
    ours = CONVENTIONS[key].evaluate(grades, scores, k=k, ideal_relevances=[*grades, *extra], doc_ids=ids)
    assert ours.ndcg == pytest.approx(expected, rel=tolerance, abs=tolerance)


@pytest.mark.parametrize("key", sorted(LIBRARIES))
def test_zero_idcg_rule_matches_library(key):
    call, _, tolerance = LIBRARIES[key]
    grades, scores = np.array([0, 0, 0]), np.array([3.0, 2.0, 1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = call(grades, scores, 3, np.array([], dtype=int), ["a", "b", "c"])
    assert expected == {"zero": 0.0, "one": 1.0}[CONVENTIONS[key].zero_idcg]
    assert CONVENTIONS[key].evaluate(grades, scores, k=3).ndcg == expected


@pytest.mark.parametrize("key", ["lightgbm", "xgboost"])
def test_stable_tie_order_matches_library_on_long_tied_lists(key):
    call, _, tolerance = LIBRARIES[key]
    rng = np.random.default_rng(7)
    grades = rng.integers(0, 5, 200)
    scores = rng.integers(0, 3, 200).astype(float)  # large tied groups
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = call(grades, scores, 20, np.array([], dtype=int), [])
    assert CONVENTIONS[key].evaluate(grades, scores, k=20).ndcg == pytest.approx(expected, abs=tolerance)
    # and it differs from the averaged rule, so the test can tell them apart
    from ndcg_core import evaluate_scores

    averaged = evaluate_scores(grades, scores, k=20, ties="average").ndcg
    assert abs(averaged - expected) > 1e-4


@pytest.mark.parametrize(
    ("key", "grades", "words"),
    [
        ("lightgbm", [31, 0], "0 to 30"),
        ("lightgbm", [1.5, 0], "whole-number"),
        ("xgboost", [32, 0], "0 to 31"),
        ("xgboost_minus", [0.5, 1], "whole-number"),
        ("trec_eval", [2.5, 1], "whole-number"),
        ("ranx_ndcg", [1.5, 1], "whole-number"),
    ],
)
def test_grades_the_library_refuses_are_refused(key, grades, words):
    from ndcg_core import InvalidInput

    call, _, _ = LIBRARIES[key]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if key == "trec_eval":
            pytrec_eval = pytest.importorskip("pytrec_eval")
            with pytest.raises(Exception, match="integer"):  # noqa: B017
                pytrec_eval.RelevanceEvaluator({"q": {"a": grades[0], "b": grades[1]}}, {"ndcg"})
        elif key == "ranx_ndcg":
            # ranx does not refuse: its Qrels reads 1.5 as 1, and gives the NDCG of a different input (two equal
            # grades: 1.0, where grades 1.5 and 1 ranked b, a give 0.913)
            assert call(np.array(grades), np.array([1.0, 2.0]), 2, [], ["a", "b"]) == pytest.approx(1.0, abs=1e-12)
        else:
            with pytest.raises(Exception):  # noqa: B017 - each library raises its own error type
                call(np.array(grades), np.array([1.0, 2.0]), 2, np.array([], dtype=int), ["a", "b"])
    with pytest.raises(InvalidInput, match=words):
        CONVENTIONS[key].evaluate(grades, [1.0, 2.0], k=2)


def test_float_grades_are_fine_where_the_library_takes_them():
    for key in ("sklearn", "torchmetrics"):
        assert 0 < CONVENTIONS[key].evaluate([1.5, 0.5], [1.0, 2.0]).ndcg < 1


# ---------------------------------------------------------------- precision and default cutoffs, from the libraries


@pytest.mark.parametrize(("base", "gap", "ties_in_pytrec"), [
    (1.0, 1e-9, True), (1.0, 1e-8, True), (1.0, 1e-6, False), (1000.0, 1e-5, True), (0.001, 1e-9, False),
])
def test_pytrec_eval_keeps_scores_in_single_precision(base, gap, ties_in_pytrec):
    """Doc "a" (grade 1) scores base + gap, doc "b" (grade 0) base: in a tie trec_eval puts "b" (larger id) first."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    measured = pytrec_eval.RelevanceEvaluator({"q": {"a": 1, "b": 0}}, {"ndcg"}).evaluate(
        {"q": {"a": base + gap, "b": base}})["q"]["ndcg"]
    tied = 1 / math.log2(3)  # "b" first: DCG = 1 / log2(3), IDCG = 1
    assert measured == pytest.approx(tied if ties_in_pytrec else 1.0, abs=1e-12)
    grades, scores, ids = [1, 0], [base + gap, base], ["a", "b"]
    assert CONVENTIONS["pytrec_eval"].evaluate(grades, scores, doc_ids=ids).ndcg == pytest.approx(measured, abs=1e-12)
    # trec_eval 10 keeps doubles: "a" ranks first whatever the gap
    assert CONVENTIONS["trec_eval"].evaluate(grades, scores, doc_ids=ids).ndcg == 1.0
    assert "single-precision" in CONVENTIONS["pytrec_eval"].caveat
    assert "pytrec_eval" in CONVENTIONS["trec_eval"].caveat


@pytest.mark.parametrize("minus", [False, True])
def test_xgboost_ndcg_without_k_counts_32_documents(minus):
    """XGBoost 'ndcg' (no @k) is NDCG@32, not the whole list (LambdaRankParam's DefaultK)."""
    xgb = pytest.importorskip("xgboost")
    rng = np.random.default_rng(5)
    grades = rng.integers(0, 4, 100)
    grades[:40] = 0  # relevant documents past rank 32 exist, so @32 and the whole list differ
    scores = np.arange(100, 0, -1).astype(float)
    matrix = xgb.DMatrix(np.zeros((100, 1)), label=grades, base_margin=scores)
    matrix.set_group([100])
    booster = xgb.train({"objective": "rank:ndcg", "eval_metric": "ndcg" + ("-" if minus else "")}, matrix, 0)
    measured = float(booster.eval(matrix).rsplit(":", 1)[1])
    preset = CONVENTIONS["xgboost_minus" if minus else "xgboost"]
    ours = preset.evaluate(grades, scores)
    assert ours.k == 32 and preset.default_k == 32
    assert ours.ndcg == pytest.approx(measured, abs=1e-6)  # XGBoost reports float32
    whole = evaluate(grades.tolist(), gain="exponential").ndcg
    assert abs(whole - measured) > 1e-3  # so the truncation is what makes them agree
    assert "32" in preset.caveat


def test_xgboost_preset_rounds_scores_to_float32():
    xgb = pytest.importorskip("xgboost")
    grades, scores = np.array([1, 0]), np.array([1.0 + 1e-9, 1.0])  # equal in float32: stable order keeps a first
    matrix = xgb.DMatrix(np.zeros((2, 1)), label=grades[::-1], base_margin=scores[::-1])  # b listed first
    matrix.set_group([2])
    booster = xgb.train({"objective": "rank:ndcg", "eval_metric": "ndcg@2"}, matrix, 0)
    measured = float(booster.eval(matrix).rsplit(":", 1)[1])
    ours = CONVENTIONS["xgboost"].evaluate(grades[::-1], scores[::-1], k=2).ndcg
    assert ours == pytest.approx(measured, abs=1e-6)
    assert ours == pytest.approx(1 / math.log2(3), abs=1e-12)  # tied, input order: b (grade 0) first


def test_the_lightgbm_call_shown_runs_and_gives_the_presets_figure():
    """The Library conventions page showed ``lgb.Dataset(X, label, group, init_score=scores)``: the third positional
    parameter is ``reference``, so the snippet raised AttributeError in LightGBM 4.7. The call shown is run here as
    written (X: one constant feature; k = 3) and gives the preset's figure."""
    import lightgbm as lgb
    import numpy as np

    relevances, scores, k = [3, 2, 0, 1, 2, 0], [0.1, 0.9, 0.4, 0.8, 0.3, 0.2], 3
    X = np.zeros((len(relevances), 1))
    call = CONVENTIONS["lightgbm"].call
    # The call is the app's own constant text (ndcg_core/_conventions.py), run as a user would paste it.
    names = {"X": X, "relevances": relevances, "scores": scores, "k": k}
    [(_, metric, value, _)] = eval(call, {"lgb": lgb}, names)  # noqa: S307
    assert metric == f"ndcg@{k}"
    assert value == pytest.approx(CONVENTIONS["lightgbm"].evaluate(relevances, scores, k=k).ndcg, abs=1e-12)
