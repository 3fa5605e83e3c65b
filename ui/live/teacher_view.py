"""The teacher's view: join code/link/QR, the activity controls, the live dashboard, summary and export.

Projector-ready: the join header, the question and the live panel fit a 1280×720 screen; the controls for the
next activity and the class summary sit below. Every control calls the store with the secret from the page's
URL; the store checks it on the server (hiding buttons is not the protection).

During an open activity the projector shows only how many answered and the spread of answers (no right or
wrong, which would tell the room the answer); once the teacher closes it, the share correct and the most
common wrong answer with its misconception appear; the reveal adds the worked calculation. Before the first
activity a cheap poll of the session's stamp stands in for the live panel, so a projector opened early follows.
"""

from __future__ import annotations

import pandas as pd
import sqlalchemy as sa
import streamlit as st
from sqlalchemy.engine import Engine

from ui import focus, present, url_state
from ui.live import activities, connection, export, security, store, teacher_control, teacher_settings, widgets
from ui.live.state import (
    KIND_KEY,
    SEED_KEY,
    live,
    next_activity_choice,
    offer_next_seed,
    resume_seed,
    take_teacher_error,
)
from ui.live.teacher_control import RECONNECTING
from ui.quiz_model import MAX_SEED
from ui.widgets import plain

REFRESH_SECONDS = 1.5
WAITING_SCREEN = "Waiting for the teacher to open an activity…"


def teacher_page(engine: Engine, *, view_only: bool = False) -> None:
    """The dashboard with its controls (teacher link), or without any (``view_only``: the projector link)."""
    try:
        if view_only:
            session = store.screen_session(engine, code=teacher_control.code(),
                                           token=url_state.live_params().get(connection.SCREEN, ""))
        else:
            session = store.teacher_session(engine, code=teacher_control.code(), secret=teacher_control.secret())
    except store.NotAuthorized:
        what = "projector link does not show" if view_only else "teacher link is not valid: it does not control"
        st.error(f"This {what} any session. Nothing was changed.", icon=":material/lock:")
        return
    error = take_teacher_error()
    if error:
        st.warning(error)
    if not session.ended:  # an ended session admits no one: no "Join at", code or QR code to follow
        with st.container(key="live_header"):
            _header(engine, session, view_only=view_only)
            if live().arrived:  # just started or reopened: "Start a live session" is gone with the focus it had
                live().arrived = False
                focus.land_here("live_header", token=f"arrived-{session.code}")
    if session.ended:
        teacher_settings.ended_notice(session, view_only=view_only)
    current = store.current_activity(engine, session.id)
    stamp = store.session_stamp(engine, session.id)  # what this drawing shows (see _live_panel)
    left, right = st.columns([1.05, 1], gap="large")
    with left:
        if current is None and view_only:  # the projector has no controls "below"
            st.info(WAITING_SCREEN, icon=":material/hourglass_top:")
        elif current is None and session.ended:  # (no picker "below" any more: an ended session takes none)
            st.info("No activity was opened in this session.")
        elif current is None:
            st.info("Add an activity below, then open it: the students' phones show it at once.")
        else:
            with st.container(key="live_current_activity"):
                _current_activity(session, current, controls=not view_only)
                if live().show_current:  # changed from the picker below: the teacher may be scrolled down there
                    live().show_current = False
                    # and Open, Close or Reveal disabled the button pressed: a keyboard focus there fell to the page
                    for follow in (focus.bring_into_view, focus.land_here):
                        follow("live_current_activity", token=f"{current.id}-{current.state}")
    with right:
        if current is not None:
            _live_panel(session.id, current.id, stamp)
        elif not session.ended:  # an ended session changes no more
            _watch(session.id, stamp)
    if current is not None and current.state == "revealed":
        widgets.show_reveal(current)
    if view_only:
        _leaderboard(engine, session)  # what the class sees: the projector shows it when the teacher turned it on
        return
    st.divider()
    every = store.session_activities(engine, session.id)  # read once for the picker, the summary and the End button
    if not session.ended:
        _next_activity_picker(session, every)
    _summary(engine, session, every)
    teacher_settings.session_settings(session, every)


def _header(engine: Engine, session: store.Session, *, view_only: bool) -> None:
    """One compact band for the projector: where to go, the code in big letters, the QR code."""
    link = connection.join_link(session.code)
    where, code, qr = st.columns([2.3, 1.3, 0.6], vertical_alignment="center")
    where.markdown(f"## Join at {plain(link)}")
    # The code is made only of the join-code alphabet (A-Z, 2-9), so it is safe inside this HTML.
    code.html(f"<div style='font-size:3.2rem;font-weight:800;letter-spacing:.12em;line-height:1' "
              f"aria-label='class code'>{security.shown_code(session.code, '&nbsp;')}</div>")
    # Named for a screen reader (Streamlit gives an image none by default: it was read as an unnamed image).
    qr.image(widgets.qr_png(link, scale=4), width=110, alt=f"QR code of the join link {link}")
    if not view_only:
        st.caption("Projecting? Open the view-only projector link (under \"Teacher link\" below) on the projector, "
                   "or go full screen (F11): this page's address holds your private teacher link.")


def _current_activity(session: store.Session, activity: store.Activity, *, controls: bool) -> None:
    st.header(f"Activity {activity.position} · {activities.TITLES[activity.kind]} {widgets.state_badge(activity.state)}")
    if controls and not session.ended:
        _activity_buttons(activity)  # above the question: on a 720 px projector a six-row list pushed them off
    question = widgets.show_question(activity)
    if activity.kind == "reorder":
        widgets.show_ranking(question, label="Starting list")


def _activity_buttons(activity: store.Activity) -> None:
    buttons = st.columns(3)
    steps = (("Open", "open", activity.state in ("draft", "closed")),
             ("Close", "closed", activity.state == "open"),
             ("Reveal", "revealed", activity.state in ("open", "closed")))
    for column, (label, state, enabled) in zip(buttons, steps, strict=True):
        column.button(label, key=f"live_{state}_{activity.id}", disabled=not enabled, width="stretch",
                      type="primary" if enabled and state != "closed" else "secondary",
                      on_click=teacher_control.control, args=(store.set_state,),
                      kwargs={"activity_id": activity.id, "state": state})


@st.fragment(run_every=REFRESH_SECONDS)
def _watch(session_id: int, stamp: store.Stamp | None) -> None:
    """Before the first activity there is no live panel to poll: this cheap read (the session's stamp, as on a
    student's phone) redraws the page once an activity is opened elsewhere or the session ends.

    Without it a projector opened before the first activity (or the teacher link on a second device) kept saying
    "waiting" until reloaded.
    """
    try:
        engine = connection.live_engine()
        changed = store.session_stamp(engine, session_id) != stamp
        joined = store.student_count(engine, session_id)
    except sa.exc.DBAPIError:
        st.warning(RECONNECTING, icon=":material/sync:")
        return
    if changed:
        st.rerun(scope="app")
    # Who is in before the first question (the count appeared only once an activity was open).
    st.metric("Joined", joined)


@st.fragment(run_every=REFRESH_SECONDS)
def _live_panel(session_id: int, activity_id: int, stamp: store.Stamp | None) -> None:
    """Answers arriving live: this fragment alone reruns every REFRESH_SECONDS, not the page.

    When the session changed elsewhere (the teacher link open on a second device drives the projector link),
    the whole page is redrawn, so the question, its state and the buttons never go stale.
    """
    engine = connection.live_engine()
    try:
        if store.session_stamp(engine, session_id) != stamp:
            st.rerun(scope="app")
        activity = next(a for a in store.session_activities(engine, session_id) if a.id == activity_id)
        rows = store.activity_answers(engine, activity_id)
        joined = store.student_count(engine, session_id)
    except sa.exc.DBAPIError:
        st.warning(RECONNECTING, icon=":material/sync:")
        return
    settled = activity.state in ("closed", "revealed")
    counts = st.columns(3)
    counts[0].metric("Joined", joined)
    counts[1].metric("Answered", f"{len(rows)}")
    if settled and rows:
        counts[2].metric("Correct", f"{sum(r.correct for r in rows) / len(rows):.0%}")
    else:
        counts[2].metric("Correct", "–", help="Shown once you close the answers (not to give it away).")
    present.plotly_chart(widgets.distribution_chart(activity, rows, revealed=activity.state == "revealed", height=280),
                         key=f"live_chart_{activity_id}", config={"displayModeBar": False}, theme=None)
    if settled:
        wrong = activities.most_common_wrong(activity.kind, activity.spec, rows)
        if wrong:
            count = wrong[0][1]
            students = f"{count} student{'s' if count != 1 else ''}{' each' if len(wrong) > 1 else ''}"
            # "short of full marks": half-point answers ("best in 3 moves") are among them, and were called wrong
            heading = "Most common answer" + ("s" if len(wrong) > 1 else "") + " short of full marks"
            st.markdown(f"**{heading}:** {plain(' · '.join(label for label, _, _ in wrong))} ({students})")
            for label, _, slip in wrong:
                prefix = f"{plain(label)}: " if len(wrong) > 1 else ""
                st.markdown(f"→ {prefix}{plain(slip)}." if slip
                            else f"→ {prefix}no single slip explains it: ask the class how they got it.")
        elif rows:
            st.markdown("**Everyone who answered got it right.**")


def _next_activity_picker(session: store.Session, every: list[store.Activity]) -> None:
    st.header("Next activity")
    kind_col, seed_col, add_col, quiz_col = st.columns([1.6, 1, 1, 1.3], vertical_alignment="bottom")
    kind_col.selectbox("Kind", activities.KINDS, format_func=lambda k: activities.TITLES[k], key=KIND_KEY)
    resume_seed([int(a.spec["seed"]) for a in every if isinstance(a.spec.get("seed"), int)], largest=MAX_SEED)
    seed_col.number_input("Quiz seed", min_value=0, max_value=MAX_SEED, step=1, key=SEED_KEY,
                          help="The same seed gives the same question, as on the Quiz page.")
    # The questions are drawn in the callbacks (generating a quiz takes ~30 ms: not on every redraw).
    add_col.button("Add and open", type="primary", width="stretch", key="live_add",
                   on_click=_add_activities, kwargs={"whole_quiz": False, "open_it": True})
    quiz_col.button("Add the whole quiz", width="stretch", key="live_add_quiz",
                    on_click=_add_activities, kwargs={"whole_quiz": True},
                    help="The six questions of this quiz seed, as drafts to open one by one.")
    drafts = [a for a in every if a.state == "draft"]
    # Closed when another was opened, never revealed: their answers wait (only the current activity has controls).
    unrevealed = [a for a in every if a.state == "closed" and a.id != session.current_activity_id]
    if unrevealed:
        st.caption("Closed without their answer shown (revealing one shows it on the projector and the phones):")
        columns = st.columns(min(len(unrevealed), 6))
        for column, activity in zip(columns, unrevealed[-6:], strict=False):
            column.button(f"Reveal {activity.position}: {activities.TITLES[activity.kind]}",
                          key=f"live_reveal_closed_{activity.id}", width="stretch", on_click=teacher_control.control,
                          args=(store.set_state,), kwargs={"activity_id": activity.id, "state": "revealed"})
    if drafts:
        st.caption("Waiting to be opened:")
        columns = st.columns(min(len(drafts), 6))
        for column, draft in zip(columns, drafts[:6], strict=False):
            column.button(f"Open {draft.position}: {activities.TITLES[draft.kind]}", key=f"live_open_draft_{draft.id}",
                          width="stretch", on_click=teacher_control.control, args=(store.set_state,),
                          kwargs={"activity_id": draft.id, "state": "open"})


def _add_activities(*, whole_quiz: bool, open_it: bool = False) -> None:
    """Add one activity of the chosen kind and quiz seed (or the seed's whole quiz), maybe open it."""
    engine, code, secret = connection.live_engine(), teacher_control.code(), teacher_control.secret()
    kind, seed = next_activity_choice()
    items = activities.quiz_specs(seed) if whole_quiz else [(kind, activities.generate(kind, seed=seed))]
    try:
        added = [store.add_activity(engine, code=code, secret=secret, kind=kind, spec=spec) for kind, spec in items]
        if open_it and added:
            store.set_state(engine, code=code, secret=secret, activity_id=added[-1].id, state="open")
            live().show_current = True
        offer_next_seed(seed, largest=MAX_SEED)
    except store.LiveError as error:
        live().teacher_error = str(error)
    except sa.exc.DBAPIError:
        live().teacher_error = RECONNECTING


def _summary(engine: Engine, session: store.Session, activities_now: list[store.Activity]) -> None:
    st.header("Class summary")
    if not activities_now:
        st.caption("No activity yet.")
        return
    # While an activity is open its answers arrive: the table follows them as the live panel does (it said 0
    # answers beside the panel's 'Answered 2' until the activity was closed).
    is_open = any(activity.state == "open" for activity in activities_now)
    st.fragment(run_every=REFRESH_SECONDS if is_open else None)(_summary_table)(session.id, session.code)
    _leaderboard(engine, session)


def _summary_table(session_id: int, code: str) -> None:
    """One row per activity: its state, answers, share correct and mean points. While an activity is open (or has no
    answer) its share correct and points are "–", as on the live panel: the page is projected, and they give the answer away."""
    engine = connection.live_engine()
    try:
        rows = []
        for activity in store.session_activities(engine, session_id):
            answers = store.activity_answers(engine, activity.id)
            scored = bool(answers) and activity.state != "open"
            rows.append({"#": activity.position, "Activity": activities.TITLES[activity.kind], "State": activity.state,
                         "Answers": len(answers),
                         "Correct": f"{sum(a.correct for a in answers) / len(answers):.0%}" if scored else "–",
                         # Text like "Correct": a missing mean (None) was drawn as a grey "None" on the projector.
                         "Mean points": f"{sum(a.points for a in answers) / len(answers):.2f}" if scored else "–"})
        # Made with the table, so it follows the answers as the table does: made with the page, the file left out
        # every answer that had arrived since (the panel said "Answered 3", the CSV held none of them). A download
        # button's callable file is no way round: Streamlit drops the file it makes at the next poll's clean-up,
        # before the browser has fetched it.
        csv = export.answers_csv(engine, code=teacher_control.code(), secret=teacher_control.secret())
    except store.NotAuthorized:  # (the page checked the secret: only a link changed under the poll gets here)
        csv = None
    except sa.exc.DBAPIError:
        st.warning(RECONNECTING, icon=":material/sync:")
        return
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    if csv is not None:
        st.download_button("Download every answer (CSV)", csv, file_name=f"live-{code}.csv", mime="text/csv",
                           icon=":material/download:", key="live_export")


def _leaderboard(engine: Engine, session: store.Session) -> None:
    """Nicknames and points, when the teacher shows them to the class (the projector shows them too)."""
    if session.leaderboard:
        board = store.leaderboard(engine, session.id)
        st.markdown("**Leaderboard**")
        st.dataframe(pd.DataFrame(board, columns=["Nickname", "Points", "Answers"]), hide_index=True)
