"""Benchmark: the Dataset and Compare pages' path on a 1M-row TREC run.

Usage (from the repository root)::

    python bench/bench_dataset_page.py                  # 10,000 queries x 100 documents = 1M run lines
    python bench/bench_dataset_page.py --queries 1000   # a quicker look
    python bench/bench_dataset_page.py --apptest        # also the whole page in AppTest (upload -> figures)

Timed, one process, best of ``--repeats``:

* ``read_qrels`` / ``read_run`` on the files' bytes (what an upload hands the page);
* ``evaluate_run`` (NDCG@10, trec_eval ties) and ``ndcg_curve`` for k = 1..20 (what the page shows);
* ``aggregate_gap`` (the "why they differ" sentence) and ``compare_runs`` with 10,000 bootstrap resamples
  over every query (the Compare page's verdict);
* with ``--apptest``: the Dataset page in Streamlit's AppTest, uploading both files through
  ``st.file_uploader`` and rendering every figure (wall time of the run after the upload).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ndcg_core  # noqa: E402


def synthetic(queries: int, depth: int, seed: int = 0) -> tuple[bytes, bytes, bytes]:
    """TREC qrels and two runs as bytes: ``depth`` documents per query, ~30% of them judged 0-3."""
    rng = np.random.default_rng(seed)
    query = np.repeat(np.arange(queries), depth).astype(str)
    doc = np.char.add("D", rng.integers(0, 10**9, size=queries * depth).astype(str))
    rank = np.tile(np.arange(1, depth + 1), queries)
    judged = rng.random(queries * depth) < 0.3
    grades = rng.choice([0, 1, 2, 3], size=queries * depth, p=[0.5, 0.25, 0.15, 0.1])
    qrels = "\n".join(f"{q} 0 {d} {g}" for q, d, g in zip(query[judged], doc[judged], grades[judged], strict=True))
    runs = []
    for noise in (1.0, 0.7):
        score = grades * (1.0 - noise) + rng.random(queries * depth) * noise * 3
        lines = "\n".join(f"{q} Q0 {d} {r} {s:.6f} sys" for q, d, r, s in zip(query, doc, rank, score, strict=True))
        runs.append(lines.encode())
    return qrels.encode(), runs[0], runs[1]


def best_of(repeats: int, function) -> tuple[float, object]:
    best, value = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        value = function()
        best = min(best, time.perf_counter() - start)
    return best, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--apptest", action="store_true")
    args = parser.parse_args()

    qrels_bytes, run_a_bytes, run_b_bytes = synthetic(args.queries, args.depth)
    rows = args.queries * args.depth
    judgments = qrels_bytes.count(b"\n") + 1
    print(f"python {platform.python_version()}, numpy {np.__version__}; {rows:,} run lines "
          f"({len(run_a_bytes) / 1e6:.0f} MB), {judgments:,} judgments")
    timings = {}
    timings["read_qrels"], qrels = best_of(args.repeats, lambda: ndcg_core.read_qrels(qrels_bytes))
    timings["read_run"], run_a = best_of(args.repeats, lambda: ndcg_core.read_run(run_a_bytes))
    run_b = ndcg_core.read_run(run_b_bytes)
    timings["evaluate_run k=10"], result_a = best_of(args.repeats, lambda: ndcg_core.evaluate_run(run_a, qrels, k=10))
    result_b = ndcg_core.evaluate_run(run_b, qrels, k=10)
    timings["ndcg_curve k=1..20"], _ = best_of(args.repeats, lambda: ndcg_core.ndcg_curve(run_a, qrels))
    timings["aggregate_gap"], _ = best_of(args.repeats, lambda: ndcg_core.aggregate_gap(result_a.per_query))
    timings["compare_runs 10k resamples"], comparison = best_of(
        args.repeats, lambda: ndcg_core.compare_runs(result_a.per_query["ndcg"], result_b.per_query["ndcg"])
    )
    for name, seconds in timings.items():
        print(f"{name:<28} {seconds:8.3f} s")
    print(f"{'total (page path)':<28} {sum(timings.values()):8.3f} s")
    print(f"check: mean NDCG@10 A {result_a.mean_ndcg:.4f}, B {result_b.mean_ndcg:.4f}; "
          f"B better on {comparison.wins} of {comparison.n_queries}")

    if args.apptest:
        from tests.conftest import run_page

        at = run_page("dataset", query_params={"k": "10"}, timeout=600)
        at.radio(key="dataset_source").set_value("trec").run()
        at.file_uploader(key="dataset_qrels_file").set_value(("big.qrels", qrels_bytes, "text/plain"))
        at.file_uploader(key="dataset_run_files").set_value(("big_run.txt", run_a_bytes, "text/plain"))
        start, cpu = time.perf_counter(), time.process_time()
        at.run()
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        shown = {m.label: m.value for m in at.metric}
        assert not at.exception and not at.error, (at.exception, [e.value for e in at.error])
        assert shown["Mean of per-query NDCG@10"] == f"{result_a.mean_ndcg:.4f}"
        print(f"{'AppTest upload -> page':<28} {elapsed:8.3f} s wall, {cpu:.3f} s CPU (all threads; parse, "
              "evaluate, curve, table, charts)")
        start, cpu = time.perf_counter(), time.process_time()
        at.run()
        print(f"{'AppTest rerun (cached)':<28} {time.perf_counter() - start:8.3f} s wall, "
              f"{time.process_time() - cpu:.3f} s CPU")


if __name__ == "__main__":
    main()
