"""A whole live class in Chromium: one teacher and three students, each in a browser window of their own.

Students join by link (two) and by typing the code (one, on a 390×844 touch phone), answer a "which ranking is
better" activity, one reloads mid-activity and keeps their answer, a student's token pasted into a teacher
link is refused by the server (the activity stays open, no control or export appears), the teacher closes and
reveals, and every student sees their own result and the class distribution. The app runs against its own
database (NDCG_LIVE_DB_URL), which the test reads to check what the server stored: the class of four on a
throwaway PostgreSQL cluster (the database a school's deployment shares between app processes; skipped with the
reason without PostgreSQL, except under CI=true), the reorder activity on an SQLite file. Each journey runs on one
database: the store itself is tested on both in tests/test_live_store.py and tests/test_live_faults.py, and a
browser journey costs Chromium ~20 CPU-seconds.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest

from tests.browser.conftest import _require_browser, free_port, screenshot, start_app, stop_app, wait_for_app
from tests.browser.helpers import drag_row, expect, next_frame, row, wait_for_list
from tests.live_databases import fresh_database, postgres_cluster
from ui.live import activities, schema, security, store

WAIT = 30_000


@pytest.fixture(scope="module")
def live_app(request, tmp_path_factory):
    _require_browser()
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('live') / 'live.sqlite3'}"
    else:
        cluster = request.getfixturevalue("postgres_server")
        url = fresh_database(cluster)
    port = free_port()
    process = start_app(port, env={"NDCG_LIVE_DB_URL": url})
    engine = schema.create_engine(url)
    yield f"http://127.0.0.1:{port}", engine
    engine.dispose()
    stop_app(process)


@pytest.fixture(scope="module")
def postgres_server():
    with postgres_cluster() as url:
        yield url


def _tab(borrow, *, phone: bool = False):
    """A user's tab: a 390x844 touch phone, or a 1280x720 laptop (a classroom projector's size)."""
    tab = borrow(phone=phone)
    if not phone:
        tab.set_viewport_size({"width": 1280, "height": 720})
    return tab


def _wait_text(tab, text: str, timeout: float = WAIT) -> None:
    tab.get_by_text(text, exact=False).first.wait_for(state="visible", timeout=timeout)


def _join_by_link(borrow, base: str, code: str, nickname: str, *, phone: bool = False):
    tab = _tab(borrow, phone=phone)
    tab.goto(f"{base}/live_class?join={code}")
    tab.get_by_role("textbox", name="Nickname (optional)").fill(nickname)
    tab.wait_for_timeout(100)
    tab.get_by_role("button", name="Join").click()
    _wait_text(tab, "you are")
    return tab


def _join_by_code(borrow, base: str, code: str, *, phone: bool):
    tab = _tab(borrow, phone=phone)
    tab.goto(f"{base}/live_class")
    tab.get_by_role("textbox", name="Class code").fill(f"{code[:3].lower()} {code[3:]}")
    tab.wait_for_timeout(100)
    screenshot(tab, "live_join_form_phone")
    tab.get_by_role("button", name="Join").click()
    _wait_text(tab, "you are anonymous")
    return tab


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


@pytest.mark.parametrize("live_app", ["postgresql"], indirect=True)
def test_live_class_teacher_and_three_students(borrow, live_app):
    base, engine = live_app
    teacher = _tab(borrow)
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
    # A quick teacher: "Add and open" 100 ms after the choice, before the page has redrawn for it, adds that kind.
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

    ann = _join_by_link(borrow, base, code, "Ann <b>x</b>")
    # A name longer than the 24 kept, typed in one go as a paste is: the box once refused it whole (anonymous).
    bob = _join_by_link(borrow, base, code, "Bob Alexander Ocasio-Smithson 7B", phone=False)
    phone = _join_by_code(borrow, base, code, phone=True)
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
    forged = _tab(borrow)
    forged.goto(f"{base}/live_class?code={code}&teacher={token}")
    _wait_text(forged, "This teacher link is not valid")
    wait_for_app(forged)  # the whole run drawn (no control comes after the message)
    for label in ("Open", "Close", "Reveal", "End the session", "Download every answer (CSV)"):
        assert forged.get_by_role("button", name=label, exact=True).count() == 0
    with pytest.raises(store.NotAuthorized):  # and the store itself refuses the student's token as a teacher's
        store.set_state(engine, code=code, secret=token, activity_id=activity.id, state="closed")
    assert store.current_activity(engine, session.id).state == "open"

    rows = store.activity_answers(engine, activity.id)
    assert sorted((r.nickname, r.label, r.revision) for r in rows) == sorted(
        [("Ann <b>x</b>", right, 1), ("Bob Alexander Ocasio-Smi", wrong, 1), ("", right, 2)])

    # The view-only projector link, in a tab of its own: it shows the dashboard and follows the teacher.
    projector = _tab(borrow)
    projector.goto(f"{base}/live_class?code={code}&screen={security.screen_token(secret)}")
    _wait_text(projector, "open for answers")
    # The dashboard's metrics are drawn after where the teacher's controls would be: once they show, and the run
    # has finished, a control drawn by mistake would be on the page.
    projector.get_by_test_id("stMetric").filter(has_text="Answered").wait_for(timeout=WAIT)
    wait_for_app(projector)
    for label in ("Open", "Close", "Reveal", "End the session", "Download every answer (CSV)"):
        assert projector.get_by_role("button", name=label, exact=True).count() == 0

    # The dashboard's fragment picks the answers up by itself.
    answered = teacher.get_by_test_id("stMetric").filter(has_text="Answered").get_by_test_id("stMetricValue")
    expect()(answered).to_have_text("3", timeout=WAIT)  # "Joined" says 3 from the start: Answered must follow
    screenshot(teacher, "live_teacher_open_1280")
    teacher.get_by_role("button", name="Close", exact=True).click()
    _wait_text(teacher, "Most common answer short of full marks")
    _wait_text(teacher, "67%")
    _wait_text(projector, "answers closed")  # redrawn by its own polling, nobody touched it
    teacher.get_by_role("button", name="Reveal").click()
    _wait_text(teacher, "Answer: Ranking")
    screenshot(teacher, "live_teacher_revealed_1280")
    teacher.set_viewport_size({"width": 1920, "height": 1080})
    next_frame(teacher)
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


# --- "Fix the ranking": students reorder with the ranked list (mouse drags, keyboard), the teacher scores --------

# Every table of the main area shows all its columns (none scrolled away or cut by a sidebar).
TABLES_FIT = """() => [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stTable"]')]
  .filter((table) => table.offsetParent !== null)
  .map((table) => [table, ...table.querySelectorAll('div')].every((el) => el.scrollWidth <= el.clientWidth + 1)
    && table.getBoundingClientRect().right <= document.documentElement.clientWidth)"""


def _settled(tab, names: list[str]) -> None:
    """Wait until the ranked list shows ``names`` with no move waiting for the server."""
    wait_for_list(tab, names, timeout=WAIT)


def _chart_bars(tab) -> dict[str, int]:
    """The live chart's bars as plotly drew them: label -> students."""
    return tab.evaluate("""() => {
      const plot = document.querySelector('[data-testid="stPlotlyChart"] .js-plotly-plot');
      const bars = plot.data[0];
      return Object.fromEntries(bars.x.map((label, i) => [label, bars.y[i]]));
    }""")


def _no_settings_sidebar(tab) -> None:
    """The Live class page draws no metric settings, and its sidebar starts closed (the page gets the width)."""
    assert tab.get_by_text("Metric settings").count() == 0
    assert not tab.get_by_test_id("stSidebar").is_visible() or \
        tab.get_by_test_id("stSidebar").get_attribute("aria-expanded") == "false"
    assert not {"gain", "base", "z", "k"} & set(parse_qs(urlparse(tab.url).query))


@pytest.mark.parametrize("live_app", ["sqlite"], indirect=True)
def test_live_reorder_activity_dragged_and_keyed_then_scored(borrow, live_app):
    """Seed 3's "Fix the ranking": D1 D4 D2 D5 D3 D6 with grades 2 3 3 0 1 0 (linear gain, k = 6).

    Kim drags D1 below D2 and D3 above D5: D4 D2 D1 D3 D5 D6, the ideal grades 3 3 2 1 0 0 in the 2 moves
    needed (1 point). Lee, on a phone with a keyboard, presses Alt+↓ once on D1: D4 D1 D2 D5 D3 D6, grades
    3 2 3 0 1 0, NDCG = (3 + 2/log2 3 + 3/2 + 1/log2 6) / (3 + 3/log2 3 + 2/2 + 1/log2 5) = 6.1487 / 6.3235
    = 0.9724 (0 points: not the best order).
    """
    import math

    base, engine = live_app
    teacher = _tab(borrow)
    teacher.goto(f"{base}/live_class")
    teacher.get_by_role("button", name="Start a live session").click()
    _wait_text(teacher, "Join at http")
    wait_for_app(teacher)
    _no_settings_sidebar(teacher)
    query = parse_qs(urlparse(teacher.url).query)
    code, secret = query["code"][0], query["teacher"][0]
    session = store.teacher_session(engine, code=code, secret=secret)
    # The settings panel (teacher and projector links, the End button), opened: it stays open through "Add and
    # open" (it folded shut whenever the page above it changed shape, and the teacher had to reopen it each time).
    settings = teacher.locator(".st-key-live_settings_open details")
    teacher.get_by_text("Teacher link and session settings").click()
    expect()(settings).to_have_attribute("open", "")

    kind = teacher.get_by_test_id("stSelectbox").filter(has_text="Kind")
    kind.locator("input").click()
    teacher.get_by_role("option", name="Fix the ranking").click(timeout=WAIT)
    # Typed and clicked at once: the button reads the seed the browser holds, not the one of the last redraw.
    teacher.get_by_role("spinbutton", name="Quiz seed").fill("3")
    teacher.get_by_role("button", name="Add and open").click()
    _wait_text(teacher, "open for answers")
    activity = store.current_activity(engine, session.id)
    assert (activity.kind, activity.state) == ("reorder", "open")
    assert activity.spec == activities.generate("reorder", seed=3)
    assert [activity.spec["names"][i] for i in activity.spec["order"]] == ["D1", "D4", "D2", "D5", "D3", "D6"]
    _wait_text(teacher, "Joined")
    wait_for_app(teacher)
    expect()(settings).to_have_attribute("open", "")
    fits = teacher.evaluate(TABLES_FIT)
    assert fits and all(fits), fits  # the starting list's Grade and Counts columns are whole
    reveal = teacher.get_by_role("button", name="Reveal").bounding_box()
    assert reveal["y"] + reveal["height"] <= 720  # the controls fit the projector without scrolling
    screenshot(teacher, "live_teacher_reorder_open_1280")

    kim = _join_by_link(borrow, base, code, "Kim")
    lee = _join_by_link(borrow, base, code, "Lee", phone=True)
    start = ["D1", "D4", "D2", "D5", "D3", "D6"]
    for tab in (kim, lee):
        _settled(tab, start)
        _no_settings_sidebar(tab)

    # Kim: two mouse drags, each waited for (the list and the move count follow).
    drag_row(kim, 0, 2)
    _settled(kim, ["D4", "D2", "D1", "D5", "D3", "D6"])
    drag_row(kim, 4, 3)
    best = ["D4", "D2", "D1", "D3", "D5", "D6"]
    _settled(kim, best)
    _wait_text(kim, "Moves so far: 2")
    kim.get_by_role("button", name="Send my answer").click()
    _wait_text(kim, "Answer received: your order, 2 moves")

    # Lee: the keyboard, on the focused row (focus follows the row).
    row(lee, "D1").focus()
    lee.keyboard.press("Alt+ArrowDown")
    keyed = ["D4", "D1", "D2", "D5", "D3", "D6"]
    _settled(lee, keyed)
    _wait_text(lee, "Moves so far: 1")
    screenshot(lee, "live_student_reorder_phone")
    lee.get_by_role("button", name="Send my answer").click()
    _wait_text(lee, "Answer received: your order, 1 move")

    # What the server stored: the orders (indices into the spec's names), moves, labels and points.
    index = {name: i for i, name in enumerate(activity.spec["names"])}
    reached = (3 + 2 / math.log2(3) + 3 / 2 + 1 / math.log2(6)) / (3 + 3 / math.log2(3) + 2 / 2 + 1 / math.log2(5))
    assert round(reached, 4) == 0.9724
    rows = {r.nickname: r for r in store.activity_answers(engine, activity.id)}
    assert {name: (r.answer, r.label, r.points, r.correct) for name, r in rows.items()} == {
        "Kim": ({"order": [index[n] for n in best], "moves": 2}, "best in 2 moves", 1.0, True),
        "Lee": ({"order": [index[n] for n in keyed], "moves": 1}, f"NDCG {reached:.2f}", 0.0, False),
    }

    # The teacher's dashboard picks both up by itself; closing shows the share correct and the slip.
    teacher.get_by_test_id("stMetric").filter(has_text="Answered").get_by_text("2", exact=True).wait_for(timeout=WAIT)
    teacher.wait_for_function(
        """() => { const p = document.querySelector('[data-testid="stPlotlyChart"] .js-plotly-plot');
                   return p && p.data && p.data[0].x.length === 2; }""", timeout=WAIT)
    # Before the reveal the bars say how many moves, not which answer is best (it read "best in 2 moves").
    assert _chart_bars(teacher) == {"2 moves": 1, "1 move": 1}
    teacher.get_by_role("button", name="Close", exact=True).click()
    _wait_text(teacher, "50%")
    _wait_text(teacher, "Most common answer short of full marks: NDCG 0.97 (1 student)")
    teacher.get_by_role("button", name="Reveal").click()
    _wait_text(teacher, "Best order")
    wait_for_app(teacher)
    # The worked calculation's code block draws after the rest of the reveal (its highlighter loads on first use).
    expect()(teacher.get_by_test_id("stCode").filter(has_text="NDCG@6 = ").first).to_be_visible(timeout=WAIT)
    worked = "\n".join(teacher.get_by_test_id("stCode").all_inner_texts())
    assert "NDCG@6 = " in worked and worked.rstrip().endswith("= 1.000")  # the best order's NDCG
    screenshot(teacher, "live_teacher_reorder_revealed_1280")
    teacher.set_viewport_size({"width": 1920, "height": 1080})
    teacher.get_by_test_id("stMain").evaluate("(main) => main.scrollTo(0, 0)")
    wait_for_app(teacher)
    fits = teacher.evaluate(TABLES_FIT)
    assert fits and all(fits), fits  # an empty list would be no table at all
    screenshot(teacher, "live_teacher_reorder_revealed_1920")

    _wait_text(kim, "Your answer: best in 2 moves · 1 point")
    _wait_text(lee, "Your answer: NDCG 0.97 · 0 points")
    for tab in (kim, lee):
        _wait_text(tab, "The class: 2 answers, 1 right")
    assert lee.get_by_text("Kim").count() == 0 and kim.get_by_text("Lee").count() == 0
    screenshot(lee, "live_student_reorder_revealed_phone")


def test_student_phone_shows_reconnecting_while_the_database_is_down(borrow):
    """PostgreSQL stopped for 10 s under a student's open phone page: the page says "Reconnecting", an answer
    sent meanwhile is not called received, and once the database is back it is written and acknowledged."""
    import time

    from tests.live_databases import require_postgres, running_postgres

    _require_browser()
    require_postgres()
    with running_postgres() as cluster:
        url = fresh_database(cluster.url)
        engine = schema.create_engine(url, pool_pre_ping=True)
        schema.migrate(engine)
        session, secret = store.create_session(engine)
        activity = store.add_activity(engine, code=session.code, secret=secret, kind="compare",
                                      spec=activities.generate("compare", seed=42))
        store.set_state(engine, code=session.code, secret=secret, activity_id=activity.id, state="open")
        port = free_port()
        process = start_app(port, env={"NDCG_LIVE_DB_URL": url})
        try:
            phone = _join_by_link(borrow, f"http://127.0.0.1:{port}", session.code, "Kai", phone=True)
            _wait_text(phone, "Which ranking has the higher NDCG@")
            cluster.stop()
            down_at = time.monotonic()
            _wait_text(phone, "Reconnecting to the class")  # the 2 s poll finds the database gone
            screenshot(phone, "live_student_reconnecting_phone")
            phone.get_by_text("Ranking A", exact=True).last.click()
            phone.get_by_role("button", name="Send my answer").click()
            # The poll's warning is already up; the click's answer, kept, adds its own under the button.
            expect()(phone.get_by_text("Reconnecting to the class")).to_have_count(2, timeout=WAIT)
            assert phone.get_by_text("Answer received").count() == 0  # never a false acknowledgement
            # The outage is what is under test and must last 10 s: this pause is its length, not a wait for the app.
            time.sleep(max(0.0, down_at + 10 - time.monotonic()))
            assert phone.get_by_text("Reconnecting to the class").count() == 2  # both still up after 10 s
            assert phone.get_by_text("Answer received").count() == 0
            cluster.start()
            _wait_text(phone, "Answer received: Ranking A")  # the kept answer, re-sent by the next poll
            assert [(r.label, r.revision) for r in store.activity_answers(engine, activity.id)] == [("A", 1)]
        finally:
            stop_app(process)
            engine.dispose()


@pytest.mark.parametrize("live_app", ["sqlite"], indirect=True)
def test_a_student_who_closed_the_tab_joins_again_as_the_same_student(borrow, live_app):
    """A phone that lost the student's tab: joining again with the same nickname in the same browser finds the place
    the student page left in its storage (ui/live/device.py): the same student, not a second one."""
    base, engine = live_app
    schema.migrate(engine)  # (the app creates the tables on its first use; this test starts before any)
    session, _secret = store.create_session(engine)
    first = _join_by_link(borrow, base, session.code, "Ana", phone=True)
    token = parse_qs(urlparse(first.url).query)["student"][0]
    first.wait_for_function("(code) => localStorage.getItem('ndcg-live:' + code) !== null", arg=session.code,
                            timeout=WAIT)
    first.close()  # closed by mistake: its address, the student's place, is gone
    again = _tab(borrow, phone=True)
    again.goto(f"{base}/live_class?join={session.code}")
    again.wait_for_function("() => window.__ndcgLivePlacesRead === true", timeout=WAIT)
    again.get_by_role("textbox", name="Nickname (optional)").fill("Ana")
    again.get_by_role("button", name="Join").click()
    _wait_text(again, "Welcome back, Ana: you are the same student as before")
    assert parse_qs(urlparse(again.url).query)["student"][0] == token
    assert store.student_count(engine, session.id) == 1
    screenshot(again, "live_welcome_back_phone")



@pytest.mark.parametrize("live_app", ["sqlite"], indirect=True)
def test_add_and_open_low_on_the_page_brings_the_new_activity_into_view(borrow, live_app):
    """The picker sits under the current activity: after "Add and open" there, the teacher stayed scrolled down with
    the new question (the one the projector and the phones now show) above the screen."""
    base, engine = live_app
    schema.migrate(engine)
    session, secret = store.create_session(engine)
    first = store.add_activity(engine, code=session.code, secret=secret, kind="estimate",
                               spec=activities.generate("estimate", seed=0))
    store.set_state(engine, code=session.code, secret=secret, activity_id=first.id, state="open")
    teacher = _tab(borrow)
    teacher.goto(f"{base}/live_class?code={session.code}&teacher={secret}")
    _wait_text(teacher, "Activity 1")
    wait_for_app(teacher)
    add = teacher.get_by_role("button", name="Add and open")
    add.scroll_into_view_if_needed()
    current = teacher.locator(".st-key-live_current_activity")
    assert current.bounding_box()["y"] < 0  # the current activity is above the screen
    add.click()
    _wait_text(teacher, "Activity 2")
    expect()(current.get_by_text("Activity 2", exact=False).first).to_be_in_viewport(timeout=WAIT)
    header = teacher.get_by_test_id("stHeader").bounding_box()
    assert current.bounding_box()["y"] >= header["y"] + header["height"] - 1  # not under Streamlit's top bar
    screenshot(teacher, "live_teacher_after_add_and_open")


@pytest.mark.parametrize("live_app", ["sqlite"], indirect=True)
def test_a_teacher_who_opens_the_live_class_again_is_offered_the_running_class(borrow, live_app):
    """The lesson plan's Live class links open a new tab, where only "Start a live session" was offered: mid-lesson
    a teacher started a second class by mistake. The teacher's page leaves its place in the browser's storage (as a
    student's does), and the landing in another tab of the same browser offers "Back to class", which opens the
    dashboard of the running class."""
    base, engine = live_app
    schema.migrate(engine)
    session, secret = store.create_session(engine)
    teacher = _tab(borrow)
    teacher.goto(f"{base}/live_class?code={session.code}&teacher={secret}")
    teacher.wait_for_function("(code) => localStorage.getItem('ndcg-live:teacher:' + code) !== null",
                              arg=session.code, timeout=WAIT)
    again = _tab(borrow)  # a new tab of the same browser (the plan's link)
    again.goto(f"{base}/live_class")
    back = again.get_by_role("button", name=f"Back to class {security.shown_code(session.code)}")
    back.wait_for(timeout=WAIT)
    expect()(again.get_by_role("button", name="Start another live session")).to_be_visible()
    screenshot(again, "live_teacher_back_to_class")
    back.click()
    again.wait_for_url(re.compile(r"teacher="), timeout=WAIT)
    assert parse_qs(urlparse(again.url).query)["teacher"] == [secret]
    _wait_text(again, "Join at")  # the dashboard's join band


FOCUSED_IN = """(container) => {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  return !!el && el !== document.body && !!el.closest('.' + container);
}"""


def _tab_to(tab, test: str, arg=None, *, key: str = "Tab") -> None:
    """Press ``key`` until the focused element ``el`` passes ``test`` (a JS expression of ``el`` and ``arg``)."""
    check = f"(arg) => {{ const el = document.activeElement; return !!el && el !== document.body && Boolean({test}); }}"
    for _ in range(200):
        if tab.evaluate(check, arg):
            return
        tab.keyboard.press(key)
    raise AssertionError(f"no element where {test} ({arg!r}) took the focus")


def _start_session_by_keyboard(borrow, base: str, engine):
    """A teacher's tab that tabbed to "Start a live session" and pressed Enter: the tab and the class code."""
    schema.migrate(engine)
    teacher = _tab(borrow)
    teacher.goto(f"{base}/live_class")
    wait_for_app(teacher)
    _tab_to(teacher, "el.tagName === 'BUTTON' && el.innerText.includes('Start a live session')")
    teacher.keyboard.press("Enter")
    teacher.wait_for_url(re.compile(r"teacher="), timeout=WAIT)
    return teacher, parse_qs(urlparse(teacher.url).query)["code"][0]


@pytest.mark.parametrize("live_app", ["sqlite"], indirect=True)
def test_the_keyboard_focus_follows_the_teachers_and_students_actions(borrow, live_app):
    """With the keyboard alone: "Start a live session", "Join", "Close" and "Reveal" each take away (or disable) the
    button pressed, and the focus fell to the page: a screen reader said nothing of the new page or state, and the
    next Tab started from the top. The focus now lands on what the action brought: the teacher's join band, the
    student's question, the current activity."""
    base, engine = live_app
    teacher, code = _start_session_by_keyboard(borrow, base, engine)
    teacher.wait_for_function(FOCUSED_IN, arg="st-key-live_header", timeout=WAIT)
    _tab_to(teacher, "el.tagName === 'BUTTON' && el.innerText.trim() === 'Add and open'")
    teacher.keyboard.press("Enter")
    _wait_text(teacher, "Activity 1")

    student = _tab(borrow)
    student.goto(f"{base}/live_class")
    wait_for_app(student)
    _tab_to(student, "el.getAttribute('aria-label') === 'Class code'")
    student.keyboard.type(code)
    _tab_to(student, "el.tagName === 'BUTTON' && el.innerText.trim() === 'Join'")
    student.keyboard.press("Enter")
    _wait_text(student, "1. Predict the NDCG")
    student.wait_for_function(FOCUSED_IN, arg="st-key-live_student", timeout=WAIT)
    student.keyboard.press("Tab")  # on into the question (its slider), not back to the page's top
    student.wait_for_function(FOCUSED_IN, arg="st-key-live_student", timeout=WAIT)

    session = store.find_session(engine, code)
    for action, badge in (("Close", "answers closed"), ("Reveal", "answer revealed")):
        _tab_to(teacher, "el.tagName === 'BUTTON' && el.innerText.trim() === arg && !el.disabled", action,
                key="Shift+Tab")
        teacher.keyboard.press("Enter")
        _wait_text(teacher, badge)  # the button pressed is disabled now
        expect()(teacher.get_by_role("button", name=action)).to_be_disabled(timeout=WAIT)
        teacher.wait_for_function("() => document.activeElement.classList.contains('st-key-live_current_activity')",
                                  timeout=WAIT)  # the activity itself (the disabled button cannot hold the focus)
    assert store.current_activity(engine, session.id).state == "revealed"
    _wait_text(teacher, "Worked calculation")
    screenshot(teacher, "live_teacher_keyboard_reveal")


@pytest.mark.parametrize("live_app", ["sqlite"], indirect=True)
def test_ending_the_session_by_keyboard_keeps_the_focus_on_the_page(borrow, live_app):
    """"End the session" pressed by keyboard is not drawn for an ended session: the focus fell to the page's body and
    the next Tab started again from the sidebar's first link. The focus now lands on the notice that the session has
    ended (read out, brought into view), and the next Tab goes on from there."""
    base, engine = live_app
    teacher, code = _start_session_by_keyboard(borrow, base, engine)
    _tab_to(teacher, "el.tagName === 'SUMMARY' && el.innerText.includes('Teacher link and session settings')")
    teacher.keyboard.press("Enter")  # opens the settings
    expect()(teacher.locator(".st-key-live_settings_open details")).to_have_attribute("open", "")
    _tab_to(teacher, "el.tagName === 'BUTTON' && el.innerText.includes('End the session')")
    teacher.keyboard.press("Enter")
    _wait_text(teacher, "This session has ended")
    assert store.find_session(engine, code).ended
    teacher.wait_for_function(FOCUSED_IN, arg="st-key-live_ended", timeout=WAIT)
    assert teacher.get_by_text("This session has ended").first.evaluate(
        "(el) => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }")
    screenshot(teacher, "live_teacher_keyboard_end")
    teacher.keyboard.press("Tab")  # on down the page, not back to the sidebar
    assert teacher.evaluate("() => !document.activeElement.closest('[data-testid=\"stSidebar\"]') && "
                            "document.activeElement !== document.body")
