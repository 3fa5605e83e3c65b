"""Colour is never the only carrier of meaning in the charts (issue 15, item 6), checked on the figures' specs.

Wherever two bar series differ by colour, they differ by ``marker.pattern.shape`` too: the ranking's counted
bars (solid), the ideal list's (hatched "/"), the bars past the cutoff k (dotted, grey); on the Compare page a
win (solid), a loss (hatched) and a tie (dotted). The browser side (chips that carry their grade) is in
tests/browser/test_accessibility_browser.py.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

import ndcg_core
from ui import charts, compare_charts
from ui.compare_lists import position_differences


def _shape(trace) -> str | tuple:
    pattern = trace.marker.pattern
    shape = pattern.shape if pattern is not None else None
    return tuple(shape) if isinstance(shape, (list, tuple)) else (shape or "")


def _bars(figure: go.Figure) -> dict[tuple[str, bool], str]:
    """(series, counted?) -> pattern shape of every bar trace; plotly validates the figure first."""
    figure = go.Figure(figure.to_plotly_json())  # full validation: a misspelt pattern property fails here
    muted = charts.PALETTE["muted"]
    return {(trace.offsetgroup, trace.marker.color != muted): _shape(trace) for trace in figure.data if trace.type == "bar"}


def _told_apart(bars: dict[tuple[str, bool], str]) -> None:
    """No two bar series share a pattern: each is told from every other without its colour."""
    assert len(set(bars.values())) == len(bars), bars


def test_contribution_bars_differ_in_pattern_not_only_in_colour():
    table = ndcg_core.evaluate([3, 1, 2, 0, 2], k=3).table  # ranks 4 and 5 lie past k
    bars = _bars(charts.contribution_chart(table, k=3))
    assert bars == {
        ("actual", True): "",    # the ranking's counted positions: solid
        ("actual", False): ".",  # its positions past k: grey and dotted
        ("ideal", True): "/",    # the ideal list: hatched
        ("ideal", False): "/",   # past k: grey, still hatched (the ideal list's pattern)
    }
    # Past k the two series share the grey and keep their own patterns; the counted ones differ in both.
    _told_apart({key: shape for key, shape in bars.items() if key[1]})
    _told_apart({key: shape for key, shape in bars.items() if not key[1]})
    _told_apart({key: shape for key, shape in bars.items() if key[0] == "actual"})


def test_gain_bars_past_k_are_dotted():
    table = ndcg_core.evaluate([3, 1, 2, 0, 2], k=2).table
    assert _bars(charts.decomposition_chart(table, k=2)) == {("gain", True): "", ("gain", False): "."}


def test_without_a_cutoff_no_bar_is_dotted():
    table = ndcg_core.evaluate([3, 1, 2]).table
    assert _bars(charts.contribution_chart(table)) == {("actual", True): "", ("ideal", True): "/"}


def test_compare_bars_carry_win_loss_and_tie_as_patterns():
    result_a, result_b = ndcg_core.evaluate([3, 1, 2]), ndcg_core.evaluate([1, 3, 2])
    frame = position_differences(result_a, result_b, ["x", "y", "z"], ["y", "x", "z"])
    figure = compare_charts.difference_chart(frame)
    go.Figure(figure.to_plotly_json())  # validates the pattern properties
    (bar,) = figure.data
    # B − A by rank: rank 1 loses (B has grade 1 there), rank 2 wins (grade 3), rank 3 ties (same document).
    assert [round(v, 4) for v in bar.y] == [round(1 / 1 - 7 / 1, 4), round(7 / 1.5849625 - 1 / 1.5849625, 4), 0.0]
    assert list(bar.marker.pattern.shape) == ["/", "", "."]
    assert list(bar.marker.color) == [compare_charts.LOSS_COLOUR, compare_charts.WIN_COLOUR, compare_charts.TIE_COLOUR]


def test_run_comparison_charts_pattern_every_bar_by_its_outcome():
    comparison = ndcg_core.compare_runs(pd.Series([0.5, 0.6, 0.7, 0.4]), pd.Series([0.6, 0.6, 0.9, 0.3]),
                                        n_boot=200, seed=0)
    slide = compare_charts.slide_chart(comparison, name_a="a", name_b="b", metric="NDCG")
    go.Figure(slide.to_plotly_json())
    (bar,) = [trace for trace in slide.data if trace.type == "bar"]
    # Sorted differences: -0.1 (loss), 0 (tie), +0.1 and +0.2 (wins).
    assert [round(v, 6) for v in bar.y] == [-0.1, 0.0, 0.1, 0.2]
    assert list(bar.marker.pattern.shape) == ["/", ".", "", ""]
    histogram = compare_charts.differences_histogram(comparison, name_a="a", name_b="b", metric="NDCG")
    go.Figure(histogram.to_plotly_json())
    (bar,) = [trace for trace in histogram.data if trace.type == "bar"]
    expected = {compare_charts.WIN_COLOUR: "", compare_charts.LOSS_COLOUR: "/", compare_charts.TIE_COLOUR: "."}
    assert list(bar.marker.pattern.shape) == [expected[colour] for colour in bar.marker.color]
    assert set(bar.marker.pattern.shape) == {"", "/", "."}
