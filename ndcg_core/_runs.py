"""NDCG of a whole run: many queries at once, as trec_eval computes it.

A *run* lists, for each query, the retrieved documents with a score (or a
rank); the *qrels* list the judged documents of each query with a grade.
Everything here is vectorised over all rows: query and document ids are
turned into integer codes once, rows are ordered once (not at all when the
run is already ranked, as a TREC run file is), and the per-query sums are
``np.bincount`` calls. There is no Python loop per query or per row; the only
loops run over cache-sized blocks of whole queries or of sorted ids (dozens
for a million rows), which makes encoding ids and sorting two to three times
faster.

Categorical ``query``/``doc`` columns (what :func:`read_run` and
:func:`read_qrels` return) are not hashed row by row: their codes are used
as they are, and only the category arrays of the run and the qrels are
matched. That match depends on the two (immutable) category objects alone,
so the last few are kept (see ``_MATCHED_CATEGORIES``): evaluating the same
frames again (another k, gain or tie rule, a cutoff curve) skips it. Only
the first k ranked rows of each query are kept after ordering, and the
ideal lists are built by counting grades per query, without a sort.

Conventions (the same as trec_eval's ``ndcg_cut`` unless a setting says
otherwise):

* A retrieved document without a judgment counts as grade 0 (gain 0; it is
  not looked up in a gain table).
* The ideal list of a query is built from **all** its judgments, including
  judged documents the run did not retrieve, sorted by grade descending and
  cut at k.
* ``k=None`` means no cutoff on either list: DCG over every retrieved
  document and IDCG over every judged document, like trec_eval's plain
  ``ndcg`` measure. (For one list, :func:`evaluate` with ``k=None`` instead
  cuts the ideal at the ranking's length; pass a large k there to get the run
  convention.)
* Queries of the run without any judgment are left out and reported in
  ``unjudged_queries``. Judged queries absent from the run are reported in
  ``missing_queries``; ``missing="zero"`` counts them with DCG 0 (trec_eval
  ``-c``), ``missing="ignore"`` leaves them out (trec_eval's default).
* ``ties="trec_eval"`` orders by score descending and breaks equal scores by
  document id descending (byte order of the id), as trec_eval and
  pytrec_eval do; the rank column of a TREC run is ignored when scores exist.
* A (query, doc) pair listed twice in the run or in the qrels is refused;
  error messages give 1-based row positions in the DataFrame.
"""

from __future__ import annotations

import bisect
import threading
import weakref
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ._discounts import discounts
from ._gains import GainSpec, check_gain, gains_of
from ._list import normalise
from ._validation import (
    AGGREGATES,
    MISSING_RULES,
    RUN_TIE_RULES,
    ZERO_IDCG_RULES,
    InvalidInput,
    check_choice,
    check_k,
    check_log_base,
)

PER_QUERY_COLUMNS = (
    "dcg", "idcg", "ndcg", "n_retrieved", "n_judged_retrieved", "n_judged", "n_relevant", "n_unjudged_in_cutoff",
)


@dataclass(frozen=True)
class RunResult:
    """NDCG of a run, per query and over the whole dataset.

    ``value`` is the aggregate chosen with ``aggregate``; both dataset formulas
    of 000_0bdd5abdb117b00b.txt are always available:

    .. math::

        \\text{mean\\_ndcg} = \\frac{1}{n} \\sum_{q} NDCG_q, \\qquad
        \\text{ratio\\_of\\_sums} = \\frac{\\sum_q DCG_q}{\\sum_q IDCG_q}

    over the evaluated queries (queries whose NDCG is NaN under
    ``zero_idcg="skip"`` are left out of the mean).

    ``per_query`` is indexed by query id (sorted) with columns ``dcg``,
    ``idcg``, ``ndcg``, ``n_retrieved`` (documents the run retrieved),
    ``n_judged_retrieved`` (of those, how many have a judgment), ``n_judged``
    (judgments of the query), ``n_relevant`` (judgments with grade > 0) and
    ``n_unjudged_in_cutoff`` (retrieved documents within the cutoff without a
    judgment). With ``missing="zero"`` it also holds the missing queries.
    ``unjudged_share`` is the share of retrieved documents within the cutoff,
    over the evaluated queries, that have no judgment: a high share means the
    NDCG figures rest on guesses (unjudged counts as not relevant).
    """

    value: float
    mean_ndcg: float
    ratio_of_sums: float
    per_query: pd.DataFrame = field(repr=False)
    unjudged_queries: tuple[str, ...]
    missing_queries: tuple[str, ...]
    zero_idcg_queries: tuple[str, ...]
    unjudged_share: float
    k: int | None
    aggregate: str
    gain: GainSpec
    log_base: float
    zero_idcg: str
    missing: str
    ties: str

    @property
    def n_queries(self) -> int:
        """Number of queries in ``per_query`` (the evaluated ones)."""
        return len(self.per_query)


def evaluate_run(
    run: pd.DataFrame,
    qrels: pd.DataFrame | None = None,
    *,
    k: int | None = None,
    gain: GainSpec = "exponential",
    log_base: float = 2.0,
    aggregate: str = "mean",
    zero_idcg: str = "zero",
    missing: str = "ignore",
    ties: str = "trec_eval",
) -> RunResult:
    r"""Evaluate a run of many queries at once.

    For each query q, with the run's documents ordered by descending score,

    .. math::

        DCG_q@k = \sum_{i=1}^{\min(k, n_q)} \frac{g(rel_{q,i})}{\log_b(i + 1)}, \qquad
        NDCG_q@k = \frac{DCG_q@k}{IDCG_q@k}

    where IDCG_q@k is the DCG@k of all the query's judged grades sorted
    descending. See the module docstring for the conventions.

    Parameters
    ----------
    run : DataFrame
        Columns ``query``, ``doc`` and ``score`` (higher is better) or
        ``rank`` (1 is best); when both exist, ``score`` is used, as in
        trec_eval. When ``qrels`` is None the run also needs ``relevance``:
        an empty (NaN) relevance means "not judged", and a row with a
        relevance but no score (no rank) is a judged document the run did
        not retrieve (it only enters the ideal list).
    qrels : DataFrame, optional
        Columns ``query``, ``doc``, ``relevance`` (non-negative numbers).
    k : positive int or None, keyword-only
        Cutoff for both the ranking and the ideal list; None: no cutoff.
    gain, log_base, zero_idcg
        As in :func:`evaluate`. With ``zero_idcg="skip"`` queries with IDCG 0
        get NaN and are left out of the mean; ``"error"`` raises.
    aggregate : {"mean", "ratio_of_sums"}
        Which dataset formula ``value`` holds.
    missing : {"ignore", "zero"}
        What a judged query absent from the run counts as.
    ties : {"trec_eval", "average", "optimistic", "pessimistic", "stable"}
        How equal scores are ordered: by document id descending (trec_eval),
        gains averaged over the tie (scikit-learn), better or worse grades
        first, or the run's row order.

    Returns
    -------
    RunResult
    """
    settings = _check_run_settings(
        k=k, gain=gain, log_base=log_base, aggregate=aggregate, zero_idcg=zero_idcg, missing=missing, ties=ties
    )
    depth = settings["k"]
    ranked = rank_run(run, qrels, ties=settings["ties"], gain=settings["gain"], depth=depth)
    dcg, n_unjudged_cut = ranked.dcg_at(depth, settings["log_base"])
    idcg = ranked.idcg_at(depth, settings["log_base"])
    return _assemble(ranked, dcg, idcg, n_unjudged_cut, settings)


def ndcg_curve(
    run: pd.DataFrame,
    qrels: pd.DataFrame | None = None,
    *,
    ks=range(1, 21),
    gain: GainSpec = "exponential",
    log_base: float = 2.0,
    zero_idcg: str = "zero",
    missing: str = "ignore",
    ties: str = "trec_eval",
) -> pd.DataFrame:
    """NDCG@k of a run for several cutoffs, sorting the run only once.

    Returns a DataFrame with one row per k in ``ks`` (ascending) and columns
    ``k``, ``mean_ndcg``, ``ratio_of_sums`` and ``n_queries``; each row equals
    ``evaluate_run(..., k=k)``. Per-query DCG@k for every k comes from one
    cumulative sum over the ranked positions.
    """
    cutoffs = _check_ks(ks)
    settings = _check_run_settings(
        k=None, gain=gain, log_base=log_base, aggregate="mean", zero_idcg=zero_idcg, missing=missing, ties=ties
    )
    deepest = int(cutoffs.max())
    ranked = rank_run(run, qrels, ties=settings["ties"], gain=settings["gain"], depth=deepest)
    base = settings["log_base"]
    dcg = _cumulative_by_position(ranked.run_query, ranked.run_position, ranked.run_gain, ranked.n_queries, deepest, base)
    idcg = _cumulative_by_position(
        ranked.ideal_query, ranked.ideal_position, ranked.ideal_gain, ranked.n_queries, deepest, base
    )
    keep = ranked.kept_queries(settings["missing"])
    dcg, idcg = dcg[keep][:, cutoffs - 1], idcg[keep][:, cutoffs - 1]
    if settings["zero_idcg"] == "error" and (idcg == 0).any():
        raise InvalidInput(_zero_idcg_message(ranked.query_names[keep][(idcg == 0).any(axis=1)]))
    ndcg = normalise(dcg, idcg, settings["zero_idcg"])
    counted = ~np.isnan(ndcg)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(counted.any(axis=0), np.nansum(ndcg, axis=0) / counted.sum(axis=0), np.nan)
    return pd.DataFrame(
        {
            "k": cutoffs,
            "mean_ndcg": mean,
            "ratio_of_sums": normalise(dcg.sum(axis=0), idcg.sum(axis=0), settings["zero_idcg"]),
            "n_queries": counted.sum(axis=0),
        }
    )


# --------------------------------------------------------------------------- validation


def _check_run_settings(*, k, gain, log_base, aggregate, zero_idcg, missing, ties) -> dict:
    return {
        "k": check_k(k),
        "gain": check_gain(gain),
        "log_base": check_log_base(log_base),
        "aggregate": check_choice(aggregate, AGGREGATES, name="aggregate"),
        "zero_idcg": check_choice(zero_idcg, ZERO_IDCG_RULES, name="zero_idcg rule"),
        "missing": check_choice(missing, MISSING_RULES, name="missing-query rule"),
        "ties": check_choice(ties, RUN_TIE_RULES, name="tie rule"),
    }


def _check_ks(ks) -> np.ndarray:
    try:
        values = list(ks)
    except TypeError:
        raise InvalidInput(f"ks must be a list of cutoffs such as range(1, 21), got {ks!r}.") from None
    if not values:
        raise InvalidInput("ks is empty: give at least one cutoff k.")
    checked = [check_k(value) for value in values]
    if any(value is None for value in checked):
        raise InvalidInput("ks must contain positive whole numbers only (None is not a cutoff here).")
    return np.unique(np.asarray(checked, dtype=np.int64))


def _require_frame(frame, name: str, needed: tuple[str, ...], hint: str) -> None:
    if not isinstance(frame, pd.DataFrame):
        raise InvalidInput(f"{name} must be a pandas DataFrame with columns {hint}, got {type(frame).__name__}.")
    absent = [column for column in needed if column not in frame.columns]
    if absent:
        have = ", ".join(map(str, frame.columns)) or "none"
        raise InvalidInput(f"{name} is missing column(s) {', '.join(absent)}: it needs {hint} (it has: {have}).")
    if len(frame) == 0:
        raise InvalidInput(f"{name} is empty: it needs at least one row.")


def _ids(frame: pd.DataFrame, column: str, name: str) -> pd.Series:
    """The ``column`` of ``frame`` as strings, refusing empty cells."""
    values = frame[column]
    # (A categorical column marks an empty cell with code -1: one pass over small integers.)
    codes = values.array.codes if isinstance(values.dtype, pd.CategoricalDtype) else None
    if codes is not None and (codes.size == 0 or codes.min() >= 0):  # one pass, no temporary array
        missing = None
    else:
        missing = (codes < 0) if codes is not None else values.isna().to_numpy()
    if missing is not None and missing.any():
        row = int(np.flatnonzero(missing)[0]) + 1
        raise InvalidInput(f"{name} row {row}: the {column} id is empty. Every row needs a {column} id.")
    if _text_categories(values) is not None:  # categorical ids are kept: their integer codes are used directly
        return values.reset_index(drop=True)
    if pd.api.types.is_string_dtype(values.dtype) and not isinstance(values.dtype, pd.CategoricalDtype):
        return values.reset_index(drop=True)
    return values.astype(str).reset_index(drop=True)


def _text_categories(values: pd.Series) -> pd.Index | None:
    """The categories of a categorical id column when they are distinct text, else None.

    Categories that are not text (numbers, say) are turned into text; if two
    of them then read the same (1 and "1"), None: the caller falls back to
    comparing the ids as text row by row.
    """
    if not isinstance(values.dtype, pd.CategoricalDtype):
        return None
    categories = values.dtype.categories
    if isinstance(categories.dtype, pd.StringDtype):
        return categories
    if categories.dtype == object and pd.api.types.infer_dtype(categories, skipna=False) == "string":
        return categories
    as_text = categories.astype(str)
    return as_text if as_text.is_unique else None


def _numbers(frame: pd.DataFrame, column: str, name: str, *, allow_missing: bool = False,
             non_negative: bool = False) -> np.ndarray:
    """The ``column`` as a float array; the first bad row is named in the error."""
    raw = frame[column]
    if raw.dtype == np.float64 or pd.api.types.is_integer_dtype(raw.dtype) and not raw.hasnans:
        # Already numbers (e.g. from the file readers): one finiteness pass instead of parsing.
        values = raw.to_numpy(dtype=float)
        # A finite sum means every value is finite (a NaN or an infinity makes the sum NaN or infinite);
        # a huge finite sum that overflows only sends us to the full check below.
        finite = bool(np.isfinite(values.sum())) or bool(np.isfinite(values).all())
        if (finite or allow_missing and not np.isinf(values).any()) and not (
                non_negative and values.size and values.min() < 0):
            return values
    values = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    blank = raw.isna().to_numpy()
    not_number = np.isnan(values) & ~blank
    bad = not_number | (blank & (not allow_missing)) | np.isinf(values)
    if non_negative:
        bad |= values < 0
    if bad.any():
        at = int(np.flatnonzero(bad)[0])
        value = raw.iloc[at]
        where = f"{name} row {at + 1} (query {frame['query'].iloc[at]!r}, doc {frame['doc'].iloc[at]!r})"
        if not_number[at]:
            problem = f"the {column} {value!r} is not a number"
        elif blank[at]:
            problem = f"the {column} is empty"
        elif np.isinf(values[at]):
            problem = f"the {column} is infinite; it must be a finite number"
        else:
            problem = (f"the {column} is negative ({values[at]:g}); negative grades make NDCG unbounded, "
                       "so they are refused")
        raise InvalidInput(f"{where}: {problem}.")
    return values


def _first_duplicate(keys: np.ndarray) -> int | None:
    """Index of a row whose key appears earlier too, or None (sort-based, vectorised)."""
    ordered = np.sort(keys)  # whether any key repeats: a plain sort is several times faster than a stable argsort
    if not (ordered[1:] == ordered[:-1]).any():
        return None
    order = np.argsort(keys, kind="stable")
    repeated = keys[order][1:] == keys[order][:-1]
    if not repeated.any():
        return None
    return int(order[1:][repeated].min())


# --------------------------------------------------------------------------- ranking


@dataclass(frozen=True)
class RankedRun:
    """A run ordered per query, with gains, and the ideal lists; all integer-coded.

    ``run_*`` arrays hold the retrieved rows of judged queries in ranked order
    (grouped by query, then rank position), down to the depth given to
    :func:`rank_run`; ``ideal_*`` arrays hold every
    judgment in ideal order. Query code q names ``query_names[q]``.
    """

    query_names: np.ndarray
    in_run: np.ndarray  # bool per query: retrieved something
    judged: np.ndarray  # bool per query: has at least one judgment
    run_query: np.ndarray
    run_position: np.ndarray
    run_gain: np.ndarray
    run_judged: np.ndarray
    ideal_query: np.ndarray
    ideal_position: np.ndarray
    ideal_gain: np.ndarray
    n_judged: np.ndarray
    n_relevant: np.ndarray
    n_retrieved: np.ndarray
    n_judged_retrieved: np.ndarray
    name_index: pd.Index | None = None  # query_names as a text Index, when at hand

    @property
    def n_queries(self) -> int:
        return self.query_names.size

    def dcg_at(self, depth: int | None, log_base: float) -> tuple[np.ndarray, np.ndarray]:
        """Per-query DCG at ``depth`` and the number of unjudged rows within it."""
        rows = slice(None) if depth is None else self.run_position < depth
        query, position, gain = self.run_query[rows], self.run_position[rows], self.run_gain[rows]
        disc = discounts(int(position.max(initial=0)) + 1, log_base)
        dcg = np.bincount(query, weights=gain / disc[position], minlength=self.n_queries)
        unjudged = np.bincount(query, weights=~self.run_judged[rows], minlength=self.n_queries)
        return dcg, unjudged

    def idcg_at(self, depth: int | None, log_base: float) -> np.ndarray:
        rows = slice(None) if depth is None else self.ideal_position < depth
        query, position, gain = self.ideal_query[rows], self.ideal_position[rows], self.ideal_gain[rows]
        disc = discounts(int(position.max(initial=0)) + 1, log_base)
        return np.bincount(query, weights=gain / disc[position], minlength=self.n_queries)

    def kept_queries(self, missing: str) -> np.ndarray:
        """Codes of the queries that are evaluated, in query-name order."""
        keep = self.judged & (self.in_run | (missing == "zero"))
        codes = np.flatnonzero(keep)
        return codes[np.argsort(self.query_names[codes], kind="stable")]


def rank_run(run: pd.DataFrame, qrels: pd.DataFrame | None, *, ties: str, gain: GainSpec,
             depth: int | None = None) -> RankedRun:
    """Validate a run (and qrels), join them and order every query's documents.

    Only the first ``depth`` ranked rows of each query are kept in the
    ``run_*`` arrays (all of them when None); the counts cover every row.
    """
    needs = ("query", "doc")
    _require_frame(run, "The run", needs, "query, doc and score (or rank)")
    if "score" not in run.columns and "rank" not in run.columns:
        raise InvalidInput("The run needs a score column (higher is better) or a rank column (1 is best).")
    if qrels is None:
        _require_frame(run, "The run", (*needs, "relevance"), "query, doc, relevance and score (or rank)")
    else:
        _require_frame(qrels, "The qrels", (*needs, "relevance"), "query, doc and relevance")

    run_queries, run_docs = _ids(run, "query", "The run"), _ids(run, "doc", "The run")
    # Higher first: a score as it is, a rank negated (rank 1 first).
    order_column = "score" if "score" in run.columns else "rank"
    order_value = _numbers(run, order_column, "The run", allow_missing=qrels is None)
    if order_column == "rank":
        order_value = -order_value

    # Row numbers (0-based, in the given frames) of the run rows and the judgments, for messages.
    run_row_numbers = judged_row_numbers = None
    if qrels is None:
        # One table: a row with a grade is a judgment; a row with a score (rank) was retrieved.
        grades = _numbers(run, "relevance", "The run", allow_missing=True, non_negative=True)
        judged_rows, retrieved = ~np.isnan(grades), ~np.isnan(order_value)
        if not (judged_rows | retrieved).all():
            row = int(np.flatnonzero(~(judged_rows | retrieved))[0])
            raise InvalidInput(
                f"The run row {row + 1} (query {run_queries.iloc[row]!r}, doc {run_docs.iloc[row]!r}) has neither a "
                f"{order_column} nor a relevance: give it a {order_column} if it was retrieved, a relevance if it "
                "was judged, or both."
            )
        judged_row_numbers = np.flatnonzero(judged_rows)
        judged_queries = run_queries[judged_rows].reset_index(drop=True)
        judged_docs = run_docs[judged_rows].reset_index(drop=True)
        grades = grades[judged_rows]
        if not retrieved.all():  # judged documents the run did not retrieve: judgments only
            run_row_numbers = np.flatnonzero(retrieved)
            run_queries = run_queries[retrieved].reset_index(drop=True)
            run_docs = run_docs[retrieved].reset_index(drop=True)
            order_value = order_value[retrieved]
            if run_queries.empty:
                raise InvalidInput(f"The run has no row with a {order_column}: nothing was retrieved.")
    else:
        judged_queries, judged_docs = _ids(qrels, "query", "The qrels"), _ids(qrels, "doc", "The qrels")
        grades = _numbers(qrels, "relevance", "The qrels", non_negative=True)

    n_run = len(run_queries)
    run_query_all, judged_query, query_names, run_starts, name_index = _query_codes(run_queries, judged_queries)
    n_queries = query_names.size
    run_doc, judged_doc, n_docs = _doc_codes(run_docs, run_query_all, judged_docs, judged_query, n_queries)

    # A repeated (query, doc) pair needs a document retrieved (judged) more than once, so only those
    # rows are compared pair by pair (usually a small share of the run).
    # One small table of flags per document code (it stays in the CPU cache), read once per run row:
    # 1 = retrieved more than once, 2 = judged, 4 = judged more than once.
    # The document codes index two tables: converted to the index type once.
    run_doc_index = run_doc if run_doc.dtype == np.intp else run_doc.astype(np.intp)
    flags = (np.bincount(run_doc_index, minlength=n_docs) > 1).view(np.uint8)  # (run rows per document) > 1
    # The look-up table of judgments: 1 + the index of the (last) judgment of each judged document;
    # other entries are never read. (32-bit: half the memory to jump around in, reusing the counts'.)
    index_type = np.int32 if judged_doc.size < 2**31 - 1 else np.int64
    table = np.empty(n_docs, dtype=index_type)
    judgment_number = np.arange(1, judged_doc.size + 1, dtype=index_type)
    table[judged_doc] = judgment_number
    flags[judged_doc] |= 2
    # A judgment that is not its document's last one: the document is judged more than once.
    judged_again = table.take(judged_doc) != judgment_number
    del judgment_number
    if judged_again.any():
        flags[judged_doc[judged_again]] |= 4
        judged_suspects = np.flatnonzero((flags.take(judged_doc) & 4) != 0)
    else:
        judged_suspects = np.zeros(0, dtype=np.intp)
    # Rows retrieving a repeated or a judged document (numpy finds the non-zero entries of a bool array
    # several times faster than those of a uint8 one).
    flagged = np.flatnonzero((flags != 0).take(run_doc_index))
    del run_doc_index
    run_flags = flags[run_doc[flagged]]
    suspects = flagged[(run_flags & 1) > 0]
    repeat = _first_duplicate(_pair_keys(run_query_all[suspects], run_doc[suspects], n_docs))
    if repeat is not None:
        _refuse_duplicate(int(suspects[repeat]), run_queries, run_docs, "The run", "retrieves document",
                          run_row_numbers)
    repeat = _first_duplicate(_pair_keys(judged_query[judged_suspects], judged_doc[judged_suspects], n_docs))
    if repeat is not None:
        _refuse_duplicate(int(judged_suspects[repeat]), judged_queries, judged_docs,
                          "The qrels" if qrels is not None else "The run", "judges document", judged_row_numbers)

    judged_gain = gains_of(grades, gain) if grades.size else np.zeros(0)
    hit_rows, hit_judgments = _join_judgments(run_query_all, run_doc, flagged, run_flags, judged_query, judged_doc,
                                              judged_suspects, n_docs, table=table)
    del table
    hit_query = run_query_all[hit_rows]
    # 1 + index of the judgment of each run row (0: not judged), for the tie rules that read grades or
    # gains before the cutoff; otherwise built later for the kept rows only.
    plain = ties in ("trec_eval", "stable")
    judgment_of_row = None if plain else _judgment_of_row(n_run, hit_rows, hit_judgments, grades.size)

    # The run's queries have the first codes.
    n_run_queries = run_starts.size if run_starts is not None else int(run_query_all.max()) + 1
    in_run = np.arange(n_queries) < n_run_queries
    ideal_query, ideal_position, ideal_gain, n_relevant, n_judged = _ideal_lists(judged_query, grades, judged_gain,
                                                                                 n_queries, depth)
    judged = n_judged > 0

    # Rows of judged queries only: unjudged queries are reported, not scored.
    every_row = bool(judged[in_run].all())
    rows = None if every_row else np.flatnonzero(judged[run_query_all])  # None: all rows, as they are
    query = run_query_all if every_row else run_query_all[rows]
    kept_judgment = None if judgment_of_row is None else judgment_of_row if every_row else judgment_of_row[rows]
    grade = _per_row(grades, kept_judgment) if ties in ("optimistic", "pessimistic") else None
    # Query codes count up in order of first appearance, so the rows are grouped by query (each query
    # one block) exactly when the query changes between neighbours one time less than there are queries.
    if every_row and run_starts is not None:  # grouped, and the group starts are known already
        grouped, boundary = True, run_starts[1:] - 1
    else:
        boundary = np.flatnonzero(query[1:] != query[:-1])  # row i and i + 1 are of different queries
        n_distinct = int(np.count_nonzero(in_run if every_row else in_run & judged))
        grouped = query.size < 2 or boundary.size + 1 == n_distinct
    order = _order_rows(query, order_value if every_row else order_value[rows], grade, run_docs, rows,
                        ties, n_queries, boundary=boundary, grouped=grouped)
    sorted_query = query if order is None else query[order]

    # Only the first ``depth`` rows of each query are kept: gains are looked up for those alone.
    if grouped:  # sorting within queries keeps every query's block where it was
        starts = np.r_[0, boundary + 1] if query.size else np.zeros(0, dtype=np.int64)
    else:
        starts = _group_starts(sorted_query)
    lengths = np.diff(np.r_[starts, sorted_query.size])
    if every_row:  # each query's rows, counted from its group
        n_retrieved = np.zeros(n_queries, dtype=np.int64)
        n_retrieved[sorted_query[starts]] = lengths
    else:
        n_retrieved = np.bincount(run_query_all, minlength=n_queries)
    kept = lengths if depth is None else np.minimum(lengths, depth)
    kept_before = np.cumsum(kept) - kept
    position = np.arange(int(kept.sum())) - np.repeat(kept_before, kept)
    run_query = np.repeat(sorted_query[starts], kept)
    if kept_judgment is None and order is None and every_row:
        # The rows are in ranked order already: each judged row's place among the kept rows follows from
        # its query's block, so only the judged rows are looked at.
        block = np.zeros(n_queries, dtype=np.intp)
        block[sorted_query[starts]] = np.arange(starts.size)
        hit_block = block[hit_query]
        hit_position = hit_rows - starts[hit_block]
        in_cut = np.flatnonzero(hit_position < kept[hit_block])
        judgment = np.zeros(position.size, dtype=np.int32 if grades.size < 2**31 - 1 else np.int64)
        judgment[kept_before[hit_block[in_cut]] + hit_position[in_cut]] = hit_judgments[in_cut] + 1
    else:
        if kept_judgment is None:
            judgment_of_row = _judgment_of_row(n_run, hit_rows, hit_judgments, grades.size)
            kept_judgment = judgment_of_row if every_row else judgment_of_row[rows]
        sorted_judgment = kept_judgment if order is None else kept_judgment[order]
        slots = np.repeat(starts, kept) + position  # places in the ranked order
        judgment = sorted_judgment[slots]
    if ties == "average":  # a tie group may straddle the cutoff: average over the whole group first
        sorted_value = order_value if every_row else order_value[rows]
        sorted_value = sorted_value if order is None else sorted_value[order]
        all_gains = _per_row(judged_gain, sorted_judgment)
        run_gain = _tie_averaged(sorted_query, sorted_value, all_gains)[slots]
    else:
        run_gain = _per_row(judged_gain, judgment)

    return RankedRun(
        query_names=query_names,
        in_run=in_run,
        judged=judged,
        run_query=run_query,
        run_position=position,
        run_gain=run_gain,
        run_judged=judgment > 0,
        ideal_query=ideal_query,
        ideal_position=ideal_position,
        ideal_gain=ideal_gain,
        n_judged=n_judged,
        n_relevant=n_relevant,
        n_retrieved=n_retrieved,
        n_judged_retrieved=np.bincount(hit_query, minlength=n_queries),
        name_index=name_index,
    )


def _judgment_of_row(n_run: int, hit_rows: np.ndarray, hit_judgments: np.ndarray, n_judgments: int) -> np.ndarray:
    """1 + the index of the judgment of each run row, 0 for rows without one."""
    judgment_of_row = np.zeros(n_run, dtype=np.int32 if n_judgments < 2**31 - 1 else np.int64)
    judgment_of_row[hit_rows] = hit_judgments + 1
    return judgment_of_row


def _join_judgments(run_query, run_doc, flagged, run_flags, judged_query, judged_doc, shared, n_docs: int, *,
                    table: np.ndarray):
    """Rows of the run that have a judgment, and the index of that judgment (no pair listed twice).

    Only rows whose document is judged for some query can match (flag 2 or
    4 of ``run_flags``, the flags of the rows ``flagged``). A document judged for one query only then needs one
    look-up by document code (and the query must agree); the few judged for
    several queries (flag 4; ``shared``: their judgments) go through a binary
    search on (query, doc) keys. ``table`` holds, for each judged document
    code, 1 + the index of one of its judgments.
    """
    judged_doc_rows = (run_flags & 6) > 0
    candidates, run_flags = flagged[judged_doc_rows], run_flags[judged_doc_rows]
    candidate_doc = run_doc[candidates]
    judgment = table[candidate_doc] - 1
    once = (run_flags & 4) == 0
    single = once & (judged_query[judgment] == run_query[candidates])
    hit_rows, hit_judgments = candidates[single], judgment[single]
    several = candidates[~once]
    if several.size:
        shared_pairs = _pair_keys(judged_query[shared], judged_doc[shared], n_docs)
        by_pair = np.argsort(shared_pairs)
        sorted_pairs = shared_pairs[by_pair]
        wanted = _pair_keys(run_query[several], run_doc[several], n_docs)
        slot = np.minimum(np.searchsorted(sorted_pairs, wanted), sorted_pairs.size - 1)
        match = sorted_pairs[slot] == wanted
        hit_rows = np.concatenate([hit_rows, several[match]])
        hit_judgments = np.concatenate([hit_judgments, shared[by_pair[slot[match]]]])
    return hit_rows, hit_judgments


def _query_codes(run_queries: pd.Series, judged_queries: pd.Series):
    """Integer codes for query ids (run queries first, in order of appearance) and the ids by code.

    Returns (run codes, judgment codes, ids by code, group starts, ids as a
    text Index or None). A run is usually grouped by query; then only the
    first id of each group is hashed, together with the judgments' ids, and
    the group starts hold the first row of each group (None when the run is
    not grouped). Categorical ids are not hashed at all: their codes are
    renumbered, and their text categories give the ids' Index directly
    (None otherwise: the per-query table builds it from the ids).
    """
    run_categories = _text_categories(run_queries)
    if run_categories is not None:
        return _categorical_query_codes(run_queries.array.codes, run_categories, judged_queries)
    n_run = len(run_queries)
    if n_run > 1:
        changes = (run_queries.iloc[1:].reset_index(drop=True) != run_queries.iloc[:-1].reset_index(drop=True))
        starts = np.flatnonzero(np.r_[True, changes.to_numpy(dtype=bool)])
        heads = run_queries.iloc[starts].reset_index(drop=True)
        codes, names = pd.factorize(pd.concat([heads, judged_queries], ignore_index=True))
        if (codes[: starts.size] == np.arange(starts.size)).all():  # no query id in two separate groups
            run_codes = np.repeat(np.arange(starts.size), np.diff(np.r_[starts, n_run]))
            return run_codes, codes[starts.size:], np.asarray(names, dtype=object), starts, None
    codes, names = pd.factorize(pd.concat([run_queries, judged_queries], ignore_index=True))
    return codes[:n_run], codes[n_run:], np.asarray(names, dtype=object), None, None


_BLOCK_ROWS = 50_000


def _doc_codes(run_docs: pd.Series, run_query: np.ndarray, judged_docs: pd.Series, judged_query: np.ndarray,
               n_queries: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Integer codes for document ids: within a query, equal codes exactly when the ids are equal.

    Pairs are only ever compared inside one query, so the ids are encoded
    block by block of whole queries (about 50,000 rows each) instead of in
    one table for the whole run: each hash table then stays small enough for
    the CPU cache, which makes encoding a million distinct ids about three
    times faster. Codes are still unique across blocks. The loop is over
    blocks, a handful for a million rows, never over queries or rows.
    """
    run_categories = _text_categories(run_docs)
    if run_categories is not None:
        return _categorical_doc_codes(run_docs.array.codes, run_categories, judged_docs)
    code_type = np.uint16 if n_queries <= np.iinfo(np.uint16).max else np.int64
    grouped = run_query.size < 2 or bool((run_query[1:] >= run_query[:-1]).all())
    run_order = np.arange(run_query.size) if grouped else np.argsort(run_query.astype(code_type), kind="stable")
    judged_order = np.argsort(judged_query.astype(code_type), kind="stable")
    run_in_order = run_docs if grouped else run_docs.take(run_order).reset_index(drop=True)
    judged_in_order = judged_docs.take(judged_order).reset_index(drop=True)

    run_start = np.r_[0, np.cumsum(np.bincount(run_query, minlength=n_queries))]
    judged_start = np.r_[0, np.cumsum(np.bincount(judged_query, minlength=n_queries))]
    rows_before = run_start + judged_start  # rows of queries with a smaller code
    cuts = np.unique(np.r_[0, np.searchsorted(rows_before, np.arange(_BLOCK_ROWS, rows_before[-1], _BLOCK_ROWS)),
                           n_queries])

    run_codes, judged_codes = np.empty(run_query.size, np.int64), np.empty(judged_query.size, np.int64)
    offset = 0
    for first, last in zip(cuts[:-1], cuts[1:], strict=True):
        run_rows = slice(run_start[first], run_start[last])
        judged_rows = slice(judged_start[first], judged_start[last])
        block = pd.concat([run_in_order.iloc[run_rows], judged_in_order.iloc[judged_rows]], ignore_index=True)
        codes, uniques = pd.factorize(block)
        n_block_run = run_rows.stop - run_rows.start
        run_codes[run_order[run_rows]] = codes[:n_block_run] + offset
        judged_codes[judged_order[judged_rows]] = codes[n_block_run:] + offset
        offset += len(uniques)
    return run_codes, judged_codes, max(offset, 1)


def _categorical_query_codes(category: np.ndarray, categories: pd.Index, judged_queries: pd.Series):
    """:func:`_query_codes` for a categorical query column: codes renumbered in order of first appearance.

    Only the (few) query categories are compared as text, with the judgments'
    query ids; the rows are never hashed.
    """
    n_run = category.size
    starts = np.r_[0, np.flatnonzero(category[1:] != category[:-1]) + 1]
    heads = category[starts]
    code_of_category = np.full(len(categories), -1, dtype=np.int64)
    if np.bincount(heads, minlength=len(categories)).max(initial=0) <= 1:  # grouped: one block of rows per query
        code_of_category[heads] = np.arange(heads.size)
        # (32-bit codes: half the memory of a million-row array, and codes never come near 2**31.)
        run_codes = np.repeat(np.arange(heads.size, dtype=np.int32), np.diff(np.r_[starts, n_run]))
        run_names = categories.take(heads)
        run_starts = starts
    else:
        used, first_row = np.unique(category, return_index=True)
        used = used[np.argsort(first_row, kind="stable")]
        code_of_category[used] = np.arange(used.size)
        run_codes = code_of_category[category]
        run_names = categories.take(used)
        run_starts = None
    judged_category, judged_categories = _codes_and_categories(judged_queries)
    in_run = _category_positions(categories, judged_categories)
    judged_code = np.where(in_run >= 0, code_of_category[np.maximum(in_run, 0)], -1)
    only_judged = judged_code < 0
    if only_judged.any():  # judged queries the run lacks: only the categories some judgment uses
        only_judged &= np.bincount(judged_category, minlength=judged_code.size) > 0
    judged_code[only_judged] = run_names.size + np.arange(int(only_judged.sum()))
    judged_names = judged_categories[only_judged]
    names = np.concatenate([np.asarray(run_names, dtype=object), np.asarray(judged_names, dtype=object)])
    # The ids by code as a text Index too (the per-query table's index), when the categories are text already.
    text = isinstance(run_names.dtype, pd.StringDtype) and run_names.dtype == judged_names.dtype
    name_index = (run_names if judged_names.empty else run_names.append(judged_names)) if text else None
    return run_codes, _take_by_runs(judged_code.astype(np.int32), judged_category), names, run_starts, name_index


def _take_by_runs(table: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """``table[codes]``, looked up once per run of equal neighbouring codes when there are few runs.

    Qrels list each query's judgments together, so their query codes come in
    long runs: repeating one value per run avoids converting every code to
    an index.
    """
    changes = np.flatnonzero(codes[1:] != codes[:-1])
    if codes.size == 0 or 8 * changes.size > codes.size:
        return table.take(codes)
    starts = np.r_[0, changes + 1]
    return np.repeat(table.take(codes[starts]), np.diff(np.r_[starts, codes.size]))


def _categorical_doc_codes(run_category: np.ndarray, categories: pd.Index,
                           judged_docs: pd.Series) -> tuple[np.ndarray, np.ndarray, int]:
    """:func:`_doc_codes` for a categorical doc column: the run's codes as they are.

    The judgments' documents get the code of the equal run category, or a
    new code past the run's; the category arrays are matched, not the rows
    (see :func:`_category_positions`).
    """
    judged_category, judged_categories = _codes_and_categories(judged_docs)
    position = _category_positions(categories, judged_categories, number_absent=True)
    n_docs = int(position.max(initial=len(categories) - 1)) + 1
    return run_category, position.take(judged_category), max(n_docs, 1)


def _codes_and_categories(ids: pd.Series) -> tuple[np.ndarray, pd.Index]:
    """Integer codes and distinct text ids of an id column (categorical or not)."""
    categories = _text_categories(ids)
    if categories is not None:
        return ids.array.codes, categories
    codes, uniques = pd.factorize(ids.astype(str) if not pd.api.types.is_string_dtype(ids.dtype) else ids)
    return codes.astype(np.int64), pd.Index(uniques)


# Matching two category arrays hashes every id once; the answer depends on the two (immutable) category
# Index objects only, so the last few answers are kept, keyed by the objects' identity (held weakly, so a
# freed object can never be mistaken for a new one at the same address). Evaluating the same run and
# qrels again (another k, gain, tie rule, a cutoff curve) then skips the matching.
_MATCHED_CATEGORIES: dict[tuple[int, int, bool], tuple[weakref.ref, weakref.ref, np.ndarray]] = {}
_MATCHED_SLOTS = 8
_MATCHED_LOCK = threading.Lock()  # the app evaluates in several threads (one per browser session)


def _category_positions(categories: pd.Index, other: pd.Index, *, number_absent: bool = False) -> np.ndarray:
    """Position in ``categories`` of each id of ``other``; read-only array.

    An id absent from ``categories`` gets -1, or with ``number_absent`` the
    next free number past them (len(categories), len(categories) + 1, ...).
    """
    if other is categories:
        return np.arange(len(categories))
    key = (id(categories), id(other), number_absent)
    with _MATCHED_LOCK:
        kept = _MATCHED_CATEGORIES.get(key)
    if kept is not None and kept[0]() is categories and kept[1]() is other:
        return kept[2]
    if len(other) == 0:
        return np.zeros(0, dtype=np.int64)
    n = len(categories)
    if n > 2 * _BLOCK_ROWS and _sorted_text(categories) and _sorted_text(other):
        positions = _sorted_positions(categories, other)
    else:
        positions = _matched_positions(categories, other, 0)
    if number_absent:
        absent = positions < 0
        positions[absent] = n + np.arange(int(absent.sum()))
    positions.flags.writeable = False
    with _MATCHED_LOCK:
        while len(_MATCHED_CATEGORIES) >= _MATCHED_SLOTS:  # forget the oldest
            _MATCHED_CATEGORIES.pop(next(iter(_MATCHED_CATEGORIES)))
        _MATCHED_CATEGORIES[key] = (weakref.ref(categories), weakref.ref(other), positions)
    return positions


def _matched_positions(categories: pd.Index, other: pd.Index, first: int) -> np.ndarray:
    """Position (plus ``first``) in ``categories`` of each id of ``other``, -1 when absent: one hash table."""
    # Equal ids get equal codes.
    codes, _ = pd.factorize(pd.concat([pd.Series(categories, dtype=object) if categories.dtype == object
                                       else pd.Series(categories), pd.Series(other).astype(categories.dtype)],
                                      ignore_index=True))
    n = len(categories)
    position_of_code = np.full(int(codes.max()) + 1, -1, dtype=np.int64)
    position_of_code[codes[:n]] = np.arange(first, first + n)
    return position_of_code[codes[n:]]


def _sorted_text(index: pd.Index) -> bool:
    """True for text ids in strictly increasing (code point) order, as the file readers make them."""
    if not isinstance(index.dtype, pd.StringDtype):
        return False
    values = index.array
    return bool(np.asarray(values[1:] > values[:-1]).all())


def _sorted_positions(categories: pd.Index, other: pd.Index) -> np.ndarray:
    """:func:`_matched_positions` for two sorted id arrays, in blocks small enough for the CPU cache.

    An id of ``other`` can only equal a category of the block whose range
    of values holds it, so each block of ~50,000 categories is matched with
    its slice of ``other`` (found by bisection) in its own small hash table:
    about twice as fast as one table. The loop is over blocks (dozens for a
    million ids), never over ids.
    """
    starts = list(range(0, len(categories), _BLOCK_ROWS))
    other_cuts = [0, *(bisect.bisect_left(other, categories[start]) for start in starts[1:]), len(other)]
    category_cuts = [*starts, len(categories)]
    positions = np.full(len(other), -1, dtype=np.int64)
    for block in range(len(starts)):
        part = slice(other_cuts[block], other_cuts[block + 1])
        if part.stop > part.start:
            first, last = category_cuts[block], category_cuts[block + 1]
            positions[part] = _matched_positions(categories[first:last], other[part], first)
    return positions


def first_repeated_pair(queries: pd.Series, docs: pd.Series) -> int | None:
    """Position of the first row whose (query, doc) pair appeared on an earlier row, or None.

    Uses the same block-wise id encoding as :func:`evaluate_run`; the file
    readers call it to name the line of a repeated pair.
    """
    queries, docs = queries.reset_index(drop=True), docs.reset_index(drop=True)
    query_codes, _, names, _, _ = _query_codes(queries, queries.iloc[:0])
    doc_codes, _, n_docs = _doc_codes(docs, query_codes, docs.iloc[:0], query_codes[:0], names.size)
    seen_again = np.bincount(doc_codes, minlength=n_docs) > 1
    suspects = np.flatnonzero(seen_again[doc_codes])
    repeat = _first_duplicate(_pair_keys(query_codes[suspects], doc_codes[suspects], n_docs))
    return None if repeat is None else int(suspects[repeat])


def _pair_keys(query: np.ndarray, doc: np.ndarray, n_docs: int) -> np.ndarray:
    """One int64 per (query, doc) pair; the codes are far below 2**31 for any input that fits in memory."""
    return query.astype(np.int64) * n_docs + doc


def _refuse_duplicate(row: int, queries: pd.Series, docs: pd.Series, name: str, verb: str,
                      row_numbers: np.ndarray | None) -> None:
    shown = row + 1 if row_numbers is None else int(row_numbers[row]) + 1
    raise InvalidInput(
        f"{name} row {shown}: query {queries.iloc[row]!r} {verb} {docs.iloc[row]!r} "
        "a second time. Each (query, doc) pair may appear only once."
    )


def _order_rows(query, value, grade, docs: pd.Series, rows, ties: str, n_queries: int, *,
                boundary: np.ndarray, grouped: bool) -> np.ndarray | None:
    """Permutation ordering rows by query, then value descending, then the tie rule (None: keep as is).

    ``boundary`` lists the rows i such that rows i and i + 1 belong to
    different queries; ``grouped``, whether each query's rows form one block (with
    codes counting up). Two fast passes instead of one multi-key lexsort: a
    quicksort on the values, then a stable sort on the small-integer query
    codes (numpy uses a radix sort for 16-bit keys). Rows with equal (query,
    value) are then reordered by the tie rule, touching only tied rows.
    """
    order = None
    if grouped and query.size > 1:
        # Usual for a ranked run: every query's values strictly decrease, so no tie and nothing to sort.
        strictly = value[1:] < value[:-1]
        strictly[boundary] = True
        if strictly.all():
            return None
        del strictly
    if grouped:
        descending = value[1:] <= value[:-1]
        descending[boundary] = True  # a new query may start with any value
    if grouped and bool(descending.all()):
        # Already ranked (e.g. a TREC run file): grouped by query, best score first.
        tied_next = value[1:] == value[:-1]
        tied_next[boundary] = False
    elif grouped:  # sort cache-sized blocks of whole queries; each query keeps its rows' positions
        order = _sort_in_blocks(query, value)
        sorted_value = value[order]
        tied_next = sorted_value[1:] == sorted_value[:-1]
        tied_next[boundary] = False
    else:
        order = _sort_by_query_then_value(query, value, n_queries)
        sorted_query, sorted_value = query[order], value[order]
        tied_next = (sorted_query[1:] == sorted_query[:-1]) & (sorted_value[1:] == sorted_value[:-1])
    if not tied_next.any():
        return order
    if order is None:
        order = np.arange(query.size)
    tied = np.zeros(order.size, dtype=bool)
    tied[1:] |= tied_next
    tied[:-1] |= tied_next
    slots = np.flatnonzero(tied)
    group = np.cumsum(np.r_[True, ~tied_next])[slots]  # tie group of each tied slot
    members = order[slots]
    if ties == "trec_eval":
        # Document id descending, in byte (code point) order like strcmp.
        names = docs.iloc[members if rows is None else rows[members]].to_numpy(dtype=object)
        _, rank_of_name = np.unique(names.astype(str), return_inverse=True)
        tie_key = (-rank_of_name.reshape(-1), members)
    elif ties == "optimistic":
        tie_key = (-grade[members], members)
    elif ties == "pessimistic":
        tie_key = (grade[members], members)
    else:  # "stable" and "average": the run's row order
        tie_key = (members,)
    reorder = np.lexsort((*reversed(tie_key), group))
    order = order.copy()
    order[slots] = members[reorder]
    return order


_SORT_BLOCK_ROWS = 16_000


def _sort_by_query_then_value(query: np.ndarray, value: np.ndarray, n_queries: int) -> np.ndarray:
    """Quicksort on the values, then a stable (radix, for 16-bit codes) sort on the query codes."""
    by_value = np.argsort(-value)
    code_type = np.uint16 if n_queries <= np.iinfo(np.uint16).max else np.int64
    return by_value[np.argsort(query.astype(code_type)[by_value], kind="stable")]


def _sort_in_blocks(query: np.ndarray, value: np.ndarray) -> np.ndarray:
    """The same order for rows grouped by query, sorting blocks of whole queries that fit the CPU cache.

    About twice as fast as one sort of a million rows; the loop runs once per
    block (dozens for a million rows), never per query or row.
    """
    bounds = np.r_[0, np.flatnonzero(query[1:] != query[:-1]) + 1, query.size]  # query starts, then the end
    # Each block ends at the first query start at or after a multiple of the block size.
    cuts = np.unique(np.r_[0, bounds[np.searchsorted(bounds, np.arange(_SORT_BLOCK_ROWS, query.size, _SORT_BLOCK_ROWS))],
                           query.size])
    order = np.empty(query.size, dtype=np.int64)
    for first, last in zip(cuts[:-1], cuts[1:], strict=True):
        local = query[first:last] - query[first]
        order[first:last] = first + _sort_by_query_then_value(local, value[first:last], int(local[-1]) + 1)
    return order


def _group_starts(sorted_query: np.ndarray) -> np.ndarray:
    """Index of the first row of each (contiguous) query group."""
    if sorted_query.size == 0:
        return np.zeros(0, dtype=np.int64)
    return np.r_[0, np.flatnonzero(sorted_query[1:] != sorted_query[:-1]) + 1]


def _per_row(values: np.ndarray, judgment: np.ndarray) -> np.ndarray:
    """``values`` of each row's judgment (``judgment`` = 1 + its index), 0 for rows without one."""
    out = np.zeros(judgment.size)
    hit = np.flatnonzero(judgment > 0)
    out[hit] = values[judgment[hit] - 1]
    return out


def _positions(sorted_query: np.ndarray) -> np.ndarray:
    """0-based position of each row inside its (contiguous) query group."""
    n = sorted_query.size
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.flatnonzero(np.r_[True, sorted_query[1:] != sorted_query[:-1]])
    # Row index minus the index of its group's first row (one repeat over the few group starts).
    return np.arange(n) - np.repeat(starts, np.diff(np.r_[starts, n]))


def _tie_averaged(sorted_query, sorted_value, gains) -> np.ndarray:
    """Replace each gain by the mean gain of its group of equal scores within the query."""
    if gains.size == 0:
        return gains
    new_group = np.r_[True, (sorted_query[1:] != sorted_query[:-1]) | (sorted_value[1:] != sorted_value[:-1])]
    group = np.cumsum(new_group) - 1
    return (np.bincount(group, weights=gains) / np.bincount(group))[group]


def _ideal_lists(query, grades, gains, n_queries: int, depth: int | None):
    """Each query's judged gains by grade descending, first ``depth`` only: (query, position, gain) arrays.

    Also returns the number of judgments with a grade above 0 per query, and
    the number of judgments per query.

    Grades take few values, so no sort is needed: the judgments are counted
    per (query, grade), and the ideal list of a query is each grade repeated
    that many times, best grade first, cut at ``depth``. (A sort is the
    fallback when the grades take so many values that the table of counts
    would outgrow the judgments.)
    """
    if grades.size == 0:
        return (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros(n_queries, np.int64),
                np.zeros(n_queries, np.int64))
    top = grades.max()
    whole = grades.astype(np.intp) if top < 2**20 else None
    if whole is not None and n_queries * (top + 1) <= 4 * grades.size + 1024 and (whole == grades).all():
        # Whole-number grades: grade g is level g (levels no judgment has stay empty).
        n_levels = int(top) + 1
        level = whole
        n_positive_levels = n_levels - 1  # all but grade 0
    else:
        del whole
        levels, level = np.unique(grades, return_inverse=True)
        n_levels = levels.size
        if n_queries * n_levels > 4 * grades.size + 1024:  # too many distinct grades: sort instead
            order = _ideal_order(query, grades)
            ideal_query, ideal_gain = query[order], gains[order]
            ideal_position = _positions(ideal_query)
            if depth is not None:
                kept = ideal_position < depth
                ideal_query, ideal_position, ideal_gain = ideal_query[kept], ideal_position[kept], ideal_gain[kept]
            return (ideal_query, ideal_position, ideal_gain, np.bincount(query[grades > 0], minlength=n_queries),
                    np.bincount(query, minlength=n_queries))
        level = level.reshape(-1).astype(np.intp, copy=False)
        n_positive_levels = int(np.count_nonzero(levels > 0))
    level_gain = np.zeros(n_levels)
    level_gain[::-1][level] = gains  # the gain of each grade, best grade first
    # Cell (query, best-first level), in place in one array: query * n_levels + n_levels - 1 - level.
    cell = np.multiply(query, n_levels, dtype=np.intp)
    cell += n_levels - 1
    cell -= level
    del level
    count = np.bincount(cell, minlength=n_queries * n_levels).reshape(n_queries, n_levels)
    del cell
    n_relevant = count[:, :n_positive_levels].sum(axis=1)
    n_judged = count.sum(axis=1)
    if depth is not None:  # how many of each grade fall within the first `depth` places
        before = np.cumsum(count, axis=1) - count
        count = np.minimum(before + count, depth) - np.minimum(before, depth)
    ideal_gain = np.repeat(np.tile(level_gain, n_queries), count.ravel())
    per_query = count.sum(axis=1)
    ideal_query = np.repeat(np.arange(n_queries), per_query)
    ideal_position = np.arange(ideal_query.size) - np.repeat(np.cumsum(per_query) - per_query, per_query)
    return ideal_query, ideal_position, ideal_gain, n_relevant, n_judged


def _ideal_order(query: np.ndarray, grades: np.ndarray) -> np.ndarray:
    """Judgments ordered by query, then grade descending."""
    by_grade = np.argsort(-grades)  # the order among equal grades does not change IDCG
    code_type = np.uint16 if query.size == 0 or query.max() <= np.iinfo(np.uint16).max else np.int64
    return by_grade[np.argsort(query.astype(code_type)[by_grade], kind="stable")]


def _cumulative_by_position(query, position, gain, n_queries: int, depth: int, log_base: float) -> np.ndarray:
    """Matrix [query, k-1] of DCG@k for k = 1..depth, from one cumulative sum."""
    rows = position < depth
    disc = discounts(depth, log_base)
    cells = np.bincount(
        query[rows].astype(np.int64) * depth + position[rows],
        weights=gain[rows] / disc[position[rows]],
        minlength=n_queries * depth,
    )
    return np.cumsum(cells.reshape(n_queries, depth), axis=1)


# --------------------------------------------------------------------------- results


def _zero_idcg_message(queries) -> str:
    shown = ", ".join(repr(str(q)) for q in list(queries)[:5])
    more = "" if len(queries) <= 5 else f" and {len(queries) - 5} more"
    return (
        f"IDCG is 0 for query {shown}{more}: no judged document has a positive gain, so NDCG is undefined (0/0). "
        "Choose another zero_idcg rule ('zero', 'one' or 'skip')."
    )


def _assemble(ranked: RankedRun, dcg, idcg, n_unjudged_cut, settings: dict) -> RunResult:
    codes = ranked.kept_queries(settings["missing"])
    names = ranked.query_names[codes]
    zero = idcg[codes] == 0
    if settings["zero_idcg"] == "error" and zero.any():
        raise InvalidInput(_zero_idcg_message(names[zero]))
    if codes.size == 0:
        raise InvalidInput(
            "No query of the run has any judgment, so there is nothing to evaluate. "
            "Check that the query ids of the run and the qrels match."
        )
    ndcg = normalise(dcg[codes], idcg[codes], settings["zero_idcg"])
    per_query = pd.DataFrame(
        {
            "dcg": dcg[codes],
            "idcg": idcg[codes],
            "ndcg": ndcg,
            "n_retrieved": ranked.n_retrieved[codes],
            "n_judged_retrieved": ranked.n_judged_retrieved[codes],
            "n_judged": ranked.n_judged[codes],
            "n_relevant": ranked.n_relevant[codes],
            "n_unjudged_in_cutoff": n_unjudged_cut[codes].astype(np.int64),
        },
        index=(pd.Index(names, dtype="str", name="query") if ranked.name_index is None
               else ranked.name_index.take(codes).rename("query")),
        columns=list(PER_QUERY_COLUMNS),
    )
    counted = ~np.isnan(ndcg)
    mean_ndcg = float(ndcg[counted].mean()) if counted.any() else float("nan")
    ratio = float(normalise(dcg[codes].sum(), idcg[codes].sum(), settings["zero_idcg"]))
    in_cutoff = np.minimum(ranked.n_retrieved[codes], settings["k"] or np.iinfo(np.int64).max).sum()
    share = float(n_unjudged_cut[codes].sum() / in_cutoff) if in_cutoff else 0.0
    unjudged = ranked.in_run & ~ranked.judged
    missing = ranked.judged & ~ranked.in_run
    return RunResult(
        value=mean_ndcg if settings["aggregate"] == "mean" else ratio,
        mean_ndcg=mean_ndcg,
        ratio_of_sums=ratio,
        per_query=per_query,
        unjudged_queries=tuple(sorted(ranked.query_names[unjudged].astype(str))),
        missing_queries=tuple(sorted(ranked.query_names[missing].astype(str))),
        zero_idcg_queries=tuple(names[zero].astype(str)),
        unjudged_share=share,
        **settings,
    )
