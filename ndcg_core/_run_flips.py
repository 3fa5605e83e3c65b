"""Does a convention decide which of two runs wins? :func:`run_winner_grid`, vectorised over queries.

The run version of :func:`~ndcg_core.winner_grid`: the same choices (gain,
cutoff, ideal list, IDCG = 0 rule) plus the **tie rule**, which only matters
when a run gives documents equal scores, so it needs the scores and cannot
work on ranked grade lists. Every figure comes from the layers of
:func:`evaluate_run` on an :class:`EncodedRun` (all queries at once, no loop
over queries), so the grid scales with the data set: each run is ranked once
per tie rule and gain (10 sorts), whatever the number of queries and cutoffs.

Two choices are derived rather than re-evaluated:

* **ideal from the ranked documents only**: DCG does not depend on the ideal
  list, so it is the same DCG divided by the IDCG of each query's retrieved
  judged grades (unjudged retrieved documents count 0 and add nothing), built
  with the same :func:`~ndcg_core._ideal.ideal_lists` as ``evaluate_run``'s
  own ideal.
* **IDCG = 0 rule**: the two rules differ only where IDCG is 0 (0 vs 1), so
  both come from one DCG / IDCG pair through :func:`normalise`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ._discounts import discounts
from ._encoded_run import EncodedRun, check_encoded
from ._flips import CHOICES, _winner
from ._gains import gain_values
from ._ideal import ideal_lists
from ._list import normalise
from ._rank import rank
from ._runs import _kept_queries
from ._ties import TIE_RULES
from ._validation import InvalidInput, check_choice, check_k, check_sequence, check_tolerance

CHOICE_NAMES = ("gain", "k", "ideal", "zero_idcg", "ties")


@dataclass(frozen=True, eq=False)
class RunRatios:
    """Per evaluated query of one run, DCG and IDCG under every (tie rule, gain, cutoff, ideal list).

    The expensive part of :func:`run_winner_grid` (one ranking per tie rule and gain):
    build it once with :func:`run_ratios` and pass it for each grid (all queries, then one query).

    ``index`` holds the evaluated queries' ids (text); ``columns`` maps each
    (tie rule, gain, cutoff, ideal list) to a pair of arrays (DCG, IDCG) with
    one value per query of ``index``; ``cutoffs`` are the cutoffs computed (the
    baseline k, 5, 10 and None for the whole list): a grid asked for another
    baseline k is refused.
    """

    index: pd.Index
    columns: dict  # (ties, gain, k, ideal) -> (dcg array, idcg array), aligned with ``index``
    cutoffs: tuple = ()


def _cutoffs(k: int | None) -> list:
    return list(dict.fromkeys([check_k(k), 5, 10, None]))


def run_ratios(run: EncodedRun, *, k: int | None = None, log_base: float = 2.0) -> RunRatios:
    """The DCG and IDCG figures :func:`run_winner_grid` needs for the baseline cutoff ``k``, computed once."""
    check_encoded(run, what="run")
    cutoffs = _cutoffs(k)
    index, columns = _ratios(run, cutoffs, log_base)
    return RunRatios(index=index, columns=columns, cutoffs=tuple(cutoffs))


def run_winner_grid(run_a: EncodedRun | RunRatios, run_b: EncodedRun | RunRatios, *, k: int | None = None,
                    gain: str = "exponential", ideal: str = "all_judged", zero_idcg: str = "zero",
                    ties: str = "trec_eval", log_base: float = 2.0, tolerance: float = 1e-12,
                    queries: Sequence[str] | None = None) -> pd.DataFrame:
    """Mean NDCG of two runs under every combination of gain, cutoff, ideal list, IDCG = 0 rule and tie rule.

    Parameters
    ----------
    run_a, run_b : EncodedRun
        The two runs with their judgments (:func:`encode_run`). Only the
        queries both runs retrieve and that have judgments are compared.
        Or their :func:`run_ratios` (same ``k`` and ``log_base``), computed once for several grids.
    k, gain, ideal, zero_idcg, ties : the baseline choices (the first row).
    queries : optional query ids: compare only these (e.g. one query's grid).

    Returns
    -------
    DataFrame
        The columns of :func:`winner_grid` plus ``ties``: one row per
        combination (baseline first), ``mean_a``, ``mean_b``, ``winner``,
        ``queries_a``, ``queries_b``, ``changed`` and ``flips``; and the
        attributes ``attrs["queries"]`` (how many queries were compared) and
        ``attrs["query_ids"]`` (which).

    Raises :class:`InvalidInput` when the runs share no judged query.
    """
    baseline = {"gain": check_choice(gain, CHOICES["gain"], name="gain"), "k": check_k(k),
                "ideal": check_choice(ideal, CHOICES["ideal"], name="ideal list"),
                "zero_idcg": check_choice(zero_idcg, CHOICES["zero_idcg"], name="zero_idcg rule"),
                "ties": check_choice(ties, TIE_RULES, name="tie rule")}
    tolerance = check_tolerance(tolerance)
    for name, run in (("run_a", run_a), ("run_b", run_b)):
        if not isinstance(run, RunRatios):
            check_encoded(run, what=name)
    cutoffs = _cutoffs(k)
    ratios = [run if isinstance(run, RunRatios) else run_ratios(run, k=k, log_base=log_base) for run in (run_a, run_b)]
    if any(list(r.cutoffs) != cutoffs for r in ratios):
        raise InvalidInput("These precomputed figures were made for another cutoff k: compute them for this one.")
    (index_a, a), (index_b, b) = ((r.index, r.columns) for r in ratios)
    shared = index_a.intersection(index_b)
    if queries is not None:
        wanted = check_sequence(queries, what="queries", of="one query id per query")
        shared = shared.intersection(pd.Index([str(query) for query in wanted]))
    if shared.empty:
        raise InvalidInput("The two runs share no judged query, so there is nothing to compare.")
    rows_a, rows_b = index_a.get_indexer(shared), index_b.get_indexer(shared)
    rows = []
    for values in itertools.product(CHOICES["gain"], cutoffs, CHOICES["ideal"], CHOICES["zero_idcg"], TIE_RULES):
        combo = dict(zip(CHOICE_NAMES, values, strict=True))
        column = (combo["ties"], combo["gain"], combo["k"], combo["ideal"])
        ndcg_a = normalise(a[column][0][rows_a], a[column][1][rows_a], combo["zero_idcg"])
        ndcg_b = normalise(b[column][0][rows_b], b[column][1][rows_b], combo["zero_idcg"])
        mean_a, mean_b = float(ndcg_a.mean()), float(ndcg_b.mean())
        rows.append({**combo, "mean_a": mean_a, "mean_b": mean_b, "winner": _winner(mean_a, mean_b, tolerance),
                     "queries_a": int((ndcg_a > ndcg_b + tolerance).sum()),
                     "queries_b": int((ndcg_b > ndcg_a + tolerance).sum()),
                     "changed": ", ".join(name for name in CHOICE_NAMES if combo[name] != baseline[name])})
    rows.sort(key=lambda row: row["changed"] != "")  # the baseline first (a stable sort keeps the rest in order)
    frame = pd.DataFrame(rows)
    frame["flips"] = frame["winner"] != frame["winner"].iloc[0]
    frame.attrs["queries"] = int(shared.size)
    frame.attrs["query_ids"] = tuple(str(query) for query in shared)
    return frame


def _ratios(run: EncodedRun, cutoffs: list, log_base: float) -> tuple[pd.Index, dict[tuple, tuple]]:
    """The evaluated queries, and per (tie rule, gain, cutoff, ideal list) their DCG and IDCG arrays.

    The layers of :func:`evaluate_run`, each run once: every query ranked once per tie rule and gain (all
    places kept, tied gains averaged over the whole group first, as ``evaluate_run`` does), and each cutoff
    is a mask on the places; the ideal lists once per gain. ``evaluate_run(run, k=..., gain=..., ties=...)``
    gives the same DCG and IDCG (tested).
    """
    codes = _kept_queries(run, "ignore")
    if codes.size == 0:
        raise InvalidInput("No query of the run has any judgment, so there is nothing to compare.")
    n = run.n_queries
    columns: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
    for gain in CHOICES["gain"]:
        judged_gains = gain_values(run.grades, gain) if run.grades.size else np.zeros(0)
        every = ideal_lists(run.judged_query, run.grades, judged_gains, n, None)
        retrieved = _retrieved_ideal(run, gain)
        ideals = {"all_judged": {depth: _discounted(every, depth, n, log_base)[codes] for depth in cutoffs},
                  "ranking": {depth: _discounted(retrieved, depth, n, log_base)[codes] for depth in cutoffs}}
        for ties in TIE_RULES:
            ranked = rank(run, ties=ties, gain=gain, depth=None)
            for depth in cutoffs:
                dcg = _discounted(ranked, depth, n, log_base)[codes]
                for ideal in CHOICES["ideal"]:
                    columns[(ties, gain, depth, ideal)] = (dcg, ideals[ideal][depth])
    return run.query_index(codes), columns


def _discounted(rows, depth: int | None, n_queries: int, log_base: float) -> np.ndarray:
    """Per query, the sum of gain / log_b(place + 1) over the places above ``depth`` (None: all)."""
    kept = slice(None) if depth is None else rows.position < depth
    position = rows.position[kept]
    disc = discounts(int(position.max(initial=0)) + 1, log_base)
    return np.bincount(rows.query[kept], weights=rows.gain[kept] / disc[position], minlength=n_queries)


def _retrieved_ideal(run: EncodedRun, gain: str):
    """The ideal lists of the grades of the documents the run retrieved (the ranked list's own ideal)."""
    hit = np.flatnonzero(run.judgment > 0)
    grades = run.grades[run.judgment[hit] - 1]
    return ideal_lists(run.query[hit], grades, gain_values(grades, gain) if grades.size else np.zeros(0),
                       run.n_queries, None)
