"""Predict, then reveal (ui/predict_model.py): scoring a guess and the misconception each explanation names.

The figures are hand-derived for document 000's list G = [3, 1, 2, 0, 2] under exponential gain and log₂:
DCG = 7/1 + 1/log₂3 + 3/2 + 0 + 3/log₂6 = 7 + 0.63093 + 1.5 + 1.16056 = 10.29149,
IDCG = 7 + 3/log₂3 + 3/2 + 1/log₂5 = 10.82347, NDCG = 0.95085. Moving D3 to rank 1 gives [2, 3, 1, 0, 2]:
DCG = 3 + 7/log₂3 + 1/2 + 3/log₂6 = 9.07707, NDCG = 0.83865. ndcg_core is checked to agree before each use.
"""

from __future__ import annotations

import math

import pytest

import ndcg_core
from ui.predict_model import Change, Scores, Term, classify, judge_contribution, judge_ndcg, single_move

NAMES = ("D1", "D2", "D3", "D4", "D5")
G = (3.0, 1.0, 2.0, 0.0, 2.0)
BEFORE = Scores(10.29149, 10.82347, 0.95085)
MOVED = Scores(9.07707, 10.82347, 0.83865)  # D3 moved from rank 3 to rank 1
MOVE = Change("order", ("D3", 2.0, 3, 1), (("D1", 3.0), ("D2", 1.0)))  # past D1 (grade 3) and D2 (grade 1)


def test_hand_figures_agree_with_ndcg_core():
    for grades, scores in ((G, BEFORE), ((2, 3, 1, 0, 2), MOVED)):
        result = ndcg_core.evaluate(list(grades))
        assert (result.dcg, result.idcg, result.ndcg) == pytest.approx((scores.dcg, scores.idcg, scores.ndcg), abs=1e-5)


def test_single_move_finds_the_moved_item_in_both_directions():
    assert single_move("abcde", "cabde") == (2, 0)  # c moved up from 2 to 0
    assert single_move("abcde", "bcdae") == (0, 3)  # a moved down from 0 to 3
    assert single_move("abcde", "bacde") == (1, 0)  # a swap of neighbours: b up, unless told a moved down
    assert single_move("abcde", "bacde", moved="a") == (0, 1)
    assert single_move("abcde", "bacde", moved="b") == (1, 0)
    assert single_move("abcde", "acbde", moved="b") == (1, 2)
    assert single_move("abcde", "cabde", moved="a") == (2, 0)  # c up two: a only slid, it was not moved
    assert single_move("abcde", "edcba") is None  # a reversal is not one move
    assert single_move("abcde", "abcde") is None


def test_classify_names_the_kind_of_change():
    after_move = (("D3", "D1", "D2", "D4", "D5"), (2, 3, 1, 0, 2))
    assert classify((NAMES, G), after_move) == MOVE
    assert classify((NAMES, G), (NAMES[::-1], G[::-1])).kind == "order"
    assert classify((NAMES, G), (NAMES, (3, 1, 2, 3, 2))).kind == "grades"
    assert classify((NAMES, G), (NAMES, G), same_settings=False).kind == "settings"
    assert classify((NAMES, G), (NAMES, G)).kind == "none"
    assert classify((NAMES, G), (NAMES, G), same_extra=False).kind == "grades"  # an extra judged document added


def test_guessing_no_change_after_a_move_is_the_cg_misconception():
    feedback = judge_ndcg(0.95085, BEFORE, MOVED, MOVE)
    assert feedback.misconception == "no_change"
    assert feedback.points == 0.0 and feedback.verdict == "Not quite."
    assert "Order matters" in feedback.explanation and "CG, not DCG" in feedback.explanation
    assert feedback.error == pytest.approx(0.95085 - 0.83865)
    assert feedback.summary() == "NDCG is now 0.8387 (was 0.9508); you guessed 0.951: off by 0.1122."


def test_close_guess_is_right_and_says_why():
    feedback = judge_ndcg(0.84, BEFORE, MOVED, MOVE)
    assert (feedback.points, feedback.misconception) == (1.0, "exact")
    assert feedback.explanation == ("Right: DCG went from 10.2915 to 9.0771 and IDCG from 10.8235 to 10.8235, so "
                                    "NDCG fell by 0.1122.")
    assert judge_ndcg(0.80, BEFORE, MOVED, MOVE).points == 0.5  # 0.0387 off: within 0.05


def test_wrong_direction_after_a_move_names_the_document_and_the_discount():
    feedback = judge_ndcg(0.98, BEFORE, MOVED, MOVE)
    assert feedback.misconception == "direction"
    assert feedback.explanation == (
        "NDCG fell (-0.1122): D3 (grade 2) moved from rank 3 to rank 1, ahead of D1 (grade 3) and D2 (grade 1), so "
        "on balance the larger gains now sit where the discount log(i + 1) is larger."
    )


def test_overshoot_and_undershoot():
    over = judge_ndcg(0.5, BEFORE, MOVED, MOVE)
    assert over.misconception == "overshoot" and "NDCG only fell by 0.1122" in over.explanation
    # log₂2/log₂4 = 0.5, log₂2/log₂8 = 1/3, log₂2/log₂3 = 0.63 (the same ratios under any base)
    assert "a gain counts 0.50 of its rank-1 value at rank 3, 0.33 at rank 7" in over.explanation
    under = judge_ndcg(0.92, BEFORE, MOVED, MOVE)  # guessed -0.031, it was -0.112
    assert under.misconception == "undershoot" and "not far enough" in under.explanation
    assert "at rank 2 a gain already counts only 0.63 of its rank-1 value" in under.explanation


def test_raising_a_grade_can_lower_ndcg_through_idcg():
    # D4 (rank 4) from grade 0 to 3: DCG 10.2915 -> 13.3062 (+7/log₂5), IDCG 10.8235 -> 14.5954, NDCG 0.9117.
    raised = ndcg_core.evaluate([3, 1, 2, 3, 2])
    assert raised.dcg == pytest.approx(10.29149 + 7 / math.log2(5), abs=1e-5)
    after = Scores.of(raised)
    feedback = judge_ndcg(0.97, BEFORE, after, Change("grades"))
    assert feedback.misconception == "direction"
    assert feedback.explanation == ("NDCG fell although DCG went 10.2915 → 13.3062: the ideal list changed too, and "
                                    "IDCG went 10.8235 → 14.5954, by a larger share.")


@pytest.mark.parametrize(("grades", "guess", "words"), [
    # D1 lowered 3 -> 2: DCG and IDCG both lose 4 (7 - 3 at rank 1), a larger share of DCG. It said "raising a grade
    # also improves the ideal list, so IDCG (10.8235 → 6.8235) can grow more than DCG".
    ((2, 1, 2, 0, 2), 0.99, "NDCG fell: DCG went 10.2915 → 6.2915 and IDCG 10.8235 → 6.8235. The ideal list is "
                            "rebuilt from the new grades, so IDCG moved with DCG, and NDCG = DCG / IDCG follows the one "
                            "that changed by the larger share: DCG (-38.9% against -37.0%)."),
    # D2 raised 1 -> 3: NDCG rose, and it was explained as IDCG growing more than DCG (the reason for a fall).
    ((3, 3, 2, 0, 2), 0.90, "NDCG rose: DCG went 10.2915 → 14.0771 and IDCG 10.8235 → 14.2085. The ideal list is "
                            "rebuilt from the new grades, so IDCG moved with DCG, and NDCG = DCG / IDCG follows the one "
                            "that changed by the larger share: DCG (+36.8% against +31.3%)."),
])
def test_a_grade_edit_that_moved_dcg_and_idcg_the_same_way_is_explained_by_their_shares(grades, guess, words):
    after = Scores.of(ndcg_core.evaluate(list(grades)))
    assert (after.dcg / BEFORE.dcg - 1) * 100 == pytest.approx(float(words.split("(")[-1].split("%")[0]), abs=0.05)
    feedback = judge_ndcg(guess, BEFORE, after, Change("grades"))
    assert feedback.misconception == "direction" and feedback.explanation == words


def test_an_extra_documents_grade_edit_is_explained_by_the_ideal_list_alone():
    """An extra judged document lowered 3 -> 1: DCG is unchanged; the words must not credit DCG with the change."""
    before = Scores.of(ndcg_core.evaluate(list(G), ideal_relevances=[*G, 3]))
    after = Scores.of(ndcg_core.evaluate(list(G), ideal_relevances=[*G, 1]))
    feedback = judge_ndcg(before.ndcg - 0.01, before, after, Change("grades"))
    assert feedback.explanation == ("NDCG rose: DCG stayed 10.2915 while IDCG went 14.5954 → 11.2103: the edit "
                                    "changed the ideal list, not the ranking's gains.")


def test_a_change_guessed_where_there_is_none_past_the_cutoff():
    # k = 3: swapping ranks 4 and 5 changes nothing counted; NDCG@3 = 0.8786 either way.
    at3 = Scores.of(ndcg_core.evaluate(list(G), k=3))
    swapped = Scores.of(ndcg_core.evaluate([3, 1, 2, 2, 0], k=3))
    assert at3.ndcg == swapped.ndcg == pytest.approx(0.87858, abs=1e-5)
    feedback = judge_ndcg(0.80, at3, swapped, Change("order", ("D5", 2.0, 5, 4)))
    assert feedback.misconception == "phantom_change"
    assert feedback.explanation.startswith("Both ranks are past the cutoff k = 3")
    assert judge_ndcg(0.8786, at3, swapped, Change("order", ("D5", 2.0, 5, 4))).misconception == "exact"


# --- Step by step: one position's contribution (exponential gain, log₂) ---------------------------------------

RANK2 = Term(2, 1.0, 1.0, math.log2(3), 1 / math.log2(3))  # 1 / 1.58496 = 0.63093
RANK3 = Term(3, 2.0, 3.0, 2.0, 1.5)  # (2² - 1) / log₂4 = 3 / 2
RANK5 = Term(5, 2.0, 3.0, math.log2(6), 3 / math.log2(6))  # 3 / 2.58496 = 1.16056


def test_contribution_terms_match_ndcg_core_table():
    table = ndcg_core.evaluate(list(G)).table
    for term in (RANK2, RANK3, RANK5):
        row = table.iloc[term.rank - 1]
        assert (row["gain"], row["discount"], row["contribution"]) == pytest.approx(
            (term.gain, term.discount, term.contribution))


@pytest.mark.parametrize(("term", "guess", "key", "words"), [
    (RANK3, 1.5, "exact", "Right: the gain divided by the discount of rank 3, 3 ÷ 2 = 1.500."),
    (RANK2, 1.0, "gain_only", "That is the gain; the contribution divides it by the discount log(i + 1): "
                              "1 ÷ 1.585 = 0.631."),
    (RANK3, 1.0, "grade_not_gain", "You divided the grade; divide its gain instead (here 3 for grade 2): "
                                   "3 ÷ 2 = 1.500."),
    # Rank 1 (discount 1), grade 3 typed: it said "You divided the grade", and nothing had been divided (helper-68).
    (Term(1, 3.0, 7.0, 1.0, 7.0), 3.0, "grade_not_gain",
     "That is the grade; its gain is 7, then divided by the discount: 7 ÷ 1 = 7."),
    (RANK3, 6.0, "multiplied", "The discount divides the gain, it does not multiply it: 3 ÷ 2 = 1.500."),
    (RANK5, 0.6, "rank_not_log", "The discount is log(i + 1) = 2.585, not the rank 5; it grows slowly: "
                                 "3 ÷ 2.585 = 1.161."),
    (RANK5, 9.0, "other", "The contribution is the gain divided by the discount of rank 5: 3 ÷ 2.585 = 1.161."),
])
def test_contribution_guess_names_the_slip(term, guess, key, words):
    feedback = judge_contribution(guess, term)
    assert (feedback.misconception, feedback.explanation) == (key, words)
    assert feedback.truth == pytest.approx(term.contribution)


def test_contribution_points():
    assert judge_contribution(0.63, RANK2).points == 1.0
    assert judge_contribution(0.58, RANK2).points == 0.5  # 0.051 off: within 10 % of 0.631 (0.063)
    assert judge_contribution(1.0, RANK2).points == 0.0


def test_guessing_no_change_is_never_spot_on_when_ndcg_moved():
    """D4 (grade 0) one place up, 4 → 3: grades 3, 1, 0, 2, 2, exponential gain, DCG 10.2915 → 7 + 1/log₂3 + 0/2 +
    3/log₂5 + 3/log₂6 = 10.0835, IDCG 10.8235: NDCG 0.9508 → 0.9316. Re-typing 0.95 (no change) is 0.0184 off, within the 0.02 of "Spot on!", which it was
    called; it is the slip "order does not matter": half a point, and that explanation."""
    after = ndcg_core.evaluate([3, 1, 0, 2, 2])
    assert (round(after.dcg, 4), round(after.ndcg, 4)) == (10.0835, 0.9316)
    moved = Change("order", ("D4", 0.0, 4, 3))
    feedback = judge_ndcg(0.95, BEFORE, Scores(after.dcg, after.idcg, after.ndcg), moved)
    assert (feedback.points, feedback.verdict, feedback.misconception) == (0.5, "Close, but it did change.", "no_change")
    assert "Order matters" in feedback.explanation
    assert judge_ndcg(0.932, BEFORE, Scores(after.dcg, after.idcg, after.ndcg), moved).points == 1.0


def test_a_right_guess_after_a_settings_change_says_how_dcg_and_idcg_moved():
    """Ideal order, then linear gain instead of exponential: NDCG stays 1, DCG and IDCG both fall from 10.8235 to
    5.6925. The verdict said "this change leaves DCG and IDCG as they were" above cards showing both at -5.1309."""
    grades = [3, 2, 2, 1, 0]
    before = Scores.of(ndcg_core.evaluate(grades))
    after = Scores.of(ndcg_core.evaluate(grades, gain="linear"))
    assert (round(before.dcg, 4), round(after.dcg, 4), before.ndcg, after.ndcg) == (10.8235, 5.6925, 1.0, 1.0)
    feedback = judge_ndcg(1.0, before, after, Change("settings"))
    assert feedback.points == 1
    assert feedback.explanation == ("Right: DCG went from 10.8235 to 5.6925 and IDCG from 10.8235 to 5.6925, in the "
                                    "same proportion, so their ratio, NDCG, stays.")
    # A change that leaves both sums alone (a swap of equal grades) keeps the short sentence.
    same = judge_ndcg(1.0, before, before, Change("order"))
    assert same.explanation == "Right: this change leaves DCG and IDCG as they were, so NDCG stays."


def test_an_undershoot_names_exponential_gain_only_under_exponential_gain():
    """Under linear gain the "not far enough" feedback said "with exponential gain a high grade counts much more than
    a low one", beside a caption saying linear gain."""
    linear = judge_ndcg(0.92, BEFORE, MOVED, MOVE)
    assert linear.misconception == "undershoot" and "exponential" not in linear.explanation
    assert linear.explanation.endswith("(at rank 2 a gain already counts only 0.63 of its rank-1 value).")
    exponential = judge_ndcg(0.92, BEFORE, MOVED, MOVE, exponential_gain=True)
    assert exponential.explanation.endswith("and with exponential gain a high grade counts much more than a low one.")


def test_a_zero_past_the_cutoff_is_half_right_and_says_why():
    """Exercise 1's list (grades 1 0 1 1 0, linear gain, k = 3) at rank 4: it adds nothing to DCG@3, and a guess of 0
    was called "Not quite. The contribution is 0.4307" under a note saying rank 4 does not count."""
    term = Term(4, 1.0, 1.0, math.log2(5), 1 / math.log2(5), k=3, counted=False)
    zero = judge_contribution(0.0, term)
    assert (zero.points, zero.misconception) == (0.5, "past_cutoff")
    assert zero.explanation == ("Right that it adds nothing to DCG@3: rank 4 is past the cutoff. Without the cutoff it "
                                "would add its gain divided by the discount: 1 ÷ 2.322 = 0.431.")
    assert judge_contribution(0.431, term).points == 1.0  # what it would add without the cutoff
    within = Term(2, 1.0, 1.0, math.log2(3), 1 / math.log2(3), k=3)
    assert judge_contribution(0.0, within).misconception == "other"  # 0 within the cutoff is no such slip


def test_a_move_past_higher_and_lower_grades_names_them_not_only_the_higher():
    """D3 (grade 2) moved from rank 3 to rank 1, past D1 (grade 3) and D2 (grade 1): the answer said "ahead of
    documents with higher grades", and D2's grade is lower (helper-68)."""
    change = classify((NAMES, G), (("D3", "D1", "D2", "D4", "D5"), (2.0, 3.0, 1.0, 0.0, 2.0)))
    assert change == Change("order", ("D3", 2.0, 3, 1), (("D1", 3.0), ("D2", 1.0)))
    assert judge_ndcg(0.98, BEFORE, MOVED, change).explanation == (
        "NDCG fell (-0.1122): D3 (grade 2) moved from rank 3 to rank 1, ahead of D1 (grade 3) and D2 (grade 1), so "
        "on balance the larger gains now sit where the discount log(i + 1) is larger.")
    # One document passed: named, and no "on balance".
    down = classify((NAMES, G), (("D1", "D2", "D4", "D3", "D5"), (3.0, 1.0, 0.0, 2.0, 2.0)), moved=("D3", 2.0))
    after = Scores.of(ndcg_core.evaluate([3.0, 1.0, 0.0, 2.0, 2.0]))
    assert judge_ndcg(0.99, BEFORE, after, down).explanation == (
        "NDCG fell (-0.0192): D3 (grade 2) moved from rank 3 to rank 4, behind D4 (grade 0), so the larger gains now "
        "sit where the discount log(i + 1) is larger.")
    # More than three passed: counted by how their grades compare.
    names, grades = tuple("ABCDEF"), (3.0, 1.0, 0.0, 3.0, 1.0, 2.0)
    up = classify((names, grades), (tuple("FABCDE"), (2.0, 3.0, 1.0, 0.0, 3.0, 1.0)))
    result = Scores.of(ndcg_core.evaluate([2.0, 3.0, 1.0, 0.0, 3.0, 1.0]))
    words = judge_ndcg(0.99, Scores.of(ndcg_core.evaluate(list(grades))), result, up).explanation
    assert "ahead of 2 documents with higher grades and 3 documents with lower grades, so on balance" in words
