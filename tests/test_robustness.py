"""Bad and hostile input: every case in docs/robustness.md, run through the real app with AppTest.

Each case checks three things: no traceback (``at.exception`` is empty), a clear message that names the
problem (an ``st.error``/``st.warning`` whose text contains it), and that what the student had built is
still there (the canonical state and the numbers on screen are the last valid ones).
"""

from __future__ import annotations

import math

import pytest

import ndcg_core
from tests.conftest import run_page
from ui import state as playground_state
from ui.widgets import plain

EXAMPLE_GRADES = (3.0, 1.0, 2.0, 0.0, 2.0)  # 000_0bdd5abdb117b00b.txt, the Playground's start
EXAMPLE_NDCG = ndcg_core.evaluate(list(EXAMPLE_GRADES)).ndcg  # exponential gain, log2, whole list: 0.9508


# --- helpers --------------------------------------------------------------------------------------------------

def messages(at) -> str:
    """All error and warning text on the page, lower-cased (what the student reads)."""
    return " ".join(element.value for element in [*at.error, *at.warning]).lower()


def shown_metric(at, name: str) -> float:
    """The number on the metric card whose label starts with ``name`` (e.g. 'NDCG')."""
    cards = [metric for metric in at.metric if metric.label.split("@")[0] == name]
    assert cards, f"no {name} card on the page"
    return float(cards[0].value)


def ranking(at) -> playground_state.Ranking:
    return at.session_state[playground_state.RANKING_KEY].ranking


def assert_clean(at) -> None:
    assert not at.exception, [exception.value for exception in at.exception]


def assert_example_kept(at) -> None:
    """The Playground still shows the example list and its NDCG."""
    assert ranking(at).grades == EXAMPLE_GRADES
    assert shown_metric(at, "NDCG") == pytest.approx(EXAMPLE_NDCG, abs=5e-5)


def open_playground(query_params: dict | None = None):
    """The Playground is the app's default page: running app.py shows it with the real sidebar.

    (``run_page("playground")`` switches pages inside AppTest, which runs the page without app.py's sidebar.)
    """
    return run_page(None, query_params=query_params)


def edit_playground(at, delta: dict):
    """Send a data-editor edit ({edited_rows, added_rows, deleted_rows}) to the Playground's ranking editor."""
    state = at.session_state  # AppTest's session state has no .get()
    revision = state[playground_state.RANKING_KEY].revision
    full = {"edited_rows": {}, "added_rows": [], "deleted_rows": [], **delta}
    at.session_state[f"playground_editor_{revision}"] = full
    return at.run()


@pytest.fixture
def playground():
    at = open_playground()
    assert_clean(at)
    assert_example_kept(at)
    return at


# --- grades typed into the Playground's editor --------------------------------------------------------------------

@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("abc", "not a number"),
        ("", "blank"),
        (None, "blank"),
        (-1, "negative"),
        (float("nan"), "nan"),
        (float("inf"), "infinite"),
        (float("-inf"), "infinite"),
        (1e6, "too large"),
        (1e300, "too large"),
    ],
    ids=["non-numeric", "blank", "cleared", "negative", "nan", "infinite", "minus-infinite", "huge", "huge-1e300"],
)
def test_bad_grade_is_refused_and_the_list_kept(playground, typed, expected):
    at = edit_playground(playground, {"edited_rows": {"1": {"Grade": typed}}})
    assert_clean(at)
    assert expected in messages(at)
    # Says which row (the engine's overflow message names the grade itself instead).
    assert "rank 2" in messages(at) or f"grade {typed:g}" in messages(at)
    assert_example_kept(at)


def test_fractional_grade_is_accepted(playground):
    at = edit_playground(playground, {"edited_rows": {"1": {"Grade": 1.5}}})
    assert_clean(at)
    assert ranking(at).grades == (3.0, 1.5, 2.0, 0.0, 2.0)
    assert shown_metric(at, "NDCG") == pytest.approx(ndcg_core.evaluate([3, 1.5, 2, 0, 2]).ndcg, abs=5e-5)


@pytest.mark.parametrize("gain", ["linear", "exponential"])
def test_huge_grade_with_each_gain(gain):
    """1e6 is fine with linear gain (NDCG from ndcg_core) but overflows 2^g - 1: refused with a reason."""
    at = open_playground({"gain": gain})
    at = edit_playground(at, {"edited_rows": {"0": {"Grade": 1e6}}})
    assert_clean(at)
    if gain == "linear":
        grades = [1e6, 1, 2, 0, 2]
        assert ranking(at).grades == tuple(float(g) for g in grades)
        assert shown_metric(at, "NDCG") == pytest.approx(ndcg_core.evaluate(grades, gain="linear").ndcg, abs=5e-5)
    else:
        assert "too large" in messages(at)
        assert_example_kept(at)


def test_huge_grade_with_custom_gain_is_missing_from_the_table():
    at = open_playground({"gain": "custom", "gt": "0:0,1:1,2:3,3:7"})
    assert_clean(at)
    at = edit_playground(at, {"edited_rows": {"0": {"Grade": 1e6}}})
    assert_clean(at)
    assert "missing from the gain table" in messages(at)
    assert ranking(at).grades == EXAMPLE_GRADES


def test_grade_missing_from_custom_gain_table_in_a_link_is_explained():
    """The example list has grades 2 and 3; a link whose gain table only knows 0 and 1 must not crash."""
    at = open_playground({"gain": "custom", "gt": "0:0,1:1"})
    assert_clean(at)
    assert "gain table" in messages(at)


def test_gain_table_edited_to_drop_a_used_grade_is_explained():
    """Sidebar: custom gain, then delete the rows for grades 2 and 3 while the list still uses them."""
    at = open_playground({"gain": "custom"})
    assert_clean(at)
    at.session_state["settings_gain_table"] = {"edited_rows": {}, "added_rows": [], "deleted_rows": [2, 3]}
    at.run()
    assert_clean(at)
    assert "gain table" in messages(at)
    assert ranking(at).grades == EXAMPLE_GRADES


def test_gain_table_with_a_non_numeric_gain_is_refused():
    at = open_playground({"gain": "custom"})
    at.session_state["settings_gain_table"] = {"edited_rows": {"1": {"gain": "two"}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert_clean(at)
    assert "gain table" in messages(at)
    assert dict(at.session_state["settings"].gain_table)[1.0] == 1.0


@pytest.mark.parametrize(("edit", "needle"), [
    ({"1": {"grade": "-1"}}, "row 2: grade -1 is negative"),
    ({"1": {"gain": "2,5"}}, "row 2: “2,5” has a decimal comma. type a decimal point: 2\\.5."),
    ({"2": {"gain": " "}}, "every row of the gain table needs both a grade and a gain"),
])
def test_gain_table_cells_are_read_or_refused_by_name(edit, needle):
    """The gain table's cells are text read by ui.cells: a number column dropped "-1" and "2,5" without a word."""
    at = open_playground({"gain": "custom"})
    assert at.dataframe(key="settings_gain_table").value["gain"].tolist() == ["0", "1", "3", "7", "15"]  # exact text
    at.session_state["settings_gain_table"] = {"edited_rows": edit, "added_rows": [], "deleted_rows": []}
    at.run()
    assert_clean(at)
    assert needle in messages(at)
    assert at.session_state["settings"].gain_table == ((0.0, 0.0), (1.0, 1.0), (2.0, 3.0), (3.0, 7.0), (4.0, 15.0))  # kept


def test_a_gain_typed_into_the_gain_table_is_used():
    at = open_playground({"gain": "custom"})
    at.session_state["settings_gain_table"] = {"edited_rows": {"3": {"gain": " 1.5e1 "}}, "added_rows": [],
                                               "deleted_rows": []}
    at.run()
    assert_clean(at)
    assert dict(at.session_state["settings"].gain_table)[3.0] == 15.0
    # The example list D1..D5 has grades 3, 1, 2, 0, 2: gains 15, 1, 3, 0, 3 over log2(rank + 1).
    dcg = 15 + 1 / math.log2(3) + 3 / 2 + 0 + 3 / math.log2(6)
    idcg = 15 + 3 / math.log2(3) + 3 / 2 + 1 / math.log2(5)
    assert shown_metric(at, "NDCG") == round(dcg / idcg, 4) == 0.9717


def test_empty_list_is_refused(playground):
    at = edit_playground(playground, {"deleted_rows": [0, 1, 2, 3, 4]})
    assert_clean(at)
    assert "empty" in messages(at)
    assert_example_kept(at)


def test_one_item_list_works(playground):
    at = edit_playground(playground, {"deleted_rows": [1, 2, 3, 4]})
    assert_clean(at)
    assert ranking(at).grades == (3.0,)
    assert shown_metric(at, "NDCG") == pytest.approx(1.0)
    assert shown_metric(at, "DCG") == pytest.approx(7.0)  # (2^3 - 1) / log2(2)


def test_one_irrelevant_item_follows_the_zero_idcg_rule(playground):
    at = edit_playground(playground, {"deleted_rows": [0, 1, 2, 4]})  # keeps D4 with grade 0
    assert_clean(at)
    assert ranking(at).grades == (0.0,)
    assert shown_metric(at, "NDCG") == pytest.approx(0.0)  # default rule: IDCG = 0 -> NDCG 0


def test_duplicate_document_names_are_kept_apart(playground):
    at = edit_playground(playground, {"edited_rows": {"1": {"Document": "D1"}}})
    assert_clean(at)
    assert ranking(at).names == ("D1", "D1", "D3", "D4", "D5")
    assert ranking(at).grades == EXAMPLE_GRADES
    assert shown_metric(at, "NDCG") == pytest.approx(EXAMPLE_NDCG, abs=5e-5)


def test_added_row_with_a_bad_grade_is_refused(playground):
    at = edit_playground(playground, {"added_rows": [{"Document": "D6", "Grade": "lots"}]})
    assert_clean(at)
    assert "not a number" in messages(at)
    assert_example_kept(at)


def test_a_valid_edit_after_a_refused_one_applies(playground):
    at = edit_playground(playground, {"edited_rows": {"1": {"Grade": "abc"}}})
    at = edit_playground(at, {"edited_rows": {"1": {"Grade": 4}}})
    assert_clean(at)
    assert ranking(at).grades == (3.0, 4.0, 2.0, 0.0, 2.0)
    assert shown_metric(at, "NDCG") == pytest.approx(ndcg_core.evaluate([3, 4, 2, 0, 2]).ndcg, abs=5e-5)


def test_ten_thousand_documents_stay_usable(playground):
    grades = [float(i % 5) for i in range(10_000)]
    big = playground_state.make_ranking([f"doc{i}" for i in range(10_000)], grades)
    playground.session_state[playground_state.RANKING_KEY] = playground_state.PlaygroundState.of(big)
    at = playground.run(timeout=60)
    assert_clean(at)
    assert shown_metric(at, "NDCG") == pytest.approx(ndcg_core.evaluate(grades).ndcg, abs=5e-5)
    # Still editable: an order button and an edit both work on the long list.
    at.button(key="playground_reverse").click().run(timeout=60)
    assert_clean(at)
    assert ranking(at).grades[0] == grades[-1]
    at = edit_playground(at, {"edited_rows": {"0": {"Grade": "x"}}})
    assert_clean(at)
    assert "not a number" in messages(at)


# --- cutoff k -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("k", ["0", "-3", "1.5", "abc", "999999999", "1e3", " 3"])
def test_malformed_k_in_the_link_falls_back_with_a_warning(k):
    at = open_playground({"k": k})
    assert_clean(at)
    assert "k could not be read" in messages(at)
    assert at.session_state["settings"].k is None
    assert_example_kept(at)


def test_k_far_past_the_list_counts_the_whole_list():
    at = open_playground({"k": "1000"})
    assert_clean(at)
    assert at.session_state["settings"].k == 1000
    assert shown_metric(at, "NDCG") == pytest.approx(EXAMPLE_NDCG, abs=5e-5)


@pytest.mark.parametrize(("k", "cutoff"), [(0, None), (-3, None), (1.5, 1)])
def test_out_of_range_k_sent_by_a_hostile_client_does_not_crash(playground, k, cutoff):
    """The browser's number box enforces 1 ≤ k; a crafted websocket message can still send anything."""
    playground.number_input(key="settings_k").set_value(3).run()
    assert playground.session_state["settings"].k == 3  # from here, a change shows the value was delivered
    playground.number_input(key="settings_k").set_value(k)
    at = playground.run()
    assert_clean(at)
    # Below 1 means no cutoff (the whole list); a fraction is cut to whole documents.
    assert at.session_state["settings"].k == cutoff
    assert ranking(at).grades == EXAMPLE_GRADES
    assert shown_metric(at, "NDCG") == pytest.approx(ndcg_core.evaluate(list(EXAMPLE_GRADES), k=cutoff).ndcg, abs=5e-5)


# --- URL parameters -----------------------------------------------------------------------------------------------

LONG = "D:1," * 20_000

@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"docs": "A:x"}, "document list could not be used"),
        ({"docs": "D1:3,D2:"}, "document list could not be used"),  # truncated
        ({"docs": "D1:3,D2"}, "document list could not be used"),  # truncated mid-pair
        ({"docs": "D1:3:4"}, "document list could not be used"),
        ({"docs": ""}, "document list could not be used"),
        ({"docs": ":3"}, "document list could not be used"),  # empty name
        ({"docs": "A:-1"}, "document list could not be used"),
        ({"docs": "A:nan"}, "document list could not be used"),
        ({"docs": "A:inf"}, "document list could not be used"),
        ({"docs": "A:2000"}, "too large for exponential gain"),  # the list is kept; the error names the sidebar
        ({"docs": LONG}, "document list could not be used"),  # oversized
        ({"docs": ",".join(f"d{i}:1" for i in range(1_001))}, "document list could not be used"),
        ({"docs": "D1:3", "extra": "D7:x"}, "document list could not be used"),
        ({"docs": "%ZZ%:1,%00:2"}, None),  # odd percent-escapes decode to odd (but valid) names
        ({"gain": "bogus"}, "gain could not be read"),
        ({"gain": "custom", "gt": "1:2,x"}, "gain table could not be read"),
        ({"gain": "custom", "gt": "0:0," * 2_000}, "gain table could not be read"),
        ({"gain": "custom", "gt": "0:5,1:1,2:3,3:7"}, "gain table was refused"),  # not monotone: read, refused
        ({"base": "7"}, "log base could not be read"),
        ({"base": ""}, "log base could not be read"),
        ({"z": "<script>"}, "“ndcg when idcg = 0” rule could not be read"),
        ({"gain": "x" * 100_000}, "gain could not be read"),
    ],
    ids=[
        "grade-not-number", "truncated-grade", "truncated-pair", "too-many-colons", "empty", "empty-name",
        "negative", "nan", "inf", "overflow", "oversized", "too-many-documents", "bad-extra", "odd-escapes",
        "gain", "gain-table", "gain-table-oversized", "gain-table-not-monotone", "base", "base-empty", "zero-rule",
        "gain-oversized",
    ],
)
def test_malformed_link_falls_back_with_a_warning(params, expected):
    at = open_playground(params)
    assert_clean(at)
    if expected is None:
        assert len(ranking(at).names) == 2
        return
    assert expected in messages(at)
    if ("docs" in params or "extra" in params) and "could not be used" in expected:
        assert_example_kept(at)


def test_valid_link_restores_the_list():
    at = open_playground({"docs": "a%2Cb:1,c:0", "extra": "z:3", "gain": "linear", "k": "2"})
    assert_clean(at)
    assert not messages(at)
    assert ranking(at).names == ("a,b", "c")
    assert ranking(at).extra_grades == (3.0,)
    expected = ndcg_core.evaluate([1, 0], ideal_relevances=[1, 0, 3], gain="linear", k=2)
    assert shown_metric(at, "NDCG") == pytest.approx(expected.ndcg, abs=5e-5)


# --- hostile text is kept as text --------------------------------------------------------------------------------

HOSTILE_NAMES = ("<img src=x onerror=alert(1)>", "**bold** [link](javascript:alert(1))", "$\\frac{1}{0}$", "' OR 1=1 --")


def test_hostile_names_survive_a_link_unchanged():
    from urllib.parse import quote

    docs = ",".join(f"{quote(name, safe='')}:{grade:g}" for name, grade in zip(HOSTILE_NAMES, (3, 2, 1, 0), strict=True))
    at = open_playground({"docs": docs})
    assert_clean(at)
    assert ranking(at).names == HOSTILE_NAMES
    # Nothing on the page renders a name through markdown or HTML. The link's view quotes no name, so each row gets
    # a refused grade: the error (an element that renders markdown) names the row by its name, escaped.
    for row, name in enumerate(HOSTILE_NAMES):
        refused = edit_playground(at, {"edited_rows": {str(row): {"Grade": -1}}})
        assert_clean(refused)
        rendered = [element.value for element in [*at.markdown, *at.caption, *at.error, *at.warning, *at.info]]
        assert any(plain(name) in text for text in rendered), (name, rendered)
        if plain(name) != name:  # the apostrophe and dashes of the last name are not markdown
            assert not any(name in text for text in rendered), "a document name reached a markdown element raw"
        assert ranking(at).names == HOSTILE_NAMES  # the refused edit changed nothing


@pytest.mark.parametrize("docs", ["[x](//evil.example/a)", "**bold**", "A:**2**"])
def test_text_from_a_malformed_link_is_not_markdown_in_the_warning(docs):
    at = open_playground({"docs": docs})
    assert_clean(at)
    warning = " ".join(element.value for element in at.warning)
    assert "could not be used" in warning
    assert "](" not in warning.replace("\\](", "") and "**" not in warning.replace("\\*\\*", "")


def test_gain_table_is_parsed_as_numbers_only():
    """A link's gain table is numbers only: expressions are refused, never evaluated."""
    for table in ("0:0,1:2**10,2:3,3:7", "0:0,1:__import__('os'),2:3,3:7", "0:0,1:1e3,2:2e3,3:3e3"):
        at = open_playground({"gain": "custom", "gt": table})
        assert_clean(at)
        if table.endswith("3e3"):
            assert dict(at.session_state["settings"].gain_table)[1.0] == 1000.0
        else:
            assert "gain table could not be read" in messages(at)


def test_nan_and_inf_never_reach_the_cards(playground):
    for typed, why in ((float("nan"), "the grade is missing"), (float("inf"), "the grade is infinite")):
        at = edit_playground(playground, {"edited_rows": {"0": {"Grade": typed}}})
        assert_clean(at)
        assert why in messages(at)  # refused, and said so
        for card in at.metric:
            assert card.value != "n/a" and math.isfinite(float(card.value))
        assert shown_metric(at, "NDCG") == pytest.approx(EXAMPLE_NDCG, abs=5e-5)  # the last valid ranking's
