"""Linked highlighting, Predict first and the quiz's per-option reasons, under AppTest with real values.

Row clicks go through the ranked list's ``select`` state value (the message the browser sends); bar clicks are
plotly selection events, whose mapping to a rank is tested here and whose round trip is in
tests/browser/test_linked_browser.py.
"""

from __future__ import annotations

import math

import plotly.graph_objects as go
import pytest

import ndcg_core
from tests.conftest import run_page
from tests.test_playground import drag, open_playground, ranking
from ui import linked, state
from ui.chart_style import POSITION_COLOURS, position_colour
from ui.charts import contribution_chart
from ui.quiz_model import Question, generate_quiz
from ui.quiz_options import compare_whys, estimate_whys, nearest_option
from ui.ranked_list import last_applied, row_ids

LIST_KEY = "playground_list"


def _luminance(colour: str) -> float:
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def test_position_colours_cycle_and_read_as_text_on_white():
    assert [position_colour(rank) for rank in (1, 2, 7, 13)] == [POSITION_COLOURS[0], POSITION_COLOURS[1],
                                                                  POSITION_COLOURS[0], POSITION_COLOURS[0]]
    for colour in POSITION_COLOURS:  # WCAG contrast with white >= 4.5 (the formula writes terms in them)
        assert 1.05 / (_luminance(colour) + 0.05) >= 4.5, colour
    assert len(set(POSITION_COLOURS)) == len(POSITION_COLOURS)


@pytest.mark.parametrize(("event", "rank"), [
    ({"selection": {"points": [{"x": 2.8, "y": 1.5}]}}, 3),  # "your ranking" bar of rank 3 (left of the slot)
    ({"selection": {"points": [{"x": 1.2, "y": 7.0}]}}, 1),  # the ideal bar of rank 1
    ({"selection": {"points": [{"x": 4}, {"x": 5}]}}, 5),  # the last point clicked
    ({"selection": {"points": []}}, None),
    ({"selection": {"points": [{"x": True}]}}, None),
    ({"selection": {"points": [{"x": float("nan")}]}}, None),
    (None, None),
])
def test_bar_selection_gives_the_rank(event, rank):
    assert linked.position_from_selection(event) == rank


def test_list_selection_is_applied_once():
    assert linked.list_selection({"select": {"seq": 2, "position": 4}}, 1) == (2, 4)
    assert linked.list_selection({"select": {"seq": 2, "position": 4}}, 2) is None  # already applied
    assert linked.list_selection({"select": {"seq": 3, "position": 0}}, 2) is None
    assert linked.list_selection({"moves": []}, 0) is None


def test_linked_figure_colours_bars_by_position_and_outlines_the_highlight():
    table = ndcg_core.evaluate([3, 1, 2, 0, 2], k=3).table
    fig = linked.link_figure(contribution_chart(table, k=3, highlight=2), 2)
    yours, yours_past, ideal, ideal_past = fig.data
    assert list(yours.marker.color) == list(POSITION_COLOURS[:3])  # ranks 1-3, counted
    assert yours_past.marker.color == "#B8BEC6"  # past k stays grey
    assert ideal.marker.color == "#E69F00"  # the ideal bars keep their own colour and hatching
    assert list(yours.marker.line.width) == [0, 3, 0] and list(ideal.marker.line.width) == [0, 3, 0]
    assert yours_past.marker.line.width == 0  # (no bar at rank 2 there: line untouched)
    linked.link_figure(fig, 2)  # linking twice (a rerun re-links the cached figure) changes nothing more
    assert list(yours.marker.color) == list(POSITION_COLOURS[:3]) and list(yours.marker.line.width) == [0, 3, 0]
    go.Figure(fig.to_plotly_json())  # every property set here passes plotly's full validation


def test_a_click_on_an_ideal_place_past_the_ranking_dims_nothing():
    """The ideal bar at place 3 of A:3, B:2 (D9:1 not returned) is clickable: it highlights no position, and plotly's
    selection dimmed every other bar until the next change (the chart's key did not change with the highlight)."""
    result = ndcg_core.evaluate([3, 2], ideal_relevances=[3, 2, 1])
    figure = linked.link_figure(contribution_chart(result.table, ideal_places=result.ideal_table), None)
    bars = [trace for trace in figure.data if trace.type == "bar"]
    assert [linked._ranks(trace.x).tolist() for trace in bars] == [[1, 2], [1, 2, 3]]
    assert {trace.unselected.marker.opacity for trace in bars} == {1}


def test_linked_figure_leaves_other_traces_alone():
    """A trace another module adds to the ranking's bar group (e.g. a translucent ghost) keeps its own colour."""
    table = ndcg_core.evaluate([3, 1, 2, 0, 2]).table
    fig = contribution_chart(table)
    fig.add_trace(go.Bar(x=[1, 2, 3, 4, 5], y=[1, 1, 1, 1, 1], name="before", legendgroup="ghost",
                         offsetgroup="actual", marker={"color": "rgba(0,0,0,0.2)"}))
    linked.link_figure(fig, 2)
    assert fig.data[-1].marker.color == "rgba(0,0,0,0.2)" and fig.data[-1].marker.line.width is None
    assert list(fig.data[0].marker.color) == list(POSITION_COLOURS[:5])


# --- Playground ------------------------------------------------------------------------------------------------

def click_row(at, seq: int, position: int):
    at.session_state[LIST_KEY] = {"select": {"seq": seq, "position": position}}
    return at.run()


def test_clicking_a_row_highlights_its_position_in_formula_table_and_state():
    at = open_playground()
    assert "\\color{#0072B2}\\frac{2^{3}-1}{\\log_2(1+1)}" in at.latex[3].body  # the DCG sum, rank 1 in blue
    click_row(at, 1, 3)
    assert not at.exception
    assert at.session_state[state.RANKING_KEY].highlight == 3
    dcg, idcg = at.latex[3].body, at.latex[4].body
    assert "\\boxed{{\\color{#882255}\\frac{2^{2}-1}{\\log_2(3+1)}}}" in dcg  # D3's term: 3 / 2 = 1.5
    assert "\\boxed{\\frac{2^{2}-1}{\\log_2(3+1)}}" in idcg  # the ideal list's rank 3 (grade 2)
    assert dcg.count("\\boxed") == 1 and idcg.count("\\boxed") == 1
    assert any("Highlighted: rank 3" in md.value and "D3" in md.value for md in at.markdown)
    table = at.dataframe[-1].value  # the per-position table, shaded at rank 3
    assert list(table["rank"]) == [1, 2, 3, 4, 5] and table["contribution"].iloc[2] == pytest.approx(1.5)

    click_row(at, 1, 5)  # the same message again (a rerun): not applied twice
    assert at.session_state[state.RANKING_KEY].highlight == 3
    click_row(at, 2, 3)  # the highlighted row clicked again: cleared
    assert at.session_state[state.RANKING_KEY].highlight is None
    assert all("\\boxed" not in latex.body for latex in at.latex)


def test_highlight_is_a_position_and_the_clear_button_clears_it():
    at = open_playground()
    click_row(at, 1, 2)
    drag(at, [4, 0, 1, 2, 3])  # D5 to the top: rank 2 now holds D1 (grade 3)
    assert ranking(at).names == ("D5", "D1", "D2", "D3", "D4")
    assert "\\boxed{{\\color{#117733}\\frac{2^{3}-1}{\\log_2(2+1)}}}" in at.latex[3].body
    at.button(key="playground_clear_highlight").click().run()
    assert at.session_state[state.RANKING_KEY].highlight is None


def test_predict_first_hides_the_numbers_until_the_guess_then_explains_it():
    at = open_playground()
    at.toggle(key="playground_predict").set_value(True).run()
    assert [metric.value for metric in at.metric] == ["14.0000", "10.2915", "10.8235", "0.9508"]  # nothing changed yet
    drag(at, [2, 0, 1, 3, 4])  # D3 from rank 3 to rank 1
    assert not at.exception
    assert len(at.metric) == 0 and len(at.latex) == 0  # cards and formula hidden
    assert [frame.key for frame in at.dataframe] == ["playground_editor_1", "playground_extra_1"]  # only the editors
    question = next(md.value for md in at.markdown if md.value.startswith("**Predict first.**"))
    assert question == "**Predict first.** D3 moved from rank 3 to rank 1. NDCG was **0.9508**: what is it now?"
    assert at.number_input(key="playground_guess").value == pytest.approx(0.9508496)  # starts at the old value

    next(button for button in at.button if button.label == "Reveal").click().run()  # "no change" guessed
    truth = ndcg_core.evaluate([2, 3, 1, 0, 2]).ndcg
    assert [metric.value for metric in at.metric][3] == f"{truth:.4f}" == "0.8386"
    verdict = at.error[0].value
    assert "NDCG is now 0.8386 (was 0.9508); you guessed 0.951: off by 0.1122." in verdict
    assert "CG, not DCG" in verdict
    assert at.metric[3].delta == "-0.1122"  # the card's change is against the numbers last shown

    drag(at, [1, 0, 2, 3, 4])  # the next move hides again and clears the verdict
    assert len(at.metric) == 0 and len(at.error) == 0


def test_predict_first_quotes_document_names_as_text():
    # The question and the verdict are markdown: a name with markup in it must read as typed, and a name keeps its
    # own case at the start of the sentence (it was lowercased after the first letter: "Mydoc").
    at = open_playground({"docs": "**bold**:3,MyDoc:1,D3:2,D4:0"})
    at.toggle(key="playground_predict").set_value(True).run()
    drag(at, [1, 2, 0, 3])  # **bold** from rank 1 to rank 3
    question = next(md.value for md in at.markdown if md.value.startswith("**Predict first.**"))
    assert question.startswith(r"**Predict first.** \*\*bold\*\* moved from rank 1 to rank 3. NDCG was")
    at.number_input(key="playground_guess").set_value(0.99)  # the wrong direction: the verdict names the move
    next(button for button in at.button if button.label == "Reveal").click().run()
    verdicts = [alert.value for alert in (*at.error, *at.warning, *at.success)]
    assert any(r"\*\*bold\*\* (grade 3) moved from rank 1 to rank 3" in text for text in verdicts), verdicts
    shown = [element.value for element in (*at.markdown, *at.error, *at.warning, *at.success, *at.caption)]
    assert not any("**bold**" in text.replace(r"\*\*bold\*\*", "") for text in shown)  # never as markup
    drag(at, [1, 2, 0, 3])  # MyDoc (now first) to rank 3
    question = next(md.value for md in at.markdown if md.value.startswith("**Predict first.**"))
    assert question.startswith("**Predict first.** MyDoc moved from rank 1 to rank 3.")


def test_predict_first_grade_edit_explains_idcg():
    from tests.test_playground import edit

    at = open_playground()
    at.toggle(key="playground_predict").set_value(True).run()
    edit(at, edited={3: {"Grade": 3}})  # D4: 0 -> 3
    assert len(at.metric) == 0
    at.number_input(key="playground_guess").set_value(0.99)
    next(button for button in at.button if button.label == "Reveal").click().run()
    assert at.metric[3].value == "0.9117"
    assert "IDCG went 10.8235 → 14.5954, by a larger share." in at.error[0].value


@pytest.mark.parametrize("base", ["2", "e", "10"])
def test_predict_first_overshoot_and_undershoot_state_the_discounts_weights_under_any_log_base(base):
    """Under log base 10 a wrong-size guess was told "a gain counts 1 at rank 1, 0.50 at rank 3, 0.33 at rank 7" and
    "rank 2 already keeps only 0.63 of a gain", beside a table whose rank-1 discount is log₁₀2 = 0.301 (a gain counts
    3.32 there): those are base-2 weights. What a gain counts against rank 1, d₁ / dᵢ, holds under every base."""
    discount = ndcg_core.discounts(7, {"2": 2.0, "e": math.e, "10": 10.0}[base])
    rank_3, rank_7, rank_2 = (f"{discount[0] / discount[i]:.2f}" for i in (2, 6, 1))
    assert (rank_3, rank_7, rank_2) == ("0.50", "0.33", "0.63")
    for guess, words in ((0.5, f"a gain counts {rank_3} of its rank-1 value at rank 3, {rank_7} at rank 7"),
                         (0.92, f"at rank 2 a gain already counts only {rank_2} of its rank-1 value")):
        at = open_playground({"base": base})
        at.toggle(key="playground_predict").set_value(True).run()
        drag(at, [2, 0, 1, 3, 4])  # D3 from rank 3 to rank 1: NDCG 0.9508 -> 0.8386 under every base
        at.number_input(key="playground_guess").set_value(guess)
        next(button for button in at.button if button.label == "Reveal").click().run()
        verdict = at.error[0].value
        assert "NDCG is now 0.8386 (was 0.9508)" in verdict and words in verdict, verdict
        assert "counts 1 at rank 1" not in verdict and "of a gain" not in verdict


def test_predict_first_after_a_new_cutoff_names_the_old_value_by_its_own_cutoff():
    """Setting k = 2 in the sidebar asked "NDCG@2 was 0.9508: what is it now?": 0.9508 is the whole list's NDCG
    (NDCG@2 was 7.6309 / 8.8928 = 0.8581 all along, and is what the reveal shows)."""
    at = open_playground()
    at.toggle(key="playground_predict").set_value(True).run()
    at.sidebar.number_input(key="settings_k").set_value(2).run()
    question = next(md.value for md in at.markdown if md.value.startswith("**Predict first.**"))
    assert question == "**Predict first.** The settings changed. NDCG was **0.9508**: what is NDCG@2 now?"
    next(button for button in at.button if button.label == "Reveal").click().run()
    assert at.metric[3].label == "NDCG@2" and at.metric[3].value == f"{ndcg_core.evaluate([3, 1, 2, 0, 2], k=2).ndcg:.4f}"


@pytest.mark.parametrize(("guess", "words"), [(0.5, "Right direction, too far: NDCG only fell by 0.0927"),
                                              (0.94, "Right direction, not far enough: NDCG fell by 0.0927")])
def test_predict_first_a_wrong_size_guess_after_a_new_setting_is_told_what_the_setting_did(guess, words):
    """After a new k in the sidebar a guess too far was told "Lower down the list a change is damped by the discount",
    and one not far enough "The top ranks weigh most", of a list nobody changed: the settings moved both sums."""
    at = open_playground()
    at.toggle(key="playground_predict").set_value(True).run()
    at.sidebar.number_input(key="settings_k").set_value(2).run()
    at.number_input(key="playground_guess").set_value(guess)
    next(button for button in at.button if button.label == "Reveal").click().run()
    verdict = at.error[0].value
    # DCG@2 = 7 + 1/log2(3) = 7.6309, IDCG@2 = 7 + 3/log2(3) = 8.8928: 0.9508 -> 0.8581
    assert verdict.endswith(f"{words}: the new settings took DCG from 10.2915 to 7.6309 and IDCG from 10.8235 to "
                            "8.8928."), verdict
    assert "damped" not in verdict and "top ranks" not in verdict


# --- Step by step ----------------------------------------------------------------------------------------------

def test_step_by_step_predict_first_asks_before_each_position():
    at = run_page("step_by_step")
    at.toggle(key="step_predict_toggle").set_value(True).run()
    assert any(md.value.startswith("**Predict first.** At rank **1** the ranking has **D1** with grade **3**")
               for md in at.markdown)
    assert not any("table so far" in md.value for md in at.markdown)  # no table (nor charts) before the guess
    assert not any("contributes" in md.value for md in at.markdown)
    at.number_input(key="step_guess").set_value(7.0)
    next(button for button in at.button if button.label == "Reveal").click().run()
    assert "The contribution is 7.0000; you guessed 7.000 (off by 0.0000)." in at.success[0].value
    assert any("The whole table so far" in md.value for md in at.markdown)
    at.button(key="step_next").click().run()
    at.number_input(key="step_guess").set_value(1.0)  # the gain of grade 1, not divided by log₂3
    next(button for button in at.button if button.label == "Reveal").click().run()
    verdict = next(element.value for element in at.error if "contribution is" in element.value)
    assert f"The contribution is {1 / math.log2(3):.4f}" in verdict and "That is the gain" in verdict


def test_step_by_step_predict_first_past_the_cutoff_asks_what_it_would_add_without_it():
    """The lesson plan's "Exercise 1, step by step" (grades 1 0 1 1 0, linear gain, k = 3) at rank 4 asked "What does
    it add to DCG?", and the right answer for DCG@3, 0, was "Not quite. The contribution is 0.4307"."""
    at = run_page("step_by_step", query_params={"gain": "linear", "base": "2", "z": "zero", "k": "3",
                                                "list": "001-binary-dcg3", "pos": "4"})
    at.toggle(key="step_predict_toggle").set_value(True).run()
    question = next(md.value for md in at.markdown if md.value.startswith("**Predict first.**"))
    assert question.endswith("Rank 4 is past the cutoff k = 3, so it adds nothing to DCG@3. What would it add "
                             "without the cutoff?"), question
    at.number_input(key="step_guess").set_value(0.0)
    next(button for button in at.button if button.label == "Reveal").click().run()
    shown = " ".join(element.value for element in [*at.success, *at.warning, *at.error])
    assert "Right that it adds nothing to DCG@3" in shown and f"= {1 / math.log2(5):.3f}" in shown, shown
    at.button(key="step_previous").click().run()  # rank 3, within the cutoff: the usual question
    question = next(md.value for md in at.markdown if md.value.startswith("**Predict first.**"))
    assert question.endswith("What does it add to DCG?")


# --- Quiz: every option explained ------------------------------------------------------------------------------

def test_estimate_options_hand_derived():
    # Ranked grades [2, 3, 0], k = 2, linear gain: DCG@2 = 2 + 3/log₂3 = 3.8928, IDCG@2 = 3 + 2/log₂3 = 4.2619.
    question = Question(1, "estimate", ("D1", "D2", "D3"), (3.0, 2.0, 0.0), 2, "linear", (1, 0, 2))
    options = {option.label: option for option in estimate_whys(question)}
    assert options["NDCG@2"].value == pytest.approx((2 + 3 / math.log2(3)) / (3 + 2 / math.log2(3)))
    assert options["NDCG@2"].correct and sum(option.correct for option in options.values()) == 1
    assert options["No discount"].value == pytest.approx(1.0)  # CG@2 = 5 = ideal CG@2
    # No cutoff gives the answer here (the grade-0 tail adds nothing): not offered as a wrong option (it was, with ❌
    # next to the student's right value); the answer says so.
    assert "No cutoff" not in options
    assert options["NDCG@2"].why.endswith("the answer. (No cutoff would give the same here.)")
    # Exponential gains [3, 7, 0]: DCG@2 = 3 + 7/log₂3, IDCG@2 = 7 + 3/log₂3.
    assert options["Exponential gain"].value == pytest.approx((3 + 7 / math.log2(3)) / (7 + 3 / math.log2(3)))
    assert nearest_option(list(options.values()), 0.99).label == "No discount"
    assert nearest_option(list(options.values()), 0.90).label == "NDCG@2"


def test_compare_options_each_explained():
    question = next(q for q in generate_quiz(42) if q.kind == "compare")
    whys = compare_whys(question)
    assert [why.label for why in whys] == ["Ranking A", "Ranking B"]
    assert [why.correct for why in whys] == [question.best_answer() == "A", question.best_answer() == "B"]
    for why, order in zip(whys, (question.order, question.other_order), strict=True):
        assert why.value == question.result(order).ndcg
        assert why.why.startswith(f"NDCG@{question.k} = {why.value:.3f}; top {question.k} grades")


def test_quiz_page_explains_both_options_after_an_answer():
    at = run_page("quiz", query_params={"seed": "42"})
    question = next(q for q in generate_quiz(42) if q.kind == "compare")
    wrong = "A" if question.best_answer() == "B" else "B"
    at.radio(key=f"quiz_42_{question.number}_choice").set_value(wrong).run()
    at.button(key=f"quiz_42_{question.number}_check").click().run()
    block = next(md.value for md in at.markdown if md.value.startswith("**Why, option by option:**"))
    assert f"❌ **Ranking {wrong}** *(your answer)*" in block
    assert f"✅ **Ranking {question.best_answer()}**:" in block


@pytest.mark.parametrize(("mover", "to", "words"), [
    ("D1", 1, "D1 moved from rank 1 to rank 2"),  # ▼ on D1
    ("D2", 0, "D2 moved from rank 2 to rank 1"),  # ▲ on D2: the same new order, the other document moved
])
def test_predict_first_names_the_document_that_was_moved_in_a_swap_of_neighbours(mover, to, words):
    """▼ on D1 swaps it with D2: the question said "D2 moved from rank 2 to rank 1" (either reading fits the new
    order, and the upward one was always taken). The document the person moved is the one named."""
    at = open_playground()
    at.toggle(key="playground_predict").set_value(True).run()
    shown = ranking(at)
    row = shown.names.index(mover)
    move = {"seq": last_applied(at.session_state, LIST_KEY) + 1,
            "id": row_ids(shown.names, shown.grades)[row], "from": row, "to": to}
    at.session_state[LIST_KEY] = {"moves": [move]}
    at.run()
    assert not at.exception
    assert ranking(at).names[:2] == ("D2", "D1")
    question = next(md.value for md in at.markdown if md.value.startswith("**Predict first.**"))
    assert question.startswith(f"**Predict first.** {words}. NDCG was **0.9508**")


def test_step_by_step_predict_first_hides_the_whole_lists_figures_until_every_position_is_revealed():
    """The "whole list's figures" expander under the walk showed DCG 10.2915, IDCG 10.8235, NDCG 0.9508 and every
    term of the formula while Predict first asked for each position's contribution."""
    def whole_list(at) -> dict[str, str]:  # the expander's cards (the lessons below have their own)
        return {m.label: m.value for m in at.metric if m.label in ("CG", "DCG", "IDCG", "NDCG")}

    at = run_page("step_by_step")
    assert whole_list(at) == {"CG": "14.0000", "DCG": "10.2915", "IDCG": "10.8235", "NDCG": "0.9508"}
    at.toggle(key="step_predict_toggle").set_value(True).run()
    assert whole_list(at) == {} and not any(latex.body.lstrip("$\n").startswith("DCG@") for latex in at.latex)
    assert any("Hidden while Predict first is on" in c.value for c in at.caption)
    positions = 5  # D1..D5
    for position in range(1, positions + 1):
        at.number_input(key="step_guess").set_value(0.0)
        next(button for button in at.button if button.label == "Reveal").click().run()
        if position < positions:
            assert whole_list(at) == {}
            at.button(key="step_next").click().run()
    assert whole_list(at)["NDCG"] == "0.9508"  # every position revealed: the figures are back
    assert not any("Hidden while Predict first is on" in c.value for c in at.caption)
