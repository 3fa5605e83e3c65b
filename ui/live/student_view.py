"""A student's view (a phone): the current activity, their answer, then their result and the class's.

A small fragment polls the database every REFRESH_SECONDS for the session's state (one read) and redraws
the page only when the teacher changed it, so the question appears when the teacher opens it. Identity is the token in the URL (``?code=…&student=…``): a reload or a reconnect finds the same
student and shows their stored answer, which also pre-sets the answer widget. An answer that cannot be
written (database unreachable) is kept in this browser session and re-sent on every poll until the database
acknowledges it; until then the student sees a "reconnecting" message, never a false "received".
A student never sees anyone else's answer or name; the leaderboard (nicknames) appears only when the
teacher turns it on.
"""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
import sqlalchemy as sa
import streamlit as st
from sqlalchemy.engine import Engine

from ui import focus, present
from ui.formatting import count
from ui.live import activities, connection, device, security, store, widgets
from ui.live.schema import NICKNAME_MAX
from ui.live.state import Pending, Reorder, answer_key, answer_value, live, preset_answer, take_notice
from ui.moves import carried_moves
from ui.ranked_list import moved_documents, pending_order, ranked_list
from ui.widgets import plain

REFRESH_SECONDS = 2.0
START_ESTIMATE = 0.5  # where the estimate slider starts; sent only once the student has moved it
RECONNECTING = "Reconnecting to the class… your answer is kept here and will be sent as soon as the connection is back."


def student_page(engine: Engine, *, code: str, token: str) -> None:
    student = store.student_by_token(engine, code=code, token=token)
    if student is None:
        st.error("This student link is not valid for this class. Join again with the class code.",
                 icon=":material/link_off:")
        return
    name = student.nickname or "anonymous"
    if live().welcome_back:
        live().welcome_back = False
        st.info(f"Welcome back, {plain(name)}: you are the same student as before, with your answers.",
                icon=":material/waving_hand:")
    if live().cut_from:
        st.info(f"A nickname keeps {NICKNAME_MAX} characters, so “{plain(live().cut_from[:60])}” was cut: you are "
                f"“{plain(name)}”.", icon=":material/badge:")
        live().cut_from = None
    if live().renamed_from:
        st.info(f"Another student in this class is already called “{plain(live().renamed_from)}”, so you are "
                f"“{plain(name)}”.", icon=":material/badge:")
        live().renamed_from = None
    st.caption(f"Class {plain(code.upper())} · you are {plain(name)} · a reload keeps your answers, and so does "
               "joining again from this browser with the same nickname")
    device.remember(security.normalise_code(code) or code, token, student.nickname)
    _watch(student.session_id, student.id)
    with st.container(key="live_student"):
        _panel(code, token, student.id)
        if live().arrived:  # just joined: the Join button is gone with the focus it had
            live().arrived = False
            focus.land_here("live_student", token=f"joined-{token}")


def _send(code: str, token: str, activity_id: int, answer: dict) -> None:
    """Write the answer; on an outage keep it for the next poll (the acknowledgement is the stored row)."""
    state = live()
    state.pending = None
    try:
        stored = store.submit_answer(connection.live_engine(), code=code, token=token, activity_id=activity_id,
                                     answer=answer, scorer=activities.score)
        state.notice = ("success", "Answer received." if stored.revision == 1 else "Answer replaced.")
        state.shown_revision[activity_id] = stored.revision  # this tab's widgets hold what was stored
    except store.NotOpen:
        state.notice = ("error", "Too late: the teacher has closed the answers.")
    except (store.LiveError, ValueError) as error:
        state.notice = ("error", str(error))
    except sa.exc.DBAPIError:
        state.pending = Pending(code, token, activity_id, answer)


def _estimated(activity_id: int) -> None:
    live().estimated.add(activity_id)


def _current_answer(activity: store.Activity) -> dict | None:
    """The answer the student's widgets hold now (None when nothing is chosen yet)."""
    if activity.kind == "estimate":
        value = answer_value(activity.id)
        return None if value is None else {"value": round(float(value), 2)}
    if activity.kind == "compare":
        choice = answer_value(activity.id)
        return None if choice is None else {"choice": choice}
    working = live().reorders.get(activity.id)
    return None if working is None else {"order": list(working.order), "moves": working.moves}


def _untouched_estimate(activity: store.Activity) -> bool:
    """An estimate still where the slider starts, never moved and never sent: its 0.50, sent as it was, scored a
    full point on the first activity of every new class (NDCG 0.531). (Moved and sent in one instant: it counts.)"""
    return (activity.kind == "estimate" and answer_value(activity.id) == START_ESTIMATE
            and activity.id not in live().estimated and live().shown_revision.get(activity.id) is None)


def _send_current(code: str, token: str, activity: store.Activity) -> None:
    if _untouched_estimate(activity):
        live().notice = ("error", "Move the slider to your estimate first: it starts at 0.50 for everyone.")
        return
    answer = _current_answer(activity)
    if answer is not None:
        _send(code, token, activity.id, answer)


@st.fragment(run_every=REFRESH_SECONDS)
def _watch(session_id: int, student_id: int) -> None:
    """The cheap poll (one indexed read): redraw the page only when the teacher changed something, or when the
    student's answer was sent from another tab (the same student link open on a second device).

    Also re-sends an answer kept during an outage, and shows "reconnecting" while the database is away.
    Why a separate fragment: 200 phones polling every 2 s must not each redraw the whole question.
    """
    state = live()
    try:
        if state.pending is not None:
            pending = state.pending
            _send(pending.code, pending.token, pending.activity_id, pending.answer)
            if state.pending is None:  # written at last: show the acknowledgement
                st.rerun(scope="app")
        stamp = store.session_stamp(connection.live_engine(), session_id, student_id=student_id)
    except sa.exc.DBAPIError:
        state.outage = True
        st.warning(RECONNECTING, icon=":material/sync:")
        return
    if state.pending is not None:
        st.warning(RECONNECTING, icon=":material/sync:")
        return
    if state.stamp is None:
        state.stamp = stamp
    if state.outage or state.stamp != stamp:
        # Only this tab's own answer changed, to the revision this tab sent: the send already drew it.
        sent_from_here = (not state.outage and stamp is not None and state.stamp is not None
                          and replace(state.stamp, own_revision=stamp.own_revision) == stamp
                          and stamp.own_revision == state.shown_revision.get(stamp.activity_id))
        state.outage, state.stamp = False, stamp
        if not sent_from_here:
            st.rerun(scope="app")


@st.fragment
def _panel(code: str, token: str, student_id: int) -> None:
    """The question and the student's answer; reruns alone when they answer, fully when _watch says so."""
    engine = connection.live_engine()
    state = live()
    try:
        session = store.find_session(engine, code)
        activity = store.current_activity(engine, session.id)
        mine = None if activity is None else store.my_answer(engine, student_id=student_id, activity_id=activity.id)
        state.view = (session, activity, mine)
    except sa.exc.DBAPIError:
        state.outage = True
        if state.view is None or state.view[1] is None or state.view[1].state != "open":
            _announce(RECONNECTING)
            st.warning(RECONNECTING, icon=":material/sync:")
            return
        # A click on the answer (which reruns this fragment) must not take the question away during an outage:
        # draw it from the last read, so the answer can still be sent (and kept until the database is back).
        session, activity, mine = state.view
    _announce(news(session, activity, mine))
    if session.ended:
        st.info("The session has ended. Thank you!")
        return
    if activity is None or activity.state == "draft":
        st.info("Waiting for the teacher to open a question…", icon=":material/hourglass_top:")
        return
    st.header(f"{activity.position}. {activities.TITLES[activity.kind]}")
    if activity.state == "revealed":  # on a phone the student's own result comes first, above the question
        _own_result(activity, mine)
    question = widgets.show_question(activity)
    if activity.state == "open":
        _answer_form(code, token, activity, question, mine)
    elif activity.state == "closed":
        _own_answer(mine, activity)
        st.info("Answers are closed. Wait for the reveal…", icon=":material/hourglass_top:")
    else:
        _result(engine, session, activity, mine)


def news(session: store.Session, activity: store.Activity | None, mine: store.Answer | None) -> str:
    """What the teacher last did, in one sentence for a screen reader: the page changes by itself (a question
    opens, answers close, the answer is revealed), and a student who cannot see it was told nothing."""
    if session.ended:
        return "The session has ended."
    if activity is None or activity.state == "draft":
        return "Waiting for the teacher to open a question."
    question = f"Question {activity.position}, {activities.TITLES[activity.kind]}"
    if activity.state == "open":
        return f"{question}, is open for answers."
    if activity.state == "closed":
        return f"{question}: answers are closed. Wait for the reveal."
    answer = activities.correct_answer(activity.kind, activity.spec)
    if mine is None:
        return f"{question}: the answer is {answer}. You did not answer this one."
    points = f"{mine.points:g} point{'s' if mine.points != 1 else ''}"
    return f"{question}: the answer is {answer}. Your answer: {_answer_text(mine, activity)}, {points}."


def _announce(text: str) -> None:
    """The panel's first element in every state: one live region whose words change (ui.focus.spoken)."""
    st.markdown(focus.spoken(text), unsafe_allow_html=True)


def _own_answer(mine: store.Answer | None, activity: store.Activity) -> None:
    if mine is None:
        st.caption("You did not answer this one.")
        return
    st.markdown(f"**Your answer:** {plain(_answer_text(mine, activity))}")


def _answer_text(mine: store.Answer, activity: store.Activity) -> str:
    """The student's answer in words; a reorder's before the reveal only by its moves ("best in 3 moves" on the phone
    told the student, and the room, that it was right, and invited re-sending until it said "best")."""
    if "value" in mine.answer:
        return f"{float(mine.answer['value']):.2f}"
    if "choice" in mine.answer:
        return f"Ranking {mine.answer['choice']}"
    if activity.state != "revealed":
        return f"your order, {activities.unrevealed_label(activity.kind, activity.spec, mine.answer, mine.label)}"
    return f"{mine.label}"


def _answer_form(code: str, token: str, activity: store.Activity, question, mine: store.Answer | None) -> None:
    key = answer_key(activity.id)
    shown = live().shown_revision
    # The stored answer replaces what the widgets hold when this tab has not drawn it yet: after a reload, or when it
    # was sent from another tab on the same student link (an unsent change here would otherwise contradict it).
    adopt_stored = mine is not None and shown.get(activity.id) != mine.revision
    if mine is not None:
        shown[activity.id] = mine.revision
    if activity.kind == "estimate":
        preset_answer(activity.id, float(mine.answer["value"]) if mine else START_ESTIMATE, replace=adopt_stored)
        st.slider("Your estimate of NDCG", 0.0, 1.0, step=0.01, key=key, on_change=_estimated, args=(activity.id,))
        if mine is None and activity.id not in live().estimated:
            st.caption("Move the slider to your estimate, then send it.")
    elif activity.kind == "compare":
        preset_answer(activity.id, mine.answer["choice"] if mine else None, replace=adopt_stored)
        st.radio("Your answer", ["A", "B"], index=None, horizontal=True, key=key,
                 format_func=lambda label: f"Ranking {label}")
    else:
        _reorder(activity, question, mine, adopt_stored=adopt_stored)
    answer = _current_answer(activity)
    notice = take_notice()
    label = "Send my answer" if mine is None else "Change my answer"
    # The callback reads the widgets' values when the click arrives (not the values of the last drawing): a
    # slider moved and "Send" pressed in the same instant send what the student sees.
    st.button(label, type="primary", key=f"live_send_{activity.id}", disabled=answer is None, width="stretch",
              on_click=_send_current, args=(code, token, activity))
    if notice is not None and notice[0] == "error":
        st.error(notice[1])
    if live().pending is not None and live().pending.activity_id == activity.id:
        st.warning(RECONNECTING, icon=":material/sync:")  # sent, not acknowledged: never a false "received"
    if mine is not None:
        st.success(f"✓ {'Answer replaced' if mine.revision > 1 else 'Answer received'}: {plain(_answer_text(mine, activity))}. "
                   "You can change it until the teacher closes the answers.", icon=":material/check_circle:")


def _reorder(activity: store.Activity, question, mine: store.Answer | None, *, adopt_stored: bool = False) -> None:
    """The drag list (ranked_list's protocol: apply a pending move before drawing)."""
    widget_key = f"live_drag_{activity.id}"
    reorders = live().reorders
    if activity.id not in reorders or adopt_stored:  # first drawing, a reload, an answer sent from another tab: the stored
        # answer, else the starting list
        reorders[activity.id] = (Reorder(tuple(mine.answer["order"]), int(mine.answer.get("moves", 0))) if mine
                                 else Reorder(tuple(question.order)))
    working = reorders[activity.id]
    moved = pending_order(widget_key, len(question.names), names=question.ranked_names(working.order),
                          grades=question.ranked_grades(working.order))
    if moved is not None:
        working.order = tuple(working.order[j] for j in moved)
        new, working.carried = carried_moves(moved_documents(widget_key), working.carried)
        working.moves += new
    ranked_list(question.ranked_names(working.order), question.ranked_grades(working.order),
                question.result(working.order).table["contribution"].tolist(), key=widget_key, k=question.k)
    st.caption(f"Moves so far: {working.moves}")


def _own_result(activity: store.Activity, mine: store.Answer | None) -> None:
    if mine is None:
        st.info("You did not answer this one; here is the answer.")
    else:
        points = f"{mine.points:g} point{'s' if mine.points != 1 else ''}"
        (st.success if mine.correct else st.warning if mine.points > 0 else st.error)(
            f"Your answer: {plain(_answer_text(mine, activity))} · {points}")
        slip = None if mine.correct else activities.misconception(activity.kind, activity.spec, mine.answer)
        if slip:
            st.caption(f"Your answer fits this slip: {plain(slip)}.")


def _result(engine: Engine, session: store.Session, activity: store.Activity, mine: store.Answer | None) -> None:
    widgets.show_reveal(activity)
    rows = store.activity_answers(engine, activity.id)  # only labels are drawn: no names, no one's answer
    halves = sum(not r.correct and r.points > 0 for r in rows)
    st.markdown(f"**The class:** {count(len(rows), 'answer', 'answers')}, {sum(r.correct for r in rows)} right"
                + (f", {halves} half right" if halves else ""))
    present.plotly_chart(widgets.distribution_chart(activity, rows, revealed=True, height=260),
                    key=f"live_student_chart_{activity.id}", config={"displayModeBar": False, "staticPlot": True}, theme=None)
    if session.leaderboard:
        st.markdown("**Leaderboard**")
        board = store.leaderboard(engine, session.id)
        st.dataframe(pd.DataFrame(board, columns=["Nickname", "Points", "Answers"]), hide_index=True)
