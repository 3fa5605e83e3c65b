"""The conformance battery: every expected value against the real library, the downloads, the check."""

from __future__ import annotations

import csv
import io
import json
import math
import warnings

import numpy as np
import pytest

from ndcg_core import (
    BATTERY,
    CONVENTIONS,
    InvalidInput,
    battery_csv,
    battery_expected,
    battery_json,
    check_implementation,
    read_outputs,
)
from tests.test_conventions import LIBRARIES
from tests.test_diagnose import ir_measures_ndcg, reference_ndcg

# trec_eval's column is computed here through pytrec_eval, whose qrels refuse float grades: it gets the whole number
# trec_eval's atol reads. pytrec_eval's own column gets the grades as they are (it refuses 1.5: the battery says so),
# and so does ranx (its Qrels reads 1.5 as 1 itself), so each library's own reading is what is checked.
INTEGER_ONLY = ("trec_eval",)


@pytest.fixture(scope="module")
def expected_values() -> dict[str, dict[str, float | None]]:
    """``battery_expected()`` computed once for the module (every preset on every case: a few hundred lists)."""
    return battery_expected()


def as_given(values) -> list:
    """Grades as a user's qrels hold them: whole numbers as int, others as float (not cut to whole numbers)."""
    return [int(value) if float(value).is_integer() else float(value) for value in values]


def pytrec_eval_as_given(grades, scores, k, extra, ids):
    """pytrec_eval given the grades as they are (the module's trec_eval helper cuts them to whole numbers first)."""
    import pytrec_eval

    qrels = {"q": {**dict(zip(ids, as_given(grades), strict=True)), **{f"x{j}": g for j, g in enumerate(as_given(extra))}}}
    measure = "ndcg" if k is None else f"ndcg_cut.{k}"
    run = {"q": {d: float(score) for d, score in zip(ids, scores, strict=True)}}
    return pytrec_eval.RelevanceEvaluator(qrels, {measure}).evaluate(run)["q"][measure.replace(".", "_")]


def torchmetrics_float(grades, scores, k, extra, ids):
    """torchmetrics with a float target, so fractional grades reach it as they are."""
    torch = pytest.importorskip("torch")
    functional = pytest.importorskip("torchmetrics.functional.retrieval")
    return float(functional.retrieval_normalized_dcg(torch.tensor(scores, dtype=torch.float32),
                                                      torch.tensor(grades, dtype=torch.float32), top_k=k))


@pytest.mark.oracle
@pytest.mark.parametrize("vector", BATTERY, ids=[vector.key for vector in BATTERY])
@pytest.mark.parametrize("key", [key for key in CONVENTIONS if key in LIBRARIES])
def test_expected_values_are_the_libraries_outputs(key, vector, expected_values):
    expected = expected_values[vector.key][key]
    grades = vector.judged_grades()
    extra = np.array(vector.unretrieved, dtype=float)
    if key in INTEGER_ONLY:
        grades, extra = np.trunc(grades).astype(int), np.trunc(extra).astype(int)
    call = {"torchmetrics": torchmetrics_float, "pytrec_eval": pytrec_eval_as_given}.get(key, LIBRARIES[key][0])
    scores = np.array(vector.scores, dtype=float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if expected is None:
            if key == "torchmetrics":  # it adds the negative gain: (-1 + 2/log2 3) / (2 - 1/2), outside ndcg_core
                value = call(grades, scores, vector.k, extra, list(vector.doc_ids))
                assert value == pytest.approx((-1 + 2 / math.log2(3)) / (2 - 1 / 2), abs=2e-6)
                return
            with pytest.raises(Exception):  # noqa: B017 - each library raises its own error type
                call(grades, scores, vector.k, extra, list(vector.doc_ids))
            return
        value = call(grades, scores, vector.k, extra, list(vector.doc_ids))
    tolerance = 2e-6 if key == "torchmetrics" else 1e-9
    assert value == pytest.approx(expected, abs=tolerance)


@pytest.mark.oracle
@pytest.mark.parametrize("vector", BATTERY, ids=[vector.key for vector in BATTERY])
def test_ir_measures_gives_the_trec_eval_column(vector, expected_values):
    grades, extra = vector.judged_grades(), np.array(vector.unretrieved, dtype=float)
    whole = np.array_equal(np.r_[grades, extra], np.floor(np.r_[grades, extra]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if not whole:  # ir_measures (through pytrec_eval) refuses 1.5, where trec_eval reads it as 1
            import ir_measures

            assert expected_values[vector.key]["ir_measures"] is None
            qrels = [ir_measures.Qrel("q", d, g) for d, g in zip(vector.doc_ids, as_given(grades), strict=True)]
            run = [ir_measures.ScoredDoc("q", d, float(score)) for d, score in zip(vector.doc_ids, vector.scores, strict=True)]
            with pytest.raises(TypeError, match="integer"):
                ir_measures.calc_aggregate([ir_measures.nDCG], qrels, run)
            return
        value = ir_measures_ndcg(grades.astype(int), np.array(vector.scores, dtype=float), vector.k, extra.astype(int),
                                 list(vector.doc_ids))
    assert value == pytest.approx(expected_values[vector.key]["trec_eval"], abs=1e-9)
    assert expected_values[vector.key]["ir_measures"] == expected_values[vector.key]["trec_eval"]


def test_battery_covers_the_listed_cases():
    keys = {vector.key for vector in BATTERY}
    assert {"ties", "tie_straddles_k", "idcg_zero", "k_beyond_list", "unjudged", "unretrieved", "grade_31",
            "fractional", "negative", "single", "off_by_one"} <= keys
    assert any(None in vector.grades for vector in BATTERY)
    assert any(vector.k is not None and vector.k > len(vector.grades) for vector in BATTERY)


def test_json_download_round_trips(expected_values):
    document = json.loads(battery_json())
    expected = expected_values
    assert [case["case"] for case in document["cases"]] == [vector.key for vector in BATTERY]
    for case in document["cases"]:
        for key, value in case["expected"].items():
            wanted = expected[case["case"]][key]
            if wanted is not None and math.isnan(wanted):
                assert value is None and key in case["no_value"]  # gdeval: no value for a topic without relevance
            else:
                assert value == wanted and (value is None) == (key in case["refused"])
    unjudged = next(case for case in document["cases"] if case["case"] == "unjudged")
    assert unjudged["grades"][0] is None


def test_csv_download_round_trips(expected_values):
    rows = list(csv.DictReader(io.StringIO(battery_csv())))
    expected = expected_values
    assert len(rows) == len(BATTERY)
    for row in rows:
        for key in CONVENTIONS:
            cell = row[f"expected_{key}"]
            value = expected[row["case"]][key]
            assert (cell == "" and value is None) or float(cell) == value or (cell == "nan" and math.isnan(value))
    assert next(row for row in rows if row["case"] == "unjudged")["grades"].startswith("- 2")


def outputs_of(setting: dict, *, truncate: bool = False) -> dict[str, float]:
    """What an implementation with these conventions prints for every battery case (reference formulas).

    ``truncate``: it reads grades as trec_eval does (1.5 as 1, a negative grade as 0)."""
    out = {}
    for vector in BATTERY:
        grades = [float(g) for g in vector.judged_grades()]
        extra = [float(g) for g in vector.unretrieved]
        if truncate:
            grades, extra = [max(math.trunc(g), 0) for g in grades], [max(math.trunc(g), 0) for g in extra]
        if min(grades) < 0:
            continue  # the implementation refuses it
        out[vector.key] = reference_ndcg(grades, list(vector.scores), list(vector.doc_ids), grades + extra, vector.k,
                                         {**setting, "k": "given" if vector.k else "whole"})
    return out


TREC = {"ties": "trec_eval", "precision": "double", "gain": "linear", "discount": "log2",
        "ideal": "all_judged", "ideal_depth": "cutoff", "zero_idcg": "zero"}
SKLEARN = {**TREC, "ties": "average", "ideal": "ranking"}


@pytest.mark.parametrize("key", ["sklearn", "trec_eval", "lightgbm"])
def test_each_library_output_is_matched_to_its_preset(key, expected_values):
    outputs = {case: values[key] for case, values in expected_values.items() if values[key] is not None}
    check = check_implementation(outputs)
    assert not check.mismatches
    # the chosen preset computes exactly these numbers (presets that agree everywhere are interchangeable)
    assert all(abs(expected_values[case][check.preset] - value) < 1e-12 for case, value in outputs.items())


def same_conventions(key: str) -> set[str]:
    """Presets with the same gain, tie, ideal and zero-IDCG rules as ``key`` (they differ only in what they refuse)."""
    def rules(name):
        convention = CONVENTIONS[name]
        return convention.gain, convention.ties, convention.ideal, convention.zero_idcg

    return {name for name in CONVENTIONS if rules(name) == rules(key)}


@pytest.mark.parametrize(
    ("setting", "baseline", "pattern"),
    [
        ({**TREC, "discount": "log2_shifted"}, "trec_eval", "off-by-one discount"),
        ({**TREC, "ideal": "ranking", "zero_idcg": "one", "gain": "exponential", "ties": "stable"}, "lightgbm", None),
        ({**SKLEARN, "ideal_depth": "uncut"}, "sklearn", "truncation of the ideal at k"),
        ({**SKLEARN, "ties": "stable"}, "sklearn", "ties broken by input order"),
        ({**TREC, "ideal": "ranking"}, "trec_eval", "ideal from the ranking only"),
        ({**TREC, "zero_idcg": "one"}, "trec_eval", "IDCG = 0 handling"),
        ({**SKLEARN, "gain": "pow2"}, "xgboost", "gain mismatch"),  # closest: XGBoost's 2^g - 1, ties averaged
    ],
)
def test_bug_patterns_are_named(setting, baseline, pattern):
    check = check_implementation(outputs_of(setting, truncate=baseline == "trec_eval"))
    assert check.preset in same_conventions(baseline)
    if pattern is None:
        assert not check.mismatches
        return
    assert check.mismatches and all(mismatch.fits for mismatch in check.mismatches)
    assert any(pattern in name for mismatch in check.mismatches for fit in mismatch.fits for name in fit)
    assert pattern in check.summary


def test_fractional_grades_kept_against_trec_eval():
    outputs = outputs_of(TREC)  # trec_eval's conventions, but 1.5 stays 1.5
    check = check_implementation(outputs)
    assert check.preset == "trec_eval"
    assert [mismatch.case for mismatch in check.mismatches] == ["fractional"]
    assert check.mismatches[0].fits == (("fractional grades kept (trec_eval and ranx read 1.5 as 1)",),)


def test_read_outputs_csv_and_json():
    assert read_outputs("case,ndcg\nplain,0.5\nties,\n") == {"plain": 0.5, "ties": pytest.approx(math.nan,
                                                                                                   nan_ok=True)}
    assert read_outputs(b'\xef\xbb\xbf{"plain": 0.25, "single": null}')["plain"] == 0.25
    assert read_outputs("plain;0.5".replace(";", ",")) == {"plain": 0.5}


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ("nope,0.5", "Unknown case"),
        ("plain,abc", "not a number"),
        ("plain,0.5,1", "two columns"),
        (b"\xff\xfe\x00", "UTF-8"),
        ("[1, 2]", "Unknown case"),
        ('{"plain": [1]}', "not a number"),
        ('{"plain": 0.5', "JSON could not be read"),
        ("plain,inf", "finite"),
        ("", "No outputs"),
    ],
)
def test_read_outputs_refuses_with_the_reason(data, words):
    with pytest.raises(InvalidInput, match=words):
        read_outputs(data)


def test_presets_the_outputs_cannot_tell_apart_are_named_with_the_cases_that_would():
    """One output (the plain case, 0.9608 under linear gain) is what six presets compute: naming scikit-learn alone
    ("match scikit-learn on all 1 cases") said the code agreed with it rather than with trec_eval. The summary names
    the others, and the battery cases whose figures differ among them."""
    check = check_implementation({"plain": 0.9608})
    assert check.preset == "sklearn" and not check.mismatches
    assert check.summary.startswith("Your outputs match scikit-learn ndcg_score on the 1 case it computes. "
                                    "trec_eval ndcg_cut, pytrec_eval ndcg_cut, ranx ndcg, torchmetrics "
                                    "retrieval_normalized_dcg and ir_measures nDCG agree on the cases given; ")
    two = check_implementation({"plain": 0.9608, "ties": 0.6979})
    assert two.summary == ("Your outputs match trec_eval ndcg_cut on all 2 cases it computes. pytrec_eval ndcg_cut "
                           "and ir_measures nDCG agree on the cases given; your output for fractional would tell "
                           "them apart.")


def test_presets_that_agree_on_the_whole_battery_are_said_to(expected_values):
    """ir_measures computes nDCG through pytrec_eval: no battery case separates them, and the summary says so instead
    of promising that more cases would."""
    outputs = {case: math.nan if values["pytrec_eval"] is None else values["pytrec_eval"]
               for case, values in expected_values.items()}
    check = check_implementation(outputs)
    assert not check.mismatches and check.preset in ("pytrec_eval", "ir_measures")
    other = "ir_measures nDCG" if check.preset == "pytrec_eval" else "pytrec_eval ndcg_cut"
    assert check.summary.endswith(f" {other} gives the same figure on every case of the battery.")


def test_no_outputs_is_refused_not_matched():
    """check_implementation({}) said "Your outputs match scikit-learn ndcg_score on all 0 cases it computes"."""
    with pytest.raises(InvalidInput, match="at least one battery case"):
        check_implementation({})


def test_outputs_for_cases_the_best_library_refuses_are_said_not_compared():
    """A hand-written implementation (exponential gain, ideal from the ranked list, input order for ties, no value
    when IDCG = 0, and a log2(rank + 2) discount) gave a number for all 16 cases; the verdict said "match XGBoost
    ndcg@k on 5 of 14 cases" without a word on the other two (fractional and negative grades, which XGBoost
    refuses). They are now named as not compared; a case left without a value ("no value") is not."""
    def buggy(vector) -> float:
        order = sorted(range(len(vector.scores)), key=lambda i: -vector.scores[i])
        grades = [0 if vector.grades[i] is None else vector.grades[i] for i in order]
        depth = len(grades) if vector.k is None else vector.k
        dcg = sum((2 ** grade - 1) / math.log2(rank + 2) for rank, grade in enumerate(grades[:depth], 1))
        ideal = sorted(grades, reverse=True)
        idcg = sum((2 ** grade - 1) / math.log2(rank + 2) for rank, grade in enumerate(ideal[:depth], 1))
        return dcg / idcg if idcg else math.nan

    outputs = {vector.key: buggy(vector) for vector in BATTERY}
    # Keras-RS has the same rules as XGBoost but 0 for IDCG = 0 (this code: no value, one change from either) and
    # computes fractional grades, which XGBoost refuses: accepting them is one more change from XGBoost
    check = check_implementation(outputs)
    assert check.preset == "keras_rs"
    assert check.summary.startswith("Your outputs match Keras-RS nDCG / TF-Ranking NDCGMetric on 5 of 15 cases. The "
                                    "differences fit: off-by-one discount")
    assert check.summary.endswith(" Not compared: negative (Keras-RS nDCG / TF-Ranking NDCGMetric refuses it, so it "
                                  "has no figure to compare yours with).")
    # the same code with XGBoost's 1 for IDCG = 0 is XGBoost's, which refuses both fractional and negative grades
    with_one = {key: 1.0 if math.isnan(value) else value for key, value in outputs.items()}
    check = check_implementation(with_one)
    assert check.preset == "xgboost"
    assert check.summary.startswith("Your outputs match XGBoost ndcg@k on 7 of 14 cases. The differences fit: "
                                    "off-by-one discount")
    assert check.summary.endswith(" Not compared: fractional, negative (XGBoost ndcg@k refuses them, so it has no "
                                  "figure to compare yours with).")
    refused_left_empty = check_implementation({**with_one, "fractional": math.nan, "negative": math.nan})
    assert "Not compared" not in refused_left_empty.summary


def textbook_ndcg(vector, gain) -> float:
    """The NDCG most people write first: sort by descending score (a stable sort keeps tied documents in input
    order), the gain of every grade as it is (a negative grade too), the ideal from every judged grade, both cut at
    k, 0 when IDCG is 0."""
    order = sorted(range(len(vector.scores)), key=lambda i: -vector.scores[i])
    grades = [0.0 if vector.grades[i] is None else float(vector.grades[i]) for i in order]
    judged = sorted([*grades, *map(float, vector.unretrieved)], reverse=True)

    def dcg(values) -> float:
        return sum(gain(grade) / math.log2(rank + 1) for rank, grade in enumerate(values[:vector.k], 1))

    ideal = dcg(judged)
    return dcg(grades) / ideal if ideal else 0.0


@pytest.mark.parametrize(("gain", "preset"), [(lambda grade: grade, "ranx_ndcg"),
                                              (lambda grade: 2 ** grade - 1, "ranx_ndcg_burges")])
def test_an_output_no_convention_explains_does_not_favour_the_libraries_that_refuse_its_case(gain, preset):
    """The textbook implementation (input order for ties, ideal from every judgment) is ranx's: it agrees with ranx
    ndcg on 14 of the 16 cases, the other two being the grades ranx reads otherwise (1.5 as 1, -1 as 0). The verdict
    was "Your outputs match torchmetrics retrieval_normalized_dcg on 10 of 15 cases" (linear gain; Elasticsearch on
    13 of 14 for 2^grade - 1), with three of the code's own choices listed as differences: its number for the
    negative grade (a negative gain, which no convention searched gives) counted as nine changes against every
    library that computes that case, and as one against those that refuse it, so the refusing ones won. Giving a
    number for a case a library refuses is one change and then that number must still be explained."""
    outputs = {vector.key: textbook_ndcg(vector, gain) for vector in BATTERY}
    check = check_implementation(outputs)
    assert check.preset == preset
    assert check.agreement[preset] == (14, 16)
    assert sorted(mismatch.case for mismatch in check.mismatches) == ["fractional", "negative"]
    assert check.summary.startswith(f"Your outputs match {CONVENTIONS[preset].label} on 14 of 16 cases.")


def test_check_implementation_reads_none_as_no_value_and_names_what_is_not_a_number():
    """``check_implementation(json.load(f))`` on a file with ``"single_zero": null`` (no value, as read_outputs reads
    null) raised "TypeError: must be real number, not NoneType"; a number kept as text ("0.9608") or a list of
    outputs raised TypeError too. None is now no value; anything else that is not a number is named."""
    as_loaded = check_implementation({"plain": 0.9608, "ties": 0.6979, "idcg_zero": None})
    as_nan = check_implementation({"plain": 0.9608, "ties": 0.6979, "idcg_zero": math.nan})
    assert (as_loaded.preset, as_loaded.agreement, as_loaded.summary) == (as_nan.preset, as_nan.agreement,
                                                                          as_nan.summary)
    assert as_loaded.preset == "trec_eval" and as_loaded.agreement["trec_eval"] == (2, 3)
    with pytest.raises(InvalidInput, match=r"The output for 'plain' \('0.9608', text\) is not a number"):
        check_implementation({"plain": "0.9608"})
    with pytest.raises(InvalidInput, match="one NDCG per battery case"):
        check_implementation([0.9608, 0.6979])


def test_json_written_by_python_with_a_nan_output_is_read_as_no_value():
    """json.dumps({"plain": 0.9608, "idcg_zero": float("nan")}) writes NaN (Python's json reads and writes it); the
    page refused that upload with "case 'idcg_zero': nan is not a finite number", while the same output as CSV
    ("idcg_zero,nan") or as JSON null is read as no value, as the docstring says. Infinity is still refused."""
    written = json.dumps({"plain": 0.9608, "idcg_zero": float("nan")})
    assert "NaN" in written
    outputs = read_outputs(written)
    assert outputs["plain"] == 0.9608 and math.isnan(outputs["idcg_zero"])
    assert read_outputs(written).keys() == read_outputs("plain,0.9608\nidcg_zero,nan").keys()
    with pytest.raises(InvalidInput, match="not a finite number"):
        read_outputs(json.dumps({"plain": float("inf")}))
