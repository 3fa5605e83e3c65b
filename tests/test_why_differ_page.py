"""The "Why do my numbers differ?" page under AppTest: explanation, side-by-side table, share link, strict URLs."""

from __future__ import annotations

import re

import pytest

import ndcg_core
from ndcg_core import CONVENTIONS
from tests.conftest import (
    assert_no_settings_sidebar,
    assert_ties_example_linear_band,
    band_chart,
    band_rows,
    copy_links,
    run_page,
)

PAGE = "why_differ"



def texts(at) -> str:
    """The page's messages as read on screen (markdown escapes removed)."""
    shown = " ".join(str(element.value) for element in [*at.info, *at.markdown, *at.error, *at.warning])
    return shown.replace("\\", "")


def test_default_example_explains_lightgbm_against_scikit_learn():
    at = run_page(PAGE)
    assert not at.exception
    grades, scores = [3, 2, 0, 1, 2], [0.9, 0.8, 0.7, 0.6, 0.5]
    sklearn_value = CONVENTIONS["sklearn"].evaluate(grades, scores).ndcg
    lightgbm_value = CONVENTIONS["lightgbm"].evaluate(grades, scores).ndcg
    assert at.text_input(key="why_number_1").value == f"{sklearn_value:.4f}"
    assert at.text_input(key="why_number_2").value == f"{lightgbm_value:.4f}"
    comparison = at.info[0].value
    assert "LightGBM's number" in comparison and "2^grade − 1" in comparison and "the grade itself" in comparison
    sklearn_frame, lightgbm_frame = [df.value for df in at.dataframe if "Gain ÷ discount" in df.value.columns]
    # position 1 holds the grade-3 document in both; gains 3 (linear) and 7 (2^3 - 1)
    assert sklearn_frame["Gain"].iloc[0] == 3 and lightgbm_frame["Gain"].iloc[0] == 7
    assert lightgbm_frame["Gain ÷ discount"].sum() / lightgbm_frame["Ideal"].sum() == pytest.approx(lightgbm_value)
    assert sklearn_frame["Gain ÷ discount"].sum() / sklearn_frame["Ideal"].sum() == pytest.approx(sklearn_value)
    at.run()  # the tab's first run leaves the address as opened; the next one writes the state
    assert at.query_params["g"] == "3, 2, 0, 1, 2" and at.query_params["b"] == "LightGBM"


def test_example_button_all_zero_query():
    at = run_page(PAGE)
    at.button(key="why_example_all_zero").click().run()
    assert not at.exception
    assert at.text_input(key="why_number_2").value == "1.0000"
    assert "1 for a query with no relevant document" in at.info[0].value


def test_typed_number_that_nothing_reproduces():
    at = run_page(PAGE)
    at.text_input(key="why_number_2").input("0.1234").run()
    assert not at.exception
    assert "no convention searched reproduces it" in texts(at)


def test_typed_hand_calculation_with_an_off_by_one_discount():
    at = run_page(PAGE)
    # grades 3, 2, 0, 1, 2 in this order, linear gain, discount log2(rank + 2)
    import math

    gains = [3, 2, 0, 1, 2]
    dcg = sum(g / math.log2(i + 3) for i, g in enumerate(gains))
    idcg = sum(g / math.log2(i + 3) for i, g in enumerate(sorted(gains, reverse=True)))
    at.text_input(key="why_from_2").input("my spreadsheet").run()
    at.text_input(key="why_number_2").input(f"{dcg / idcg:.4f}").run()
    assert not at.exception
    assert "off by one" in texts(at)


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("why_grades", "3, x, 1", "item 2"),
        ("why_grades", "", "at least one grade"),
        ("why_scores", "1, 2", "5 grades but 2 scores"),
        ("why_k", "0", "k must be"),
        ("why_number_1", "1.7", "between 0 and 1"),
        ("why_grades", "3, -1, 1, 0, 2", "negative"),
    ],
)
def test_bad_input_shows_the_reason(key, value, words):
    at = run_page(PAGE)
    if key in ("why_grades", "why_scores"):
        at.text_area(key=key).input(value).run()
    else:
        at.text_input(key=key).input(value).run()
    assert not at.exception
    assert words in " ".join(str(e.value) for e in at.error)


def test_share_link_round_trip():
    trec_eval = CONVENTIONS["trec_eval"].evaluate([2, 1, 0], [0.9, 0.5, 0.1], ideal_relevances=[2, 1, 0, 3]).ndcg
    params = {"g": "2 1 0", "s": "0.9 0.5 0.1", "x": "3", "a": "trec_eval", "ra": f"{trec_eval:.4f}",
              "b": "by hand", "rb": "1"}
    at = run_page(PAGE, query_params=params)
    assert not at.exception
    assert at.text_area(key="why_grades").value == "2 1 0"
    assert at.text_input(key="why_extra").value == "3"
    assert re.search(r"\btrec_eval ndcg\b(?!_cut)", texts(at))  # no k: trec_eval's whole-list measure, ndcg
    link = copy_links(at)["Share link of this diagnosis"]
    assert "g=2+1+0" in link and "rb=1" in link and link.split("?")[0].endswith("why_differ")


@pytest.mark.parametrize(
    "params",
    [
        {"g": "<script>alert(1)</script>"},
        {"g": "1,2", "s": "1"},
        {"g": "1,2", "cut": "-3"},
        {"g": "1,2", "cut": "1e400"},
        {"g": "1,2", "ra": "2"},
        {"g": "1e400"},
        {"g": "1," * 5000},
        {"g": "1,2", "d": "a"},
        {"g": "nan, 1"},
        {"g": "1,2", "rb": "0.5; DROP"},
        {"g": "9" * 400},
        {"g": "1, 2", "ra": "0.5", "a": "sk\x1blearn"},  # a control character (ui.url_rules.parse_text)
        {"g": "1, 2", "x": "1 " * 20_001},  # longer than a field may be (ui.url_state.MAX_TEXT_CHARS)
    ],
)
def test_malformed_links_fall_back_with_a_warning(params):
    at = run_page(PAGE, query_params=params)
    assert not at.exception
    assert "could not be used" in " ".join(str(w.value) for w in at.warning)
    assert at.text_area(key="why_grades").value == "3, 2, 0, 1, 2"  # the default example
    assert at.info  # and it is explained


def test_page_is_in_the_navigation():
    # The app's pages are defined once, in ui/navigation.py (app.py and ui.page_shell use them).
    source = (run_page.__globals__["ROOT"] / "ui" / "navigation.py").read_text()
    assert 'url_path="why_differ"' in source and "pages/why_differ.py" in source


def test_check_my_implementation_pasted_off_by_one():
    from tests.test_battery import TREC, outputs_of

    at = run_page(PAGE)
    outputs = outputs_of({**TREC, "discount": "log2_shifted"}, truncate=True)
    at.text_area(key="battery_paste").input("case,ndcg\n" + "\n".join(f"{k},{v!r}" for k, v in outputs.items())).run()
    assert not at.exception
    verdict = texts(at)
    assert "match trec_eval ndcg_cut on 3 of 16 cases" in verdict
    assert "off-by-one discount" in verdict
    mismatches = at.dataframe[-2].value
    assert set(mismatches["fits"]) == {"off-by-one discount (log2(rank + 2))"}
    assert len(mismatches) == 13


def test_check_my_implementation_exact_library_outputs():
    from ndcg_core import battery_expected

    at = run_page(PAGE)
    lines = [f"{case},{values['sklearn']!r}" for case, values in battery_expected().items()
             if values["sklearn"] is not None]
    at.text_area(key="battery_paste").input("\n".join(lines)).run()
    assert not at.exception
    assert [s.value for s in at.success] and "on all" in at.success[0].value


@pytest.mark.parametrize(("pasted", "words"), [("nope,0.5", "Unknown case"), ("plain,abc", "not a number"),
                                                ('{"plain": 0.5', "JSON could not be read")])
def test_check_my_implementation_bad_outputs(pasted, words):
    at = run_page(PAGE)
    at.text_area(key="battery_paste").input(pasted).run()
    assert not at.exception
    assert words in " ".join(str(e.value) for e in at.error).replace("\\", "")


def test_tie_band_shown_for_tied_scores():
    """The example: grades 3, 0, 1, 2 scored 0.9, 0.9, 0.4, 0.4 (ids A12, B07, C33, D01): two tied pairs."""
    at = run_page(PAGE)
    at.button(key="why_example_ties").click().run()
    assert not at.exception
    assert "The tie band" in texts(at)
    assert_ties_example_linear_band(band_rows(band_chart(at))["gain = grade, one ideal list (every judged document is ranked)"])


def test_the_tie_examples_explanation_names_the_measures_it_used():
    """Without a cutoff trec_eval's measure is ndcg, not ndcg_cut (which always cuts at a k): the match said
    "trec_eval ndcg_cut = pytrec_eval ndcg_cut …: … no cutoff (the whole list)". And "scikit-learn's number used
    tied scores share their mean gain" was not a sentence (found by an exploratory pass)."""
    at = run_page(PAGE)
    at.button(key="why_example_ties").click().run()
    shown = texts(at).replace("\\", "")
    assert "- trec_eval ndcg = pytrec_eval ndcg = ir_measures nDCG: tied scores ordered by document id, Z to A;" in shown
    assert "ndcg_cut" not in shown
    assert "scikit-learn's number used tied scores sharing their mean gain." in shown


def test_no_tie_band_without_ties():
    at = run_page(PAGE)
    assert "The tie band" not in texts(at)


def test_numbers_typed_to_three_decimals_are_explained():
    """The default example's figures typed as a person copies them from a notebook (0.961 and 0.952, not 0.9610
    and 0.9520): both said "no convention searched reproduces it" (a fixed tolerance of 0.00005)."""
    grades, scores = [3, 2, 0, 1, 2], [0.9, 0.8, 0.7, 0.6, 0.5]
    sklearn_value = CONVENTIONS["sklearn"].evaluate(grades, scores).ndcg
    lightgbm_value = CONVENTIONS["lightgbm"].evaluate(grades, scores).ndcg
    at = run_page(PAGE)
    at.text_input(key="why_number_1").input(f"{sklearn_value:.3f}")
    at.text_input(key="why_number_2").input(f"{lightgbm_value:.3f}").run()
    assert not at.exception
    shown = texts(at)
    assert "no convention searched reproduces it" not in shown
    assert f"scikit-learn: {sklearn_value:.3f}" in shown and f"LightGBM: {lightgbm_value:.3f}" in shown
    assert f"every calculation from {float(f'{sklearn_value:.3f}') - 0.0005:.4f} to" in shown
    assert "2^grade − 1" in at.info[0].value and "the grade itself" in at.info[0].value


def test_the_page_draws_no_settings_sidebar_and_puts_no_settings_in_its_address():
    """Its caption said "Sidebar settings do not apply on this page" beside a sidebar of metric settings, and typing
    two numbers put gain=exponential&base=2&z=zero into the address (not into its share link)."""
    def type_two_numbers(at):
        at.text_input(key="why_number_1").input("0.985").run()
        at.text_input(key="why_number_2").input("0.993").run()
        assert "Sidebar" not in " ".join(c.value for c in at.caption)

    assert_no_settings_sidebar("why_differ", type_two_numbers)


def test_decimal_commas_are_refused_not_read_as_more_numbers():
    """"1,5 2,5 0" was read as the five grades 1, 5, 2, 5, 0 without a word (then "no convention reproduces it"),
    and "0,9; 0,8; 0,7" as six scores ("Got 3 grades but 6 scores")."""
    import ndcg_core
    from ui.diagnose_input import numbers

    for text, first in (("1,5 2,5 0", "'1,5'"), ("0,9; 0,8; 0,7", "'0,9'")):
        with pytest.raises(ndcg_core.InvalidInput, match="decimal comma") as refused:
            numbers(text, what="Grades")
        assert first in str(refused.value) and "'" + first.strip("'").replace(",", ".") + "'" in str(refused.value)
    assert numbers("1,5,0", what="Grades") == (1.0, 5.0, 0.0)  # a comma-separated list
    assert numbers("3, 2, 0; 1", what="Grades") == (3.0, 2.0, 0.0, 1.0)
    assert numbers("1.5 2.5 0", what="Grades") == (1.5, 2.5, 0.0)


def test_a_refused_grade_is_named_by_its_field_and_position():
    """"relevances: position 2 is negative (-1) ... as scikit-learn does": the field is "Grades", and a TREC user
    whose qrels hold -1 learns nothing of how trec_eval reads it."""
    from ui.diagnose_view import in_field_words

    message = "relevances: position 2 is negative (-1). Negative grades make NDCG unbounded."
    assert in_field_words(message, ranked=5).startswith("Grades: number 2 is negative (-1).")
    assert "trec_eval and pytrec_eval read a negative grade as 0" in in_field_words(message, ranked=5)
    extra = "ideal_relevances: position 6 is negative (-2). Negative grades make NDCG unbounded."
    assert in_field_words(extra, ranked=5).startswith("Judged but not ranked: number 1 is negative (-2).")
    at = run_page("why_differ")
    at.text_area(key="why_grades").input("3, -1, 0, 1, 2").run()
    at.text_input(key="why_number_1").input("0.9").run()
    [error] = at.error
    shown = error.value.replace("\\", "")  # the page escapes Markdown
    assert shown.startswith("Grades: number 2 is negative (-1).") and "relevances" not in shown


def test_too_many_numbers_says_how_many_and_the_limit():
    """2,001 grades of one query said "paste one query at a time", to someone who had."""
    import ndcg_core
    from ui.diagnose_input import MAX_DOCUMENTS, numbers

    with pytest.raises(ndcg_core.InvalidInput) as refused:
        numbers(" ".join(["1"] * (MAX_DOCUMENTS + 1)), what="Grades")
    assert str(refused.value) == (f"Grades: {MAX_DOCUMENTS + 1:,} numbers; this page diagnoses one query of up to "
                                  f"{MAX_DOCUMENTS:,} documents (a whole run's figures: the Dataset page).")
    assert len(numbers(" ".join(["1"] * MAX_DOCUMENTS), what="Grades")) == MAX_DOCUMENTS


def test_present_mode_shows_the_side_by_side_calculations_as_a_table_that_fits():
    """At 1920 in Present mode the side-by-side grid was 2810 px wide in a 1688 px box: only the first number's
    columns were in view, at 13 px. Present mode shows HTML tables (their cells wrap, their text grows)."""
    params = {"g": "3,2,3,0,1", "ra": "0.9724", "rb": "0.9575"}
    normal = run_page("why_differ", query_params=params)
    grids = [df.value for df in normal.dataframe if "Rank" in df.value.columns]
    projected = run_page("why_differ", query_params={**params, "present": "1"})
    assert not projected.exception
    assert not [df for df in projected.dataframe if "Rank" in df.value.columns]
    tables = [t.value for t in projected.table if "Rank" in t.value.columns]
    assert len(tables) == len(grids) == 2
    for table, grid in zip(tables, grids, strict=True):
        assert table.shape == grid.shape == (5, 7) and table.columns.tolist() == grid.columns.tolist()


def test_each_calculation_has_its_own_table_under_its_number():
    """One table held both calculations with the label in every header ("scikit-learn: counted gain / discount"):
    2,200 px wide, so at 1280 px the second calculation was past the right edge. Each number now has its table,
    under its card; the figures are the calculation's, checked here against the formula (grades 3 2 3 0 1 ranked
    as typed; 0.9724 is trec_eval's linear-gain NDCG, 0.9575 exponential gain)."""
    import math

    at = run_page("why_differ", query_params={"g": "3,2,3,0,1", "ra": "0.9724", "rb": "0.9575"})
    first, second = [df.value for df in at.dataframe if "Gain ÷ discount" in df.value.columns]
    assert first.columns.tolist() == ["Rank", "Document", "Grade", "Gain", "Discount", "Gain ÷ discount", "Ideal"]
    assert first["Rank"].tolist() == [1, 2, 3, 4, 5] and first["Document"].tolist() == ["#1", "#2", "#3", "#4", "#5"]
    discounts = [math.log2(i + 1) for i in range(1, 6)]
    assert first["Discount"].tolist() == pytest.approx(discounts)
    assert first["Gain"].tolist() == [3, 2, 3, 0, 1] and second["Gain"].tolist() == [7, 3, 7, 0, 1]
    dcg = sum(g / d for g, d in zip([3, 2, 3, 0, 1], discounts, strict=True))
    linear = dcg / sum(g / d for g, d in zip([3, 3, 2, 1, 0], discounts, strict=True))
    assert first["Gain ÷ discount"].sum() / first["Ideal"].sum() == pytest.approx(linear) and round(linear, 4) == 0.9724


def test_an_unjudged_mark_in_the_grades_says_how_to_type_it():
    """Typed "2 - 3 0 - 1" (a dash for a document nobody judged), the page said only "item 2 ('-') is not a number"."""
    at = run_page(PAGE)
    at.text_area(key="why_grades").input("2 - 3 0 - 1").run()
    assert not at.exception
    (error,) = at.error
    shown = error.value.replace("\\", "")
    assert shown.startswith("Grades: item 2 ('-') is not a number. A document nobody judged counts as grade 0")
    assert "type 0 for it" in shown and "lesson 9" in shown
    at.text_area(key="why_grades").input("2 abc").run()
    assert at.error[0].value.replace("\\", "") == "Grades: item 2 ('abc') is not a number."


@pytest.mark.parametrize(("grades", "scores", "band_rows_shown"), [
    ("1e300 5 0", "1 1 3", ["gain = grade, one ideal list (every judged document is ranked)",  # no 2^grade − 1 row
                            "gain = grade, one ideal list (every judged document is ranked), Järvelin–Kekäläinen "
                            "discount (b = 2)"]),
    ("1e300 5 0", "1 2 3", None),  # no tie: no band
    ("1e308 1e308 0", "1 1 3", None),  # even the linear DCG overflows: no band can be drawn
])
def test_grades_too_large_for_exponential_gain_leave_out_that_band_instead_of_a_traceback(grades, scores,
                                                                                          band_rows_shown):
    """Grades 1e300, 5, 0 with scores: the diagnosis was drawn, then the tie band raised "Grade 1e+300 is too
    large for exponential gain" as a traceback under it (with or without tied scores); 1e308 twice raised an
    IndexError. The band now leaves out the settings these grades cannot take."""
    at = run_page(PAGE, query_params={"g": grades, "s": scores, "a": "scikit-learn", "ra": "1"})
    assert not at.exception
    assert "scikit-learn (1)" in texts(at)  # the diagnosis, then the band (or none)
    if band_rows_shown is None:
        assert "The tie band" not in texts(at)
    else:
        assert "The tie band" in texts(at)
        rows = band_rows(band_chart(at))
        assert list(rows) == band_rows_shown
        linear = ndcg_core.tie_band([1e300, 5, 0], [1, 1, 3], gain="linear")  # 0 first, then the tie of 1e300 and 5
        assert (rows[band_rows_shown[0]]["low"], rows[band_rows_shown[0]]["high"]) == (
            pytest.approx(linear.low), pytest.approx(linear.high))


def test_cells_past_the_cutoff_are_drawn_empty_as_the_caption_says():
    """Grades 3, 2, 0, 1, 2 at k = 2: the side-by-side tables' contribution cells past the cutoff drew a grey
    "None" (the data grid's word for a missing value) under a caption saying "Empty cells are past the cutoff";
    the battery's table of expected figures, whose caption says "Empty = the library refuses that input", too."""
    at = run_page(PAGE, query_params={"g": "3 2 0 1 2", "cut": "2", "a": "scikit-learn", "ra": "0.7487",
                                      "b": "LightGBM", "rb": "0.8216"})
    tables = [frame for frame in at.dataframe if "Gain ÷ discount" in frame.value.columns]
    assert len(tables) == 2
    for table in tables:
        assert table.value["Gain ÷ discount"].isna().tolist() == [False, False, True, True, True]
        assert table.proto.HasField("placeholder") and table.proto.placeholder == ""
    assert "Empty cells are past the cutoff" in " ".join(c.value for c in at.caption)
    expected = next(frame for frame in at.dataframe if "what it tests" in frame.value.columns)
    assert expected.value.isna().to_numpy().any()  # refused cells
    assert expected.proto.HasField("placeholder") and expected.proto.placeholder == ""


def test_the_side_by_side_cards_have_no_help_button_named_with_markdown_escapes():
    """A card's help icon is a button Streamlit names "Help for " + the card's label as markdown source: the
    scikit-learn card's was "Help for scikit\\-learn", read out with its backslash by a screen reader. The cards'
    labels (user text, escaped) carry no help icon; the caption under each gives its DCG and IDCG."""
    at = run_page(PAGE)
    cards = {metric.label: metric for metric in at.metric}
    assert set(cards) == {"scikit\\-learn", "LightGBM"}
    for label, card in cards.items():
        assert not card.proto.help, f"{label}: a help button named 'Help for {label}'"
    captions = [caption.value for caption in at.caption if caption.value.startswith("DCG = ")]
    assert captions == ["DCG = 5.4662, IDCG = 5.6925", "DCG = 10.4840, IDCG = 10.8235"]


def _spoken(at) -> list[str]:
    import html

    return [html.unescape(re.sub(r"<[^>]+>", "", md.value)) for md in at.markdown if "ndcg-spoken" in md.value]


def test_the_battery_verdict_is_read_out_where_the_focus_stays():
    """Ctrl+Enter in the paste box (or an upload) drew the verdict below the box, where the focus stays: a screen
    reader said nothing of it. One live region under the box reads the verdict (or why the outputs could not be
    read)."""
    at = run_page(PAGE)
    assert _spoken(at) == ["No outputs checked yet."]
    at.text_area(key="battery_paste").input("plain,0.9608\nties,0.6979").run()
    assert _spoken(at) == ["Your outputs match trec_eval ndcg_cut on all 2 cases it computes. pytrec_eval ndcg_cut and "
                           "ir_measures nDCG agree on the cases given; your output for fractional would tell them apart."]
    at.text_area(key="battery_paste").input("plain;0.9608").run()
    [told] = _spoken(at)
    assert told.startswith("Your outputs could not be read: ") and at.error


def test_a_document_id_typed_twice_is_named():
    """The "Tied scores" example with ids "A12, A12, C33, D01" (a slip for A12, B07): the first two documents tie and
    trec_eval orders a tie by id, which cannot order two documents with one id. The page kept their input order and
    said of trec_eval's 0.6979 "no convention searched reproduces it ... check the grades, their order (or scores)
    and k", sending the user to everything but the ids. The field now names the id typed twice."""
    at = run_page(PAGE)
    at.button(key="why_example_ties").click().run()
    at.text_input(key="why_ids").input("A12, A12, C33, D01").run()
    assert not at.exception
    assert "Document ids: 'A12' is typed twice" in texts(at)
    # nothing is explained from an order the ids cannot give
    assert "What each number is" not in [header.value for header in at.header]


def test_lists_pasted_as_python_prints_them_are_read():
    """A script's print(grades) is "[3, 2, 0, 1, 2]", numpy's "[0.9 0.8 0.7 0.6 0.5]" and print(ids)
    "['A12', 'B07', 'C33', 'D01']"; the page said "Grades: item 1 ('[3') is not a number". The brackets around a
    whole list (and the quotes around each id of a printed list) are now read as the list's; the figures are the
    default example's, so its explanation comes back."""
    at = run_page(PAGE)
    at.text_area(key="why_grades").input("[3, 2, 0, 1, 2]").run()
    at.text_area(key="why_scores").input("[0.9 0.8 0.7 0.6 0.5]").run()
    at.text_input(key="why_ids").input("['A12', 'B07', 'C33', 'D01', 'E55']").run()
    assert not at.exception
    assert not at.error, [str(e.value) for e in at.error]
    assert "LightGBM's number" in at.info[0].value
    frames = [df.value for df in at.dataframe if "Document" in df.value.columns]
    assert frames and frames[0]["Document"].tolist() == ["A12", "B07", "C33", "D01", "E55"]
    at.text_area(key="why_grades").input("[3, 2, 0, 1, 2").run()  # half a list is still refused, named
    assert "item 1 ('[3') is not a number" in texts(at)


def test_a_link_refused_for_an_unjudged_mark_says_the_whole_reason():
    """A link with ``g=3,2,x`` warned "… A document nobody judged counts as grade 0 in every library searched here
    (trec_eval, scikit-learn, ranx, …): type 0 for i), so an example is shown instead.": the reason was cut at 160
    characters, mid-word. Every reason the page gives is of bounded length (it quotes at most 20 characters of the
    link), so the warning now holds it whole."""
    at = run_page(PAGE, query_params={"g": "3,2,x", "a": "scikit-learn", "ra": "0.9"})
    warning = " ".join(str(w.value) for w in at.warning).replace("\\", "")
    assert "type 0 for it. The Step by step page's lesson 9 shows what leaving such documents out" in warning
    assert "(the condensed list) does to NDCG.), so an example is shown instead." in warning
