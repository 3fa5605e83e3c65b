"""The Live class page under AppTest: a teacher and students as separate AppTest sessions sharing one database.

The database is an SQLite file per test, given to the app through NDCG_LIVE_DB_URL (the page's documented
environment variable), so the store can be checked directly against what the page did.
"""

from __future__ import annotations

import pytest

from tests.conftest import copy_links, run_page
from ui.live import activities, security, store


@pytest.fixture
def engine(live_db):
    return live_db  # tests/conftest.py: the throwaway database the page reads


def _texts(at) -> str:
    parts = [e.value for kind in ("markdown", "caption", "success", "error", "warning", "info", "subheader", "code")
             for e in getattr(at, kind)]
    return "\n".join([*(str(p) for p in parts), *copy_links(at).values()])


def _teacher(engine):
    at = run_page("live_class")
    at.button(key="live_start").click().run()
    code, secret = at.query_params["code"], at.query_params["teacher"]
    assert store.teacher_session(engine, code=code, secret=secret).code == code
    return at, code, secret


def _student(code, nickname=""):
    at = run_page("live_class", query_params={"join": code})
    at.text_input(key="live_join_nickname").input(nickname)
    at.button[0].click().run()  # the form's Join button (the only button on a join link)
    assert "student" in at.query_params, _texts(at)
    return at


def test_landing_offers_join_and_start(engine):
    at = run_page("live_class")
    assert not at.exception
    assert [b.label for b in at.button] == ["Join", "Start a live session"]


def test_teacher_student_round_trip(engine):
    teacher, code, secret = _teacher(engine)
    assert f"{code[:3]}&nbsp;{code[3:]}" in str([h.proto.body for h in teacher.get("html")])
    assert f"live_class?join={code}" in _texts(teacher).replace("\\", "")
    teacher.number_input(key="live_seed").set_value(42).run()
    teacher.button(key="live_add").click().run()  # an estimate activity from quiz seed 42, opened
    activity = store.current_activity(engine, store.find_session(engine, code).id)
    assert activity.state == "open" and activity.spec == activities.generate("estimate", seed=42)

    student = _student(code, nickname="<b>Bo</b> **x**")
    token = student.query_params["student"]
    assert "Waiting" not in _texts(student) and "What is NDCG@" in _texts(student)
    truth = activities.truth("estimate", activity.spec)
    # Slider moved and "Send" pressed in the same run: the answer sent is the slider's new value.
    student.slider(key=f"live_answer_{activity.id}").set_value(round(truth, 2))
    student.button(key=f"live_send_{activity.id}").click().run()
    assert "✓ Answer received" in _texts(student)
    [row] = store.activity_answers(engine, activity.id)
    assert row.answer == {"value": round(truth, 2)} and row.correct and row.nickname == "<b>Bo</b> **x**"

    # A reload (a fresh session on the same address) finds the same student and the stored answer.
    again = run_page("live_class", query_params={"code": code, "student": token})
    assert again.slider(key=f"live_answer_{activity.id}").value == round(truth, 2)
    assert "✓ Answer received" in _texts(again)

    teacher.run()
    assert [m.value for m in teacher.metric][:2] == ["1", "1"]  # joined, answered
    teacher.button(key=f"live_closed_{activity.id}").click().run()
    assert teacher.metric[2].value == "100%"
    teacher.button(key=f"live_revealed_{activity.id}").click().run()
    assert f"NDCG@{activity.spec['k']} = " in _texts(teacher)  # the worked calculation
    again.run()
    assert "1 point" in _texts(again) and "Worked calculation" in _texts(again)
    assert "The class:** 1 answer, 1 right" in _texts(again)
    assert not again.dataframe  # no names while the leaderboard is off
    teacher.toggle(key="live_leaderboard").set_value(True).run()
    assert store.find_session(engine, code).leaderboard
    again.run()
    [board] = again.dataframe
    assert board.value.to_dict("list") == {"Nickname": ["<b>Bo</b> **x**"], "Points": [1.0], "Answers": [1]}


def test_a_student_token_cannot_control_or_export(engine):
    _teacher_at, code, secret = _teacher(engine)
    spec = activities.generate("compare", seed=5)
    activity = store.add_activity(engine, code=code, secret=secret, kind="compare", spec=spec)
    store.set_state(engine, code=code, secret=secret, activity_id=activity.id, state="open")
    student = _student(code)
    token = student.query_params["student"]
    forged = run_page("live_class", query_params={"code": code, "teacher": token})
    assert "This teacher link is not valid" in _texts(forged)
    assert [b.label for b in forged.button] == [] and not forged.get("download_button")
    assert store.current_activity(engine, activity.session_id).state == "open"


def test_wrong_codes_are_refused_then_rate_limited(engine):
    at = run_page("live_class")
    for _ in range(security.JOIN_LIMITS[1]):
        at.text_input(key="live_join_code").input("ZZZ ZZZ")
        at.button[0].click().run()
        assert "No active session has this code." in _texts(at)
    at.text_input(key="live_join_code").input("ZZZ ZZZ")
    at.button[0].click().run()
    assert "Too many wrong codes" in _texts(at)


def test_ranking_table_lists_each_document_with_its_own_grade():
    from ui.live import widgets

    spec = {"names": ["D1", "D2", "D3", "D4"], "grades": [0, 3, 2, 1], "k": 3, "gain": "linear", "order": [1, 0, 3, 2]}
    frame = widgets.ranking_frame(activities.question_of("estimate", spec))
    assert frame.index.tolist() == [1, 2, 3, 4]
    assert frame.to_dict("list") == {"Document": ["D2", "D1", "D4", "D3"], "Grade": ["3", "0", "1", "2"],
                                     "≤ k": ["✓", "✓", "✓", "–"]}
    # Every rank within k: no column of ✓ alone (two such tables side by side were cut at 1366 px).
    whole = widgets.ranking_frame(activities.question_of("estimate", {**spec, "k": 4}))
    assert list(whole.columns) == ["Document", "Grade"]


def test_reorder_activity_by_drag_protocol(engine):
    from ui.ranked_list import moves_to

    _teacher_at, code, secret = _teacher(engine)
    spec = {"names": ["D1", "D2", "D3", "D4"], "grades": [0, 3, 2, 1], "k": 2, "gain": "linear", "order": [0, 1, 2, 3]}
    activity = store.add_activity(engine, code=code, secret=secret, kind="reorder", spec=spec)
    store.set_state(engine, code=code, secret=secret, activity_id=activity.id, state="open")
    student = _student(code)
    key = f"live_drag_{activity.id}"
    # Drag D1 (grade 0) from rank 1 to the bottom: grades 3, 2, 1, 0, the best NDCG@2 in 1 move.
    student.session_state[key] = moves_to(student.session_state, key, [1, 2, 3, 0])
    student.run()
    assert "Moves so far: 1" in _texts(student)
    student.button(key=f"live_send_{activity.id}").click().run()
    [row] = store.activity_answers(engine, activity.id)
    assert (row.answer, row.label, row.points) == ({"order": [1, 2, 3, 0], "moves": 1}, "best in 1 move", 1.0)


def test_reorder_activity_by_buttons_counts_a_carried_document_once(engine):
    """Quiz seed 42's "Fix the ranking": D2 D5 D4 D3 D1, best NDCG@3 in 2 moves (D4 to the top, D1 to rank 2). By
    ▲ clicks, one run each, that is 2 clicks on D4 and 3 on D1: 2 moves (each click was counted: 5, half a point,
    and the reveal then told the student they had moved documents below the cutoff)."""
    from tests.test_quiz import step_moves

    _teacher_at, code, secret = _teacher(engine)
    spec = activities.generate("reorder", seed=42)
    question = activities.question_of("reorder", spec)
    assert question.ranked_names() == ["D2", "D5", "D4", "D3", "D1"] and question.fewest_moves() == 2
    activity = store.add_activity(engine, code=code, secret=secret, kind="reorder", spec=spec)
    store.set_state(engine, code=code, secret=secret, activity_id=activity.id, state="open")
    student = _student(code)
    key = f"live_drag_{activity.id}"
    order = list(question.order)
    for name in ("D4", "D4", "D1", "D1", "D1"):
        names, grades = question.ranked_names(order), question.ranked_grades(order)
        student.session_state[key] = step_moves(student, key, names, grades, name, 1)
        student.run()
        at = names.index(name)
        order[at - 1], order[at] = order[at], order[at - 1]
    assert question.ranked_names(order) == ["D4", "D1", "D2", "D5", "D3"]
    assert "Moves so far: 2" in _texts(student)
    student.button(key=f"live_send_{activity.id}").click().run()
    [row] = store.activity_answers(engine, activity.id)
    assert (row.answer, row.label, row.points) == ({"order": order, "moves": 2}, "best in 2 moves", 1.0)


def test_csv_export_defuses_spreadsheet_formulas():
    from ui.live.export import csv_safe

    assert [csv_safe(v) for v in ["=HYPERLINK(\"x\")", "+1", "-2", "@SUM(A1)", "Ann", 0.5, "-"]] == [
        "'=HYPERLINK(\"x\")", "'+1", "'-2", "'@SUM(A1)", "Ann", 0.5, "'-"]


def test_projector_link_shows_the_dashboard_without_controls(engine):
    teacher, code, secret = _teacher(engine)
    teacher.button(key="live_add").click().run()
    screen = security.screen_token(secret)
    assert screen in _texts(teacher)  # the teacher page offers the projector link
    projector = run_page("live_class", query_params={"code": code, "screen": screen})
    assert not projector.exception
    assert [m.label for m in projector.metric] == ["Joined", "Answered", "Correct"]
    assert [b.label for b in projector.button] == [] and secret not in _texts(projector)
    forged = run_page("live_class", query_params={"code": code, "screen": secret})
    assert "This projector link does not show any session" in _texts(forged)
    # Once the session ends, the projector does not point to answers "below": they are the teacher's only.
    store.end_session(engine, code=code, secret=secret)
    ended = [i.value for i in run_page("live_class", query_params={"code": code, "screen": screen}).info]
    assert "This session has ended: its code no longer admits anyone." in ended
    teacher.run()
    assert "This session has ended: its code no longer admits anyone. The answers stay available below." in [
        i.value for i in teacher.info]


def _polls(at) -> dict[str, float]:
    """Run ``at`` and return the fragments its browser reruns on a timer (``st.fragment(run_every=…)``): {id: s}.

    AppTest drops Streamlit's auto-rerun messages, so they are read off the run's messages on their way to it.
    """
    from streamlit.testing.v1 import local_script_runner

    parse, polls = local_script_runner.parse_tree_from_messages, {}

    def keep(messages):
        polls.update({m.auto_rerun.fragment_id: m.auto_rerun.interval for m in messages
                      if m.WhichOneof("type") == "auto_rerun"})
        return parse(messages)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(local_script_runner, "parse_tree_from_messages", keep)
        at.run()
    return polls


def _tick(at, fragment_id: str) -> None:
    """What the browser does when a poll's timer fires: rerun that fragment alone (Streamlit's auto-rerun request)."""
    from streamlit.testing.v1 import local_script_runner

    rerun = local_script_runner.RerunData
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(local_script_runner, "RerunData",
                      lambda **kwargs: rerun(**kwargs, fragment_id_queue=[fragment_id], is_auto_rerun=True))
        at.run()


def test_projector_opened_before_the_first_activity_follows_the_teacher(engine):
    """A projector link opened before the first activity had nothing polling (only the live panel polls, and it is
    drawn only with an activity): it said "Add an activity below…" until reloaded, through open, close and reveal.
    Now a cheap poll of the session's stamp redraws it when the teacher opens an activity; its note names no
    controls "below", which the projector does not have."""
    from ui.live.teacher_view import REFRESH_SECONDS

    teacher, code, secret = _teacher(engine)
    projector = run_page("live_class", query_params={"code": code, "screen": security.screen_token(secret)})
    polls = _polls(projector)
    assert list(polls.values()) == [REFRESH_SECONDS]
    assert [i.value for i in projector.info] == ["Waiting for the teacher to open an activity…"]
    assert "below" not in _texts(projector)
    assert list(_polls(teacher).values()) == [REFRESH_SECONDS]  # the teacher link on a second device too
    assert "Add an activity below, then open it" in _texts(teacher)
    [poll] = polls
    _tick(projector, poll)  # nothing changed yet: the poll alone ran (AppTest then holds only what it drew: nothing)
    assert not projector.info and not projector.get("html") and not projector.warning

    teacher.button(key="live_add").click().run()  # the teacher adds and opens an estimate activity
    activity = store.current_activity(engine, store.find_session(engine, code).id)
    _tick(projector, poll)  # the projector's timer, nobody touching it
    assert "open for answers" in projector.header[0].value and "What is NDCG@" in _texts(projector)
    assert [m.label for m in projector.metric] == ["Joined", "Answered", "Correct"]
    assert not projector.info
    # From now on the live panel polls (and follows close and reveal), not the waiting poll.
    polls = _polls(projector)
    assert list(polls.values()) == [REFRESH_SECONDS] and poll not in polls
    store.set_state(engine, code=code, secret=secret, activity_id=activity.id, state="revealed")
    _tick(projector, next(iter(polls)))
    assert "answer revealed" in projector.header[0].value and "Worked calculation" in _texts(projector)


def test_distribution_chart_counts_answers_in_the_one_chart_style():
    import plotly.graph_objects as go

    from ui.chart_style import AXIS, FONT
    from ui.live import widgets
    from ui.live.store import Activity, Answer

    spec = activities.generate("compare", seed=5)
    activity = Activity(1, 1, 1, "compare", spec, "revealed")
    right = activities.correct_answer("compare", spec)[-1]
    wrong = "A" if right == "B" else "B"
    rows = [Answer(1, n, "", {"choice": c}, c, float(c == right), c == right, 1, 0.0)
            for n, c in enumerate([right, wrong, wrong])]
    figure = widgets.distribution_chart(activity, rows, revealed=True)
    layout = go.Figure(figure.to_plotly_json()).to_plotly_json()["layout"]  # validates every property
    assert layout["font"] == FONT and {key: layout["xaxis"][key] for key in AXIS} == AXIS
    right_bars, wrong_bars = figure.data
    assert list(right_bars.x) == list(wrong_bars.x) == ["A", "B"]
    assert list(right_bars.y) == [int(right == "A"), int(right == "B")]  # the one right answer
    assert list(wrong_bars.y) == [2 * (wrong == "A"), 2 * (wrong == "B")]  # the two wrong ones


def test_live_page_draws_no_settings_sidebar_and_keeps_the_settings(engine):
    """The Live class states its own convention: no metric settings in its sidebar or its URL; the settings
    chosen on another page are still there when the user comes back (widgets not drawn lose their values)."""
    from ui.settings import MetricSettings

    at = run_page("playground")
    at.radio(key="settings_gain").set_value("linear").run()
    at.number_input(key="settings_k").set_value(4).run()
    assert (at.query_params["gain"], at.query_params["k"]) == ("linear", "4")
    at.switch_page("pages/live_class.py").run()
    assert not at.exception
    assert [e.value for e in at.sidebar.get("header")] == []  # no "Metric settings"
    assert not at.sidebar.radio and not at.sidebar.number_input and not at.sidebar.selectbox
    assert not {"gain", "base", "k", "z", "gt"} & set(at.query_params)
    assert [t.value for t in at.title] == ["Live class"]
    at.button(key="live_start").click().run()
    assert set(at.query_params) == {"code", "teacher"}
    assert [t.value for t in at.title] == []  # the projector's heading is the join band (720 px)
    at.switch_page("pages/playground.py").run()
    assert at.radio(key="settings_gain").value == "linear" and at.number_input(key="settings_k").value == 4
    assert at.session_state["settings"] == MetricSettings(gain="linear", k=4)
    assert (at.query_params["gain"], at.query_params["k"]) == ("linear", "4")


def test_estimate_chart_labels_every_fifth_bin_so_they_never_overlap():
    from ui.live import widgets
    from ui.live.store import Activity

    activity = Activity(1, 1, 1, "estimate", activities.generate("estimate", seed=7), "open")
    figure = widgets.distribution_chart(activity, [], revealed=False)
    assert len(figure.data[0].x) == 21  # every bin of 0.05 still drawn
    assert list(figure.layout.xaxis.tickvals) == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    assert list(figure.layout.xaxis.ticktext) == ["0.00", "0.20", "0.40", "0.60", "0.80", "1.00"]


# --- Seed 0's "Predict the NDCG" (true NDCG@3 0.5307): two students answer 0.48, one 0.50. All three land in the
# bin "0.50", but only 0.50 is within 0.05 of the truth (1 point); 0.48 is off by 0.0507 (half a point, wrong).

def _seed0_estimate(values=(0.48, 0.48, 0.50)):
    from ui.live.store import Activity, Answer

    spec = activities.generate("estimate", seed=0)
    rows = []
    for n, value in enumerate(values):
        label, points, correct = activities.score("estimate", spec, {"value": value})
        rows.append(Answer(1, n, "", {"value": value}, label, points, correct, 1, 0.0))
    return Activity(1, 1, 1, "estimate", spec, "revealed"), rows


def test_seed0_answers_fall_in_one_bin_with_right_and_wrong():
    activity, rows = _seed0_estimate()
    assert round(activities.truth("estimate", activity.spec), 4) == 0.5307
    assert [(r.label, r.points, r.correct) for r in rows] == [("0.50", 0.5, False), ("0.50", 0.5, False),
                                                              ("0.50", 1.0, True)]


def test_revealed_chart_splits_a_bin_into_its_right_half_right_and_wrong_answers():
    """The bin "0.50" holds 1 right and 2 half-right answers (0.48: half a point), and 0.90 is wrong: one green bar
    for all three called the others right (the page said "Correct 33%" beside it), and then a right/wrong split
    called the half-point ones wrong beside the phone's "0.5 points". Right answers are a green bar, half-right an
    orange one and wrong a grey one, stacked, each named in the legend and the hover."""
    from ui.live import widgets

    activity, rows = _seed0_estimate((0.48, 0.48, 0.50, 0.90))
    figure = widgets.distribution_chart(activity, rows, revealed=True)
    right, half, wrong = figure.data
    at, far = list(right.customdata).index("0.50"), list(right.customdata).index("0.90")
    assert (right.y[at], half.y[at], wrong.y[at]) == (1, 2, 0) and (right.y[far], half.y[far], wrong.y[far]) == (0, 0, 1)
    assert (sum(right.y), sum(half.y), sum(wrong.y)) == (1, 2, 1)  # no other bin has anything
    assert (right.name, right.marker.color) == ("Right answers", "#009E73")
    assert (half.name, half.marker.color) == ("Half right", "#E69F00")
    assert (wrong.name, wrong.marker.color) == ("Wrong answers", "#B8BEC6")
    assert figure.layout.barmode == "stack" and figure.layout.showlegend
    assert right.hovertemplate == "%{customdata}: %{y} right<extra></extra>"
    assert half.hovertemplate == "%{customdata}: %{y} half right<extra></extra>"
    assert wrong.hovertemplate == "%{customdata}: %{y} wrong<extra></extra>"
    # Before the reveal: one colour, no right or wrong, no legend (it would give the answer away).
    [bars] = widgets.distribution_chart(activity, rows, revealed=False).data
    assert bars.y[at] == 3 and sum(bars.y) == 4 and bars.marker.color == "#0072B2"
    # With no half-point answer there is no orange bar (nor its legend entry).
    only = widgets.distribution_chart(activity, [rows[2], rows[3]], revealed=True).data
    assert [trace.name for trace in only] == ["Right answers", "Wrong answers"]


def test_teacher_page_after_reveal_draws_the_wrong_answers_grey(engine):
    """The tester's class, through the page: seed 0, answers 0.48, 0.48, 0.50, Close then Reveal."""
    import json

    teacher, code, _secret = _teacher(engine)
    teacher.number_input(key="live_seed").set_value(0).run()
    teacher.button(key="live_add").click().run()  # "Predict the NDCG" of quiz seed 0, opened
    activity = store.current_activity(engine, store.find_session(engine, code).id)
    assert activity.kind == "estimate" and activity.spec == activities.generate("estimate", seed=0)
    for n, value in enumerate((0.48, 0.48, 0.50)):
        _student, token = store.join(engine, code=code, client=f"phone {n}")
        store.submit_answer(engine, code=code, token=token, activity_id=activity.id, answer={"value": value},
                            scorer=activities.score)
    teacher.button(key=f"live_closed_{activity.id}").click().run()
    teacher.button(key=f"live_revealed_{activity.id}").click().run()
    assert teacher.metric[2].value == "33%" and "**Most common answer short of full marks:** 0\\.50 (2 students)" in _texts(teacher)
    [chart] = teacher.get("plotly_chart")
    right, half, wrong = json.loads(chart.proto.spec)["data"]
    at = right["customdata"].index("0.50")
    assert (right["name"], right["y"][at], half["name"], half["y"][at], wrong["y"][at]) == (
        "Right answers", 1, "Half right", 2, 0)


def test_true_ndcg_arrow_points_at_the_truths_bin_even_when_nobody_answered_it():
    """Truth 0.531 is in the bin 0.55, where nobody answered. The arrow was placed at x = "0.55" on a category axis,
    which plotly reads as the position 0.55 (beside the first bar, 0.00); the bins now sit at their centres on a
    numeric axis and the arrow at its bin's centre."""
    from ui.live import widgets

    activity, rows = _seed0_estimate()
    figure = widgets.distribution_chart(activity, rows, revealed=True)
    [arrow] = figure.layout.annotations
    assert arrow.text == "true NDCG 0.531"
    assert (arrow.x, arrow.y) == (0.55, 0)  # the bin's centre, at the foot of its (empty) bar
    # ... on the bars' own numeric scale (on a category axis 0.55 would again be a position between two bars).
    assert figure.layout.xaxis.type == "linear"
    centres = dict(zip(figure.data[0].customdata, figure.data[0].x, strict=True))
    assert centres["0.55"] == arrow.x and centres["0.00"] == 0.0
    # With answers in the truth's bin the arrow ends on top of its bar (two students there).
    activity, rows = _seed0_estimate((0.48, 0.55, 0.56))
    [arrow] = widgets.distribution_chart(activity, rows, revealed=True).layout.annotations
    assert [r.label for r in rows] == ["0.50", "0.55", "0.55"] and (arrow.x, arrow.y) == (0.55, 2)


def test_the_class_summary_follows_answers_while_an_activity_is_open(engine):
    """The live panel said "Answered 2" while the summary below said 0 answers for the same open activity, until
    the activity was closed (the summary was drawn with the page, the panel polled)."""
    teacher, code, secret = _teacher(engine)
    teacher.button(key="live_add").click().run()  # an estimate activity, opened
    activity = store.current_activity(engine, store.find_session(engine, code).id)
    polls = _polls(teacher)
    assert len(polls) == 2  # the live panel and the summary table, both every REFRESH_SECONDS
    summary = next(frame.value for frame in teacher.dataframe if "Answers" in frame.value.columns)
    assert summary["Answers"].tolist() == [0]
    for nickname in ("Al", "Bo"):
        student = _student(code, nickname=nickname)
        student.slider(key=f"live_answer_{activity.id}").set_value(0.42)  # moved: the starting 0.50 is not sent
        student.button(key=f"live_send_{activity.id}").click().run()
    for poll in polls:  # the browser's timers, nobody touching the page
        _tick(teacher, poll)
    summary = next(frame.value for frame in teacher.dataframe if "Answers" in frame.value.columns)
    assert summary["Answers"].tolist() == [2] and summary["State"].tolist() == ["open"]
    # Not how many are right while answers are open: the page is projected (it said "Correct 33%" mid-question).
    # "–" in both columns (a missing mean was a grey "None" beside the "–" of Correct).
    assert summary["Correct"].tolist() == ["–"] and summary["Mean points"].tolist() == ["–"]
    teacher.run()  # the whole page (a poll's run redraws its fragment only)
    teacher.button(key=f"live_closed_{activity.id}").click().run()
    summary = next(frame.value for frame in teacher.dataframe if "Answers" in frame.value.columns)
    points = [row.points for row in store.activity_answers(engine, activity.id)]
    assert summary["Correct"].tolist()[0].endswith("%") and summary["Mean points"].tolist() == [f"{sum(points) / 2:.2f}"]


def test_the_projector_shows_the_leaderboard_when_the_teacher_turns_it_on(engine):
    teacher, code, secret = _teacher(engine)
    teacher.button(key="live_add").click().run()
    activity = store.current_activity(engine, store.find_session(engine, code).id)
    student = _student(code, nickname="Al")
    student.slider(key=f"live_answer_{activity.id}").set_value(0.42)
    student.button(key=f"live_send_{activity.id}").click().run()
    store.set_state(engine, code=code, secret=secret, activity_id=activity.id, state="revealed")
    projector = run_page("live_class", query_params={"code": code, "screen": security.screen_token(secret)})
    assert not [frame for frame in projector.dataframe if "Nickname" in frame.value.columns]  # off: no names
    teacher.toggle(key="live_leaderboard").set_value(True).run()
    projector.run()
    [board] = [frame.value for frame in projector.dataframe if "Nickname" in frame.value.columns]
    assert board["Nickname"].tolist() == ["Al"] and board["Answers"].tolist() == [1]


def test_a_second_tab_of_the_same_student_follows_an_answer_sent_from_the_first(engine):
    """The same student link open on a phone and a laptop: an answer sent from one tab left the other showing
    "Send my answer" and its own slider position until the teacher changed something (the poll watched the teacher
    only). Now the poll also watches the student's own answer: the other tab redraws with the stored answer in its
    widget, while the tab that sent it is not redrawn again."""
    teacher, code, secret = _teacher(engine)
    teacher.button(key="live_add").click().run()  # an estimate activity, opened
    activity = store.current_activity(engine, store.find_session(engine, code).id)
    first = _student(code, nickname="Al")
    token = first.query_params["student"]
    second = run_page("live_class", query_params={"code": code, "student": token})
    slider = f"live_answer_{activity.id}"
    assert second.slider(key=slider).value == 0.5 and "Answer received" not in _texts(second)
    [second_poll] = _polls(second)
    [first_poll] = _polls(first)

    first.slider(key=slider).set_value(0.7)
    first.button(key=f"live_send_{activity.id}").click().run()
    assert r"✓ Answer received: 0\.70" in _texts(first)
    _tick(second, second_poll)  # the other tab's timer: it redraws the whole page with the stored answer
    assert r"✓ Answer received: 0\.70" in _texts(second) and second.slider(key=slider).value == 0.7
    assert [b.label for b in second.button if b.key == f"live_send_{activity.id}"] == ["Change my answer"]

    _tick(first, first_poll)  # the sending tab's own timer: its answer is already drawn, the poll alone runs
    assert not first.slider and not first.success  # AppTest then holds only what the poll drew: no redraw

    second.slider(key=slider).set_value(0.2)
    second.button(key=f"live_send_{activity.id}").click().run()
    assert r"✓ Answer replaced: 0\.20" in _texts(second)
    first.run()  # a rerun of the first tab (any click): its slider shows the answer sent from the second
    assert first.slider(key=slider).value == 0.2 and r"✓ Answer replaced: 0\.20" in _texts(first)
    [row] = store.activity_answers(engine, activity.id)
    assert row.answer == {"value": 0.2} and row.revision == 2


def test_the_teacher_sees_every_answer_tied_for_most_common_wrong(engine):
    teacher, code, secret = _teacher(engine)
    teacher.number_input(key="live_seed").set_value(0).run()
    teacher.button(key="live_add").click().run()  # estimate, seed 0: NDCG@3 = 0.531
    activity = store.current_activity(engine, store.find_session(engine, code).id)
    for nickname, value in (("Ann", 0.30), ("Bob", 0.70)):
        student = _student(code, nickname=nickname)
        student.slider(key=f"live_answer_{activity.id}").set_value(value)
        student.button(key=f"live_send_{activity.id}").click().run()
    teacher.run()
    teacher.button(key=f"live_closed_{activity.id}").click().run()
    text = _texts(teacher)
    assert r"**Most common answers short of full marks:** 0\.70 · 0\.30 (1 student each)" in text, text
    assert r"→ 0\.70: ignored the cutoff" in text and r"→ 0\.30: no single slip explains it" in text


def test_a_visit_to_another_page_and_back_returns_to_ones_place_in_the_class(engine):
    """The teacher kit has the teacher show the Playground mid-lesson; the sidebar's Live class link then opened the
    landing (the running session not offered), and a student who came back the same way and joined again was a
    second student: "Joined 4" for three people, their points split over two rows. The tab now returns to its place
    while the session runs."""
    teacher, code, secret = _teacher(engine)
    teacher.button(key="live_add").click().run()
    student = _student(code, nickname="Ana")
    token = student.query_params["student"]
    # Where the answers are is the database (it said "answers are kept in the address"), and what keeps the place.
    assert "a reload keeps your answers, and so does joining again from this browser with the same nickname" in _texts(
        student)
    assert "answers are kept in this page's address" not in _texts(student)
    for at, page in ((teacher, "pages/playground.py"), (student, "pages/quiz.py")):
        _visit_and_come_back(at, page)
    assert (teacher.query_params["code"], teacher.query_params["teacher"]) == (code, secret)
    assert "live_start" not in [b.key for b in teacher.button]
    assert [m.value for m in teacher.metric][:1] == ["1"], _texts(teacher)  # joined: one student
    assert (student.query_params["code"], student.query_params["student"]) == (code, token)
    assert "What is NDCG@" in _texts(student)
    assert store.student_count(engine, store.find_session(engine, code).id) == 1
    # Once the session has ended, the way back is the landing (nothing left to return to).
    store.end_session(engine, code=code, secret=secret)
    _visit_and_come_back(student, "pages/quiz.py")
    assert "student" not in student.query_params and [b.label for b in student.button] == ["Join", "Start a live session"]


def _visit_and_come_back(at, page: str) -> None:
    """Another page, then the sidebar's Live class link, whose address has no parameters (a browser drops the
    page's parameters on a page change; AppTest keeps them, so they are dropped here)."""
    at.switch_page(page).run()
    for name in ("join", "code", "student", "teacher", "screen"):
        at.query_params.pop(name, None)
    at.switch_page("pages/live_class.py").run()
    assert not at.exception


def test_a_second_add_and_open_asks_a_new_question_and_the_seed_box_moves_on(engine):
    """"Add and open" twice with the seed box untouched asked the same question twice (same kind, same seed), and
    "Add the whole quiz" after it repeated the activities just revealed: the box now offers the next seed."""
    teacher, code, _ = _teacher(engine)
    teacher.number_input(key="live_seed").set_value(7).run()
    teacher.button(key="live_add").click().run()
    assert teacher.number_input(key="live_seed").value == 8
    teacher.button(key="live_add").click().run()
    first, second = store.session_activities(engine, store.find_session(engine, code).id)
    assert first.kind == second.kind and first.spec != second.spec
    assert (first.spec, second.spec) == (activities.generate(first.kind, seed=7), activities.generate(first.kind, seed=8))
    teacher.button(key="live_add_quiz").click().run()
    assert teacher.number_input(key="live_seed").value == 10


def test_the_csv_export_gives_times_a_spreadsheet_reads_and_names_the_chart_group():
    """submitted_at was Unix seconds (1795549517.398267) and an estimate's bin "0.55" (answer 0.53) sat under "label"."""
    from ui.live.export import export_table

    rows = [{"position": 1, "kind": "estimate", "student": 1, "nickname": "=cmd()", "answer": '{"value": 0.53}',
             "label": "0.55", "points": 1.0, "correct": True, "revision": 1, "submitted_at": 1795549517.398267,
             "spec": '{"k": 3}'}]
    table = export_table(rows)
    assert table.loc[0, "submitted_at_utc"] == "2026-11-24 19:45:17"  # 1795549517 s after 1970-01-01 00:00 UTC
    assert table.loc[0, "chart_group"] == "0.55" and table.loc[0, "nickname"] == "'=cmd()"
    assert export_table([]).columns.tolist()[-1] == "submitted_at_utc"


def test_the_teacher_sees_how_many_have_joined_before_the_first_activity(engine):
    """Before "Add and open" the page showed the join band and "Add an activity below", and no count of the
    students already in: the teacher could not tell when to start."""
    teacher, code, _ = _teacher(engine)
    assert [(m.label, m.value) for m in teacher.metric] == [("Joined", "0")]
    polls = _polls(teacher)
    for nickname in ("Al", "Bo"):
        _student(code, nickname=nickname)
    for poll in polls:  # the browser's timer: the waiting page's poll redraws the count
        _tick(teacher, poll)
    assert [(m.label, m.value) for m in teacher.metric] == [("Joined", "2")]


def test_an_activity_closed_by_opening_the_next_can_still_be_revealed(engine):
    """"Add and open" while an activity was open closed it, and no control was left to reveal it: its answers
    were never shown to the class."""
    teacher, code, _ = _teacher(engine)
    teacher.button(key="live_add").click().run()
    first = store.current_activity(engine, store.find_session(engine, code).id)
    student = _student(code, nickname="Bo")
    student.button(key=f"live_send_{first.id}").click().run()
    teacher.button(key="live_add").click().run()  # the next question, while the first is open
    second = store.current_activity(engine, store.find_session(engine, code).id)
    assert second.id != first.id and [a.state for a in store.session_activities(engine, second.session_id)] == [
        "closed", "open"]
    teacher.run()
    teacher.button(key=f"live_reveal_closed_{first.id}").click().run()
    session = store.find_session(engine, code)
    assert session.current_activity_id == first.id  # the projector and the phones show it
    assert [a.state for a in store.session_activities(engine, session.id)] == ["revealed", "closed"]
    student.run()
    assert "Worked calculation" in _texts(student)
    assert f"live_reveal_closed_{second.id}" in [b.key for b in teacher.button]  # the second waits its turn now


def test_ending_with_answers_not_revealed_asks_first(engine):
    """"End the session" with an activity open ended it at once: that activity could never be revealed, and the
    students' phones only said "Thank you"."""
    teacher, code, _ = _teacher(engine)
    teacher.button(key="live_add").click().run()
    assert teacher.button(key="live_end").disabled
    assert any("answers not revealed yet" in c.value for c in teacher.caption)
    teacher.checkbox(key="live_end_anyway").check().run()
    assert not teacher.button(key="live_end").disabled
    teacher.button(key="live_end").click().run()
    assert store.find_session(engine, code).ended
    # Every activity revealed: nothing to ask.
    other, other_code, _ = _teacher(engine)
    other.button(key="live_add").click().run()
    activity = store.current_activity(engine, store.find_session(engine, other_code).id)
    other.button(key=f"live_revealed_{activity.id}").click().run()
    assert not other.button(key="live_end").disabled and not other.checkbox
    other.button(key="live_end").click().run()
    assert store.find_session(engine, other_code).ended


def test_reorder_bars_before_the_reveal_say_how_many_moves_not_whether_best():
    """The projected chart named a reorder's bars "best in 2 moves" and "NDCG 0.93" while the class was still
    answering: the room could read which answers were right. Before the reveal the bars are the moves taken."""
    from ui.live import widgets
    from ui.live.store import Activity, Answer
    from ui.quiz_model import best_reordering

    spec = activities.generate("reorder", seed=42)
    question = activities.question_of("reorder", spec)
    fewest, winner = best_reordering(tuple(question.ranked_grades()), question.k, question.gain)
    best_order = tuple(question.order[j] for j in winner)  # the best order, as rows of the question's list
    answers = [{"order": list(best_order), "moves": fewest}, {"order": list(question.order), "moves": 0},
               {"order": list(best_order), "moves": fewest + 2}]
    rows = [Answer(1, n, "", answer, *activities.score("reorder", spec, answer), 1, 0.0)
            for n, answer in enumerate(answers)]
    assert [row.label for row in rows][0] == f"best in {fewest} moves"  # as stored: the reveal shows it
    [bars] = widgets.distribution_chart(Activity(1, 1, 1, "reorder", spec, "open"), rows, revealed=False).data
    expected = sorted({"0 moves": 1, f"{fewest} moves": 1, f"{fewest + 2} moves": 1}.items(),
                      key=lambda item: int(item[0].split()[0]))
    assert list(zip(bars.x, bars.y, strict=True)) == expected
    assert not [label for label in bars.x if "best" in label or "NDCG" in label]
    right, half, wrong = widgets.distribution_chart(Activity(1, 1, 1, "reorder", spec, "revealed"), rows,
                                                    revealed=True).data
    assert list(right.x)[0] == f"best in {fewest} moves" and list(right.y)[0] == 1
    assert list(half.x)[1] == f"best in {fewest + 2} moves" and list(half.y)[1] == 1  # half a point: not "wrong"


def test_joining_again_from_the_same_browser_with_the_same_nickname_is_the_same_student(engine):
    """A student whose tab was closed joins again with the code: they became a second student ("Joined 2" for one
    person, their answers split over two rows). The student page leaves its token in the browser's storage
    (ui/live/device.py; its script is run by Chromium in tests/browser/test_live_browser.py), and the join form
    finds it: same class, same nickname, same browser -> the same student, welcomed back."""
    _teacher_at, code, _secret = _teacher(engine)
    first = _student(code, "Ana")
    token = first.query_params["student"]
    token = token[0] if isinstance(token, list) else token
    session_id = store.find_session(engine, code).id
    assert store.student_count(engine, session_id) == 1
    places = {"places": {code: {"token": token, "nickname": "Ana"}}}  # what the browser keeps, as the page reads it

    again = run_page("live_class", query_params={"join": code})
    again.session_state["live_device_places"] = places
    again.text_input(key="live_join_nickname").input(" ana ")  # the same nickname, however typed
    again.button[0].click().run()
    assert again.query_params["student"] in (token, [token])
    assert store.student_count(engine, session_id) == 1
    assert "Welcome back, Ana: you are the same student as before, with your answers." in _texts(again)

    other = run_page("live_class", query_params={"join": code})  # another student on the same computer
    other.session_state["live_device_places"] = places
    other.text_input(key="live_join_nickname").input("Ben")
    other.button[0].click().run()
    assert other.query_params["student"] not in (token, [token])
    assert store.student_count(engine, session_id) == 2 and "Welcome back" not in _texts(other)

    forged = run_page("live_class", query_params={"join": code})  # storage that holds no valid token: a new student
    forged.session_state["live_device_places"] = {"places": {code: {"token": "not-a-token", "nickname": "Cy"}}}
    forged.text_input(key="live_join_nickname").input("Cy")
    forged.button[0].click().run()
    assert store.student_count(engine, session_id) == 3 and "Welcome back" not in _texts(forged)


def test_a_second_ana_is_told_her_nickname_and_gets_it_back_when_joining_again(engine):
    _teacher_at, code, _secret = _teacher(engine)
    _student(code, "Ana")
    second = _student(code, "ana")
    assert "Another student in this class is already called “ana”, so you are “ana 2”." in _texts(second)
    token = second.query_params["student"]
    token = token[0] if isinstance(token, list) else token
    again = run_page("live_class", query_params={"join": code})  # her tab closed; the same browser, "Ana" typed
    again.session_state["live_device_places"] = {"places": {code: {"token": token, "nickname": "ana 2"}}}
    again.text_input(key="live_join_nickname").input("Ana")
    again.button[0].click().run()
    assert again.query_params["student"] in (token, [token])
    assert "Welcome back, ana 2: you are the same student as before, with your answers." in _texts(again)
    assert store.student_count(engine, store.find_session(engine, code).id) == 2


def test_an_estimate_sent_without_moving_the_slider_is_not_taken(engine):
    """Every new class starts on seed 0's "Predict the NDCG" (NDCG@3 0.531) with the slider at 0.50: a student who
    tapped Send without moving it scored a full point, and the teacher saw "Correct 100%"."""
    teacher, code, _secret = _teacher(engine)
    teacher.button(key="live_add").click().run()
    activity = store.current_activity(engine, store.find_session(engine, code).id)
    assert activity.spec == activities.generate("estimate", seed=0)
    student = _student(code, nickname="Al")
    assert "Move the slider to your estimate, then send it." in _texts(student)
    student.button(key=f"live_send_{activity.id}").click().run()
    assert "Move the slider to your estimate first: it starts at 0.50 for everyone." in _texts(student)
    assert store.activity_answers(engine, activity.id) == []
    student.slider(key=f"live_answer_{activity.id}").set_value(0.6).run()
    student.slider(key=f"live_answer_{activity.id}").set_value(0.5).run()  # moved away and back: 0.50 chosen
    student.button(key=f"live_send_{activity.id}").click().run()
    [row] = store.activity_answers(engine, activity.id)
    assert row.answer == {"value": 0.5} and row.points == 1.0  # |0.50 - 0.531| < 0.05, chosen this time


def test_a_reorder_answer_on_the_phone_says_its_moves_until_the_reveal_and_half_points_are_counted(engine):
    """The phone said "Answer received: best in 3 moves" while the activity was open (a student could re-send until
    it said "best"), and the class line counted a half-point answer as not right and not anything else."""
    from ui.ranked_list import moves_to

    _teacher_at, code, secret = _teacher(engine)
    spec = {"names": ["D1", "D2", "D3", "D4"], "grades": [0, 3, 2, 1], "k": 2, "gain": "linear", "order": [0, 1, 2, 3]}
    activity = store.add_activity(engine, code=code, secret=secret, kind="reorder", spec=spec)
    store.set_state(engine, code=code, secret=secret, activity_id=activity.id, state="open")
    students = []
    al = _student(code, "Al")  # drags D1 to the bottom: the best order in one move
    key = f"live_drag_{activity.id}"
    al.session_state[key] = moves_to(al.session_state, key, [1, 2, 3, 0])
    al.run()
    assert "Moves so far: 1" in _texts(al)
    al.button(key=f"live_send_{activity.id}").click().run()
    bo = _student(code, "Bo")  # the best order in three moves (a detour): half a point
    token = bo.query_params["student"]
    store.submit_answer(engine, code=code, token=token[0] if isinstance(token, list) else token,
                        activity_id=activity.id, answer={"order": [1, 2, 3, 0], "moves": 3}, scorer=activities.score)
    bo.run()
    students = [al, bo]
    for student, moves in ((al, "1 move"), (bo, "3 moves")):
        shown = _texts(student)
        assert f"Answer received: your order, {moves}" in shown and "best" not in shown, shown
    store.set_state(engine, code=code, secret=secret, activity_id=activity.id, state="revealed")
    for student in students:
        student.run()
    assert "**The class:** 2 answers, 1 right, 1 half right" in _texts(students[1])
    assert "Your answer: best in 3 moves · 0.5 points" in _texts(students[1])


def test_an_ended_session_shows_no_join_code_or_qr_code(engine):
    teacher, code, secret = _teacher(engine)
    assert any("Join at" in md.value for md in teacher.markdown)
    store.end_session(engine, code=code, secret=secret)
    teacher.run()
    projector = run_page("live_class", query_params={"code": code, "screen": security.screen_token(secret)})
    for at in (teacher, projector):
        assert not any("Join at" in md.value for md in at.markdown) and not at.get("imgs")
        assert "This session has ended: its code no longer admits anyone." in _texts(at)


def test_a_teachers_or_students_secret_never_reaches_another_pages_address(engine):
    """Back from the Live class to the Playground gave the Playground the address
    ``/?code=746YH7&teacher=<secret>&gain=…``: Streamlit's rerun kept the Live class's parameters and the
    Playground's write of its own kept every parameter it did not manage. A teacher projecting the Playground then
    showed the link that "alone controls the session". Here the Playground runs with those parameters still there
    (as after Back): its address drops them; the Live class keeps them."""
    teacher, code, secret = _teacher(engine)
    student = _student(code, "Ann")
    token = student.query_params["student"]
    for at, secret_name, value in ((teacher, "teacher", secret), (student, "student", token)):
        at.switch_page("pages/playground.py").run()
        assert not at.exception
        at.run()  # the Playground's state written to the address (its first run on a page keeps the address)
        assert "docs" in at.query_params, dict(at.query_params)
        assert secret_name not in at.query_params and "code" not in at.query_params, dict(at.query_params)
        # Back on the Live class page (its sidebar link), the session finds its place and its address again.
        at.switch_page("pages/live_class.py").run()
        assert at.query_params.get(secret_name) == value and at.query_params.get("code") == code


def test_a_reloaded_teacher_page_goes_on_from_the_seeds_the_session_used(engine):
    """After "Add and open" the seed box moved on to 1, but a reload (or the teacher link on a second device) showed
    0 again: the next "Add and open" asked the same question twice (activities 3 and 4, the same "Fix the ranking"
    list). A new browser session on the teacher link starts after the largest seed the live session used."""
    teacher, code, secret = _teacher(engine)
    teacher.number_input(key="live_seed").set_value(41).run()
    teacher.button(key="live_add").click().run()
    assert teacher.number_input(key="live_seed").value == 42
    reloaded = run_page("live_class", query_params={"code": code, "teacher": secret})
    assert not reloaded.exception
    assert reloaded.number_input(key="live_seed").value == 42
    reloaded.button(key="live_add").click().run()
    live_session = store.teacher_session(engine, code=code, secret=secret)
    seeds = [a.spec["seed"] for a in store.session_activities(engine, live_session.id)]
    assert seeds == [41, 42]
    # A session with no activity yet starts at 0.
    _, other_code, other_secret = _teacher(engine)
    fresh = run_page("live_class", query_params={"code": other_code, "teacher": other_secret})
    assert fresh.number_input(key="live_seed").value == 0


def test_closed_reorder_bars_carry_the_labels_the_most_common_wrong_answer_names(engine):
    """Closed (not revealed yet), a reorder's bars still said "2 moves", "3 moves", "4 moves" while the line under
    them named the most common wrong answers "NDCG 0.99 · best in 4 moves": no bar was called that. Quiz seed 45's
    "Fix the ranking" (D5 D4 D2 D1 D3, grades 0 0 3 1 3, best NDCG@5 in 3 moves), answered as in a class of three."""
    import json

    teacher, code, secret = _teacher(engine)
    spec = activities.generate("reorder", seed=45)
    assert (spec["names"], spec["grades"], spec["order"], spec["k"]) == (
        ["D1", "D2", "D3", "D4", "D5"], [1, 3, 3, 0, 0], [4, 3, 1, 0, 2], 5)
    activity = store.add_activity(engine, code=code, secret=secret, kind="reorder", spec=spec)
    store.set_state(engine, code=code, secret=secret, activity_id=activity.id, state="open")
    answers = ({"order": [1, 2, 0, 4, 3], "moves": 3}, {"order": [1, 2, 4, 3, 0], "moves": 2},
               {"order": [1, 2, 0, 3, 4], "moves": 4})
    for n, answer in enumerate(answers):
        _student_row, token = store.join(engine, code=code, client=f"phone {n}")
        store.submit_answer(engine, code=code, token=token, activity_id=activity.id, answer=answer,
                            scorer=activities.score)
    teacher.run()
    [chart] = teacher.get("plotly_chart")
    assert json.loads(chart.proto.spec)["data"][0]["x"] == ["2 moves", "3 moves", "4 moves"]  # open: moves only
    teacher.button(key=f"live_closed_{activity.id}").click().run()
    text = _texts(teacher)
    assert r"**Most common answers short of full marks:** NDCG 0\.99 · best in 4 moves (1 student each)" in text, text
    [chart] = teacher.get("plotly_chart")
    [bars] = json.loads(chart.proto.spec)["data"]  # one colour until the reveal
    assert dict(zip(bars["x"], bars["y"], strict=True)) == {"best in 3 moves": 1, "best in 4 moves": 1, "NDCG 0.99": 1}


def test_the_csv_export_holds_the_answers_that_arrived_after_the_page_was_drawn(engine, monkeypatch):
    """Mid-activity the live panel said "Answered 3" while "Download every answer (CSV)" gave none of the open
    activity's answers: the file was made when the page was drawn, and arriving answers rerun only the polls. The
    button is now drawn with the class summary's table, which polls while an activity is open."""
    import io

    import pandas as pd
    import streamlit as st

    given = []
    real = st.download_button

    def spy(label, data, *args, **kwargs):
        if kwargs.get("key") == "live_export":
            given.append(data)
        return real(label, data, *args, **kwargs)

    monkeypatch.setattr(st, "download_button", spy)
    teacher, code, _secret = _teacher(engine)
    teacher.number_input(key="live_seed").set_value(45).run()
    teacher.button(key="live_add").click().run()  # "Predict the NDCG" of quiz seed 45 (NDCG@6 = 0.574), opened
    activity = store.current_activity(engine, store.find_session(engine, code).id)
    polls = _polls(teacher)
    for n, value in enumerate((0.57, 0.7, 1.0)):  # the class answers; the teacher touches nothing
        _student_row, token = store.join(engine, code=code, nickname=f"S{n}", client=f"phone {n}")
        store.submit_answer(engine, code=code, token=token, activity_id=activity.id, answer={"value": value},
                            scorer=activities.score)
    for poll in polls:  # the browser's timers
        _tick(teacher, poll)
    table = pd.read_csv(io.StringIO(given[-1]))
    assert table["nickname"].tolist() == ["S0", "S1", "S2"]
    assert table["answer"].tolist() == ['{"value": 0.57}', '{"value": 0.7}', '{"value": 1.0}']
    assert table["points"].tolist() == [1.0, 0.5, 0.0] and table["chart_group"].tolist() == [0.55, 0.7, 1.0]


def test_the_csv_export_writes_each_answer_in_words(engine):
    """A reorder's answer reached the CSV as {"order": [1, 2, 0, 4, 3], "moves": 3}: indices into the activity's
    names, which the file does not hold. Each answer is now also written as the phone and the projector say it.
    Quiz seed 45: its compare, estimate and reorder (D5 D4 D2 D1 D3, best in 3 moves), answered by one student."""
    import io

    import pandas as pd

    from ui.live import export

    _teacher_at, code, secret = _teacher(engine)
    _student_row, token = store.join(engine, code=code, nickname="Ana", client="phone")
    answers = {"compare": {"choice": "A"}, "estimate": {"value": 0.57}, "reorder": {"order": [1, 2, 0, 4, 3], "moves": 3}}
    for kind, answer in answers.items():
        activity = store.add_activity(engine, code=code, secret=secret, kind=kind,
                                      spec=activities.generate(kind, seed=45))
        store.set_state(engine, code=code, secret=secret, activity_id=activity.id, state="open")
        store.submit_answer(engine, code=code, token=token, activity_id=activity.id, answer=answer,
                            scorer=activities.score)
    table = pd.read_csv(io.StringIO(export.answers_csv(engine, code=code, secret=secret)))
    assert table.columns.tolist()[4:7] == ["answer", "answer_in_words", "chart_group"]
    assert table["answer_in_words"].tolist() == ["Ranking A", "0.57", "D2, D3, D1, D5, D4 (3 moves)"]
    assert table["chart_group"].tolist() == ["A", "0.55", "best in 3 moves"]


@pytest.mark.parametrize("join", ["77ZBH", "🦊", "ABC 2345"])
def test_a_join_link_whose_code_cannot_be_read_says_so(engine, join):
    """A join link cut short or mistyped opened the join form with an empty Class code box and no word of why."""
    at = run_page("live_class", query_params={"join": join})
    assert not at.exception and at.text_input(key="live_join_code").value == ""
    assert [w.value for w in at.warning] == [
        "This join link's class code could not be read: type the code shown on the projector."]
    good = run_page("live_class", query_params={"join": "abc-234"})  # read as ABC234: no warning
    assert good.text_input(key="live_join_code").value == "ABC234" and not good.warning


def test_the_summary_poll_with_a_secret_that_no_longer_controls_the_session_draws_no_export(engine):
    """The summary's poll makes the CSV file itself: asked with a teacher secret that does not control the session
    (the address changed under a running poll) it draws the table without the button, not a traceback."""
    teacher, _code, _secret = _teacher(engine)
    teacher.button(key="live_add").click().run()  # an estimate, opened: the summary polls
    polls = _polls(teacher)
    assert [b.proto.label for b in teacher.get("download_button")] == ["Download every answer (CSV)"]
    teacher.query_params["teacher"] = "not the secret"
    for poll in polls:
        _tick(teacher, poll)
    assert not teacher.exception and not teacher.get("download_button")


def test_a_teacher_opening_the_live_class_again_is_offered_the_running_class(engine):
    """The lesson plan's Live class links open a new tab: mid-lesson a teacher saw only "Start a live session" and
    could start a second class. The teacher's page leaves its place in the browser (ui/live/device.py), and the
    landing offers the class while it runs; a forged secret or an ended class is not offered."""
    _teacher_at, code, secret = _teacher(engine)
    shown = f"{code[:3]} {code[3:]}"
    again = run_page("live_class")
    again.session_state["live_device_places"] = {"places": {f"teacher:{code}": {"secret": secret}}}
    again.run()
    assert f"This browser is teaching class **{shown}**, still running." in _texts(again)
    assert [b.label for b in again.button] == ["Join", f"Back to class {shown}", "Start another live session"]
    again.button(key=f"live_back_{code}").click().run()
    assert again.query_params["code"] in (code, [code]) and again.query_params["teacher"] in (secret, [secret])
    assert not again.exception

    forged = run_page("live_class")
    forged.session_state["live_device_places"] = {"places": {f"teacher:{code}": {"secret": "not-the-secret"}}}
    forged.run()
    assert [b.label for b in forged.button] == ["Join", "Start a live session"]

    store.end_session(engine, code=code, secret=secret)
    ended = run_page("live_class")
    ended.session_state["live_device_places"] = {"places": {f"teacher:{code}": {"secret": secret}}}
    ended.run()
    assert [b.label for b in ended.button] == ["Join", "Start a live session"]


def test_a_nickname_longer_than_a_nickname_keeps_is_cut_and_the_student_told(engine):
    """"🦊 Zoë the very long nickname" became "🦊 Zoë the very long nick" without a word (the limit was only in the
    field's help)."""
    from ui.live.schema import NICKNAME_MAX

    _teacher_at, code, _secret = _teacher(engine)
    typed = "Zoë the very long nickname indeed"
    student = _student(code, typed)
    kept = typed[:NICKNAME_MAX].strip()
    assert f"A nickname keeps {NICKNAME_MAX} characters, so “{typed}” was cut: you are “{kept}”." in _texts(student)
    assert "A nickname keeps" not in _texts(_student(code, "Short"))


def test_the_qr_code_is_named_for_a_screen_reader(engine):
    """The teacher's QR code was an image with no text alternative (no ``alt``): a screen reader announced an
    unnamed image beside the join link. It is named as what it is, with the link it holds."""
    teacher, code, _ = _teacher(engine)
    [image] = [img for element in teacher.main if type(element.proto).__name__ == "ImageList" for img in element.proto.imgs]
    assert image.HasField("alt") and image.alt.startswith("QR code of the join link ")
    assert image.alt.endswith(f"live_class?join={code}")


def _spoken(at) -> list[str]:
    """The texts of the page's screen-reader-only live regions (ui.focus.spoken)."""
    import html
    import re

    return [html.unescape(re.sub(r"<[^>]+>", "", md.value)) for md in at.markdown if "ndcg-spoken" in md.value]


def test_a_student_hears_each_change_the_teacher_makes(engine):
    """The student's page changes by itself (the question opens, answers close, the answer is revealed); a student
    with a screen reader was told none of it (the page had no live region). One live region, the panel's first
    element in every state, says what changed, with the revealed answer and the student's points."""
    teacher, code, secret = _teacher(engine)
    student = _student(code)
    assert _spoken(student) == ["Waiting for the teacher to open a question."]
    teacher.number_input(key="live_seed").set_value(42).run()
    teacher.button(key="live_add").click().run()
    activity = store.current_activity(engine, store.find_session(engine, code).id)
    student.run()
    assert _spoken(student) == ["Question 1, Predict the NDCG, is open for answers."]
    truth = activities.truth("estimate", activity.spec)
    student.slider(key=f"live_answer_{activity.id}").set_value(round(truth, 2))
    student.button(key=f"live_send_{activity.id}").click().run()
    assert _spoken(student) == ["Question 1, Predict the NDCG, is open for answers."]  # no news: nothing new said
    teacher.run()
    teacher.button(key=f"live_closed_{activity.id}").click().run()
    student.run()
    assert _spoken(student) == ["Question 1, Predict the NDCG: answers are closed. Wait for the reveal."]
    teacher.button(key=f"live_revealed_{activity.id}").click().run()
    student.run()
    assert _spoken(student) == [f"Question 1, Predict the NDCG: the answer is NDCG@{activity.spec['k']} = "
                                f"{truth:.3f}. Your answer: {round(truth, 2):.2f}, 1 point."]
    store.end_session(engine, code=code, secret=secret)
    student.run()
    assert _spoken(student) == ["The session has ended."]


def test_an_ended_session_with_no_activity_does_not_ask_to_add_one(engine):
    """A session ended before any activity was opened still said "Add an activity below, then open it: the students'
    phones show it at once.", where an ended session has no picker below and admits no one."""
    teacher, code, _ = _teacher(engine)
    assert "Add an activity below" in _texts(teacher)
    teacher.button(key="live_end").click().run()
    assert store.find_session(engine, code).ended
    texts = _texts(teacher)
    assert "This session has ended" in texts
    assert "Add an activity below" not in texts and "No activity was opened in this session." in texts
    assert not [b for b in teacher.button if b.key in ("live_add", "live_add_quiz")]  # indeed no picker
