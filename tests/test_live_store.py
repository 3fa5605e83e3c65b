"""Live class database layer, on SQLite (WAL file) and on a real PostgreSQL server (same tests, same code).

PostgreSQL runs as a throwaway cluster (tests/live_databases.py); without its binaries these cases skip with
the reason, except under CI=true where they must run.
"""

from __future__ import annotations

import json
import threading

import pytest
import sqlalchemy as sa

from tests.live_databases import fresh_database, postgres_cluster
from ui.live import activities, schema, security, store

SPEC = {"names": ["D1", "D2", "D3", "D4"], "grades": [0, 3, 2, 1], "k": 3, "gain": "linear", "order": [0, 1, 2, 3],
        "other_order": None}


@pytest.fixture(scope="session")
def postgres_server():
    with postgres_cluster() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request, tmp_path):
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'live.sqlite3'}"
    else:
        url = fresh_database(request.getfixturevalue("postgres_server"))
    engine = schema.create_engine(url, pool_size=20, max_overflow=40)
    schema.migrate(engine)
    yield engine
    engine.dispose()


def _open_estimate(engine):
    session, secret = store.create_session(engine)
    activity = store.add_activity(engine, code=session.code, secret=secret, kind="estimate", spec=SPEC)
    store.set_state(engine, code=session.code, secret=secret, activity_id=activity.id, state="open")
    return session, secret, activity


def _submit(engine, code, token, activity_id, value):
    return store.submit_answer(engine, code=code, token=token, activity_id=activity_id, answer={"value": value},
                               scorer=activities.score)


def test_schema_is_versioned_and_migrates_from_version_1(engine):
    # The fixture migrated to the latest version; migrating again changes nothing.
    assert schema.migrate(engine) == schema.LATEST == 3
    with engine.connect() as conn:
        assert conn.execute(sa.select(schema.version_table.c.version)).scalars().all() == [3]
        assert {"leaderboard", "screen_hash"} <= {c["name"] for c in sa.inspect(conn).get_columns("live_sessions")}
        if engine.dialect.name == "sqlite":
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"


def test_migration_from_version_1_keeps_data(tmp_path):
    engine = schema.create_engine(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    assert schema.migrate(engine, target=1) == 1
    with engine.begin() as conn:
        assert "leaderboard" not in {c["name"] for c in sa.inspect(conn).get_columns("live_sessions")}
        conn.execute(sa.text("INSERT INTO live_sessions (code, teacher_hash, title, created_at) "
                             "VALUES ('ABCDEF', :h, '', 1.0)"), {"h": security.digest("s" * 32)})
    assert schema.migrate(engine) == 3
    session = store.find_session(engine, "abc-def")
    assert session is not None and session.leaderboard is False
    assert store.teacher_session(engine, code="ABCDEF", secret="s" * 32).id == session.id
    with pytest.raises(store.NotAuthorized):  # made before migration 3: it has no projector link
        store.screen_session(engine, code="ABCDEF", token=security.screen_token("s" * 32))


def test_concurrent_migrations_apply_each_step_once(tmp_path):
    url = f"sqlite:///{tmp_path / 'race.sqlite3'}"
    results, errors = [], []

    def run():
        try:
            results.append(schema.migrate(schema.create_engine(url)))
        except Exception as error:  # noqa: BLE001 - collected and asserted below
            errors.append(error)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and results == [3, 3, 3, 3]


def test_a_new_connection_waits_to_put_a_busy_file_in_wal_mode(tmp_path):
    """The race above, made certain: a connection holds the write lock of a new file (not yet WAL) for 0.3 s.
    Switching to WAL then failed at once with "database is locked", whatever the busy timeout (1 race in ~30)."""
    import sqlite3
    import time

    path = tmp_path / "busy.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN IMMEDIATE")
    release = threading.Timer(0.3, lambda: holder.execute("COMMIT"))
    release.start()
    started = time.monotonic()
    with schema.create_engine(f"sqlite:///{path}").connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    assert time.monotonic() - started >= 0.25  # it waited for the lock, it did not skip WAL
    release.join()
    holder.close()


def test_session_keeps_only_a_hash_of_the_teacher_secret(engine):
    session, secret = store.create_session(engine, title="Lecture 3")
    assert len(session.code) == 6 and set(session.code) <= set(security.CODE_ALPHABET)
    assert len(secret) >= 32  # token_urlsafe(24): 192 random bits
    with engine.connect() as conn:
        row = conn.execute(sa.select(schema.sessions)).one()
    assert secret not in json.dumps([str(value) for value in row])
    assert row.teacher_hash == security.digest(secret)
    with pytest.raises(store.NotAuthorized):
        store.teacher_session(engine, code=session.code, secret=secret[:-1] + ("A" if secret[-1] != "A" else "B"))


def test_join_by_code_cleans_the_nickname_and_gives_a_token(engine):
    session, _secret = store.create_session(engine)
    student, token = store.join(engine, code=f" {session.code.lower()[:3]}-{session.code[3:]} ",
                                nickname="  <b>Ann</b>\x00\n" + "x" * 40, client="browser-1")
    assert student.nickname == "<b>Ann</b> " + "x" * 13  # inert text, 24 characters at most
    assert store.student_by_token(engine, code=session.code, token=token) == student
    assert store.student_by_token(engine, code=session.code, token=token + "x") is None
    other, _ = store.create_session(engine)
    assert store.student_by_token(engine, code=other.code, token=token) is None  # a token belongs to one session


def test_an_emoji_nickname_keeps_its_joiners(engine):
    """"👩‍🎓 Mia" (woman, zero width joiner, mortarboard: one picture) was kept as "👩 🎓 Mia", a family as three people:
    the joiner, a format character, was dropped with the control characters. It stays between emoji parts only."""
    session, _secret = store.create_session(engine)
    typed = ["👩\u200d🎓 Mia", "👨\u200d👩\u200d👧", "🏳\ufe0f\u200d🌈 Kai", "👩🏽\u200d💻", "A\u200dna",
             "\u202eMia", "x" * 22 + "👩\u200d🎓", "\u200d🎓 Lu"]
    names = [store.join(engine, code=session.code, nickname=name, client=f"b{i}")[0].nickname
             for i, name in enumerate(typed)]
    assert names == ["👩\u200d🎓 Mia", "👨\u200d👩\u200d👧", "🏳\ufe0f\u200d🌈 Kai", "👩🏽\u200d💻", "A na", "Mia",
                     "x" * 22 + "👩", "🎓 Lu"]  # cut at 24 characters: no joiner left hanging at the end
    assert all(len(name) <= schema.NICKNAME_MAX for name in names)


def test_a_nickname_taken_in_the_class_gets_a_number(engine):
    """Two students could both be "Ana": the teacher's results and the leaderboard could not tell them apart."""
    session, _secret = store.create_session(engine)
    names = [store.join(engine, code=session.code, nickname=typed, client=f"b{i}")[0].nickname
             for i, typed in enumerate(["Ana", " ana ", "ANA", "Ana 2x", "", "", "x" * 30, "x" * 24])]
    assert names == ["Ana", "ana 2", "ANA 3", "Ana 2x", "", "", "x" * 24, "x" * 22 + " 2"]
    other, _ = store.create_session(engine)
    assert store.join(engine, code=other.code, nickname="Ana", client="b9")[0].nickname == "Ana"  # per class


def test_two_students_joining_at_once_as_one_nickname_get_two_names(engine, monkeypatch):
    """On PostgreSQL two joins as "Sam" at the same moment each read the class's nicknames before the other's insert
    (read committed), and the teacher had two "Sam"s. The first join is held between reading the names and its
    insert; the second must wait for it (a lock on the session row) and be "Sam 2"."""
    if engine.dialect.name != "postgresql":
        pytest.skip("SQLite's BEGIN IMMEDIATE serialises writing transactions already")
    session, _secret = store.create_session(engine)
    inside, go_on = threading.Event(), threading.Event()
    real, calls, names = security.unique_nickname, [], []

    def held_first(wanted, taken):
        taken = list(taken)
        calls.append(wanted)
        if len(calls) == 1:  # the first join, between reading the nicknames and inserting its own
            inside.set()
            go_on.wait(30)
        return real(wanted, taken)

    monkeypatch.setattr(security, "unique_nickname", held_first)

    def join(client):
        names.append(store.join(engine, code=session.code, nickname="Sam", client=client)[0].nickname)

    first = threading.Thread(target=join, args=("a",))
    first.start()
    assert inside.wait(30)
    second = threading.Thread(target=join, args=("b",))
    second.start()
    with engine.connect() as conn:  # until the second join is done (it did not wait) or waits for a lock
        while second.is_alive() and not conn.execute(sa.text("SELECT count(*) FROM pg_locks WHERE NOT granted")).scalar():
            pass
    go_on.set()
    first.join(30)
    second.join(30)
    assert sorted(names) == ["Sam", "Sam 2"]


def test_wrong_codes_are_rate_limited_per_client_and_per_ip(engine):
    session, _secret = store.create_session(engine)
    window, per_client, per_ip = security.JOIN_LIMITS
    wrong = "ZZZZZZ" if session.code != "ZZZZZZ" else "YYYYYY"
    for _ in range(per_client):
        with pytest.raises(store.JoinRefused):
            store.join(engine, code=wrong, client="guesser", ip="10.0.0.9", at=1000.0)
    with pytest.raises(store.RateLimited):  # even the right code is refused now
        store.join(engine, code=session.code, client="guesser", ip="10.0.0.9", at=1001.0)
    store.join(engine, code=session.code, client="classmate", ip="10.0.0.9", at=1001.0)  # same NAT address, fine
    store.join(engine, code=session.code, client="guesser", ip="10.0.0.9", at=1000.0 + window + 1)  # window over
    for n in range(per_ip):  # new tabs each time: only the per-IP count can stop them
        with pytest.raises(store.JoinRefused):
            store.join(engine, code=wrong, client=f"tab-{n}", ip="10.0.0.9", at=2000.0)
    with pytest.raises(store.RateLimited):
        store.join(engine, code=session.code, client="new-tab", ip="10.0.0.9", at=2000.5)


def test_codes_expire_when_the_session_ends(engine):
    session, secret = store.create_session(engine)
    with pytest.raises(store.NotAuthorized):
        store.end_session(engine, code=session.code, secret="not-the-secret")
    store.end_session(engine, code=session.code, secret=secret)
    with pytest.raises(store.JoinRefused):
        store.join(engine, code=session.code, client="late")


def test_the_same_answer_sent_again_is_one_answer_received(engine):
    """Four taps on "Send my answer" 60 ms apart with the slider at 0.73: the phone said "Answer replaced" and the
    export showed revision 4 for one answer. The same answer again changes nothing (revision 1, its first time);
    another answer after it is a replacement (revision 2)."""
    session, _secret, activity = _open_estimate(engine)
    _student, token = store.join(engine, code=session.code, client="s1")
    taps = [_submit(engine, session.code, token, activity.id, 0.73) for _ in range(4)]
    assert [tap.revision for tap in taps] == [1, 1, 1, 1]
    assert len({tap.submitted_at for tap in taps}) == 1  # the first tap's time: when the answer was given
    (row,) = store.activity_answers(engine, activity.id)
    assert row.revision == 1 and row.answer == {"value": 0.73}
    changed = _submit(engine, session.code, token, activity.id, 0.5)
    assert changed.revision == 2 and store.activity_answers(engine, activity.id)[0].answer == {"value": 0.5}


def test_resubmission_replaces_the_one_answer(engine):
    session, _secret, activity = _open_estimate(engine)
    student, token = store.join(engine, code=session.code, client="s1")
    first = _submit(engine, session.code, token, activity.id, 0.5)
    second = _submit(engine, session.code, token, activity.id, 0.62)
    assert (first.revision, second.revision) == (1, 2)
    rows = store.activity_answers(engine, activity.id)
    assert len(rows) == 1 and rows[0].answer == {"value": 0.62} and rows[0].revision == 2
    # NDCG@3 of grades 0,3,2,1 (linear) = (3/log2 3 + 2/2) / (3 + 2/log2 3 + 1/2) = 2.8928 / 4.7619 = 0.6075
    assert rows[0].points == 1.0 and rows[0].correct and rows[0].label == "0.60"
    assert store.my_answer(engine, student_id=student.id, activity_id=activity.id) == rows[0]


def test_answers_only_while_open_and_only_by_token(engine):
    session, secret, activity = _open_estimate(engine)
    _student, token = store.join(engine, code=session.code, client="s1")
    other_session, _ = store.create_session(engine)
    _outsider, outsider_token = store.join(engine, code=other_session.code, client="s2")
    with pytest.raises(store.NotAuthorized):
        _submit(engine, session.code, "made-up-token", activity.id, 0.5)
    with pytest.raises(store.NotAuthorized):  # a student of another session cannot answer here
        _submit(engine, other_session.code, outsider_token, activity.id, 0.5)
    with pytest.raises(ValueError):
        store.submit_answer(engine, code=session.code, token=token, activity_id=activity.id, answer={"value": 7},
                            scorer=activities.score)
    store.set_state(engine, code=session.code, secret=secret, activity_id=activity.id, state="closed")
    with pytest.raises(store.NotOpen):
        _submit(engine, session.code, token, activity.id, 0.5)
    assert store.activity_answers(engine, activity.id) == []


def test_controls_refuse_a_student_token_and_change_nothing(engine):
    session, secret, activity = _open_estimate(engine)
    _student, token = store.join(engine, code=session.code, client="s1")
    _submit(engine, session.code, token, activity.id, 0.3)
    for state in ("closed", "revealed"):
        with pytest.raises(store.NotAuthorized):
            store.set_state(engine, code=session.code, secret=token, activity_id=activity.id, state=state)
    with pytest.raises(store.NotAuthorized):
        store.export_rows(engine, code=session.code, secret=token)
    with pytest.raises(store.NotAuthorized):
        store.add_activity(engine, code=session.code, secret=None, kind="estimate", spec=SPEC)
    with pytest.raises(store.NotAuthorized):
        store.end_session(engine, code=session.code, secret="")
    assert [a.state for a in store.session_activities(engine, session.id)] == ["open"]
    assert store.find_session(engine, session.code).ended_at is None
    rows = store.export_rows(engine, code=session.code, secret=secret)
    assert [(r["position"], r["label"], r["points"]) for r in rows] == [(1, "0.30", 0.0)]


def test_opening_an_activity_closes_the_previous_one(engine):
    session, secret, first = _open_estimate(engine)
    second = store.add_activity(engine, code=session.code, secret=secret, kind="compare",
                                spec=activities.generate("compare", seed=11))
    store.set_state(engine, code=session.code, secret=secret, activity_id=second.id, state="open")
    assert [(a.position, a.state) for a in store.session_activities(engine, session.id)] == [(1, "closed"), (2, "open")]
    assert store.current_activity(engine, session.id).id == second.id


def test_simultaneous_answers_are_neither_lost_nor_duplicated(engine):
    session, _secret, activity = _open_estimate(engine)
    tokens = [store.join(engine, code=session.code, client=f"s{n}")[1] for n in range(40)]
    errors = []

    def answer(token):
        try:
            _submit(engine, session.code, token, activity.id, 0.5)
            _submit(engine, session.code, token, activity.id, 0.61)
        except Exception as error:  # noqa: BLE001 - collected and asserted below
            errors.append(error)

    threads = [threading.Thread(target=answer, args=(token,)) for token in tokens]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    rows = store.activity_answers(engine, activity.id)
    assert len(rows) == 40 and len({r.student_id for r in rows}) == 40
    assert {(r.revision, r.label) for r in rows} == {(2, "0.60")}


def test_leaderboard_orders_by_points(engine):
    session, secret, activity = _open_estimate(engine)
    _, ann = store.join(engine, code=session.code, nickname="Ann", client="a")
    _, bob = store.join(engine, code=session.code, nickname="Bob", client="b")
    _submit(engine, session.code, ann, activity.id, 0.45)  # off by 0.157: 0 points
    _submit(engine, session.code, bob, activity.id, 0.55)  # off by 0.057: ½ point
    store.set_state(engine, code=session.code, secret=secret, activity_id=activity.id, state="closed")
    assert store.leaderboard(engine, session.id) == [("Bob", 0.5, 1), ("Ann", 0.0, 1)]


def test_leaderboard_leaves_out_the_answers_to_an_open_activity(engine):
    """The projected leaderboard counted the open activity's answers: Ann's total went from 0 to 1 as she answered,
    telling the room her answer was right while the others were still answering. Her points count once the
    answers are closed (when the share correct is shown too)."""
    session, secret, first = _open_estimate(engine)
    _, ann = store.join(engine, code=session.code, nickname="Ann", client="a")
    _, bob = store.join(engine, code=session.code, nickname="Bob", client="b")
    _submit(engine, session.code, ann, first.id, 0.55)  # ½ point
    _submit(engine, session.code, bob, first.id, 0.45)  # 0 points
    store.set_state(engine, code=session.code, secret=secret, activity_id=first.id, state="revealed")
    second = store.add_activity(engine, code=session.code, secret=secret, kind="estimate", spec=SPEC)
    store.set_state(engine, code=session.code, secret=secret, activity_id=second.id, state="open")
    truth = activities.truth("estimate", SPEC)
    _submit(engine, session.code, ann, second.id, round(truth, 2))  # right: 1 point
    assert store.leaderboard(engine, session.id) == [("Ann", 0.5, 1), ("Bob", 0.0, 1)]
    store.set_state(engine, code=session.code, secret=secret, activity_id=second.id, state="closed")
    assert store.leaderboard(engine, session.id) == [("Ann", 1.5, 2), ("Bob", 0.0, 1)]


def test_projector_link_shows_the_session_and_controls_nothing(engine):
    session, secret, activity = _open_estimate(engine)
    screen = security.screen_token(secret)
    assert len(screen) == 32 and screen not in secret
    assert store.screen_session(engine, code=session.code, token=screen).id == session.id
    with pytest.raises(store.NotAuthorized):
        store.screen_session(engine, code=session.code, token=secret)
    with pytest.raises(store.NotAuthorized):
        store.set_state(engine, code=session.code, secret=screen, activity_id=activity.id, state="revealed")
    with pytest.raises(store.NotAuthorized):
        store.export_rows(engine, code=session.code, secret=screen)
    assert store.current_activity(engine, session.id).state == "open"
