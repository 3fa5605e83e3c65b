"""Worked examples page: one card per ndcg_core.WORKED_EXAMPLES entry, figures equal to ndcg_core's."""

from __future__ import annotations

import pandas as pd
import pytest

import ndcg_core
from tests.conftest import run_page
from tests.test_examples import EXPECTED as HAND_DERIVED
from ui import worked_example_cards as cards
from ui.formatting import num
from ui.messages import document_title
from ui.widgets import plain

EXAMPLES = ndcg_core.WORKED_EXAMPLES


@pytest.fixture(scope="module")
def page():
    at = run_page("worked_examples")
    assert not at.exception
    return at


def _figure_tables(at) -> list[pd.DataFrame]:
    return [table.value for table in at.table if "Reproduced here" in table.value.columns]


def test_one_card_per_worked_example_with_its_source(page):
    assert len(_figure_tables(page)) == len(EXAMPLES)
    texts = " ".join(md.value for md in page.markdown)
    for example in EXAMPLES:
        assert f"From {plain(document_title(example.source))}" in texts
        assert example.source not in texts  # the hashed file name is not a title
    metrics = {m.label: m.value for m in page.metric}
    assert metrics["Examples"] == str(len(EXAMPLES))
    assert sum(int(metrics[label]) for label, _ in cards.STATUS_BADGES.values()) == len(EXAMPLES)


def test_every_card_shows_the_figures_derived_by_hand(page):
    for example, table in zip(EXAMPLES, _figure_tables(page), strict=True):
        for _, row in table.iterrows():
            if row["Figure"] == "The document's code or text":
                continue
            key = next(k for k in cards.figure_keys(example) if cards.metric_label(k) == row["Figure"])
            exact = HAND_DERIVED[example.key][key]  # tests/test_examples.py: each figure from its formula
            shown = row["Reproduced here"]
            decimals = len(shown.split(".")[1])
            assert decimals >= 4
            assert float(shown) == pytest.approx(exact, abs=0.51 * 10**-decimals), (example.key, key)
            if key in example.stated:
                assert row["Stated in the document"] == example.stated_text[key]
                assert row["Verdict"] == cards.FIGURE_VERDICTS[example.figure_status[key]]


def test_003_card_reproduces_0785_and_errata_are_explained(page):
    tables = dict(zip((e.key for e in EXAMPLES), _figure_tables(page), strict=True))
    d7_d8 = next(e for e in EXAMPLES if e.source == "003_f44d929bf8cc7fa4.txt" and e.extra_documents)
    ndcg_row = tables[d7_d8.key].set_index("Figure").loc["NDCG"]
    assert ndcg_row["Stated in the document"] == "0.785"
    assert ndcg_row["Reproduced here"].startswith("0.785")
    errors = " ".join(e.value for e in page.error)
    for example in EXAMPLES:
        if example.status == "erratum" and example.erratum:
            assert example.erratum in errors


def test_open_in_playground_loads_the_list_and_convention():
    at = run_page("worked_examples")
    index = next(i for i, e in enumerate(EXAMPLES) if e.source == "003_f44d929bf8cc7fa4.txt" and e.extra_documents)
    at.button(key=f"example_open_{index}").click().run()
    assert not at.exception
    ndcg = next(m.value for m in at.metric if m.label.startswith("NDCG"))
    assert ndcg.startswith("0.785")
    settings = at.session_state["settings"]
    assert settings.gain == "linear" and settings.log_base == "2" and settings.k == EXAMPLES[index].k
    assert at.radio(key="settings_gain").value == "linear"


def test_walk_through_step_by_step_loads_the_example():
    at = run_page("worked_examples")
    index = next(i for i, e in enumerate(EXAMPLES) if e.key.startswith("004") and e.scores is None)
    example = EXAMPLES[index]
    at.button(key=f"example_walk_{index}").click().run()
    assert not at.exception
    assert at.session_state["step_source"] == example.key
    assert at.session_state["step_position"] == 1
    at.switch_page("pages/step_by_step.py")  # AppTest keeps its own page; the browser follows st.switch_page
    at.run()
    at.slider(key="step_position").set_value(len(example.grades)).run()
    result = example.result()
    last = result.table.iloc[-1]
    assert any(
        rf"\frac{{{num(last['cumulative_dcg'])}}}{{{num(last['cumulative_idcg'])}}} = "
        rf"{num(result.ndcg)}" in element.value
        for element in at.latex
    )


def test_filters_narrow_the_cards():
    at = run_page("worked_examples")
    at.session_state["examples_status"] = ["erratum"]
    at.run()
    assert not at.exception
    errata = [e for e in EXAMPLES if e.status == "erratum"]
    assert len(_figure_tables(at)) == len(errata)


@pytest.mark.parametrize("index", range(len(EXAMPLES)), ids=[e.key for e in EXAMPLES])
def test_every_example_opens_in_the_playground_with_its_ndcg(index):
    example = EXAMPLES[index]
    at = run_page("worked_examples")
    at.button(key=f"example_open_{index}").click().run()
    assert not at.exception
    shown = next(m.value for m in at.metric if m.label.startswith("NDCG"))
    assert shown == f"{example.result().ndcg:.4f}"


def test_a_card_with_an_erratum_badge_says_erratum_in_its_table(page):
    """Issue 12: cards carried "✗ erratum" badges while every row of their table said "✓ matches"."""
    for example, table in zip(EXAMPLES, _figure_tables(page), strict=True):
        verdicts = table["Verdict"].tolist()
        if example.status == "erratum":
            assert cards.FIGURE_VERDICTS["erratum"] in verdicts, example.key
        else:
            assert cards.FIGURE_VERDICTS["erratum"] not in verdicts, example.key


def test_a_card_whose_document_states_no_figure_is_not_counted_as_a_match():
    """'Swapped [1, 1, 0, 1, 0]: DCG@3' (Document 001 asks, gives no figure) wore '✓ matches' and was counted in the
    page's '✓ matches 8' while its table said 'not stated' and its note 'The document gives no figure here'."""
    at = run_page("worked_examples")
    counts = {m.label: m.value for m in at.metric}
    assert counts == {"Examples": "16", "✓ matches": "9", "≈ matches after rounding": "2", "✗ erratum": "4",
                      "○ no figure stated": "1"}
    heading = next(md.value for md in at.markdown if md.value.startswith("### Swapped"))
    assert heading.endswith(":gray-badge[○ no figure stated]")


def test_the_page_says_the_sidebar_settings_do_not_apply_to_its_cards():
    """Opened with linear gain, log base e, k = 3 and IDCG = 0 -> 1 in the sidebar, every card kept its document's
    convention and nothing said the sidebar changes nothing here. The cards' figures are the same whatever the
    sidebar says, and the page says so."""
    usual = run_page("worked_examples")
    other = run_page("worked_examples", query_params={"gain": "linear", "base": "e", "k": "3", "z": "one"})
    assert not other.exception
    assert [t.value.to_dict() for t in other.table] == [t.value.to_dict() for t in usual.table]
    assert any(caption.value.startswith("The sidebar's metric settings do not apply on this page: each card uses its "
                                        "own document's convention") for caption in other.caption)


def test_a_figure_the_document_prints_in_full_is_reproduced_to_the_same_digits(page):
    """Document 000 prints its code's output in full ('Worst NDCG@5:0.5664478625498256', 16 decimals). The card
    showed ndcg_core's identical float cut to 15 decimals, 0.566447862549826, beside a '✓ matches': the two numbers
    a student compares then differ in their last digits. Every reproduced figure has the printed number of decimals."""
    tables = dict(zip((e.key for e in EXAMPLES), _figure_tables(page), strict=True))
    worst = tables["000-worst"].set_index("Figure").loc["NDCG"]
    assert worst["Stated in the document"] == "0.5664478625498256"
    assert worst["Reproduced here"] == "0.5664478625498256"
    for example in EXAMPLES:
        shown = tables[example.key].set_index("Figure")
        for key, text in example.stated_text.items():
            decimals = len(text.split(".")[1]) if "." in text else 0
            reproduced = shown.loc[cards.metric_label(key), "Reproduced here"]
            assert len(reproduced.split(".")[1]) == max(decimals, 4), (example.key, key, reproduced)


def test_000_worst_and_best_cards_badge_their_figure_and_keep_the_codes_erratum_in_words(page):
    """Document 000's 'Worst order' and 'Best order' cards wore a red "✗ erratum" badge, and a "✗ erratum" row in
    their figures table, though their printed figures are right: NDCG@5 = 0.5664478625498256 for [0, 1, 2, 2, 3]
    and 1.0 for [3, 2, 2, 1, 0] (natural log, 2^grade − 1), both reproduced exactly. The erratum is about the
    document's code (``sorted(dataset)`` sorts the one-list dataset, not its grades, so the code prints 0.9508 for
    both). The badge now describes the card's figure ("✓ matches"), and the code's erratum is still said on the
    card, in a box headed as the code's, not the figure's (helper-75)."""
    tables = dict(zip((e.key for e in EXAMPLES), _figure_tables(page), strict=True))
    headings = [md.value for md in page.markdown if md.value.startswith("### ")]
    warnings = [w.value for w in page.warning]
    for key, title, printed in (("000-worst", "### Worst order", "0.5664478625498256"),
                                ("000-best", "### Best order", "1.0")):
        table = tables[key]
        assert table["Verdict"].tolist() == ["✓ matches"]
        assert table.set_index("Figure").loc["NDCG", "Stated in the document"] == printed
        heading = next(text for text in headings if text.startswith(title))
        assert heading.endswith(":green-badge[✓ matches]"), heading
        assert "✗ erratum" not in heading
    code_notes = [text for text in warnings if text.startswith("**In the document's code, not in this figure.**")]
    assert len(code_notes) == 2 and all("sorted(dataset)" in text and "0.9508" in text for text in code_notes)
    counts = {m.label: m.value for m in page.metric}
    assert (counts["✓ matches"], counts["✗ erratum"]) == ("9", "4")
