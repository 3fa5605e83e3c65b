"""Pieces of the Playground page: the grade editors, the order buttons, the share link, the deltas.

The page (pages/playground.py) stays a thin script that calls these in order. All edits go through
the canonical :class:`ui.Ranking`; widgets are drawn from it, never the other way round.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import streamlit as st

import ndcg_core
from ui import session, state, url_state
from ui.messages import figure, user_message, zero_idcg_refused
from ui.ranked_list import pending_order
from ui.ranking import Ranking, evaluate
from ui.settings_model import ZERO_IDCG_SETTING, MetricSettings, zero_idcg_words
from ui.widgets import plain

LIST_KEY = "playground_list"
EDITOR_PREFIX = "playground_editor"
EXTRA_PREFIX = "playground_extra"
EDITOR_COLUMNS = ("Rank", "Document", "Grade")
MAX_GRADE_CHARS = 40  # the longest float repr is 24 characters; anything longer is refused, not truncated
_GRADE_TEXT = re.compile(r"[+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


def editor_key() -> str:
    """Key of the ranking editor; it changes with every committed edit so an edit applies exactly once."""
    return f"{EDITOR_PREFIX}_{state.revision()}"


def extra_editor_key() -> str:
    return f"{EXTRA_PREFIX}_{state.revision()}"


# --- applying pending edits (before anything is drawn) ---------------------------------------------------------

class EditError(ValueError):
    """An edit that cannot be applied; the message names the problem."""


def _cell_grade(value, where: str) -> float:
    """A grade from an editor cell (text, or a number a client sent): finite, ≥ 0, or EditError saying why."""
    if value is None or (isinstance(value, str) and not value.strip()):
        raise EditError(f"{where}: the grade is blank. Type a number (0 = not relevant).")
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise EditError(f"{where}: the grade is not a number.")
    if isinstance(value, str):
        text = value.strip()
        shown = f"“{plain(text[:20])}{'…' if len(text) > 20 else ''}”"
        if len(text) > MAX_GRADE_CHARS:
            raise EditError(f"{where}: {shown} is {len(text):,} characters long; a grade has at most "
                            f"{MAX_GRADE_CHARS} (type a number such as 0, 1, 2 or 3).")
        if not _GRADE_TEXT.fullmatch(text):
            raise EditError(f"{where}: {shown} is not a number. Type a number such as 0, 1, 2 or 3.")
        value = text
    try:
        grade = float(value)
    except OverflowError:  # an integer beyond ~1.8e308 digits-long (a client, not the grid, can send one)
        raise EditError(f"{where}: the grade is too large (beyond about 1.8e308).") from None
    except (TypeError, ValueError):
        raise EditError(f"{where}: the grade is not a number.") from None
    if math.isnan(grade):
        raise EditError(f"{where}: the grade is missing (NaN). Type a number (0 = not relevant).")
    if math.isinf(grade):
        raise EditError(f"{where}: the grade is infinite (or beyond about 1.8e308). Use a finite number such as 0-4.")
    if grade < 0:
        raise EditError(f"{where}: grade {grade:g} is negative. Grades are 0 (not relevant) or more.")
    return grade


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

    Row numbers in the delta are positions in the editor's input (the canonical order), so sorting the
    editor by a header in the browser changes nothing here.
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
            names[position] = _cell_name(changes["Document"], names[position])
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
        _cell_grade(raw_grades[i], f"{label} {rank} ({plain(names[i][:40])})")  # names shown as text
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
    perm = pending_order(LIST_KEY, len(ranking.names))
    if perm is not None:
        state.set_ranking(ranking.reordered(perm))
        return

    playground = state.playground()
    playground.edit_error = None
    base = state.editor_base()
    # What the browser sent must name rows and columns of the tables drawn (st.data_editor itself would raise).
    for key, rows in ((editor_key(), len(base.names)), (extra_editor_key(), len(base.extra_names))):
        if not session.editor_state_is_usable(session.widget(key), rows=rows, columns=EDITOR_COLUMNS):
            state.set_ranking(ranking)  # the editors restart (new keys) from the last valid ranking
            state.playground().edit_error = session.REFUSED_EDIT
            return
    main_delta = session.widget(editor_key())
    extra_delta = session.widget(extra_editor_key())
    if not _has_changes(main_delta) and not _has_changes(extra_delta) and not state.is_edited():
        return  # nothing edited since the editors started: the fast, common path
    try:
        names, grades = base.names, base.grades
        if _has_changes(main_delta):
            names, grades = apply_editor_delta(names, grades, main_delta, label="Rank", others=base.extra_names)
            if not names:
                raise EditError("The ranking is empty: keep at least one document.")
        extra_names, extra_grades = base.extra_names, base.extra_grades
        if _has_changes(extra_delta):
            extra_names, extra_grades = apply_editor_delta(extra_names, extra_grades, extra_delta, label="Extra row",
                                                          others=names)
        candidate = state.make_ranking(names, grades, extra_names, extra_grades)
        if candidate == ranking:
            return
        evaluate(candidate, **{**settings.kwargs(), "zero_idcg": "zero"})  # all-zero grades are a valid edit
    except EditError as error:
        playground.edit_error = str(error)
        return
    except ndcg_core.InvalidInput as error:
        playground.edit_error = user_message(error)
        return
    state.set_edited_ranking(candidate)


def _has_changes(delta) -> bool:
    return isinstance(delta, Mapping) and any(delta.get(part) for part in ("edited_rows", "added_rows", "deleted_rows"))


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
    st.data_editor(
        _frame(ranking.names, ranking.grades, with_rank=True),
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


# --- order buttons -----------------------------------------------------------------------------------------------

def _reorder(kind: str) -> None:
    ranking = state.current_ranking()
    grades = np.asarray(ranking.grades, dtype=float)
    n = len(grades)
    if kind == "ideal":
        perm = np.argsort(-grades, kind="stable")
    elif kind == "worst":
        perm = np.argsort(grades, kind="stable")
    elif kind == "reverse":
        perm = np.arange(n)[::-1]
    elif kind == "shuffle":
        perm = state.playground().rng.permutation(n)
    else:
        state.set_ranking(state.initial_ranking())
        return
    state.set_ranking(ranking.reordered(perm.tolist()))


ORDER_BUTTONS = (
    ("ideal", "Ideal order", ":material/trending_down:", "Sort by grade, highest first: NDCG becomes 1."),
    ("worst", "Worst order", ":material/trending_up:", "Sort by grade, lowest first: the smallest DCG this list can have."),
    ("reverse", "Reverse", ":material/swap_vert:", "Turn the ranking upside down."),
    ("shuffle", "Shuffle", ":material/shuffle:", "A random order (the same sequence of shuffles in every session)."),
    ("reset", "Reset", ":material/restart_alt:", "Back to the list the page started with (names, grades and order)."),
)


def order_buttons() -> None:
    with st.container(horizontal=True):  # one block, not a column per button: as wide, cheaper to send
        for kind, label, icon, help_text in ORDER_BUTTONS:
            st.button(
                label, key=f"playground_{kind}", on_click=_reorder, args=(kind,), help=help_text, icon=icon,
                width="stretch",
            )


# --- deltas --------------------------------------------------------------------------------------------------------

def previous_metrics(ranking: Ranking, settings: MetricSettings, result: ndcg_core.ListResult) -> dict | None:
    """The metrics shown before the latest change (of order, grades or settings), for the cards' deltas."""
    playground = state.playground()
    now = {"cg": result.cg, "dcg": result.dcg, "idcg": result.idcg, "ndcg": result.ndcg}
    last = playground.last
    if last is not None and (last[0] is not ranking or last[1] != settings):
        playground.previous = last[2]
    playground.last = (ranking, settings, now)
    return playground.previous


# --- extra documents note -------------------------------------------------------------------------------------

def extra_note(ranking: Ranking, settings: MetricSettings, result: ndcg_core.ListResult) -> None:
    """What the extra judged documents change: IDCG and NDCG with and without them, in words, under every rule.

    Without them the ideal list can have IDCG = 0 (no ranked document relevant) even when the page's own
    result is defined: that case is described, never evaluated under the "Refuse" rule.
    """
    if not ranking.extra_names:
        st.caption("No extra judged documents: the ideal list is the ranking's own grades, sorted.")
        return
    # Under "Refuse" the core would refuse an IDCG of 0: ask under "zero" and tell that case in words below.
    rule = "zero" if settings.zero_idcg == "error" else settings.zero_idcg
    without = evaluate(ranking.without_extra(), **{**settings.kwargs(), "zero_idcg": rule})
    if without.idcg == 0:
        if settings.zero_idcg == "error":
            then = "so NDCG would be 0/0, which this rule refuses to compute"
        elif settings.zero_idcg == "skip":
            then = "so NDCG would be 0/0, which this rule leaves undefined (n/a)"
        else:
            then = f"so NDCG would be 0/0, which this rule reports as {figure(without.ndcg)}"
        st.info(
            f"Without the extra judged documents IDCG would be 0 (no ranked document is relevant), {then} "
            f"({zero_idcg_words(settings.zero_idcg)}). With them IDCG is {figure(result.idcg)} and NDCG is "
            f"{figure(result.ndcg)}: the ranking missed every relevant judged document.",
            icon=":material/info:",
        )
    elif abs(without.idcg - result.idcg) > 1e-12:
        st.info(
            f"The extra judged documents raise IDCG from {figure(without.idcg)} to {figure(result.idcg)}, so NDCG "
            f"drops from {figure(without.ndcg)} to {figure(result.ndcg)}: the ranking missed relevant documents.",
            icon=":material/info:",
        )
    else:
        st.caption(
            f"The extra judged documents do not change IDCG ({figure(result.idcg)}): they are no better than the "
            "ranked documents that the ideal list already counts."
        )


# --- share link ------------------------------------------------------------------------------------------------------

def publish_ranking(ranking: Ranking) -> url_state.RankingLink:
    """Put the ranking in the URL (``docs``/``extra``, or ``unlinked`` when it cannot fit), before anything else."""
    link = url_state.ranking_link(ranking)
    url_state.publish({"docs": None, "extra": None, "unlinked": None, **link.params})
    return link


def share_link(link: url_state.RankingLink, settings: MetricSettings) -> None:
    if link.problem is not None:
        st.caption(
            f"This list cannot be shared as a link: {link.problem}. The address bar says so (opening it shows the "
            "example list with a note); download the table as CSV instead."
        )
        return
    relative = url_state.link(url_state.PLAYGROUND_URL, {**url_state.settings_params(settings), **link.params})
    st.code(_absolute(relative), language=None, wrap_lines=True)
    st.caption("Copy with the button at the right of the box. Opening it restores this list, its order and the settings.")


def evaluation_problem(ranking: Ranking, settings: MetricSettings, error: ndcg_core.InvalidInput) -> None:
    """Why the numbers cannot be shown, in the sidebar's words, and the hint that fits that reason."""
    st.error(f"NDCG cannot be computed with these settings: {user_message(error)}", icon=":material/error:")
    if zero_idcg_refused(ranking.grades, ranking.ideal_relevances(), settings):
        st.caption(f"Change “{ZERO_IDCG_SETTING}” in the sidebar, or give a document a positive grade here:")
    else:
        st.caption("Change the grades here (or the gain in the sidebar):")


def _absolute(relative: str) -> str:
    try:
        url = st.context.url or ""
    except AttributeError:
        url = ""
    if url.startswith("http"):
        from urllib.parse import urlsplit

        parts = urlsplit(url)
        base_path = parts.path.rsplit("/", 1)[0] if parts.path.endswith("playground") else parts.path.rstrip("/")
        return f"{parts.scheme}://{parts.netloc}{base_path}{relative}"
    return relative
