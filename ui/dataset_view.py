"""Dataset page building blocks, by job (this module keeps the names other pages and tests use):

* :mod:`ui.dataset_upload` - the upload widgets, parsing each file once, the session's data set;
* :mod:`ui.dataset_report` - cached evaluations, the headline cards and the words around them;
* :mod:`ui.dataset_charts` - the histogram and the NDCG@k curve;
* :mod:`ui.dataset_queries` - the searchable, paged per-query table and the Playground hand-off;
* here - share-link helpers and one query's ranking for the Playground (``ndcg_core.ranked_query``).
"""

from __future__ import annotations

from collections.abc import Sequence

import ndcg_core
from ui import dataset_state, url_state
from ui.dataset_charts import CURVE_DEPTH, curve_chart, histogram_chart  # noqa: F401 - re-exported
from ui.dataset_report import (  # noqa: F401 - re-exported
    MISSING_RULES,
    TIE_RULES,
    curve,
    describe_list,
    encoded_run,
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

# A TREC run's depth: a query's whole list goes to the Playground (whose list draws its top 200 rows and whose
# table edits the rest), so the opened list's NDCG equals the row's with or without a cutoff.
PLAYGROUND_MAX_DOCS = 1_000


def request_open(query: str) -> None:
    """Button callback: remember which query to open in the Playground (acted on by the page's next run)."""
    dataset_state.state().open_request = query


def take_open_request() -> str | None:
    page = dataset_state.state()
    query, page.open_request = page.open_request, None
    return query


# --- share links ---------------------------------------------------------------------------------------------

def restore_from_url(fields: dict[str, tuple[str, Sequence[str], str]]) -> None:
    """On a session's first visit, take widget values from the URL: ``{state key: (param, allowed values, label)}``.

    A value not allowed falls back to the default and leaves a warning (:func:`show_link_warning`)."""
    for key, (param, allowed, label) in fields.items():
        url_state.restore_choice(key, param, allowed, scope=dataset_state.LINK_SCOPE, label=label)


def show_link_warning(slot, choices: tuple) -> None:
    """Show, in ``slot``, why the link's run, rules or query were not used, until ``choices`` (run, tie rule,
    missing-query rule, query) change from what they were when it was first shown."""
    page = dataset_state.state()
    if url_state.warning(dataset_state.LINK_SCOPE) is None:
        return
    if page.warned_for is None:
        page.warned_for = choices
    elif page.warned_for != choices:
        url_state.warn(dataset_state.LINK_SCOPE, None)
        return
    with slot:
        url_state.show_warning(dataset_state.LINK_SCOPE)


UPLOADED_LINK = ("The link was copied from this page showing uploaded files, which a link cannot carry, so the "
                 "bundled sample is shown.")


def mark_uploads_in_url(dataset: LoadedDataset) -> None:
    """``data_unlinked=1`` in the address of uploaded data; opened without those files, the page says that the
    bundled sample is shown instead. (A copied address reopened to the sample's figures without a word.)"""
    uploaded = dataset.digest != sample_dataset().digest
    if not uploaded and url_state.params().get("data_unlinked") is not None:
        url_state.add_warning(dataset_state.LINK_SCOPE, UPLOADED_LINK)
    mirror_to_url({"data_unlinked": "1" if uploaded else None})


def mirror_to_url(values: dict[str, str | None]) -> None:
    """Publish ``{param: value}`` to the URL (None removes it); app.py writes the URL once per run (ui.url_state)."""
    url_state.publish(values)


# --- one query for the Playground --------------------------------------------------------------------------

def query_ranking(dataset: LoadedDataset, run_name: str, query: str, *, ties: str,
                  limit: int = PLAYGROUND_MAX_DOCS) -> ndcg_core.RankedQuery:
    """The run's ranking of ``query`` for the Playground: ``ndcg_core.ranked_query`` under the page's tie rule.

    Its documents are in the tie rule's order (unjudged ones with grade 0), judged documents not shown (not
    retrieved, or past ``limit``) are extra judged documents, and under "average" the tie groups come along,
    so the Playground's NDCG equals the data set's row for any cutoff up to ``limit``.
    """
    return ndcg_core.ranked_query(encoded_run(dataset, run_name), query=query, ties=ties, limit=limit)
