"""The teacher's session settings (the teacher and projector links, the leaderboard switch, "End the session") and
what the page says once the session has ended.

"End the session" goes with the session it ends: pressed by keyboard, it left the focus on the page's body (the
button is not drawn for an ended session) and the next Tab started again from the top. The focus now lands on the
notice that says the session has ended, brought into view (the teacher was at the page's bottom): a screen reader
reads it, and the next Tab goes on from there to the answers' summary and export.
"""

from __future__ import annotations

import streamlit as st

from ui import focus
from ui.copy_link import copy_link
from ui.live import connection, store
from ui.live.state import END_ANYWAY_KEY, LEADERBOARD_KEY, leaderboard_toggle, live
from ui.live.teacher_control import control, secret

SETTINGS_KEY = "live_settings_open"
ENDED_KEY = "live_ended"  # the container of the "This session has ended" notice


def ended_notice(session: store.Session, *, view_only: bool) -> None:
    """The notice of an ended session; the keyboard focus lands on it when this tab has just ended the session."""
    # The answers' summary and export are drawn below for the teacher only (the projector's view has none).
    below = "" if view_only else " The answers stay available below."
    with st.container(key=ENDED_KEY):
        st.info(f"This session has ended: its code no longer admits anyone.{below}")
        if live().ended_here:
            live().ended_here = False
            for follow in (focus.bring_into_view, focus.land_here):
                follow(ENDED_KEY, token=f"ended-{session.code}")


def session_settings(session: store.Session, every: list[store.Activity]) -> None:
    # Keyed, with its open state kept: unkeyed it was drawn anew (closed) whenever the page above it changed shape,
    # so it folded shut after every "Add and open" and the teacher had to reopen it for the projector link or End.
    with st.expander("Teacher link and session settings", key=SETTINGS_KEY, on_change="rerun"):
        st.caption("Keep this link private: it alone controls the session (open it on another device to continue).")
        copy_link(connection.teacher_link(session.code, secret()), key="live_teacher_link", label="Teacher link")
        st.caption("Projector link: the same dashboard, view only (no control, no export). Safe to project.")
        copy_link(connection.screen_link(session.code, secret()), key="live_screen_link", label="Projector link")
        st.toggle("Show the leaderboard (nicknames) to the class", value=session.leaderboard, key=LEADERBOARD_KEY,
                  on_change=_leaderboard_changed, disabled=session.ended)
        if not session.ended:
            _end_button(every)


def _end_button(every: list[store.Activity]) -> None:
    """End the session; with answers not shown to the class yet, only once the teacher says so (an activity open
    when the session ended could never be revealed, and the students' phones only said "Thank you")."""
    waiting = [a.position for a in every if a.state in ("open", "closed")]
    confirmed = True
    if waiting:
        listed = ", ".join(map(str, waiting))
        st.caption(f"Activit{'y' if len(waiting) == 1 else 'ies'} {listed}: answers not revealed yet. Once the "
                   "session ends they cannot be.")
        confirmed = st.checkbox(f"End anyway, leaving {listed} unrevealed", key=END_ANYWAY_KEY)
    st.button("End the session", key="live_end", on_click=_end, icon=":material/stop_circle:", disabled=not confirmed)


def _end() -> None:
    """End the session; the button goes with it, so the focus is to land on the notice that it has ended."""
    control(store.end_session)
    live().ended_here = live().teacher_error is None


def _leaderboard_changed() -> None:
    control(store.set_leaderboard, on=leaderboard_toggle())
