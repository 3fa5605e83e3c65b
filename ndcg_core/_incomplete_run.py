"""Unjudged documents over a whole run, vectorised: :func:`incomplete_run`.

The figures of :func:`incomplete_judgments` (module ``_incomplete``) for every
query of a run at once, from three calls of :func:`evaluate_run` (no loop over
queries, so a million-query run stays cheap):

* **standard**: the run as it is (an unjudged document counts as grade 0);
* **condensed** (Sakai 2007): the run without its unjudged rows, so the
  judged documents below them move up; the judgments, hence IDCG, unchanged.
  A query whose retrieved documents are all unjudged has no condensed list
  (NaN), as in :func:`incomplete_judgments`;
* **upper**: every unjudged retrieved document judged at the query's highest
  judged grade (1 when no judged grade is positive); those judgments join the
  ideal list too, as a real judgment would;
* **judged_at_k**: 1 - (unjudged documents in the first k) / min(k, retrieved).

The lower figure is the standard one.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._encoded_run import EncodedRun, encode_run
from ._runs import RunResult, evaluate_run
from ._validation import InvalidInput


def incomplete_run(run: pd.DataFrame, qrels: pd.DataFrame | None = None, *, standard: RunResult | None = None,
                   **options) -> pd.DataFrame:
    """Per query: ``standard``, ``condensed``, ``upper``, ``judged_at_k`` and ``n_unjudged_in_cutoff``.

    ``run``/``qrels`` as the DataFrames of :func:`evaluate_run` (not an
    :class:`EncodedRun`: the unjudged rows are dropped or judged here);
    ``options`` are :func:`evaluate_run`'s keywords (k, gain, log_base,
    zero_idcg, missing, ties) and apply to all three evaluations. The index
    is that of ``evaluate_run(...).per_query``; means over it with ``nanmean``
    give the run's figures. ``standard``: the caller's own
    ``evaluate_run(run, qrels, **options)`` result, if it has one (saves
    one of the three evaluations).

    >>> run = pd.DataFrame({"query": "q", "doc": ["x", "a", "y", "b", "c"], "score": [5, 4, 3, 2, 1]})
    >>> qrels = pd.DataFrame({"query": "q", "doc": ["a", "b", "c", "d"], "relevance": [3, 1, 0, 2]})
    >>> figures = incomplete_run(run, qrels, k=3, gain="linear").loc["q"]
    >>> [round(float(figures[name]), 4) for name in ("standard", "condensed", "judged_at_k")]
    [0.3975, 0.7625, 0.3333]
    """
    if "query" not in run or "doc" not in run:
        raise InvalidInput("The run needs 'query' and 'doc' columns.")
    encoded = None if qrels is None else encode_run(run, qrels)  # encoded once: the usual figure and the join
    if standard is None:
        standard = evaluate_run(run if encoded is None else encoded, qrels if encoded is None else None, **options)
    standard = standard.per_query
    judged, unjudged_rows = _judged_rows(run, encoded)
    condensed_run = run[judged]
    if condensed_run.empty:
        condensed = pd.Series(np.nan, index=standard.index)
    else:
        condensed = evaluate_run(condensed_run, qrels, **options).per_query["ndcg"].reindex(standard.index)
    upper_run, upper_qrels = _judged_at_highest(run, qrels, unjudged_rows)
    upper = evaluate_run(upper_run, upper_qrels, **options).per_query["ndcg"].reindex(standard.index)
    depth = standard["n_retrieved"].to_numpy(dtype=float)
    if options.get("k") is not None:
        depth = np.minimum(depth, float(options["k"]))
    unjudged_cut = standard["n_unjudged_in_cutoff"].to_numpy(dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        judged_at_k = np.where(depth > 0, 1 - unjudged_cut / np.where(depth > 0, depth, 1), np.nan)
    return pd.DataFrame({
        "standard": standard["ndcg"], "condensed": condensed, "upper": upper, "judged_at_k": judged_at_k,
        "n_unjudged_in_cutoff": standard["n_unjudged_in_cutoff"],
    }, index=standard.index)


def _retrieved(run: pd.DataFrame) -> np.ndarray:
    """Rows that are ranked (a one-table CSV also lists judged documents the run did not retrieve)."""
    has_order = np.zeros(len(run), dtype=bool)
    for column in ("score", "rank"):
        if column in run:
            has_order |= run[column].notna().to_numpy()
    return has_order


def _judged_rows(run: pd.DataFrame, encoded: EncodedRun | None) -> tuple[np.ndarray, np.ndarray]:
    """(rows to keep in the condensed run, retrieved rows without a judgment); ``encoded``: the run and its qrels
    as :func:`encode_run` joined them (None for a one-table run, where an empty relevance marks an unjudged row)."""
    retrieved = _retrieved(run)
    if encoded is None:
        unjudged = retrieved & run["relevance"].isna().to_numpy()
    else:  # the run engine's own join of run rows with judgments (no id turned into a Python string)
        rows = encoded.columns.run_row_numbers  # the frame's rows the engine read (None: all of them)
        judged = np.zeros(len(run), dtype=bool)
        judged[slice(None) if rows is None else rows] = encoded.judgments.of_row > 0
        unjudged = retrieved & ~judged
    return ~unjudged, unjudged


def _judged_at_highest(run: pd.DataFrame, qrels: pd.DataFrame | None, unjudged: np.ndarray):
    """The run and judgments with every unjudged retrieved document judged at its query's highest grade."""
    grades = run if qrels is None else qrels
    highest = grades.groupby(_as_text(grades["query"]), observed=True)["relevance"].max()
    highest = highest.where(highest > 0, 1.0)
    queries = run["query"][unjudged]
    codes, distinct = pd.factorize(queries)  # each distinct query looked up once
    assumed = highest.reindex(_as_text(pd.Series(distinct))).fillna(1.0).to_numpy(dtype=float)[codes]
    # (a query with no judgment at all: 1)
    if qrels is None:
        run = run.copy()
        run["relevance"] = run["relevance"].astype(float)
        run.loc[unjudged, "relevance"] = assumed
        return run, None
    added = pd.DataFrame({"query": _as_text(queries).to_numpy(), "doc": _as_text(run["doc"][unjudged]).to_numpy(),
                          "relevance": assumed})
    plain = pd.DataFrame({"query": _as_text(qrels["query"]).to_numpy(), "doc": _as_text(qrels["doc"]).to_numpy(),
                          "relevance": qrels["relevance"].astype(float).to_numpy()})
    text_run = run.assign(query=_as_text(run["query"]), doc=_as_text(run["doc"]))
    return text_run, pd.concat([plain, added], ignore_index=True)


def _as_text(ids: pd.Series) -> pd.Series:
    """``ids.astype(str)``; a categorical column converts its categories once instead of every row."""
    if isinstance(ids.dtype, pd.CategoricalDtype):
        categories = pd.array(ids.cat.categories.astype(str))
        return pd.Series(categories.take(ids.cat.codes.to_numpy(), allow_fill=True), index=ids.index)
    return ids.astype(str)


def incomplete_summary(per_query: pd.DataFrame) -> dict[str, float]:
    """The run's figures from :func:`incomplete_run`'s table: the mean of each NDCG over the queries that have
    one (NaN left out) and ``judged_at_k``, the mean share of judged documents in each query's cutoff;
    ``queries_with_unjudged``, how many queries have an unjudged document in their cutoff."""
    figures = {name: float(np.nanmean(per_query[name])) if per_query[name].notna().any() else float("nan")
               for name in ("standard", "condensed", "upper", "judged_at_k")}
    figures["queries_with_unjudged"] = int((per_query["n_unjudged_in_cutoff"] > 0).sum())
    return figures
