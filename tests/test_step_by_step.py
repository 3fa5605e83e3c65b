"""Step-by-step page: the walkthrough's numbers come from ndcg_core's table; controls; lessons."""

from __future__ import annotations

import math

import pytest

import ndcg_core
from tests.conftest import run_page
from ui import lessons, walkthrough
from ui.formatting import num, signed_change
from ui.state import playground_list


def latex(at) -> list[str]:
    return [element.value for element in at.latex]


def test_page_runs_and_shows_position_one_of_the_playground_list():
    at = run_page("step_by_step")
    assert not at.exception
    names, grades, _, _ = playground_list()
    table = ndcg_core.evaluate(grades).table  # default settings: exponential gain, log2
    first = table.iloc[0]
    assert at.session_state["step_position"] == 1
    shown = latex(at)
    assert any(f"2^{{{first['relevance']:g}}} - 1 = {first['gain']:g}" in text for text in shown)
    assert any(r"\log_2(1 + 1) = 1" in text for text in shown)
    assert any(f"DCG@1 = {num(first['cumulative_dcg'])}" in text for text in shown)


def test_next_previous_and_slider_move_the_position_with_ndcg_core_numbers():
    at = run_page("step_by_step")
    _, grades, _, _ = playground_list()
    table = ndcg_core.evaluate(grades).table
    at.button(key="step_next").click().run()
    at.button(key="step_next").click().run()
    assert at.session_state["step_position"] == 3
    row, previous = table.iloc[2], table.iloc[1]
    expected = (
        f"DCG@3 = DCG@2 + {num(row['contribution'])} = {num(previous['cumulative_dcg'])} + "
        f"{num(row['contribution'])} = {num(row['cumulative_dcg'])}"
    )
    assert any(expected in text for text in latex(at))
    ndcg = rf"\frac{{{num(row['cumulative_dcg'])}}}{{{num(row['cumulative_idcg'])}}} = {num(row['ndcg_at_rank'])}"
    assert any(ndcg in text for text in latex(at))
    at.button(key="step_previous").click().run()
    assert at.session_state["step_position"] == 2
    at.slider(key="step_position").set_value(len(grades)).run()
    assert not at.exception
    # At the last position "Next" becomes "Start again" (disabled, it dropped the keyboard focus to the page).
    last = at.button(key="step_next")
    assert (last.label, last.disabled) == ("Start again", False)
    last.click().run()
    assert at.session_state["step_position"] == 1 and at.button(key="step_next").label == "Next"


def test_autoplay_advances_and_stops_at_the_end():
    at = run_page("step_by_step")
    size = len(playground_list()[1])
    at.button(key="step_play").click().run()
    assert at.session_state["step_playing"] is True
    assert at.session_state["step_position"] == 1  # pressing play shows the current position first
    for _ in range(size + 3):  # each run stands for one timer tick
        at.run()
    assert not at.exception
    assert at.session_state["step_position"] == size
    assert at.session_state["step_playing"] is False


def test_walking_a_list_with_linear_gain_and_a_cutoff():
    at = run_page("step_by_step")
    at.radio(key="settings_gain").set_value("linear").run()
    at.number_input(key="settings_k").set_value(2).run()
    at.slider(key="step_position").set_value(3).run()
    assert not at.exception
    assert any("past the cutoff k = 2" in w.value for w in at.warning)
    assert any(r"\text{gain} = \text{grade}" in text for text in latex(at))


def test_ndcg_at_k_goes_down_then_up_for_the_lesson_list():
    """Found with ndcg_core: NDCG@k of 3, 0, 3, 3, 0 is 1, then lower, then higher again (any gain)."""
    for gain in ("linear", "exponential"):
        values = [ndcg_core.evaluate(list(lessons.DOWN_THEN_UP_GRADES), k=k, gain=gain).ndcg for k in range(1, 6)]
        assert values[0] == pytest.approx(1.0)
        assert values[1] < values[0]
        assert values[2] > values[1] and values[3] > values[2]
        # By hand (linear): NDCG@2 = 3 / (3 + 3/log2(3)) = 0.6131
        assert lessons.first_dip_and_rise(values) == (2, 3)
    assert values[1] == pytest.approx(3 / (3 + 3 / 1.5849625007211563))


def test_the_first_lessons_text_gives_the_figures_of_the_sidebars_settings():
    """Its text said "with linear gain DCG goes from 6.861 to 6.653 while CG stays 11" above cards that say, under
    the default exponential gain, "CG stays 21, but DCG drops from 13.848 to 13.363"; and "Document 001" read like
    a document of the ranking (they are D1 … D6): the sources are named "Source 001"."""
    at = run_page("step_by_step")
    # By hand, exponential gains 7, 3, 7, 0, 1, 3: DCG = 7 + 3/log2(3) + 7/2 + 0 + 1/log2(6) + 3/log2(7) = 13.848;
    # D3 and D4 swapped: 7 + 3/log2(3) + 0 + 7/log2(5) + 1/log2(6) + 3/log2(7) = 13.363.
    intro = next(m.value for m in at.markdown if "adds up the gains" in m.value)
    assert "DCG goes from 13.848 to 13.363 while CG stays 21" in intro and "Source document 001" in intro
    assert "CG stays 21, but DCG drops from 13.848 to 13.363" in " ".join(s.value for s in at.success)
    at.radio(key="settings_gain").set_value("linear").run()
    intro = next(m.value for m in at.markdown if "adds up the gains" in m.value)
    assert "DCG goes from 6.861 to 6.653 while CG stays 11" in intro
    assert not [m.value for m in at.markdown if "Document 00" in m.value]


def test_lessons_show_ndcg_core_numbers():
    at = run_page("step_by_step")
    at.radio(key="settings_gain").set_value("linear").run()
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    # 003: swapping D3 and D4 keeps CG = 11 and moves DCG from 6.861 to 6.653 (linear gain).
    assert metrics["CG after the swap"] == "11"
    assert metrics["DCG after the swap"] == "6.653"
    texts = " ".join(s.value for s in at.success)
    assert "from 6.861 to 6.653" in texts
    # 003 with D7 and D8 judged: NDCG 0.785.
    frames = [table.value for table in at.table]
    judged = next(f for f in frames if "Ideal taken from" in f.columns)
    ranked = [3, 2, 3, 0, 1, 2]
    assert judged["NDCG"].tolist() == [
        ndcg_core.evaluate(ranked, gain="linear").ndcg,
        ndcg_core.evaluate(ranked, k=6, ideal_relevances=ranked + [3, 2], gain="linear").ndcg,
    ]
    assert round(judged["NDCG"][1], 3) == 0.785
    # 000: the two dataset aggregates.
    lists = [[3, 1, 2, 0, 2], [0, 0, 1], [3, 3, 2, 3]]
    results = [ndcg_core.evaluate(grades, gain="linear") for grades in lists]
    mean = sum(r.ndcg for r in results) / 3
    ratio = sum(r.dcg for r in results) / sum(r.idcg for r in results)
    assert metrics["Mean of per-query NDCG"] == num(mean)
    assert metrics["ΣDCG / ΣIDCG"] == num(ratio)
    # All grades 0: one row per zero-IDCG rule.
    zero = next(f for f in frames if "Rule for IDCG = 0" in f.columns)
    assert zero["NDCG"].tolist()[:3] == ["0", "1", "left out (NaN)"]
    assert zero["NDCG"].tolist()[3] == "refused (below)"  # the refusal itself in full under the table


def test_lesson_grades_field_reports_unreadable_input():
    at = run_page("step_by_step")
    at.text_input(key="lesson_gain_grades").input("3, x, 1").run()
    assert not at.exception
    assert [e.value for e in at.error] == ["Grade 2: “x” is not a number. Type a number such as 0, 1, 2 or 3."]
    at.text_input(key="lesson_gain_grades").input("3, -1, 1").run()
    assert any("negative" in e.value for e in at.error)


@pytest.mark.parametrize(("typed", "error"), [
    ("3, nan", "Grade 2: “nan” is not a number. Type a number such as 0, 1, 2 or 3."),
    ("3, inf", "Grade 2: “inf” is not a number. Type a number such as 0, 1, 2 or 3."),
    ("٣, 0, 3", "Grade 1: “٣” is not a number. Type a number such as 0, 1, 2 or 3."),
    ("1_0, 0, 3", "Grade 1: “1\\_0” is not a number. Type a number such as 0, 1, 2 or 3."),
    ("2000, 1", "Grade 2000 is too large for exponential gain\\: 2^2000 \\- 1 overflows \\(a computer number stops at "
                "about 2^1024\\)\\. Set “Gain” to “Linear\\: gain = grade” in the sidebar, or use smaller grades "
                "\\(0\\-4 is usual\\)\\."),
])
def test_a_lesson_reads_typed_grades_by_the_playgrounds_rules_and_says_why_in_the_sidebars_words(typed, error):
    """Lesson 4 read grades with Python's float(): "٣" as 3 and "1_0" as 10 (the Playground refuses both), and passed
    "nan" and "inf" to ndcg_core, whose refusal was shown as it is, naming its own argument ("relevances: position
    2 is NaN"), as was its advice "Use linear gain" beside a sidebar that calls it “Linear: gain = grade”."""
    at = run_page("step_by_step")
    at.text_input(key="lesson_cutoff_grades").input(typed).run()
    assert not at.exception
    assert [e.value for e in at.error] == [error]
    assert not [e for e in at.error if "relevances" in e.value]


def test_long_playground_list_shows_a_window_of_the_table():
    from ui.state import RANKING_KEY, PlaygroundState, make_ranking

    at = run_page("step_by_step")
    grades = [float(g % 4) for g in range(3_000)]
    at.session_state[RANKING_KEY] = PlaygroundState.of(make_ranking([f"d{i}" for i in range(3_000)], grades))
    at.run()
    at.slider(key="step_position").set_value(1_500).run()
    assert not at.exception
    window = next(df.value for df in at.dataframe if "NDCG@i" in df.value.columns)
    assert len(window) == 2 * walkthrough.PROGRESS_WINDOW + 1
    assert 1_500 in window["i"].tolist()
    row = ndcg_core.evaluate(grades).table.iloc[1_499]
    assert any(f"DCG@1500 = DCG@1499 + {num(row['contribution'])}" in text for text in latex(at))


def test_names_are_shown_as_text_and_all_zero_lists_are_explained():
    from ui.state import RANKING_KEY, PlaygroundState, make_ranking

    at = run_page("step_by_step")
    at.session_state[RANKING_KEY] = PlaygroundState.of(make_ranking(["**bold** <b>x</b> $y$", "D2"], [0.0, 0.0]))
    at.run()
    assert not at.exception
    texts = " ".join(md.value for md in at.markdown)
    assert r"\*\*bold\*\* \<b\>x\</b\> \$y\$" in texts
    assert any("IDCG = 0" in text for text in latex(at))
    at.selectbox(key="settings_zero_idcg").set_value("error").run()
    assert not at.exception
    assert any("cannot be evaluated" in e.value for e in at.error)


def test_custom_gain_table_and_natural_log():
    # A table that is not 2^g - 1 for any grade > 0, so evaluating it as exponential gain would show.
    at = run_page("step_by_step", query_params={"gain": "custom", "gt": "0:0,1:2,2:5,3:9"})
    at.radio(key="settings_log_base").set_value("e").run()
    assert not at.exception
    assert at.radio(key="settings_gain").value == "custom"
    assert any(r"\text{table}(3) = 9" in text for text in latex(at))
    assert any(r"\ln(1 + 1) = 0.693" in text for text in latex(at))
    # The prose names the same discount as the formula (it read "loge(1 + 1)").
    assert any("Divided by the discount ln(1 + 1) = **0.693**" in md.value for md in at.markdown)
    assert not any("loge" in md.value for md in at.markdown)
    # The default list's grades are 3, 1, 2, 0, 2 (ideal 3, 2, 2, 1, 0): by hand with table gains 9, 2, 5, 0, 5.
    dcg = 9 / math.log(2) + 2 / math.log(3) + 5 / math.log(4) + 0 / math.log(5) + 5 / math.log(6)
    idcg = 9 / math.log(2) + 5 / math.log(3) + 5 / math.log(4) + 2 / math.log(5) + 0 / math.log(6)
    assert any(r"\frac{2}{\ln(2+1)}" in text and f"= {dcg:.4f}" in text for text in latex(at))
    metrics = {m.label: m.value for m in at.metric}
    assert (metrics["DCG"], metrics["IDCG"], metrics["NDCG"]) == (f"{dcg:.4f}", f"{idcg:.4f}", f"{dcg / idcg:.4f}")


def test_lesson_widgets_change_the_numbers():
    at = run_page("step_by_step")
    at.radio(key="settings_gain").set_value("linear").run()
    # Lesson 1: swap positions 1 and 6 of 003's list.
    at.selectbox(key="lesson_swap_a").set_value(1).run()
    at.selectbox(key="lesson_swap_b").set_value(6).run()
    swapped = ndcg_core.evaluate([2, 2, 3, 0, 1, 3], gain="linear")
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["CG after the swap"] == "11"
    assert metrics["DCG after the swap"] == num(swapped.dcg)
    # Lesson 4: NDCG@k at the chosen k.
    at.slider(key="lesson_cutoff_k").set_value(4).run()
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["NDCG@4"] == num(ndcg_core.evaluate([3, 0, 3, 3, 0], k=4, gain="linear").ndcg)
    # Lesson 6: without D7 and D8 the ideal comes from the ranking alone.
    at.multiselect(key="lesson_extra_docs").set_value([]).run()
    judged = next(table.value for table in at.table if "Ideal taken from" in table.value.columns)
    alone = ndcg_core.evaluate([3, 2, 3, 0, 1, 2], gain="linear").ndcg
    assert judged["NDCG"].tolist() == [alone, alone]
    # Lesson 7: one relevant document makes IDCG positive under every rule.
    at.toggle(key="lesson_zero_rescue").set_value(True).run()
    zero = next(table.value for table in at.table if "Rule for IDCG = 0" in table.value.columns)
    assert len(set(zero["NDCG"])) == 1
    assert not at.exception


def test_the_last_step_says_what_the_ideal_places_past_the_ranking_add():
    """A:3, B:2, D9:1 judged but not returned: the walk ended at NDCG@2 = 8.893 / 8.893 = 1 while the page's NDCG is
    0.9468 (IDCG counts a third place), with nothing at the last step to say so (helper-63)."""
    result = ndcg_core.evaluate([3, 2], ideal_relevances=[3, 2, 1])
    last = run_page("step_by_step", query_params={"docs": "A:3,B:2", "extra": "D9:1", "pos": "2"})
    assert [i.value for i in last.info] == [
        "The ranking ends here, but the ideal list goes on: place 3 (D9, grade 1) adds 0.500. So IDCG = "
        f"{result.idcg:.4f} and the whole list's NDCG = {result.dcg:.4f} / {result.idcg:.4f} = {result.ndcg:.4f}, "
        "not the NDCG@2 above: judged documents the ranking did not return count against it."]
    assert f"{result.ndcg:.4f}" == "0.9468"
    first = run_page("step_by_step", query_params={"docs": "A:3,B:2", "extra": "D9:1", "pos": "1"})
    assert not first.info  # only at the ranking's last position


def test_the_normalise_lesson_credits_the_relevant_documents_not_the_length():
    """It said B's DCG beats A's "only because B is longer"; grade-0 documents add nothing (B's first four, 1, 0, 2,
    0, give DCG 2.5 < A's 3.631; the fifth, a 3, puts it ahead), and For teachers says "with the number of relevant
    documents" (helper-63)."""
    at = run_page("step_by_step")
    b = ndcg_core.evaluate([1, 0, 2, 0, 3, 1, 0, 2])  # the slider's default: 8 documents, 5 of them relevant
    [success] = [s.value for s in at.success if s.value.startswith("B's DCG")]
    assert success.startswith(f"B's DCG ({num(b.dcg)}) beats A's (3.631) only because B's longer list holds more "
                              "relevant documents (5 graded above 0, against A's 2), not because it ranks them better.")
    at.slider(key="lesson_long_length").set_value(4).run()
    assert ndcg_core.evaluate([1, 0, 2, 0]).dcg == 2.5
    assert any(i.value.startswith("With 4 documents B's DCG (2.500) is still below A's (3.631)") for i in at.info)


def test_the_whole_lists_figures_say_why_they_differ_from_the_walks_last_step():
    """k = 4, ranking A:0, B:1, extra judged X:3, Y:3: the walk ends at position 2 (IDCG@2 = 7 + 7/log₂3 = 11.42),
    NDCG@4's IDCG also counts positions 3 and 4 of the ideal list (X, Y, B, A: 7 + 7/log₂3 + 1/2 + 0 = 11.92). The
    expander was titled "Where the walk ends" over figures that are not the walk's last step."""
    at = run_page(None, query_params={"k": "4", "docs": "A:0,B:1", "extra": "X:3,Y:3"})  # the Playground's list
    at.switch_page("pages/step_by_step.py").run()
    assert not at.exception
    [expander] = [e for e in at.expander if e.label.startswith("The whole list's figures")]
    assert expander.label == "The whole list's figures: CG@4, DCG@4, IDCG@4 and NDCG@4"
    assert [c.value for c in expander.caption][0].startswith(
        "The walk ends at position 2, the ranking's last; IDCG@4 also counts the ideal list's positions 3 to 4")
    result = ndcg_core.evaluate([0, 1], k=4, ideal_relevances=[3, 3, 1, 0])
    assert round(result.idcg, 4) == round(7 + 7 / math.log2(3) + 1 / 2, 4)
    assert {m.label: m.value for m in expander.metric}["IDCG@4"] == f"{result.idcg:.4f}"


def test_the_all_zero_lesson_gives_the_refusal_in_full_under_its_table():
    """The "refuse (error)" row's NDCG cell held the whole refusal and cut it mid-word ("... is unde"), the rules to
    choose instead unread."""
    at = run_page("step_by_step")
    zero = next(table.value for table in at.table if "Rule for IDCG = 0" in table.value.columns)
    assert zero["NDCG"].tolist() == ["0", "1", "left out (NaN)", "refused (below)"]
    refusal = next(c.value for c in at.caption if c.value.startswith("Refuse: "))
    assert "IDCG is 0" in refusal and len(refusal) > 80


def test_the_all_zero_lessons_refuse_row_shows_the_same_dcg_and_idcg_and_points_to_the_rows_above():
    """The rule only decides NDCG: the "refuse (error)" row showed DCG "–" beside IDCG "0", and its caption said to
    choose another rule in the sidebar, while the lesson's own rows already show every rule."""
    at = run_page("step_by_step")
    zero = next(table.value for table in at.table if "Rule for IDCG = 0" in table.value.columns)
    assert zero["DCG"].tolist() == ["0"] * 4 and zero["IDCG"].tolist() == ["0"] * 4
    refusal = next(c.value for c in at.caption if c.value.startswith("Refuse: ")).replace("\\", "")  # as shown
    assert refusal == ("Refuse: IDCG is 0 (no judged document has a positive gain), so NDCG = DCG / IDCG is undefined "
                       "(0/0). The other rules above each give it a value.")


def test_the_address_of_a_walk_through_the_playgrounds_list_walks_the_same_list_when_reopened():
    """Opened from the Playground on A:0, B:3, C:1, the address was /step_by_step?...&pos=2: reloaded or shared it
    walked the built-in D1-D5 list (Running DCG@2 = 3.631 instead of 1.893), still called the Playground's list."""
    at = run_page(None, query_params={"gain": "linear", "docs": "A:0,B:3,C:1"})
    at.switch_page("pages/step_by_step.py").run()
    assert not at.exception
    address = dict(at.query_params)
    assert address["docs"] == "A:0,B:3,C:1"
    reopened = run_page("step_by_step", query_params={**address, "pos": "2"})
    assert not reopened.exception
    assert "Position i = 2 of 3" in [h.value for h in reopened.header]
    expected = ndcg_core.evaluate([0, 3, 1], gain="linear").table["cumulative_dcg"][1]
    assert round(expected, 3) == 1.893
    assert any(f"Running DCG@2 = **{num(expected)}**" in md.value for md in reopened.markdown)


def test_the_datasets_lesson_shows_a_skipped_query_as_a_dash_and_averages_over_the_others():
    """Sidebar rule "skip", Q2 graded 0, 0, 0: its NDCG cell read a grey "None" and the mean's help still said
    "(NDCG₁ + NDCG₂ + NDCG₃) / 3" beside a mean of two queries (helper-68)."""
    at = run_page("step_by_step", query_params={"z": "skip"})
    at.text_input(key="lesson_dataset_Q2").input("0, 0, 0").run()
    assert not at.exception
    table = next(df for df in at.dataframe if list(df.value.columns) == ["DCG", "IDCG", "NDCG"])
    assert table.proto.HasField("placeholder") and table.proto.placeholder == "–"
    assert math.isnan(table.value.loc["Q2", "NDCG"])
    q1, q3 = (ndcg_core.evaluate(grades).ndcg for grades in ([3, 1, 2, 0, 2], [3, 3, 2, 3]))
    mean = next(m for m in at.metric if m.label == "Mean of per-query NDCG")
    assert (mean.value, mean.help) == (num((q1 + q3) / 2), "(NDCG₁ + NDCG₃) / 2")
    assert ("Q2 has IDCG = 0: the sidebar's zero-IDCG rule (skip) leaves it out of the mean, so n = 2."
            in [c.value for c in at.caption])
    # Every list all zero: nothing to average, and no "undefined − undefined" delta.
    for query in ("Q1", "Q3"):
        at.text_input(key=f"lesson_dataset_{query}").input("0").run()
    metrics = {m.label: m for m in at.metric}
    assert metrics["Mean of per-query NDCG"].value == "undefined"
    assert metrics["ΣDCG / ΣIDCG"].delta in ("", None)
    assert all(r"= \text{undefined}" in element.value for element in list(at.latex)[-2:])


def test_the_datasets_lessons_two_averages_are_two_formulas():
    """One formula with a gap between the two averages broke on a 390 px phone after the first "=", and the mean's
    value sat beside the second formula: "0.811   ΣDCG / ΣIDCG = 0.953" (helper-68)."""
    at = run_page("step_by_step")
    lists = ([3, 1, 2, 0, 2], [0, 0, 1], [3, 3, 2, 3])
    results = [ndcg_core.evaluate(grades) for grades in lists]
    mean = sum(r.ndcg for r in results) / 3
    ratio = sum(r.dcg for r in results) / sum(r.idcg for r in results)
    assert [element.value for element in at.latex][-2:] == [
        f"$$\n\\frac{{1}}{{n}}\\sum_q NDCG_q = {num(mean)}\n$$",
        f"$$\n\\frac{{\\sum_q DCG_q}}{{\\sum_q IDCG_q}} = {num(ratio)}\n$$",
    ]
    assert (num(mean), num(ratio)) == ("0.811", "0.953")


def test_the_ideal_side_names_every_document_tied_for_its_place():
    """The Playground's list D1:3, D2:1, D3:2, D4:0, D5:2 at position 2: the ideal side said "document D3", one of two
    documents graded 2 picked by list order, as if the ideal list put D3 there and not D5 (helper-68)."""
    at = run_page("step_by_step", query_params={"pos": "2"})
    [ideal] = [m.value for m in at.markdown if m.value.startswith("**Ideal ranking**")]
    assert ideal == ("**Ideal ranking** · position 2: document **D3** (or D5: the same grade, 2, so either can stand "
                     "here)")
    at = run_page("step_by_step", query_params={"pos": "1"})  # D1, the only 3: no note
    assert [m.value for m in at.markdown if m.value.startswith("**Ideal ranking**")] == [
        "**Ideal ranking** · position 1: document **D1**"]
    # A judged document outside the ranking tied with ranked ones, and a longer tie.
    at = run_page("step_by_step", query_params={"docs": "A:3,B:0,C:0,D:0,E:0", "extra": "X:0", "pos": "2"})
    [ideal] = [m.value for m in at.markdown if m.value.startswith("**Ideal ranking**")]
    assert ideal.endswith("document **B** (or C, D, E and 1 more: the same grade, 0, so any of them can stand here)")


def _spoken_after_header(at) -> str:
    """The live region's words, checked to be the element right after the position's header (its place in every
    state, so a screen reader hears its words change)."""
    import html
    import re

    elements = list(at.main)
    [at_header] = [i for i, e in enumerate(elements) if type(e).__name__ == "Header" and "Position i =" in e.value]
    spoken = elements[at_header + 1]
    assert "ndcg-spoken" in getattr(spoken, "value", ""), type(spoken).__name__
    return html.unescape(re.sub(r"<[^>]+>", "", spoken.value))


def test_predict_first_tells_a_screen_reader_the_new_position_and_its_question():
    """Under Predict first, Next asked a question and showed nothing else, and a screen reader heard nothing: the
    live region that reads out each position was drawn only with the revealed numbers (so it was new, and silent,
    when they came). It is drawn in both states, in one place: first the question, then the numbers."""
    at = run_page("step_by_step")
    at.toggle(key="step_predict_toggle").set_value(True).run()
    at.button(key="step_next").click().run()
    _, grades, _, _ = playground_list()
    row = ndcg_core.evaluate(grades).table.iloc[1]
    assert _spoken_after_header(at) == (f"Position 2 of 5: D2, grade {num(row['relevance'])}. Predict first: What "
                                        "does it add to DCG? Type your guess of its contribution, then Reveal.")
    at.number_input(key="step_guess").set_value(0.6)
    next(button for button in at.button if button.label == "Reveal").click().run()
    assert _spoken_after_header(at) == (
        f"Position 2 of 5: D2, grade {num(row['relevance'])}, contributes {num(row['contribution'])}. DCG@2 = "
        f"{num(row['cumulative_dcg'])}, NDCG@2 = {num(row['ndcg_at_rank'])}.")



def test_an_undefined_ndcg_at_i_reads_a_dash_in_every_table():
    """Every grade 0 under the zero-IDCG rule "skip": NDCG@i is undefined, and the walk's table, lesson 4's NDCG@k
    table and the Playground's per-position table showed it as a grey "None" (helper-68)."""
    at = run_page("step_by_step", query_params={"docs": "A:0,B:0", "z": "skip"})
    at.text_input(key="lesson_cutoff_grades").input("0, 0").run()
    assert not at.exception
    walk = next(df for df in at.dataframe if "NDCG@i" in df.value.columns)
    cutoff = next(df for df in at.dataframe if "NDCG@k" in df.value.columns)
    for table, column in ((walk, "NDCG@i"), (cutoff, "NDCG@k")):
        assert table.value[column].isna().all()
        assert table.proto.HasField("placeholder") and table.proto.placeholder == "–"
    playground = run_page(None, query_params={"docs": "A:0,B:0", "z": "skip"})
    table = next(df for df in playground.dataframe if "cumulative_dcg" in df.proto.column_order)
    assert math.isnan(ndcg_core.evaluate([0, 0], zero_idcg="skip").table["ndcg_at_rank"][0])
    assert table.proto.HasField("placeholder") and table.proto.placeholder == "–"


def test_the_phones_two_tables_hold_every_column_of_the_wide_one_with_the_same_figures():
    """On a narrow page the walk's table is two grids (ui/walk_table.py; the page's width shows one layout): between
    them, every column of the wide grid, position i in both, and the same figures, read from ndcg_core's table."""
    at = run_page("step_by_step", query_params={"pos": "3"})
    frames = [df.value for df in at.dataframe if "i" in df.value.columns]
    wide, narrow = frames[0], frames[1:]
    assert len(wide.columns) == 11 and len(narrow) == 2
    assert all(list(frame["i"]) == list(wide["i"]) for frame in narrow)
    assert sorted(c for frame in narrow for c in frame.columns if c != "i") == sorted(c for c in wide.columns if c != "i")
    _, grades, _, _ = playground_list()
    table = ndcg_core.evaluate(grades).table
    ideal = next(frame for frame in narrow if "NDCG@i" in frame.columns)
    assert ideal["NDCG@i"].tolist() == pytest.approx(table["ndcg_at_rank"].tolist())
    assert ideal["IDCG@i"].tolist() == pytest.approx(table["cumulative_idcg"].tolist())


def test_walking_an_example_under_other_settings_says_so_and_restores_its_convention():
    """Walking 000's "G = [3, 1, 2, 0, 2]: NDCG@5 with gain 2^G - 1" after switching the sidebar to linear gain read
    "Walking G = [3, 1, 2, 0, 2]: NDCG@5 with gain 2^G - 1 … · linear gain · …" and ended on NDCG@5 = 0.9494, a figure
    the document never printed (it prints 0.9508), with nothing saying that the walk had left its convention."""
    at = run_page("step_by_step", query_params={"list": "000-ndcg5", "gain": "exponential", "base": "2", "k": "5"})
    assert not at.exception
    assert not [w.value for w in at.warning if "not this example's convention" in w.value]
    at.sidebar.radio(key="settings_gain").set_value("linear").run()
    linear = ndcg_core.evaluate([3, 1, 2, 0, 2], k=5, gain="linear").ndcg
    assert round(linear, 4) == 0.9494  # (3 + 1/log2 3 + 2/2 + 0 + 2/log2 6) / (3 + 2/log2 3 + 2/2 + 1/log2 5)
    [warning] = [w.value for w in at.warning if "not this example's convention" in w.value]
    assert "Gain: Linear: gain = grade → Exponential: 2^grade − 1" in warning
    at.button(key="walk_example_convention").click().run()
    assert not at.exception
    assert at.session_state["settings"].gain == "exponential"
    assert not [w.value for w in at.warning if "not this example's convention" in w.value]


def test_the_gain_lesson_and_the_sidebar_say_which_documents_code_uses_linear_gain():
    """Lesson 5 and the sidebar's gain help listed 002 and 004 under exponential gain only, while the Worked examples
    page shows their code computing linear gain (002's numpy snippet, 004's scikit-learn snippet: 0.9724, not the
    formula's 0.9575): a student met "002 and 004 use 2^grade − 1" on one page and "their code uses the grade" on the
    other. Both now say the formulas are exponential and the code linear, as the examples are."""
    code_examples = {e.key: e.gain for e in ndcg_core.WORKED_EXAMPLES if e.key in ("002-numpy-snippet", "004-sklearn-snippet")}
    assert code_examples == {"002-numpy-snippet": "linear", "004-sklearn-snippet": "linear"}
    formula_examples = {e.key: e.gain for e in ndcg_core.WORKED_EXAMPLES if e.key in ("002-badc", "004-ndcg5")}
    assert formula_examples == {"002-badc": "exponential", "004-ndcg5": "exponential"}
    at = run_page("step_by_step")
    assert not at.exception
    lesson = next(m.value for m in at.markdown if m.value.startswith("**Linear** gain uses the grade itself"))
    assert "(000, the formulas of 002 and 004, LightGBM, XGBoost)" in lesson
    assert "the code of 002 and 004 divides the grades themselves, so it prints the linear figure" in lesson
    gain_help = at.sidebar.radio(key="settings_gain").help
    assert "documents 000, 002 and 004 (their formulas)" in gain_help
    assert "documents 001 and 003, the code of 002 and 004, scikit-learn" in gain_help


def test_lesson_two_averages_shows_their_difference_neutrally():
    """Lesson 8 showed ΣDCG / ΣIDCG with a green "↑ 0.142" under it, as if the ratio of sums were *better* than the
    mean of per-query NDCG; it is only the difference between two ways of averaging the same run (helper-75).
    The delta is now grey, with no arrow, and says what it is: the ratio minus the mean."""
    at = run_page("step_by_step")
    assert not at.exception
    ratio_card = next(m for m in at.metric if m.label == "ΣDCG / ΣIDCG")
    lists = [[3, 1, 2, 0, 2], [0, 0, 1], [3, 3, 2, 3]]
    results = [ndcg_core.evaluate(grades) for grades in lists]
    mean = sum(r.ndcg for r in results) / 3
    ratio = sum(r.dcg for r in results) / sum(r.idcg for r in results)
    assert ratio_card.value == num(ratio)
    proto = ratio_card.proto
    assert proto.delta == f"{signed_change(ratio - mean)} vs the mean" == "+0.142 vs the mean"
    assert proto.color == 2  # MetricProto.MetricColor.GRAY: neither "better" green nor "worse" red
    assert proto.direction == 2  # MetricProto.MetricDirection.NONE: no ↑ or ↓


def test_walking_a_list_with_averaged_ties_says_the_playground_averages_them():
    """A list opened from a run with tied scores (``docs=a:3,b:2,c:1&tg=1,1,2``: a and b tied) shows NDCG 0.9214 on
    the Playground (a's and b's gains averaged, 5 and 5) but 1.0000 on Step by step, which walks the documents one by
    one as listed (gains 7, 3, 1), without a word about the difference. The page now says both figures."""
    params = {"docs": "a:3,b:2,c:1", "tg": "1,1,2"}
    averaged = ndcg_core.evaluate([3, 2, 1], tie_groups=[1, 1, 2])
    walked = ndcg_core.evaluate([3, 2, 1])
    assert (f"{averaged.ndcg:.4f}", f"{walked.ndcg:.4f}") == ("0.9214", "1.0000")
    playground = run_page(None, query_params=params)
    assert next(m.value for m in playground.metric if m.label == "NDCG") == "0.9214"
    at = run_page("step_by_step", query_params=params)
    assert not at.exception
    assert next(m.value for m in at.metric if m.label == "NDCG") == "1.0000"
    notes = [str(info.value) for info in at.info if "tied scores" in str(info.value)]
    assert len(notes) == 1 and "NDCG 0.9214 there" in notes[0] and "NDCG 1.0000" in notes[0], notes
    at.toggle(key="step_predict_toggle").set_value(True).run()  # Predict first hides the figures: the note too
    notes = [str(info.value) for info in at.info if "tied scores" in str(info.value)]
    assert len(notes) == 1 and "0.9214" not in notes[0] and "1.0000" not in notes[0], notes
    typed = run_page("step_by_step", query_params={"docs": "a:3,b:2,c:1", "sc": "1,1,0", "tie": "average"})
    assert [str(info.value) for info in typed.info if "tied scores" in str(info.value) and "0.9214" in str(info.value)]
    plain = run_page("step_by_step", query_params={"docs": "a:3,b:2,c:1"})  # no ties: no note
    assert not [info for info in plain.info if "tied scores" in str(info.value)]
