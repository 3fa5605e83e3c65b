"""Every refused input raises InvalidInput (a ValueError) with a message that names the problem."""

from __future__ import annotations

import contextlib
import math

import numpy as np
import pandas as pd
import pytest

import ndcg_core
from ndcg_core import CONVENTIONS, InvalidInput, evaluate, evaluate_scores


def test_invalid_input_is_a_value_error():
    assert issubclass(InvalidInput, ValueError)


@pytest.mark.parametrize(
    ("relevances", "words"),
    [
        ([1, -1, 2], ["position 2", "negative"]),
        (np.array([0.0, -0.5]), ["position 2", "negative"]),
        ([1, float("nan")], ["position 2", "NaN"]),
        (np.array([np.nan, 1.0]), ["position 1", "NaN"]),
        (pd.Series([1.0, None]), ["position 2", "NaN"]),
        ([1, float("inf")], ["position 2", "infinite"]),
        ([-math.inf], ["position 1", "infinite"]),
        ([1, "2"], ["position 2", "'2'", "not a number"]),
        (["high", 1], ["position 1", "'high'", "not a number"]),
        ([1, None], ["position 2", "None", "not a number"]),
        ([True, 1], ["position 1", "True", "not a number"]),
        ([1, np.False_], ["position 2", "False", "not a number"]),
        (np.array([True, False]), ["True/False", "not numbers"]),
        ([[1, 2], [3, 4]], ["position 1", "not a number"]),
        (np.array([[1, 2], [3, 4]]), ["one flat list", "(2, 2)"]),
        ([1 + 2j], ["position 1", "not a number"]),
        (np.array(["1", "2"]), ["position 1", "not a number"]),
        ([10**400], ["position 1", "too large"]),
        ("3102", ["list of numbers", "str"]),
        (None, ["list of numbers", "None"]),
        (7, ["list of numbers", "int"]),
        ({0: 1}, ["list of numbers", "dict"]),
        ({3, 1, 2}, ["ordered list", "set"]),
        ([], ["empty"]),
    ],
)
def test_bad_relevances(relevances, words):
    with pytest.raises(InvalidInput) as caught:
        evaluate(relevances)
    for word in words:
        assert word in str(caught.value)
    assert str(caught.value).startswith("relevances") or "empty" in str(caught.value)


def test_negative_grade_message_explains_why():
    with pytest.raises(InvalidInput, match="unbounded"):
        evaluate([2, -1])


@pytest.mark.parametrize(
    ("k", "words"),
    [
        (0, ["k must be a positive whole number", "got 0"]),
        (-1, ["k must be a positive whole number", "got -1"]),
        (2.5, ["k must be a positive whole number", "2.5", "fraction"]),
        ("3", ["k must be a positive whole number", "text '3'"]),
        (True, ["k must be a positive whole number", "True"]),
        (False, ["k must be a positive whole number", "False"]),
        (float("nan"), ["k must be a positive whole number", "nan"]),
        (float("inf"), ["k must be a positive whole number", "inf"]),
        ([3], ["k must be a positive whole number"]),
    ],
)
def test_bad_k(k, words):
    with pytest.raises(InvalidInput) as caught:
        evaluate([1, 2, 3], k=k)
    for word in words:
        assert word in str(caught.value)


@pytest.mark.parametrize("log_base", [1, 1.0, 0.5, 0, -2, float("inf"), float("nan"), "2", "e", True, None])
def test_bad_log_base(log_base):
    with pytest.raises(InvalidInput, match="log_base must be"):
        evaluate([1, 2], log_base=log_base)


def test_log_base_message_names_the_value():
    with pytest.raises(InvalidInput, match="got 1:"):
        evaluate([1, 2], log_base=1)


@pytest.mark.parametrize("gain", ["square", "Linear", "", None, 2, ["linear"]])
def test_unknown_gain(gain):
    with pytest.raises(InvalidInput, match="gain"):
        evaluate([1, 2], gain=gain)


def test_unknown_gain_lists_the_choices():
    with pytest.raises(InvalidInput, match="'linear', 'exponential'"):
        evaluate([1, 2], gain="quadratic")


def test_grade_missing_from_gain_table():
    with pytest.raises(InvalidInput, match=r"Grade 2 is missing from the gain table \(it has grades 0, 1\)"):
        evaluate([1, 2, 0], gain={0: 0, 1: 1})


def test_ideal_grade_missing_from_gain_table():
    with pytest.raises(InvalidInput, match="Grade 5 is missing from the gain table"):
        evaluate([1, 0], gain={0: 0, 1: 1}, ideal_relevances=[1, 0, 5])


@pytest.mark.parametrize(
    ("table", "words"),
    [
        ({}, "empty"),
        ({0: 0, 1: -1}, "negative"),
        ({0: 0, -1: 1}, "negative"),
        ({0: 0, 1: float("nan")}, "NaN"),
        ({"a": 1}, "not a number"),
        ({0: 0, 1: 5, 2: 3}, "higher grade gets a smaller gain"),
    ],
)
def test_bad_gain_table(table, words):
    with pytest.raises(InvalidInput, match=words):
        evaluate([0], gain=table)


def test_exponential_gain_overflow():
    with pytest.raises(InvalidInput, match="too large for exponential gain"):
        evaluate([2000, 1])
    with pytest.raises(InvalidInput, match="too large for exponential gain"):
        evaluate([1], ideal_relevances=[1, 5000])


def test_sum_overflow_is_refused_not_inf():
    # each gain 2^1023 - 1 fits a float, but their discounted sum does not
    with pytest.raises(InvalidInput, match=r"overflowed .* Use smaller grades or linear gain\.$"):
        evaluate([1023, 1023, 1023])
    # Under linear gain the gain is the grade already: "or linear gain" was advice the user had followed.
    with pytest.raises(InvalidInput, match=r"overflowed \(beyond about 1e308\)\. Use smaller grades\.$"):
        evaluate([1e308, 1e308], gain="linear")


@pytest.mark.parametrize("rule", ["nan", "Zero", "", None, 0])
def test_unknown_zero_idcg_rule(rule):
    with pytest.raises(InvalidInput, match="Unknown zero_idcg rule"):
        evaluate([1], zero_idcg=rule)


def test_zero_idcg_error_rule():
    with pytest.raises(InvalidInput, match="IDCG is 0"):
        evaluate([0, 0], zero_idcg="error")


@pytest.mark.parametrize("rule", ["random", "doc_id_descending", "", None])
def test_unknown_tie_rule(rule):
    with pytest.raises(InvalidInput, match="Unknown tie rule"):
        evaluate_scores([1, 2], [1, 1], ties=rule)


@pytest.mark.parametrize(
    ("scores", "words"),
    [
        ([1, float("nan")], "position 2 is NaN"),
        ([float("inf"), 1], "position 1 is infinite"),
        (["a", "b"], "not a number"),
        ([True, False], "True/False"),
        (None, "list of numbers"),
        ([1, 2, 3], "2 grades but 3 scores"),
    ],
)
def test_bad_scores(scores, words):
    with pytest.raises(InvalidInput, match=words) as caught:
        evaluate_scores([1, 2], scores)
    if "position" in words:
        assert str(caught.value).startswith("scores")


def test_bad_ideal_relevances():
    with pytest.raises(InvalidInput, match="ideal_relevances: position 2 is negative"):
        evaluate([1], ideal_relevances=[1, -3])
    with pytest.raises(InvalidInput, match="ideal_relevances must contain"):
        evaluate([3, 1], ideal_relevances=[1, 1])


def test_discounts_validates():
    with pytest.raises(InvalidInput, match="log_base"):
        ndcg_core.discounts(3, 1.0)
    with pytest.raises(InvalidInput, match="whole number"):
        ndcg_core.discounts(-1)


def test_check_gain_is_public_and_validates():
    assert ndcg_core.check_gain("linear") == "linear"
    assert ndcg_core.check_gain({0: 0, 1: 1}) == {0.0: 0.0, 1.0: 1.0}
    with pytest.raises(InvalidInput):
        ndcg_core.check_gain("cubic")


def test_conventions_validate_too():
    convention = CONVENTIONS["trec_eval"]
    with pytest.raises(InvalidInput, match="negative"):
        convention.evaluate([1, -1], [1, 2])
    with pytest.raises(InvalidInput, match="document ids"):
        convention.evaluate([1, 0], [1, 2], doc_ids=["a"])
    with pytest.raises(InvalidInput, match="k must be"):
        CONVENTIONS["sklearn"].evaluate([1, 0], k=0)


def test_refusals_never_leak_other_exception_types():
    # a sample of odd inputs: each either works or raises InvalidInput, never TypeError/OverflowError
    odd = [[1, {}], [1, []], [object()], [b"1"], [np.datetime64("2020-01-01")], [1, 2**2000], [np.float16(1)]]
    for relevances in odd:
        with contextlib.suppress(InvalidInput):
            evaluate(relevances)
