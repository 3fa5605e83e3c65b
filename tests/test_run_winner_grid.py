"""``ndcg_core.run_winner_grid``: the winner grid for two runs with the tie rule as a dimension, vectorised over
queries (no limit on their number), and the Compare page's grid built on it.

The tie-flip case, by hand (linear gain, no cutoff; judged d1 = 1, d2 = d3 = 0, so IDCG = 1):

* run B ranks d2, d1, d3 by distinct scores: NDCG = 1/log2(3) = 0.6309 under every tie rule;
* run A gives all three the same score, so the tie rule decides where d1 (the only relevant one) goes:
  trec_eval (id descending: d3, d2, d1) and pessimistic put it last, 1/log2(4) = 0.5 → B wins;
  stable (input order d1, d2, d3) and optimistic put it first, 1 → A wins; average gives every position
  the mean gain 1/3: (1 + 1/log2(3) + 1/2) / 3 = 0.7103 → A wins.

Gain (grades 0/1: 2^g − 1 = g), cutoff (5 and 10 exceed 3 documents), ideal list (every judged document is
retrieved) and IDCG = 0 rule (IDCG = 1) change nothing: only the tie rule flips the winner.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ndcg_core
from tests.conftest import run_page
from ui import dataset_state
from ui.dataset_upload import LoadedDataset

LOG2 = np.log2
B_VALUE = 1 / LOG2(3)
A_BY_RULE = {"trec_eval": 0.5, "pessimistic": 0.5, "stable": 1.0, "optimistic": 1.0,
             "average": (1 + 1 / LOG2(3) + 0.5) / 3}


def tie_case(n_queries: int = 1) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """``n_queries`` copies of the hand case (query ids q000, q001, ...)."""
    queries = [f"q{i:03d}" for i in range(n_queries)]
    qrels = pd.DataFrame({"query": np.repeat(queries, 3), "doc": ["d1", "d2", "d3"] * n_queries,
                          "relevance": [1, 0, 0] * n_queries})
    run_a = pd.DataFrame({"query": np.repeat(queries, 3), "doc": ["d1", "d2", "d3"] * n_queries,
                          "score": [1.0, 1.0, 1.0] * n_queries})
    run_b = pd.DataFrame({"query": np.repeat(queries, 3), "doc": ["d2", "d1", "d3"] * n_queries,
                          "score": [3.0, 2.0, 1.0] * n_queries})
    return qrels, run_a, run_b


def grid_of(n_queries: int = 1, **choices) -> pd.DataFrame:
    qrels, run_a, run_b = tie_case(n_queries)
    return ndcg_core.run_winner_grid(ndcg_core.encode_run(run_a, qrels), ndcg_core.encode_run(run_b, qrels),
                                     **{"gain": "linear", "ties": "trec_eval", **choices})


def test_the_tie_rule_alone_flips_the_winner_by_hand():
    grid = grid_of()
    assert len(grid) == 2 * 3 * 2 * 2 * 5  # gain x cutoff (none, 5, 10) x ideal x IDCG = 0 rule x tie rule
    base = grid.iloc[0]
    assert base["changed"] == "" and base["ties"] == "trec_eval" and base["winner"] == "B"
    assert (base["mean_a"], base["mean_b"]) == pytest.approx((0.5, B_VALUE))
    for rule, value in A_BY_RULE.items():
        rows = grid[grid["ties"] == rule]
        assert rows["mean_a"].to_numpy() == pytest.approx(value)  # every other choice: the same figure
        assert rows["mean_b"].to_numpy() == pytest.approx(B_VALUE)
        assert set(rows["winner"]) == {"A" if value > B_VALUE else "B"}
    averaged = grid.loc[grid["ties"] == "average", "mean_a"].to_numpy()
    assert averaged == pytest.approx(0.710309, abs=1e-6)  # the docstring's 0.7103, as the grid returns it
    flipped = grid[grid["flips"]]
    assert flipped["changed"].str.contains("ties").all()  # nothing but the tie rule flips it
    single = grid[grid["flips"] & ~grid["changed"].str.contains(",")]
    assert sorted(single["ties"]) == ["average", "optimistic", "stable"]
    assert grid.attrs["queries"] == 1 and grid.attrs["query_ids"] == ("q000",)


def test_baseline_tie_rule_is_the_first_row_whatever_it_is():
    grid = grid_of(ties="stable")
    assert grid.iloc[0]["ties"] == "stable" and grid.iloc[0]["winner"] == "A"
    assert set(grid[grid["flips"]]["ties"]) == {"trec_eval", "pessimistic"}


def random_runs(n_queries: int, seed: int):
    """Runs with tied scores, unjudged retrieved documents and judged documents a run misses."""
    rng = np.random.default_rng(seed)
    rows_q, rows_d, rel = [], [], []
    for q in range(n_queries):
        for d in range(8):
            rows_q.append(f"q{q}"), rows_d.append(f"d{d}"), rel.append(int(rng.integers(0, 4)))
    qrels = pd.DataFrame({"query": rows_q, "doc": rows_d, "relevance": rel})
    runs = []
    for _ in range(2):
        q_list, d_list, s_list = [], [], []
        for q in range(n_queries):
            docs = rng.choice([f"d{d}" for d in range(12)], size=7, replace=False)  # d8-d11 are unjudged
            q_list += [f"q{q}"] * 7
            d_list += list(docs)
            s_list += list(rng.integers(0, 4, 7).astype(float))  # few values: many ties
        runs.append(pd.DataFrame({"query": q_list, "doc": d_list, "score": s_list}))
    return qrels, runs


@pytest.mark.parametrize("seed", [0, 1])
def test_stable_rows_equal_winner_grid_on_the_ranked_lists(seed):
    """Under the "stable" rule the grid equals ``winner_grid`` on each query's ranked grades (``ranked_query``):
    the independent route, query by query, for every gain, cutoff, ideal list and IDCG = 0 rule."""
    qrels, (run_a, run_b) = random_runs(12, seed)
    encoded = [ndcg_core.encode_run(run, qrels) for run in (run_a, run_b)]
    grid = ndcg_core.run_winner_grid(*encoded, k=3, ties="stable")
    lists = [[ndcg_core.ranked_query(e, query=f"q{q}", ties="stable") for q in range(12)] for e in encoded]
    by_list = ndcg_core.winner_grid([r.grades.tolist() for r in lists[0]], [r.grades.tolist() for r in lists[1]],
                                    ideal_relevances=[r.ideal_relevances.tolist() for r in lists[0]], k=3)
    stable = grid[grid["ties"] == "stable"].drop(columns=["ties", "changed", "flips"])
    merged = stable.merge(by_list.drop(columns=["changed", "flips"]), on=["gain", "k", "ideal", "zero_idcg"],
                          suffixes=("", "_lists"), how="outer")
    assert len(merged) == len(by_list) == 32
    for column in ("mean_a", "mean_b"):
        assert merged[column].to_numpy() == pytest.approx(merged[f"{column}_lists"].to_numpy(), abs=1e-12)
    for column in ("winner", "queries_a", "queries_b"):
        assert (merged[column] == merged[f"{column}_lists"]).all()


def test_more_than_200_queries_and_one_query():
    """250 copies of the hand case: the means are the hand figures; the one-query grid is the same."""
    grid = grid_of(250)
    assert grid.attrs["queries"] == 250
    assert grid.iloc[0]["mean_a"] == pytest.approx(0.5) and grid.iloc[0]["queries_b"] == 250
    qrels, run_a, run_b = tie_case(250)
    ratios = [ndcg_core.run_ratios(ndcg_core.encode_run(run, qrels)) for run in (run_a, run_b)]
    one = ndcg_core.run_winner_grid(*ratios, gain="linear", ties="average", queries=["q123"])
    assert one.attrs["query_ids"] == ("q123",)
    assert (one.iloc[0]["mean_a"], one.iloc[0]["queries_a"]) == (pytest.approx(A_BY_RULE["average"]), 1)
    with pytest.raises(ndcg_core.InvalidInput):
        ndcg_core.run_winner_grid(*ratios, k=5)  # figures made for another cutoff
    with pytest.raises(ndcg_core.InvalidInput):
        ndcg_core.run_winner_grid(*ratios, queries=["nope"])


def test_compare_page_grid_with_250_queries_and_the_tie_rule_table():
    qrels, run_a, run_b = tie_case(250)
    at = run_page("compare", timeout=120)
    loaded = LoadedDataset(label="ties", qrels=qrels, runs={"tied": run_a, "distinct": run_b},
                           digest="test-run-winner-grid-250")
    at.session_state[dataset_state.STATE_KEY] = dataset_state.DatasetState(dataset=loaded)
    at.session_state["settings"] = ndcg_core_settings()
    at.run()
    at.radio(key="compare_mode").set_value("runs").run()
    assert not at.exception, at.exception
    assert any(m.value.startswith("**Overall**: mean NDCG over the 250 queries") for m in at.markdown)
    ties = next(df.value.set_index("tie rule") for df in at.dataframe if "tie rule" in df.value.columns)
    assert list(ties.index)[0] == "Doc id, Z to A (trec_eval)"  # the Dataset page's default rule first, in its words
    assert ties.loc["Doc id, Z to A (trec_eval)", "linear"] == f"B ({0.5:.3f} vs {B_VALUE:.3f})"
    assert ties.loc["Input order (LightGBM, XGBoost)", "linear"] == f"A ({1:.3f} vs {B_VALUE:.3f}) ⚠"
    assert ties.loc["Average of the tie (scikit-learn)", "linear"] == \
        f"A ({A_BY_RULE['average']:.3f} vs {B_VALUE:.3f}) ⚠"
    assert ties.loc["Worse grades first (worst case)", "linear"] == f"B ({0.5:.3f} vs {B_VALUE:.3f})"
    text = " ".join(m.value.replace("\\", "") for m in at.markdown)
    assert "- tie rule → Better grades first (best case): A wins (1.0000 vs 0.6309)" in text
    assert "A = tied, B = distinct" in " ".join(c.value for c in at.caption)


def ndcg_core_settings():
    from ui.settings import MetricSettings

    return MetricSettings(gain="linear")


@pytest.mark.parametrize("k", [None, 3])
def test_ratios_equal_evaluate_run_for_every_tie_rule_gain_and_cutoff(k):
    """The grid's figures (one ranking per tie rule and gain, cutoffs as masks) equal ``evaluate_run``'s own."""
    qrels, (run, _) = random_runs(15, 3)
    encoded = ndcg_core.encode_run(run, qrels)
    ratios = ndcg_core.run_ratios(encoded, k=k)
    assert ratios.cutoffs == tuple(dict.fromkeys([k, 5, 10, None]))
    for ties in ndcg_core.TIE_RULES:
        for gain in ("linear", "exponential"):
            for depth in ratios.cutoffs:
                per_query = ndcg_core.evaluate_run(encoded, k=depth, gain=gain, ties=ties).per_query
                assert list(per_query.index) == list(ratios.index)
                dcg, idcg = ratios.columns[(ties, gain, depth, "all_judged")]
                assert dcg == pytest.approx(per_query["dcg"].to_numpy(), abs=1e-12)
                assert idcg == pytest.approx(per_query["idcg"].to_numpy(), abs=1e-12)
