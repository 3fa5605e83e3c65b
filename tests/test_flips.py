"""winner_grid: which conventions flip the winner of two rankers, by hand."""

from __future__ import annotations

import math

import pytest

from ndcg_core import InvalidInput
from ndcg_core._flips import winner_grid


def test_gain_flips_the_winner():
    # A: the grade-3 document first; B: both grade-2 documents first; judged grades 3, 2, 2
    grid = winner_grid([[3, 0, 0, 0]], [[2, 2, 0, 0]], judged=[[3, 2, 2, 0, 0, 0]], k=4, gain="exponential")
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
        winner_grid([[1]], [[1]], judged=[])


def test_ui_table_marks_the_flips():
    from ui.flip_grid_view import winner_table

    grid = winner_grid([[3, 0, 0, 0]], [[2, 2, 0, 0]], judged=[[3, 2, 2, 0, 0, 0]], k=4, gain="exponential")
    table = winner_table(grid, ("A run", "B run")).set_index("gain")
    assert table.loc["exponential", "@4"].startswith("A run") and "⚠" not in table.loc["exponential", "@4"]
    assert table.loc["linear", "@4"].startswith("B run") and table.loc["linear", "@4"].endswith("⚠")
