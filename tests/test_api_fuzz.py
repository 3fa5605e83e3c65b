"""Every public function of ndcg_core, fed any value in any argument: a result or InvalidInput, never another error.

A review found plain TypeError / ValueError / AttributeError / KeyError / OverflowError escaping on unusual
argument types (``evaluate(tie_groups=1.5)``, ``evaluate_scores(doc_ids=5)``, ``ideal_order(['x'])``,
``aggregate_gap('x')``, ``read_outputs(5)``, ``tie_band(k=10**400)``, ``incomplete_judgments(5)``,
``evaluate_run(k=10**400)``...): a script catching ``InvalidInput`` crashed instead of showing what to change.
The calls and the odd values are listed in tests/api_fuzz_cases.py.
"""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ndcg_core
from ndcg_core import InvalidInput
from tests.api_fuzz_cases import QRELS, RUN, calls, odd_values

CALLS = {call.name: call for call in calls()}


def outcome(call, argument: str, value: object) -> str:
    """'ok', 'refused' or the name of the exception that escaped, calling ``call`` with ``argument=value``."""
    arguments = {**call.args, argument: value}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call.function(**arguments)
    except InvalidInput:
        return "refused"
    except Exception as error:  # noqa: BLE001 - the test is that nothing else escapes
        return f"{type(error).__name__}: {error}"[:120]
    return "ok"


def test_every_public_function_is_fuzzed():
    """A new public function must be added to tests/api_fuzz_cases.py (classes and data are not called)."""
    functions = {name for name in ndcg_core.__all__
                 if callable(getattr(ndcg_core, name)) and not isinstance(getattr(ndcg_core, name), type)}
    left_out = functions - set(CALLS) - {"battery_csv", "battery_json", "battery_expected", "calculation_table"}
    assert left_out == set()


@pytest.mark.parametrize("name", sorted(CALLS))
def test_odd_values_give_a_result_or_invalid_input(name):
    """Each of ~50 odd values (None, NaN, inf, 10**400, text, bytes, empty and nested lists, sets, dicts, numpy
    scalars and 0-d arrays, DataFrames, objects) in each argument. Before the fix 938 calls escaped."""
    call = CALLS[name]
    call.function(**call.args)  # the valid call works
    escaped = {(argument, repr(value)[:40]): result for argument in call.fuzz for value in odd_values()
               if (result := outcome(call, argument, value)) not in ("ok", "refused")}
    assert escaped == {}


def _anything() -> st.SearchStrategy:
    """Arbitrary values a script may pass: scalars of every kind, numpy scalars and 0-d arrays, nested containers."""
    scalars = st.one_of(
        st.none(), st.booleans(), st.integers(), st.integers(min_value=10**300, max_value=10**500),
        st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=5), st.binary(max_size=5),
        st.floats(allow_nan=True).map(np.float64), st.integers(-2**63, 2**63 - 1).map(np.int64),
        st.floats(allow_nan=True).map(np.array), st.sampled_from(["linear", "average", "zero", "trec_eval", "plain"]),
    )
    return st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.tuples(inner, inner), st.dictionaries(st.text(max_size=3), inner, max_size=3),
        st.lists(st.floats(allow_nan=True), max_size=4).map(np.array)), max_leaves=8)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(CALLS)), data=st.data())
def test_any_value_in_any_argument_gives_a_result_or_invalid_input(name, data):
    call = CALLS[name]
    argument = data.draw(st.sampled_from(call.fuzz), label="argument")
    value = data.draw(_anything(), label="value")
    assert outcome(call, argument, value) in ("ok", "refused")


@pytest.mark.parametrize(("call", "words"), [
    (lambda: ndcg_core.evaluate([1, 2], tie_groups=1.5), "tie_groups must be a list"),
    (lambda: ndcg_core.evaluate([1, 2], tie_groups=[[1], [2]]), "must be a text or a number"),
    (lambda: ndcg_core.evaluate([1, 2], cut_ideal_at_ranking="no"), "True or False"),
    (lambda: ndcg_core.evaluate_scores([1, 2], [1, 2], doc_ids=5), "doc_ids must be a list"),
    (lambda: ndcg_core.evaluate_scores([1, 2], [1, 2], doc_ids="ab"), "doc_ids must be a list"),
    (lambda: ndcg_core.ideal_order(["x"]), "not a number"),
    (lambda: ndcg_core.worst_order([10**400]), "too large"),
    (lambda: ndcg_core.aggregate_gap("x"), "per_query must be a DataFrame"),
    (lambda: ndcg_core.read_outputs(5), "CSV or JSON text"),
    (lambda: ndcg_core.tie_band([1, 0], [1, 1], k=10**400), "k=None for the whole list"),
    (lambda: ndcg_core.evaluate([1, 0], k=1e308), "k=None for the whole list"),
    (lambda: ndcg_core.evaluate_run(RUN, QRELS, k=10**400), "k=None for the whole list"),
    (lambda: ndcg_core.evaluate([1, 0], log_base=10**400), "finite number greater than 1"),
    (lambda: ndcg_core.incomplete_judgments(5), "relevances must be a list"),
    (lambda: ndcg_core.incomplete_judgments([1, None], k=10**400), "k=None"),
    (lambda: ndcg_core.incomplete_summary(5), "the table incomplete_run returns"),
    (lambda: ndcg_core.run_ratios(RUN), "encode_run(run, qrels)"),
    (lambda: ndcg_core.run_winner_grid(RUN, RUN), "encode_run(run, qrels)"),
    (lambda: ndcg_core.winner_grid(5, 5), "one list of grades per query"),
    (lambda: ndcg_core.winner_grid([3, 1, 0], [1, 3, 0]), "one list per query, e.g. [[3, 1, 0]]"),
    (lambda: ndcg_core.winner_grid([[1, None]], [[1, 0]]), "rankings_a, query 1: position 2 is None"),
    (lambda: ndcg_core.winner_grid([[1]], [[1]], tolerance=None), "tolerance must be a number"),
    (lambda: ndcg_core.gains_of(None, "linear"), "grades must be a list"),
    (lambda: ndcg_core.gains_of([1], 5), "gain must be"),
    (lambda: ndcg_core.evaluate_as_read("nope", [1]), "Unknown preset"),
    (lambda: ndcg_core.read_words(5), "read must be a list"),
    (lambda: ndcg_core.check_implementation({"plain": 0.9}, tolerance="x"), "tolerance must be a number"),
    (lambda: ndcg_core.check_implementation({1: 0.9}), "not a case name"),
    (lambda: ndcg_core.compare_runs([1.0], [1.0], n_boot=10**30), "n_boot"),
    (lambda: ndcg_core.compare_runs([10**400], [1.0]), "must be a list of numbers"),
    (lambda: ndcg_core.diagnose([1, 0], reported=10**400), "too large to be an NDCG"),
    (lambda: ndcg_core.diagnose([1, 0], reported=0.5, gain_tables=5), "gain_tables must map"),
    (lambda: ndcg_core.diagnose([1, 0], reported=0.5, baseline=["x"]), "Unknown baseline"),
    (lambda: ndcg_core.diagnose([1, 0], reported=0.5, library_refusals=np.array([1, 2])), "True or False"),
    (lambda: ndcg_core.discounts(10**400), "no list is that long"),
])
def test_the_refusal_says_what_to_change(call, words):
    """The named cases of the review: each is now InvalidInput, and its message names the argument's fix."""
    with pytest.raises(InvalidInput, match=re.escape(words)):
        call()


def test_the_checks_keep_what_was_accepted():
    """What worked before still works with the same figures: a numpy integer as k, tie-group labels, integer
    document ids (compared as text), numpy's True, an array of grades."""
    assert ndcg_core.evaluate([3, 1, 2], k=np.int64(2)).ndcg == ndcg_core.evaluate([3, 1, 2], k=2).ndcg
    averaged = ndcg_core.evaluate([3, 1, 2], tie_groups=[0, 0, 1], gain="linear")
    assert averaged.dcg == pytest.approx(2 / 1 + 2 / math.log2(3) + 2 / 2)  # (3 + 1) / 2 = 2 at ranks 1 and 2
    by_ids = ndcg_core.evaluate_scores([0, 3], [1, 1], ties="trec_eval", doc_ids=[1, 2])
    assert by_ids.table["item"].tolist() == [1, 0]  # trec_eval: document id descending, "2" before "1"
    assert ndcg_core.evaluate([1, 0], cut_ideal_at_ranking=np.bool_(True)).ndcg == 1.0
    assert ndcg_core.ideal_order(np.array([1.0, 3.0, 0.0])).tolist() == [1, 0, 2]
    assert ndcg_core.gains_of([0, 1, 3], "exponential").tolist() == [0.0, 1.0, 7.0]


def test_the_label_checks_cost_nothing_on_large_lists(monkeypatch):
    """The checks of tie_groups and doc_ids must not slow a large list: an array of tie-group labels is not looked at
    item by item (the first version's per-item loop took evaluate(tie_groups=) from 0.07 to 0.31 s on a million
    documents), and plain ids (text, numbers) are written as text in one pass without the per-item check that odd
    values get. Asserted on what the checks do, not on a clock (speed lives in bench/)."""
    from ndcg_core import _validation
    from ndcg_core._validation import check_doc_ids, check_labels

    n = 400_000
    labels = np.repeat(np.arange(n // 4), 4)
    assert check_labels(labels, n, what="tie_groups", noun="tie-group label") is labels  # the array itself, unread
    texts = np.array([f"d{i}" for i in range(n)])
    assert check_labels(texts, n, what="doc_ids", noun="document id") is texts

    def per_item(value):
        raise AssertionError(f"plain id {value!r} went through the per-item check")

    monkeypatch.setattr(_validation, "_label_text", per_item)
    ids = [f"d{i}" for i in range(n)]
    assert check_doc_ids(ids, n) == ids
    assert check_doc_ids([7, 2.5, np.int64(3), np.str_("x")], 4) == ["7", "2.5", "3", "x"]
    monkeypatch.undo()
    with pytest.raises(InvalidInput, match="doc_ids"):
        check_doc_ids(["a", ["nested"]], 2)  # an odd value does get the check
