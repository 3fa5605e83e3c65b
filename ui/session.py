"""The one door to ``st.session_state``: typed page states and widget values, by name, through functions.

Each page keeps one typed state object (a dataclass) under its own key (:func:`page_state`); widgets keep
their values under their ``key=`` (Streamlit's own protocol), read and set here with :func:`widget` and
:func:`set_widget`. Nothing else in ``ui/`` or ``pages/`` touches ``st.session_state`` directly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import streamlit as st

T = TypeVar("T")


def page_state(key: str, factory: Callable[[], T]) -> T:
    """The session's state object under ``key``, created by ``factory`` on first use."""
    if key not in st.session_state:
        st.session_state[key] = factory()
    return st.session_state[key]


def has(key: str) -> bool:
    return key in st.session_state


def widget(key: str, default: Any = None) -> Any:
    """A widget's current value (or a stored value) by key; ``default`` when absent."""
    return st.session_state.get(key, default)


def set_widget(key: str, value: Any) -> None:
    """Set a widget's value before it is drawn (or store a value under ``key``)."""
    st.session_state[key] = value


def forget(key: str) -> Any:
    """Remove ``key`` (a widget restarts from its default); returns the old value or None."""
    return st.session_state.pop(key, None)


EDITOR_PARTS = ("edited_rows", "added_rows", "deleted_rows")
REFUSED_EDIT = "The edit could not be read (it names rows or columns that are not in the table), so it was not applied."


def _row_key(row: Any, size: int) -> bool:
    text = str(row)
    return (not isinstance(row, bool) and isinstance(row, (int, str)) and 0 < len(text) <= 9 and text.isascii()
            and text.isdigit() and int(text) < size)


def editor_state_is_usable(value: Any, *, rows: int, columns: Sequence[str]) -> bool:
    """Whether a data editor's edit state (what the browser sent) only names existing rows and columns.

    Streamlit applies that state to the table while drawing the editor, so a hostile one (``{"abc": ...}``,
    row 99 of 5, an unknown column) would raise inside ``st.data_editor``; cell values are checked by the page.
    """
    if value is None:
        return True
    if not isinstance(value, Mapping) or set(value) - set(EDITOR_PARTS):
        return False
    edited, added, deleted = (value.get(part) or empty for part, empty in zip(EDITOR_PARTS, ({}, [], []), strict=True))
    if not isinstance(edited, Mapping) or not isinstance(added, list) or not isinstance(deleted, list):
        return False
    known = set(columns)
    return (
        all(_row_key(row, rows) and isinstance(cells, Mapping) and set(cells) <= known for row, cells in edited.items())
        and all(isinstance(cells, Mapping) and set(cells) <= known for cells in added)
        and all(_row_key(row, rows) for row in deleted)
    )


def guard_editor(key: str, *, rows: int, columns: Sequence[str]) -> str | None:
    """Drop an unusable edit state before its editor is drawn (the editor restarts); the message says so."""
    if editor_state_is_usable(widget(key), rows=rows, columns=columns):
        return None
    forget(key)
    return REFUSED_EDIT
