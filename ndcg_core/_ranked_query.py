"""One query of a run as the ranked list that :func:`evaluate` takes: :func:`ranked_query`.

The Dataset page opens a query in the Playground with it, so the list shown
there gives the same NDCG as the run's per-query row, under every tie rule,
gain, cutoff and zero-IDCG rule: the query is ranked by the same engine
(:func:`ndcg_core._rank.rank`), and under ``ties="average"`` the tie groups
travel with the list (``tie_groups``, which :func:`evaluate` averages over).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ._encoded_run import EncodedRun, encode_run
from ._ideal import ideal_order
from ._list import ListResult, evaluate
from ._rank import rank
from ._ties import TIE_RULES, tie_group_labels
from ._validation import InvalidInput, check_choice, check_k


@dataclass(frozen=True)
class RankedQuery:
    """One query of a run, ranked: what :func:`evaluate` needs to reproduce the run's figure.

    ``docs``/``grades``/``judged``/``values``: the retrieved documents in
    ranked order, their grades (0 for an unjudged document), whether they
    have a judgment, and their ordering value (the score, or minus the rank:
    higher first). ``extra_docs``/``extra_grades``: judged documents not in
    the list (not retrieved, or past ``limit``), in the ideal order.
    ``tie_groups``: under ``ties="average"``, one label per position, equal
    for documents with tied scores (None under the other rules, whose order
    alone settles the ties). ``dropped``: how many retrieved documents were
    left out past ``limit`` (0: the list is the whole ranking).
    """

    query: str
    ties: str
    docs: tuple[str, ...]
    grades: np.ndarray
    judged: np.ndarray
    values: np.ndarray
    extra_docs: tuple[str, ...]
    extra_grades: np.ndarray
    tie_groups: np.ndarray | None
    dropped: int = 0

    @property
    def ideal_relevances(self) -> np.ndarray:
        """The grades the ideal list is built from: the listed documents' and the extra ones'."""
        return np.concatenate([self.grades, self.extra_grades])

    def evaluate(self, **settings) -> ListResult:
        """:func:`evaluate` on this list (settings: ``k``, ``gain``, ``log_base``, ``zero_idcg``).

        A list cut by ``limit`` (``dropped`` > 0) refuses a ``k`` past its documents, or none: its DCG would stop at
        the limit while IDCG counts every judgment, a figure of neither the whole ranking nor of that k."""
        k = check_k(settings.get("k"))
        if self.dropped and (k is None or k > len(self.docs)):
            kept, total = len(self.docs), len(self.docs) + self.dropped
            raise InvalidInput(
                f"This list is the first {kept} of the query's {total} retrieved documents (ranked_query's limit): "
                f"it gives the run's NDCG at k ≤ {kept} only, and k is {'None (no cutoff)' if k is None else k}. "
                f"Evaluate it at k ≤ {kept}, or call ranked_query without limit.")
        return evaluate(self.grades, ideal_relevances=self.ideal_relevances, tie_groups=self.tie_groups, **settings)


def ranked_query(
    run: pd.DataFrame | EncodedRun,
    qrels: pd.DataFrame | None = None,
    query: str = "",
    *,
    ties: str = "trec_eval",
    limit: int | None = None,
) -> RankedQuery:
    """One query of a run as a ranked list of grades plus its extra judged documents.

    ``evaluate(q.grades, ideal_relevances=q.ideal_relevances,
    tie_groups=q.tie_groups, k=k, gain=..., zero_idcg=...)`` (or
    ``q.evaluate(...)``) equals ``evaluate_run(run, qrels, ties=ties, k=k, ...)``'s
    per-query figure for this query, for every tie rule, k (``None``: no
    cutoff, in both), gain and zero-IDCG rule, as long as ``limit`` is at
    least k and grade 0 has gain 0 (true of linear and exponential gain;
    the run counts an unjudged document as gain 0 where ``evaluate`` looks
    grade 0 up in a gain table).

    Parameters
    ----------
    run, qrels
        As in :func:`evaluate_run`; ``run`` may be an :class:`EncodedRun`
        (then ``qrels`` is None).
    query : str
        The query id, as text (as in ``RunResult.per_query``'s index).
    ties : one of :data:`TIE_RULES`
        The tie rule, as in :func:`evaluate_run`.
    limit : positive int, optional
        Keep the first ``limit`` documents only (under ``"average"``, up to
        the end of the tie group at the limit); judged documents past it
        become extra judged documents, so IDCG is unchanged.

    Examples
    --------
    >>> import pandas as pd
    >>> run = pd.DataFrame({"query": "q", "doc": ["a", "b", "c"], "score": [1, 1, 0.5]})
    >>> qrels = pd.DataFrame({"query": "q", "doc": ["a", "b", "c"], "relevance": [0, 3, 1]})
    >>> listed = ranked_query(run, qrels, "q", ties="optimistic")
    >>> listed.docs, listed.grades.tolist()
    (('b', 'a', 'c'), [3.0, 0.0, 1.0])
    >>> round(listed.evaluate(gain="linear").ndcg, 4)
    0.9639
    >>> round(ranked_query(run, qrels, "q", ties="average").evaluate(gain="linear").ndcg, 4)
    0.8115
    """
    check_choice(ties, TIE_RULES, name="tie rule")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, (int, np.integer)) or limit < 1):
        raise InvalidInput(f"limit must be a positive whole number or None, got {limit!r}.")
    full = run if isinstance(run, EncodedRun) else encode_run(run, qrels)
    one = _one_query(full, str(query))
    ranked = rank(one, ties=ties, gain="linear", depth=None)
    judgment = one.judgment[ranked.row]
    grades = np.where(judgment > 0, one.grades[np.maximum(judgment, 1) - 1], 0.0) if judgment.size else np.zeros(0)
    values = one.value[ranked.row]
    groups = tie_group_labels(values) if ties == "average" else None
    shown = grades.size if limit is None else min(int(limit), grades.size)
    if groups is not None and 0 < shown < grades.size:
        shown = int(np.searchsorted(groups, groups[shown - 1], side="right"))  # the whole tie group at the limit
    listed = set(judgment[:shown][judgment[:shown] > 0] - 1)
    extra = np.array([j for j in range(one.grades.size) if j not in listed], dtype=np.int64)
    extra = extra[ideal_order(one.grades[extra])] if extra.size else extra
    judged_docs = one.columns.judged_docs
    return RankedQuery(
        query=str(query),
        ties=ties,
        docs=tuple(str(doc) for doc in one.doc_ids(ranked.row[:shown])),
        grades=grades[:shown],
        judged=judgment[:shown] > 0,
        values=values[:shown],
        extra_docs=tuple(str(doc) for doc in judged_docs.take(extra)),
        extra_grades=one.grades[extra],
        tie_groups=None if groups is None else groups[:shown],
        dropped=int(grades.size - shown),
    )


def _one_query(encoded: EncodedRun, query: str) -> EncodedRun:
    """The rows and judgments of one query, encoded on their own (a few hundred rows at most, usually)."""
    codes = np.flatnonzero(encoded.query_names.astype(str) == query)
    if codes.size == 0:
        raise InvalidInput(f"Query {query!r} is neither in the run nor in the judgments.")
    code = codes[0]
    columns = encoded.columns
    run_rows = np.flatnonzero(encoded.ids.query.run == code)
    judged_rows = np.flatnonzero(encoded.ids.query.judged == code)
    if run_rows.size == 0:
        raise InvalidInput(f"Query {query!r} retrieved no document in the run: there is no ranked list to show.")
    if judged_rows.size == 0:
        raise InvalidInput(f"Query {query!r} has no judgment, so it has no NDCG (evaluate_run leaves it out).")
    run = pd.DataFrame({"query": query, "doc": columns.run_docs.take(run_rows).to_numpy(dtype=object),
                        "score": columns.order_value[run_rows]})
    qrels = pd.DataFrame({"query": query, "doc": columns.judged_docs.take(judged_rows).to_numpy(dtype=object),
                          "relevance": columns.grades[judged_rows]})
    return encode_run(run, qrels)
