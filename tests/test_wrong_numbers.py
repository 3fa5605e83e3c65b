"""The two wrong numbers of issue 11, under every tie rule (AppTest on the real pages).

1. Dataset → "Open query in the Playground": the opened list shows the Dataset row's NDCG.
2. Compare and Conventions validate grades under the sidebar's gain: 1100 is fine under linear gain.
"""

from __future__ import annotations

import math
import re

import pytest

import ndcg_core
from tests.conftest import run_page
from tests.test_conventions_page import libraries_table
from ui.settings import WIDGETS
from ui.widgets import isolated, plain

LOG2 = math.log2
TABLE = b"query,doc,relevance,score\nq,a,0,1\nq,b,3,1\nq,c,1,0.5\n"
IDCG = 3 + 1 / LOG2(3)  # ideal [3, 1, 0], linear gain
BY_RULE = {  # NDCG of the run a, b, c (scores 1, 1, 0.5; grades 0, 3, 1), derived by hand
    "optimistic": (3 + 1 / 2) / IDCG,  # 0.9639
    "average": (1.5 + 1.5 / LOG2(3) + 1 / 2) / IDCG,  # 0.8115
    "pessimistic": (3 / LOG2(3) + 1 / 2) / IDCG,  # 0.6590
    "stable": (3 / LOG2(3) + 1 / 2) / IDCG,
    "trec_eval": (3 + 1 / 2) / IDCG,  # b before a: document id descending
}


@pytest.mark.parametrize("ties", ndcg_core.TIE_RULES)
def test_dataset_row_and_opened_playground_agree(ties):
    at = run_page("dataset", query_params={"gain": "linear"})
    at.radio(key="dataset_source").set_value("csv").run()
    at.file_uploader(key="dataset_csv_files").set_value(("tiny.csv", TABLE, "text/csv"))
    at.run()
    at.selectbox(key="dataset_ties").set_value(ties).run()
    assert not at.exception, at.exception
    expected = f"{BY_RULE[ties]:.4f}"
    assert f"Query q: NDCG = {expected}" in " ".join(t.value for t in at.text)
    at.button(key="dataset_open").click().run()
    assert not at.exception, at.exception
    cards = {metric.label: metric.value for metric in at.metric}
    assert cards.get("NDCG") == expected, cards  # the Playground's card, after the switch
    ranking = at.session_state["playground"].ranking
    assert (ranking.tie_groups is not None) == (ties == "average")
    if ties == "average":
        assert any(f"Tied scores in the run: {isolated('a')}, {isolated('b')}" in info.value for info in at.info)


def _opened_averaged():
    """The run a, b, c opened in the Playground from the Dataset page under "Average of the tie" (linear gain)."""
    at = run_page("dataset", query_params={"gain": "linear"})
    at.radio(key="dataset_source").set_value("csv").run()
    at.file_uploader(key="dataset_csv_files").set_value(("tiny.csv", TABLE, "text/csv"))
    at.run()
    at.selectbox(key="dataset_ties").set_value("average").run()
    at.button(key="dataset_open").click().run()
    at.switch_page("pages/playground.py").run()  # AppTest's next run would go back to the Dataset page
    return at


def test_the_opened_lists_formula_shows_the_shared_gains_it_adds_up():
    """Under "Average of the tie" the formula's DCG line showed each document's own gain, 0 + 3/log2(3) + 1/2
    (2.3928), and ended "= 2.9464", the total of the averaged gains 1.5, 1.5 and 1 (found by an exploratory pass)."""
    at = _opened_averaged()
    dcg = 1.5 + 1.5 / LOG2(3) + 1 / 2  # by hand: a and b share (0 + 3) / 2
    (line,) = [f.value.strip("$\n") for f in at.latex if f.value.strip("$\n").startswith("DCG@3 =")]
    assert line.endswith(f"= {dcg:.4f}"), line
    numerators = re.findall(r"\\frac\{([^{}]*)\}", line)
    assert numerators == ["1.5000", "1.5000", "1"], line  # a, b: the shared gain; c, not tied: its own grade
    assert sum(n / LOG2(i + 2) for i, n in enumerate([1.5, 1.5, 1.0])) == pytest.approx(dcg)
    assert any("share the mean of their gains" in caption.value for caption in at.caption)


def test_playground_drops_the_averaging_after_a_move():
    at = _opened_averaged()
    assert {m.label: m.value for m in at.metric}["NDCG"] == f"{BY_RULE['average']:.4f}"  # still averaged
    at.button(key="playground_reverse").click().run()  # c, b, a: a plain list now
    assert not at.exception, at.exception
    assert at.session_state["playground"].ranking.tie_groups is None
    plain = (1 + 3 / LOG2(3)) / IDCG
    assert {m.label: m.value for m in at.metric}["NDCG"] == f"{plain:.4f}"


EDITORS = {  # the page's grade editor (the Conventions one is keyed by its case)
    "compare": lambda at: "compare_docs_editor",
    "conventions": lambda at: f"conventions_editor_{at.selectbox(key='conventions_case').value}",
}
EDITED_ROW = {"compare": 0, "conventions": 3}  # Compare: D1 of grades 3,2,3,0,1,2,0,1; Conventions: d4 of four 2s


def _edit_grade(page: str, gain: str, grade: float):
    at = run_page(page, query_params={"gain": gain})
    edit = {EDITED_ROW[page]: {"grade": grade}}
    at.session_state[EDITORS[page](at)] = {"edited_rows": edit, "added_rows": [], "deleted_rows": []}
    return at.run()


def _shows_the_grade_1100(page: str, at) -> None:
    """The page's figures are those of the list with the grade 1100 in it (linear gain), derived by hand."""
    if page == "compare":  # both rankings hold the same eight documents: CG = 1100 + 2 + 3 + 0 + 1 + 2 + 0 + 1
        assert [m.value for m in at.metric if m.label == "CG"] == ["1109.0000", "1109.0000"]
    else:  # scored d1 > d2 > d3 > d4 with grades 2, 2, 2, 1100; the ideal puts 1100 first
        ndcg = (2 + 2 / LOG2(3) + 2 / 2 + 1100 / LOG2(5)) / (1100 + 2 / LOG2(3) + 2 / 2 + 2 / LOG2(5))  # 0.4333
        figures = libraries_table(at).value.set_index("Library")["NDCG"]
        assert figures["scikit-learn ndcg_score"] == pytest.approx(ndcg, rel=1e-12)


@pytest.mark.parametrize("page", list(EDITORS))
def test_grade_1100_is_accepted_under_linear_gain_and_refused_under_exponential(page):
    at = _edit_grade(page, "linear", 1100)
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    _shows_the_grade_1100(page, at)
    exponential = _edit_grade(page, "exponential", 1100)
    assert "too large for exponential gain" in " ".join(e.value for e in exponential.error)


def _long_query_csv(n_docs: int) -> bytes:
    """One query of ``n_docs`` retrieved documents (scores falling, no ties) with grade 3 at ranks 120 and 140 and
    grade 1 at rank 5: past rank 100, where the Playground's list used to end."""
    grades = {5: 1, 120: 3, 140: 3}
    lines = ["query,doc,relevance,score"]
    lines += [f"q,d{rank:04d},{grades.get(rank, '')},{n_docs - rank}" for rank in range(1, n_docs + 1)]
    return ("\n".join(lines) + "\n").encode()


@pytest.mark.parametrize("ties", ["trec_eval", "average"])
def test_a_query_of_150_documents_opens_with_the_rows_ndcg_without_a_cutoff(ties):
    """Linear gain, no cutoff: DCG = 1/log₂6 + 3/log₂121 + 3/log₂141, IDCG = 3 + 3/log₂3 + 1/2 (the whole list).
    Cut at 100 documents the Playground lost ranks 120 and 140 from its DCG but kept them in IDCG: 0.0717 for
    the row's 0.2301."""
    dcg = 1 / LOG2(6) + 3 / LOG2(121) + 3 / LOG2(141)
    expected = f"{dcg / (3 + 3 / LOG2(3) + 1 / 2):.4f}"
    assert expected == "0.2301"
    at = run_page("dataset", query_params={"gain": "linear"})
    at.radio(key="dataset_source").set_value("csv").run()
    at.file_uploader(key="dataset_csv_files").set_value(("long.csv", _long_query_csv(150), "text/csv"))
    at.run()
    at.selectbox(key="dataset_ties").set_value(ties).run()
    assert f"Query q: NDCG = {expected}" in " ".join(t.value for t in at.text)
    assert not [w for w in at.warning if "retrieved documents" in w.value]
    at.button(key="dataset_open").click().run()
    assert not at.exception, at.exception
    assert {metric.label: metric.value for metric in at.metric}.get("NDCG") == expected
    assert len(at.session_state["playground"].ranking.names) == 150


def test_a_query_longer_than_the_playground_takes_says_its_figure_will_differ():
    at = run_page("dataset", query_params={"gain": "linear"})
    at.radio(key="dataset_source").set_value("csv").run()
    at.file_uploader(key="dataset_csv_files").set_value(("long.csv", _long_query_csv(1_200), "text/csv"))
    at.run()
    [warning] = [w.value for w in at.warning if "retrieved documents" in w.value]
    assert warning.startswith("Query q has 1,200 retrieved documents: the Playground's NDCG counts its top 1,000 only")
    at.number_input(key=WIDGETS["k"]).set_value(1_000).run()  # with k = 1,000 the two figures are equal
    assert not [w for w in at.warning if "retrieved documents" in w.value]


def test_the_tie_note_shows_run_ids_as_they_are_written():
    """Run ids went into the tie note's markdown as they were: '*a*' and '*b*' were drawn as italic a and b."""
    at = run_page("dataset", query_params={"gain": "linear"})
    at.radio(key="dataset_source").set_value("csv").run()
    table = TABLE.replace(b"q,a,", b"q,*a*,").replace(b"q,b,", b"q,*b*,")
    at.file_uploader(key="dataset_csv_files").set_value(("stars.csv", table, "text/csv"))
    at.run()
    at.selectbox(key="dataset_ties").set_value("average").run()
    at.button(key="dataset_open").click().run()
    assert not at.exception, at.exception
    assert any(f"Tied scores in the run: {plain(isolated('*a*'))}, {plain(isolated('*b*'))}." in info.value
               for info in at.info), [info.value for info in at.info]
