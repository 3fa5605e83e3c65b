"""Oracle: the Dataset page's figures for the bundled sample equal pytrec_eval (trec_eval) on the same files.

trec_eval's ndcg uses the grade itself as the gain (linear), the ideal from every judgment, ties by document id
descending, 0 for a query without relevant documents, and leaves judged queries missing from the run out:
the page's settings gain=linear, zero-IDCG 0, missing "ignore", ties "trec_eval".
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import pytrec_eval

from tests.conftest import run_page

pytestmark = pytest.mark.oracle
DATA = Path(__file__).resolve().parents[1] / "data"


def read_qrels_plainly(path: Path) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    for line in path.read_text().splitlines():
        query, _, doc, grade = line.split()
        qrels.setdefault(query, {})[doc] = int(grade)
    return qrels


def read_run_plainly(path: Path) -> dict[str, dict[str, float]]:
    run: dict[str, dict[str, float]] = {}
    for line in path.read_text().splitlines():
        query, _, doc, _, score, _ = line.split()
        run.setdefault(query, {})[doc] = float(score)
    return run


def trec_eval_per_query(run_file: str, measure: str) -> dict[str, float]:
    measures = {"ndcg"} if measure == "ndcg" else {"ndcg_cut"}  # ndcg_cut reports cutoffs 5, 10, 15, 20, 30, ...
    evaluator = pytrec_eval.RelevanceEvaluator(read_qrels_plainly(DATA / "sample.qrels"), measures)
    return {query: values[measure] for query, values in evaluator.evaluate(read_run_plainly(DATA / run_file)).items()}


@pytest.mark.parametrize("run_name", ["BM25", "Neural"])
@pytest.mark.parametrize("k", [5, 10, 20, None])
def test_page_figures_equal_pytrec_eval(run_name, k):
    params = {"gain": "linear"} | ({"k": str(k)} if k else {})
    at = run_page("dataset", query_params=params)
    if run_name != "BM25":
        at.selectbox(key="dataset_run").set_value(run_name).run()
    assert not at.exception, at.exception
    measure = "ndcg" if k is None else f"ndcg_cut_{k}"
    expected = trec_eval_per_query({"BM25": "run_bm25.txt", "Neural": "run_neural.txt"}[run_name], measure)

    table = next(frame.value for frame in at.dataframe if "ndcg" in frame.value.columns).set_index("query")
    assert sorted(table.index) == sorted(expected)  # the same queries: 461 (unjudged) out, 433 out for BM25
    shown = table.loc[list(expected), "ndcg"].to_numpy()
    np.testing.assert_allclose(shown, list(expected.values()), atol=1e-9)

    label = "NDCG" if k is None else f"NDCG@{k}"
    mean = {m.label: m.value for m in at.metric}[f"Mean of per-query {label}"]
    assert mean == f"{np.mean(list(expected.values())):.4f}"
