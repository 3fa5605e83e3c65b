"""The Playground's grade editors: what the browser's edits mean, checked with one set of rules, then applied.

Every value a data editor sends (row keys, names, grades) is checked here before it reaches the canonical
:class:`ui.ranking.Ranking`; anything unusable is refused with a message and the last valid ranking stays.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import streamlit as st

import ndcg_core
from ui import cells, focus, session, state, url_state
from ui.messages import user_message
from ui.ranked_list import continues_earlier_moves, pending_order
from ui.ranking import Ranking, evaluate, repeated_names
from ui.settings_model import MetricSettings
from ui.widgets import plain

LIST_KEY = "playground_list"
EDITOR_PREFIX = "playground_editor"
EXTRA_PREFIX = "playground_extra"
EDITOR_COLUMNS = ("Rank", "Document", "Grade")
SCORE_COLUMNS = ("Document", "Grade", "Score")  # the ranking editor in score mode (ui.score_mode)


def editor_key() -> str:
    """Key of the ranking editor; it changes with every committed edit so an edit applies exactly once."""
    return f"{EDITOR_PREFIX}_{state.revision()}"


def extra_editor_key() -> str:
    return f"{EXTRA_PREFIX}_{state.revision()}"


# --- applying pending edits (before anything is drawn) ---------------------------------------------------------

EditError = cells.CellError  # an edit that cannot be applied; the message names the problem


def apply_score_delta(names: Sequence[str], grades: Sequence[float], scores: Sequence[float], delta: Mapping, *,
                      others: Sequence[str] = ()) -> tuple[list[str], list[float], list[float]]:
    """:func:`apply_editor_delta` plus the Score column (score mode): rows edited, added and deleted alike."""
    new_names, new_grades = apply_editor_delta(names, grades, delta, label="Row", others=others)
    raw: list[object] = list(scores)
    for row, changes in (delta.get("edited_rows") or {}).items():
        if "Score" in changes:
            raw[_row_number(row, len(names))] = changes["Score"]
    for row in delta.get("added_rows") or []:
        raw.append(row.get("Score", "0") if isinstance(row, Mapping) else "0")
    deleted = {_row_number(row, len(raw)) for row in delta.get("deleted_rows") or []}
    kept = [i for i in range(len(raw)) if i not in deleted]
    checked = [cells.score(raw[i], f"Row {number} ({plain(new_names[number - 1][:40])})")
               for number, i in enumerate(kept, start=1)]
    return new_names, new_grades, checked


def _row_number(row, size: int) -> int | None:
    """A data editor's row key (an int, or its ASCII digits as text), or None when it names no row."""
    if isinstance(row, bool):
        return None
    if isinstance(row, int):
        position = row
    elif isinstance(row, str) and 0 < len(row) <= 9 and row.isascii() and row.isdigit():
        position = int(row)
    else:
        return None
    return position if 0 <= position < size else None


def _cell_name(value, fallback: str) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return fallback
    text = str(value).strip()
    return text[: url_state.MAX_NAME_CHARS] if text else fallback


def apply_editor_delta(
    names: Sequence[str], grades: Sequence[float], delta: Mapping, *, label: str = "Row", others: Sequence[str] = ()
) -> tuple[list[str], list[float]]:
    """Apply a data editor's edit state ({edited_rows, added_rows, deleted_rows}) to the rows it was drawn from.

    Row numbers in the delta are positions in the editor's input (the ranking's order), not positions on screen.
    """
    if not isinstance(delta, Mapping):
        raise EditError("The edit could not be read, so it was not applied.")
    names, grades = list(names), list(grades)
    raw_grades: list[object] = list(grades)
    edited, added, deleted_rows = delta.get("edited_rows") or {}, delta.get("added_rows") or [], delta.get("deleted_rows") or []
    if not isinstance(edited, Mapping) or not isinstance(added, list) or not isinstance(deleted_rows, list):
        raise EditError("The edit could not be read, so it was not applied.")
    for row, changes in edited.items():
        position = _row_number(row, len(names))
        if position is None or not isinstance(changes, Mapping):
            raise EditError("The edit names a row that is not in the table, so it was not applied.")
        if "Document" in changes:
            name = _cell_name(changes["Document"], "")
            if not name:  # the table would show the blank, the list the old name
                raise EditError(f"{label} {position + 1}: the document name is empty. Type a name; the list keeps "
                                f"“{plain(names[position][:40])}” until then.")
            names[position] = name
        if "Grade" in changes:
            raw_grades[position] = changes["Grade"]
    for row in added:
        row = row if isinstance(row, Mapping) else {}
        names.append(_cell_name(row.get("Document"), _new_name(names, others)))
        raw_grades.append(row.get("Grade", 0.0))
    deleted = {_row_number(row, len(names)) for row in deleted_rows}
    if None in deleted:
        raise EditError("The edit deletes a row that is not in the table, so it was not applied.")
    keep = [i for i in range(len(names)) if i not in deleted]
    checked = [
        cells.grade(raw_grades[i], f"{label} {rank} ({plain(names[i][:40])})")  # names shown as text
        for rank, i in enumerate(keep, start=1)
    ]
    return [names[i] for i in keep], checked


def _new_name(existing: Sequence[str], others: Sequence[str] = ()) -> str:
    """'D<n+1>' for a list of n names, skipping names taken in it or in ``others`` (the other editor's)."""
    taken = set(existing) | set(others)
    number = len(existing) + 1
    while f"D{number}" in taken:
        number += 1
    return f"D{number}"


def apply_pending_changes(settings: MetricSettings) -> None:
    """Apply a drag/keyboard reorder and the editors' edits, before anything is drawn.

    A reorder is consumed once (see ui.ranked_list) and restarts the editors from the new order. The
    editors' edit state is always relative to the ranking they started from (``state.editor_base``), so
    the canonical ranking is recomputed from it on every run: an edit can never apply twice, and undoing
    an edit in the table undoes it everywhere. An invalid edit leaves the last valid ranking in place
    and stores a message for the page to show next to the editor.
    """
    ranking = state.current_ranking()
    perm = pending_order(LIST_KEY, len(ranking.names), names=ranking.names, grades=ranking.grades)  # the newest list
    # The editors' edits first: a grade typed and left by a click on ▲ (or a drag) arrives in the same message as
    # the move, and the move restarts the editors, which dropped the edit.
    apply_edits(settings)
    edited = state.current_ranking()
    continued = perm is not None and edited is ranking and continues_earlier_moves(LIST_KEY)
    state.playground().continued_from = ranking if continued else None
    if perm is not None and len(edited.names) == len(ranking.names):  # rows added or deleted: the move's places
        refused = state.playground().edit_error                          # belong to the old list, the edit wins
        state.set_ranking(edited.reordered(perm))
        state.playground().edit_error = refused  # a refused edit still says so after the move


def apply_edits(settings: MetricSettings) -> None:
    """Apply the editors' edits (relative to ``state.editor_base``) to the canonical ranking; an invalid edit
    leaves it as it was and stores the message. Also called by the order buttons before they reorder."""
    ranking = state.current_ranking()
    playground = state.playground()
    playground.edit_error = None
    base = state.editor_base()
    scored = playground.score_mode and state.editor_scores() is not None
    # What the browser sent must name rows and columns of the tables drawn (st.data_editor itself would raise).
    for key, rows, columns in ((editor_key(), len(base.names), SCORE_COLUMNS if scored else EDITOR_COLUMNS),
                               (extra_editor_key(), len(base.extra_names), EDITOR_COLUMNS)):
        if not session.editor_state_is_usable(session.widget(key), rows=rows, columns=columns):
            state.set_ranking(ranking, scores=playground.scores if scored else None)  # restart from the last valid
            state.playground().edit_error = session.REFUSED_EDIT
            return
    main_delta = session.widget(editor_key())
    extra_delta = session.widget(extra_editor_key())
    if not _has_changes(main_delta) and not _has_changes(extra_delta) and not state.is_edited():
        return  # nothing edited since the editors started: the fast, common path
    try:
        names, grades, scores = base.names, base.grades, state.editor_scores()
        if _has_changes(main_delta) and scored:
            names, grades, scores = apply_score_delta(names, grades, scores, main_delta, others=base.extra_names)
        elif _has_changes(main_delta):
            names, grades = apply_editor_delta(names, grades, main_delta, label="Rank", others=base.extra_names)
        if not names:
            raise EditError("The ranking is empty: keep at least one document.")
        extra_names, extra_grades = base.extra_names, base.extra_grades
        if _has_changes(extra_delta):
            extra_names, extra_grades = apply_editor_delta(extra_names, extra_grades, extra_delta, label="Extra row",
                                                          others=names)
        candidate = state.make_ranking(names, grades, extra_names, extra_grades)
        ranked_scores = None
        if scored:  # the ranking is the order of the scores (ndcg_core.score_order), whatever the table's order
            from ui.score_mode import rank_by_scores

            candidate, ranked_scores = rank_by_scores(candidate, scores, playground.tie_rule,
                                                      entry=playground.entry_names)
        # Rows added or deleted in the ranked table move the rows after them, but the table's Rank column is
        # drawn from the rows it started from (1, 3, 4, 5 after deleting rank 2; blank for an added row): the
        # table restarts from the new ranking so it shows 1..n as the list does. (Score mode has no Rank column,
        # and its rows stay put while the list re-sorts, so it keeps its table.)
        restart = not scored and _has_rows_changed(main_delta)
        if candidate == ranking and ranked_scores == (playground.scores if scored else None):
            if restart:  # e.g. a row deleted and added back: same ranking, stale ranks on screen
                state.set_edited_ranking(candidate, restart=True)
                playground.rows_revision = state.revision()
            return
        evaluate(candidate, **{**settings.kwargs(), "zero_idcg": "zero"})  # all-zero grades are a valid edit
    except EditError as error:
        playground.edit_error = str(error)
        return
    except ndcg_core.InvalidInput as error:
        playground.edit_error = user_message(error)
        return
    state.set_edited_ranking(candidate, scores=ranked_scores, restart=restart)
    if restart:
        playground.rows_revision = state.revision()


def _has_changes(delta) -> bool:
    return isinstance(delta, Mapping) and any(delta.get(part) for part in ("edited_rows", "added_rows", "deleted_rows"))


def _has_rows_changed(delta) -> bool:
    """Whether an editor's edit state adds or deletes rows (which renumbers the rows after them)."""
    return isinstance(delta, Mapping) and any(delta.get(part) for part in ("added_rows", "deleted_rows"))


# --- editors -----------------------------------------------------------------------------------------------------

def _frame(names: Sequence[str], grades: Sequence[float], *, with_rank: bool) -> pd.DataFrame:
    columns = {"Rank": np.arange(1, len(names) + 1)} if with_rank else {}
    columns["Document"] = pd.array(names, dtype="string")
    # Grades as exact text: the server reads what was typed ("abc", "1e308", 26 digits) with one set of rules and
    # says what is wrong, where a number cell would silently turn "1e308" into 1308 or drop a 26-digit number.
    columns["Grade"] = pd.array([url_state.format_number(g) for g in grades], dtype="string")
    return pd.DataFrame(columns, copy=False)  # one constructor call: half the cost of building then inserting


def ranking_editor(ranking: Ranking) -> None:
    """The data editor for names and grades, in ranked order (rows can be added and deleted).

    It is drawn from the editors' base ranking (its edit state is relative to that), which equals the
    canonical ranking plus the user's own edits.
    """
    ranking = state.editor_base()
    scores = state.editor_scores() if state.playground().score_mode else None
    frame = _frame(ranking.names, ranking.grades, with_rank=scores is None)
    if scores is not None:  # score mode: no Rank column (the rows stay put while the ranked list re-sorts)
        frame["Score"] = pd.array([url_state.format_number(score) for score in scores], dtype="string")
    with st.container(key="playground_grades"):
        _grades_table(frame, ranking)
        # A row added or deleted restarts the table (a new key, for its Rank column): a keyboard user's focus in the
        # old table fell to the page, and the next Tab went on past the table. It lands on the new table's grid.
        if state.playground().rows_revision == state.revision():
            focus.land_here("playground_grades", token=f"grades-{state.revision()}", inside="canvas")


def _grades_table(frame: pd.DataFrame, ranking: Ranking) -> None:
    st.data_editor(
        frame,
        key=editor_key(),
        num_rows="dynamic",
        hide_index=True,
        width="stretch",
        height=min(38 + 35 * (len(ranking.names) + 1), 460),
        column_config={
            "Rank": st.column_config.NumberColumn("Rank", disabled=True, width="small", help="Position in the ranking"),
            # A new row is named as the list will name it (not "None"), with grade 0.
            "Document": st.column_config.TextColumn("Document", help="Any name; shown as plain text", max_chars=200,
                                                    default=_new_name(ranking.names, ranking.extra_names)),
            "Grade": st.column_config.TextColumn(
                "Grade", help="Relevance grade: 0 = not relevant, higher = more relevant", default="0",
            ),
            "Score": st.column_config.TextColumn(
                "Score", help="The ranker's score: higher ranks first; equal scores tie", default="0",
            ),
        },
    )


def extra_editor(ranking: Ranking) -> None:
    """Judged documents that are not in the ranking: they only raise the ideal list."""
    ranking = state.editor_base()
    st.data_editor(
        _frame(ranking.extra_names, ranking.extra_grades, with_rank=False),
        key=extra_editor_key(),
        num_rows="dynamic",
        hide_index=True,
        width="stretch",
        column_config={
            "Document": st.column_config.TextColumn("Document", max_chars=200,
                                                    default=_new_name(ranking.extra_names, ranking.names)),
            "Grade": st.column_config.TextColumn("Grade", default="0"),
        },
    )


def show_edit_error() -> None:
    message = state.playground().edit_error
    if message:
        st.error(f"Edit not applied: {message} The numbers still show the last valid ranking.", icon=":material/error:")


def duplicate_names(ranking: Ranking) -> list[str]:
    """Sentences about names used twice: two ranked documents the list, chart and formula cannot tell apart, or a
    ranked document also among the extra judged ones (its grade then enters the ideal list twice)."""
    notes = []
    for name, at in repeated_names(ranking.names).items():
        where = ", ".join(map(str, at[:-1])) + f" and {at[-1]}"
        notes.append(f"“{plain(name[:40])}” names {len(at)} ranked documents (ranks {where}): the list, the chart "
                     "and the formula cannot tell them apart. Give each document its own name.")
    extra = dict.fromkeys(ranking.extra_names)
    for name in (name for name in dict.fromkeys(ranking.names) if name in extra):
        notes.append(f"“{plain(name[:40])}” is both ranked and among the extra judged documents, so its grade is in "
                     "the ideal list twice. If it is one document, delete it from the extra documents.")
    return notes


def show_duplicate_names(ranking: Ranking) -> None:
    for note in duplicate_names(ranking)[:3]:
        st.warning(note, icon=":material/content_copy:")

