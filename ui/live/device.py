"""This browser's places in live classes, kept in its local storage.

A student's place in a class is the token in their page's address. A closed tab (a phone that dropped it, a
student who closed it by mistake) loses that address, and joining again with the code made a second student of
the same person: the teacher's "Joined" counted them twice and their answers were split over two rows. So the
student page leaves ``{token, nickname}`` under the class code in the browser's localStorage, and the join form
reads them: joining the same class again with the same nickname from the same browser is the same student. (Two
students sharing one computer keep apart by their nicknames.)

The teacher's page does the same with its secret (under ``teacher:`` and the code): a teacher whose dashboard is
in another tab, or was closed, and who opens the Live class again (the lesson plan's links open a new tab) is
offered their running class instead of only "Start a live session", which started a second class mid-lesson.
The secret stays in this browser, as the teacher link in its history does.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import streamlit as st

from ui import session

_JS = """
const PREFIX = "ndcg-live:";

function places() {
  const found = {};
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && key.startsWith(PREFIX)) found[key.slice(PREFIX.length)] = JSON.parse(localStorage.getItem(key));
    }
  } catch (error) { /* storage off (a private window's settings): nothing is remembered */ }
  return found;
}

export default function ({ data, parentElement, setStateValue }) {
  if (data.remember) {
    try {
      localStorage.setItem(PREFIX + data.remember.key, JSON.stringify(data.remember.value));
    } catch (error) { /* as above */ }
    return;
  }
  const text = JSON.stringify(places());
  if (text !== parentElement.__sent) {  // once per change: each new value is a rerun
    parentElement.__sent = text;
    setStateValue("places", JSON.parse(text));
  }
  window.__ndcgLivePlacesRead = true;  // from here on every run of the page knows them (a browser test waits for it)
}
"""

_component = st.components.v2.component("ndcg_live_device", js=_JS)
READ_KEY = "live_device_places"


def _ignore() -> None:
    """Declares ``places`` as the component's state value (Streamlit requires a callback per state key)."""


TEACHER_PREFIX = "teacher:"  # a teacher's place is kept under this and the code; a student's under the code alone


def remember(code: str, token: str, nickname: str) -> None:
    """Keep this student's place in class ``code`` in the browser (the student page calls it on every run)."""
    _remember(code, {"token": token, "nickname": nickname})


def remember_teacher(code: str, secret: str) -> None:
    """Keep the teacher's place in class ``code`` in the browser (the teacher's page calls it on every run)."""
    _remember(TEACHER_PREFIX + code, {"secret": secret})


def _remember(key: str, value: dict[str, str]) -> None:
    with st.sidebar:  # out of the page's flow
        _component(key="live_device_remember", data={"remember": {"key": key, "value": value}})


def remembered_teaching() -> list[tuple[str, str]]:
    """(code, secret) of every class this browser was teaching, as the browser reported them (unchecked)."""
    found = []
    for key, place in _places().items():
        if isinstance(key, str) and key.startswith(TEACHER_PREFIX) and isinstance(place, Mapping):
            secret = place.get("secret")
            if isinstance(secret, str) and 0 < len(secret) <= 200:
                found.append((key.removeprefix(TEACHER_PREFIX), secret))
    return found


def _places() -> Mapping:
    """What the browser reported it keeps (see :func:`read_places`); empty until it has answered."""
    value = session.widget(READ_KEY, None)
    places = value.get("places") if isinstance(value, Mapping) else None
    return places if isinstance(places, Mapping) else {}


def read_places() -> None:
    """Ask the browser for the places it keeps (the join form draws this; the answer arrives as a rerun)."""
    with st.sidebar:
        _component(key=READ_KEY, data={"remember": None}, on_places_change=_ignore)


def remembered_token(code: str, nickname: str) -> str | None:
    """The token this browser keeps for class ``code`` under the same nickname (None: a new student).

    The nickname kept is the one the class gave: "Alex 2" when another Alex was there first
    (:func:`ui.live.security.unique_nickname`), which the student typing "Alex" again also gets back."""
    place = _places().get(code)
    if not isinstance(place, Mapping):
        return None
    token, kept = place.get("token"), place.get("nickname")
    if not isinstance(token, str) or not isinstance(kept, str) or len(token) > 200:
        return None
    typed, kept = nickname.strip().casefold(), kept.strip().casefold()
    given = re.fullmatch(re.escape(typed) + r" \d+", kept) is not None if typed else False
    return token if kept == typed or given else None
