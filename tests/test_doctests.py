"""The docstring examples of ndcg_core run as tests (what ``pytest --doctest-modules ndcg_core`` runs).

Collected with the rest of the suite, so the README's plain ``pytest`` command checks them too.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

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
