"""The Dataset page's state layer: one typed :class:`DatasetState` in the session, the page's widget keys,
and the functions other pages and modules read them through (:mod:`ui.session` is the door).

The data set itself (the bundled sample until something is loaded) lives in :class:`DatasetState`; the Compare
page's "two runs" mode reads it with :func:`ui.dataset_upload.current_dataset`, and the page's tie and
missing-query choices with :func:`run_choices`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ui import session

if TYPE_CHECKING:
    from ui.dataset_upload import LoadedDataset

STATE_KEY = "dataset"
LINK_SCOPE = "dataset"  # the page's link warnings (ui.url_state)
# widget keys (Streamlit keeps each widget's value under its key)
SOURCE_KEY = "dataset_source"
QRELS_FILE_KEY = "dataset_qrels_file"
RUN_FILES_KEY = "dataset_run_files"
CSV_FILES_KEY = "dataset_csv_files"
RUN_KEY = "dataset_run"
TIES_KEY = "dataset_ties"
MISSING_KEY = "dataset_missing"
SEARCH_KEY = "dataset_search"
ORDER_KEY = "dataset_order"
PAGE_KEY = "dataset_page"
TABLE_KEY = "dataset_table"  # the per-query grid: one key per page of rows (table_key)
QUERY_KEY = "dataset_query"
DEFAULT_TIES = "trec_eval"
DEFAULT_MISSING = "ignore"


@dataclass
class DatasetState:
    """The session's data set and what the page remembers between runs (none of it is a widget's value)."""

    dataset: LoadedDataset | None = None  # None until first read: then the bundled sample
    load_error: tuple[tuple, str] | None = None  # (the refused upload's ids, why): not parsed again on a rerun
    open_request: str | None = None  # the query whose "Open in the Playground" was clicked
    table_rows: list[int] = field(default_factory=list)  # the table's selection last acted on
    search: str = ""  # the search text last acted on
    warned_for: tuple | None = None  # (run, ties, missing, query) when the link's warning was first shown


def state() -> DatasetState:
    return session.page_state(STATE_KEY, DatasetState)


def run_choices() -> tuple[str, str]:
    """(tied scores, missing queries): the page's choices, for other pages (Compare's runs)."""
    return session.widget(TIES_KEY, DEFAULT_TIES), session.widget(MISSING_KEY, DEFAULT_MISSING)


def picked_query() -> str | None:
    """The query picked on the page (a row, the picker, a typed id or a share link), or None."""
    return session.widget(QUERY_KEY)


def pick_query(query: str | None) -> None:
    """Pick ``query`` before the picker is drawn (None: the picker starts from its first option)."""
    if query is None:
        session.forget(QUERY_KEY)
    else:
        session.set_widget(QUERY_KEY, query)


def set_run(run_name: str) -> None:
    """Set the run picker's value (its options changed: forgetting it would leave the old name shown)."""
    session.set_widget(RUN_KEY, run_name)


def table_key(*shown: object) -> str:
    """The per-query grid's key for the rows it shows (data set, run, rules, order, search, page).

    A grid keeps what it measured on its first rows and its selection by row position: under one key, the ids of an
    uploaded data set were cut to the sample's width ("naïve-1" on every row for naïve-1000, naïve-1014, ...), and
    page 2 showed page 1's selected row checked beside another query while the picker named the first. A new key
    per set of rows starts a new grid, sized to its rows, with nothing selected.
    """
    return f"{TABLE_KEY}_{hashlib.sha256(repr(shown).encode()).hexdigest()[:16]}"


def first_page() -> None:
    """Back to the table's first page (a new search)."""
    session.set_widget(PAGE_KEY, 1)
