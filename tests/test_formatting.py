"""ui.formatting (the one place numbers, formulas and convention words are written) and ui.chart_style."""

from __future__ import annotations

import json
import math
from decimal import ROUND_HALF_EVEN, Decimal

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ndcg_core
from ui import formatting as fmt


@pytest.mark.parametrize(
    ("value", "digits", "expected"),
    [(0.88131, 3, "0.881"), (0.8813, 4, "0.8813"), (1.0, 4, "1.0000"), (2 / 3, 2, "0.67"), (-0.004, 2, "0.00"),
     (-0.006, 2, "-0.01"), (None, 4, "n/a"), (math.nan, 4, "n/a"), (np.float64(0.5), 1, "0.5")],
)
def test_fixed(value, digits, expected):
    assert fmt.fixed(value, digits) == expected


@pytest.mark.parametrize(
    ("value", "expected"), [(3.0, "3"), (0, "0"), (6.861, "6.861"), (0.78541, "0.785"), (math.nan, "undefined")]
)
def test_num_writes_whole_numbers_bare(value, expected):
    assert fmt.num(value) == expected


def test_signed_compact_percent():
    assert fmt.signed(0.04, 3) == "+0.040" and fmt.signed(-0.0123) == "-0.0123"
    # A change as large as a card's value is written as the value is: 2^100 - 7 (a grade 3 -> 100 under
    # exponential gain) was "+1267650600228229401496703205369.0000" under "1.2677e+30", cut off at the card's edge.
    assert fmt.signed(2.0**100 - 7) == "+1.2677e+30" == "+" + fmt.fixed(2.0**100)
    assert fmt.signed(-(2.0**60)) == "-1.1529e+18"
    assert fmt.compact(3.0) == "3" and fmt.compact(2.5237) == "2.524" and fmt.compact(13.3472) == "13.35"
    assert fmt.percent(0.95) == "95%"


@given(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), st.integers(min_value=0, max_value=6))
def test_fixed_is_the_rounded_value_and_never_minus_zero(value, digits):
    text = fmt.fixed(value, digits)
    # Independent reference: the float's exact decimal value, rounded half to even (a binary float is never an
    # inexact halfway case), printed without a sign when it rounds to zero.
    reference = Decimal(value).quantize(Decimal(10) ** -digits, rounding=ROUND_HALF_EVEN)
    if reference == 0:
        reference = reference.copy_abs()
    assert text == str(reference)
    assert not (text.startswith("-") and float(text) == 0)
    assert len(text.partition(".")[2]) == digits


def test_gain_latex_shows_the_numbers():
    # exponential gain of grade 3: 2^3 - 1 = 7
    assert fmt.gain_latex(3.0, 7.0, "exponential") == "2^{3} - 1 = 7"
    assert fmt.gain_latex(2.0, 2.0, "linear") == r"\text{grade} = 2"
    assert fmt.gain_term_latex(2.0, "custom", {2.0: 3.0}) == "3"
    assert fmt.gain_term_latex(5.0, "custom", {2.0: 3.0}) == "g(5)"
    assert fmt.gain_formula_latex("exponential", "rel^{*}_i") == "2^{rel^{*}_i}-1"
    assert fmt.log_latex("e") == r"\ln" and fmt.log_latex("10") == r"\log_{10}"


def test_convention_words():
    assert fmt.gain_words("linear") == "linear gain: gain = grade"
    assert fmt.gain_words({0.0: 0.0, 2.0: 3.0}) == "custom gain table 0→0, 2→3"
    assert fmt.discount_words("2") == "log₂(i + 1)"
    assert fmt.cutoff_words(None) == "whole list" and fmt.cutoff_words(5) == "k = 5"


def _every_chart():
    from ui import charts, compare_charts, dataset_view

    table = ndcg_core.evaluate([3, 1, 2, 0, 2], k=3).table
    comparison = ndcg_core.compare_runs(pd.Series([0.5, 0.6, 0.7]), pd.Series([0.6, 0.6, 0.9]), n_boot=200, seed=0)
    result_a, result_b = ndcg_core.evaluate([3, 1, 2]), ndcg_core.evaluate([1, 3, 2])
    frame = compare_charts_frame(result_a, result_b)
    curve = pd.DataFrame({"k": [1, 2], "mean_ndcg": [0.5, 0.6], "ratio_of_sums": [0.4, 0.5]})
    return {
        "contribution": charts.contribution_chart(table, k=3),
        "cumulative": charts.cumulative_chart(table, k=3),
        "decomposition": charts.decomposition_chart(table, k=3),
        "difference": compare_charts.difference_chart(frame),
        "histogram": compare_charts.differences_histogram(comparison, name_a="a", name_b="b", metric="NDCG"),
        "bootstrap": compare_charts.bootstrap_chart(comparison),
        "slide": compare_charts.slide_chart(comparison, name_a="a", name_b="b", metric="NDCG"),
        "dataset histogram": dataset_view.histogram_chart(pd.Series([0.2, 0.9]), mean=0.55, label="NDCG"),
        "dataset curve": dataset_view.curve_chart(curve, k=1),
    }


def _draggable(name: str, layout: dict, data: list[dict]) -> list[str]:
    """What a finger or a mouse could still move in a chart: a drag mode, an axis that pans or zooms, or an axis a
    trace uses that the layout does not hold still (plotly would add it with its defaults: draggable)."""
    import re

    problems = [] if layout.get("dragmode") is False else [f"{name}: dragmode {layout.get('dragmode')!r}"]
    problems += [f"{name}: {axis} can pan or zoom" for axis, value in layout.items()
                 if re.fullmatch(r"[xy]axis\d*", axis) and value.get("fixedrange") is not True]
    used = {f"{letter}axis{trace.get(f'{letter}axis', letter)[1:]}" for trace in data for letter in "xy"}
    return problems + [f"{name}: a trace uses {axis}, which the layout lacks" for axis in sorted(used - set(layout))]


def test_no_chart_can_be_panned_zoomed_or_dragged():
    """On a phone a swipe that started on a chart panned it (the contribution chart's y axis went from [0, 7.4] to
    [-11.1, -3.7]: every bar gone, and "Reset axes" is hidden on a phone) instead of scrolling the page. Every axis
    of every chart is fixed and no drag mode is set: the right-hand axes, the Playground's chart as drawn (ghost bars,
    linked colours, Present mode's sizes), the tie band's. Streamlit's charts are checked as drawn below
    (test_every_chart_is_drawn_in_the_apps_style_not_streamlits_theme) and in a phone's browser
    (tests/browser/test_phone_browser.py)."""
    from unittest import mock

    import plotly.graph_objects as go

    from ui import charts, ghost, linked, present, tie_band_view

    result = ndcg_core.evaluate([3, 1, 2, 0, 2], k=3)
    figures = dict(_every_chart())
    for chart_name, (_, build) in charts.CHARTS.items():
        for on in (False, True):  # the Playground's chart as drawn, at normal size and in Present mode
            figure = build(result.table, k=3, highlight=2)
            figure = ghost.with_ghost(figure, {"contributions": [7.0, 1.0, 0.5, 0.0, 0.0], "ndcg": 0.9}, result)
            with mock.patch.object(present, "active", return_value=on):
                figures[f"playground {chart_name}{' present' if on else ''}"] = present.playground_figure(
                    linked.link_figure(figure, 2), chart_name)
    rows = tie_band_view.tie_band_rows([3, 0, 1, 2], [0.9, 0.9, 0.4, 0.4], k=None)
    figures["tie band"] = tie_band_view.tie_band_chart(rows)
    problems = []
    for name, figure in figures.items():
        spec = go.Figure(figure.to_plotly_json()).to_plotly_json()  # full validation: a misspelt property fails
        problems += _draggable(name, spec["layout"], spec["data"])
    assert problems == []


def test_a_layout_added_axis_is_held_still_too():
    """hold_still fixes every axis of a dict layout, spec_figure every axis of a figure (the right-hand ones too)."""
    import plotly.graph_objects as go

    from ui.chart_style import base_layout, hold_still, is_axis, spec_figure

    assert [name for name in ("xaxis", "yaxis2", "xaxis10", "yaxis_2", "axis", "zaxis") if is_axis(name)] == [
        "xaxis", "yaxis2", "xaxis10"]
    layout = hold_still({"xaxis": {}, "yaxis2": {"side": "right"}, "dragmode": "pan"})
    assert layout == {"xaxis": {"fixedrange": True}, "yaxis2": {"side": "right", "fixedrange": True},
                      "dragmode": False}
    layout = {**base_layout(title="t", x_title="x", y_title="y"), "yaxis2": {"overlaying": "y", "side": "right"}}
    figure = spec_figure([{"type": "scatter", "x": [1], "y": [1], "yaxis": "y2"}], layout)
    spec = go.Figure(figure.to_plotly_json()).to_plotly_json()  # and it passes plotly's full validation
    assert _draggable("spec_figure", spec["layout"], spec["data"]) == []


def compare_charts_frame(result_a, result_b):
    from ui.compare_lists import position_differences

    return position_differences(result_a, result_b, ["x", "y", "z"], ["y", "x", "z"])


def test_every_chart_has_the_one_style():
    """Same font, title size, background, grid and no plotly template, whichever page draws the chart."""
    from ui.chart_style import AXIS, FONT

    for name, figure in _every_chart().items():
        layout = figure.to_plotly_json()["layout"]
        slide = name == "slide"  # the slide view's chart (and its PNG): the same style in slide-sized text
        assert layout["font"] == ({**FONT, "size": 20} if slide else FONT), name
        assert layout["title"]["font"]["size"] == (28 if slide else 18), name
        assert layout.get("template") in (None, {}), name
        assert (layout["paper_bgcolor"], layout["plot_bgcolor"]) == ("#FFFFFF", "#FFFFFF"), name
        for axis in ("xaxis", "yaxis"):
            assert {key: layout[axis][key] for key in AXIS} == AXIS, (name, axis)


@pytest.mark.parametrize("k", [None, 2, 3, 4])
def test_rank_charts_show_the_ranks_and_nothing_past_them(k):
    """A list of 5 shows ranks 1-5 whatever k is. The cutoff's label once sat in data coordinates, anchored left of
    the line, and plotly widened the axis to fit its text: up to 17 ranks on a phone, 8.5 on a desktop."""
    from ui import charts

    table = ndcg_core.evaluate([3, 1, 2, 0, 2], k=k).table
    for build in (charts.contribution_chart, charts.cumulative_chart, charts.decomposition_chart):
        layout = build(table, k=k).to_plotly_json()["layout"]
        assert layout["xaxis"]["range"] == [0.5, 5.5] and layout["xaxis"]["autorange"] is False, build.__name__
        labels = [note["text"].strip() for note in layout["annotations"]]
        assert labels == ([] if k is None else [f"k = {k}"]), build.__name__


def test_the_legend_gets_a_row_above_the_plot_for_each_entry_past_the_second():
    """On a phone each legend entry past the second wraps to its own row, between the title and the plot."""
    from ui import charts

    def top(k):
        return charts.contribution_chart(ndcg_core.evaluate([3, 1, 2, 0, 2], k=k).table, k=k).layout.margin.t

    assert top(None) == 95  # Your ranking, Ideal ranking
    assert top(3) == 95 + charts.LEGEND_ROW  # and "past k (not counted)"


def test_a_long_lists_chart_says_which_positions_it_shows_in_plotlys_subtitle():
    """A second title line made of "<br><sup>" was drawn above the chart's top edge (cut off); plotly's subtitle
    is laid out below the title."""
    from ui import charts

    layout = charts.contribution_chart(ndcg_core.evaluate([0, 1] * 100 + [2]).table).layout
    assert layout.title.text == "Contribution of each position"
    assert layout.title.subtitle.text == "first 100 of 201 positions"


def test_huge_figures_are_written_in_scientific_notation():
    """Grade 1000 under exponential gain is 2^1000 − 1: the cards showed 302-digit integers ending in ".0000"."""
    assert fmt.fixed(2.0**1000) == "1.0715e+301" and fmt.num(2.0**1000) == "1.072e+301"
    assert fmt.fixed(-3e20, 2) == "-3.00e+20"
    assert fmt.fixed(999_999_999_999_999.0, 1) == "999999999999999.0" and fmt.num(1e14) == "100000000000000"
    from tests.conftest import run_page

    at = run_page(None, query_params={"docs": "A:2.5,B:1e3"})
    cards = {metric.label: metric.value for metric in at.metric}
    result = ndcg_core.evaluate([2.5, 1000.0])
    assert cards == {"CG": f"{result.cg:.4e}", "DCG": f"{result.dcg:.4e}", "IDCG": f"{result.idcg:.4e}",
                     "NDCG": f"{result.ndcg:.4f}"}
    assert len(cards["DCG"]) == len("1.0715e+301")


def test_one_query_is_written_in_the_singular():
    """'1 queries', '1 query … count as 0' and 'the rule scores them 0' for a single query."""
    from ui import dataset_charts
    from ui.dataset_report import settings_rule_text, why_aggregates_differ

    assert settings_rule_text("zero", 1) == "the rule scores it 0, which pulls the mean down"
    assert settings_rule_text("skip", 3) == "the rule leaves them out of the mean"
    title = dataset_charts.histogram_chart(pd.Series([0.5]), mean=0.5, label="NDCG").layout.title.text
    assert title == "Per-query NDCG (1 query)"
    run = pd.DataFrame({"query": ["q1", "q1", "q2"], "doc": ["a", "b", "c"], "score": [2.0, 1.0, 1.0]})
    qrels = pd.DataFrame({"query": ["q1", "q2"], "doc": ["a", "c"], "relevance": [1.0, 0.0]})
    gap = ndcg_core.aggregate_gap(ndcg_core.evaluate_run(run, qrels).per_query)
    text = why_aggregates_differ(gap, zero_rule="zero")
    assert "1 query with no relevant judged document (IDCG = 0) counts as 0 in the mean but adds nothing" in text


def test_the_chart_font_family_is_valid_css():
    """Each family name is quoted or a run of CSS identifiers. One unquoted name starting with a digit ("Source
    Sans 3") invalidated the whole declaration: the browser drew chart text in plotly's fallback face, wider than the
    face plotly measured, so legend entries ran into each other and past their box (checked in Chromium by
    tests/browser/test_teaching_browser.py and test_phone_browser.py)."""
    import re

    from ui.chart_style import FONT

    identifier = re.compile(r"-?[A-Za-z_][A-Za-z0-9_-]*")
    names = [name.strip() for name in FONT["family"].split(",")]
    bad = [name for name in names if not (re.fullmatch(r'"[^"]+"', name)
                                          or all(identifier.fullmatch(word) for word in name.split()))]
    assert bad == []
    assert names[0] == '"Source Sans"'  # the face Streamlit loads for the page's own text


@pytest.mark.parametrize(("page", "params", "charts"), [
    ("playground", {}, 1),
    ("playground", {"present": "1"}, 1),
    ("step_by_step", {}, 2),
    ("dataset", {}, 2),
    ("compare", {}, 3),
    ("why_differ", {"g": "3, 0, 1, 2", "s": "0.9, 0.9, 0.4, 0.4", "a": "scikit-learn", "ra": "0.8",
                    "b": "trec_eval", "rb": "0.9"}, 1),
])
def test_every_chart_is_drawn_in_the_apps_style_not_streamlits_theme(page, params, charts):
    """Streamlit's chart theme (st.plotly_chart's default) replaced the app's 15 px dark tick labels with 12.75 px
    grey ones (#808495, below 4.5:1 on white) on every page but the Playground: unreadable on a projector."""
    from tests.conftest import run_page

    at = run_page(page, query_params=params)
    drawn = [element.proto for element in at.get("plotly_chart")]
    assert len(drawn) >= charts
    assert [proto.theme for proto in drawn] == [""] * len(drawn)  # theme=None
    # and as sent to the browser, no chart can be panned, zoomed or dragged (a swipe on a phone scrolls the page)
    specs = [json.loads(proto.spec) for proto in drawn]
    assert [problem for spec in specs for problem in _draggable(page, spec["layout"], spec["data"])] == []


def test_every_page_names_the_tie_rules_alike():
    """The Dataset's picker said "In file order" and "Relevant first" where the Playground's said "Row order
    (LightGBM, XGBoost, ranx)" and "Better grades first" for the same rules; its trec_eval label was cut off at
    1440 px ("By document id, descending (trec_eval, p")."""
    from ui import dataset_report, score_mode
    from ui.formatting import TIE_RULE_LABELS

    assert dataset_report.TIE_RULES is TIE_RULE_LABELS and score_mode.TIE_RULE_LABELS is TIE_RULE_LABELS
    assert set(TIE_RULE_LABELS) == set(ndcg_core.TIE_RULES)
    assert max(map(len, TIE_RULE_LABELS.values())) <= 37  # fits the Dataset's third of a 1440-px page


def test_count_axes_tick_whole_numbers_only():
    """The Dataset histogram of two queries ticked its "number of queries" axis 0, 0.2, 0.4, … 1 (plotly's automatic
    ticks under a largest bar of 1); the Compare histogram and the Live class answers chart count too."""
    import ndcg_core
    from ui import compare_charts, dataset_charts

    small = dataset_charts.histogram_chart(pd.Series([0.2, 0.9]), mean=0.55, label="NDCG").layout.yaxis
    assert (small.dtick, small.tickformat, small.rangemode) == (1, "d", "tozero")
    many = dataset_charts.histogram_chart(pd.Series([0.5] * 40), mean=0.5, label="NDCG").layout.yaxis
    assert many.dtick == 10  # 40 queries in one bin: ticks 0, 10, 20, 30, 40 (a step of 5 is nine ticks)
    comparison = ndcg_core.compare_runs(pd.Series([0.5, 0.7], index=["a", "b"]), pd.Series([0.6, 0.7], index=["a", "b"]),
                                        n_boot=100, seed=0)
    axis = compare_charts.differences_histogram(comparison, name_a="A", name_b="B", metric="NDCG").layout.yaxis
    assert (axis.dtick, axis.tickformat) == (1, "d")


def test_a_count_axis_has_at_most_eight_ticks_on_round_whole_steps():
    """Compare's per-query histogram in Present mode at 1280x720 labelled 0, 1, …, 13 (a step of 1 for a largest
    bar of 13: 14 ticks) and its 20-px labels sat on each other."""
    import doctest

    import ui.chart_style
    from ui.chart_style import count_axis

    assert doctest.testmod(ui.chart_style).failed == 0
    for largest in range(0, 5001):
        step = count_axis(largest)["dtick"]
        assert largest // step + 1 <= 8, largest
        assert step == 1 or largest // smaller_step(step) + 1 > 8, largest  # the smallest such step
        assert step / 10 ** (len(str(step)) - 1) in (1, 2, 5)


def smaller_step(step: int) -> int:
    """The round step just below ``step`` (1, 2, 5, 10, 20, 50, …)."""
    lead, scale = step // 10 ** (len(str(step)) - 1), 10 ** (len(str(step)) - 1)
    return {1: scale // 2, 2: scale, 5: 2 * scale}[lead]


def test_the_input_order_tie_rule_does_not_name_ranx_whose_sort_reorders_ties():
    """The Dataset's "Input order (LightGBM, XGBoost, ranx)" gave mean NDCG 0.4413 where ranx gives 0.4391: ranx
    sorts with an unstable argsort, so inside a tie its order is not the input order. Sixty documents, scores
    rounded to 0.1 (ties of about six): ranx's ndcg_burges against input order inside each tie."""
    import numpy as np

    from tests.conftest import ranx_evaluate
    from ui.formatting import TIE_RULE_LABELS

    rng = np.random.default_rng(3)
    grades, scores = rng.integers(0, 4, 60), np.round(rng.random(60), 1)
    ids = [f"d{i:03d}" for i in range(60)]
    ranx_value = ranx_evaluate({"q": {d: int(g) for d, g in zip(ids, grades, strict=True)}},
                               {"q": {d: float(s) for d, s in zip(ids, scores, strict=True)}}, "ndcg_burges")
    input_order = ndcg_core.evaluate_scores(grades, scores, ties="stable", gain="exponential").ndcg
    assert abs(ranx_value - input_order) > 0.01  # not input order inside the ties
    assert "ranx" not in TIE_RULE_LABELS["stable"] and "LightGBM" in TIE_RULE_LABELS["stable"]


def test_the_dataset_gap_is_explained_by_the_median_split_only_when_the_split_shows_it():
    """Four queries (NDCG 0.398 at IDCG 2.95 ... 0.679 at IDCG 7.82): the halves above and below the median IDCG
    averaged 0.540 and 0.538, yet the text said that split "pulls the ratio 0.018 above the plain mean". The pull is
    the IDCG-weighted covariance, here within the halves: the text now says so. Where the halves do differ enough in
    the pull's direction, they are still quoted."""
    from ui.dataset_report import why_aggregates_differ

    def text(idcg, ndcg):
        idcg, ndcg = np.asarray(idcg, float), np.asarray(ndcg, float)
        gap = ndcg_core.aggregate_gap(pd.DataFrame({"dcg": idcg * ndcg, "idcg": idcg, "ndcg": ndcg}))
        return gap, why_aggregates_differ(gap, zero_rule="zero", label="NDCG@10")

    gap, within = text([2.95, 3.0, 7.82, 8.82], [0.398, 0.678, 0.679, 0.401])
    assert abs(gap.mean_high_idcg - gap.mean_low_idcg) < abs(gap.weighting_effect) or \
        (gap.mean_high_idcg - gap.mean_low_idcg) * gap.weighting_effect <= 0
    assert "the median" not in within and "tends to be" in within
    gap, split = text([1.0, 2.0, 8.0, 9.0], [0.2, 0.3, 0.8, 0.9])
    assert gap.weighting_effect > 0 and "IDCG ≥ the median" in split and "average NDCG@10 0.850 and the others 0.250" in split


@pytest.mark.parametrize(("value", "text"), [
    (1.26186, "1.262"), (-0.0004, "0.000"), (99999.9994, "99999.999"), (99999.9999, "1.000e+05"),
    (6172839450.75, "6.173e+09"), (-6172839450.75, "-6.17e+09"), (1e301, "1.00e+301"), (-1e301, "-1.0e+301"),
    (None, "…"), (float("nan"), "…"),
])
def test_short_figures_fit_the_ranked_lists_narrow_column(value, text):
    """The ranked list's contribution column holds ~9 characters: toFixed(3) wrote 6172839450.750 over the next
    column and 1e+301 for 1e301."""
    from ui.formatting import short

    assert short(value) == text
    assert len(short(value)) <= 9


def test_apart_writes_two_figures_with_the_places_that_tell_them_apart():
    """Lesson 9 under a custom gain asked why 0.883 was lower than 0.883 (0.8827 and 0.8831)."""
    from ui.formatting import apart

    assert apart(0.88269, 0.88306) == ("0.8827", "0.8831")
    assert apart(0.5, 0.75) == ("0.500", "0.750")  # three places when they already differ
    assert apart(0.12345671, 0.12345689) == ("0.123457", "0.123457")  # at most six places


def test_apart_compares_decimals_not_texts():
    """1 and 0.99996 were ("1", "1.000") at three places: two texts that differ, for one figure to three places."""
    from ui.formatting import apart

    assert apart(1.0, 0.99996) == ("1", "0.99996")
    assert apart(0.0, 0.0004) == ("0", "0.0004")
