"""diagnose: finds each library's own preset from the library's number, and never claims a wrong convention.

Soundness is checked against ``reference_ndcg`` below, a plain-Python
calculation written from the formulas (sorted() with explicit keys, loops),
sharing no code with ndcg_core.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ndcg_core
from ndcg_core import CONVENTIONS, InvalidInput, diagnose
from ndcg_core._search_space import DEFAULT_CUTOFFS, DIMENSIONS
from tests.test_conventions import LIBRARIES

pytestmark = pytest.mark.oracle


def reference_ndcg(grades, scores, ids, judged, k, setting):
    """NDCG of one setting of the search space, from the formulas (no ndcg_core code)."""
    n = len(grades)
    gain = {"linear": lambda x: x, "exponential": lambda x: 2.0 ** x - 1, "pow2": lambda x: 2.0 ** x}[setting["gain"]]
    if scores is None:
        order = list(range(n))
    else:
        values = [float(np.float32(s)) if setting["precision"] == "float32" else float(s) for s in scores]
        rule = setting["ties"]
        rank_of_id = {name: r for r, name in enumerate(sorted(ids, key=lambda x: x.encode()))} if ids else None

        def key(j):
            tie = {"stable": j, "average": j, "optimistic": (-grades[j], j), "pessimistic": (grades[j], j),
                   "trec_eval": -(rank_of_id[ids[j]] if ids else j)}[rule]
            return (-values[j], tie)

        order = sorted(range(n), key=key)
    ranked_gains = [gain(grades[j]) for j in order]
    if scores is not None and setting["ties"] == "average":
        for j in range(n):
            group = [i for i in range(n) if values[order[i]] == values[order[j]]]
            ranked_gains[j] = sum(gain(grades[order[i]]) for i in group) / len(group)

    def weight(rank):
        if setting["discount"] == "log2":
            return 1 / math.log2(rank + 1)
        if setting["discount"] == "log2_shifted":
            return 1 / math.log2(rank + 2)
        base = {"jk_b2": 2, "jk_b10": 10}[setting["discount"]]
        return 1.0 if rank < base else math.log(base) / math.log(rank)

    cutoff = {"given": k, "whole": None}.get(setting["k"])
    if setting["k"].startswith("default_"):
        cutoff = int(setting["k"].removeprefix("default_"))
    depth = n if cutoff is None else min(cutoff, n)
    dcg = sum(ranked_gains[i] * weight(i + 1) for i in range(depth))
    ideal = sorted(grades if setting["ideal"] == "ranking" else judged, reverse=True)
    ideal_depth = {"cutoff": len(ideal) if cutoff is None else cutoff, "ranking_length": depth,
                   "uncut": len(ideal)}[setting["ideal_depth"]]
    idcg = sum(gain(g) * weight(i + 1) for i, g in enumerate(ideal[:ideal_depth]))
    if idcg > 0:
        return dcg / idcg
    return {"zero": 0.0, "one": 1.0, "skip": math.nan}[setting["zero_idcg"]]


def random_case(seed: int, *, ties: bool):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 25))
    grades = rng.integers(0, 5, n)
    if seed % 11 == 5:
        grades[:] = 0
    scores = rng.integers(0, 6, n).astype(float) if ties else rng.permutation(n).astype(float) * 1.5
    k = None if seed % 4 == 0 else int(rng.integers(1, n + 4))
    extra = rng.integers(0, 5, int(rng.integers(0, 5)))
    ids = [f"d{int(x)}" for x in rng.choice(1000, size=n, replace=False)]
    return grades, scores, k, extra, ids


def ir_measures_ndcg(grades, scores, k, extra, ids):
    ir_measures = pytest.importorskip("ir_measures")
    qrels = [ir_measures.Qrel("q", d, int(g)) for d, g in zip(ids, grades, strict=True)]
    qrels += [ir_measures.Qrel("q", f"x{j}", int(g)) for j, g in enumerate(extra)]
    run = [ir_measures.ScoredDoc("q", d, float(s)) for d, s in zip(ids, scores, strict=True)]
    measure = ir_measures.nDCG if k is None else ir_measures.nDCG @ k
    return ir_measures.calc_aggregate([measure], qrels, run)[measure]


ORACLES = {key: (call, deterministic) for key, (call, deterministic, _) in LIBRARIES.items()}
ORACLES["ir_measures"] = (ir_measures_ndcg, True)
PRESET_OF = {key: key for key in LIBRARIES} | {"ir_measures": "ir_measures"}


@pytest.mark.parametrize("library", sorted(ORACLES))
def test_finds_the_library_preset_from_the_library_number(library):
    call, deterministic = ORACLES[library]
    preset = PRESET_OF[library]
    found_all = found_unique = unique = 0
    misses = []
    for seed in range(100):
        grades, scores, k, extra, ids = random_case(seed, ties=deterministic)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = call(grades, scores, k, extra, ids)
        finding = diagnose(grades, scores, reported={library: value}, ideal_relevances=[*grades, *extra], k=k,
                           doc_ids=ids).findings[0]
        own = finding.preset_values[preset]
        # "unique to the preset": no preset of another library gives the same figure on this input
        is_unique = not any(abs(v - own) <= 5e-5 for key, v in finding.preset_values.items()
                            if CONVENTIONS[key].library != CONVENTIONS[preset].library)
        exact = {key for match in finding.matches for key in match.presets}
        unique += is_unique
        found_all += preset in exact
        found_unique += is_unique and preset in exact
        if preset not in exact:
            misses.append((seed, value, own))
        # the library's name in the label puts its preset first
        assert finding.matches and (preset in finding.matches[0].presets or preset not in exact)
    assert found_all / 100 >= 0.99, misses
    if unique:
        assert found_unique / unique >= 0.99, misses


@pytest.mark.parametrize("seed", range(40))
def test_every_claimed_convention_reproduces_the_number(seed):
    grades, scores, k, extra, ids = random_case(seed, ties=True)
    judged = [*grades, *extra]
    rng = np.random.default_rng(seed + 1000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        library_value = LIBRARIES["lightgbm"][0](grades, scores, k, extra, ids)
    reported = {"LightGBM": library_value, "random": float(rng.uniform(0, 1)), "sklearn-ish": round(
        LIBRARIES["sklearn"][0](grades, scores, k, extra, ids), 4)}
    result = diagnose(grades, scores, reported=reported, ideal_relevances=judged, k=k, doc_ids=ids)
    for finding in result.findings:
        for match in finding.matches:
            value = reference_ndcg(list(grades), list(scores), ids, judged, k, match.setting)
            assert value == pytest.approx(finding.reported, abs=5e-5 + 1e-12), (match.setting, finding.label)
            # and so does every alternative value listed for a dimension
            for name in DIMENSIONS:
                for alternative in match.alternatives[name][:2]:
                    moved = {**match.setting, name: alternative}
                    assert reference_ndcg(list(grades), list(scores), ids, judged, k, moved) == pytest.approx(
                        match.ndcg, abs=1e-12)


@pytest.mark.parametrize("seed", range(15))
def test_preset_values_equal_the_presets(seed):
    grades, scores, k, extra, ids = random_case(seed, ties=True)
    finding = diagnose(grades, scores, reported=0.5, ideal_relevances=[*grades, *extra], k=k,
                       doc_ids=ids).findings[0]
    for key, convention in CONVENTIONS.items():
        scores_used = scores.astype(np.float32).astype(float) if key in ("xgboost", "xgboost_minus",
                                                                         "torchmetrics") else scores
        expected = convention.evaluate(grades, scores_used, k=k, ideal_relevances=[*grades, *extra], doc_ids=ids)
        assert finding.preset_values[key] == pytest.approx(expected.ndcg, abs=1e-12)


def test_lightgbm_against_scikit_learn_is_explained():
    # grades 3, 2, 0, 1 ranked in that order: linear gain 0.9854, exponential gain 0.9926
    result = diagnose([3, 2, 0, 1], [4, 3, 2, 1], reported={"scikit-learn": 0.9854, "LightGBM": 0.9926})
    sklearn_finding, lightgbm_finding = result.findings
    assert sklearn_finding.matches[0].presets[0] == "sklearn"
    assert lightgbm_finding.matches[0].presets[0] == "lightgbm"
    assert "2^grade − 1" in result.comparison and "the grade itself" in result.comparison


def test_zero_idcg_rules():
    assert "lightgbm" in diagnose([0, 0, 0], reported=1.0).findings[0].matches[0].presets
    zero = diagnose([0, 0, 0], reported=0.0).findings[0].matches[0]
    assert "sklearn" in zero.presets and zero.setting["zero_idcg"] == "zero"
    skipped = diagnose([0, 0, 0], reported=float("nan")).findings[0].matches
    assert skipped and all(match.setting["zero_idcg"] == "skip" for match in skipped)


def test_off_by_one_discount_is_one_departure():
    grades = [3, 2, 3, 0, 1, 2]
    gains = [2 ** g - 1 for g in grades]
    ideal = sorted(gains, reverse=True)
    shifted = sum(g / math.log2(i + 3) for i, g in enumerate(gains)) / sum(
        g / math.log2(i + 3) for i, g in enumerate(ideal))
    match = diagnose(grades, reported={"mine": shifted}).findings[0].matches[0]
    assert not match.presets
    assert [name for name, _, _ in match.departures] == ["discount"] and match.setting["discount"] == "log2_shifted"
    assert "off by one" in match.sentence


def test_jarvelin_kekalainen_discount_by_hand():
    # b = 2: ranks 1 and 2 undiscounted, rank 3 divided by log2(3); linear gain
    grades = [1, 3, 2]
    value = (1 + 3 + 2 / math.log2(3)) / (3 + 2 + 1 / math.log2(3))
    match = diagnose(grades, reported=value).findings[0].matches[0]
    assert match.setting["discount"] == "jk_b2" and match.setting["gain"] == "linear"


def test_ideal_from_every_judgment_and_untruncated_ideal():
    # ranked 2, 1 with an unretrieved grade-3 document; k = 1
    everything = diagnose([2, 1], reported={"trec_eval": 2 / 3}, ideal_relevances=[2, 1, 3], k=1).findings[0]
    assert "trec_eval" in everything.matches[0].presets
    # ideal not cut at k: IDCG over [2, 1] whole = 2 + 1/log2(3)
    uncut = diagnose([2, 1], reported=2 / (2 + 1 / math.log2(3)), k=1).findings[0].matches[0]
    assert uncut.setting["ideal_depth"] == "uncut" and len(uncut.departures) == 1


def test_float32_ties_are_searched():
    # the two scores are one float32 value: XGBoost ties them (input order), double precision does not
    grades, scores = [0, 3], [1.0, 1.0 + 1e-9]
    value = CONVENTIONS["xgboost"].evaluate(grades, np.float32(scores).astype(float)).ndcg
    match = diagnose(grades, scores, reported={"XGBoost": value}).findings[0].matches[0]
    assert "xgboost" in match.presets and match.setting["precision"] == "float32"


def test_default_cutoffs_are_searched():
    rng = np.random.default_rng(3)
    grades, scores = rng.integers(0, 4, 60), rng.permutation(60).astype(float)
    value = CONVENTIONS["xgboost"].evaluate(grades, scores, k=32).ndcg  # XGBoost's "ndcg" without @k
    match = diagnose(grades, scores, reported={"XGBoost ndcg": value}).findings[0].matches[0]
    assert match.setting["k"] == "default_32" and 32 in DEFAULT_CUTOFFS


def test_no_match_says_so():
    finding = diagnose([3, 2, 1], reported=0.123).findings[0]
    assert finding.matches == () and "no convention" in finding.summary


def test_several_calculations_are_all_reported():
    # grades 0/1: linear and exponential gain agree, so one calculation, both listed as alternatives
    match = diagnose([1, 0, 1], reported=CONVENTIONS["sklearn"].evaluate([1, 0, 1]).ndcg).findings[0].matches[0]
    assert {"linear", "exponential"} <= set(match.alternatives["gain"])


@pytest.mark.parametrize("reported", ["0.5x", "1.5", 1.5, -0.2, [], [("a", "b")], True, None])
def test_bad_reported_numbers_are_refused(reported):
    with pytest.raises(InvalidInput):
        diagnose([1, 0], reported=reported)


def test_table_shows_both_calculations():
    result = diagnose([0, 3, 1], [1.0, 1.0, 0.5], reported={"sklearn": 0.8115}, k=2)
    match = result.findings[0].matches[0]
    table = result.table(match)
    assert table["cumulative_dcg"].iloc[-1] == pytest.approx(match.dcg)
    assert table["cumulative_idcg"].iloc[-1] == pytest.approx(match.idcg)
    assert table["ideal_grade"].tolist()[:3] == [3, 1, 0]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(*[st.sampled_from([-1.0, -0.0, 0.0, 0.5, 2.0, 7.25])] * 3), min_size=1, max_size=60))
def test_grid_rows_are_grouped_as_numpy_unique_groups_them(rows):
    from ndcg_core._diagnose_grid import row_groups

    keys = np.array(rows, dtype=float)
    _, expected = np.unique(keys, axis=0, return_inverse=True)
    assert row_groups(keys).tolist() == expected.reshape(-1).tolist()


def test_two_numbers_that_differ_only_through_settings_together_are_not_called_equal():
    """pytrec_eval and ranx on grades 1, 0, 3, 2 with scores 1.000000001, 1, 0.5, 0.5 (ids x, y, z, w): 0.6284 and
    0.7059, their real outputs. The tie order alone and the float32 rounding alone change nothing here (x and y
    tie only after rounding; z and w tie either way and are ordered alike), together they do. The comparison said
    "the same calculation reproduces both (they differ by less than the tolerance)"."""
    found = diagnose([1, 0, 3, 2], [1.000000001, 1, 0.5, 0.5], doc_ids=["x", "y", "z", "w"],
                               reported={"pytrec_eval": 0.6284, "ranx": 0.7059})
    assert "less than the tolerance" not in found.comparison
    assert found.comparison == (
        "ranx's number: it uses tied scores kept in input order and scores compared in double precision; "
        "pytrec_eval's number used tied scores ordered by document id, Z to A and scores rounded to float32 first "
        "(close scores can tie). Each of these alone changes nothing on this input; together they make the "
        "difference.")
    same = diagnose([1, 0, 3, 2], [1.000000001, 1, 0.5, 0.5], doc_ids=["x", "y", "z", "w"],
                              reported={"a": 0.7059, "b": 0.70591})
    assert same.comparison == "a and b: the same calculation reproduces both (they differ by less than the tolerance)."


@pytest.mark.oracle
def test_two_equal_numbers_are_not_said_to_differ_by_a_choice():
    """A perfect ranking (grades 3, 2, 1, 0 by descending score): scikit-learn and LightGBM both print 1.0, and the
    page explained the "difference" with "LightGBM's number: it uses gain = 2^grade − 1; scikit-learn's number used
    gain = the grade itself" (the first calculation found for each number differs in the gain, which cannot change
    NDCG here). The same for one document (pytrec_eval and XGBoost: 1.0). It now says they are the same number."""
    from sklearn.metrics import ndcg_score

    from tests.test_conventions import lightgbm_ndcg, trec_eval_ndcg, xgboost_ndcg

    grades, scores = [3, 2, 1, 0], [4.0, 3.0, 2.0, 1.0]
    sklearn = float(ndcg_score([grades], [scores]))
    lightgbm = float(lightgbm_ndcg(grades, scores, None, [], None))
    assert (sklearn, lightgbm) == (1.0, 1.0)
    found = diagnose(grades, scores, reported=[("scikit-learn", repr(sklearn)), ("LightGBM", repr(lightgbm))])
    assert found.comparison == (
        "scikit-learn and LightGBM: the same number. The calculations that give them differ (gain = 2^grade − 1 for "
        "LightGBM; gain = the grade itself for scikit-learn), but on this input that does not change NDCG.")
    ids = ["d1"]
    single = (trec_eval_ndcg([2], [0.5], None, [], ids), xgboost_ndcg(minus=False)([2], [0.5], None, [], ids))
    assert tuple(map(float, single)) == (1.0, 1.0)
    found = diagnose([2], [0.5], doc_ids=ids, reported=[("pytrec_eval", "1.0"), ("XGBoost", "1.0")])
    assert found.comparison.startswith("pytrec_eval and XGBoost: the same number.")
    assert "XGBoost's number: it uses" not in found.comparison
    # Two numbers that do differ are still explained by the choice that separates them.
    reverse = [1.0, 2.0, 3.0, 4.0]
    differ = diagnose(grades, reverse, reported=[("scikit-learn", repr(float(ndcg_score([grades], [reverse])))),
                                                  ("LightGBM", repr(float(lightgbm_ndcg(grades, reverse, None, [], None))))])
    assert differ.comparison == ("LightGBM's number: it uses gain = 2^grade − 1; scikit-learn's number used gain = "
                                 "the grade itself.")


@pytest.mark.oracle
def test_a_cutoff_in_the_labels_measure_name_is_read_when_k_is_empty():
    """LightGBM logs "ndcg@3" (its default ndcg_eval_at is 1-5). Pasted with that label and k left empty, its real
    0.8557 was "no library preset's figure ... LightGBM ndcg metric's own conventions give 0.9649 on this input, so
    the number came from different settings or a different input": the whole list, against the @3 the label says.
    The label's cutoff is now read (a searched one), or the page asks for it as k."""
    from tests.test_conventions import lightgbm_ndcg

    grades, scores = [3, 2, 0, 1, 2, 0, 1], [0.9, 0.9, 0.5, 0.5, 0.1, 0.05, 0.01]
    real = float(lightgbm_ndcg(grades, scores, 3, [], None))
    assert round(real, 4) == 0.8557
    finding = diagnose(grades, scores, reported=[("LightGBM ndcg@3", repr(real))]).findings[0]
    assert finding.summary == (f"LightGBM ndcg@3 ({real!r}) is what LightGBM ndcg metric computes. (k is empty, so "
                               "the cutoff in the label, 3, was used.)")
    assert finding.matches[0].setting["k"] == "default_3" and finding.matches[0].presets == ("lightgbm",)
    unsearched = diagnose(grades, scores, reported=[("LightGBM ndcg@7", "0.9649")]).findings[0]
    assert unsearched.summary.endswith("(LightGBM ndcg@7 names a cutoff of 7, which is not searched when k is empty: "
                                       "type k = 7.)")
    other_k = diagnose(grades, scores, k=5, reported=[("LightGBM ndcg@3", repr(real))]).findings[0]
    assert other_k.summary.endswith("(LightGBM ndcg@3 names a cutoff of 3, but k is 5.)")


@pytest.mark.oracle
def test_a_cutoff_given_as_the_calls_k_in_the_label_is_read_too():
    """"scikit-learn ndcg_score(k=3)" (the call, as an engineer copies it) with k left empty: scikit-learn's real
    figure at k = 3 was "no library preset's figure"; the label's k is read like "ndcg@3"."""
    from sklearn.metrics import ndcg_score

    grades, scores = [3, 2, 0, 1, 2, 0, 1], [0.9, 0.9, 0.5, 0.5, 0.1, 0.05, 0.01]
    real = float(ndcg_score([grades], [scores], k=3))
    finding = diagnose(grades, scores, reported=[("scikit-learn ndcg_score(k=3)", repr(real))]).findings[0]
    assert finding.summary.startswith(f"scikit-learn ndcg_score(k=3) ({real!r}) is what scikit-learn ndcg_score")
    assert finding.matches[0].setting["k"] == "default_3" and "sklearn" in finding.matches[0].presets
    assert finding.summary.endswith("(k is empty, so the cutoff in the label, 3, was used.)")


@pytest.mark.oracle
def test_scores_beyond_single_precision_tie_as_the_float32_libraries_store_them():
    """Scores 2e39, 1e39, 1 (an exp() of a large logit): valid doubles, but past float32's largest (about 3.4e38),
    where pytrec_eval and torchmetrics store both as inf, a tie. The page refused the whole input ("scores:
    position 1 is infinite (or beyond about 1e308)"), while pytrec_eval prints 0.6697 (the tie broken by id: b, grade
    0, first) and scikit-learn 0.9502. Both are now explained, the difference by the float32 storage."""
    import warnings

    import pytrec_eval
    import torch
    from sklearn.metrics import ndcg_score
    from torchmetrics.functional.retrieval import retrieval_normalized_dcg

    grades, scores, ids = [2, 0, 1], [2e39, 1e39, 1.0], ["a", "b", "c"]
    trec = pytrec_eval.RelevanceEvaluator({"q": dict(zip(ids, grades, strict=True))}, {"ndcg"}).evaluate(
        {"q": dict(zip(ids, scores, strict=True))})["q"]["ndcg"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's own float32 overflow
        torch_value = float(retrieval_normalized_dcg(torch.tensor(scores, dtype=torch.float32), torch.tensor(grades)))
    sklearn = float(ndcg_score([grades], [scores]))
    assert (round(trec, 4), round(torch_value, 4), round(sklearn, 4)) == (0.6697, 0.8100, 0.9502)
    assert CONVENTIONS["pytrec_eval"].evaluate(grades, scores, doc_ids=ids).ndcg == pytest.approx(trec, abs=1e-12)
    assert CONVENTIONS["torchmetrics"].evaluate(grades, scores).ndcg == pytest.approx(torch_value, abs=1e-6)
    found = diagnose(grades, scores, doc_ids=ids, reported=[("scikit-learn", repr(sklearn)), ("pytrec_eval", repr(trec))])
    assert found.comparison == ("pytrec_eval's number: it uses scores rounded to float32 first (close scores can tie); "
                                "scikit-learn's number used scores compared in double precision.")
    assert found.findings[1].matches[0].presets[:1] == ("pytrec_eval",)


@pytest.mark.parametrize(("label", "preset"), [
    ("XGBoost ndcg@2-", "xgboost_minus"), ("xgboost ndcg-", "xgboost_minus"), ("XGBoost ndcg@k-", "xgboost_minus"),
    ("XGBoost ndcg@2", "xgboost"), ("ranx ndcg-burges", "ranx_ndcg_burges"), ("ranx ndcg", "ranx_ndcg"),
])
def test_a_label_in_the_librarys_own_metric_name_names_its_preset(label, preset):
    """XGBoost writes its "0 when nothing is relevant" metric as ndcg@2- (the trailing minus); the label was read
    as plain XGBoost, and the page said "XGBoost ndcg@k's own conventions give 1.0000 on this input, so the number
    came from different settings" for XGBoost's own 0.0 (xgboost 3: ndcg@2- = 0, ndcg@2 = 1 on all-zero grades)."""
    value = 0.0 if preset == "xgboost_minus" else CONVENTIONS[preset].evaluate([0, 0, 0, 0], k=2).ndcg
    finding = diagnose([0, 0, 0, 0], [0.4, 0.3, 0.2, 0.1], k=2, reported={label: value}).findings[0]
    assert finding.named_presets == (preset,)
    assert "own conventions give" not in finding.summary
    assert preset in finding.matches[0].presets


def test_presets_grouped_by_a_figure_are_not_put_under_one_of_their_gains():
    """On all-zero grades every gain gives the same figure: the group of scikit-learn (the grade itself) and ranx
    ndcg_burges, XGBoost, Elasticsearch, Keras-RS (2^grade − 1) was described as "gain = the grade itself"."""
    finding = diagnose([0, 0, 0], [0.3, 0.2, 0.1], reported={"scikit-learn": 0.0}).findings[0]
    match = finding.matches[0]
    assert {"sklearn", "ranx_ndcg_burges", "xgboost_minus"} <= set(match.presets)
    assert "gain = the grade itself or gain = 2^grade − 1 (the same figure here)" in match.sentence
    assert "0 for a query with no relevant document" in match.sentence
    # Where the presets agree, one value is said: grades 3, 2, 0, 1 tell linear from exponential gain.
    sentence = diagnose([3, 2, 0, 1], [4, 3, 2, 1], reported={"LightGBM": 0.9926}).findings[0].matches[0].sentence
    assert sentence.startswith("LightGBM ndcg metric") and "gain = 2^grade − 1;" in sentence
    assert "the grade itself" not in sentence


def test_a_number_typed_to_three_decimals_is_matched_as_rounded():
    """scikit-learn gives 0.98544 on grades 3, 2, 0, 1 (scores 4..1) and LightGBM 0.99262: printed "0.985" and
    "0.993", they matched nothing (a fixed tolerance of 5e-5) and the page said "no convention reproduces it"."""
    grades, scores = [3, 2, 0, 1], [4, 3, 2, 1]
    assert CONVENTIONS["sklearn"].evaluate(grades, scores).ndcg == pytest.approx(0.98544, abs=5e-6)
    assert CONVENTIONS["lightgbm"].evaluate(grades, scores).ndcg == pytest.approx(0.99262, abs=5e-6)
    found = diagnose(grades, scores, reported={"scikit-learn": "0.985", "LightGBM": "0.993"})
    sklearn, lightgbm = found.findings
    assert sklearn.matches[0].presets[0] == "sklearn" and lightgbm.matches[0].presets[0] == "lightgbm"
    assert sklearn.tolerance == pytest.approx(5e-4) and sklearn.printed == "0.985"
    assert "Read as a rounded figure: every calculation from 0.9845 to 0.9855 counts" in sklearn.summary
    assert found.comparison == ("LightGBM's number: it uses gain = 2^grade − 1; scikit-learn's number used gain = "
                                "the grade itself.")
    # The same figure given as a float keeps the strict tolerance: a float carries no printed precision.
    assert not diagnose(grades, scores, reported=0.985).findings[0].matches


def test_a_short_number_is_first_read_as_exact():
    """"1" is NDCG exactly 1 (a perfect ranking), not anything from 0.5 to 1.5; "0.5" where a calculation gives
    exactly 0.5 is not widened to 0.45..0.55; "0.6", which nothing gives exactly, is."""
    perfect = diagnose([3, 2, 0], [3, 2, 1], reported="1").findings[0]
    assert perfect.tolerance == 5e-5 and "rounded" not in perfect.summary
    assert all(abs(perfect.preset_values[key] - 1) <= 5e-5 for m in perfect.matches for key in m.presets)
    # grades 0, 1 ranked: 1/log2(3) = 0.6309 under every preset; gain 2^grade cut at 1 gives 2^0 / 2^1 = 0.5 exactly
    half = diagnose([0, 1], [2, 1], reported="0.5").findings[0]
    assert half.tolerance == 5e-5 and "rounded" not in half.summary and half.matches
    near = diagnose([0, 1], [2, 1], reported="0.6").findings[0]
    assert near.tolerance == pytest.approx(0.05) and "from 0.55 to 0.65 counts" in near.summary
    assert "sklearn" in near.matches[0].presets  # 0.6309 rounds to 0.6


@pytest.mark.parametrize(("grades", "scores", "label", "printed", "figure"), [
    ([0, 0, 0, 1], [4, 3, 2, 1], "scikit-learn", "0", 0.4306765580733931),
    ([3, 2, 0, 1, 2], [0.9, 0.8, 0.7, 0.6, 0.5], "XGBoost", "1", 0.9686383655679718),
    ([3, 2, 0, 1, 2], [0.9, 0.8, 0.7, 0.6, 0.5], "XGBoost", "1.0", 0.9686383655679718),
])
def test_ndcgs_bounds_typed_as_whole_numbers_are_exact_even_when_the_named_library_rounds_to_them(
        grades, scores, label, printed, figure):
    """A library that gives 0.4307 does not print "0": a labelled "0" or "1" is read as exact, so the page says the
    library's own convention gives another figure (it had read "0" as 0 to 0.5 and confirmed it)."""
    from sklearn.metrics import ndcg_score

    from tests.test_conventions import xgboost_ndcg

    finding = diagnose(grades, scores, reported=[(label, printed)]).findings[0]
    assert finding.tolerance == 5e-5 and "rounded" not in finding.summary
    own = finding.preset_values["sklearn" if label == "scikit-learn" else "xgboost"]
    assert own == pytest.approx(figure, abs=1e-12)
    library = (ndcg_score([grades], [scores]) if label == "scikit-learn"
               else xgboost_ndcg(minus=False)(grades, scores, None, [], None))  # the installed library's figure
    assert own == pytest.approx(library, abs=1e-6)  # (XGBoost prints six digits)
    assert "own conventions give" in finding.summary and f"{figure:.4f}" in finding.summary


@pytest.mark.parametrize("text", ["abc", "0.5.1", "inf"])
def test_a_typed_number_that_is_not_one_is_refused(text):
    with pytest.raises(InvalidInput, match="Reported number 1"):
        diagnose([1, 0], reported=[text])


@pytest.mark.parametrize(("grades", "printed"), [([3, 3, 2, 1, 1, 2], "0.99"), ([3, 0, 3, 3, 0, 1], "0.90"),
                                                 ([2, 3, 2, 0, 1], "0.927")])
def test_a_librarys_own_rounded_figure_is_its_match_when_another_calculation_hits_the_text_exactly(grades, printed):
    """scikit-learn gives 0.990067 on grades 3, 3, 2, 1, 1, 2 (printed 0.99); another calculation gives 0.99000x, so
    the number was matched strictly and the page said "scikit-learn's own conventions give 0.9901 on this input,
    so the number came from different settings" (likewise 0.901043 as "0.90", 0.927467 as "0.927")."""
    figure = CONVENTIONS["sklearn"].evaluate(grades).ndcg
    assert f"{figure:.{len(printed) - 2}f}" == printed and abs(figure - float(printed)) > 5e-5
    finding = diagnose(grades, reported=[("scikit-learn", printed)]).findings[0]
    assert "sklearn" in finding.matches[0].presets
    assert "own conventions give" not in finding.summary and "Read as a rounded figure" in finding.summary
    # Without a label the strict reading stands: some calculation gives the text within 0.00005.
    unlabelled = diagnose(grades, reported=[printed]).findings[0]
    assert unlabelled.tolerance == 5e-5 and unlabelled.matches and "rounded" not in unlabelled.summary


@pytest.mark.oracle
def test_a_library_that_refuses_or_truncates_the_grades_is_not_said_to_compute_the_number():
    """Grades 1.5, 0, 2.5: "torchmetrics (0.7979) is what ... trec_eval ndcg, pytrec_eval ndcg, ranx ndcg and
    ir_measures nDCG compute" (pytrec_eval refuses the grades, ranx reads 1.5 as 1 and gets 0.7602), and ranx's
    real 0.7602 was "no convention searched reproduces it"."""
    import pytrec_eval
    from ranx import Qrels, Run, evaluate
    from sklearn.metrics import ndcg_score

    grades, scores = [1.5, 0, 2.5], [0.9, 0.5, 0.1]
    sklearn = float(ndcg_score([grades], [scores]))
    ids = ["d1", "d2", "d3"]
    ranx = float(evaluate(Qrels({"q": dict(zip(ids, grades, strict=True))}), Run({"q": dict(zip(ids, scores, strict=True))}), "ndcg"))
    with pytest.raises(TypeError):
        pytrec_eval.RelevanceEvaluator({"q": dict(zip(ids, grades, strict=True))}, {"ndcg"})
    assert (round(sklearn, 4), round(ranx, 4)) == (0.7979, 0.7602)
    first, second = diagnose(grades, scores, reported={"scikit-learn": sklearn, "ranx": ranx}).findings
    claimed = {key for match in first.matches for key in match.presets}
    assert "sklearn" in claimed and not claimed & {"trec_eval", "pytrec_eval", "ranx_ndcg", "ir_measures"}
    # ranx gives no error for 1.5: it computes on 1, so its number is its figure on the grades it read
    assert ("ranx ndcg takes fractional grades without an error and reads each as its whole part (1.5 as 1, 2.5 as "
            "2). On the grades it reads, its figure is 0.7602: this number is ranx ndcg's figure") in second.summary
    assert "did not come from ranx" not in second.summary
    # Whole grades: the same libraries are named as before.
    whole = diagnose([1, 0, 2], scores, reported={"trec_eval": CONVENTIONS["trec_eval"].evaluate(
        [1, 0, 2], scores).ndcg}).findings[0]
    assert "trec_eval" in {key for match in whole.matches for key in match.presets}


@pytest.mark.oracle
def test_a_number_from_a_library_that_reads_fractional_grades_as_whole_ones_is_explained():
    """Grades 1.5, 0, 2.5, 1: ranx gives ndcg_burges 0.7094 without a word (it reads 1.5 as 1, 2.5 as 2), but the
    page said "it would refuse or truncate the grade 1.5. So this number did not come from ranx ndcg_burges on these
    grades as typed" and, above it, "ranx ndcg_burges: no convention reproduces it, so the difference cannot be
    explained". It now says that ranx read the grades as whole numbers and that this is ranx's figure; pytrec_eval,
    which refuses 1.5, is still said not to have given the number."""
    from ranx import Qrels, Run, evaluate
    from sklearn.metrics import ndcg_score

    grades, scores = [1.5, 0, 2.5, 1], [0.4, 0.3, 0.2, 0.1]
    ids = ["d1", "d2", "d3", "d4"]
    burges = float(evaluate(Qrels({"q": dict(zip(ids, grades, strict=True))}),
                            Run({"q": dict(zip(ids, scores, strict=True))}), "ndcg_burges"))
    sklearn = float(ndcg_score([grades], [scores]))
    assert (round(sklearn, 4), round(burges, 4)) == (0.8060, 0.7094)
    assert burges == pytest.approx(ndcg_core.evaluate([1, 0, 2, 1], gain="exponential").ndcg)  # ranx read 1, 0, 2, 1
    diagnosis = diagnose(grades, scores, reported=[("scikit-learn", repr(sklearn)), ("ranx ndcg_burges", repr(burges))])
    second = diagnosis.findings[1]
    assert second.summary == (
        f"ranx ndcg_burges ({burges!r}): ranx ndcg_burges takes fractional grades without an error and reads each "
        "as its whole part (1.5 as 1, 2.5 as 2). On the grades it reads, its figure is 0.7094: this number is ranx "
        "ndcg_burges's figure for these grades.")
    assert diagnosis.comparison == (
        "ranx ndcg_burges's number: ranx ndcg_burges read the fractional grades as whole numbers (1.5 as 1, 2.5 as "
        "2); scikit-learn's number used the grades as typed. ranx ndcg_burges also uses gain = 2^grade − 1 where "
        "scikit-learn's number used gain = the grade itself.")
    # A number no whole-number reading gives is still another setting's; pytrec_eval refuses 1.5 (TypeError).
    other = diagnose(grades, scores, reported=[("ranx ndcg_burges", "0.6512")]).findings[0]
    assert "its figure is 0.7094, not this number: it came from different settings" in other.summary
    refused = diagnose(grades, scores, reported=[("pytrec_eval", "0.7763")]).findings[0]
    assert "did not come from pytrec_eval on these grades as typed" in refused.summary
    # Of trec_eval's 0.7763 (its figure on 1, 0, 2, 1) and a ranx number nothing gives, ranx's is the unexplained one
    # (the comparison named trec_eval, whose number it had just explained).
    both = diagnose(grades, scores, reported=[("trec_eval", "0.7763"), ("ranx", "0.6512")])
    assert both.comparison == "ranx: no convention reproduces it, so the difference cannot be explained."


def test_a_pytrec_eval_number_on_tied_scores_without_ids_is_not_called_another_settings():
    """trec_eval orders tied scores by document id. With no ids typed, the preset takes one order (the later position
    first); pytrec_eval's real figure for the user's ids is another order's, and the page said it "came from
    different settings". It now gives the range over every order of the ties and asks for the ids."""
    from tests.test_conventions import trec_eval_ndcg

    grades, scores = [0, 3, 1, 0, 2], [0.9, 0.5, 0.9, 0.2, 0.5]
    ids = ["z", "a", "y", "b", "c"]  # the ties: z (grade 0) above y (grade 1); c (grade 2) above a (grade 3)
    real = trec_eval_ndcg(grades, scores, None, [], ids)  # the installed pytrec_eval
    guessed = CONVENTIONS["trec_eval"].evaluate(grades, scores).ndcg  # no ids: the later position first
    assert abs(real - guessed) > 1e-3
    best = ndcg_core.evaluate([1, 0, 3, 2, 0], gain="linear").ndcg  # every tie broken the best way, by hand
    worst = ndcg_core.evaluate([0, 1, 2, 3, 0], gain="linear").ndcg
    finding = diagnose(grades, scores, reported=[("pytrec_eval", f"{real:.6f}")]).findings[0]
    assert (f"pytrec_eval ndcg_cut orders tied scores by document id, and no ids were given: its figure here, "
            f"{guessed:.4f}, takes the later of two tied documents first, and other ids give anything from "
            f"{worst:.4f} to {best:.4f}. This number is in that range: type the document ids to check it."
            ) in finding.summary
    assert "came from different settings" not in finding.summary
    # With the ids, the preset is pytrec_eval's figure; a number outside the range is still called another setting.
    with_ids = diagnose(grades, scores, reported=[("pytrec_eval", f"{real:.6f}")], doc_ids=ids).findings[0]
    assert "trec_eval" in with_ids.matches[0].presets
    lightgbm = f"{CONVENTIONS['lightgbm'].evaluate(grades, scores).ndcg:.6f}"  # 0.577353: exponential gain
    outside = diagnose(grades, scores, reported=[("pytrec_eval", lightgbm)]).findings[0]
    assert "This number is outside it, so it came from different settings or a different input." in outside.summary


def test_a_real_ranx_figure_on_tied_scores_is_named_as_possible_not_as_other_settings():
    """Query 101 of an engineer's run (16 documents, ties at 0.9, 0.8, 0.5, 0.3, 0.2): ranx's ndcg@10 is 0.3552, its
    ties reordered by an unstable sort (neither input nor id order). The page said ranx's "own conventions give
    0.1461, so the number came from different settings". Labelled "ranx", the same number matched ranx ndcg and
    was still said to miss ranx ndcg_burges."""
    import ranx

    grades = [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0]
    scores = [0.9, 0.9, 0.8, 0.8, 0.8, 0.5, 0.5, 0.3, 0.3, 0.3, 0.3, 0.3, 0.2, 0.2, 0.2, 0.1]
    ids = ["D01", "D11", "D08", "D13", "X99", "D12", "D14", "D04", "D05", "D06", "D07", "D10", "D02", "D09", "D15",
           "D03"]
    qrels = ranx.Qrels({"q": {doc: grade for doc, grade in zip(ids, grades, strict=True) if grade > 0}})
    run = ranx.Run({"q": dict(zip(ids, scores, strict=True))})
    # ranx compiled by numba printed 0.3551588773328819 (an exploratory pass); the interpreted ranx of this test run
    # (NUMBA_DISABLE_JIT, tests/conftest.py) sorts the same ties another way: both are ranx's figures.
    here = float(ranx.evaluate(qrels, run, "ndcg@10"))
    for figure in (0.3551588773328819, here):
        (finding,) = ndcg_core.diagnose(grades, scores, k=10, doc_ids=ids, reported={"ranx ndcg": figure}).findings
        assert "different settings or a different input" not in finding.summary, (figure, finding.summary)
    (finding,) = ndcg_core.diagnose(grades, scores, k=10, doc_ids=ids,
                                    reported={"ranx ndcg": 0.3551588773328819}).findings
    assert "unstable internal sort" in finding.summary and "it can be ranx ndcg's figure" in finding.summary
    assert "0.1461 with the ties in input order" in finding.summary
    labelled = ndcg_core.diagnose([3, 0, 1, 2, 0, 1], [0.9, 0.9, 0.5, 0.5, 0.5, 0.1], k=4,
                                  reported={"ranx": 0.8399273613836907})
    assert "is what" in labelled.findings[0].summary and "ranx" in labelled.findings[0].summary
    assert "different settings" not in labelled.findings[0].summary


def test_a_ranx_figure_no_calculation_gives_in_one_large_tie_is_still_named_as_possible():
    """Twenty documents all scored 1 (a model with constant scores): compiled ranx 0.3.21 gives ndcg@10 = 0.2025,
    its unstable sort having reordered the tie (input order gives 0.7470). No tie rule searched gives 0.2025, and the
    page said "no convention searched reproduces it. The closest preset, TREC Web Track gdeval.pl, gives 0.3841;
    check the grades …": the user's number was ranx's. It is now checked against the range over the tie's orders,
    as in small ties; the range's ends are the best and the worst order's NDCG@10, from the formula."""
    import ranx

    grades = [3, 3, 3, 1, 0, 3, 0, 3, 3, 0, 3, 2, 1, 0, 2, 0, 0, 0, 0, 3]
    ids = [f"d{i:03d}" for i in range(20)]
    qrels = ranx.Qrels({"q": {doc: grade for doc, grade in zip(ids, grades, strict=True) if grade > 0}})
    here = float(ranx.evaluate(qrels, ranx.Run({"q": dict.fromkeys(ids, 1.0)}), "ndcg@10"))  # this run's ranx
    discounts = [math.log2(i + 2) for i in range(10)]
    ideal = sum(g / d for g, d in zip(sorted(grades, reverse=True), discounts, strict=False))
    worst = sum(g / d for g, d in zip(sorted(grades), discounts, strict=False)) / ideal
    # The interpreted ranx of this test run (NUMBA_DISABLE_JIT, tests/conftest.py) may keep input order: both are
    # ranx's figures, and neither is called another setting's.
    for figure in (0.2025261178448428, here):
        (finding,) = diagnose(grades, [1] * 20, k=10, doc_ids=ids, reported={"ranx ndcg@10": figure}).findings
        assert "closest preset" not in finding.summary and "different settings" not in finding.summary, finding.summary
        assert "it can be ranx ndcg's figure" in finding.summary or "is what ranx ndcg" in finding.summary
    (finding,) = diagnose(grades, [1] * 20, k=10, doc_ids=ids, reported={"ranx ndcg@10": 0.2025261178448428}).findings
    assert finding.summary.startswith("ranx ndcg@10 (0.2025): no calculation searched gives it exactly. ranx ndcg "
                                      "orders tied scores with an unstable internal sort")
    assert f"anything from {worst:.4f} to 1.0000 over their orders" in finding.summary


@settings(max_examples=25, deadline=None)
@given(grades=st.lists(st.integers(0, 3), min_size=3, max_size=8), k=st.integers(1, 3), data=st.data())
def test_a_number_labelled_with_trec_eval_s_whole_list_measure_is_read_without_the_users_cutoff(grades, k, data):
    """pytrec_eval has ``ndcg`` (no cutoff) and ``ndcg_cut.k``: with k set on the page, a figure labelled
    "pytrec_eval ndcg" was called "no library preset's figure; the nearest reading: pytrec_eval ndcg_cut with 1
    change: no cutoff". Each label, with the installed pytrec_eval's own figure for each measure, is that measure's."""
    import pytrec_eval

    if not any(grades):  # a relevant document: an all-zero query is another question (the zero-IDCG rule)
        grades = [*grades[:-1], 1]
    n = len(grades)
    scores = data.draw(st.permutations(list(range(n, 0, -1))))  # distinct scores: no tie order to guess
    ids = [f"d{i}" for i in range(n)]
    measures = pytrec_eval.RelevanceEvaluator({"q": dict(zip(ids, grades, strict=True))},
                                              {"ndcg", f"ndcg_cut.{k}"}).evaluate(
        {"q": {doc: float(score) for doc, score in zip(ids, scores, strict=True)}})["q"]
    whole, cut = measures["ndcg"], measures[f"ndcg_cut_{k}"]
    for label, value, measure in (("pytrec_eval ndcg", whole, "pytrec_eval ndcg"),
                                  (f"pytrec_eval ndcg_cut.{k}", cut, "pytrec_eval ndcg_cut"),
                                  ("pytrec_eval", whole, "pytrec_eval ndcg"),
                                  ("pytrec_eval", cut, "pytrec_eval ndcg_cut"),
                                  ("trec_eval ndcg", whole, "trec_eval ndcg")):
        finding = diagnose(grades, scores, reported={label: value}, k=k, doc_ids=ids).findings[0]
        assert finding.summary.startswith(f"{label} ({value:.4f}) is what {measure}") or \
            f" {measure} " in finding.summary.split(" is what ")[1].split(" compute")[0] + " ", finding.summary
        # Read without the cutoff: a label naming the whole-list measure always; a bare library name when only the
        # whole-list measure gives the number.
        uncut = label.endswith(" ndcg") or measure.endswith(" ndcg") and not math.isclose(whole, cut, abs_tol=5e-5)
        assert (f"has no cutoff, so k = {k} does not apply to it" in finding.summary) == uncut, finding.summary


def test_pytrec_eval_ndcg_with_k_set_names_the_measure_and_the_cutoff_it_ignores():
    """Grades 3 2 0 1 2 ranked by scores 5..1, k = 3: pytrec_eval's ndcg is 0.9602 and ndcg_cut.3 0.8100."""
    grades, scores, ids = [3, 2, 0, 1, 2], [5, 4, 3, 2, 1], ["d0", "d1", "d2", "d3", "d4"]
    summary = diagnose(grades, scores, reported={"pytrec_eval ndcg": "0.9602"}, k=3, doc_ids=ids).findings[0].summary
    assert summary == ("pytrec_eval ndcg (0.9602) is what pytrec_eval ndcg computes. "
                       "(pytrec_eval ndcg has no cutoff, so k = 3 does not apply to it.)")
    # Said of the family ("ndcg") with the cut figure: the cut measure, no note.
    summary = diagnose(grades, scores, reported={"pytrec_eval ndcg": "0.8100"}, k=3, doc_ids=ids).findings[0].summary
    assert summary.startswith("pytrec_eval ndcg (0.8100) is what pytrec_eval ndcg_cut, ") and "no cutoff" not in summary
    # A label naming the cut measure with the whole-list figure is not read as the whole-list measure.
    summary = diagnose(grades, scores, reported={"pytrec_eval ndcg_cut.3": "0.9602"}, k=3,
                       doc_ids=ids).findings[0].summary
    assert summary.startswith("pytrec_eval ndcg_cut.3 (0.9602) is no library preset's figure; the nearest reading: "
                              "pytrec_eval ndcg_cut with 1 change: no cutoff")


def test_diagnose_reads_k_as_evaluate_does():
    """``k=2.0`` (a numeric widget's value, a DataFrame cell) raised numpy's IndexError "arrays used as indices must
    be of integer type" where evaluate reads it as 2; ``k=1.5``, NaN and ``"3"`` raised IndexError or TypeError
    instead of InvalidInput. Grades 3, 2, 0, 1 ranked as given, linear gain, k = 2: NDCG@2 = 1, the number
    scikit-learn prints."""
    whole = diagnose([3, 2, 0, 1], reported={"scikit-learn": 1.0}, k=2.0)
    same = diagnose([3, 2, 0, 1], reported={"scikit-learn": 1.0}, k=2)
    assert whole.findings[0].summary == same.findings[0].summary
    assert "sklearn" in whole.findings[0].matches[0].presets
    for k, words in ((1.5, "cannot be a fraction"), (math.nan, "k must be a positive whole number"),
                     ("3", "pass the number itself"), (0, "would count no document")):
        with pytest.raises(InvalidInput, match=words):
            diagnose([3, 2, 0, 1], reported={"scikit-learn": 1.0}, k=k)


@pytest.mark.parametrize(("label", "stated"), [("ir_measures nDCG@10", 10), ("ranx ndcg@5", 5)])
def test_a_cutoff_read_from_the_label_is_said_to_come_from_the_label(label, stated):
    """k empty and "ir_measures nDCG@10": the calculation was written "cut at 10 (the usual @10 (Quepid's
    nDCG@10))", and "ranx ndcg@5" "cut at 5 (LightGBM's default ndcg_eval_at (1-5))": the cutoff came from the
    label, not from Quepid's or LightGBM's default. Grades 2, 0, 3, 1, 0, 2, 1, 0, 0, 1, 2, 0 ranked as given,
    linear gain, NDCG@stated (trec_eval's and ranx's figure with no ties)."""
    grades = [2, 0, 3, 1, 0, 2, 1, 0, 0, 1, 2, 0]
    value = ndcg_core.evaluate(grades, k=stated, gain="linear").ndcg
    finding = diagnose(grades, reported={label: value}).findings[0]
    assert f"(k is empty, so the cutoff in the label, {stated}, was used.)" in finding.summary
    sentence = finding.matches[0].sentence
    assert f"cut at {stated} (the cutoff in the label)" in sentence
    assert "Quepid" not in sentence and "LightGBM" not in sentence


def test_a_number_no_preset_gives_is_not_said_to_have_used_the_nearest_calculation():
    """Document 004 prints NDCG@5 = 0.94 for [3, 2, 3, 0, 1], a slip: 12.78 / 13.65, its IDCG miscomputed (the
    Worked examples page). Typed beside scikit-learn's 0.9724, the comparison said "Document 004's number used
    gain = 2^grade (the −1 forgotten) and a cutoff at 4": a two-decimal coincidence (14.9544 / 15.9088 = 0.9400) stated as
    what the document did. A fit that no library preset computes is now said to be one."""
    scores = [0.9, 0.8, 0.3, 0.2, 0.1]
    found = ndcg_core.diagnose([3, 2, 3, 0, 1], scores, k=5, reported={"Document 004": "0.94", "scikit-learn": "0.9724"})
    # the coincidence, by hand: gains 2^grade, cut at 4: (8 + 4/log2 3 + 8/2 + 1/log2 5) / (8 + 8/log2 3 + 4/2 + 2/log2 5)
    fit = (8 + 4 / math.log2(3) + 4 + 1 / math.log2(5)) / (8 + 8 / math.log2(3) + 2 + 2 / math.log2(5))
    assert round(fit, 2) == 0.94
    assert found.comparison == (
        "scikit-learn's number: it uses gain = the grade itself and the given k; Document 004's number is no library "
        "preset's figure: gain = 2^grade (the −1 forgotten) and a cutoff at 4 would give it, but so could a slip in the "
        "arithmetic.")
    swapped = ndcg_core.diagnose([3, 2, 3, 0, 1], scores, k=5, reported={"scikit-learn": "0.9724", "Document 004": "0.94"})
    assert swapped.comparison.startswith("Document 004's number is no library preset's figure: gain = 2^grade (the −1 "
                                         "forgotten) and a cutoff at 4 would give it, but so could a slip in the "
                                         "arithmetic; scikit-learn's number used gain = the grade itself and the given k.")
