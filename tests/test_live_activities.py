"""Live activities: scoring, misconceptions and worked answers, with figures derived by hand from the formula.

The hand example: documents D1..D4 with grades 0, 3, 2, 1 shown in that order, linear gain, log₂ discount.
  DCG@3  = 0/1 + 3/log₂3 + 2/2            = 1.8928 + 1      = 2.8928
  IDCG@3 = 3/1 + 2/log₂3 + 1/2            = 3 + 1.2619 + .5 = 4.7619     NDCG@3 = 0.6075
  CG@3 / ideal CG@3 = 5 / 6                                   = 0.8333     (order ignored)
  NDCG@4 = (2.8928 + 1/log₂5) / 4.7619    = 3.3235 / 4.7619 = 0.6979     (cutoff ignored)
"""

from __future__ import annotations

import pytest

import ndcg_core
from tests.test_live_store import SPEC
from ui.live import activities
from ui.live.store import Answer

COMPARE = SPEC | {"grades": [3, 2, 1, 0], "order": [3, 0, 1, 2], "other_order": [0, 3, 2, 1]}  # A: 0,3,2,1  B: 3,0,1,2
REORDER = SPEC | {"k": 2}


def test_estimate_truth_and_points():
    assert activities.truth("estimate", SPEC) == pytest.approx(2.892789 / 4.761860, abs=1e-6)
    assert activities.score("estimate", SPEC, {"value": 0.63}) == ("0.65", 1.0, True)
    assert activities.score("estimate", SPEC, {"value": 0.70}) == ("0.70", 0.5, False)
    assert activities.score("estimate", SPEC, {"value": 0.83}) == ("0.85", 0.0, False)
    for bad in ({"value": 1.5}, {"value": "0.5"}, {}):
        with pytest.raises(ValueError):
            activities.score("estimate", SPEC, bad)


@pytest.mark.parametrize(("value", "slip"), [
    (0.83, "answered as if order did not matter: that is CG, not DCG"),
    (0.70, "ignored the cutoff: NDCG of all 4 positions, not @3"),
    (0.30, None),
    (0.61, None),  # right: no misconception
])
def test_estimate_misconceptions(value, slip):
    assert activities.misconception("estimate", SPEC, {"value": value}) == slip


def test_compare_scoring_and_the_cg_misconception():
    # A = 0,3,2,1: NDCG@3 = 0.6075. B = 3,0,1,2: DCG@3 = 3 + 0 + 1/2 = 3.5, NDCG@3 = 3.5 / 4.7619 = 0.7350.
    assert activities.correct_answer("compare", COMPARE) == "Ranking B"
    assert activities.score("compare", COMPARE, {"choice": "B"}) == ("B", 1.0, True)
    assert activities.score("compare", COMPARE, {"choice": "A"}) == ("A", 0.0, False)
    # A's CG@3 is 0+3+2 = 5 against B's 3+0+1 = 4: choosing A is what ignoring the order gives.
    assert activities.misconception("compare", COMPARE, {"choice": "A"}) == \
        "answered as if order did not matter: that is CG, not DCG"
    assert activities.misconception("compare", COMPARE, {"choice": "B"}) is None


def test_reorder_scoring_counts_at_least_the_moves_needed():
    # NDCG@2 is best when ranks 1-2 hold grades 3, 2: from 0,3,2,1 one move (D1 down) reaches it.
    assert activities.score("reorder", REORDER, {"order": [1, 2, 0, 3], "moves": 1}) == ("best in 1 move", 1.0, True)
    # Claiming 0 moves does not help: 1 is the least that reaches this order.
    assert activities.score("reorder", REORDER, {"order": [1, 2, 0, 3], "moves": 0}) == ("best in 1 move", 1.0, True)
    assert activities.score("reorder", REORDER, {"order": [1, 2, 0, 3], "moves": 3}) == ("best in 3 moves", 0.5, False)
    # 3,0,2,1: NDCG@2 = 3 / (3 + 2/log₂3) = 3 / 4.2619 = 0.7039
    assert activities.score("reorder", REORDER, {"order": [1, 0, 2, 3], "moves": 1}) == ("NDCG 0.70", 0.0, False)
    with pytest.raises(ValueError):
        activities.score("reorder", REORDER, {"order": [1, 1, 2, 3], "moves": 1})


def test_reorder_misconceptions():
    assert activities.misconception("reorder", REORDER, {"order": [2, 1, 0, 3]}) == (  # grades 2, 3 | 0, 1
        "the right documents above the cutoff, but not in the best order: the grade-3 document at rank 2 belongs "
        "above the grade-2 one at rank 1 (each rank down divides a gain by more)")
    assert activities.misconception("reorder", REORDER, {"order": [1, 0, 2, 3]}) == (
        "a higher grade left below the cutoff: only the top k = 2 positions count")
    # D1 taken to the bottom instead of just below the cutoff: still 1 move, so 3 moves were a detour, not a slip
    # below the cutoff.
    assert activities.misconception("reorder", REORDER, {"order": [1, 2, 3, 0], "moves": 3}) == (
        "reached the best NDCG in more moves than needed")


def test_reorder_below_the_cutoff_slip_only_when_the_order_shows_it():
    """Quiz seed 42's list D2 D5 D4 D3 D1 (grades 1 1 3 1 3), NDCG@3 best in 2 moves (D4 to the top, D1 to rank 2).

    The shortest fix D4 D1 D2 D5 D3 reached in 5 moves is a detour: nothing below the cutoff is out of its starting
    order (the slip was claimed for it). D4 D1 D2 D3 D5 has D3 and D5 swapped below the cutoff, which takes a third
    move: that is the slip.
    """
    spec = activities.generate("reorder", seed=42)
    assert [spec["names"][i] for i in spec["order"]] == ["D2", "D5", "D4", "D3", "D1"] and spec["k"] == 3
    fix = [3, 0, 1, 4, 2]  # D4 D1 D2 D5 D3
    assert activities.misconception("reorder", spec, {"order": fix, "moves": 5}) == (
        "reached the best NDCG in more moves than needed")
    assert activities.misconception("reorder", spec, {"order": [3, 0, 1, 2, 4], "moves": 3}) == (
        "reached the best NDCG, but also moved documents below the cutoff k = 3: their order does not count")


def test_most_common_wrong_answer_names_its_misconception():
    def row(value, correct=False):
        label, points, right = activities.score("estimate", SPEC, {"value": value})
        return Answer(1, 1, "", {"value": value}, label, points, right, 1, 0.0)

    rows = [row(0.83), row(0.84), row(0.70), row(0.61), row(0.60)]
    assert activities.most_common_wrong("estimate", SPEC, rows) == [
        ("0.85", 2, "answered as if order did not matter: that is CG, not DCG")]
    assert activities.most_common_wrong("estimate", SPEC, rows[3:]) == []


def test_a_tie_for_the_most_common_wrong_answer_names_every_tied_answer_those_with_a_slip_first():
    """One student answered 0.30, one 0.70 (the truth 0.531, NDCG@3 of seed 0): the teacher saw "0.30 → no single
    slip explains it" (the labels' sort broke the tie) while 0.70 is the ignored-cutoff slip."""
    spec = activities.generate("estimate", seed=0)
    question = activities.question_of("estimate", spec)
    assert round(question.result().ndcg, 3) == 0.531
    whole_list = ndcg_core.evaluate(question.ranked_grades(), gain=question.gain).ndcg  # the cutoff ignored
    assert abs(whole_list - 0.70) <= activities.BIN

    def row(value):
        label, points, right = activities.score("estimate", spec, {"value": value})
        return Answer(1, 1, "", {"value": value}, label, points, right, 1, 0.0)

    assert activities.most_common_wrong("estimate", spec, [row(0.30), row(0.70)]) == [
        ("0.70", 1, f"ignored the cutoff: NDCG of all {len(question.names)} positions, not @{question.k}"),
        ("0.30", 1, None)]


def test_worked_calculation_uses_ndcg_core_figures():
    lines = activities.worked(activities.question_of("estimate", SPEC))
    assert lines[1] == "DCG@3 = 0/1.000 + 3/1.585 + 2/2.000 = 2.893"
    assert lines[2] == "IDCG@3 (grades sorted best first: 3, 2, 1, 0) = 3/1.000 + 2/1.585 + 1/2.000 = 4.762"
    assert lines[3] == "NDCG@3 = 2.893 / 4.762 = 0.607"


def test_generated_activities_are_reproducible_and_scored_by_the_quiz_rules():
    for kind in activities.KINDS:
        spec = activities.generate(kind, seed=42)
        assert spec == activities.generate(kind, seed=42)
        assert len(spec["names"]) == len(spec["grades"]) == len(spec["order"])
    assert [kind for kind, _ in activities.quiz_specs(42)] == ["compare", "estimate", "reorder"] * 2


def test_a_reorder_slip_speaks_of_a_cutoff_only_when_the_cutoff_cuts():
    """k = 6 on a list of 6 documents: "the right documents above the cutoff, but not best first" named a cutoff
    that cuts nothing."""
    spec = activities.generate("reorder", seed=0)
    question = activities.question_of("reorder", spec)
    assert question.k == len(question.names) == 6
    order = list(question.order)  # the starting order is not the best: grades 2, 1, 1, 3, 1, 3
    assert activities.misconception("reorder", spec, {"order": order, "moves": 0}) == (
        "not in the best order: the grade-3 document at rank 4 belongs above the grade-2 one at rank 1 (each rank "
        "down divides a gain by more)")
    # A grade 3 already at rank 1, the other grade 3 left at rank 6 (grades 3, 2, 1, 1, 1, 3): the slip named
    # "the highest grade at rank 1", which this student had done.
    grades = question.ranked_grades(order)
    first_three = order[[float(g) for g in grades].index(3.0)]
    moved = [first_three, *[j for j in order if j != first_three]]
    assert [float(g) for g in question.ranked_grades(moved)] == [3, 2, 1, 1, 1, 3]
    assert activities.misconception("reorder", spec, {"order": moved, "moves": 1}) == (
        "not in the best order: the grade-3 document at rank 6 belongs above the grade-2 one at rank 2 (each rank "
        "down divides a gain by more)")
