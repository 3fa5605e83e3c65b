"""The docstring examples of ndcg_core run as tests (what ``pytest --doctest-modules ndcg_core`` runs).

Collected with the rest of the suite, so the README's plain ``pytest`` command checks them too.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re

import pytest

import ndcg_core

MODULES = sorted(info.name for info in pkgutil.iter_modules(ndcg_core.__path__, prefix="ndcg_core."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert failures == 0, f"{failures} docstring example(s) of {name} failed (run pytest --doctest-modules {name})"


def test_the_required_examples_exist():
    """evaluate_scores, evaluate_run and compare_runs each show a worked call."""
    for function in (ndcg_core.evaluate_scores, ndcg_core.evaluate_run, ndcg_core.compare_runs,
                     ndcg_core.ranked_query, ndcg_core.check_grades, ndcg_core.encode_run):
        assert ">>> " in (function.__doc__ or ""), function.__name__


def test_every_field_of_the_results_a_library_user_gets_is_named_in_its_docstring():
    """help(ndcg_core.Comparison) named neither n_queries, mean_a, mean_b, mean_difference nor bootstrap_means;
    help(IncompleteJudgments) only pointed to its module; ImplementationCheck and Mismatch named none of their
    fields: a user reading help() on a result could not tell what a field holds."""
    import dataclasses

    results = (ndcg_core.ListResult, ndcg_core.RunResult, ndcg_core.Comparison, ndcg_core.RankedQuery,
               ndcg_core.TieBand, ndcg_core.IncompleteJudgments, ndcg_core.ScoreOrder, ndcg_core.AggregateGap,
               ndcg_core.ImplementationCheck, ndcg_core.Mismatch, *public_dataclasses())
    unnamed = {result.__name__: [f.name for f in dataclasses.fields(result)
                                 if not re.search(rf"(?<![\w.]){f.name}(?!\w)", result.__doc__)]
               for result in results}
    assert {name: fields for name, fields in unnamed.items() if fields} == {}


def public_dataclasses() -> list[type]:
    """Every dataclass ndcg_core exports, and the ones its results hold (a Diagnosis's Finding's WholeReading).

    Diagnosis (comparison, space), Finding (8 of its 9 fields), Match (ndcg, dcg, idcg, sentence), RunRatios,
    TestVector, WorkedExample (10 fields) and EncodedRun (4) named fields their docstrings did not describe.
    """
    import dataclasses

    from ndcg_core._diagnose import WholeReading

    exported = [getattr(ndcg_core, name) for name in ndcg_core.__all__]
    return [value for value in exported if isinstance(value, type) and dataclasses.is_dataclass(value)] + [WholeReading]
