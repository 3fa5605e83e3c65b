"""winner_grid: which conventions flip the winner of two rankers, by hand."""

from __future__ import annotations

import math

import pytest

from ndcg_core import InvalidInput
from ndcg_core._flips import winner_grid


def test_gain_flips_the_winner():
    # A: the grade-3 document first; B: both grade-2 documents first; judged grades 3, 2, 2
    grid = winner_grid([[3, 0, 0, 0]], [[2, 2, 0, 0]], ideal_relevances=[[3, 2, 2, 0, 0, 0]], k=4, gain="exponential")
    baseline = grid.iloc[0]
    exp_idcg = 7 + 3 / math.log2(3) + 3 / 2
    assert baseline["mean_a"] == pytest.approx(7 / exp_idcg)
    assert baseline["mean_b"] == pytest.approx((3 + 3 / math.log2(3)) / exp_idcg)
    assert baseline["winner"] == "A" and not baseline["flips"] and baseline["changed"] == ""
    linear = grid[(grid["changed"] == "gain")].iloc[0]
    lin_idcg = 3 + 2 / math.log2(3) + 2 / 2
    assert linear["mean_a"] == pytest.approx(3 / lin_idcg)
    assert linear["mean_b"] == pytest.approx((2 + 2 / math.log2(3)) / lin_idcg)
    assert linear["winner"] == "B" and linear["flips"]
    assert len(grid) == 2 * 4 * 2 * 2  # gains x cutoffs (4, 5, 10, none) x ideal sources x zero rules


def test_zero_idcg_rule_can_flip_the_mean():
    # query 1: nothing relevant (both rankers); query 2: A perfect, B not. Means differ only by the rule's value
    grid = winner_grid([[0, 0], [1, 0]], [[0, 0], [0, 1]], k=2, gain="linear", ideal="ranking", zero_idcg="zero")
    row_zero = grid.iloc[0]
    row_one = grid[grid["changed"] == "zero_idcg"].iloc[0]
    assert row_zero["mean_a"] == pytest.approx(0.5) and row_one["mean_a"] == pytest.approx(1.0)
    assert row_zero["winner"] == row_one["winner"] == "A"
    assert row_one["queries_a"] == 1 and row_one["queries_b"] == 0


def test_refusals():
    with pytest.raises(InvalidInput):
        winner_grid([[1]], [])
    with pytest.raises(InvalidInput):
        winner_grid([[1]], [[1]], ideal_relevances=[])


def test_ui_table_marks_the_flips():
    from ui.flip_grid_view import winner_table

    grid = winner_grid([[3, 0, 0, 0]], [[2, 2, 0, 0]], ideal_relevances=[[3, 2, 2, 0, 0, 0]], k=4, gain="exponential")
    table = winner_table(grid, ("A run", "B run")).set_index("gain")
    assert table.loc["exponential", "@4"].startswith("A run") and "⚠" not in table.loc["exponential", "@4"]
    assert table.loc["linear", "@4"].startswith("B run") and table.loc["linear", "@4"].endswith("⚠")


def test_ideal_relevances_is_the_keyword_as_everywhere_else():
    """winner_grid took judged= where evaluate, evaluate_scores, tie_band, diagnose and incomplete_judgments say
    ideal_relevances=; it now takes ideal_relevances= and still reads judged= with a DeprecationWarning."""
    import inspect

    import ndcg_core

    new = winner_grid([[3, 0, 0, 0]], [[2, 2, 0, 0]], ideal_relevances=[[3, 2, 2, 0, 0, 0]], k=4)
    with pytest.warns(DeprecationWarning, match="ideal_relevances"):
        old = winner_grid([[3, 0, 0, 0]], [[2, 2, 0, 0]], judged=[[3, 2, 2, 0, 0, 0]], k=4)
    assert new.equals(old)
    exp_idcg = 7 + 3 / math.log2(3) + 3 / 2
    assert new.iloc[0]["mean_a"] == pytest.approx(7 / exp_idcg)  # the judged list's IDCG, not the ranking's
    with pytest.raises(InvalidInput, match="not both"):
        winner_grid([[1]], [[1]], ideal_relevances=[[1]], judged=[[1]])
    for function in (ndcg_core.evaluate, ndcg_core.evaluate_scores, ndcg_core.tie_band, ndcg_core.diagnose,
                     ndcg_core.incomplete_judgments, ndcg_core.evaluate_as_read, ndcg_core.winner_grid):
        assert "ideal_relevances" in inspect.signature(function).parameters, function.__name__


def test_the_app_calls_winner_grid_with_the_new_keyword():
    """ui/flip_section.py passed judged=: the Compare page would raise the DeprecationWarning on every run."""
    from pathlib import Path

    source = (Path(__file__).parents[1] / "ui" / "flip_section.py").read_text()
    assert "winner_grid(" in source and "judged=[" not in source and "ideal_relevances=[" in source
