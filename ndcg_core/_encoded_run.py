"""A run prepared once for many evaluations: :func:`encode_run` and :class:`EncodedRun`.

Checking the frames, encoding ids and joining the run with its judgments
(the first three layers: :mod:`._frames`, :mod:`._encode`, :mod:`._judge`)
is most of the work of :func:`evaluate_run` and does not depend on the
cutoff, the gain, the tie rule or the zero-IDCG rule. An :class:`EncodedRun`
holds that work; the caller keeps it (the app in ``st.cache_resource``) and
evaluates it again with other settings. Nothing is cached behind the
caller's back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ._encode import EncodedIds, encode_ids
from ._frames import RunColumns, read_frames
from ._judge import Judgments, judge
from ._validation import InvalidInput


@dataclass(frozen=True, eq=False)
class EncodedRun:
    """A run and its judgments, checked, with integer ids and the run rows joined with their judgments.

    Build it with :func:`encode_run`; pass it to :func:`evaluate_run`,
    :func:`ndcg_curve` or :func:`ranked_query` in place of the DataFrames
    (or call :meth:`evaluate`). Query code q names ``query_names[q]``; the
    run's queries have the first codes.

    ``columns`` holds the checked columns of the run and its judgments (ids
    as given, the ordering value, the grades); ``ids`` the integer codes of
    the query and document ids; ``judgments`` which judgment each run row has. Per query code: ``in_run`` says whether the run retrieved anything,
    ``judged`` whether it has a judgment, ``n_retrieved`` how many documents
    the run retrieved and ``n_judged_retrieved`` how many of those are judged.
    ``rows`` are the run rows of judged queries (None: every row), with
    their query code, ordering value (higher first) and 1 + the index of
    their judgment (0: unjudged) in ``query``, ``value`` and ``judgment``.
    ``grouped`` says whether those rows come one block per query (codes
    counting up), and ``boundary`` lists the rows i such that rows i and
    i + 1 are of different queries.
    """

    columns: RunColumns = field(repr=False)
    ids: EncodedIds = field(repr=False)
    judgments: Judgments = field(repr=False)
    in_run: np.ndarray = field(repr=False)  # bool per query: retrieved something
    judged: np.ndarray = field(repr=False)  # bool per query: has at least one judgment
    n_retrieved: np.ndarray = field(repr=False)
    n_judged_retrieved: np.ndarray = field(repr=False)
    rows: np.ndarray | None = field(repr=False)
    query: np.ndarray = field(repr=False)
    value: np.ndarray = field(repr=False)
    judgment: np.ndarray = field(repr=False)
    grouped: bool = False
    boundary: np.ndarray = field(repr=False, default_factory=lambda: np.zeros(0, dtype=np.int64))

    @property
    def query_names(self) -> np.ndarray:
        return self.ids.query.names

    @property
    def n_queries(self) -> int:
        return self.ids.n_queries

    @property
    def grades(self) -> np.ndarray:
        """The grade of each judgment."""
        return self.columns.grades

    @property
    def judged_query(self) -> np.ndarray:
        """The query code of each judgment."""
        return self.ids.query.judged

    def doc_ids(self, kept_rows: np.ndarray) -> np.ndarray:
        """The document ids (as given) of some of the kept rows (positions in ``query``)."""
        rows = kept_rows if self.rows is None else self.rows[kept_rows]
        return self.columns.run_docs.take(rows).to_numpy(dtype=object)

    def query_index(self, codes: np.ndarray) -> pd.Index:
        """The ids of the given query codes as a text Index named "query"."""
        names = self.ids.query.name_index
        if names is None:
            return pd.Index(self.query_names[codes].astype(str), dtype="str", name="query")
        return names.take(codes).rename("query")

    def evaluate(self, **settings):
        """:func:`evaluate_run` on this run, e.g. ``encoded.evaluate(k=10, gain="linear")``."""
        from ._runs import evaluate_run  # the metrics layer builds on this one

        return evaluate_run(self, **settings)


def encode_run(run: pd.DataFrame, qrels: pd.DataFrame | None = None) -> EncodedRun:
    """Check, encode and join a run with its judgments once, for several evaluations.

    ``run`` and ``qrels`` are those of :func:`evaluate_run` (ids of any
    dtype: categorical, text, object, integer, float). Raises
    :class:`InvalidInput` for what :func:`evaluate_run` refuses.

    >>> import pandas as pd
    >>> run = pd.DataFrame({"query": ["q1", "q1"], "doc": ["a", "b"], "score": [2.0, 1.0]})
    >>> qrels = pd.DataFrame({"query": ["q1", "q1"], "doc": ["a", "b"], "relevance": [0, 1]})
    >>> encoded = encode_run(run, qrels)
    >>> [round(encoded.evaluate(k=k, gain="linear").value, 4) for k in (1, 2)]
    [0.0, 0.6309]
    """
    columns = read_frames(run, qrels)
    ids = encode_ids(columns)
    judgments = judge(columns, ids)
    n_queries = ids.n_queries
    run_query_all = ids.query.run
    n_run_queries = ids.query.run_starts.size if ids.query.run_starts is not None else int(run_query_all.max()) + 1
    in_run = np.arange(n_queries) < n_run_queries
    judged = np.bincount(ids.query.judged, minlength=n_queries) > 0

    # Rows of judged queries only: unjudged queries are reported, not scored.
    every_row = bool(judged[in_run].all())
    rows = None if every_row else np.flatnonzero(judged[run_query_all])
    query = run_query_all if every_row else run_query_all[rows]
    # Query codes count up in order of first appearance, so the rows are grouped by query (each query one
    # block) exactly when the query changes between neighbours one time less than there are queries.
    if every_row and ids.query.run_starts is not None:  # grouped, and the group starts are known already
        grouped, boundary = True, ids.query.run_starts[1:] - 1
    else:
        grouped, boundary = query_blocks(query, int(np.count_nonzero(in_run if every_row else in_run & judged)))
    return EncodedRun(
        columns=columns,
        ids=ids,
        judgments=judgments,
        in_run=in_run,
        judged=judged,
        n_retrieved=np.bincount(run_query_all, minlength=n_queries),
        n_judged_retrieved=np.bincount(run_query_all[judgments.hit_rows], minlength=n_queries),
        rows=rows,
        query=query,
        value=columns.order_value if every_row else columns.order_value[rows],
        judgment=judgments.of_row if every_row else judgments.of_row[rows],
        grouped=grouped,
        boundary=boundary,
    )


def query_blocks(query: np.ndarray, n_listed: int) -> tuple[bool, np.ndarray]:
    """(``grouped``, ``boundary``) of :class:`EncodedRun` for rows with query codes ``query`` that list
    ``n_listed`` distinct queries: the rows i where the query changes between rows i and i + 1, and whether
    each query is one block (then it changes exactly one time less than there are queries)."""
    boundary = np.flatnonzero(query[1:] != query[:-1])
    return query.size < 2 or boundary.size + 1 == n_listed, boundary


def check_encoded(run: object, *, what: str) -> EncodedRun:
    """Return ``run`` if it is an :class:`EncodedRun`; a DataFrame or anything else is refused with what to call.

    (Functions that take only an encoded run read its attributes: anything else raised a bare AttributeError.)
    """
    if not isinstance(run, EncodedRun):
        raise InvalidInput(f"{what} must be an EncodedRun: build it with ndcg_core.encode_run(run, qrels), "
                           f"got {type(run).__name__}.")
    return run
