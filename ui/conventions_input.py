"""The Library conventions page's input: the case picker, the editable input table, its state and share link.

State: the case picker's value (``conventions_case``), per case the editor's base table and its edit state
(Streamlit's, under the editor's key), and one typed :class:`ConventionsState` (the last valid input and the
link's rows, per case). The link format and its rules are in :mod:`ui.url_state`; everything goes through
:mod:`ui.session`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd
import streamlit as st

import ndcg_core
from ui import cells, session, url_state
from ui import conventions_view as view
from ui.copy_link import copy_link
from ui.messages import user_message
from ui.settings_model import MetricSettings
from ui.widgets import plain

CASE_KEY = "conventions_case"
STATE_KEY = "conventions"
SCOPE = "conventions"  # the page's link warnings in ui.url_state
CASE_TITLES = {key: case.title for key, case in view.CASES.items()} | {view.CUSTOM: "Your own input"}
COLUMNS = {
    "document": st.column_config.TextColumn("Document id", help="Used by trec_eval to break score ties."),
    # Text, read by ui.cells: a number column dropped "-1" and "2,5" without a word and showed 1.000000001 as "1".
    "grade": st.column_config.TextColumn("Grade", help="Relevance grade: 0 = not relevant, higher = more relevant"),
    "score": st.column_config.TextColumn("Score", help="Empty column = use the order of the rows."),
    "score_2": st.column_config.TextColumn("Score, ranker 2", help="Optional: a second ranker to compare."),
    "ranked": st.column_config.CheckboxColumn(
        "Ranked", help="Untick for a judged document the ranker did not return (it only enters the ideal list).",
        default=True,  # a new row is ticked, as it is read (an empty box would show "not ranked" for a ranked row)
    ),
}
NUMBER_COLUMNS = {"grade": cells.grade, "score": cells.score, "score_2": cells.score}  # read from text (ui.cells)


@dataclass
class ConventionsState:
    """What the page keeps between runs besides its widgets: per case, the last valid input and its link rows."""

    link_read: bool = False  # a link's rows fill the table once, on the session's first visit
    valid: dict[str, view.CheckedInput] = field(default_factory=dict)
    rows: dict[str, str | None] = field(default_factory=dict)  # None: the case's own input (or too big for a link)


def _state() -> ConventionsState:
    return session.page_state(STATE_KEY, ConventionsState)


def base_key(case_key: str) -> str:
    """The session key of a case's editor base table (the editor is keyed by case, so switching resets it)."""
    return f"conventions_base_{case_key}"


def editor_key(case_key: str) -> str:
    return f"conventions_editor_{case_key}"


def choose_case() -> tuple[str, view.Case | None]:
    """The case picker (restored from and published to the link). None: the user's input."""
    url_state.restore_choice(CASE_KEY, "case", list(CASE_TITLES), scope=SCOPE, label="case")
    case_key = st.selectbox("Case", list(CASE_TITLES), format_func=CASE_TITLES.get, key=CASE_KEY, persist_state="session")
    url_state.publish({"case": case_key})
    return case_key, view.CASES.get(case_key)


def _case_frame(case: view.Case | None) -> pd.DataFrame:
    return case.frame() if case else view.CASES["ties"].frame()


def _start_table(case_key: str, case: view.Case | None, settings: MetricSettings) -> None:
    """A case's base table, once: the case's own input, or on the session's first visit a share link's rows."""
    page = _state()
    if session.has(base_key(case_key)):
        page.link_read = True
        return
    session.set_widget(base_key(case_key), _case_frame(case))
    linked = url_state.params().get("rows")
    if linked is not None and not page.link_read:
        try:
            frame = view.decode_input(linked)
            view.checked_input(frame, gain=settings.gain_spec())  # grades and scores as an edit would be checked
            session.set_widget(base_key(case_key), frame)
        except (ValueError, ndcg_core.InvalidInput) as error:
            reason = plain(user_message(str(error).splitlines()[0][:200]))
            url_state.warn(SCOPE, f"The link's input table could not be used ({reason}), so the case's own input is "
                                  "shown.")
    page.link_read = True


def input_table(case_key: str, case: view.Case | None, settings: MetricSettings) -> view.CheckedInput:
    """The case's lesson, the editable input and the input to evaluate: the edit when valid, else the last valid one
    (and why)."""
    _start_table(case_key, case, settings)
    lesson = st.container()  # filled once the table's edit is known: the lesson is about the case's own input
    url_state.show_warning(SCOPE)
    base = session.widget(base_key(case_key))
    if refused := session.guard_editor(editor_key(case_key), rows=len(base), columns=view.INPUT_COLUMNS):
        st.error(refused, icon=":material/warning:")
    typed = st.data_editor(cells.shown(base, NUMBER_COLUMNS), num_rows="dynamic", hide_index=True, key=editor_key(case_key),
                           column_config=COLUMNS, width="stretch")
    page = _state()
    try:
        edited = cells.read(typed, NUMBER_COLUMNS)
        given = page.valid[case_key] = view.checked_input(edited, gain=settings.gain_spec())
    except (cells.CellError, ndcg_core.InvalidInput) as error:
        st.error(f"Edit not applied: {cells.refusal(error)}", icon=":material/warning:")
        given = page.valid.get(case_key) or view.checked_input(base, gain=settings.gain_spec())
    else:  # the input is in the share link unless it is the case's own (or too big for a URL)
        rows = view.encode_input(edited)
        same_as_case = rows == view.encode_input(_case_frame(case))
        page.rows[case_key] = None if same_as_case else rows
        if not same_as_case:
            url_state.warn(SCOPE, None)  # the user's own input replaced the link's
    url_state.publish({"rows": page.rows.get(case_key)})  # an invalid edit keeps the last valid
    if case is not None:
        with lesson:
            _lesson(case, edited=page.rows.get(case_key) is not None)
    return given


def _lesson(case: view.Case, *, edited: bool) -> None:
    """The case's lesson; once its input is edited, only on request: it described the case's own numbers ("every
    library reports 1") above a table that, edited, gave three different values."""
    if not edited:
        st.info(case.lesson, icon=":material/lightbulb:")
        return
    st.caption("You have edited this case's input, so the figures below are your table's. The case's lesson was "
               "about its own input:")
    with st.expander("The lesson of the case as it was"):
        st.markdown(case.lesson)


def share_link(case_key: str, settings: MetricSettings) -> None:
    """The copy box: this page's address with the case, the edited table (if any) and the sidebar's settings."""
    rows = _state().rows.get(case_key)
    st.header("Share this comparison")  # as the Playground's "Share this exact state": the box alone said nothing
    copy_link(url_state.link(url_state.page_address("/conventions"), {**url_state.settings_params(settings), "case": case_key,
                                    **({"rows": rows} if rows else {})}),
              key="conventions_share_link", label="Share link of this comparison")
    st.caption("Opening the link restores this input (and its edits) and the cutoff.")
