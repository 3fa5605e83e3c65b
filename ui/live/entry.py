"""The Live class page's router: start a session, join one, or show the teacher's or a student's view.

What the URL holds decides the view:

* ``?code=…&teacher=…`` - the teacher's view (the store checks the secret on every control);
* ``?code=…&screen=…`` - the same dashboard for the projector, view only (no control, no export);
* ``?code=…&student=…`` - a student's view (the token identifies them: a reload keeps their answers);
* ``?join=…`` - the join form with the code filled in (the join link and QR code);
* nothing - the landing: join with a code, or start a session.
"""

from __future__ import annotations

import sqlalchemy as sa
import streamlit as st

from ui import url_state
from ui.live import connection, device, security, store
from ui.live.schema import NICKNAME_MAX
from ui.live.state import live
from ui.live.student_view import student_page
from ui.live.teacher_view import teacher_page

ROLES = (connection.TEACHER, connection.SCREEN, connection.STUDENT)


def live_class_page() -> None:
    try:
        params = _params_or_place()
    except sa.exc.DBAPIError:
        params = url_state.live_params()
    if not (params.get(connection.TEACHER) or params.get(connection.SCREEN)):
        st.title("Live class")  # on a 720 px projector the join band is the heading: every line counts
    try:
        engine = connection.live_engine()
        if params.get(connection.TEACHER):
            device.remember_teacher(params.get(connection.CODE, ""), params[connection.TEACHER])
            teacher_page(engine)
        elif params.get(connection.SCREEN):
            teacher_page(engine, view_only=True)
        elif params.get(connection.STUDENT):
            student_page(engine, code=params.get(connection.CODE, ""), token=params.get(connection.STUDENT, ""))
        else:
            _landing(params.get(connection.JOIN))
    except sa.exc.DBAPIError:
        st.warning("The class database cannot be reached right now. Reconnecting… (reload in a few seconds)",
                   icon=":material/sync:")


def _params_or_place() -> dict[str, str]:
    """The URL's Live class parameters; with none (the tab came back through the sidebar, which drops them), the
    place this tab had in a class that is still running: a teacher who showed the Playground mid-lesson comes
    back to the dashboard, a student to their page (joining again made a second student of the same person)."""
    params = url_state.live_params()
    state = live()
    if any(params.get(role) for role in ROLES):
        state.place = {name: params[name] for name in (connection.CODE, *ROLES) if params.get(name)}
    elif not params and state.place:
        session = store.find_session(connection.live_engine(), state.place.get(connection.CODE))
        if session is None or session.ended:
            state.place = None
        else:
            url_state.open_live(state.place)  # the address says where the tab is again (the views read it there)
            return url_state.live_params()
    return params


def _landing(join_code: str | None) -> None:
    st.markdown("Put a question on the projector, let the whole room answer from their phones, "
                "discuss the most common wrong answer, reveal.")
    if join_code and security.normalise_code(join_code) is None:
        # A join link cut short or mistyped ("?join=77ZBH") left the Class code box empty without a word.
        st.warning("This join link's class code could not be read: type the code shown on the projector.",
                   icon=":material/link_off:")
    join, teach = st.columns([1.2, 1], gap="large")
    with join, st.form("live_join"):
        st.header("Join a class")
        code = st.text_input("Class code", value=security.normalise_code(join_code) or "", max_chars=9,
                             placeholder="e.g. ABC 234", key="live_join_code", persist_state="session")
        # No max_chars: the browser then refuses a pasted name longer than the limit outright (the box stays empty
        # and the student joins as anonymous); the store keeps the first NICKNAME_MAX characters instead.
        nickname = st.text_input("Nickname (optional)", key="live_join_nickname", persist_state="session",
                                 help=f"Up to {NICKNAME_MAX} characters (a longer one is cut). Shown only to the "
                                 "teacher, or to the class if the teacher turns the leaderboard on.")
        submitted = st.form_submit_button("Join", type="primary", width="stretch")
    device.read_places()  # this browser's places in classes: joining again is the same student
    if submitted:
        _join(code, nickname)
    if join_code:
        return  # a student following a join link needs nothing else
    with teach:
        st.header("Teach")
        running = _running_classes()
        for session, secret in running:
            code = security.shown_code(session.code)
            st.info(f"This browser is teaching class **{code}**, still running.", icon=":material/co_present:")
            if st.button(f"Back to class {code}", key=f"live_back_{session.code}", type="primary", width="stretch"):
                url_state.open_live({connection.CODE: session.code, connection.TEACHER: secret})
                live().arrived = True
                st.rerun()
        st.caption("Start a session: you get a join code, a link and a QR code to project, and a private "
                   "teacher link that alone controls the session.")
        if st.button("Start another live session" if running else "Start a live session",
                     icon=":material/co_present:", key="live_start", width="stretch"):
            session, secret = store.create_session(connection.live_engine())
            url_state.open_live({connection.CODE: session.code, connection.TEACHER: secret})
            live().arrived = True
            st.rerun()


def _running_classes() -> list[tuple[store.Session, str]]:
    """The classes this browser is teaching (kept by :func:`ui.live.device.remember_teacher`) that are still running
    and whose secret still controls them, the newest first."""
    engine = connection.live_engine()
    running = []
    for code, secret in device.remembered_teaching():
        try:
            session = store.teacher_session(engine, code=code, secret=secret)
        except store.NotAuthorized:
            continue
        if not session.ended:
            running.append((session, secret))
    return sorted(running, key=lambda found: found[0].id, reverse=True)


def _join(code: str, nickname: str) -> None:
    client, ip = connection.client_keys()
    engine = connection.live_engine()
    try:
        session = store.find_session(engine, code)
        kept = session and device.remembered_token(session.code, security.clean_nickname(nickname))
        if kept and not session.ended and store.student_by_token(engine, code=session.code, token=kept) is not None:
            token = kept  # this browser's student in this class, back: not a second student
            live().welcome_back = True
        else:
            student, token = store.join(engine, code=code, nickname=nickname, client=client, ip=ip)
            asked = security.clean_nickname(nickname)
            live().renamed_from = asked if student.nickname != asked else None
            typed = " ".join(str(nickname or "").split())
            live().cut_from = typed if len(typed) > NICKNAME_MAX else None  # cut without a word before
    except (store.JoinRefused, store.RateLimited) as error:
        st.error(str(error), icon=":material/error:")
        return
    url_state.open_live({connection.CODE: session.code, connection.STUDENT: token})
    live().arrived = True
    st.rerun()
