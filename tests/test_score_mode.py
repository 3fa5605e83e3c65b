"""The Playground's score mode (issue 13, item 2): typed scores rank the list (ties under the chosen tie rule, via
``ndcg_core.score_order``), the tie band is shown, scores live in the typed state and in the share link.

The worked case (the default list D1..D5 with grades 3, 1, 2, 0, 2, exponential gain 2^g − 1, no cutoff),
scores D1 = 1, D2 = 3, D3 = 3, D4 = 0, D5 = 2: the order is D2, D3 (tied at 3), D5, D1, D4, grades 1, 2, 2, 3, 0.

* IDCG (grades 3, 2, 2, 1, 0) = 7 + 3/log2(3) + 3/2 + 1/log2(5).
* average (scikit-learn): D2 and D3 share the mean gain (1 + 3)/2 = 2 at places 1 and 2:
  DCG = 2 + 2/log2(3) + 3/2 + 7/log2(5).
* worst order (D2 first): 1 + 3/log2(3) + 3/2 + 7/log2(5); best order (D3 first): 3 + 1/log2(3) + 3/2 + 7/log2(5).
"""

from __future__ import annotations

import math

import pytest
from sklearn.metrics import ndcg_score

import ndcg_core
from tests.test_playground import click, drag, edit, open_playground, ranking, shown_metrics
from ui import score_mode, state, url_state

LOG2 = math.log2
IDCG = 7 + 3 / LOG2(3) + 3 / 2 + 1 / LOG2(5)
TAIL = 3 / 2 + 7 / LOG2(5)
AVERAGE = (2 + 2 / LOG2(3) + TAIL) / IDCG
WORST = (1 + 3 / LOG2(3) + TAIL) / IDCG
BEST = (3 + 1 / LOG2(3) + TAIL) / IDCG
SCORES = {"D1": 1, "D2": 3, "D3": 3, "D4": 0, "D5": 2}


def playground(at) -> state.PlaygroundState:
    return at.session_state[state.RANKING_KEY]


def score_mode_on(at):
    at.toggle(key=score_mode.TOGGLE_KEY).set_value(True).run()
    assert not at.exception, at.exception
    return at


def type_scores(at, scores: dict[str, float]):
    """Type a score in each row of the editor (rows in the editor's order, its base)."""
    base = playground(at).base.names
    return edit(at, edited={i: {"Score": str(scores[name])} for i, name in enumerate(base)})


def markdown(at) -> str:
    return "\n".join(m.value for m in at.markdown)


@pytest.fixture
def scored():
    at = open_playground()
    assert not at.exception, at.exception
    return type_scores(score_mode_on(at), SCORES)


def test_turning_score_mode_on_keeps_the_order_with_position_scores():
    at = score_mode_on(open_playground())
    assert playground(at).score_mode and playground(at).scores == (5.0, 4.0, 3.0, 2.0, 1.0)
    assert ranking(at).names == ("D1", "D2", "D3", "D4", "D5")
    assert shown_metrics(at)["NDCG"] == "0.9508"  # document 000's figure: the order did not change
    assert "no two scores tie" in markdown(at)
    assert at.query_params["sc"] == "5,4,3,2,1" and at.query_params["tie"] == "average"
    editor = next(frame.value for frame in at.dataframe if "Score" in frame.value.columns)
    assert list(editor.columns) == ["Document", "Grade", "Score"]  # no Rank column: the rows stay where they are
    assert editor["Score"].tolist() == ["5", "4", "3", "2", "1"]


def test_typed_scores_rank_the_list_and_show_the_band_by_hand(scored):
    at = scored
    assert not at.exception, at.exception
    assert ranking(at).names == ("D2", "D3", "D5", "D1", "D4")
    assert ranking(at).tie_groups == (0, 0, 1, 2, 3)  # average: D2 and D3 share their gains
    assert playground(at).scores == (3.0, 3.0, 2.0, 1.0, 0.0)
    assert shown_metrics(at)["NDCG"] == f"{AVERAGE:.4f}"
    grades, scores = [3, 1, 2, 0, 2], [SCORES[f"D{i}"] for i in range(1, 6)]
    assert ndcg_score([[2**g - 1 for g in grades]], [scores]) == pytest.approx(AVERAGE)  # scikit-learn agrees
    text = markdown(at)
    assert (f"Worst order **{WORST:.4f}** · expected (average over the orders) **{AVERAGE:.4f}** · best order "
            f"**{BEST:.4f}**") in text
    assert "2 documents share a score (2 orders of the ties)" in text
    # The link lists the documents in the order entered (the shown order is re-derived from the scores)
    assert at.query_params["docs"] == "D1:3,D2:1,D3:2,D4:0,D5:2"
    assert at.query_params["sc"] == "1,3,3,0,2" and at.query_params["tie"] == "average"


@pytest.mark.parametrize(("rule", "order", "value"), [
    ("optimistic", ("D3", "D2"), BEST), ("pessimistic", ("D2", "D3"), WORST),
    ("stable", ("D2", "D3"), WORST),  # row order: D2 was typed above D3
    ("trec_eval", ("D3", "D2"), BEST),  # document id descending: "D3" > "D2"
])
def test_the_tie_rule_orders_the_tie(scored, rule, order, value):
    at = scored
    at.selectbox(key=score_mode.RULE_KEY).set_value(rule).run()
    assert not at.exception, at.exception
    assert ranking(at).names[:2] == order and ranking(at).tie_groups is None
    assert shown_metrics(at)["NDCG"] == f"{value:.4f}"
    assert at.query_params["tie"] == rule
    assert f"This page's NDCG under “{score_mode.TIE_RULE_LABELS[rule]}”: **{value:.4f}**" in markdown(at)


def test_dragging_in_score_mode_turns_it_off_and_says_so(scored):
    at = drag(scored, [3, 0, 1, 2, 4])  # D1 to the top of D2, D3, D5, D1, D4
    assert not at.exception, at.exception
    assert ranking(at).names == ("D1", "D2", "D3", "D5", "D4") and ranking(at).tie_groups is None
    assert not playground(at).score_mode
    assert any(i.value.startswith("Score mode is off: you chose an order by hand") for i in at.info)
    assert "sc" not in at.query_params and "tie" not in at.query_params
    assert shown_metrics(at)["NDCG"] == f"{ndcg_core.evaluate([3, 1, 2, 2, 0]).ndcg:.4f}"
    score_mode_on(at)  # the scores followed their documents: back to the order of the scores
    assert ranking(at).names == ("D2", "D3", "D5", "D1", "D4")
    assert shown_metrics(at)["NDCG"] == f"{AVERAGE:.4f}"
    assert not any(i.value.startswith("Score mode is off") for i in at.info)


def test_an_order_button_also_turns_score_mode_off(scored):
    at = click(scored, "ideal")
    assert not playground(at).score_mode and shown_metrics(at)["NDCG"] == "1.0000"
    assert any(i.value.startswith("Score mode is off") for i in at.info)


def test_a_score_that_is_not_a_number_is_refused(scored):
    at = edit(scored, edited={0: {"Score": "abc"}})
    assert not at.exception, at.exception
    assert any("the score is not a number" in e.value for e in at.error)
    assert ranking(at).names == ("D2", "D3", "D5", "D1", "D4")  # the last valid ranking stays


def test_negative_and_added_rows_in_score_mode(scored):
    base = playground(scored).base.names  # the editor's edit state holds every edit since it started
    typed = {i: {"Score": str(SCORES[name])} for i, name in enumerate(base)}
    typed[base.index("D4")] = {"Score": "-1e-300"}
    at = edit(scored, edited=typed, added=[{"Document": "D6", "Grade": "4", "Score": "2.5"}])
    assert not at.exception, at.exception
    assert ranking(at).names == ("D2", "D3", "D6", "D5", "D1", "D4")
    assert playground(at).scores == (3.0, 3.0, 2.5, 2.0, 1.0, -1e-300)
    assert at.query_params["sc"] == "1,3,3,-1e-300,2,2.5"  # in the order entered: D1..D5, then the added D6


def test_share_link_round_trips_exactly():
    scores = (0.1, -2.5, 1e-300, 0.1, 123456789.125)
    base = state.make_ranking(["a", "b:c", "é", "d", "e"], [1, 0, 2, 3, 0])
    ranked, ranked_scores = score_mode.rank_by_scores(base, scores, "trec_eval")
    link = url_state.ranking_link(ranked, scores=ranked_scores, tie_rule="trec_eval")
    at = open_playground(link.params)
    assert not at.exception, at.exception
    restored = playground(at)
    assert restored.score_mode and restored.tie_rule == "trec_eval"
    assert restored.ranking == ranked and restored.scores == ranked_scores
    assert ranked.names == ("e", "d", "a", "é", "b:c")  # 0.1 tie: "d" > "a" (id descending)
    assert {name: at.query_params[name] for name in link.params} == link.params  # published back unchanged


def test_a_bad_link_score_leaves_score_mode_off_with_a_warning():
    at = open_playground({"docs": "a:1,b:0", "sc": "1,x", "tie": "average"})
    assert not at.exception, at.exception
    assert not playground(at).score_mode and ranking(at).names == ("a", "b")
    assert any("The link's scores could not be used (score 2 is not a number)" in w.value for w in at.warning)
    at = open_playground({"docs": "a:1,b:0", "sc": "0,1", "tie": "nope"})
    assert not playground(at).score_mode
    assert any("The link's tie rule could not be read" in w.value for w in at.warning)


def test_score_order_core_by_hand():
    order = ndcg_core.score_order([3, 1, 2, 0, 2], [1, 3, 3, 0, 2], ties="average")
    assert order.order == (1, 2, 4, 0, 3) and order.tie_groups == (0, 0, 1, 2, 3) and order.tied
    assert ndcg_core.score_order([3, 1], [1, 1], ties="pessimistic").order == (1, 0)
    with pytest.raises(ndcg_core.InvalidInput):
        ndcg_core.score_order([1, 2], [1.0], ties="average")


def test_a_list_from_a_run_keeps_its_ties_in_score_mode_and_off_it_is_taken_as_shown():
    """A list opened with tie groups (a run's tied scores): score mode gives each group one score, so the average
    rule reproduces the run's figure; turning score mode off takes the list exactly as shown (no averaging)."""
    at = open_playground()
    tied = state.make_ranking(["a", "b", "c"], [0, 3, 1], tie_groups=[0, 0, 1])
    at.session_state[state.RANKING_KEY] = state.PlaygroundState.of(tied)
    at.run()
    before = shown_metrics(at)["NDCG"]
    expected = ndcg_core.evaluate_scores([0, 3, 1], [1.0, 1.0, 0.5], ties="average").ndcg
    assert before == f"{expected:.4f}"
    score_mode_on(at)
    assert playground(at).scores == (2.0, 2.0, 1.0) and ranking(at).tie_groups == (0, 0, 1)
    assert shown_metrics(at)["NDCG"] == before
    at.toggle(key=score_mode.TOGGLE_KEY).set_value(False).run()
    assert not at.exception, at.exception
    assert ranking(at).tie_groups is None and ranking(at).names == ("a", "b", "c")
    assert shown_metrics(at)["NDCG"] == f"{ndcg_core.evaluate([0, 3, 1]).ndcg:.4f}"
    assert not any(i.value.startswith("Score mode is off") for i in at.info)  # turned off by the user: no notice
    assert "sc" not in at.query_params


def test_extra_judged_documents_raise_the_band_ideal():
    """An extra judged document (grade 3, not ranked) joins the ideal: judged grades 3, 3, 2, 1 (no cutoff: all).
    Scores D1 = D2 = 1, D3 = 0 (average rule): the worst (D2 first), expected (mean gain 4 at places 1-2) and best
    (D1 first) figures, by hand."""
    extra = state.make_ranking(["D1", "D2", "D3"], [3, 1, 2], extra_names=["X"], extra_grades=[3])
    at = open_playground()
    at.session_state[state.RANKING_KEY] = state.PlaygroundState.of(extra)
    at.run()
    at = type_scores(score_mode_on(at), {"D1": 1, "D2": 1, "D3": 0})
    assert not at.exception, at.exception
    assert ranking(at).names == ("D1", "D2", "D3") and ranking(at).extra_names == ("X",)
    idcg = 7 + 7 / LOG2(3) + 3 / 2 + 1 / LOG2(5)  # the ideal 3, 3, 2, 1 (X joins it), every judged grade
    best = (7 + 1 / LOG2(3) + 3 / 2) / idcg
    worst = (1 + 7 / LOG2(3) + 3 / 2) / idcg
    average = (4 + 4 / LOG2(3) + 3 / 2) / idcg
    text = markdown(at)
    assert (f"Worst order **{worst:.4f}** · expected (average over the orders) **{average:.4f}** · best order "
            f"**{best:.4f}**") in text
    assert shown_metrics(at)["NDCG"] == f"{average:.4f}"


def test_input_order_is_the_order_entered_whatever_rule_was_shown_before():
    """Grades A 3, B 0, C 2, D 1 with scores 1, 1, 1, 0: "Input order" (LightGBM, XGBoost) keeps A, B, C in the tie,
    DCG 3 + 0/log2 3 + 2/2 + 1/log2 5 = 4.4307, IDCG 3 + 2/log2 3 + 1/2 = 4.7619, NDCG 0.9305. After "best case" it
    gave 0.9854 (the best case's order A, C, B taken as the input), after trec_eval's rule 0.8254, and a share link
    passed that on."""
    stable = (3 + 2 / 2 + 1 / math.log2(5)) / (3 + 2 / math.log2(3) + 1 / 2)
    assert f"{stable:.4f}" == "0.9305"
    at = open_playground({"gain": "linear", "docs": "A:3,B:0,C:2,D:1", "sc": "1,1,1,0", "tie": "average"})
    for rule in ("stable", "optimistic", "stable", "trec_eval", "stable", "pessimistic", "stable"):
        at.selectbox(key=score_mode.RULE_KEY).set_value(rule).run()
        assert not at.exception
        if rule == "stable":
            assert shown_metrics(at)["NDCG"] == "0.9305" and ranking(at).names == ("A", "B", "C", "D")
    at.selectbox(key=score_mode.RULE_KEY).set_value("optimistic").run()
    assert ranking(at).names == ("A", "C", "B", "D") and shown_metrics(at)["NDCG"] == "0.9854"
    # The link lists the documents in the order entered; opened, "Input order" is that order again.
    link = {name: at.query_params[name] for name in ("gain", "docs", "sc", "tie")}
    assert link["docs"] == "A:3,B:0,C:2,D:1" and link["sc"] == "1,1,1,0" and link["tie"] == "optimistic"
    opened = open_playground(link)
    assert ranking(opened).names == ("A", "C", "B", "D") and shown_metrics(opened)["NDCG"] == "0.9854"
    opened.selectbox(key=score_mode.RULE_KEY).set_value("stable").run()
    assert shown_metrics(opened)["NDCG"] == "0.9305"
