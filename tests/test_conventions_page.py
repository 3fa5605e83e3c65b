"""Library conventions page (AppTest): each ready-made case under every preset, checked against the libraries."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pandas as pd
import pytest
import pytrec_eval
from sklearn.metrics import ndcg_score

import ndcg_core
from tests.conftest import run_page
from ui import conventions_view as view

LABELS = {c.key: c.label for c in ndcg_core.CONVENTIONS.values()}


def open_case(case: str):
    at = run_page("conventions")
    at.selectbox(key="conventions_case").set_value(case).run()
    assert not at.exception, at.exception
    return at


def libraries_table(at):
    """The results: the static table whose first column is Library (the input editor is the page's data grid)."""
    (table,) = [table for table in at.table if "Library" in table.value.columns]
    return table


def shown_cells(table) -> pd.DataFrame:
    """The table's cells as the page shows them (and a screen reader reads them): the styler's display text."""
    from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df

    return convert_arrow_bytes_to_pandas_df(table.proto.arrow_data.styler.display_values).set_axis(
        table.value.columns, axis=1)


def results(at) -> dict[str, dict]:
    """The results table, by library label."""
    frame = libraries_table(at).value
    return {row["Library"]: row for row in frame.to_dict("records")}


def trec_eval_ndcg(qrels: dict[str, int], run: dict[str, float]) -> float:
    evaluator = pytrec_eval.RelevanceEvaluator({"q": qrels}, {"ndcg"})
    return evaluator.evaluate({"q": run})["q"]["ndcg"]


def exp_dcg(grades) -> float:
    return sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(grades))


def test_every_case_runs_and_every_convention_has_a_row():
    at = run_page("conventions")
    for case in [*view.CASES, view.CUSTOM]:
        at.selectbox(key="conventions_case").set_value(case).run()
        assert not at.exception, (case, at.exception)
        assert len(libraries_table(at).value) == len(ndcg_core.CONVENTIONS)


def test_all_grades_equal_gives_one_everywhere():
    table = results(open_case("equal"))
    assert all(row["NDCG"] == 1.0 for row in table.values())
    assert len(table) >= 7


def test_tied_scores_trec_eval_by_document_id():
    at = open_case("ties")
    table = results(at)
    grades, scores, ids = [3, 0, 1, 2], [0.9, 0.9, 0.4, 0.4], ["A12", "B07", "C33", "D01"]
    expected_trec = trec_eval_ndcg(dict(zip(ids, grades, strict=True)), dict(zip(ids, scores, strict=True)))
    assert table[LABELS["trec_eval"]]["NDCG"] == pytest.approx(expected_trec, abs=1e-4)
    # by hand: B07 (0) before A12 (3), D01 (2) before C33 (1); linear gain
    by_hand = (0 + 3 / math.log2(3) + 2 / 2 + 1 / math.log2(5)) / (3 + 2 / math.log2(3) + 1 / 2)
    assert expected_trec == pytest.approx(by_hand, abs=1e-4)
    assert table[LABELS["sklearn"]]["NDCG"] == pytest.approx(ndcg_score([grades], [scores]), abs=1e-9)
    # LightGBM keeps the input order inside a tie: A12, B07, C33, D01 with 2^g - 1
    lightgbm = exp_dcg([3, 0, 1, 2]) / exp_dcg([3, 2, 1, 0])
    assert table[LABELS["lightgbm"]]["NDCG"] == pytest.approx(lightgbm, abs=1e-9)
    assert table[LABELS["trec_eval"]]["NDCG"] < table[LABELS["sklearn"]]["NDCG"] < table[LABELS["lightgbm"]]["NDCG"]
    assert "different values" in at.text[0].value


def test_ideal_from_all_judgments_lowers_ndcg():
    table = results(open_case("ideal"))
    qrels = {"d1": 2, "d2": 1, "d3": 0, "d9": 3}
    expected_trec = trec_eval_ndcg(qrels, {"d1": 0.9, "d2": 0.5, "d3": 0.1})
    assert table[LABELS["trec_eval"]]["NDCG"] == pytest.approx(expected_trec, abs=1e-4)
    assert expected_trec < 1
    assert table[LABELS["sklearn"]]["NDCG"] == pytest.approx(ndcg_score([[2, 1, 0]], [[0.9, 0.5, 0.1]]))
    assert table[LABELS["sklearn"]]["NDCG"] == 1.0
    assert table[LABELS["sklearn"]]["Ideal from"] == "the ranked list only"
    assert table[LABELS["trec_eval"]]["Ideal from"] == "all judged documents"


def test_all_zero_query_is_zero_in_sklearn_and_one_in_lightgbm():
    at = open_case("all_zero")
    table = results(at)
    assert table[LABELS["sklearn"]]["NDCG"] == ndcg_score([[0, 0, 0]], [[0.8, 0.5, 0.2]]) == 0.0
    assert table[LABELS["lightgbm"]]["NDCG"] == 1.0
    assert table[LABELS["xgboost"]]["NDCG"] == 1.0
    assert table[LABELS["lightgbm"]]["If IDCG = 0"] == "1"


def test_linear_vs_exponential_gain_reorders_two_rankers():
    at = open_case("gain")
    table = results(at)
    grades = [3, 2, 2, 2, 0, 0]
    first, second = [0.95, 0.10, 0.15, 0.20, 0.90, 0.85], [0.40, 0.90, 0.80, 0.70, 0.20, 0.10]
    assert table[LABELS["sklearn"]]["NDCG, ranker 1"] == pytest.approx(ndcg_score([grades], [first]))
    assert table[LABELS["sklearn"]]["NDCG, ranker 2"] == pytest.approx(ndcg_score([grades], [second]))
    assert table[LABELS["sklearn"]]["Better ranker"] == "ranker 2"  # linear gain
    assert table[LABELS["lightgbm"]]["Better ranker"] == "ranker 1"  # exponential gain
    ranker_1 = exp_dcg([3, 0, 0, 2, 2, 2]) / exp_dcg(sorted(grades, reverse=True))
    assert table[LABELS["lightgbm"]]["NDCG, ranker 1"] == pytest.approx(ranker_1)
    texts = [t.value for t in at.text]
    assert any(t.startswith("Ranker 1 wins under:") and LABELS["lightgbm"] in t for t in texts)
    # A sentence for each ranker's column (ranker 2's values, up to sklearn's, went unsaid).
    frame = libraries_table(at).value
    for column, prefix in (("NDCG, ranker 1", "Ranker 1: "), ("NDCG, ranker 2", "Ranker 2: ")):
        values = frame[column].dropna().round(4)
        assert f"{prefix}The conventions give {values.nunique()} different values, from {values.min():.4f} to " \
               f"{values.max():.4f}." in texts


def test_differing_cells_are_highlighted():
    given = view.checked_input(view.CASES["all_zero"].frame(), gain="linear")
    table = view.conventions_table(given, k=None)
    labels = {c: c for c in table.columns}
    ctx = view.styled(table, labels)._compute().ctx
    ndcg_column = list(table.columns).index("ndcg")
    highlighted_rows = {row for (row, column), styles in ctx.items() if column == ndcg_column and styles}
    # the minority: LightGBM, XGBoost (1) and gdeval, which gives no value (NaN) for a query with nothing relevant
    expected = {i for i, value in enumerate(table["ndcg"]) if value == 1.0 or value != value}
    assert highlighted_rows == expected and 0 < len(expected) < len(table)
    assert view.differing(table["zero_idcg"]).tolist() == (table["zero_idcg"] != "0").tolist()  # "1" and skipped


def test_cutoff_from_sidebar_applies():
    at = run_page("conventions", query_params={"k": "2"})
    at.selectbox(key="conventions_case").set_value("ties").run()
    table = results(at)
    expected = ndcg_score([[3, 0, 1, 2]], [[0.9, 0.9, 0.4, 0.4]], k=2)
    assert table[LABELS["sklearn"]]["NDCG"] == pytest.approx(expected)


def test_custom_input_and_bad_edit_keeps_previous():
    at = open_case(view.CUSTOM)
    key = "conventions_editor_custom"
    at.session_state[key] = {"edited_rows": {0: {"grade": 0.0}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.exception
    before = results(at)[LABELS["sklearn"]]["NDCG"]
    assert before == pytest.approx(ndcg_score([[0, 0, 1, 2]], [[0.9, 0.9, 0.4, 0.4]]))
    at.session_state[key] = {"edited_rows": {0: {"grade": 0.0}, 1: {"score": None}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.exception
    assert any("every ranked document" in e.value for e in at.error)
    assert results(at)[LABELS["sklearn"]]["NDCG"] == before  # previous valid input still shown
    np.testing.assert_equal(len(libraries_table(at).value), len(ndcg_core.CONVENTIONS))


def test_case_is_mirrored_to_the_url_and_restored_from_it():
    at = open_case("ideal")
    assert at.query_params["case"] == ["ideal"] or at.query_params["case"] == "ideal"
    linked = run_page("conventions", query_params={"case": "all_zero"})
    assert linked.selectbox(key="conventions_case").value == "all_zero"
    assert results(linked)[LABELS["lightgbm"]]["NDCG"] == 1.0
    broken = run_page("conventions", query_params={"case": "<script>"})
    assert not broken.exception and broken.selectbox(key="conventions_case").value == "equal"


def _param(at, name):
    value = at.query_params.get(name)
    return value[0] if isinstance(value, list) else value


def test_edited_input_is_in_the_share_link_and_the_link_restores_it():
    at = open_case("ties")
    assert _param(at, "rows") is None  # the case's own input needs no rows parameter
    import json

    # A row the user adds is ticked "Ranked" in the browser (the column's default), as the page then reads it.
    assert json.loads(at.dataframe[0].proto.columns)["ranked"]["default"] is True
    at.session_state["conventions_editor_ties"] = {
        "edited_rows": {1: {"grade": 2.0}}, "added_rows": [{"document": "E,5:x", "grade": 1.0, "score": 0.2, "ranked": True}],  # ticked: the column's default
        "deleted_rows": [],
    }
    at.run()
    link = _param(at, "rows")
    assert link == "A12:3:0.9::1,B07:2:0.9::1,C33:1:0.4::1,D01:2:0.4::1,E%2C5%3Ax:1:0.2::1"
    expected = ndcg_score([[3, 2, 1, 2, 1]], [[0.9, 0.9, 0.4, 0.4, 0.2]])
    assert results(at)[LABELS["sklearn"]]["NDCG"] == pytest.approx(expected)

    opened = run_page("conventions", query_params={"case": "ties", "rows": link})
    assert not opened.exception and not opened.warning
    assert results(opened)[LABELS["sklearn"]]["NDCG"] == pytest.approx(expected)
    assert opened.dataframe[0].value["document"].tolist()[-1] == "E,5:x"  # the editor shows the link's rows


def test_the_input_table_shows_every_number_exactly_and_reads_typed_text():
    """Scores a billionth apart are shown as typed (a number column showed 1.000000001 as "1", hiding why the
    libraries that keep scores in float32 see a tie), and typed text is read as the number it spells."""
    at = run_page("conventions", query_params={"case": "custom", "rows": "a:2:1.000000001::1,b:0:1::1,c:1:0.5::1"})
    shown = at.dataframe[0].value
    assert shown["score"].tolist() == ["1.000000001", "1", "0.5"]
    assert shown["grade"].tolist() == ["2", "0", "1"] and shown["score_2"].tolist() == ["", "", ""]
    sklearn = results(at)[LABELS["sklearn"]]["NDCG"]
    assert sklearn == pytest.approx(ndcg_score([[2, 0, 1]], [[1.000000001, 1, 0.5]]))
    at.session_state["conventions_editor_custom"] = {
        "edited_rows": {1: {"grade": " 3 "}, 2: {"score": "-2.5e0"}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.error
    expected = ndcg_score([[2, 3, 1]], [[1.000000001, 1, -2.5]])
    assert results(at)[LABELS["sklearn"]]["NDCG"] == pytest.approx(expected) and round(expected, 4) == 0.9225


@pytest.mark.parametrize(
    ("rows", "reason"),
    [
        ("A:1:0.5", "row 1 is not of the form"),
        ("A:x:0.5::1", "grade of row 1 is not a number"),
        ("A:1:inf::1", "score of row 1 is not a number"),
        ("A:-1:0.5::1", "negative"),
        ("A:1:0.5::0", "At least one document must be ranked"),
        ("," * 300, "1 to 200 rows"),
    ],
)
def test_malformed_rows_link_falls_back_to_the_case_with_a_warning(rows, reason):
    at = run_page("conventions", query_params={"case": "ties", "rows": rows})
    assert not at.exception
    assert any(reason in w.value for w in at.warning), [w.value for w in at.warning]
    assert results(at)[LABELS["sklearn"]]["NDCG"] == pytest.approx(ndcg_score([[3, 0, 1, 2]], [[0.9, 0.9, 0.4, 0.4]]))
    assert _param(at, "rows") is None


def test_each_library_call_is_shown():
    at = open_case("ties")
    shown = [code.value for code in at.code]
    assert shown == [c.call for c in ndcg_core.CONVENTIONS.values()]


def test_jarvelin_kekalainen_row_and_its_tie_band():
    """Case "ties" (3, 0, 1, 2; scores 0.9, 0.9, 0.4, 0.4): the paper's DCG keeps the input order, ranks 1 and 2
    undiscounted (b = 2): DCG = 3 + 0 + 1/log2(3) + 2/log2(4), IDCG = 3 + 2 + 1/log2(3)."""
    at = open_case("ties")
    row = results(at)["Järvelin–Kekäläinen 2002 DCG"]
    expected = (3 + 0 + 1 / math.log2(3) + 2 / 2) / (3 + 2 + 1 / math.log2(3))
    assert row["NDCG"] == pytest.approx(expected, abs=1e-12)
    assert row["NDCG"] == pytest.approx(0.8224, abs=1e-4)
    assert row["Discount"] == "none before rank 2, log2(rank) after"
    assert results(at)[LABELS["sklearn"]]["Discount"] == "log2(rank + 1)"
    chart = next(c for c in (e.proto for e in at.get("plotly_chart")) if "Järvelin" in c.spec)
    spec = json.loads(chart.spec)
    dots = [trace for trace in spec["data"] if "Järvelin–Kekäläinen 2002 DCG" in (trace.get("text") or [])]
    assert dots and dots[0]["x"] == [pytest.approx(expected, abs=1e-12)]
    band_row = dots[0]["y"][0]
    assert band_row == "gain = grade, one ideal list (every judged document is ranked), Järvelin–Kekäläinen discount (b = 2)"
    # the tie of ranks 1 and 2 costs nothing under b = 2, so the band is the C33/D01 tie alone
    line = next(trace for trace in spec["data"] if trace.get("mode") == "lines" and trace["y"][0] == band_row)
    assert line["x"] == [pytest.approx(expected), pytest.approx((3 + 2 / math.log2(3) + 1 / 2) / (3 + 2 + 1 / math.log2(3)))]


def test_fractional_grades_say_why_most_libraries_give_no_value():
    """Grades 1.5, 2, 0.5 (scores 3, 2, 1): scikit-learn and torchmetrics give 0.9423, and the libraries that only
    take whole grades give nothing. The empty cells gave no reason, and the only real numbers were highlighted
    as differing from "the majority" (the empty cells). trec_eval and ranx print a figure without a word (their
    figure on 1, 2, 0: ranx's real 0.8597 and 0.7967), which the page left empty as "it would refuse or truncate"."""
    from ranx import Qrels, Run, evaluate

    at = run_page("conventions", query_params={"case": "custom", "rows": "a:1.5:3::1,b:2:2::1,c:0.5:1::1"})
    assert not at.exception
    rows = results(at)
    linear = (1.5 + 2 / math.log2(3) + 0.5 / 2) / (2 + 1.5 / math.log2(3) + 0.5 / 2)
    assert rows[LABELS["sklearn"]]["NDCG"] == pytest.approx(linear) and round(linear, 4) == 0.9423
    assert rows[LABELS["sklearn"]]["Note"] == ""
    real = evaluate(Qrels({"q": {"a": 1.5, "b": 2, "c": 0.5}}), Run({"q": {"a": 3.0, "b": 2.0, "c": 1.0}}),
                    ["ndcg", "ndcg_burges"])
    read = "Takes fractional grades without an error and reads each as its whole part (1.5 as 1, 0.5 as 0): its " \
           "figure on those grades."
    assert rows[LABELS["ranx_ndcg"]]["NDCG"] == pytest.approx(real["ndcg"], abs=1e-12)
    assert rows[LABELS["ranx_ndcg_burges"]]["NDCG"] == pytest.approx(real["ndcg_burges"], abs=1e-12)
    trec = rows[LABELS["trec_eval"]]
    assert trec["NDCG"] == pytest.approx((1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3)))  # trec_eval reads 1, 2, 0
    assert trec["Note"] == rows[LABELS["ranx_ndcg"]]["Note"] == read
    pytrec = rows[LABELS["pytrec_eval"]]
    assert pytrec["NDCG"] != pytrec["NDCG"]  # no value: pytrec_eval raises TypeError for 1.5
    assert pytrec["Note"] == ("pytrec_eval ndcg_cut only takes whole-number grades (0, 1, 2, ...); it would refuse or "
                              "truncate the grade 1.5.")
    refusing = sum(1 for row in rows.values() if row["NDCG"] != row["NDCG"])
    assert refusing == 8 and all(row["Note"] for row in rows.values() if row["NDCG"] != row["NDCG"])
    texts = [t.value for t in at.text]
    [summary] = [t for t in texts if t.startswith("The conventions give ")]
    assert f"{refusing} of the {len(rows)} give no value for this input (their Note says why)." in summary
    assert f"\nNo value from {LABELS['pytrec_eval']}, {LABELS['lightgbm']}, " in summary
    assert summary.endswith(f"\n{LABELS['trec_eval']}, {LABELS['ranx_ndcg']}, {LABELS['ranx_ndcg_burges']}: {read}")
    assert f"No value from {LABELS['trec_eval']}" not in summary
    table = view.conventions_table(view.checked_input(view.decode_input("a:1.5:3::1,b:2:2::1,c:0.5:1::1"),
                                                      gain="exponential"), k=None)
    flags = view.differing(table["ndcg"]).set_axis(table["library"])
    # two values are each given by two libraries (0.9423, 0.8597): each pair is flagged alike, the empty cells all
    assert flags[LABELS["sklearn"]] == flags[LABELS["torchmetrics"]] != flags[LABELS["trec_eval"]]
    assert flags[LABELS["trec_eval"]] == flags[LABELS["ranx_ndcg"]]
    assert flags[table["ndcg"].isna().to_numpy()].all()


def test_scores_that_tie_in_single_precision_are_not_said_to_be_untied():
    """Scores 1+1e-9, 1, 1+2e-9: the table showed four different values (pytrec_eval 0.9502, others 1.0000: the
    single-precision libraries see a tie) under a sentence saying no two scores tie."""
    at = run_page("conventions", query_params={"case": "custom",
                                               "rows": "d1:1:1.000000001::1,d2:0:1::1,d3:2:1.000000002::1"})
    table = results(at)
    assert table[LABELS["pytrec_eval"]]["NDCG"] == pytest.approx(0.950234, abs=1e-6)
    assert table[LABELS["sklearn"]]["NDCG"] == pytest.approx(1.0)
    sentence = next(t.value for t in at.text if t.value.startswith("No two scores tie"))
    assert "closer than single precision" in sentence and LABELS["pytrec_eval"] in sentence
    # Scores apart in single precision too: no such sentence.
    at = open_case("gain")
    assert not any("single precision" in t.value for t in at.text)


def test_an_edited_case_keeps_its_lesson_out_of_the_way():
    """The case "All grades equal" says every library reports 1; with d2's grade edited to 3 the page gave three
    different values under that sentence. Edited, the lesson moves into an expander under a line that says so."""
    at = open_case("equal")
    lesson = view.CASES["equal"].lesson
    assert [info.value for info in at.info] == [lesson]
    at.session_state["conventions_editor_equal"] = {"edited_rows": {1: {"grade": "3"}}, "added_rows": [],
                                                     "deleted_rows": []}
    at.run()
    assert lesson not in [info.value for info in at.info]
    assert any(caption.value.startswith("You have edited this case's input") for caption in at.caption)
    assert [expander.label for expander in at.expander if expander.label.startswith("The lesson")] == [
        "The lesson of the case as it was"]
    values = results(at)
    assert len({round(row["NDCG"], 4) for row in values.values() if row["NDCG"] == row["NDCG"]}) > 1  # no longer all 1


def test_every_library_row_is_in_view_and_the_page_says_which_setting_applies():
    """The table showed 10 of its 15 rows (the 11th cut in half) in a box that scrolled with no hint, and only a
    caption at the very end said the sidebar's gain and zero-IDCG rule do not apply (its log base was unmentioned,
    and changes nothing here either). The results are a static table now: every row is drawn, none in a scrolling
    box (a data grid of "auto" height shows at most ten)."""
    at = run_page("conventions")
    assert not [df for df in at.dataframe if "Library" in df.value.columns]
    table = libraries_table(at).value
    assert len(table) == len(ndcg_core.CONVENTIONS) >= 15
    assert ("Of the sidebar's settings only the cutoff k applies here: each library brings its own gain, discount "
            "(log base) and zero-IDCG rule.") in [c.value for c in at.caption]


def test_the_copy_box_holds_the_edited_input_and_the_cutoff_and_reopens_to_the_same_figures():
    """Library conventions offered no share box (the Playground, Compare, Quiz and Why-differ pages do): only the
    address bar could be copied."""
    from urllib.parse import parse_qsl, urlsplit

    from tests.conftest import copy_links

    at = run_page("conventions", query_params={"case": "ties", "k": "3"})
    at.session_state["conventions_editor_ties"] = {"edited_rows": {1: {"grade": 2.0}}, "added_rows": [],
                                                   "deleted_rows": []}
    at.run()
    link = copy_links(at)["Share link of this comparison"]
    params = dict(parse_qsl(urlsplit(link).query))
    assert urlsplit(link).path.endswith("/conventions")
    assert params["case"] == "ties" and params["k"] == "3" and params["rows"] == _param(at, "rows")
    opened = run_page("conventions", query_params=params)
    assert not opened.exception and not opened.warning
    expected = ndcg_score([[3, 2, 1, 2]], [[0.9, 0.9, 0.4, 0.4]], k=3)
    assert results(opened)[LABELS["sklearn"]]["NDCG"] == pytest.approx(expected)
    assert results(opened) == results(at)


def test_present_mode_shows_the_libraries_table_as_text_that_wraps():
    """On a projector the grid's columns from "IDCG = 0 gives" on were cut or hidden (the cells that set LightGBM and
    XGBoost apart) and its text stayed 13 px: Present mode shows an HTML table whose cells wrap and grow."""
    at = run_page("conventions", query_params={"present": "1", "case": "gain"})
    assert not at.exception
    assert not [df for df in at.dataframe if "Library" in df.value.columns]
    (table,) = [t for t in at.table if "Library" in t.value.columns]
    assert len(table.value) == len(ndcg_core.CONVENTIONS)
    assert "If IDCG = 0" in table.value.columns and "Discount" in table.value.columns
    assert table.proto.arrow_data.styler.styles  # the cells that differ from their column are still highlighted


def test_ranx_rows_say_its_tie_order_is_an_unstable_sort():
    """ranx's rows said "input order" like LightGBM's: in a tie of 20 documents ranx's unstable sort gave 0.2025
    (input order 0.7470). Its rows now say so, and differ from the stable sorters' in the highlighting."""
    given = view.checked_input(view.CASES["all_zero"].frame(), gain="linear")
    table = view.conventions_table(given, k=None).set_index("library")
    ties = {key: table.loc[convention.label, "ties"] for key, convention in ndcg_core.CONVENTIONS.items()}
    assert ties["ranx_ndcg"] == ties["ranx_ndcg_burges"] == "input order (unstable sort)"
    assert ties["lightgbm"] == ties["xgboost"] == "input order"


def test_the_table_fits_1440_px_and_its_note_is_readable():
    """At 1440 px the grid was 3 px too wide (its "IDCG = 0 gives" column cut); the Note of a library that gives no
    value sat beside NDCG, cut to "IDCG =". Now the header is "If IDCG = 0" and the Note comes last; the table's
    cells wrap, so a long Note is read whole (tests/browser/test_evaluate_browser.py checks 1280 px)."""
    at = open_case("all_zero")
    table = libraries_table(at).value
    assert list(table.columns) == ["Library", "NDCG", "Gain", "Tied scores", "Ideal from", "If IDCG = 0", "Discount",
                                   "Note"]
    assert results(at)[LABELS["trec_gdeval"]]["Note"]  # gdeval skips the topic, and says why


def test_a_library_with_no_value_shows_a_dash_not_none():
    """Fractional grades: the libraries that refuse them have no NDCG, and the table drew a grey "None" in their
    cells (the data grid's word for a missing value; the table's own formatter writes "–", which the grid ignored
    for a missing value). The static table shows the formatter's text: "–"."""
    at = run_page("conventions", query_params={"case": "custom", "rows": "a:1.5:3::1,b:2:2::1,c:0.5:1::1"})
    table = libraries_table(at)
    assert table.value["NDCG"].isna().sum() == 8
    shown = shown_cells(table)
    assert (shown.loc[table.value["NDCG"].isna().to_numpy(), "NDCG"] == "–").all()
    assert "None" not in shown["NDCG"].tolist() and "nan" not in shown["NDCG"].tolist()


def test_the_highlighted_cells_are_said_in_words_under_the_table():
    """The cells that differ from most libraries were marked by an orange background and bold only: a screen reader
    reads the grid's raw data and announced nothing (LightGBM's NDCG 1.0000 among twelve 0.0000 read as any other
    cell). Under the table, in words: per column, its most common value and each library that differs, its value."""
    at = open_case("all_zero")
    (expander,) = [e for e in at.expander if e.label == view.HIGHLIGHTS_IN_WORDS]
    text = re.sub(r"\\(.)", r"\1", " ".join(md.value for md in expander.markdown))  # as read (markdown unescaped)
    table = results(at)
    ndcg = {label: row["NDCG"] for label, row in table.items()}
    # ndcg_core's figures: IDCG = 0, so 0 under most rules, 1 for LightGBM and XGBoost, none from gdeval (skipped)
    assert sorted(value for value in ndcg.values() if value == value) == [0.0] * 12 + [1.0] * 2
    assert (f"NDCG: 0.0000 for 12 of 15 (the most common); highlighted: {LABELS['lightgbm']} (1.0000); "
            f"{LABELS['xgboost']} (1.0000); {LABELS['trec_gdeval']} (–).") in text
    assert f"If IDCG = 0: 0 for 12 of 15 (the most common); highlighted: {LABELS['lightgbm']} (1); " in text
    # every highlighted cell of every column is named, and no other
    frame = libraries_table(at).value
    for column in ("Gain", "Tied scores", "Ideal from", "Discount"):
        flagged = frame.loc[view.differing(frame[column]), "Library"].tolist()
        line = next(line for line in text.split("\n") if line.startswith(f"- {column}:"))
        assert [label for label in frame["Library"] if f" {label} (" in line] == flagged, column


def test_a_document_named_twice_is_refused_not_given_a_trec_eval_figure():
    """A link (or an edit) with two ranked rows named "a", grades 1 and 2, tied at score 0.5, showed trec_eval
    0.8597 (the worse order) without a word: trec_eval orders tied scores by document id, so two documents with
    one id have no order there (and a run holds each document once); with ids "a" and "b" it gives 1.0000. The
    page now refuses the input and names the repeated document, as the Playground and the Why page do."""
    at = run_page("conventions", query_params={"case": "custom", "rows": "a:1:0.5::1,a:2:0.5::1"})
    assert not at.exception
    warning = " ".join(str(w.value) for w in at.warning).replace("\\", "")
    assert "could not be used" in warning and "'a' is in the table twice" in warning, warning
    distinct = run_page("conventions", query_params={"case": "custom", "rows": "a:1:0.5::1,b:2:0.5::1"})
    shown = next(df.value for df in distinct.dataframe if "Library" in df.value.columns).set_index("Library")
    assert not distinct.warning and shown.loc["trec_eval ndcg_cut", "NDCG"] == 1.0


def test_the_results_read_as_shown_and_can_still_be_ordered_by_ndcg():
    """The results grid gave screen readers its raw data: scikit-learn's NDCG was read "1" under a shown "1.0000"
    (and "0.6757..." in full for a shown "0.6758"). The static table's cells are the shown text. Sorting by a click on
    the grid's header went with the grid: "Rows in order of" orders the rows by NDCG, on ndcg_core's values
    (helper-75)."""
    at = open_case("equal")
    shown = shown_cells(libraries_table(at))
    assert shown["NDCG"].tolist() == ["1.0000"] * len(ndcg_core.CONVENTIONS)
    at = open_case("ties")
    values = libraries_table(at).value
    assert values["Library"].tolist() == [c.label for c in ndcg_core.CONVENTIONS.values()]  # the presets' order
    assert shown_cells(libraries_table(at))["NDCG"].tolist() == [f"{value:.4f}" for value in values["NDCG"]]
    at.segmented_control(key="conventions_row_order").set_value("ndcg").run()
    assert not at.exception
    ordered = libraries_table(at).value
    assert ordered["NDCG"].tolist() == sorted(values["NDCG"], reverse=True)
    assert ordered["NDCG"].iloc[0] == pytest.approx(0.9360, abs=5e-5) and ordered["NDCG"].iloc[-1] == pytest.approx(
        0.6758, abs=5e-5)
    at.segmented_control(key="conventions_row_order").set_value("ndcg_low").run()
    assert libraries_table(at).value["NDCG"].tolist() == sorted(values["NDCG"])
    # Libraries that give no value come last either way.
    at = run_page("conventions", query_params={"case": "custom", "rows": "a:1.5:3::1,b:2:2::1,c:0.5:1::1"})
    at.segmented_control(key="conventions_row_order").set_value("ndcg").run()
    ndcg = libraries_table(at).value["NDCG"]
    assert ndcg.iloc[:-8].notna().all() and ndcg.iloc[-8:].isna().all()
