"""Benchmark: TREC files -> per-query NDCG@10, end to end, each contender in a fresh process.

Usage (from the repository root)::

    python bench/bench_files.py                              # 10,000 queries x 100 docs, 3 rounds
    python bench/bench_files.py --trec-eval-src DIR          # trec_eval's sources (a folder or a git dir)
    python bench/bench_files.py --queries 1000 --rounds 1    # a quick look

Data (generated deterministically into a temporary folder): 10,000 queries x 100 retrieved documents =
1,000,000 run lines (distinct scores within a query, so every tool orders them alike), and 300,000
judgments with grades 0-3, half of them for documents the run did not retrieve.

Contenders, each started as a new process per round (imports and first calls included, as a user meets them):

* ``ndcg_core``: ``read_qrels`` + ``read_run`` + ``evaluate_run(k=10, gain="linear")``;
* ``trec_eval`` (the C program, built from trec_eval's own sources): ``trec_eval -q -m ndcg_cut.10``;
* ``pytrec_eval`` with its own parsers: ``parse_qrel`` + ``parse_run`` + ``RelevanceEvaluator.evaluate``;
* ``ranx``: ``Qrels.from_file`` + ``Run.from_file`` + ``evaluate(..., "ndcg@10", return_mean=False)``;
* the floor: ``pyarrow.csv.read_csv`` of the same two files (parse only, types inferred).

For the Python contenders two figures: the whole process (interpreter start, imports, work) and the work
alone (from the first read call to per-query figures in hand; an app has its imports loaded already). The
script checks that every contender's per-query NDCG@10 agrees: 1e-12 between the Python libraries,
5e-5 against trec_eval's 4-decimal printout.

trec_eval's program: the issue suggests ``pip download --no-binary :all: --no-deps pytrec-eval-terrier``,
but that source distribution does not contain trec_eval's C files (its setup.py downloads them from GitHub
at build time), so the script tries it, says so, and otherwise builds from ``--trec-eval-src`` (or the
``TREC_EVAL_SRC`` variable): a trec_eval source folder or git directory. The program is built with
``make`` into ``~/.cache/ndcg-explained/trec_eval/`` (nothing is written to the repository).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path.home() / ".cache" / "ndcg-explained" / "trec_eval"
K = 10

# Each Python contender: code run in a fresh interpreter; it prints one JSON line {"work": s, "import": s} and
# writes {query: ndcg@10} as JSON to argv[3]. argv[1], argv[2]: the qrels and the run file.
CONTENDERS = {
    "ndcg_core": """
import sys, time, json
t0 = time.perf_counter()
sys.path.insert(0, {root!r})
import ndcg_core
t1 = time.perf_counter()
c1 = time.process_time()
qrels = ndcg_core.read_qrels(sys.argv[1])
run = ndcg_core.read_run(sys.argv[2])
result = ndcg_core.evaluate_run(run, qrels, k=10, gain="linear")
per_query = result.per_query["ndcg"]
t2 = time.perf_counter()
print(json.dumps({{"import": t1 - t0, "work": t2 - t1, "work_cpu": time.process_time() - c1}}))
json.dump({{str(q): float(v) for q, v in per_query.items()}}, open(sys.argv[3], "w"))
""",
    "pytrec_eval": """
import sys, time, json
t0 = time.perf_counter()
import pytrec_eval
t1 = time.perf_counter()
c1 = time.process_time()
with open(sys.argv[1]) as f:
    qrels = pytrec_eval.parse_qrel(f)
with open(sys.argv[2]) as f:
    run = pytrec_eval.parse_run(f)
per_query = pytrec_eval.RelevanceEvaluator(qrels, {{"ndcg_cut.10"}}).evaluate(run)
t2 = time.perf_counter()
print(json.dumps({{"import": t1 - t0, "work": t2 - t1, "work_cpu": time.process_time() - c1}}))
json.dump({{q: v["ndcg_cut_10"] for q, v in per_query.items()}}, open(sys.argv[3], "w"))
""",
    "ranx": """
import sys, time, json
t0 = time.perf_counter()
from ranx import Qrels, Run, evaluate
t1 = time.perf_counter()
c1 = time.process_time()
qrels = Qrels.from_file(sys.argv[1], kind="trec")
run = Run.from_file(sys.argv[2], kind="trec")
values = evaluate(qrels, run, "ndcg@10", return_mean=False, make_comparable=True)
t2 = time.perf_counter()
print(json.dumps({{"import": t1 - t0, "work": t2 - t1, "work_cpu": time.process_time() - c1}}))
json.dump(dict(zip(run.keys(), map(float, values))), open(sys.argv[3], "w"))
""",
    "pyarrow parse (floor)": """
import sys, time, json
t0 = time.perf_counter()
import pyarrow.csv as csv
t1 = time.perf_counter()
c1 = time.process_time()
options = csv.ParseOptions(delimiter=" ")
qrels = csv.read_csv(sys.argv[1], read_options=csv.ReadOptions(column_names=["q", "i", "d", "r"]),
                     parse_options=options)
run = csv.read_csv(sys.argv[2], read_options=csv.ReadOptions(column_names=["q", "z", "d", "k", "s", "t"]),
                   parse_options=options)
t2 = time.perf_counter()
print(json.dumps({{"import": t1 - t0, "work": t2 - t1, "work_cpu": time.process_time() - c1, "rows": run.num_rows + qrels.num_rows}}))
json.dump({{}}, open(sys.argv[3], "w"))
""",
}


def write_files(folder: Path, queries: int, depth: int, seed: int = 11) -> tuple[Path, Path]:
    """The run (queries x depth lines) and the qrels (30% of depth judged per query, half not retrieved)."""
    rng = np.random.default_rng(seed)
    judged_per_query = int(depth * 0.3)
    # Documents: distinct within a query (a random start plus a stride), ids like a collection's docnos.
    start = rng.integers(0, 9_000_000, size=queries)
    offsets = np.arange(depth + judged_per_query // 2) * 7_919
    docs = (start[:, None] + offsets[None, :]) % 9_999_991
    retrieved = docs[:, :depth]
    query_ids = np.char.add("q", np.arange(1, queries + 1).astype(str))
    doc_ids = np.char.add("DOC-", retrieved.astype(str))
    # Distinct scores within a query, best first: the ranked order is unambiguous for every tool.
    scores = np.sort(rng.random((queries, depth)) * 100, axis=1)[:, ::-1] + np.arange(depth)[::-1] * 1e-3
    ranks = np.arange(1, depth + 1)
    run_lines = [
        f"{query_ids[q]} Q0 {doc_ids[q, r]} {ranks[r]} {scores[q, r]:.6f} bench"
        for q in range(queries) for r in range(depth)
    ]
    run_path = folder / "run.txt"
    run_path.write_text("\n".join(run_lines) + "\n")
    half = judged_per_query // 2
    qrels_lines = []
    for q in range(queries):
        judged_retrieved = rng.choice(depth, size=judged_per_query - half, replace=False)
        grades = rng.choice(4, size=judged_per_query, p=[0.4, 0.3, 0.2, 0.1])
        ids = list(doc_ids[q, judged_retrieved]) + [f"DOC-{d}" for d in docs[q, depth:depth + half]]
        qrels_lines += [f"{query_ids[q]} 0 {doc} {grade}" for doc, grade in zip(ids, grades, strict=True)]
    qrels_path = folder / "qrels.txt"
    qrels_path.write_text("\n".join(qrels_lines) + "\n")
    return qrels_path, run_path


def trec_eval_program(source: str | None) -> Path | None:
    """The trec_eval program: cached, else built from the pytrec_eval sdist or from ``source``."""
    program = CACHE / "trec_eval"
    if program.exists():
        return program
    with tempfile.TemporaryDirectory() as temp:
        temp = Path(temp)
        found = _sources_from_sdist(temp / "sdist")
        if found is None:
            print("  pytrec-eval-terrier's sdist has no trec_eval C files (its setup.py downloads them at build "
                  "time); using --trec-eval-src")
            found = _sources_from(source, temp / "src") if source else None
        if found is None:
            print("  no trec_eval sources: pass --trec-eval-src (a trec_eval folder or git directory)")
            return None
        build = subprocess.run(["make", "-C", str(found)], capture_output=True, text=True)
        if build.returncode != 0 or not (found / "trec_eval").exists():
            print("  building trec_eval failed:", build.stderr[-500:])
            return None
        CACHE.mkdir(parents=True, exist_ok=True)
        shutil.copy2(found / "trec_eval", program)
    return program


def _sources_from_sdist(folder: Path) -> Path | None:
    folder.mkdir(parents=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-binary", ":all:", "--no-deps",
                    "--no-build-isolation", "pytrec-eval-terrier", "-d", str(folder)], capture_output=True)
    for archive in folder.glob("*.tar.gz"):
        shutil.unpack_archive(archive, folder)
    makefiles = [path.parent for path in folder.rglob("Makefile") if (path.parent / "trec_eval.c").exists()]
    return makefiles[0] if makefiles else None


def _sources_from(source: str, folder: Path) -> Path | None:
    path = Path(source)
    if (path / "trec_eval.c").exists():
        shutil.copytree(path, folder)
        return folder
    if (path / "HEAD").exists():  # a bare git directory: export its newest commit
        folder.mkdir(parents=True)
        archive = subprocess.run(["git", "--git-dir", str(path), "archive", "HEAD"], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
        return folder if (folder / "trec_eval.c").exists() else None
    return None


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_python(name: str, qrels: Path, run: Path, out: Path, *, root: Path = ROOT) -> dict:
    code = CONTENDERS["ndcg_core" if name.startswith("ndcg_core") else name].format(root=str(root))
    start, cpu = time.perf_counter(), children_cpu()
    done = subprocess.run([sys.executable, "-c", code, str(qrels), str(run), str(out)], capture_output=True,
                          text=True, check=False)
    wall, cpu = time.perf_counter() - start, children_cpu() - cpu
    if done.returncode != 0:
        raise SystemExit(f"{name} failed:\n{done.stderr[-2000:]}")
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    return {"process": wall, "cpu": cpu, **figures}


def run_trec_eval(program: Path, qrels: Path, run: Path, out: Path) -> dict:
    start, cpu = time.perf_counter(), children_cpu()
    done = subprocess.run([str(program), "-q", "-m", f"ndcg_cut.{K}", str(qrels), str(run)], capture_output=True,
                          text=True, check=True)
    wall, cpu = time.perf_counter() - start, children_cpu() - cpu
    values = {}
    for line in done.stdout.splitlines():
        measure, query, value = line.split()
        if query != "all":
            values[query] = float(value)
    out.write_text(json.dumps(values))
    return {"process": wall, "work": wall, "cpu": cpu, "work_cpu": cpu}


def check_agreement(results: dict[str, Path]) -> str:
    reference = json.loads(results["ndcg_core"].read_text())
    notes = []
    for name, path in results.items():
        values = json.loads(path.read_text())
        if not values or name == "ndcg_core" or name.startswith("ndcg_core ("):
            continue
        common = reference.keys() & values.keys()
        gap = max(abs(reference[q] - values[q]) for q in common)
        tolerance = 5.01e-5 if name == "trec_eval" else 1e-12
        assert len(common) == len(reference), f"{name}: {len(common)} of {len(reference)} queries in common"
        assert gap <= tolerance, f"{name} differs from ndcg_core by {gap:.2e} (> {tolerance:g})"
        notes.append(f"{name} {gap:.1e}")
    return "per-query NDCG@10 agrees: largest gap " + ", ".join(notes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3, help="fresh processes per contender (median reported)")
    parser.add_argument("--trec-eval-src", default=os.environ.get("TREC_EVAL_SRC"))
    parser.add_argument("--compare-root", type=Path, help="another checkout of this repository, timed as a contender "
                        "'ndcg_core (other)' (e.g. the code before a change)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        qrels, run = write_files(folder, args.queries, args.depth)
        lines = sum(1 for _ in run.open()), sum(1 for _ in qrels.open())
        print(f"python {platform.python_version()}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}; run "
              f"{lines[0]:,} lines ({run.stat().st_size / 1e6:.0f} MB), qrels {lines[1]:,} lines")
        program = trec_eval_program(args.trec_eval_src)
        names = ["pyarrow parse (floor)", "ndcg_core", "pytrec_eval", "ranx"] + (["trec_eval"] if program else [])
        if args.compare_root:
            names.insert(2, "ndcg_core (other)")
        rounds: dict[str, list[dict]] = {name: [] for name in names}
        outputs = {name: folder / f"{name.replace(' ', '_').strip('()')}.json" for name in names}
        for _ in range(args.rounds):  # contenders take turns, so a busy moment hits them alike
            for name in names:
                if name == "trec_eval":
                    rounds[name].append(run_trec_eval(program, qrels, run, outputs[name]))
                else:
                    root = args.compare_root if name == "ndcg_core (other)" else ROOT
                    rounds[name].append(run_python(name, qrels, run, outputs[name], root=root))
        print(check_agreement({name: outputs[name] for name in names if name != "pyarrow parse (floor)"}))
        print(f"load after: {os.getloadavg()[0]:.1f}; medians of {args.rounds} fresh processes each")
        median = {name: {key: statistics.median(r[key] for r in rows) for key in ("process", "work", "cpu", "work_cpu")}
                  for name, rows in rounds.items()}
        ours = median["ndcg_core"]
        print("process: wall time of the whole process; work: from the first read call to per-query figures;")
        print("CPU: user + system time of the whole process (all threads); work CPU: the same for the work alone")
        print("(trec_eval: its whole process). Ratios: contender / ndcg_core.")
        print(f"{'contender':<24}{'process s':>10}{'work s':>9}{'CPU s':>8}{'work CPU s':>11}"
              f"{'x process':>11}{'x work':>8}{'x CPU':>7}{'x work CPU':>11}")
        for name in names:
            figures = median[name]
            print(f"{name:<24}{figures['process']:>10.3f}{figures['work']:>9.3f}{figures['cpu']:>8.3f}"
                  f"{figures['work_cpu']:>11.3f}{figures['process'] / ours['process']:>11.2f}"
                  f"{figures['work'] / ours['work']:>8.2f}{figures['cpu'] / ours['cpu']:>7.2f}"
                  f"{figures['work_cpu'] / ours['work_cpu']:>11.2f}")


if __name__ == "__main__":
    main()
