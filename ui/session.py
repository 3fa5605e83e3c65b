"""The one door to ``st.session_state``: typed page states and widget values, by name, through functions.

Each page keeps one typed state object (a dataclass) under its own key (:func:`page_state`); widgets keep
their values under their ``key=`` (Streamlit's own protocol), read and set here with :func:`widget` and
:func:`set_widget`. Nothing else in ``ui/`` or ``pages/`` touches ``st.session_state`` directly.
"""

from __future__ import annotations

from collections.abc import Callable
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


def keep(key: str) -> None:
    """Re-assign a widget's value so it survives runs in which the widget is not drawn."""
    if key in st.session_state:
        st.session_state[key] = st.session_state[key]
