"""Issue 13 on the pages that need it: the tie band (Library conventions, Playground), unjudged documents (Dataset
page, lesson 9, ``ndcg_core.incomplete_run``) and "Does my choice flip the winner?" (Compare rankers).

Expected figures are derived by hand from the formula, from scikit-learn, or from the core function the section
calls (checked here against an independent route where one exists).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import settings as st_settings
from hypothesis.strategies import data as st_data
from hypothesis.strategies import integers, lists, sampled_from
from sklearn.metrics import ndcg_score

import ndcg_core
from tests.conftest import (
    assert_ties_example_linear_band,
    band_chart,
    band_rows,
    chart_specs,
    hand_dcg,
    is_band,
    run_page,
)
from ui import dataset_state, state
from ui.dataset_upload import LoadedDataset

DATA = Path(__file__).resolve().parents[1] / "data"
QRELS, BM25, NEURAL = (DATA / name for name in ("sample.qrels", "run_bm25.txt", "run_neural.txt"))
LOG2 = np.log2


def exp_gains(grades) -> list[float]:
    return [2.0**g - 1 for g in grades]


# --- incomplete_run (core) -------------------------------------------------------------------------------------

def test_incomplete_run_by_hand():
    """Ranking x(?), a(3), y(?), b(1), c(0); judged also d(2). Linear gain, k = 3.

    Usual: DCG = 3/log2(3); condensed list a, b, c: DCG = 3 + 1/log2(3); IDCG = 3 + 2/log2(3) + 1/2.
    Top grade: x and y judged 3, ranking 3, 3, 3 over ideal 3, 3, 3: NDCG 1. Judged@3 = 1/3.
    """
    run = pd.DataFrame({"query": "q", "doc": ["x", "a", "y", "b", "c"], "score": [5, 4, 3, 2, 1]})
    qrels = pd.DataFrame({"query": "q", "doc": ["a", "b", "c", "d"], "relevance": [3, 1, 0, 2]})
    row = ndcg_core.incomplete_run(run, qrels, k=3, gain="linear").loc["q"]
    idcg = 3 + 2 / LOG2(3) + 0.5
    assert row["standard"] == pytest.approx((3 / LOG2(3)) / idcg)
    assert row["condensed"] == pytest.approx((3 + 1 / LOG2(3)) / idcg)
    assert row["upper"] == pytest.approx(1.0)
    assert row["judged_at_k"] == pytest.approx(1 / 3)
    # the one-table (CSV) form gives the same figures
    table = pd.concat([run.assign(relevance=[np.nan, 3, np.nan, 1, 0]),
                       pd.DataFrame({"query": ["q"], "doc": ["d"], "score": [np.nan], "relevance": [2.0]})])
    again = ndcg_core.incomplete_run(table, None, k=3, gain="linear").loc["q"]
    np.testing.assert_allclose(again[["standard", "condensed", "upper", "judged_at_k"]].to_numpy(dtype=float),
                               row[["standard", "condensed", "upper", "judged_at_k"]].to_numpy(dtype=float))


@pytest.mark.parametrize("options", [{"k": 10, "gain": "exponential", "ties": "trec_eval"},
                                     {"k": None, "gain": "linear", "ties": "average"},
                                     {"k": 5, "gain": "linear", "ties": "pessimistic", "zero_idcg": "one"}])
def test_incomplete_run_equals_incomplete_judgments_query_by_query(options):
    run, qrels = ndcg_core.read_run(NEURAL), ndcg_core.read_qrels(QRELS)
    table = ndcg_core.incomplete_run(run, qrels, **options)
    encoded = ndcg_core.encode_run(run, qrels)
    ties = "stable" if options["ties"] == "trec_eval" else options["ties"]  # the list already is in trec_eval order
    for query in table.index:
        listed = ndcg_core.ranked_query(encoded, query=query, ties=options["ties"])
        marks = [grade if judged else None for grade, judged in zip(listed.grades, listed.judged, strict=True)]
        one = ndcg_core.incomplete_judgments(
            marks, listed.values, ties=ties, k=options["k"], gain=options["gain"],
            zero_idcg=options.get("zero_idcg", "zero"),
            ideal_relevances=np.r_[listed.grades[listed.judged], listed.extra_grades])
        got = table.loc[query]
        np.testing.assert_allclose([got["standard"], got["condensed"], got["upper"], got["judged_at_k"]],
                                   [one.standard, one.condensed, one.upper, one.judged_at_k], atol=1e-12)


@pytest.mark.parametrize("dtype", ["category", "str", "object", "int64"])
def test_incomplete_run_is_the_same_for_every_id_dtype(dtype):
    """Query 1: doc 7 judged 2, docs 8 and 9 unjudged; query 2: nothing judged (left out, as by evaluate_run);
    query 3: judged only, one judgment not retrieved. Linear gain, k = 2. Worked by hand:

    query 1: standard 2/2 = 1 (IDCG 2 from the one judgment), condensed 1, upper: 7, 8, 9 all at 2 over the
    ideal 2, 2, 2: 1; judged@2 = 1/2. Query 3: ranking 10 (grade 1), 11 (grade 3), judged 12 (grade 2): DCG
    1 + 3/log2 3 = 2.8928, IDCG 3 + 2/log2 3 = 4.2619, NDCG 0.6788 for all three figures; judged@2 = 1.
    """
    run = pd.DataFrame({"query": [1, 1, 1, 2, 2, 3, 3], "doc": [7, 8, 9, 20, 21, 10, 11],
                        "score": [3.0, 2.0, 1.0, 2.0, 1.0, 2.0, 1.0]})
    qrels = pd.DataFrame({"query": [1, 3, 3, 3], "doc": [7, 10, 11, 12], "relevance": [2, 1, 3, 2]})
    typed = {"category": lambda s: s.astype(str).astype("category"), "str": lambda s: s.astype(str),
             "object": lambda s: s.astype(str).astype(object), "int64": lambda s: s.astype("int64")}[dtype]
    run, qrels = (frame.assign(query=typed(frame["query"]), doc=typed(frame["doc"])) for frame in (run, qrels))
    table = ndcg_core.incomplete_run(run, qrels, k=2, gain="linear")
    table.index = table.index.astype(str)
    assert table.loc["1", ["standard", "condensed", "upper"]].tolist() == pytest.approx([1.0, 1.0, 1.0])
    assert table.index.tolist() == ["1", "3"]
    assert table["judged_at_k"].tolist() == [0.5, 1.0]
    expected = (1 + 3 / LOG2(3)) / (3 + 2 / LOG2(3))
    assert table.loc["3", ["standard", "condensed", "upper"]].tolist() == pytest.approx([expected] * 3)


def _incomplete_by_data_frames(run: pd.DataFrame, qrels: pd.DataFrame, options: dict) -> pd.DataFrame:
    """The condensed and top-grade figures the plain way: edit the DataFrames, evaluate them again."""
    judged_pairs = pd.MultiIndex.from_frame(qrels[["query", "doc"]])
    unjudged = ~pd.MultiIndex.from_frame(run[["query", "doc"]]).isin(judged_pairs)
    standard = ndcg_core.evaluate_run(run, qrels, **options).per_query
    kept = run[~unjudged]
    condensed = (ndcg_core.evaluate_run(kept, qrels, **options).per_query["ndcg"] if len(kept)
                 else pd.Series(dtype=float))
    highest = qrels.groupby("query")["relevance"].max()
    highest = highest.where(highest > 0, 1.0)
    added = run.loc[unjudged, ["query", "doc"]].assign(
        relevance=lambda frame: highest.reindex(frame["query"]).fillna(1.0).to_numpy())
    upper = ndcg_core.evaluate_run(run, pd.concat([qrels, added], ignore_index=True), **options).per_query["ndcg"]
    condensed = condensed.reindex(standard.index)
    empty = standard["n_judged_retrieved"] == 0  # an empty condensed list: DCG 0 (trec_eval -J's 0)
    condensed[empty] = np.where(standard.loc[empty, "idcg"] > 0, 0.0, standard.loc[empty, "ndcg"])
    return pd.DataFrame({"standard": standard["ndcg"], "condensed": condensed,
                         "upper": upper.reindex(standard.index)}, index=standard.index)


@st_settings(max_examples=150, deadline=None)
@given(data=st_data())
def test_incomplete_run_equals_editing_the_frames(data):
    """Random runs with ties, unjudged rows, judged documents the run lacks and queries with no judgment, under
    every tie rule, cutoff, gain, zero-IDCG and missing-query rule: the figures derived from the encoded run equal
    evaluating the edited DataFrames (unjudged rows dropped; unjudged rows judged at the query's top grade)."""
    n_queries = data.draw(integers(1, 4))
    run_rows, judgment_rows = [], []
    for q in range(n_queries):
        docs = data.draw(lists(integers(0, 7), min_size=1, max_size=6, unique=True))
        for doc in docs:
            run_rows.append((f"q{q}", f"d{doc}", float(data.draw(integers(0, 3)))))
        judged = data.draw(lists(integers(0, 9), max_size=6, unique=True))
        judgment_rows += [(f"q{q}", f"d{doc}", float(data.draw(integers(0, 3)))) for doc in judged]
    judgment_rows.append(("q0", "d0", 1.0) if not judgment_rows else judgment_rows[0])
    run = pd.DataFrame(run_rows, columns=["query", "doc", "score"])
    qrels = pd.DataFrame(judgment_rows, columns=["query", "doc", "relevance"]).drop_duplicates(["query", "doc"])
    options = {"k": data.draw(sampled_from([None, 1, 3])),
               "ties": data.draw(sampled_from(["trec_eval", "average", "optimistic", "pessimistic", "stable"])),
               "gain": data.draw(sampled_from(["linear", "exponential"])),
               "zero_idcg": data.draw(sampled_from(["zero", "one", "skip"])),
               "missing": data.draw(sampled_from(["ignore", "zero"]))}
    expected = _incomplete_by_data_frames(run, qrels, options)
    for given_run in (run, ndcg_core.encode_run(run, qrels)):
        got = ndcg_core.incomplete_run(given_run, None if isinstance(given_run, ndcg_core.EncodedRun) else qrels,
                                       **options)
        pd.testing.assert_frame_equal(got[["standard", "condensed", "upper"]], expected, check_exact=False,
                                      rtol=0, atol=1e-12, check_index_type=False)


def test_incomplete_run_refuses_qrels_next_to_an_encoded_run():
    run = pd.DataFrame({"query": "q", "doc": ["a", "b"], "score": [2.0, 1.0]})
    qrels = pd.DataFrame({"query": "q", "doc": ["a"], "relevance": [1]})
    with pytest.raises(ndcg_core.InvalidInput, match="already holds its judgments"):
        ndcg_core.incomplete_run(ndcg_core.encode_run(run, qrels), qrels)


def test_incomplete_run_without_unjudged_documents_condensed_equals_usual():
    run, qrels = ndcg_core.read_run(BM25), ndcg_core.read_qrels(QRELS)
    judged = run[pd.MultiIndex.from_frame(run[["query", "doc"]].astype(str)).isin(
            pd.MultiIndex.from_frame(qrels[["query", "doc"]].astype(str)))]
    table = ndcg_core.incomplete_run(judged, qrels, k=10)
    np.testing.assert_allclose(table["condensed"], table["standard"])
    assert (table["judged_at_k"] == 1).all() and (table["n_unjudged_in_cutoff"] == 0).all()


# --- Dataset page ---------------------------------------------------------------------------------------------

def test_dataset_page_shows_unjudged_figures_overall_and_per_query():
    at = run_page("dataset", timeout=60)  # no cutoff: the sample's BM25 run has unjudged documents below rank 10
    assert not at.exception, at.exception
    run, qrels = ndcg_core.read_run(BM25), ndcg_core.read_qrels(QRELS)
    table = ndcg_core.incomplete_run(run, qrels, ties="trec_eval")
    cards = {m.label: m.value for m in at.metric}
    standard = ndcg_core.evaluate_run(run, qrels).mean_ndcg
    assert cards["Mean NDCG, unjudged = 0"] == f"{standard:.4f}" == cards["Mean of per-query NDCG"]
    assert cards["Condensed list"] == f"{table['condensed'].mean():.4f}"
    assert cards["Unjudged at top grade"] == f"{table['upper'].mean():.4f}"
    assert cards["Judged"] == f"{table['judged_at_k'].mean():.0%}"  # no cutoff: not "Judged@k"
    affected = int((table["n_unjudged_in_cutoff"] > 0).sum())
    assert affected > 0
    sentence = next(t.value for t in at.text if t.value.startswith(f"{affected} of {len(table)} queries have "
                                                                  "unjudged documents in the whole ranking"))
    # Queries 417 and 452 have no relevant judgment: their third figure judges the unjudged at grade 1, and says so.
    assert table.loc[["417", "452"], "upper"].gt(0).all()
    assert "grade 1 for a query with no relevant judgment" in sentence
    shown = next(df.value for df in at.dataframe if "condensed" in df.value.columns).set_index("query")
    assert len(shown) == min(affected, 100)
    np.testing.assert_allclose(shown["condensed"], table.loc[shown.index, "condensed"])
    picked = at.session_state["dataset_query"]
    row = table.loc[picked]
    assert any(t.value == f"Query {picked}: usual {row['standard']:.4f}, condensed {row['condensed']:.4f}, unjudged "
               f"at top grade {row['upper']:.4f}, judged {row['judged_at_k']:.0%}." for t in at.text)


def test_dataset_page_fully_judged_run_says_condensed_equals_usual():
    run, qrels = ndcg_core.read_run(BM25), ndcg_core.read_qrels(QRELS)
    judged = run[pd.MultiIndex.from_frame(run[["query", "doc"]].astype(str)).isin(
        pd.MultiIndex.from_frame(qrels[["query", "doc"]].astype(str)))]
    at = run_page("dataset", query_params={"k": "10"}, timeout=60)
    at.session_state[dataset_state.STATE_KEY] = dataset_state.DatasetState(LoadedDataset(
        label="judged only", qrels=qrels, runs={"judged": judged}, digest="judged-only-test"))
    at.run()
    assert not at.exception, at.exception
    expected = ndcg_core.evaluate_run(judged, qrels, k=10).mean_ndcg
    assert any(t.value.startswith(f"Every retrieved document in the top 10 is judged, so the condensed list is the "
                                  f"usual list: both give {expected:.4f}. Judging more documents could not change "
                                  "it.") for t in at.text)
    assert {m.label: m.value for m in at.metric}["Judged@10"] == "100%"


def test_dataset_page_judged_top_k_but_unjudged_below_says_so():
    """The sample's BM25 top 10s are fully judged, but documents further down are not: the top-grade figure, which
    adds them to the ideal list, is lower than the usual one and the page says what it would be."""
    at = run_page("dataset", query_params={"k": "10"}, timeout=60)
    assert not at.exception, at.exception
    table = ndcg_core.incomplete_run(ndcg_core.read_run(BM25), ndcg_core.read_qrels(QRELS), k=10)
    assert (table["n_unjudged_in_cutoff"] == 0).all() and table["upper"].mean() < table["standard"].mean()
    assert any(t.value.endswith(f"join the ideal list, and the figure would be {table['upper'].mean():.4f}.")
               for t in at.text)


# --- Library conventions: the tie band -------------------------------------------------------------------------

def test_conventions_tie_band_matches_hand_figures_and_scikit_learn():
    """Case "ties": grades 3, 0, 1, 2 with scores 0.9, 0.9, 0.4, 0.4 (two tied pairs, 4 orders)."""
    at = run_page("conventions", timeout=60)
    at.selectbox(key="conventions_case").set_value("ties").run()
    assert not at.exception, at.exception
    rows = band_rows(band_chart(at))
    assert_ties_example_linear_band(rows["gain = grade, one ideal list (every judged document is ranked)"])
    idcg = hand_dcg([3, 2, 1, 0])
    exponential = rows["gain = 2^grade − 1, one ideal list (every judged document is ranked)"]
    assert exponential["high"] == pytest.approx(hand_dcg(exp_gains([3, 0, 2, 1])) / hand_dcg(exp_gains([3, 2, 1, 0])))
    assert any("2 tied groups, 4 possible orders" in c.value for c in at.caption)
    landing = next(df.value for df in at.dataframe if "Lands on" in df.value.columns)
    landing = landing[landing["Setting"] == "gain = grade, one ideal list (every judged document is ranked)"].set_index("Library")
    assert landing.loc["scikit-learn ndcg_score", "Lands on"] == "the average over orders"
    assert landing.loc["trec_eval ndcg_cut", "Lands on"] == "inside the band"  # 0, 3, 2, 1: neither extreme
    assert landing.loc["trec_eval ndcg_cut", "NDCG"] == round(hand_dcg([0, 3, 2, 1]) / idcg, 4)
    # LightGBM keeps the input order, A12 (3) before B07 (0) and C33 (1) before D01 (2): exponential row
    lightgbm = next(df.value for df in at.dataframe if "Lands on" in df.value.columns).set_index("Library")
    assert lightgbm.loc["LightGBM ndcg metric", "NDCG"] == round(
        hand_dcg(exp_gains([3, 0, 1, 2])) / hand_dcg(exp_gains([3, 2, 1, 0])), 4)


def test_conventions_without_ties_the_band_is_one_point():
    at = run_page("conventions", timeout=60)
    at.selectbox(key="conventions_case").set_value("gain").run()
    assert not at.exception, at.exception
    texts = [t.value for t in at.text if "band shrinks to a single point" in t.value]
    # ranker 1: grades ranked 3, 0, 0, 2, 2, 2 by its scores; ranker 2: 2, 2, 2, 3, 0, 0
    for text, ranked in zip(texts, ([3, 0, 0, 2, 2, 2], [2, 2, 2, 3, 0, 0]), strict=True):
        ideal = [3, 2, 2, 2, 0, 0]
        exponential = hand_dcg(exp_gains(ranked)) / hand_dcg(exp_gains(ideal))
        assert f"NDCG = {exponential:.4f} with gain 2^grade − 1 ({hand_dcg(ranked) / hand_dcg(ideal):.4f} with gain = grade" \
            in text
    assert len(texts) == 2
    assert [m.value for m in at.markdown if "tie band" in m.value] == ["### The tie band, ranker 1",
                                                                         "### The tie band, ranker 2"]


# --- Playground: a list opened with its run's tied scores ----------------------------------------------------

def test_playground_shows_the_tie_band_of_a_list_with_tie_groups():
    at = run_page("playground", timeout=60)
    ranking = state.make_ranking(["a", "b", "c"], [0, 3, 1], tie_groups=[0, 0, 1])
    at.session_state[state.RANKING_KEY] = state.PlaygroundState.of(ranking)
    at.run()
    assert not at.exception, at.exception
    rows = band_rows(band_chart(at))
    linear = rows["gain = grade, one ideal list (every judged document is ranked)"]
    idcg = hand_dcg([3, 1, 0])
    assert linear["low"] == pytest.approx(hand_dcg([0, 3, 1]) / idcg)
    assert linear["high"] == pytest.approx(hand_dcg([3, 0, 1]) / idcg)
    assert linear["expected"] == pytest.approx(ndcg_score([[0, 3, 1]], [[1.0, 1.0, 0.5]]))
    # the Playground's own NDCG (tie groups averaged) is the band's expected value
    shown = {m.label: m.value for m in at.metric}
    assert shown["NDCG"] == f"{rows['gain = 2^grade − 1, one ideal list (every judged document is ranked)']['expected']:.4f}"


def test_playground_without_tie_groups_has_no_band():
    at = run_page("playground", timeout=60)
    assert not at.exception
    assert chart_specs(at) and not any(is_band(c) for c in chart_specs(at))


# --- Compare rankers: does my choice flip the winner? -------------------------------------------------------

GRADES = {"D1": 3, "D2": 2, "D3": 3, "D4": 0, "D5": 1, "D6": 2, "D7": 0, "D8": 1}


def grid_table(at, key_column="gain") -> list[pd.DataFrame]:
    return [df.value.set_index(key_column) for df in at.dataframe if key_column in df.value.columns]


def test_compare_lists_flip_grid_by_hand():
    at = run_page("compare", timeout=60)
    assert not at.exception, at.exception
    order_a = ["D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8"]
    order_b = ["D3", "D4", "D1", "D6", "D2", "D8", "D5", "D7"]
    a5, b5 = [GRADES[d] for d in order_a[:5]], [GRADES[d] for d in order_b[:5]]
    ideal5 = sorted(GRADES.values(), reverse=True)[:5]
    ndcg_a5 = hand_dcg(exp_gains(a5)) / hand_dcg(exp_gains(ideal5))
    ndcg_b5 = hand_dcg(exp_gains(b5)) / hand_dcg(exp_gains(ideal5))
    assert ndcg_b5 > ndcg_a5  # at k = 5 B wins, over the whole list A does
    (table,) = grid_table(at)
    assert table.loc["exponential", "@5"] == f"B ({ndcg_a5:.3f} vs {ndcg_b5:.3f}) ⚠"
    assert table.loc["exponential", "no cutoff"].startswith("A (")
    assert any(m.value.startswith("With the current settings **A** wins") for m in at.markdown)
    assert any("- cutoff → 5: B wins" in m.value.replace("\\", "") for m in at.markdown)


def test_compare_lists_nothing_flips_when_a_is_ideal():
    at = run_page("compare", timeout=60)
    at.button(key="compare_ideal_a").click().run()
    assert not at.exception, at.exception
    (table,) = grid_table(at)
    assert all(cell.startswith("A (1.000 vs") and "⚠" not in cell for cell in table.to_numpy().ravel())
    assert any(c.value == "No single change of gain, cutoff, ideal list or IDCG = 0 rule reverses the winner."
               for c in at.caption)


def test_compare_runs_flip_grid_overall_matches_evaluate_run_and_per_query():
    at = run_page("compare", timeout=90)
    at.radio(key="compare_mode").set_value("runs").run()
    assert not at.exception, at.exception
    run_a, run_b, qrels = ndcg_core.read_run(BM25), ndcg_core.read_run(NEURAL), ndcg_core.read_qrels(QRELS)
    overall, one = grid_table(at)
    for gain, column, k in (("exponential", "no cutoff", None), ("linear", "@10", 10), ("exponential", "@5", 5)):
        a = ndcg_core.evaluate_run(run_a, qrels, k=k, gain=gain).per_query["ndcg"]
        b = ndcg_core.evaluate_run(run_b, qrels, k=k, gain=gain).per_query["ndcg"]
        both = a.index.intersection(b.index)  # BM25 misses query 433: the grid compares the 59 both rank
        assert len(both) == 59
        assert f"({a[both].mean():.3f} vs {b[both].mean():.3f})" in overall.loc[gain, column]
    query = at.session_state["compare_flip_query"]
    a = ndcg_core.evaluate_run(run_a, qrels, k=5, gain="linear").per_query.loc[query, "ndcg"]
    b = ndcg_core.evaluate_run(run_b, qrels, k=5, gain="linear").per_query.loc[query, "ndcg"]
    assert f"({a:.3f} vs {b:.3f})" in one.loc["linear", "@5"]


# --- Step by step: lesson 9 --------------------------------------------------------------------------------

def test_lesson_unjudged_by_hand():
    """3, ?, 2, ?, 0, 1 at k = 3, exponential gain: usual 7 + 0 + 3/2; condensed 7 + 3/log2(3) + 0;
    IDCG = 7 + 3/log2(3) + 1/2 (judged grades 3, 2, 1, 0)."""
    at = run_page("step_by_step", timeout=60)
    assert not at.exception, at.exception
    cards = {m.label: m.value for m in at.metric}
    idcg = 7 + 3 / LOG2(3) + 0.5
    assert cards["Usual NDCG@3"] == f"{8.5 / idcg:.3f}"
    assert cards["Condensed NDCG@3"] == f"{(7 + 3 / LOG2(3)) / idcg:.3f}"
    assert cards["Judged@3"] == "67%"
    # both ? judged 3: ranking 3, 3, 2 over the ideal 3, 3, 3 (the two new grade-3 documents join it)
    upper = (7 + 7 / LOG2(3) + 3 / 2) / (7 + 7 / LOG2(3) + 7 / 2)
    assert cards["Unjudged at grade 3"] == f"{upper:.3f}"
    usual = 8.5 / idcg
    assert any(c.value.startswith(f"Why is “unjudged at grade 3” ({upper:.3f}) lower than the usual figure "
                                  f"({usual:.3f})?") for c in at.caption)
    assert any(m.value.startswith("1 of the top 3 documents is unjudged") for m in at.markdown)
    # A fractional top grade is a grade, written as one: "2.5", not the figures' "2.500" (helper-68).
    at.text_input(key="lesson_unjudged_grades").input("2.5, ?, 1").run()
    assert "Unjudged at grade 2.5" in [m.label for m in at.metric]
    [lesson] = [table.value for table in at.table if "Usual rank" in table.value.columns]
    assert list(lesson["Grade"]) == ["2.5", "not judged (counts as 0)", "1"]
    at.text_input(key="lesson_unjudged_grades").input("3, 2, 0, 1").run()
    cards = {m.label: m.value for m in at.metric}
    assert cards["Usual NDCG@3"] == cards["Condensed NDCG@3"] == f"{(7 + 3 / LOG2(3)) / idcg:.3f}"
    assert any(i.value.startswith("Every document is judged: the condensed list is the usual list") for i in at.info)
    at.text_input(key="lesson_unjudged_grades").input("3, x").run()
    assert any("'x' is neither a grade nor ?" in e.value for e in at.error)


@pytest.mark.oracle
@pytest.mark.parametrize("missing", ["ignore", "zero"])
def test_the_condensed_mean_is_trec_eval_judged_only(missing):
    """A query whose retrieved documents are all unjudged had no condensed figure (NaN) and was left out of the
    Dataset page's 'Condensed list' mean (0.5581 on 4,900 queries where trec_eval -J averages 0.5580): trec_eval -J,
    pytrec_eval's judged_docs_only_flag, counts its empty list as 0. Linear gain, as trec_eval's."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels = pd.DataFrame({"query": ["q1", "q1", "q2", "q3", "q3"], "doc": ["a", "b", "c", "d", "e"],
                          "relevance": [2, 1, 1, 3, 0]})
    run = pd.DataFrame({"query": ["q1", "q1", "q1", "q2", "q2", "q3"], "doc": ["x", "a", "b", "y", "z", "e"],
                        "score": [3.0, 2.0, 1.0, 2.0, 1.0, 1.0]})  # q2: nothing judged retrieved
    table = ndcg_core.incomplete_run(run, qrels, gain="linear", missing=missing)
    judged = {q: dict(zip(g["doc"], g["relevance"].astype(int), strict=True)) for q, g in qrels.groupby("query")}
    ranked = {q: dict(zip(g["doc"], g["score"], strict=True)) for q, g in run.groupby("query")}
    oracle = pytrec_eval.RelevanceEvaluator(judged, {"ndcg"}, judged_docs_only_flag=True).evaluate(ranked)
    assert table.loc["q2", "condensed"] == 0.0 == oracle["q2"]["ndcg"]
    for query, figures in oracle.items():
        assert table.loc[query, "condensed"] == pytest.approx(figures["ndcg"], abs=1e-12), query
    assert ndcg_core.incomplete_summary(table)["condensed"] == pytest.approx(
        np.mean([figures["ndcg"] for figures in oracle.values()]), abs=1e-12)


def test_lesson_unjudged_says_why_grade_3_scores_lower_without_a_dangling_those():
    """The caption read "Judging those 2 documents at grade 3 also puts them in the ideal list: IDCG grows by more
    than the DCG of the ones inside the top 3" right after a sentence about 1 unjudged document: "those 2" pointed
    at nothing, and "the DCG of the ones inside the top 3" named one document as several. It now names the unjudged
    documents, how many of them are in the top k, and that IDCG@k grows by more than DCG@k (hand figures: IDCG@3
    9.393 -> 14.917, DCG@3 8.5 -> 12.917)."""
    at = run_page("step_by_step", timeout=60)
    assert not at.exception, at.exception
    why = next(c.value for c in at.caption if c.value.startswith("Why is “unjudged at grade 3”"))
    assert why.endswith("? Judging the 2 unjudged documents at grade 3 also puts them in the ideal list: IDCG@3 "
                        "grows by more than DCG@3, which gains only from the 1 of them in the top 3.")
    # Growth, by hand: the ideal top 3 becomes 3, 3, 3; the ranking's top 3 becomes 3, 3, 2.
    assert (7 + 7 / LOG2(3) + 7 / 2) - (7 + 3 / LOG2(3) + 1 / 2) > (7 + 7 / LOG2(3) + 3 / 2) - (7 + 0 + 3 / 2)
    at.text_input(key="lesson_unjudged_grades").input("3, 2, 1, 0, ?").run()  # one unjudged, below the top 3
    why = next(c.value for c in at.caption if c.value.startswith("Why is “unjudged at grade 3”"))
    assert why.endswith("? Judging the unjudged document at grade 3 also puts it in the ideal list: IDCG@3 "
                        "grows by more than DCG@3, which gains nothing: it is not in the top 3.")
