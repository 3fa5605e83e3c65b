"""Every read and write of the live class, on an SQLAlchemy engine (no Streamlit: tests pass an engine).

Each public function is one transaction. Writes open with the ``WRITE`` execution option (SQLite: BEGIN
IMMEDIATE). Every teacher control takes the code *and the teacher secret* and checks the secret inside the
same transaction that changes anything, so no control can be reached by hiding or showing buttons alone.
Students are identified only by their token: the student id an answer is written under comes from the
token's digest, never from the request, so one student cannot answer for another.
"""

from __future__ import annotations

import json
import time

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from ui.live import security
from ui.live.model import (  # noqa: F401  (the records and refusals are part of the store's API)
    Activity,
    Answer,
    JoinRefused,
    LiveError,
    NotAuthorized,
    NotOpen,
    RateLimited,
    Scorer,
    Session,
    Stamp,
    Student,
)
from ui.live.schema import WRITE, activities, answers, join_failures, sessions, students

STATES = ("draft", "open", "closed", "revealed")


def _write(engine: Engine) -> Connection:
    return engine.connect().execution_options(**{WRITE: True})


def _session(row) -> Session:
    return Session(row.id, row.code, row.title, row.created_at, row.ended_at, row.current_activity_id,
                   bool(row.leaderboard))


def _activity(row) -> Activity:
    return Activity(row.id, row.session_id, row.position, row.kind, json.loads(row.spec), row.state)


def _session_by_code(conn: Connection, code: str | None, *, for_update: bool = False):
    code = security.normalise_code(code)
    if code is None:
        return None
    query = sa.select(sessions).where(sessions.c.code == code)
    return conn.execute(query.with_for_update() if for_update else query).first()


def _student_row(conn: Connection, code: str | None, token: str | None):
    if not token or len(token) > 200:
        return None
    return conn.execute(
        sa.select(students.c.id, students.c.session_id, students.c.nickname)
        .join(sessions, sessions.c.id == students.c.session_id)
        .where(students.c.token_hash == security.digest(token), sessions.c.code == security.normalise_code(code))
    ).first()


def _answer(r) -> Answer:
    return Answer(r.activity_id, r.student_id, r.nickname, json.loads(r.answer), r.label, r.points, bool(r.correct),
                  r.revision, r.submitted_at)


def _authorise(conn: Connection, code: str | None, secret: str | None):
    row = _session_by_code(conn, code, for_update=True)
    if row is None or not security.matches(secret, row.teacher_hash):
        raise NotAuthorized("This link does not control a session.")
    return row


# --- Sessions ----------------------------------------------------------------------------------------------

def create_session(engine: Engine, *, title: str = "", at: float | None = None) -> tuple[Session, str]:
    """A new session with a fresh join code; returns it and the teacher secret (shown once, stored hashed)."""
    secret = security.new_teacher_secret()
    with _write(engine) as conn, conn.begin():
        while True:  # codes are unique for ever, so an ended session's code never admits anyone again
            code = security.new_join_code()
            if _session_by_code(conn, code) is None:
                break
        conn.execute(sessions.insert().values(code=code, teacher_hash=security.digest(secret),
                                              screen_hash=security.digest(security.screen_token(secret)),
                                              title=security.clean_nickname(title)[:80], created_at=at or time.time()))
        return _session(_session_by_code(conn, code)), secret


def find_session(engine: Engine, code: str | None) -> Session | None:
    with engine.connect() as conn:
        row = _session_by_code(conn, code)
        return None if row is None else _session(row)


def teacher_session(engine: Engine, *, code: str | None, secret: str | None) -> Session:
    """The session this teacher link controls; raises NotAuthorized otherwise."""
    with engine.connect() as conn:
        row = _session_by_code(conn, code)
        if row is None or not security.matches(secret, row.teacher_hash):
            raise NotAuthorized("This link does not control a session.")
        return _session(row)


def screen_session(engine: Engine, *, code: str | None, token: str | None) -> Session:
    """The session this view-only projector link shows; raises NotAuthorized otherwise. It controls nothing."""
    with engine.connect() as conn:
        row = _session_by_code(conn, code)
        if row is None or row.screen_hash is None or not security.matches(token, row.screen_hash):
            raise NotAuthorized("This projector link does not show a session.")
        return _session(row)


def end_session(engine: Engine, *, code: str, secret: str, at: float | None = None) -> None:
    """End the session: its code admits nobody any more and its open activity closes."""
    with _write(engine) as conn, conn.begin():
        row = _authorise(conn, code, secret)
        now = at or time.time()
        conn.execute(activities.update().where(activities.c.session_id == row.id, activities.c.state == "open")
                     .values(state="closed", closed_at=now))
        conn.execute(sessions.update().where(sessions.c.id == row.id).values(ended_at=row.ended_at or now))


def set_leaderboard(engine: Engine, *, code: str, secret: str, on: bool) -> None:
    with _write(engine) as conn, conn.begin():
        row = _authorise(conn, code, secret)
        conn.execute(sessions.update().where(sessions.c.id == row.id).values(leaderboard=bool(on)))


# --- Students ----------------------------------------------------------------------------------------------

def join(engine: Engine, *, code: str | None, nickname: str = "", client: str, ip: str = "",
         at: float | None = None) -> tuple[Student, str]:
    """Admit a student to an active session; returns the student and their token (stored hashed).

    Rate limit: failed attempts are recorded per client (browser session) and per IP address; over
    :data:`security.JOIN_LIMITS` within the window, every attempt from that client is refused with
    RateLimited, even with a right code, so codes cannot be enumerated cheaply.
    """
    now = at or time.time()
    window, per_client, per_ip = security.JOIN_LIMITS
    keys = [f"c:{client}"[:80]] + ([f"ip:{ip}"[:80]] if ip else [])
    with _write(engine) as conn, conn.begin():
        recent = {key: conn.execute(sa.select(sa.func.count()).select_from(join_failures).where(
            join_failures.c.client == key, join_failures.c.at > now - window)).scalar() for key in keys}
        if recent[keys[0]] >= per_client or (len(keys) > 1 and recent[keys[1]] >= per_ip):
            raise RateLimited("Too many wrong codes: wait a minute, then try again.")
        # Locked (PostgreSQL; SQLite's BEGIN IMMEDIATE serialises already): two students joining at once as "Sam"
        # each read the nicknames before the other's insert, and both were "Sam".
        row = _session_by_code(conn, code, for_update=True)
        refused = row is None or row.ended_at is not None
        if refused:  # remembered (committed) although the caller gets an exception
            conn.execute(join_failures.insert(), [{"client": key, "at": now} for key in keys])
            conn.execute(join_failures.delete().where(join_failures.c.at < now - 10 * window))  # keep it small
        else:
            token = security.new_student_token()
            taken = conn.execute(sa.select(students.c.nickname).where(students.c.session_id == row.id)).scalars()
            nickname = security.unique_nickname(security.clean_nickname(nickname), taken)
            result = conn.execute(students.insert().values(
                session_id=row.id, token_hash=security.digest(token), nickname=nickname, joined_at=now))
    if refused:
        raise JoinRefused("No active session has this code.")
    return Student(result.inserted_primary_key[0], row.id, nickname), token


def student_by_token(engine: Engine, *, code: str | None, token: str | None) -> Student | None:
    """The student holding ``token`` in the session ``code`` (None for anything else)."""
    with engine.connect() as conn:
        row = _student_row(conn, code, token)
        return None if row is None else Student(row.id, row.session_id, row.nickname)


def student_count(engine: Engine, session_id: int) -> int:
    with engine.connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(students)
                            .where(students.c.session_id == session_id)).scalar()


# --- Activities --------------------------------------------------------------------------------------------

def add_activity(engine: Engine, *, code: str, secret: str, kind: str, spec: dict) -> Activity:
    """Append an activity (state "draft") to the session."""
    with _write(engine) as conn, conn.begin():
        row = _authorise(conn, code, secret)
        position = conn.execute(sa.select(sa.func.coalesce(sa.func.max(activities.c.position), 0))
                                .where(activities.c.session_id == row.id)).scalar() + 1
        result = conn.execute(activities.insert().values(session_id=row.id, position=position, kind=kind,
                                                         spec=json.dumps(spec), state="draft"))
        return Activity(result.inserted_primary_key[0], row.id, position, kind, spec, "draft")


def set_state(engine: Engine, *, code: str, secret: str, activity_id: int, state: str,
              at: float | None = None) -> None:
    """Open, close or reveal an activity. Opening or revealing one makes it the current activity and closes any
    other still open (an activity closed when the next was opened is revealed on the projector and the phones,
    which show the current one)."""
    if state not in STATES[1:]:
        raise ValueError(f"state must be one of {STATES[1:]}")
    now = at or time.time()
    with _write(engine) as conn, conn.begin():
        row = _authorise(conn, code, secret)
        if row.ended_at is not None:
            raise NotAuthorized("This session has ended.")
        target = activities.c.id == activity_id
        if conn.execute(sa.select(activities.c.id).where(target, activities.c.session_id == row.id)).first() is None:
            raise NotAuthorized("This activity is not in this session.")
        stamp = {"open": "opened_at", "closed": "closed_at", "revealed": "revealed_at"}[state]
        if state in ("open", "revealed"):  # one current activity: any other still open is closed
            conn.execute(activities.update().where(activities.c.session_id == row.id, activities.c.state == "open",
                                                   activities.c.id != activity_id).values(state="closed", closed_at=now))
            conn.execute(sessions.update().where(sessions.c.id == row.id).values(current_activity_id=activity_id))
        conn.execute(activities.update().where(target).values(state=state, **{stamp: now}))


def session_stamp(engine: Engine, session_id: int, *, student_id: int | None = None) -> Stamp | None:
    """What a live page depends on, in one read: the session's end, current activity, its state and the
    leaderboard switch; with ``student_id`` also the revision of that student's own answer to the current activity,
    so a second tab on the same student link follows an answer sent from the first. None: no such session."""
    columns = [sessions.c.ended_at, sessions.c.current_activity_id, activities.c.state, sessions.c.leaderboard]
    joined = sessions.outerjoin(activities, activities.c.id == sessions.c.current_activity_id)
    if student_id is not None:
        columns.append(answers.c.revision)
        joined = joined.outerjoin(answers, sa.and_(answers.c.activity_id == sessions.c.current_activity_id,
                                                   answers.c.student_id == student_id))
    with engine.connect() as conn:
        row = conn.execute(sa.select(*columns).select_from(joined).where(sessions.c.id == session_id)).first()
        return None if row is None else Stamp(*row)


def session_activities(engine: Engine, session_id: int) -> list[Activity]:
    with engine.connect() as conn:
        rows = conn.execute(sa.select(activities).where(activities.c.session_id == session_id)
                            .order_by(activities.c.position))
        return [_activity(row) for row in rows]


def current_activity(engine: Engine, session_id: int) -> Activity | None:
    """The session's current activity (the last one opened), whatever its state now."""
    with engine.connect() as conn:
        row = conn.execute(sa.select(activities).join(sessions, sessions.c.current_activity_id == activities.c.id)
                           .where(sessions.c.id == session_id)).first()
        return None if row is None else _activity(row)


# --- Answers -----------------------------------------------------------------------------------------------

def submit_answer(engine: Engine, *, code: str | None, token: str | None, activity_id: int, answer: dict,
                  scorer: Scorer, at: float | None = None) -> Answer:
    """Record (or explicitly replace) this student's answer to an open activity; returns what was stored.

    The activity row is share-locked (PostgreSQL ``FOR SHARE``), so a concurrent close waits for the
    answers already being written and no answer lands after it. A re-submission updates the one row of
    (activity, student) and increments ``revision``: the unique constraint makes a second row impossible. The same
    answer sent again (a double tap on "Send my answer") changes nothing: it was reported as "Answer replaced", and
    its revisions counted each tap.
    """
    now = at or time.time()
    with _write(engine) as conn, conn.begin():
        student = _student_row(conn, code, token)
        if student is None:
            raise NotAuthorized("This student link is not valid.")
        row = conn.execute(sa.select(activities).where(activities.c.id == activity_id)
                           .with_for_update(read=True)).first()
        if row is None or row.session_id != student.session_id:
            raise NotAuthorized("This activity is not in your session.")
        if row.state != "open":
            raise NotOpen("Answers are closed for this activity.")
        kept = conn.execute(sa.select(answers, students.c.nickname).join(students, students.c.id == answers.c.student_id)
                            .where(answers.c.activity_id == activity_id, answers.c.student_id == student.id)).first()
        if kept is not None and json.loads(kept.answer) == answer:  # a double tap sends the same answer again
            return _answer(kept)
        label, points, correct = scorer(row.kind, json.loads(row.spec), answer)
        values = {"activity_id": activity_id, "student_id": student.id, "answer": json.dumps(answer),
                  "label": str(label)[:64], "points": float(points), "correct": bool(correct), "submitted_at": now}
        _upsert(conn, values)
        stored = conn.execute(sa.select(answers.c.revision).where(
            answers.c.activity_id == activity_id, answers.c.student_id == student.id)).scalar()
        return Answer(activity_id, student.id, student.nickname, answer, values["label"], values["points"],
                      values["correct"], stored, now)


def _upsert(conn: Connection, values: dict) -> None:
    replace = {name: values[name] for name in ("answer", "label", "points", "correct", "submitted_at")}
    replace["revision"] = answers.c.revision + 1
    dialect = conn.dialect.name
    if dialect in ("sqlite", "postgresql"):
        module = __import__(f"sqlalchemy.dialects.{dialect}", fromlist=["insert"])
        statement = module.insert(answers).values(**values)
        conn.execute(statement.on_conflict_do_update(index_elements=["activity_id", "student_id"], set_=replace))
        return
    updated = conn.execute(answers.update().where(answers.c.activity_id == values["activity_id"],
                                                  answers.c.student_id == values["student_id"]).values(**replace))
    if updated.rowcount == 0:
        conn.execute(answers.insert().values(**values))


def activity_answers(engine: Engine, activity_id: int) -> list[Answer]:
    """Every answer to one activity (the dashboard's query: one indexed read)."""
    with engine.connect() as conn:
        rows = conn.execute(sa.select(answers, students.c.nickname).join(students, students.c.id == answers.c.student_id)
                            .where(answers.c.activity_id == activity_id).order_by(answers.c.submitted_at))
        return [_answer(r) for r in rows]


def my_answer(engine: Engine, *, student_id: int, activity_id: int) -> Answer | None:
    """One student's own answer (the student view never reads anyone else's)."""
    with engine.connect() as conn:
        r = conn.execute(sa.select(answers, students.c.nickname).join(students, students.c.id == answers.c.student_id)
                         .where(answers.c.activity_id == activity_id, answers.c.student_id == student_id)).first()
        return None if r is None else _answer(r)


def leaderboard(engine: Engine, session_id: int, *, limit: int = 10) -> list[tuple[str, float, int]]:
    """(nickname, total points, answers) of the top students; views show it only when the teacher turned it on.

    Only answers to activities whose answers are closed count: the leaderboard is projected, and with an open
    activity's answers in it a student's total going up (Ana 3 → 4) told the room her answer was right while the
    class was still answering (the live panel hides the share correct until the close for the same reason).
    """
    total = sa.func.sum(answers.c.points)
    with engine.connect() as conn:
        rows = conn.execute(sa.select(students.c.nickname, total, sa.func.count(answers.c.id))
                            .join(answers, answers.c.student_id == students.c.id)
                            .join(activities, activities.c.id == answers.c.activity_id)
                            .where(students.c.session_id == session_id, activities.c.state != "open")
                            .group_by(students.c.id, students.c.nickname).order_by(total.desc(), students.c.id).limit(limit))
        return [(r[0] or "(no nickname)", float(r[1]), int(r[2])) for r in rows]


def export_rows(engine: Engine, *, code: str, secret: str) -> list[dict]:
    """Every answer of the session, one dict per answer with its activity's spec (the teacher's CSV export, which
    writes the answer in words from it; needs the secret)."""
    with engine.connect() as conn:
        row = _session_by_code(conn, code)
        if row is None or not security.matches(secret, row.teacher_hash):
            raise NotAuthorized("This link does not control a session.")
        rows = conn.execute(
            sa.select(activities.c.position, activities.c.kind, students.c.id.label("student"), students.c.nickname,
                      answers.c.answer, answers.c.label, answers.c.points, answers.c.correct, answers.c.revision,
                      answers.c.submitted_at, activities.c.spec)
            .join(activities, activities.c.id == answers.c.activity_id)
            .join(students, students.c.id == answers.c.student_id)
            .where(activities.c.session_id == row.id).order_by(activities.c.position, answers.c.submitted_at))
        return [dict(r._mapping) | {"correct": bool(r.correct)} for r in rows]
