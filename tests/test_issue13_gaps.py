"""Issue 13 text checked against the app: gaps found by reading the issue, each with a test."""

from __future__ import annotations

from importlib.metadata import version

import ndcg_core
from tests.conftest import run_page


def test_conventions_page_shows_every_presets_source():
    """'Every preset cites its source and version': the page shows each preset's source under its call."""
    at = run_page("conventions", timeout=60)
    assert not at.exception, at.exception
    captions = [c.value.replace("\\", "") for c in at.caption if c.value.startswith("Source: ")]
    assert len(captions) == len(ndcg_core.CONVENTIONS)
    assert any("scikit-learn 1.9.1" in c for c in captions)


def test_preset_versions_are_the_installed_oracles():
    """The versions cited for the presets tested against installed packages are those packages' versions."""
    for key, package in (("sklearn", "scikit-learn"), ("pytrec_eval", "pytrec_eval-terrier"), ("ranx_ndcg", "ranx"),
                         ("lightgbm", "lightgbm"), ("xgboost", "xgboost"), ("torchmetrics", "torchmetrics"),
                         ("ir_measures", "ir_measures")):
        assert f" {version(package)} " in ndcg_core.CONVENTIONS[key].source + " ", (key, version(package))
