"""A whole live class in Chromium: one teacher and three students, each in their own browser context.

Students join by link (two) and by typing the code (one, on a 390×844 touch phone), answer a "which ranking is
better" activity, one reloads mid-activity and keeps their answer, a student's token pasted into a teacher
link is refused by the server (the activity stays open, no control or export appears), the teacher closes and
reveals, and every student sees their own result and the class distribution. The app runs against its own
database (NDCG_LIVE_DB_URL), which the test reads to check what the server stored: an SQLite file, then a
throwaway PostgreSQL cluster (skipped with the reason without PostgreSQL, except under CI=true).
"""

from __future__ import annotations

import os
import re
from urllib.parse import parse_qs, urlparse

import pytest

from tests.browser.conftest import _require_browser, free_port, screenshot, start_app, stop_app, wait_for_app
from tests.live_databases import fresh_database, postgres_cluster
from ui.live import activities, schema, security, store

WAIT = 30_000


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def live_app(request, tmp_path_factory):
    _require_browser()
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('live') / 'live.sqlite3'}"
    else:
        cluster = request.getfixturevalue("postgres_server")
        url = fresh_database(cluster)
    previous = os.environ.get("NDCG_LIVE_DB_URL")
    os.environ["NDCG_LIVE_DB_URL"] = url
    try:
        port = free_port()
        process = start_app(port)
    finally:
        if previous is None:
            os.environ.pop("NDCG_LIVE_DB_URL", None)
        else:
            os.environ["NDCG_LIVE_DB_URL"] = previous
    engine = schema.create_engine(url)
    yield f"http://127.0.0.1:{port}", engine
    engine.dispose()
    stop_app(process)


@pytest.fixture(scope="module")
def postgres_server():
    with postgres_cluster() as url:
        yield url


def _context(browser, *, phone: bool = False):
    if phone:
        return browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    return browser.new_context(viewport={"width": 1280, "height": 720})


def _wait_text(tab, text: str, timeout: float = WAIT) -> None:
    tab.get_by_text(text, exact=False).first.wait_for(state="visible", timeout=timeout)


def _join_by_link(browser, base: str, code: str, nickname: str, *, phone: bool = False):
    context = _context(browser, phone=phone)
    tab = context.new_page()
    tab.goto(f"{base}/live_class?join={code}")
    tab.get_by_role("textbox", name="Nickname (optional)").fill(nickname)
    tab.wait_for_timeout(100)
    tab.get_by_role("button", name="Join").click()
    _wait_text(tab, "you are")
    return context, tab


def _join_by_code(browser, base: str, code: str, *, phone: bool):
    context = _context(browser, phone=phone)
    tab = context.new_page()
    tab.goto(f"{base}/live_class")
    tab.get_by_role("textbox", name="Class code").fill(f"{code[:3].lower()} {code[3:]}")
    tab.wait_for_timeout(100)
    screenshot(tab, "live_join_form_phone")
    tab.get_by_role("button", name="Join").click()
    _wait_text(tab, "you are anonymous")
    return context, tab


def _answer(tab, choice: str) -> None:
    _wait_text(tab, "Which ranking has the higher NDCG@")
    tab.get_by_text(f"Ranking {choice}", exact=True).last.click()
    tab.wait_for_timeout(100)
    tab.get_by_role("button", name=re.compile("Send my answer|Change my answer")).click()
    try:
        _wait_text(tab, f"Ranking {choice}. You can change it")
    except Exception:
        screenshot(tab, "live_failure")
        raise


def test_live_class_teacher_and_three_students(browser, live_app):
    base, engine = live_app
    teacher_context = _context(browser)
    teacher = teacher_context.new_page()
    teacher.goto(f"{base}/live_class")
    teacher.get_by_role("button", name="Start a live session").click()
    _wait_text(teacher, "Join at http")
    query = parse_qs(urlparse(teacher.url).query)
    code, secret = query["code"][0], query["teacher"][0]
    session = store.teacher_session(engine, code=code, secret=secret)

    # Next activity: "Which ranking is better?" from quiz seed 42, added and opened.
    kind = teacher.get_by_test_id("stSelectbox").filter(has_text="Kind")
    kind.wait_for(timeout=WAIT)
    wait_for_app(teacher)
    kind.locator("input").click()
    teacher.get_by_role("option", name="Which ranking is better?").click(timeout=WAIT)
    teacher.wait_for_timeout(100)
    teacher.get_by_role("button", name="Add and open").click()
    _wait_text(teacher, "open for answers")
    _wait_text(teacher, "Joined")
    screenshot(teacher, "live_teacher_opened_1280")
    activity = store.current_activity(engine, session.id)
    assert activity.kind == "compare" and activity.state == "open"
    right = activities.correct_answer("compare", activity.spec)[-1]
    wrong = "A" if right == "B" else "B"

    contexts = [teacher_context]
    try:
        ctx1, ann = _join_by_link(browser, base, code, "Ann <b>x</b>")
        ctx2, bob = _join_by_link(browser, base, code, "Bob", phone=False)
        ctx3, phone = _join_by_code(browser, base, code, phone=True)
        contexts += [ctx1, ctx2, ctx3]
        _answer(ann, right)
        _answer(bob, wrong)
        _answer(phone, wrong)
        _answer(phone, right)  # changes their mind: replaces the answer
        screenshot(phone, "live_student_answered_phone")

        # Reload mid-activity: same student, same stored answer, the choice still selected.
        phone.reload()
        _wait_text(phone, f"Answer replaced: Ranking {right}")
        assert phone.get_by_role("radio", name=f"Ranking {right}").is_checked()

        # A student's token in a teacher link: the server refuses; nothing changes, no control, no export.
        token = parse_qs(urlparse(bob.url).query)["student"][0]
        forged = ctx2.new_page()
        forged.goto(f"{base}/live_class?code={code}&teacher={token}")
        _wait_text(forged, "This teacher link is not valid")
        for label in ("Close", "Reveal", "End the session", "Download every answer (CSV)"):
            assert forged.get_by_role("button", name=label).count() == 0
        assert store.current_activity(engine, session.id).state == "open"
        forged.close()

        rows = store.activity_answers(engine, activity.id)
        assert sorted((r.nickname, r.label, r.revision) for r in rows) == sorted(
            [("Ann <b>x</b>", right, 1), ("Bob", wrong, 1), ("", right, 2)])

        # The view-only projector link, in its own browser: it shows the dashboard and follows the teacher.
        projector_context = _context(browser)
        contexts.append(projector_context)
        projector = projector_context.new_page()
        projector.goto(f"{base}/live_class?code={code}&screen={security.screen_token(secret)}")
        _wait_text(projector, "open for answers")
        assert projector.get_by_role("button", name="Close", exact=True).count() == 0

        # The dashboard's fragment picks the answers up by itself.
        teacher.get_by_test_id("stMetricValue").filter(has_text="3").first.wait_for(timeout=WAIT)
        screenshot(teacher, "live_teacher_open_1280")
        teacher.get_by_role("button", name="Close", exact=True).click()
        _wait_text(teacher, "Most common wrong answer")
        _wait_text(teacher, "67%")
        _wait_text(projector, "answers closed")  # redrawn by its own polling, nobody touched it
        teacher.get_by_role("button", name="Reveal").click()
        _wait_text(teacher, "Answer: Ranking")
        screenshot(teacher, "live_teacher_revealed_1280")
        teacher.set_viewport_size({"width": 1920, "height": 1080})
        teacher.wait_for_timeout(500)
        screenshot(teacher, "live_teacher_revealed_1920")
        teacher.get_by_text("Answer: Ranking").first.scroll_into_view_if_needed()
        screenshot(teacher, "live_teacher_revealed_1920_worked")
        assert store.current_activity(engine, session.id).state == "revealed"
        _wait_text(projector, "Answer: Ranking")
        screenshot(projector, "live_projector_revealed_1280")

        for tab, points in ((ann, "1 point"), (bob, "0 points"), (phone, "1 point")):
            _wait_text(tab, points)
            _wait_text(tab, "The class: 3 answers, 2 right")
            assert tab.get_by_text("Bob").count() == 0 or tab is bob  # no one else's name
        screenshot(phone, "live_student_revealed_phone")
        phone.get_by_text("The class: 3 answers").first.scroll_into_view_if_needed()
        screenshot(phone, "live_student_class_distribution_phone")
        assert ann.get_by_text("<b>x</b>", exact=False).count() >= 1  # the nickname shown as inert text
    finally:
        for context in contexts:
            context.close()
