"""Unjudged documents over a whole run, vectorised: :func:`incomplete_run`.

The figures of :func:`incomplete_judgments` (module ``_incomplete``) for every
query of a run at once, from three evaluations of one encoded run (no loop
over queries; ids encoded once, so a million-query run stays cheap):

* **standard**: the run as it is (an unjudged document counts as grade 0);
* **condensed** (Sakai 2007): the run without its unjudged rows, so the
  judged documents below them move up; the judgments, hence IDCG, unchanged.
  A query whose retrieved documents are all unjudged has an empty condensed
  list: DCG 0, so NDCG 0 (the zero-IDCG rule's value when IDCG = 0), as in
  :func:`incomplete_judgments` and as trec_eval -J (pytrec_eval's
  ``judged_docs_only_flag``, ir_measures' ``nDCG(judged_only=True)``) count it;
* **upper**: every unjudged retrieved document judged at the query's highest
  judged grade (1 when no judged grade is positive); those judgments join the
  ideal list too, as a real judgment would;
* **judged_at_k**: 1 - (unjudged documents in the first k) / min(k, retrieved).

The lower figure is the standard one.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from ._encoded_run import EncodedRun, query_blocks
from ._runs import RunResult, _encoded, evaluate_run
from ._validation import InvalidInput


def incomplete_run(run: pd.DataFrame | EncodedRun, qrels: pd.DataFrame | None = None, *,
                   standard: RunResult | None = None, **options) -> pd.DataFrame:
    """Per query: ``standard``, ``condensed``, ``upper``, ``judged_at_k`` and ``n_unjudged_in_cutoff``.

    ``run``/``qrels`` as in :func:`evaluate_run`: DataFrames, or an
    :class:`EncodedRun` the caller holds (then ``qrels`` is None); the
    condensed and top-grade runs are derived from the encoded run, so ids
    are encoded once. ``options`` are :func:`evaluate_run`'s keywords (k,
    gain, log_base, zero_idcg, missing, ties) and apply to all three
    evaluations. The index is that of ``evaluate_run(...).per_query``; means
    over it with ``nanmean`` give the run's figures. ``standard``: the
    caller's own ``evaluate_run(run, qrels, **options)`` result, if it has
    one (saves one of the three evaluations).

    >>> run = pd.DataFrame({"query": "q", "doc": ["x", "a", "y", "b", "c"], "score": [5, 4, 3, 2, 1]})
    >>> qrels = pd.DataFrame({"query": "q", "doc": ["a", "b", "c", "d"], "relevance": [3, 1, 0, 2]})
    >>> figures = incomplete_run(run, qrels, k=3, gain="linear").loc["q"]
    >>> [round(float(figures[name]), 4) for name in ("standard", "condensed", "upper", "judged_at_k")]
    [0.3975, 0.7625, 1.0, 0.3333]
    """
    encoded = _encoded(run, qrels)  # evaluate_run's rule: an EncodedRun holds its judgments already
    if standard is None:
        standard = evaluate_run(encoded, **options)
    standard = standard.per_query
    judged = encoded.judgment > 0  # per evaluated row (rows of queries that have a judgment)
    if judged.any():
        condensed = evaluate_run(_only_rows(encoded, judged), **options).per_query["ndcg"].reindex(standard.index)
    else:
        condensed = pd.Series(np.nan, index=standard.index)
    # Nothing judged retrieved: the condensed list is empty, DCG 0. It was left out (NaN), so the mean was over other
    # queries than the usual figure's and differed from trec_eval -J's, which counts the query as 0.
    empty = standard["n_judged_retrieved"].to_numpy() == 0
    condensed = condensed.mask(empty, np.where(standard["idcg"].to_numpy() > 0, 0.0, standard["ndcg"].to_numpy()))
    upper = evaluate_run(_unjudged_at_highest(encoded, ~judged), **options).per_query["ndcg"]
    depth = standard["n_retrieved"].to_numpy(dtype=float)
    if options.get("k") is not None:
        depth = np.minimum(depth, float(options["k"]))
    unjudged_cut = standard["n_unjudged_in_cutoff"].to_numpy(dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        judged_at_k = np.where(depth > 0, 1 - unjudged_cut / np.where(depth > 0, depth, 1), np.nan)
    return pd.DataFrame({
        "standard": standard["ndcg"], "condensed": condensed, "upper": upper.reindex(standard.index),
        "judged_at_k": judged_at_k, "n_unjudged_in_cutoff": standard["n_unjudged_in_cutoff"],
    }, index=standard.index)


def _only_rows(encoded: EncodedRun, keep: np.ndarray) -> EncodedRun:
    """The encoded run with only the evaluated rows where ``keep`` is true (the condensed list).

    The judgments, hence the ideal lists, are unchanged. A judged query left with no row counts as not
    retrieved (absent from the result unless ``missing="zero"``), as if the run had never listed it.
    """
    all_rows = np.arange(encoded.columns.run_queries.size) if encoded.rows is None else encoded.rows
    query = encoded.query[keep]
    kept_per_query = np.bincount(query, minlength=encoded.n_queries)
    grouped, boundary = query_blocks(query, int(np.count_nonzero(kept_per_query)))
    return replace(
        encoded, rows=all_rows[keep], query=query, value=encoded.value[keep], judgment=encoded.judgment[keep],
        in_run=encoded.in_run & (~encoded.judged | (kept_per_query > 0)),
        n_retrieved=np.where(encoded.judged, kept_per_query, encoded.n_retrieved),
        n_judged_retrieved=np.where(encoded.judged, kept_per_query, encoded.n_judged_retrieved),
        grouped=grouped, boundary=boundary,
    )


def _unjudged_at_highest(encoded: EncodedRun, unjudged: np.ndarray) -> EncodedRun:
    """The encoded run with every unjudged evaluated row judged at its query's highest grade (1 when no grade
    of the query is positive). The new judgments join the ideal lists, as real judgments would."""
    grades, judged_query = encoded.grades, encoded.judged_query
    highest = np.zeros(encoded.n_queries)
    np.maximum.at(highest, judged_query, grades)
    highest[highest <= 0] = 1.0
    rows = np.flatnonzero(unjudged)
    added_query = encoded.query[rows]
    judgment = encoded.judgment.copy()
    judgment[rows] = grades.size + 1 + np.arange(rows.size)
    return replace(
        encoded, judgment=judgment, n_judged_retrieved=encoded.n_retrieved,
        columns=replace(encoded.columns, grades=np.concatenate([grades, highest[added_query]])),
        ids=replace(encoded.ids, query=replace(encoded.ids.query,
                                               judged=np.concatenate([judged_query, added_query]))),
    )


SUMMARY_COLUMNS = frozenset({"standard", "condensed", "upper", "judged_at_k", "n_unjudged_in_cutoff"})


def incomplete_summary(per_query: pd.DataFrame) -> dict[str, float]:
    """The run's figures from :func:`incomplete_run`'s table: the mean of each NDCG over the queries that have
    one (NaN left out) and ``judged_at_k``, the mean share of judged documents in each query's cutoff;
    ``queries_with_unjudged``, how many queries have an unjudged document in their cutoff."""
    if not isinstance(per_query, pd.DataFrame) or not SUMMARY_COLUMNS.issubset(per_query.columns):
        raise InvalidInput("per_query must be the table incomplete_run returns (columns "
                           f"{', '.join(sorted(SUMMARY_COLUMNS))}), got {type(per_query).__name__}.")
    figures = {name: float(np.nanmean(per_query[name])) if per_query[name].notna().any() else float("nan")
               for name in ("standard", "condensed", "upper", "judged_at_k")}
    figures["queries_with_unjudged"] = int((per_query["n_unjudged_in_cutoff"] > 0).sum())
    return figures
