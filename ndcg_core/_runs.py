"""NDCG of a whole run: many queries at once, as trec_eval computes it.

A *run* lists, for each query, the retrieved documents with a score (or a
rank); the *qrels* list the judged documents of each query with a grade.
The engine works in plain layers, each a small function with a named
result, vectorised over all rows (no Python loop per query or row):

1. :func:`~ndcg_core._frames.read_frames` checks the frames (``RunColumns``);
2. :func:`~ndcg_core._encode.encode_ids` turns ids of any dtype into integer
   codes (``EncodedIds``);
3. :func:`~ndcg_core._judge.judge` refuses repeated pairs and joins run rows
   with judgments (``Judgments``) — steps 1-3 are :func:`encode_run`, whose
   :class:`EncodedRun` the caller may keep to evaluate again;
4. :func:`~ndcg_core._rank.rank` orders each query by the tie rule and keeps
   the first k rows with their gains (``RankedRows``);
5. :func:`~ndcg_core._ideal.ideal_lists` builds the ideal lists
   (``IdealLists``);
6. this module sums discounted gains per query and assembles the
   :class:`RunResult`.

Conventions (the same as trec_eval's ``ndcg_cut`` unless a setting says
otherwise):

* A retrieved document without a judgment counts as grade 0 (gain 0; it is
  not looked up in a gain table).
* The ideal list of a query is built from **all** its judgments, including
  judged documents the run did not retrieve, sorted by grade descending and
  cut at k.
* ``k=None`` means no cutoff on either list: DCG over every retrieved
  document and IDCG over every judged document, like trec_eval's plain
  ``ndcg`` measure; the same meaning as in :func:`evaluate`.
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

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ._discounts import discounts
from ._encoded_run import EncodedRun, encode_run
from ._gains import GainSpec, check_gain, gain_values
from ._ideal import ideal_lists, ranking_depth
from ._judge import first_repeated_pair
from ._list import normalise
from ._rank import rank
from ._ties import TIE_RULES
from ._validation import (
    AGGREGATES,
    MISSING_RULES,
    ZERO_IDCG_RULES,
    InvalidInput,
    check_choice,
    check_discount,
    check_k,
    check_log_base,
)

__all__ = ["EncodedRun", "RunResult", "encode_run", "evaluate_run", "first_repeated_pair", "ndcg_curve"]


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
    ``zero_idcg="skip"`` are left out of the mean), as ``mean_ndcg`` and
    ``ratio_of_sums``.

    ``unjudged_queries``: queries the run retrieved for that have no judgment
    (left out, as trec_eval does); ``missing_queries``: judged queries the run
    lacks (left out, or NDCG 0 with ``missing="zero"``);
    ``zero_idcg_queries``: evaluated queries with IDCG = 0, which the
    ``zero_idcg`` rule decided. Each is a tuple of query ids as text.

    ``per_query`` is indexed by query id (sorted) with columns ``dcg``,
    ``idcg``, ``ndcg``, ``n_retrieved`` (documents the run retrieved),
    ``n_judged_retrieved`` (of those, how many have a judgment), ``n_judged``
    (judgments of the query), ``n_relevant`` (judgments with grade > 0) and
    ``n_unjudged_in_cutoff`` (retrieved documents within the cutoff without a
    judgment). With ``missing="zero"`` it also holds the missing queries.
    ``unjudged_share`` is the share of retrieved documents within the cutoff,
    over the evaluated queries, that have no judgment: a high share means the
    NDCG figures rest on guesses (unjudged counts as not relevant).
    The settings used (``k``, ``gain``, ``log_base``, ``discount``, ``ties``,
    ...) are kept as given to :func:`evaluate_run`.
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
    discount: str = "log"

    @property
    def n_queries(self) -> int:
        """Number of queries in ``per_query`` (the evaluated ones)."""
        return len(self.per_query)


def evaluate_run(
    run: pd.DataFrame | EncodedRun,
    qrels: pd.DataFrame | None = None,
    *,
    k: int | None = None,
    gain: GainSpec = "exponential",
    log_base: float = 2.0,
    aggregate: str = "mean",
    zero_idcg: str = "zero",
    missing: str = "ignore",
    ties: str = "trec_eval",
    discount: str = "log",
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
    run : DataFrame or EncodedRun
        An :class:`EncodedRun` from :func:`encode_run` (then ``qrels`` must be
        None: they are inside it), evaluated again without re-encoding; or a
        DataFrame with columns ``query``, ``doc`` and ``score`` (higher is better) or
        ``rank`` (1 is best); when both exist, ``score`` is used, as in
        trec_eval. When ``qrels`` is None the run also needs ``relevance``:
        an empty (NaN) relevance means "not judged", and a row with a
        relevance but no score (no rank) is a judged document the run did
        not retrieve (it only enters the ideal list).
    qrels : DataFrame, optional
        Columns ``query``, ``doc``, ``relevance`` (non-negative numbers).
    k : positive int or None, keyword-only
        Cutoff for both the ranking and the ideal list; None: no cutoff on
        either (every retrieved and every judged document), as in every
        function of ndcg_core.
    gain, log_base, zero_idcg, discount
        As in :func:`evaluate` (``discount="jk"``: Järvelin and Kekäläinen's). With ``zero_idcg="skip"`` queries with IDCG 0
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

    Examples
    --------
    Query q1 ranks a (grade 0) above b (grade 1); q2 ranks c (grade 2)
    first. Linear gain, NDCG@2: q1 = (1/log2(3)) / 1 = 0.6309, q2 = 1.

    >>> import pandas as pd
    >>> run = pd.DataFrame({"query": ["q1", "q1", "q2"], "doc": ["a", "b", "c"], "score": [2.0, 1.0, 5.0]})
    >>> qrels = pd.DataFrame({"query": ["q1", "q1", "q2"], "doc": ["a", "b", "c"], "relevance": [0, 1, 2]})
    >>> result = evaluate_run(run, qrels, k=2, gain="linear")
    >>> result.per_query["ndcg"].round(4).to_dict()
    {'q1': 0.6309, 'q2': 1.0}
    >>> round(result.mean_ndcg, 4), round(result.ratio_of_sums, 4)  # (0.6309 + 1) / 2, (0.6309 + 2) / (1 + 2)
    (0.8155, 0.877)
    """
    settings = _check_run_settings(
        k=k, gain=gain, log_base=log_base, aggregate=aggregate, zero_idcg=zero_idcg, missing=missing, ties=ties,
        discount=discount,
    )
    encoded = _encoded(run, qrels)
    depth = settings["k"]
    ranked = rank(encoded, ties=settings["ties"], gain=settings["gain"], depth=depth)
    ideal = _ideal(encoded, settings["gain"], depth)
    rule, n = (settings["log_base"], settings["discount"]), encoded.n_queries
    dcg = _sum_discounted(ranked.query, ranked.position, ranked.gain, n, rule)
    n_unjudged_cut = np.bincount(ranked.query, weights=~ranked.judged, minlength=n)
    idcg = _sum_discounted(ideal.query, ideal.position, ideal.gain, n, rule)
    return _assemble(encoded, ideal.n_judged, ideal.n_relevant, dcg, idcg, n_unjudged_cut, settings)


def ndcg_curve(
    run: pd.DataFrame | EncodedRun,
    qrels: pd.DataFrame | None = None,
    *,
    ks=range(1, 21),
    gain: GainSpec = "exponential",
    log_base: float = 2.0,
    zero_idcg: str = "zero",
    missing: str = "ignore",
    ties: str = "trec_eval",
    discount: str = "log",
) -> pd.DataFrame:
    """NDCG@k of a run for several cutoffs, sorting the run only once.

    ``ks`` may hold None, read as ``k=None`` is everywhere: the whole list
    (its row comes last). Returns a DataFrame with one row per k in ``ks`` (ascending) and columns
    ``k``, ``mean_ndcg``, ``ratio_of_sums`` and ``n_queries``; each row's
    figures equal ``evaluate_run(..., k=k)``'s. ``n_queries`` counts the
    queries in the mean: under ``zero_idcg="skip"`` the queries with IDCG = 0
    are not counted, where ``RunResult.n_queries`` counts every evaluated
    query. Per-query DCG@k for every k comes from one
    cumulative sum over the ranked positions. ``run`` may be an
    :class:`EncodedRun`, as in :func:`evaluate_run`.
    """
    cutoffs, whole = _check_ks(ks)
    settings = _check_run_settings(
        k=None, gain=gain, log_base=log_base, aggregate="mean", zero_idcg=zero_idcg, missing=missing, ties=ties,
        discount=discount,
    )
    deepest = int(cutoffs.max()) if cutoffs.size else 1
    encoded = _encoded(run, qrels)
    depth = None if whole else deepest  # k=None: every ranked document and every judged grade
    ranked = rank(encoded, ties=settings["ties"], gain=settings["gain"], depth=depth)
    ideal = _ideal(encoded, settings["gain"], depth)
    rule, n = (settings["log_base"], settings["discount"]), encoded.n_queries
    dcg = _cumulative_by_position(ranked.query, ranked.position, ranked.gain, n, deepest, rule)[:, cutoffs - 1]
    idcg = _cumulative_by_position(ideal.query, ideal.position, ideal.gain, n, deepest, rule)[:, cutoffs - 1]
    if whole:
        dcg = np.column_stack([dcg, _sum_discounted(ranked.query, ranked.position, ranked.gain, n, rule)])
        idcg = np.column_stack([idcg, _sum_discounted(ideal.query, ideal.position, ideal.gain, n, rule)])
    keep = _kept_queries(encoded, settings["missing"])
    dcg, idcg = dcg[keep], idcg[keep]
    if settings["zero_idcg"] == "error" and (idcg == 0).any():
        raise InvalidInput(_zero_idcg_message(encoded.query_names[keep][(idcg == 0).any(axis=1)]))
    ndcg = normalise(dcg, idcg, settings["zero_idcg"])
    counted = ~np.isnan(ndcg)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(counted.any(axis=0), np.nansum(ndcg, axis=0) / counted.sum(axis=0), np.nan)
    return pd.DataFrame(
        {
            "k": pd.Series([*cutoffs.tolist(), None], dtype=object) if whole else cutoffs,
            "mean_ndcg": mean,
            "ratio_of_sums": normalise(dcg.sum(axis=0), idcg.sum(axis=0), settings["zero_idcg"]),
            "n_queries": counted.sum(axis=0),
        }
    )


# --------------------------------------------------------------------------- validation


def _check_run_settings(*, k, gain, log_base, aggregate, zero_idcg, missing, ties, discount="log") -> dict:
    return {
        "k": check_k(k),
        "gain": check_gain(gain),
        "log_base": check_log_base(log_base),
        "aggregate": check_choice(aggregate, AGGREGATES, name="aggregate"),
        "zero_idcg": check_choice(zero_idcg, ZERO_IDCG_RULES, name="zero_idcg rule"),
        "missing": check_choice(missing, MISSING_RULES, name="missing-query rule"),
        "ties": check_choice(ties, TIE_RULES, name="tie rule"),
        "discount": check_discount(discount),
    }


def _check_ks(ks) -> tuple[np.ndarray, bool]:
    """The distinct whole-number cutoffs of ``ks`` ascending, and whether ``ks`` holds None (the whole list).

    None is read as everywhere else (``k=None``: no cutoff); it was refused here alone.
    """
    if isinstance(ks, (str, bytes)):
        raise InvalidInput(f"ks must be a list of cutoffs such as range(1, 21), got the text {ks[:20]!r}.")
    try:
        values = list(ks)
    except TypeError:
        raise InvalidInput(f"ks must be a list of cutoffs such as range(1, 21), got {ks!r}.") from None
    if not values:
        raise InvalidInput("ks is empty: give at least one cutoff k.")
    checked = [check_k(value) for value in values]
    whole = any(value is None for value in checked)
    return np.unique(np.asarray([value for value in checked if value is not None], dtype=np.int64)), whole


def _encoded(run, qrels) -> EncodedRun:
    if isinstance(run, EncodedRun):
        if qrels is not None:
            raise InvalidInput("An EncodedRun already holds its judgments: pass qrels to encode_run, not here.")
        return run
    return encode_run(run, qrels)


def _ideal(encoded: EncodedRun, gain: GainSpec, depth: int | None):
    """The ideal lists of every query, cut at ``depth``, under ``gain``."""
    grades = encoded.grades
    gains = gain_values(grades, gain) if grades.size else np.zeros(0)
    return ideal_lists(encoded.judged_query, grades, gains, encoded.n_queries, depth)


def _sum_discounted(query: np.ndarray, position: np.ndarray, gain: np.ndarray, n_queries: int,
                    rule: tuple[float, str]) -> np.ndarray:
    """Per-query sum of gain / discount(position + 1) over the given (already cut) rows: ``rule`` is
    (log base, discount name)."""
    base, discount = rule
    disc = discounts(int(position.max(initial=0)) + 1, base, discount=discount)
    return np.bincount(query, weights=gain / disc[position], minlength=n_queries)


def _kept_queries(encoded: EncodedRun, missing: str) -> np.ndarray:
    """Codes of the queries that are evaluated, in query-name order."""
    keep = encoded.judged & (encoded.in_run | (missing == "zero"))
    codes = np.flatnonzero(keep)
    return codes[np.argsort(encoded.query_names[codes], kind="stable")]


def _cumulative_by_position(query, position, gain, n_queries: int, depth: int,
                            rule: tuple[float, str]) -> np.ndarray:
    """Matrix [query, k-1] of DCG@k for k = 1..depth, from one cumulative sum; ``rule`` is (log base, discount)."""
    rows = position < depth
    base, discount = rule
    disc = discounts(depth, base, discount=discount)
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
    which = "query" if len(queries) == 1 else "queries"
    return (
        f"IDCG is 0 for {which} {shown}{more}: no judged document has a positive gain, so NDCG is undefined (0/0). "
        "Choose another zero_idcg rule ('zero', 'one' or 'skip')."
    )


def _assemble(encoded: EncodedRun, n_judged, n_relevant, dcg, idcg, n_unjudged_cut, settings: dict) -> RunResult:
    codes = _kept_queries(encoded, settings["missing"])
    names = encoded.query_names[codes]
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
            "n_retrieved": encoded.n_retrieved[codes],
            "n_judged_retrieved": encoded.n_judged_retrieved[codes],
            "n_judged": n_judged[codes],
            "n_relevant": n_relevant[codes],
            "n_unjudged_in_cutoff": n_unjudged_cut[codes].astype(np.int64),
        },
        index=encoded.query_index(codes),
        columns=list(PER_QUERY_COLUMNS),
    )
    counted = ~np.isnan(ndcg)
    mean_ndcg = float(ndcg[counted].mean()) if counted.any() else float("nan")
    ratio = float(normalise(dcg[codes].sum(), idcg[codes].sum(), settings["zero_idcg"]))
    in_cutoff = ranking_depth(settings["k"], encoded.n_retrieved[codes]).sum()
    share = float(n_unjudged_cut[codes].sum() / in_cutoff) if in_cutoff else 0.0
    unjudged = encoded.in_run & ~encoded.judged
    missing = encoded.judged & ~encoded.in_run
    return RunResult(
        value=mean_ndcg if settings["aggregate"] == "mean" else ratio,
        mean_ndcg=mean_ndcg,
        ratio_of_sums=ratio,
        per_query=per_query,
        # plain str (numpy's str_ shows as "np.str_('q4')" in the result's repr)
        unjudged_queries=tuple(sorted(str(name) for name in encoded.query_names[unjudged])),
        missing_queries=tuple(sorted(str(name) for name in encoded.query_names[missing])),
        zero_idcg_queries=tuple(str(name) for name in names[zero]),
        unjudged_share=share,
        **settings,
    )
