"""Every chart's text alternative (ui/chart_words.py): what a screen reader reads instead of the bars and lines."""

from __future__ import annotations

import math

import plotly.graph_objects as go

import ndcg_core
from tests.conftest import run_page
from ui import charts
from ui.chart_words import MAX_POINTS, chart_words, values
from ui.formatting import compact


def test_the_contribution_chart_reads_out_each_positions_bars():
    """The figures are the chart's own (sent as base64 typed arrays), as ndcg_core computed them."""
    table = ndcg_core.evaluate([3, 1, 2, 0, 2]).table
    words = chart_words(charts.contribution_chart(table, k=None))
    yours = ", ".join(f"{rank}: {compact(value)}" for rank, value in enumerate(table["contribution"], start=1))
    ideal = ", ".join(f"{rank}: {compact(value)}" for rank, value in enumerate(table["ideal_contribution"], start=1))
    assert words == (f"Chart: Contribution of each position. x: Rank i, y: gain ÷ discount. Your ranking ({yours}); "
                     f"Ideal ranking ({ideal}).")
    assert "2: 0.6309" in words  # 1 / log2(3)


def test_missing_values_long_series_hidden_traces_and_grids():
    figure = go.Figure([
        go.Scatter(name="<b>NDCG</b>", x=list(range(1, 31)), y=[math.nan] + [0.5] * 29),
        go.Scatter(name="hidden", x=[1], y=[1], visible="legendonly"),
        go.Heatmap(name="flips", z=[[0, 3], [None, 7]]),
    ], layout={"title": {"text": "A<br>chart"}})
    words = chart_words(figure)
    assert words.startswith("Chart: A chart. NDCG (1: n/a, 2: 0.5,")
    assert f", and {30 - MAX_POINTS} more)" in words and "hidden" not in words
    assert words.endswith("; flips: 3 cells from 0 to 7.")
    assert values({"dtype": "i4", "bdata": "AQAAAAIAAAA="}) == [1, 2]


def test_every_chart_on_the_playground_has_its_words_before_it():
    at = run_page(None)
    hidden = [m.value for m in at.markdown if 'class="ndcg-chart-words"' in m.value]
    assert len(hidden) == len(at.get("plotly_chart")) >= 1
    assert "Chart: Contribution of each position." in hidden[0] and "Your ranking (1: 7, 2: 0.6309" in hidden[0]


def test_the_differences_histogram_reads_its_middle_bin_as_zero():
    """The Compare page's histogram of B − A read its middle bin '-5.551e-17: 1124' (its centre in float arithmetic)
    to a screen reader; the middle bin is the one around 0."""
    from ui import compare_charts

    comparison = ndcg_core.compare_runs([0.5, 0.4, 0.3, 1.0, 0.2], [0.5, 0.6, 0.3, 0.0, 0.2], n_boot=100)  # |B − A| ≤ 1
    words = chart_words(compare_charts.differences_histogram(comparison, name_a="A", name_b="B", metric="NDCG"))
    assert "e-1" not in words, words
    assert ", 0: 3, " in words  # three ties
