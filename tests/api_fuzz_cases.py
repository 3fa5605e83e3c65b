"""Every public function of ndcg_core, a valid call of each, and odd values to put in each argument.

Shared by tests/test_api_fuzz.py (a hypothesis property: any value in any argument gives a result or
InvalidInput) so the list of calls is written once.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

import ndcg_core

RUN = pd.DataFrame({"query": ["1", "1", "1", "2", "2"], "doc": ["a", "b", "c", "a", "d"],
                    "score": [3.0, 2.0, 2.0, 1.0, 0.5]})
QRELS = pd.DataFrame({"query": ["1", "1", "2", "2"], "doc": ["a", "c", "a", "e"], "relevance": [2, 1, 0, 3]})
PER_QUERY = pd.DataFrame({"query": ["1", "2"], "ndcg": [0.5, 0.25], "dcg": [1.0, 0.5], "idcg": [2.0, 2.0]})


@dataclass(frozen=True)
class Call:
    """One public function with a valid positional/keyword call; ``fuzz`` names the arguments to vary."""

    name: str
    function: Callable
    args: dict = field(default_factory=dict)
    fuzz: tuple[str, ...] = ()


def calls() -> list[Call]:
    """A valid call of every public function, and the arguments each takes from a caller."""
    n = ndcg_core
    encoded = n.encode_run(RUN, QRELS)
    per_query = n.evaluate_run(RUN, QRELS, k=3).per_query
    list_options = ("k", "gain", "log_base", "ideal_relevances", "zero_idcg", "discount")
    return [
        Call("evaluate", n.evaluate, {"relevances": [3, 1, 2]},
             ("relevances", *list_options, "tie_groups", "cut_ideal_at_ranking")),
        Call("evaluate_scores", n.evaluate_scores, {"relevances": [3, 1, 2], "scores": [0.5, 0.5, 0.1]},
             ("relevances", "scores", "ties", *list_options, "doc_ids", "cut_ideal_at_ranking")),
        Call("tie_band", n.tie_band, {"relevances": [3, 1, 2], "scores": [0.5, 0.5, 0.1]},
             ("relevances", "scores", *list_options)),
        Call("score_order", n.score_order, {"relevances": [3, 1, 2], "scores": [0.5, 0.5, 0.1]},
             ("relevances", "scores", "ties", "doc_ids", "precision")),
        Call("discounts", n.discounts, {"n": 3}, ("n", "log_base", "discount")),
        Call("diagnose", n.diagnose, {"relevances": [3, 2, 0, 1], "scores": [4, 3, 2, 1],
                                       "reported": {"scikit-learn": 0.9854}},
             ("relevances", "scores", "reported", "ideal_relevances", "k", "tolerance", "doc_ids",
              "gain_tables", "baseline", "library_refusals")),
        Call("winner_grid", n.winner_grid, {"rankings_a": [[3, 1, 0]], "rankings_b": [[1, 3, 0]]},
             ("rankings_a", "rankings_b", "k", "gain", "ideal", "zero_idcg", "tolerance")),
        Call("run_winner_grid", n.run_winner_grid, {"run_a": encoded, "run_b": encoded},
             ("run_a", "run_b", "k", "gain", "ideal", "zero_idcg", "ties", "log_base", "tolerance", "queries")),
        Call("run_ratios", n.run_ratios, {"run": encoded}, ("run", "k", "log_base")),
        Call("incomplete_judgments", n.incomplete_judgments, {"relevances": [None, 3, None, 1, 0]},
             ("relevances", "scores", "k", "gain", "ideal_relevances", "zero_idcg", "ties", "highest", "log_base",
              "discount")),
        Call("incomplete_run", n.incomplete_run, {"run": RUN, "qrels": QRELS}, ("run", "qrels")),
        Call("incomplete_summary", n.incomplete_summary,
             {"per_query": n.incomplete_run(RUN, QRELS, k=3)}, ("per_query",)),
        Call("evaluate_run", n.evaluate_run, {"run": RUN, "qrels": QRELS},
             ("run", "qrels", "k", "gain", "log_base", "aggregate", "zero_idcg", "missing", "ties", "discount")),
        Call("ndcg_curve", n.ndcg_curve, {"run": RUN, "qrels": QRELS},
             ("run", "qrels", "ks", "gain", "log_base", "zero_idcg", "missing", "ties", "discount")),
        Call("encode_run", n.encode_run, {"run": RUN, "qrels": QRELS}, ("run", "qrels")),
        Call("ranked_query", n.ranked_query, {"run": encoded, "query": "1"}, ("run", "qrels", "query", "ties", "limit")),
        Call("compare_runs", n.compare_runs, {"per_query_a": per_query, "per_query_b": per_query, "n_boot": 50},
             ("per_query_a", "per_query_b", "n_boot", "seed", "confidence", "tie_tolerance")),
        Call("aggregate_gap", n.aggregate_gap, {"per_query": PER_QUERY}, ("per_query",)),
        Call("check_grades", n.check_grades, {"grades": [0, 1, 3], "gain": "linear"}, ("grades", "gain")),
        Call("check_gain", n.check_gain, {"gain": "linear"}, ("gain",)),
        Call("gains_of", n.gains_of, {"grades": np.array([0.0, 1.0]), "gain": "linear"}, ("grades", "gain")),
        Call("ideal_order", n.ideal_order, {"grades": [0, 2, 1]}, ("grades",)),
        Call("worst_order", n.worst_order, {"grades": [0, 2, 1]}, ("grades",)),
        Call("read_outputs", n.read_outputs, {"data": '{"plain": 0.9608}'}, ("data",)),
        Call("check_implementation", n.check_implementation, {"outputs": {"plain": 0.9608}},
             ("outputs", "tolerance")),
        Call("evaluate_as_read", n.evaluate_as_read, {"key": "trec_eval", "relevances": [1.5, 1, 0]},
             ("key", "relevances", "scores", "k", "ideal_relevances", "doc_ids")),
        Call("read_words", n.read_words, {"read": ((1.5, 1.0),)}, ("read",)),
        Call("read_qrels", n.read_qrels, {"source": b"1 0 a 1\n"}, ("source",)),
        Call("read_run", n.read_run, {"source": b"1 Q0 a 1 2.0 r\n"}, ("source",)),
        Call("EncodedRun.evaluate", encoded.evaluate, {},
             ("k", "gain", "log_base", "aggregate", "zero_idcg", "missing", "ties", "discount")),
        Call("RankedQuery.evaluate", n.ranked_query(encoded, query="1").evaluate, {},
             ("k", "gain", "log_base", "zero_idcg", "discount")),
        Call("Convention.evaluate", n.CONVENTIONS["trec_eval"].evaluate,
             {"relevances": [3, 1, 0], "scores": [1, 1, 0], "doc_ids": ["a", "b", "c"]},
             ("relevances", "scores", "k", "ideal_relevances", "doc_ids")),
        Call("Convention.refusal", n.CONVENTIONS["lightgbm"].refusal, {"relevances": [3, 1, 0]},
             ("relevances", "ideal_relevances")),
        Call("read_table", n.read_table, {"source": b"query,doc,score,relevance\n1,a,1,1\n"}, ("source",)),
    ]


def odd_values() -> list[object]:
    """Values a script can pass by mistake: wrong types, non-finite and huge numbers, empty and nested lists."""
    return [None, True, 0, -1, 1.5, math.nan, math.inf, -math.inf, 10**400, -10**400, 2**64, "x", "", b"x",
            [], [[1]], [1, [2]], ["x"], [None], [math.nan], [math.inf], [10**400], [True], (1, 2),
            {1, 2}, {}, {"a": 1}, {"a": "b"}, {1: math.nan}, np.float64("nan"), np.int64(3), np.array(2.0),
            np.array([]), np.array([[1.0, 2.0]]), np.array(["a"]), np.array([1, 2], dtype=object),
            pd.DataFrame(), pd.Series([1.0]), pd.DataFrame({"query": [1]}), object(), range(0), range(3),
            1e308, [1e308, 1e308], -0.0, 3, [3, 1, 2], "linear", "average", "zero"]
