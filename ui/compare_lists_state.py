"""Compare, mode 1 (two rankings of the same judged documents): the mode's state, its buttons' actions and its link.

Canonical state: ``compare_docs_base`` (the judged documents as a DataFrame, the editor's base) and
``compare_order_a`` / ``compare_order_b`` (each ranking as a list of document names). Buttons act through
callbacks (the functions here), so every element of the next run already shows their result.

Share link: a session's first visit restores both rankings from the URL (``judged``, ``order_a``, ``order_b``, see
:mod:`ui.url_state`); every run publishes the rankings shown, so the address bar and the share box always reproduce
them, grades exactly. The view is :mod:`ui.compare_lists`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pandas as pd
import streamlit as st

import ndcg_core
from ui import session, url_state
from ui.copy_link import copy_link
from ui.formatting import count
from ui.messages import user_message
from ui.settings import MetricSettings
from ui.widgets import names_list, plain

DOCS_KEY = "compare_docs_base"
ORDER_KEYS = {"A": "compare_order_a", "B": "compare_order_b"}
EXAMPLE_DOCS = pd.DataFrame({"document": [f"D{i}" for i in range(1, 9)], "grade": [3.0, 2.0, 3.0, 0.0, 1.0, 2.0, 0.0, 1.0]})
EXAMPLE_ORDERS = {
    "A": ["D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8"],
    "B": ["D3", "D4", "D1", "D6", "D2", "D8", "D5", "D7"],
}


def reset_documents(names: Sequence[str], grades: Sequence[float], orders: dict[str, list[str]] | None = None) -> None:
    """Replace the judged documents (and both rankings) and reset the editor."""
    session.set_widget(DOCS_KEY, pd.DataFrame({"document": [str(n) for n in names], "grade": [float(g) for g in grades]}))
    for side, key in ORDER_KEYS.items():
        session.set_widget(key, list(orders[side]) if orders else [str(n) for n in names])
    session.forget(EDITOR_KEY)
    session.forget(BASE_NAMES_KEY)


LOADED_NOTICE_KEY = "compare_loaded_notice"


def load_playground(names: Sequence[str], grades: Sequence[float], extra_names: Sequence[str],
                    extra_grades: Sequence[float]) -> None:
    """Load the Playground's list into both rankings. Its judged documents that are not in its ranking (they raise
    only the ideal) are judged documents here too, at the end of both rankings: the two rankings order every judged
    document, and without them the ideal, so IDCG and every figure, was the Playground's without them."""
    reset_documents([*names, *extra_names], [*grades, *extra_grades])
    if extra_names:
        listed = plain(names_list(extra_names, limit=5, more=", …"))
        session.set_widget(LOADED_NOTICE_KEY, (
            f"The Playground's {count(len(extra_names), 'judged document', 'judged documents')} outside its ranking "
            f"({listed}) {'is' if len(extra_names) == 1 else 'are'} at the end of both rankings here: each ranking "
            "orders every judged document. IDCG is the Playground's; DCG also counts them at the bottom."))


BASE_NAMES_KEY = "compare_base_names"
EDITOR_KEY = "compare_docs_editor"
EDITOR_COLUMNS = ("document", "grade")


def base_row_names(base: pd.DataFrame, editor_state: dict | None) -> list[str | None]:
    """The current name of each row of the editor's base table (None: deleted), from the editor's edit state.

    The editor reports edits by base row, so comparing these lists between runs tells a rename (same row,
    new name) apart from a deleted row plus an added one.
    """
    names: list[str | None] = base["document"].astype(str).tolist()
    state = editor_state if session.editor_state_is_usable(editor_state, rows=len(names), columns=EDITOR_COLUMNS) else {}
    state = state or {}
    for row, changes in (state.get("edited_rows") or {}).items():
        if "document" in changes:
            names[int(row)] = None if changes["document"] is None else str(changes["document"])
    for row in state.get("deleted_rows") or []:
        names[int(row)] = None
    return names


def renamed_documents(current: list[str | None]) -> dict[str, str]:
    """{old name: new name} for the base rows renamed since the last valid edit; remembers ``current``.

    Call only with a valid edit: renames then always go from one valid set of unique names to the next.
    """
    previous = session.widget(BASE_NAMES_KEY)
    session.set_widget(BASE_NAMES_KEY, current)
    if previous is None or len(previous) != len(current):
        return {}
    return {old: new for old, new in zip(previous, current, strict=True) if old and new and old != new}


IDEAL_REQUEST_KEY = "compare_ideal_request"


def request_ideal(side: str) -> None:
    """Button callback: put ranking ``side`` in the ideal order, applied in the run, to the grades as edited.

    Not the ideal of the last redraw: a grade typed and the button clicked at once arrive in one request.
    """
    session.set_widget(IDEAL_REQUEST_KEY, side)


def swap_orders() -> None:
    """Button callback: ranking A becomes B and B becomes A."""
    a, b = session.widget(ORDER_KEYS["A"]), session.widget(ORDER_KEYS["B"])
    session.set_widget(ORDER_KEYS["A"], b)
    session.set_widget(ORDER_KEYS["B"], a)


OPEN_KEY = "compare_open_request"


def request_open(side: str) -> None:
    """Button callback: open ranking ``side`` in the Playground (done by the page's next run)."""
    session.set_widget(OPEN_KEY, side)


def take_open_request() -> str | None:
    return session.forget(OPEN_KEY)


LINK_KEY = "compare_lists_link"
LINK_SCOPE = "compare_lists"  # the link warnings of the two rankings in ui.url_state (the mode's are "compare")


@dataclass
class ListsLink:
    """The two rankings' share-link bookkeeping (the rankings themselves are the canonical keys above)."""

    warned_for: dict | None = None  # the parameters shown when a bad link's warning was first shown


def _link_state() -> ListsLink:
    return session.page_state(LINK_KEY, ListsLink)


def ensure_documents() -> None:
    """On the session's first visit: the link's two rankings, else the example.

    The link's documents are checked as the page's are (names, grades), so a refused link says why. Not under the
    link's gain: rankings whose grade overflows it (5000 under exponential gain) are kept, as on the Playground, and
    the page says why there are no numbers, which is what their sender saw.
    """
    if session.has(DOCS_KEY):
        return
    lists, problem = url_state.compared_lists_from_params(url_state.params())
    if lists is not None:
        try:
            checked_documents(pd.DataFrame({"document": list(lists.names), "grade": list(lists.grades)}),
                              gain=ANY_GAIN)
        except ndcg_core.InvalidInput as error:
            lists, problem = None, (f"The link's rankings could not be used ({plain(user_message(error))}), so the "
                                    "example rankings are shown.")
    if lists is None:
        reset_documents(EXAMPLE_DOCS["document"], EXAMPLE_DOCS["grade"], EXAMPLE_ORDERS)
    else:
        reset_documents(lists.names, lists.grades, {"A": list(lists.order_a), "B": list(lists.order_b)})
    url_state.warn(LINK_SCOPE, problem)
    _link_state().warned_for = None


def publish_lists(documents: pd.DataFrame, orders: dict[str, list[str]]) -> url_state.RankingLink:
    """Put the rankings shown in the URL (before anything can fail), and keep a bad link's warning only until
    they change (it is about the link's rankings, not about the ones the user made since)."""
    link = url_state.compared_lists_link(url_state.ComparedLists(
        tuple(documents["document"]), tuple(float(grade) for grade in documents["grade"]),
        tuple(orders["A"]), tuple(orders["B"])))
    url_state.publish({**dict.fromkeys(url_state.COMPARE_LISTS_PARAMS), **link.params})
    state = _link_state()
    if url_state.warning(LINK_SCOPE) is None:
        state.warned_for = None
    elif state.warned_for is None:
        state.warned_for = link.params
    elif state.warned_for != link.params:
        url_state.warn(LINK_SCOPE, None)
        state.warned_for = None
    return link


def share_link(link: url_state.RankingLink, settings: MetricSettings) -> None:
    """The copy box: this page's address with the settings, the mode and both rankings (what the address bar holds)."""
    if link.problem is not None:
        st.caption(f"These rankings cannot be shared as a link: {link.problem}. Opening the address shows the "
                   "example rankings with a note.")
        return
    copy_link(url_state.link(url_state.page_address("/compare"), {**url_state.settings_params(settings), "compare": "lists", **link.params}),
              key="compare_share_link", label="Share link of these rankings")
    st.caption("Opening the link restores both rankings, the documents' names and grades, and the settings.")


ANY_GAIN = "linear"  # checks names and grades without a gain's limits: every finite grade >= 0 has a linear gain


def has_edits(editor_state: object) -> bool:
    """Whether the documents editor holds an edit (its state names an edited, added or deleted row)."""
    return isinstance(editor_state, Mapping) and any(editor_state.get(part) for part in session.EDITOR_PARTS)


def checked_documents(edited: pd.DataFrame, *, gain) -> pd.DataFrame:
    """The edited judged documents, or InvalidInput saying what is wrong (the caller keeps the last valid set).

    Grades are checked by ``ndcg_core.check_grades`` under ``gain`` (the sidebar's), never a default gain.
    """
    rows = edited.dropna(how="all").copy()
    if rows.empty:
        raise ndcg_core.InvalidInput("Add at least one document to compare rankings.")
    if rows["document"].isna().any() or (rows["document"].astype(str).str.strip() == "").any():
        raise ndcg_core.InvalidInput("Every row needs a document name.")
    rows["document"] = rows["document"].astype(str)
    duplicated = rows["document"][rows["document"].duplicated()].tolist()
    if duplicated:
        raise ndcg_core.InvalidInput(f"Document names must be unique; repeated: {', '.join(duplicated[:5])}.")
    ndcg_core.check_grades(rows["grade"].tolist(), gain=gain)  # missing, negative, non-numeric, too large for gain
    rows["grade"] = rows["grade"].astype(float)
    return rows.reset_index(drop=True)


def synced_order(order: list[str], names: list[str], renamed: dict[str, str] | None = None) -> list[str]:
    """Keep a ranking in step with edited documents: a renamed document keeps its place, removed names are
    dropped, new ones are appended at the bottom."""
    present = set(names)
    renamed = renamed or {}
    kept = [renamed.get(name, name) for name in order]
    kept = [name for name in kept if name in present]
    seen = set(kept)
    return kept + [name for name in names if name not in seen]


def ideal_order(documents: pd.DataFrame) -> list[str]:
    """Document names in ndcg_core's ideal order (grade descending, ties in table order)."""
    names = documents["document"].tolist()
    return [names[j] for j in ndcg_core.ideal_order(documents["grade"].to_numpy(dtype=float))]
