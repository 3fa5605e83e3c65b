"""Benchmark ndcg_core.diagnose: the whole convention search for one query, by list length.

    python bench/bench_diagnose.py

Each list has integer grades 0-4, scores with ties (about n/3 distinct values), five extra judged documents,
k = 10 and two reported numbers (LightGBM's and scikit-learn's figure). Each figure is the median of 15 calls
after a warm-up call, with the time the preparation (rankings, gains, ideal lists: ``build_space``) takes
shown apart. A measurement, not a test: nothing asserts a time.
"""

from __future__ import annotations

import statistics
import sys
import time
from functools import partial
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ndcg_core import CONVENTIONS, diagnose  # noqa: E402
from ndcg_core._search_space import build_space  # noqa: E402


def median_ms(call, repeats: int = 15) -> float:
    call()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main() -> None:
    print("| documents | combinations | diagnose (ms) | of which build_space (ms) |")
    print("|---:|---:|---:|---:|")
    for n in (10, 100, 1_000, 10_000):
        rng = np.random.default_rng(n)
        grades = rng.integers(0, 5, n)
        scores = rng.integers(0, max(n // 3, 2), n).astype(float)
        judged = np.r_[grades, rng.integers(0, 5, 5)]
        reported = {"LightGBM": CONVENTIONS["lightgbm"].evaluate(grades, scores, k=10).ndcg,
                    "scikit-learn": CONVENTIONS["sklearn"].evaluate(grades, scores, k=10).ndcg}
        whole = median_ms(partial(diagnose, grades, scores, reported=reported, ideal_relevances=judged, k=10))
        space = build_space(grades, scores, ideal_relevances=judged, k=10)
        prepare = median_ms(partial(build_space, grades, scores, ideal_relevances=judged, k=10))
        print(f"| {n:,} | {int(np.prod(space.shape)):,} | {whole:.1f} | {prepare:.1f} |")


if __name__ == "__main__":
    main()
