"""The "For teachers" page under AppTest: the answer key is ndcg_core's, and every link opens what it says.

Each figure is checked three ways: against an independent ndcg_core call for the worked example, against
hand-derived values for the small exercises, and against scikit-learn's ``ndcg_score`` where it applies.
Each link is opened the way a browser would (its path and query parameters) and the target page's
numbers are compared with ndcg_core's.
"""

from __future__ import annotations

import math
from urllib.parse import parse_qsl, urlsplit

import numpy as np
import pytest

import ndcg_core
from tests.conftest import assert_no_settings_sidebar, run_page
from ui import teacher_kit
from ui import teacher_kit_model as kit
from ui.formatting import num
from ui.ranking import Ranking
from ui.settings_model import MetricSettings

PAGE = "for_teachers"
log2 = math.log2


@pytest.fixture(scope="module")
def page():
    at = run_page(PAGE)
    assert not at.exception
    return at


def ndcg_core_result(key: str) -> ndcg_core.ListResult:
    """The worked example evaluated here, not through the kit (scores ranked by the example's tie rule)."""
    example = next(e for e in ndcg_core.WORKED_EXAMPLES if e.key == key)
    kwargs = dict(k=example.k, gain=example.gain, log_base=example.log_base, zero_idcg=example.zero_idcg,
                  ideal_relevances=[*example.grades, *example.extra_grades])
    if example.scores is not None:
        return ndcg_core.evaluate_scores(list(example.grades), list(example.scores), ties=example.ties, **kwargs)
    return ndcg_core.evaluate(list(example.grades), **kwargs)


def tables_with(at, column: str) -> list:
    return [table.value for table in at.table if column in table.value.columns]


def test_page_is_in_the_navigation():
    source = (run_page.__globals__["ROOT"] / "ui" / "navigation.py").read_text()
    assert 'url_path="for_teachers"' in source and "pages/for_teachers.py" in source


def test_objectives_plan_worksheet_and_key_are_shown(page):
    headers = [h.value for h in page.main.header]
    assert headers == ["Learning objectives", "A 45-minute lesson plan", "Worksheet: NDCG by hand", "Answer key"]
    assert sum(block.minutes for block in kit.lesson_plan()) == 45
    shown = " ".join(m.value for m in page.markdown)
    for block in kit.lesson_plan():
        assert block.title in shown
    from ui.live.activities import TITLES

    for kind in ("compare", "estimate", "reorder"):  # the live activities, by the names the teacher picks them
        assert f"“{TITLES[kind]}”" in shown
    assert "compute** CG, DCG and NDCG by hand for a ranked list of five documents" in shown
    pages_walked = " ".join(block.page for block in kit.lesson_plan())
    for name in ("Live class", "Playground", "Step by step", "Worked examples", "Library conventions",
                 "Why do my numbers differ?", "Quiz"):
        assert name in pages_walked
    assert [s.value for s in page.subheader if s.value.startswith("Exercise")][:len(kit.EXERCISES)] == [
        f"Exercise {item.number} ({'in class' if item.in_class else 'homework'})" for item in kit.EXERCISES]


def test_answer_key_figures_are_ndcg_cores(page):
    summary = tables_with(page, "Figure")[0]
    expected_rows = [(str(item.number), name) for item in kit.EXERCISES for name in item.asked]
    assert len(summary) == len(expected_rows)
    for (_, row), (number, name) in zip(summary.iterrows(), expected_rows, strict=True):
        value = float(getattr(ndcg_core_result(kit.exercise(int(number)).key), name))
        assert row["Exercise"] == number and row["Figure"].split("@")[0] == kit.FIGURE_NAMES[name]
        assert row["Value"] == num(value, 4)
        assert float(row["Value"]) == pytest.approx(value, abs=5e-5)


def test_answer_key_figures_match_hand_and_scikit_learn():
    from sklearn.metrics import ndcg_score

    values = {item.number: kit.figure_values(item) for item in kit.EXERCISES}
    assert values[1]["dcg"] == 1 + 0 + 1 / 2  # [1, 0, 1] at log2(2), log2(3), log2(4)
    assert values[2]["dcg"] == pytest.approx(1 + 1 / log2(3))
    assert values[3]["cg"] == 6
    assert values[3]["dcg"] == pytest.approx(3 + 2 / log2(3) + 1 / log2(6))
    assert values[3]["idcg"] == pytest.approx(3 + 2 / log2(3) + 1 / 2)
    assert values[4]["idcg"] == pytest.approx(7 + 3 / log2(3) + 3 / 2 + 1 / log2(5))  # B,A,D,C = 2,3,1,2; 2^g - 1
    assert values[5]["idcg"] == pytest.approx(3 + 3 / log2(3) + 3 / 2 + 2 / log2(5) + 2 / log2(6) + 2 / log2(7))
    assert values[8]["dcg"] == pytest.approx(7 + 1 / log2(3) + 3 / 2 + 0 + 3 / log2(6))  # 3, 1, 2, 0, 2
    assert values[8]["idcg"] == pytest.approx(7 + 3 / log2(3) + 3 / 2 + 1 / log2(5) + 0)  # 3, 2, 2, 1, 0
    # scikit-learn's ndcg_score (linear gain, ideal from the list's own grades): exercises 3 and 7.
    assert values[3]["ndcg"] == pytest.approx(ndcg_score([[3, 2, 0, 0, 1]], [[5, 4, 3, 2, 1]]))
    assert values[7]["ndcg"] == pytest.approx(ndcg_score([[3, 2, 3, 0, 1]], [[0.9, 0.8, 0.3, 0.2, 0.1]], k=5))


def test_the_worksheet_draws_on_all_five_source_documents():
    sources = {item.example.source for item in kit.EXERCISES}
    assert sources == {example.source for example in ndcg_core.WORKED_EXAMPLES}
    assert len(sources) == 5


def test_answer_key_position_tables_are_ndcg_cores(page):
    tables = tables_with(page, "Ideal contribution")
    assert len(tables) == len(kit.EXERCISES)
    for item, shown in zip(kit.EXERCISES, tables, strict=True):
        table = ndcg_core_result(item.key).table
        counted = table[table["in_cutoff"]]
        assert len(shown) == len(counted) == (item.example.k or len(item.example.grades))
        for column, source in [("Gain", "gain"), ("Discount", "discount"), ("Contribution", "contribution"),
                               ("Ideal contribution", "ideal_contribution")]:
            assert shown[column].tolist() == [num(v, 4) for v in counted[source]]
        assert shown["Grade"].tolist() == [num(v) for v in counted["relevance"]]
        assert shown["Ideal grade"].tolist() == [num(v) for v in counted["ideal_relevance"]]
        # Hand check of the sums: the contributions shown add up to the DCG shown (to rounding).
        assert sum(float(v) for v in shown["Contribution"]) == pytest.approx(ndcg_core_result(item.key).dcg, abs=5e-4)


def test_worksheet_tables_give_grades_and_leave_the_work_blank(page):
    tables = [table for table in tables_with(page, "Position i") if "Grade" in table.columns]
    assert len(tables) == len(kit.EXERCISES)
    for item, shown in zip(kit.EXERCISES, tables, strict=True):
        example = item.example
        expected = ndcg_core_result(item.key).table["relevance"].tolist()  # ranked order (exercise 7: by score)
        assert shown["Grade"].tolist() == [num(g) for g in expected]
        assert (shown[["Gain", "Discount", "Contribution"]] == "").all().all()
        assert len(shown) == len(example.grades)
    discounts = tables_with(page, "8")[0]
    assert discounts.iloc[0].tolist() == ["log₂(i + 1)", *(num(v, 4) for v in np.log2(np.arange(2, 10)))]


def test_the_erratum_notes_quote_the_documents_printed_figures(page):
    shown = " ".join(m.value for m in page.markdown)
    assert "The source document prints DCG = 4.67: an erratum" in shown  # exercise 3 (document 001)
    assert "The source document prints IDCG = 13.65, NDCG = 0.94: an erratum" in shown  # exercise 6 (004)


# --- every link opens the intended state -----------------------------------------------------------------------

def all_links() -> list[tuple[str, kit.Link]]:
    links = [(f"plan: {block.title}", link) for block in kit.lesson_plan() for link in block.links]
    links += [(f"exercise {item.number}", link) for item in kit.EXERCISES for link in item.links()]
    return links


def open_link(url: str):
    parts = urlsplit(url)
    page = {"/": None}.get(parts.path, parts.path.strip("/"))
    at = run_page(page, query_params=dict(parse_qsl(parts.query, keep_blank_values=True)))
    assert not at.exception
    assert not at.warning or all("could not" not in str(w.value) for w in at.warning)  # no link warning
    return at


def expected_example(params: dict[str, str]):
    return next(e for e in ndcg_core.WORKED_EXAMPLES if e.key == params["list"])


@pytest.mark.parametrize("where, link", [pytest.param(w, link, id=f"{w}: {link.label}") for w, link in all_links()])
def test_every_link_opens_the_intended_state(where, link):
    parts = urlsplit(link.url)
    params = dict(parse_qsl(parts.query))
    at = open_link(link.url)
    if parts.path == "/":
        example = next(item.example for item in kit.EXERCISES if item.links()[0].url == link.url) \
            if where.startswith("exercise") else kit.exercise(3).example
        result = ndcg_core_result(example.key)
        names = tuple(example.documents)
        if example.scores is not None:
            names = tuple(names[j] for j in result.table["item"])
        assert at.session_state["playground"].ranking == Ranking(
            names, tuple(result.table["relevance"]), tuple(example.extra_documents), tuple(example.extra_grades))
        settings = at.session_state["settings"]
        assert (settings.gain, settings.k) == (example.gain, example.k) and settings.log_base == "2"
        cards = {m.label.split("@")[0]: m.value for m in at.metric}
        assert cards["NDCG"] == f"{result.ndcg:.4f}" and cards["DCG"] == f"{result.dcg:.4f}"
    elif parts.path == "/step_by_step":
        example = expected_example(params)
        position = int(params["pos"])
        row = ndcg_core_result(example.key).table.iloc[position - 1]
        assert at.session_state["step_source"] == example.key
        assert at.session_state["step_position"] == position
        assert at.session_state["settings"].k == example.k and at.session_state["settings"].gain == example.gain
        formula = rf"\frac{{{num(row['cumulative_dcg'])}}}{{{num(row['cumulative_idcg'])}}} = {num(row['ndcg_at_rank'])}"
        assert any(formula in element.value for element in at.latex)
    elif parts.path == "/quiz":
        assert at.session_state["quiz"].seed == kit.EXIT_SEED != kit.LESSON_SEED
    elif parts.path == "/conventions":
        assert at.session_state["conventions_case"] == "gain"
    elif parts.path == "/why_differ":
        sklearn = ndcg_core.CONVENTIONS["sklearn"].evaluate([3, 2, 3, 0, 1], [0.9, 0.8, 0.3, 0.2, 0.1], k=5).ndcg
        exponential = kit.figure_values(kit.exercise(6))["ndcg"]
        assert at.text_area(key="why_grades").value == "3, 2, 3, 0, 1"
        assert at.text_input(key="why_number_1").value == f"{sklearn:.4f}"
        assert at.text_input(key="why_number_2").value == f"{exponential:.4f}"
        explained = " ".join(str(e.value) for e in [*at.info, *at.markdown]).replace("\\", "")
        assert "2^grade − 1" in explained  # the gain convention is named as the difference
    else:
        assert parts.path in ("/live_class", "/worked_examples") and not params
        assert at.title[0].value == {"/live_class": "Live class", "/worked_examples": "Worked examples"}[parts.path]


def test_links_are_root_relative_in_the_model_and_absolute_on_a_known_server(monkeypatch):
    assert all(link.url.startswith("/") for _, link in all_links())
    monkeypatch.setattr(teacher_kit, "_base_url", lambda: "https://class.example")
    text = teacher_kit._links_markdown((kit.quiz_link(),))
    assert text == "[Quiz, seed 46](https://class.example/quiz?seed=46)"


def test_exercise_links_carry_the_examples_convention():
    for item in kit.EXERCISES:
        playground, step = item.links()
        params = dict(parse_qsl(urlsplit(step.url).query))
        assert params["list"] == item.key and params["pos"] == "1"
        assert params["gain"] == item.example.gain and params.get("k") == (None if item.example.k is None
                                                                           else str(item.example.k))
        assert MetricSettings().log_base == params["base"] == "2"
        assert dict(parse_qsl(urlsplit(playground.url).query))["docs"].startswith(item.example.documents[0])


def test_the_page_draws_no_settings_sidebar_and_puts_no_settings_in_its_address():
    """Its text said "The sidebar's settings do not change this page" beside a sidebar of metric settings, whose
    gain, log base and zero-IDCG rule went into the page's address (found by an exploratory pass)."""
    def no_word_of_a_sidebar(at):
        assert "sidebar" not in at.markdown[0].value.lower()

    assert_no_settings_sidebar("for_teachers", no_word_of_a_sidebar)


def test_the_exit_quiz_asks_none_of_the_questions_revealed_in_the_live_activities():
    """The plan's live activities use quiz seed 45 (compare, estimate, reorder); the exit quiz was seed 45 too,
    whose questions 1-3 are those same three, answered and revealed in class minutes before."""
    from ui.live import activities

    live = [activities.generate(kind, seed=kit.LESSON_SEED) for kind in ("compare", "estimate", "reorder")]
    exit_quiz = [spec for _, spec in activities.quiz_specs(kit.EXIT_SEED)]
    assert not [spec for spec in exit_quiz if spec in live]
    assert [spec for _, spec in activities.quiz_specs(kit.LESSON_SEED)][:3] != exit_quiz[:3]


def test_the_warm_up_is_closed_not_revealed_and_revealed_once_the_formula_is_taught(live_db):
    """The warm-up said "reveal the split, do not explain yet" to students "before seeing any formula", but the
    Live class's Reveal projects the worked calculation (DCG@6 = 7/1.000 + 3/1.585 + …): revealing was
    explaining. The plan now has the teacher press Close (the split: share correct, distribution) and reveal the
    warm-up in the later live block, where it is still the current activity."""
    from ui.live import store

    warm_up, predict = kit.lesson_plan()[0], kit.lesson_plan()[6]
    assert "press “Close” to show the split" in warm_up.what and "reveal the split" not in warm_up.what
    assert predict.what.startswith("First reveal the warm-up (still the current activity: its “Reveal” button)")
    # The plan's steps on the Live class page: the warm-up added and opened, closed; 33 minutes later, revealed.
    teacher = run_page("live_class")
    teacher.button(key="live_start").click().run()
    code = teacher.query_params["code"]
    teacher.selectbox(key="live_kind").set_value("compare").run()
    teacher.number_input(key="live_seed").set_value(kit.LESSON_SEED).run()
    teacher.button(key="live_add").click().run()
    warm = store.current_activity(live_db, store.find_session(live_db, code).id)
    assert not teacher.code  # open: no worked calculation on the projector
    teacher.button(key=f"live_closed_{warm.id}").click().run()
    assert "How the class answered" in str(teacher.get("plotly_chart")[0].proto.spec)  # the split
    assert not teacher.code  # closed: still no calculation
    assert store.current_activity(live_db, warm.session_id).id == warm.id  # still current when the plan reveals it
    reveal = teacher.button(key=f"live_revealed_{warm.id}")
    assert reveal.label == "Reveal" and not reveal.disabled
    reveal.click().run()
    assert "DCG@6 = " in "\n".join(c.value for c in teacher.code)  # the reveal: the worked calculation


def test_the_plan_says_to_set_the_seed_back_for_the_second_live_activity(live_db):
    """The plan asks for "Predict the NDCG", then "Fix the ranking", both of quiz seed 45; but every "Add and open"
    moves the seed box on to 46, the exit quiz's seed, whose question 3 is that seed's "Fix the ranking": a teacher
    who left the box as it stood asked live the exit quiz's question. The plan now says to set the seed back."""
    from ui.live import activities

    predict = kit.lesson_plan()[6]
    assert f"each with quiz seed {kit.LESSON_SEED} (the box moves on to {kit.LESSON_SEED + 1} after every “Add and " \
           "open”: set it back" in predict.what
    teacher = run_page("live_class")
    teacher.button(key="live_start").click().run()
    teacher.selectbox(key="live_kind").set_value("estimate").run()
    teacher.number_input(key="live_seed").set_value(kit.LESSON_SEED).run()
    teacher.button(key="live_add").click().run()
    assert teacher.number_input(key="live_seed").value == kit.LESSON_SEED + 1 == kit.EXIT_SEED  # why it is said
    left_as_is = activities.generate("reorder", seed=teacher.number_input(key="live_seed").value)
    assert left_as_is in [spec for _, spec in activities.quiz_specs(kit.EXIT_SEED)]
