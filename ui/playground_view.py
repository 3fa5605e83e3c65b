"""Pieces of the Playground page: the grade editors, the order buttons, the share link, the deltas.

The page (pages/playground.py) stays a thin script that calls these in order. All edits go through
the canonical :class:`ui.state.Ranking`; widgets are drawn from it, never the other way round.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import streamlit as st

import ndcg_core
from ui import state
from ui.ranked_list import pending_order
from ui.settings import MetricSettings
from ui.widgets import plain

LIST_KEY = "playground_list"
EDITOR_PREFIX = "playground_editor"
EXTRA_PREFIX = "playground_extra"
PREVIOUS_KEY = "playground_previous"
LAST_KEY = "playground_last"
RNG_KEY = "playground_rng"
ERROR_KEY = "playground_edit_error"


def editor_key() -> str:
    """Key of the ranking editor; it changes with every committed edit so an edit applies exactly once."""
    return f"{EDITOR_PREFIX}_{state.revision()}"


def extra_editor_key() -> str:
    return f"{EXTRA_PREFIX}_{state.revision()}"


# --- applying pending edits (before anything is drawn) ---------------------------------------------------------

class EditError(ValueError):
    """An edit that cannot be applied; the message names the problem."""


def _cell_grade(value, where: str) -> float:
    if value is None or (isinstance(value, str) and not value.strip()):
        raise EditError(f"{where}: the grade is blank. Type a number (0 = not relevant).")
    try:
        grade = float(value)
    except (TypeError, ValueError):
        raise EditError(f"{where}: the grade is not a number.") from None
    if math.isnan(grade):
        raise EditError(f"{where}: the grade is missing (NaN). Type a number (0 = not relevant).")
    if math.isinf(grade):
        raise EditError(f"{where}: the grade is infinite. Use a finite number such as 0-4.")
    if grade < 0:
        raise EditError(f"{where}: grade {grade:g} is negative. Grades are 0 (not relevant) or more.")
    return grade


def _cell_name(value, fallback: str) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return fallback
    text = str(value).strip()
    return text[: state.MAX_NAME_CHARS] if text else fallback


def apply_editor_delta(
    names: Sequence[str], grades: Sequence[float], delta: Mapping, *, label: str = "Row"
) -> tuple[list[str], list[float]]:
    """Apply a data editor's edit state ({edited_rows, added_rows, deleted_rows}) to the rows it was drawn from.

    Row numbers in the delta are positions in the editor's input (the canonical order), so sorting the
    editor by a header in the browser changes nothing here.
    """
    names, grades = list(names), list(grades)
    raw_grades: list[object] = list(grades)
    for row, changes in (delta.get("edited_rows") or {}).items():
        position = int(row)
        if not 0 <= position < len(names) or not isinstance(changes, Mapping):
            continue
        if "Document" in changes:
            names[position] = _cell_name(changes["Document"], names[position])
        if "Grade" in changes:
            raw_grades[position] = changes["Grade"]
    for added in delta.get("added_rows") or []:
        added = added if isinstance(added, Mapping) else {}
        names.append(_cell_name(added.get("Document"), _new_name(names)))
        raw_grades.append(added.get("Grade", 0.0))
    deleted = {int(row) for row in (delta.get("deleted_rows") or [])}
    keep = [i for i in range(len(names)) if i not in deleted]
    checked = [
        _cell_grade(raw_grades[i], f"{label} {rank} ({plain(names[i][:40])})")  # names shown as text
        for rank, i in enumerate(keep, start=1)
    ]
    return [names[i] for i in keep], checked


def _new_name(existing: Sequence[str]) -> str:
    taken = set(existing)
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
    if perm is not None:
        state.set_ranking(ranking.reordered(perm))
        return

    st.session_state.pop(ERROR_KEY, None)
    base = state.editor_base()
    main_delta = st.session_state.get(editor_key())
    extra_delta = st.session_state.get(extra_editor_key())
    if not _has_changes(main_delta) and not _has_changes(extra_delta) and not state.is_edited():
        return  # nothing edited since the editors started: the fast, common path
    try:
        names, grades = base.names, base.grades
        if _has_changes(main_delta):
            names, grades = apply_editor_delta(names, grades, main_delta, label="Rank")
            if not names:
                raise EditError("The ranking is empty: keep at least one document.")
        extra_names, extra_grades = base.extra_names, base.extra_grades
        if _has_changes(extra_delta):
            extra_names, extra_grades = apply_editor_delta(extra_names, extra_grades, extra_delta, label="Extra row")
        candidate = state.make_ranking(names, grades, extra_names, extra_grades)
        if candidate == ranking:
            return
        ndcg_core.evaluate(list(candidate.grades), ideal_relevances=candidate.ideal_relevances(), **settings.kwargs())
    except (EditError, ndcg_core.InvalidInput) as error:
        st.session_state[ERROR_KEY] = str(error)
        return
    state.set_edited_ranking(candidate)


def _has_changes(delta) -> bool:
    return isinstance(delta, Mapping) and any(delta.get(part) for part in ("edited_rows", "added_rows", "deleted_rows"))


# --- editors -----------------------------------------------------------------------------------------------------

def _frame(names: Sequence[str], grades: Sequence[float], *, with_rank: bool) -> pd.DataFrame:
    columns = {"Rank": np.arange(1, len(names) + 1)} if with_rank else {}
    columns["Document"] = pd.array(names, dtype="string")
    columns["Grade"] = np.asarray(grades, dtype=float)
    return pd.DataFrame(columns, copy=False)  # one constructor call: half the cost of building then inserting


def ranking_editor(ranking: state.Ranking) -> None:
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
            "Document": st.column_config.TextColumn("Document", help="Any name; shown as plain text", max_chars=200),
            "Grade": st.column_config.NumberColumn(
                "Grade", help="Relevance grade: 0 = not relevant, higher = more relevant", default=0.0, format="%g",
            ),
        },
    )


def extra_editor(ranking: state.Ranking) -> None:
    """Judged documents that are not in the ranking: they only raise the ideal list."""
    ranking = state.editor_base()
    st.data_editor(
        _frame(ranking.extra_names, ranking.extra_grades, with_rank=False),
        key=extra_editor_key(),
        num_rows="dynamic",
        hide_index=True,
        width="stretch",
        column_config={
            "Document": st.column_config.TextColumn("Document", max_chars=200),
            "Grade": st.column_config.NumberColumn("Grade", default=0.0, format="%g"),
        },
    )


def show_edit_error() -> None:
    message = st.session_state.get(ERROR_KEY)
    if message:
        st.error(f"Edit not applied: {message} The numbers still show the last valid ranking.", icon=":material/error:")


# --- order buttons -----------------------------------------------------------------------------------------------

def _reorder(kind: str) -> None:
    ranking = state.current_ranking()
    grades = np.asarray(ranking.grades, dtype=float)
    n = len(grades)
    if kind == "ideal":
        perm = ndcg_core.ideal_order(grades)
    elif kind == "worst":
        perm = np.argsort(grades, kind="stable")
    elif kind == "reverse":
        perm = np.arange(n)[::-1]
    elif kind == "shuffle":
        rng = st.session_state.setdefault(RNG_KEY, np.random.default_rng(2024))
        perm = rng.permutation(n)
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

def previous_metrics(ranking: state.Ranking, settings: MetricSettings, result: ndcg_core.ListResult) -> dict | None:
    """The metrics shown before the latest change (of order, grades or settings), for the cards' deltas."""
    now = {"cg": result.cg, "dcg": result.dcg, "idcg": result.idcg, "ndcg": result.ndcg}
    last = st.session_state.get(LAST_KEY)
    if last is not None and (last[0] is not ranking or last[1] != settings):
        st.session_state[PREVIOUS_KEY] = last[2]
    st.session_state[LAST_KEY] = (ranking, settings, now)
    return st.session_state.get(PREVIOUS_KEY)


# --- tie note --------------------------------------------------------------------------------------------------

def tie_note(ranking: state.Ranking) -> None:
    """Say which documents' gains are averaged (a list opened from the Dataset page under the "average" rule)."""
    if ranking.tie_groups is None:
        return
    groups: dict[int, list[str]] = {}
    for name, group in zip(ranking.names, ranking.tie_groups, strict=True):
        groups.setdefault(group, []).append(name)
    tied = [names for names in groups.values() if len(names) > 1]
    if not tied:
        return
    shown = "; ".join(", ".join(names[:6]) + (" …" if len(names) > 6 else "") for names in tied[:5])
    st.info(
        f"Tied scores in the run: {shown}. As on the Dataset page (tie rule “average”), each tied document gets "
        "the mean gain of its group, the expected DCG over every order of the tie. Moving or editing a document "
        "ends the averaging: the list is then taken exactly as shown.",
        icon=":material/balance:",
    )


# --- extra documents note -------------------------------------------------------------------------------------

def extra_note(ranking: state.Ranking, settings: MetricSettings, result: ndcg_core.ListResult) -> None:
    if not ranking.extra_names:
        st.caption("No extra judged documents: the ideal list is the ranking's own grades, sorted.")
        return
    without = ndcg_core.evaluate(list(ranking.grades), tie_groups=ranking.tie_groups, **settings.kwargs())
    if abs(without.idcg - result.idcg) > 1e-12:
        st.info(
            f"The extra judged documents raise IDCG from {without.idcg:.4f} to {result.idcg:.4f}, so NDCG drops "
            f"from {without.ndcg:.4f} to {result.ndcg:.4f}: the ranking missed relevant documents.",
            icon=":material/info:",
        )
    else:
        st.caption(
            f"The extra judged documents do not change IDCG ({result.idcg:.4f}): they are no better than the "
            "ranked documents that the ideal list already counts."
        )


# --- share link ------------------------------------------------------------------------------------------------------

def share_link(ranking: state.Ranking, settings: MetricSettings) -> None:
    params = state.ranking_params(ranking)
    mirrored = state.mirror_to_url(ranking, params)
    if not mirrored:
        st.caption(
            f"This list is too long for a share link (more than {state.MAX_LINK_DOCUMENTS:,} documents); "
            "download the table as CSV instead."
        )
        return
    relative = state.link_from_params(params, settings)  # = state.playground_link(ranking's lists, settings)
    st.code(_absolute(relative), language=None, wrap_lines=True)
    st.caption("Copy with the button at the right of the box. Opening it restores this list, its order and the settings.")


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
