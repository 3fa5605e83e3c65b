"""Generate the bundled sample data set: TREC qrels, two TREC runs and the same as CSV.

Run from the repository root::

    python scripts/make_sample_data.py          # writes data/

The data are synthetic but shaped like a small TREC ad-hoc collection:

* 60 topics (``401`` .. ``460``) with newswire-style document ids (``FT934-1234``, ``LA052389-0071`` ...).
* Graded judgments 0-3 made by pooling: the top 20 of both runs plus a few documents that only a third,
  unsubmitted system found, so some judged documents are retrieved by neither run.
* Each run returns 50 documents per topic; documents outside the pool are unjudged.
* Two topics (``417``, ``452``) have no relevant document at all (every judgment is 0), so IDCG = 0.
* ``run_bm25`` misses topic ``433`` entirely (an empty result list) and rounds its scores to two
  decimals, so it has tied scores; ``run_neural`` is the better system.
* Both runs also answer topic ``461``, which has no judgments.
* ``sample_bm25.csv`` / ``sample_neural.csv``: each run and the judgments as one CSV (query, doc, relevance,
  score, rank): relevance empty = not judged; score and rank empty = judged but not retrieved.

Everything is drawn from one seeded numpy generator, so the files are identical on every run.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

SEED = 20240611
TOPICS = [str(number) for number in range(401, 461)]
NO_RELEVANT_TOPICS = {"417", "452"}
MISSING_FROM_BM25 = "433"
UNJUDGED_TOPIC = "461"
CANDIDATES_PER_TOPIC = 120
RETRIEVED_PER_TOPIC = 50
POOL_DEPTH = 20
EXTRA_POOLED = 6
SOURCES = ("FT", "LA", "FBIS", "WSJ", "AP")


def document_ids(rng: np.random.Generator, count: int) -> list[str]:
    """Newswire-looking document ids, unique within the call."""
    ids: set[str] = set()
    while len(ids) < count:
        source = SOURCES[rng.integers(len(SOURCES))]
        month, day, serial = rng.integers(1, 13), rng.integers(1, 29), rng.integers(1, 9999)
        if source == "FT":
            ids.add(f"FT{rng.integers(911, 945)}-{serial}")
        elif source == "LA":
            ids.add(f"LA{month:02d}{day:02d}{rng.integers(89, 91)}-{serial:04d}")
        elif source == "FBIS":
            ids.add(f"FBIS{rng.integers(3, 5)}-{serial}")
        elif source == "WSJ":
            ids.add(f"WSJ{rng.integers(87, 93)}{month:02d}{day:02d}-{serial:04d}")
        else:
            ids.add(f"AP{rng.integers(88, 91)}{month:02d}{day:02d}-{serial:04d}")
    return sorted(ids)


def latent_grades(rng: np.random.Generator, count: int, *, no_relevant: bool) -> np.ndarray:
    """True relevance of the candidates: mostly 0, a few 1-3."""
    if no_relevant:
        return np.zeros(count, dtype=int)
    grades = rng.choice([0, 1, 2, 3], size=count, p=[0.78, 0.12, 0.07, 0.03])
    grades[rng.integers(count)] = max(grades.max(), 2)  # every other topic has at least one good document
    return grades


def ranking(rng: np.random.Generator, grades: np.ndarray, *, signal: float, noise: float) -> tuple[np.ndarray, np.ndarray]:
    """Indices and scores of the top documents of a system whose score is signal * grade + noise."""
    scores = signal * grades + rng.normal(0.0, noise, size=grades.size) + 10.0
    top = np.argsort(-scores, kind="stable")[:RETRIEVED_PER_TOPIC]
    return top, scores[top]


def build(seed: int = SEED) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Return (qrels, bm25 run, neural run) as DataFrames."""
    rng = np.random.default_rng(seed)
    qrels_rows, bm25_rows, neural_rows = [], [], []
    for topic in [*TOPICS, UNJUDGED_TOPIC]:
        docs = np.array(document_ids(rng, CANDIDATES_PER_TOPIC))
        grades = latent_grades(rng, docs.size, no_relevant=topic in NO_RELEVANT_TOPICS)
        bm25_top, bm25_scores = ranking(rng, grades, signal=1.0, noise=1.3)
        neural_top, neural_scores = ranking(rng, grades, signal=1.25, noise=1.2)
        bm25_scores = np.round(bm25_scores, 2)  # coarse scores: some ties, as real BM25 output has
        third_top, _ = ranking(rng, grades, signal=1.3, noise=1.2)
        if topic != MISSING_FROM_BM25:
            bm25_rows += [(topic, doc, rank, score) for rank, (doc, score) in enumerate(zip(docs[bm25_top], bm25_scores, strict=True), 1)]
        neural_rows += [(topic, doc, rank, score) for rank, (doc, score) in enumerate(zip(docs[neural_top], neural_scores, strict=True), 1)]
        if topic == UNJUDGED_TOPIC:
            continue
        # Pool: top 20 of both runs, plus a few found only by a third system (judged but unretrieved by both runs)
        pool = set(bm25_top[:POOL_DEPTH]) | set(neural_top[:POOL_DEPTH])
        retrieved = set(bm25_top) | set(neural_top)
        third_only = [index for index in third_top if index not in retrieved][:EXTRA_POOLED]
        pool |= set(third_only)
        qrels_rows += [(topic, docs[index], int(grades[index])) for index in sorted(pool, key=lambda i: docs[i])]
    qrels = pd.DataFrame(qrels_rows, columns=["query", "doc", "relevance"])
    columns = ["query", "doc", "rank", "score"]
    return qrels, pd.DataFrame(bm25_rows, columns=columns), pd.DataFrame(neural_rows, columns=columns)


def write_qrels(qrels: pd.DataFrame, path: Path) -> None:
    lines = [f"{row.query} 0 {row.doc} {row.relevance}" for row in qrels.itertuples(index=False)]
    path.write_text("\n".join(lines) + "\n")


def write_run(run: pd.DataFrame, path: Path, tag: str) -> None:
    lines = [f"{row.query} Q0 {row.doc} {row.rank} {row.score:.4f} {tag}" for row in run.itertuples(index=False)]
    path.write_text("\n".join(lines) + "\n")


def as_table(run: pd.DataFrame, qrels: pd.DataFrame) -> pd.DataFrame:
    """One CSV with the same information as qrels + run: the run's rows with their grade (empty = not judged),
    then the judged documents the run did not retrieve (empty score and rank)."""
    retrieved = run.merge(qrels, on=["query", "doc"], how="left")
    unretrieved = qrels.merge(run[["query", "doc"]], on=["query", "doc"], how="left", indicator=True)
    unretrieved = unretrieved[unretrieved["_merge"] == "left_only"].drop(columns="_merge")
    table = pd.concat([retrieved, unretrieved], ignore_index=True)
    table["relevance"] = table["relevance"].astype("Int64")
    table["rank"] = table["rank"].astype("Int64")
    return table[["query", "doc", "relevance", "score", "rank"]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "data")
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    qrels, bm25, neural = build(args.seed)
    write_qrels(qrels, args.out / "sample.qrels")
    write_run(bm25, args.out / "run_bm25.txt", "bm25")
    write_run(neural, args.out / "run_neural.txt", "neural")
    as_table(bm25, qrels).to_csv(args.out / "sample_bm25.csv", index=False, float_format="%.4f")
    as_table(neural, qrels).to_csv(args.out / "sample_neural.csv", index=False, float_format="%.4f")
    print(f"wrote {len(qrels)} judgments, {len(bm25)} + {len(neural)} run lines to {args.out}")


if __name__ == "__main__":
    main()
