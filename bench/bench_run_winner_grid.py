"""Benchmark ndcg_core.run_winner_grid: the Compare page's per-run winner grid, by number of queries.

    python bench/bench_run_winner_grid.py

Two synthetic runs of n queries x 20 documents (scores with ties, grades 0-3), k = 10. ``run_ratios`` (one
``evaluate_run`` per tie rule x gain x cutoff: 5 x 2 x 3 = 30 per run) is the cost; the grid over all queries and
one query's grid from the same ratios are shown apart. One call each after a warm-up: a measurement, not a test.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ndcg_core import encode_run, run_ratios, run_winner_grid  # noqa: E402


def runs(n_queries: int, depth: int = 20, seed: int = 0):
    rng = np.random.default_rng(seed)
    query = np.repeat([f"q{i}" for i in range(n_queries)], depth)
    doc = np.tile([f"d{j}" for j in range(depth)], n_queries)
    qrels = pd.DataFrame({"query": query, "doc": doc, "relevance": rng.integers(0, 4, query.size)})
    made = [pd.DataFrame({"query": query, "doc": doc, "score": rng.integers(0, 8, query.size).astype(float)})
            for _ in range(2)]
    return [encode_run(run, qrels) for run in made]


def main() -> None:
    print("| queries | rows per run | run_ratios, both runs (s) | grid, all queries (ms) | grid, one query (ms) |")
    print("|---:|---:|---:|---:|---:|")
    run_winner_grid(*runs(10), k=10)  # warm-up
    for n in (60, 250, 1_000, 10_000):
        a, b = runs(n)
        start = time.perf_counter()
        ratios = [run_ratios(a, k=10), run_ratios(b, k=10)]
        build = time.perf_counter() - start
        start = time.perf_counter()
        grid = run_winner_grid(*ratios, k=10)
        whole = time.perf_counter() - start
        start = time.perf_counter()
        run_winner_grid(*ratios, k=10, queries=[grid.attrs["query_ids"][0]])
        one = time.perf_counter() - start
        print(f"| {n:,} | {20 * n:,} | {build:.2f} | {1000 * whole:.0f} | {1000 * one:.0f} |")


if __name__ == "__main__":
    main()
