"""Dataset page building blocks, by job (this module keeps the names other pages and tests use):

* :mod:`ui.dataset_upload` - the upload widgets, parsing each file once, the session's data set;
* :mod:`ui.dataset_report` - cached evaluations, the headline cards and the words around them;
* :mod:`ui.dataset_charts` - the histogram and the NDCG@k curve;
* :mod:`ui.dataset_queries` - the searchable, paged per-query table and the Playground hand-off;
* here - share-link helpers and one query's ranking for the Playground.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pandas as pd
import streamlit as st

from ui.dataset_charts import CURVE_DEPTH, curve_chart, histogram_chart  # noqa: F401 - re-exported
from ui.dataset_report import (  # noqa: F401 - re-exported
    MISSING_RULES,
    TIE_RULES,
    count,
    curve,
    describe_list,
    evaluate,
    query_notes,
    run_options,
    settings_rule_text,
    why_aggregates_differ,
)
from ui.dataset_upload import (  # noqa: F401 - re-exported
    LoadedDataset,
    current_dataset,
    load_uploads,
    parse_file,
    sample_dataset,
    set_dataset,
    show_load_error,
    use_sample,
)
from ui.settings import MetricSettings

PLAYGROUND_MAX_DOCS = 100  # the Playground stays usable with this many ranked documents


OPEN_KEY = "dataset_open_request"


def request_open(query: str) -> None:
    """Button callback: remember which query to open in the Playground (acted on by the page's next run)."""
    st.session_state[OPEN_KEY] = query


def take_open_request() -> str | None:
    return st.session_state.pop(OPEN_KEY, None)


# --- share links ---------------------------------------------------------------------------------------------

def restore_from_url(fields: dict[str, tuple[str, Sequence[str]]]) -> None:
    """On a session's first visit, take widget values from the URL: ``{state key: (param, allowed values)}``.

    Anything not in the allowed values is ignored (a malformed link falls back to the default)."""
    for key, (param, allowed) in fields.items():
        value = st.query_params.get(param)
        if key not in st.session_state and value is not None and value in allowed:
            st.session_state[key] = value


def mirror_to_url(values: dict[str, str | None]) -> None:
    """Write ``{param: value}`` to the URL (None removes the parameter), so the address is a share link."""
    for param, value in values.items():
        if value is None:
            if param in st.query_params:
                del st.query_params[param]
        elif st.query_params.get(param) != value:
            st.query_params[param] = value


# --- one query for the Playground --------------------------------------------------------------------------

def query_ranking(dataset: LoadedDataset, run_name: str, query: str, *, ties: str, limit: int = PLAYGROUND_MAX_DOCS):
    """The run's ranking of ``query`` as (names, grades, extra names, extra grades) for the Playground.

    Documents are ordered as trec_eval orders them (score descending, then document id descending) when the
    run has scores, else by rank. Unjudged documents get grade 0. Judged documents not shown (not retrieved,
    or past ``limit``) become extra judged documents, so the Playground's IDCG equals the data set's.
    """
    run = dataset.runs[run_name]
    rows = run[run["query"] == query]
    if dataset.qrels is None:
        judged = rows.loc[rows["relevance"].notna(), ["doc", "relevance"]]
        rows = rows[_retrieved_mask(rows)]
    else:
        judged = dataset.qrels.loc[dataset.qrels["query"] == query, ["doc", "relevance"]]
    rows = _ordered(rows, ties=ties).head(limit)
    grade_of = dict(zip(judged["doc"], judged["relevance"].astype(float), strict=True))
    names = rows["doc"].astype(str).tolist()
    grades = [grade_of.get(name, 0.0) for name in names]
    shown = set(names)
    extra = judged[~judged["doc"].isin(shown)].sort_values("relevance", ascending=False, kind="stable")
    return names, grades, extra["doc"].astype(str).tolist(), extra["relevance"].astype(float).tolist()


def playground_settings(settings: MetricSettings, n_documents: int) -> MetricSettings:
    """The sidebar settings, with "no cutoff" made explicit: for one list, k=None cuts the ideal at the ranking's
    length, whereas a run's IDCG uses every judgment; k = all documents gives the run's convention."""
    return settings if settings.k is not None else replace(settings, k=max(1, n_documents))


def _retrieved_mask(rows: pd.DataFrame) -> pd.Series:
    present = pd.Series(False, index=rows.index)
    for column in ("score", "rank"):
        if column in rows:
            present |= rows[column].notna()
    return present


def _ordered(rows: pd.DataFrame, *, ties: str) -> pd.DataFrame:
    if "score" in rows and rows["score"].notna().all():
        if ties == "trec_eval":
            return rows.sort_values(["score", "doc"], ascending=[False, False], kind="stable")
        return rows.sort_values("score", ascending=False, kind="stable")
    return rows.sort_values("rank", kind="stable")
