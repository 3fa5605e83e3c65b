"""Benchmark: evaluate_run on DataFrames, a matrix of id dtypes x row orders x shapes, against pytrec_eval
and a plain numpy version.

Usage (from the repository root)::

    python bench/bench_dataframes.py                   # the whole matrix (about 10 minutes on 2 cores)
    python bench/bench_dataframes.py --shapes trec     # one shape
    python bench/bench_dataframes.py --dtypes str --orders shuffled

Matrix: id dtype (categorical, str, object, int64) x row order (ranked: grouped by query, best score first, as
a TREC run; shuffled: rows in random order) x shape:

* ``trec``: 10,000 queries x 100 documents from a large collection; 30 judgments per query, half of them for
  documents the run did not retrieve;
* ``rec1k`` / ``rec50k``: 10,000 users x 100 items from a catalogue of 1,000 / 50,000 items (items shared by
  many users); 20 judged items per user drawn from the catalogue;
* ``wide``: 50 queries x 1,000 documents, 200 judgments per query (half unretrieved);
* ``one``: 1 query x 1,000,000 documents, 10,000 judgments (half unretrieved).

Every contender's first call is timed in a process of its own (``first``, ``pyt.1st``, ``np.1st``): the process
builds the frames (and pytrec_eval's dicts), warms the same contender on a tiny input, then calls it once on the
full frames, so each pays a fresh process's page faults and memory-pool growth alike (a first call measured
after another contender's would find memory already mapped: on one query x 1M ``str`` ids, the hashing alone took
0.37 s cold and 0.15 s warm). Then one more fresh process per case builds the frames, warms the imports on a tiny
input, and times, interleaved:

* ``first``: ``evaluate_run(run, qrels, k=10, gain="linear")`` the first time on these frames (kept in the JSON;
  the table's ``first`` column is the separate process's);
* ``repeat``: the same call again (median of ``--repeats``; nothing is cached between calls);
* ``encoded``: ``encoded.evaluate(k=10, gain="linear")`` on an ``encode_run(run, qrels)`` built beforehand
  (the explicit reuse path the app keeps in ``st.cache_resource``);
* ``pytrec_eval``: ``RelevanceEvaluator(qrels_dict, {"ndcg_cut.10"}).evaluate(run_dict)`` with both dicts
  built beforehand (building them from the frames is not timed);
* ``numpy``: a plain ~20-line version (factorize, searchsorted, lexsort, bincount), no checks, no tie rule;
* ``floor``: ``pd.factorize(run["doc"])`` alone: hashing the run's document ids, which any evaluation of ids
  that are not yet integer codes must do.

Scores are distinct floats in [0, 1) per query (no tie rule involved); per-query values of ndcg_core must equal
pytrec_eval's to 1e-12 (checked on every case). Figures are CPU seconds of the process (``time.process_time``: the
machine is shared, so wall-clock time would count other processes' work); ratios are pytrec_eval / ndcg_core and
numpy / ndcg_core from the same processes: first calls against first calls, repeats against repeats.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SHAPES = {  # name: (queries, documents per query, catalogue (None: a large collection), judgments per query)
    "trec": (10_000, 100, None, 30),
    "rec1k": (10_000, 100, 1_000, 20),
    "rec50k": (10_000, 100, 50_000, 20),
    "wide": (50, 1_000, None, 200),
    "one": (1, 1_000_000, None, 10_000),
}
DTYPES = ("categorical", "str", "object", "int64")
ORDERS = ("ranked", "shuffled")
K = 10


def _distinct_per_row(rng, n_rows: int, width: int, catalogue: int) -> np.ndarray:
    """``width`` distinct numbers below ``catalogue`` per row: base + j * step (mod catalogue), step coprime."""
    base = rng.integers(0, catalogue, n_rows)
    step = rng.integers(1, catalogue // max(width, 1), n_rows)
    step = step + (step % 2 == 0)  # odd ...
    step = np.where(step % 5 == 0, step + 2, step)  # ... and not a multiple of 5: coprime with 2^a 5^b
    return (base[:, None] + np.arange(width)[None, :] * step[:, None]) % catalogue


def make_case(shape: str, dtype: str, order: str, seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    n_queries, depth, catalogue, n_judged = SHAPES[shape]
    rng = np.random.default_rng(seed)
    if catalogue is None:  # large collection: retrieved docs and extra judged docs never collide
        collection = 1_000 * 5**7 * 2**3  # 2^a 5^b, far more documents than the run holds
        docs = _distinct_per_row(rng, n_queries, depth + n_judged // 2, collection)
        retrieved = docs[:, :depth]
        picked = rng.random((n_queries, depth)).argsort(axis=1)[:, : n_judged - n_judged // 2]
        judged_docs = np.concatenate([np.take_along_axis(retrieved, picked, axis=1), docs[:, depth:]], axis=1)
    else:  # recommender: items from a shared catalogue
        retrieved = _distinct_per_row(rng, n_queries, depth, catalogue)
        judged_docs = _distinct_per_row(rng, n_queries, n_judged, catalogue)
    query = np.repeat(np.arange(n_queries), depth)
    scores = np.sort(rng.random((n_queries, depth)), axis=1)[:, ::-1].ravel()  # (pytrec_eval ties scores ~1e-9 apart)
    run = pd.DataFrame({"query": query, "doc": retrieved.ravel(), "score": scores})
    qrels = pd.DataFrame({"query": np.repeat(np.arange(n_queries), judged_docs.shape[1]), "doc": judged_docs.ravel(),
                          "relevance": rng.integers(0, 4, judged_docs.size)})
    if order == "shuffled":
        run = run.sample(frac=1, random_state=seed).reset_index(drop=True)
    return _with_ids(run, dtype), _with_ids(qrels, dtype)


def _with_ids(frame: pd.DataFrame, dtype: str) -> pd.DataFrame:
    """The integer ids as ``dtype``: text ids are "q<n>" / "d<n>"."""
    out = {}
    for column, prefix in (("query", "q"), ("doc", "d")):
        numbers = frame[column].to_numpy()
        if dtype == "int64":
            out[column] = numbers.astype(np.int64)
            continue
        uniques, codes = np.unique(numbers, return_inverse=True)
        names = np.array([f"{prefix}{n}" for n in uniques.tolist()], dtype=object)
        if dtype == "categorical":  # as read_run / read_qrels give them: sorted text categories
            by_name = np.argsort(names.astype(str))
            rank = np.empty_like(by_name)
            rank[by_name] = np.arange(by_name.size)
            out[column] = pd.Categorical.from_codes(rank[codes], pd.Index(names[by_name], dtype="str"))
        elif dtype == "str":
            out[column] = pd.array(names[codes], dtype="str")
        else:
            out[column] = pd.Series(names[codes], dtype=object)
    return frame.assign(**out)


def numpy_ndcg(run: pd.DataFrame, qrels: pd.DataFrame, k: int) -> pd.Series:
    """NDCG@k per query, the plain way: factorize, searchsorted, lexsort, bincount (no checks, no tie rule)."""
    n = len(run)
    queries, query_names = pd.factorize(pd.concat([run["query"], qrels["query"]], ignore_index=True))
    docs, _ = pd.factorize(pd.concat([run["doc"], qrels["doc"]], ignore_index=True))
    n_docs, n_queries = int(docs.max()) + 1, len(query_names)
    judged_key = queries[n:].astype(np.int64) * n_docs + docs[n:]
    by_key = np.argsort(judged_key)
    sorted_key, relevance = judged_key[by_key], qrels["relevance"].to_numpy(dtype=float)[by_key]
    run_key = queries[:n].astype(np.int64) * n_docs + docs[:n]
    slot = np.minimum(np.searchsorted(sorted_key, run_key), sorted_key.size - 1)
    grade = np.where(sorted_key[slot] == run_key, relevance[slot], 0.0)

    def top_k_dcg(query: np.ndarray, value: np.ndarray, gain: np.ndarray) -> np.ndarray:
        order = np.lexsort((-value, query))
        query, gain = query[order], gain[order]
        starts = np.flatnonzero(np.r_[True, query[1:] != query[:-1]])
        rank = np.arange(query.size) - np.repeat(starts, np.diff(np.r_[starts, query.size]))
        kept = rank < k
        return np.bincount(query[kept], weights=gain[kept] / np.log2(rank[kept] + 2), minlength=n_queries)

    dcg = top_k_dcg(queries[:n], run["score"].to_numpy(dtype=float), grade)
    idcg = top_k_dcg(queries[n:], qrels["relevance"].to_numpy(dtype=float), qrels["relevance"].to_numpy(dtype=float))
    in_run = np.bincount(queries[:n], minlength=n_queries) > 0
    ndcg = np.divide(dcg, idcg, out=np.zeros(n_queries), where=idcg > 0)
    return pd.Series(ndcg[in_run], index=np.asarray(query_names)[in_run].astype(str))


def _dicts(run: pd.DataFrame, qrels: pd.DataFrame) -> tuple[dict, dict]:
    qrels_dict: dict = {}
    for q, d, r in zip(qrels["query"].astype(str), qrels["doc"].astype(str), qrels["relevance"].tolist(), strict=True):
        qrels_dict.setdefault(q, {})[d] = int(r)
    run_dict: dict = {}
    for q, d, s in zip(run["query"].astype(str), run["doc"].astype(str), run["score"].tolist(), strict=True):
        run_dict.setdefault(q, {})[d] = float(s)
    return run_dict, qrels_dict


def _timed(call) -> tuple[float, object]:
    """CPU seconds of this process (all its threads): the machine is shared, so wall-clock time would count
    other processes' work too."""
    start = time.process_time()
    value = call()
    return time.process_time() - start, value


def one_case(shape: str, dtype: str, order: str, repeats: int) -> dict:
    """Time every contender on one case (meant to run in a fresh process)."""
    import pytrec_eval

    import ndcg_core

    run, qrels = make_case(shape, dtype, order)
    tiny_run, tiny_qrels = make_case("wide", dtype, order, seed=1)
    ndcg_core.evaluate_run(tiny_run.head(50), tiny_qrels.head(50), k=K, gain="linear")  # imports, lazy setup
    run_dict, qrels_dict = _dicts(run, qrels)

    figures: dict[str, float] = {}
    figures["first"], result = _timed(lambda: ndcg_core.evaluate_run(run, qrels, k=K, gain="linear"))
    samples: dict[str, list[float]] = {"repeat": [], "encoded": [], "pytrec_eval": [], "numpy": [], "floor": []}
    encoded = ndcg_core.encode_run(run, qrels)
    measures = {f"ndcg_cut.{K}"}
    for _ in range(repeats):  # interleaved, so a busy moment hits every contender alike
        samples["repeat"].append(_timed(lambda: ndcg_core.evaluate_run(run, qrels, k=K, gain="linear"))[0])
        samples["encoded"].append(_timed(lambda: encoded.evaluate(k=K, gain="linear"))[0])
        seconds, measured = _timed(lambda: pytrec_eval.RelevanceEvaluator(qrels_dict, measures).evaluate(run_dict))
        samples["pytrec_eval"].append(seconds)
        seconds, plain = _timed(lambda: numpy_ndcg(run, qrels, K))
        samples["numpy"].append(seconds)
        samples["floor"].append(_timed(lambda: pd.factorize(run["doc"]))[0])  # hashing the run's doc ids alone
    figures.update({name: statistics.median(values) for name, values in samples.items()})

    ours = result.per_query["ndcg"]
    theirs = pd.Series({q: values[f"ndcg_cut_{K}"] for q, values in measured.items()})
    common = ours.index.intersection(theirs.index)
    figures["max_abs_diff_pytrec"] = float(np.abs(ours[common].to_numpy() - theirs[common].to_numpy()).max())
    figures["max_abs_diff_numpy"] = float(np.abs(ours[common].to_numpy() - plain[common].to_numpy()).max())
    figures["n_compared"] = int(common.size)
    figures["rows"] = len(run)
    return figures


FIRST_CONTENDERS = ("ndcg_core", "pytrec_eval", "numpy")


def first_call(shape: str, dtype: str, order: str, contender: str) -> float:
    """CPU seconds of ``contender``'s first call on a case's full frames, in a process of its own.

    Each contender starts from the same state: frames (and, for pytrec_eval, its dicts) built, imports warmed by
    the same contender on a tiny input, then one call on the big input, the first that allocates memory of that
    size (a fresh process pays page faults and its memory pool's first growth there, whoever calls).
    """
    import pytrec_eval

    import ndcg_core

    run, qrels = make_case(shape, dtype, order)
    tiny_run, tiny_qrels = make_case("wide", dtype, order, seed=1)
    tiny_run, tiny_qrels = tiny_run.head(50), tiny_qrels.head(50)
    if contender == "ndcg_core":
        ndcg_core.evaluate_run(tiny_run, tiny_qrels, k=K, gain="linear")
        return _timed(lambda: ndcg_core.evaluate_run(run, qrels, k=K, gain="linear"))[0]
    if contender == "numpy":
        numpy_ndcg(tiny_run, tiny_qrels, K)
        return _timed(lambda: numpy_ndcg(run, qrels, K))[0]
    measures = {f"ndcg_cut.{K}"}
    tiny_dicts, (run_dict, qrels_dict) = _dicts(tiny_run, tiny_qrels), _dicts(run, qrels)
    pytrec_eval.RelevanceEvaluator(tiny_dicts[1], measures).evaluate(tiny_dicts[0])
    return _timed(lambda: pytrec_eval.RelevanceEvaluator(qrels_dict, measures).evaluate(run_dict))[0]


def _in_fresh_process(*arguments: str) -> dict:
    out = subprocess.run([sys.executable, __file__, *arguments], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shapes", nargs="*", default=list(SHAPES), choices=list(SHAPES))
    parser.add_argument("--dtypes", nargs="*", default=list(DTYPES), choices=list(DTYPES))
    parser.add_argument("--orders", nargs="*", default=list(ORDERS), choices=list(ORDERS))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--case", nargs=3, help=argparse.SUPPRESS)  # internal: run one case, print JSON
    parser.add_argument("--first", choices=FIRST_CONTENDERS, help=argparse.SUPPRESS)  # internal, with --case
    args = parser.parse_args()
    if args.case and args.first:
        print(json.dumps({"first": first_call(*args.case, args.first)}))
        return
    if args.case:
        print(json.dumps(one_case(*args.case, repeats=args.repeats)))
        return
    header = (f"{'shape':7} {'ids':11} {'order':8} {'first':>7} {'pyt.1st':>7} {'np.1st':>7} {'repeat':>7} "
              f"{'pytrec':>7} {'numpy':>7} {'encoded':>7} {'floor':>7} {'1st:pyt':>7} {'rep:pyt':>7} "
              f"{'enc:pyt':>7} {'1st:np':>7} {'rep:np':>7} {'diff':>8}")
    print(header)
    for shape in args.shapes:
        for dtype in args.dtypes:
            for order in args.orders:
                case = ("--case", shape, dtype, order)
                firsts = {name: _in_fresh_process(*case, "--first", name)["first"] for name in FIRST_CONTENDERS}
                f = _in_fresh_process(*case, "--repeats", str(args.repeats))
                print(f"{shape:7} {dtype:11} {order:8} {firsts['ndcg_core']:7.3f} {firsts['pytrec_eval']:7.3f} "
                      f"{firsts['numpy']:7.3f} {f['repeat']:7.3f} {f['pytrec_eval']:7.3f} {f['numpy']:7.3f} "
                      f"{f['encoded']:7.3f} {f['floor']:7.3f} "
                      f"{firsts['pytrec_eval'] / firsts['ndcg_core']:6.1f}x {f['pytrec_eval'] / f['repeat']:6.1f}x "
                      f"{f['pytrec_eval'] / f['encoded']:6.1f}x {firsts['numpy'] / firsts['ndcg_core']:6.1f}x "
                      f"{f['numpy'] / f['repeat']:6.1f}x {f['max_abs_diff_pytrec']:8.1e}", flush=True)


if __name__ == "__main__":
    main()
