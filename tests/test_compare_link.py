"""Compare page, two rankings: the share link reproduces both rankings, their names and grades and the settings.

Before the fix the link held only ``compare=lists`` (and the settings): whoever opened it saw the example rankings,
not the ones being shown. Each test here failed then. The URL layer is ``ui.url_state`` (``judged``, ``order_a``,
``order_b``, ``lists_unlinked``); the page is ``ui.compare_lists``.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qsl, urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ndcg_core
from tests.conftest import chart_specs, copy_links, run_page
from ui import compare_lists, state, url_state
from ui.ranked_list import moves_to
from ui.settings_model import MetricSettings
from ui.widgets import isolated

LABEL = "Share link of these rankings"
EXAMPLE = {side: compare_lists.EXAMPLE_ORDERS[side] for side in ("A", "B")}
LINK_PARAMS = ("judged", "order_a", "order_b", "lists_unlinked")  # the link format (ui/url_state.py's docstring)
EXAMPLE_PARAMS = {"judged": "D1:3,D2:2,D3:3,D4:0,D5:1,D6:2,D7:0,D8:1", "order_a": "0,1,2,3,4,5,6,7",
                  "order_b": "2,3,0,5,1,7,4,6"}


def orders(at) -> dict[str, list[str]]:
    return {side: list(at.session_state[key]) for side, key in compare_lists.ORDER_KEYS.items()}


def cards(at) -> list[tuple[str, str, str]]:
    return [(m.label, m.value, m.delta) for m in at.metric]


def seen(at) -> dict:
    """Every figure the page shows: cards (with deltas), texts, tables and charts (their data and titles)."""
    return {"cards": cards(at), "texts": [t.value for t in at.text],
            "tables": [df.value.to_json() for df in at.dataframe if df.key != compare_lists.EDITOR_KEY],
            "charts": [json.dumps(spec, sort_keys=True, default=str) for spec in chart_specs(at)]}


def link_params(at) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(copy_links(at)[LABEL]).query, keep_blank_values=True))


def expected_ndcg(grades: list[float], all_grades: list[float], metric: MetricSettings) -> str:
    value = ndcg_core.evaluate(grades, ideal_relevances=all_grades, **metric.kwargs()).ndcg
    return f"{value:.4f}"


def ndcg_cards(at) -> list[str]:
    return [m.value for m in at.metric if m.label.startswith("NDCG")]


# --- a state made on the page reopens to the same figures ---------------------------------------------------

def test_a_comparison_made_on_the_page_reopens_from_its_link_with_every_figure_equal():
    at = run_page("compare")
    at.sidebar.radio(key="settings_gain").set_value("linear")
    at.sidebar.radio(key="settings_log_base").set_value("e")
    at.sidebar.number_input(key="settings_k").set_value(5).run()
    # Names with the link's separators and non-ASCII, a grade that is not short in decimal, a new document.
    at.session_state[compare_lists.EDITOR_KEY] = {
        "edited_rows": {1: {"document": "D2, 'ü':50% <b>"}, 3: {"grade": 0.1 + 0.2}},
        "added_rows": [{"document": "N", "grade": 12345678901.5}], "deleted_rows": [6]}
    at.run()
    at.session_state["compare_list_B"] = moves_to(at.session_state, "compare_list_B", [7, *range(7)])
    at.run()
    at.button(key="compare_ideal_a").click().run()
    assert not at.exception and not at.error, (at.exception, at.error)
    sent, sent_orders = seen(at), orders(at)
    assert sent_orders["A"][0] == "N" and sent_orders["B"][0] != "D3"  # the actions above took effect
    params = link_params(at)
    assert params["compare"] == "lists" and params["gain"] == "linear" and params["k"] == "5"
    assert params["judged"].startswith("D1:3,D2%2C%20%27ü%27%3A50%25%20%3Cb%3E:2,D3:3,D4:0.30000000000000004,")
    assert {name: at.query_params[name] for name in params} == params  # the address bar is the share link

    opened = run_page("compare", query_params=params)  # a fresh session: someone else opens the link
    assert not opened.exception and not opened.warning and not opened.error
    assert orders(opened) == sent_orders
    assert seen(opened) == sent  # every card, delta, sentence, table and chart
    # ... and they are ndcg_core's figures for those rankings, not just equal to each other.
    grade_of = dict(zip(*(opened.session_state[compare_lists.DOCS_KEY][column].tolist()
                          for column in ("document", "grade")), strict=True))
    assert grade_of["D4"] == 0.30000000000000004 and grade_of["N"] == 12345678901.5 and "D7" not in grade_of
    metric = MetricSettings(gain="linear", log_base="e", k=5)
    all_grades = list(grade_of.values())
    assert ndcg_cards(opened) == [expected_ndcg([grade_of[n] for n in sent_orders[side]], all_grades, metric)
                                  for side in ("A", "B")]
    assert ndcg_cards(opened)[0] == "1.0000"  # A was put in the ideal order


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.text(min_size=1, max_size=12).filter(lambda name: name.strip() != ""), min_size=1, max_size=8,
                unique=True).flatmap(lambda names: st.tuples(
                    st.just(names), st.lists(st.integers(0, 4).map(float) | st.floats(0, 20), min_size=len(names),
                                             max_size=len(names)),
                    st.permutations(names), st.permutations(names))),
       st.sampled_from(["exponential", "linear"]), st.none() | st.integers(1, 10))
def test_every_two_rankings_link_reopens_to_ndcg_cores_figures(lists, gain, k):
    names, grades, order_a, order_b = lists
    metric = MetricSettings(gain=gain, k=k)
    link = url_state.compared_lists_link(url_state.ComparedLists(tuple(names), tuple(grades), tuple(order_a),
                                                                 tuple(order_b)))
    at = run_page("compare", query_params={**url_state.settings_params(metric), "compare": "lists", **link.params})
    assert not at.exception and not at.warning
    assert orders(at) == {"A": list(order_a), "B": list(order_b)}
    grade_of = dict(zip(names, grades, strict=True))
    assert ndcg_cards(at) == [expected_ndcg([grade_of[n] for n in order], grades, metric) for order in (order_a, order_b)]


def test_the_example_comparison_is_in_the_address_and_a_swap_follows():
    at = run_page("compare").run()
    assert {name: at.query_params[name] for name in EXAMPLE_PARAMS} == EXAMPLE_PARAMS
    at.button(key="compare_swap").click().run()
    assert at.query_params["order_a"] == EXAMPLE_PARAMS["order_b"]
    assert at.query_params["order_b"] == EXAMPLE_PARAMS["order_a"]
    assert link_params(at)["order_a"] == EXAMPLE_PARAMS["order_b"]


# --- the other mode, other pages, history ------------------------------------------------------------------------

def test_the_runs_mode_keeps_its_own_link_and_the_rankings_come_back_with_the_lists_mode():
    at = run_page("compare", query_params={"compare": "lists", "judged": "a:1,b:3", "order_a": "0,1", "order_b": "1,0"})
    at.radio(key="compare_mode").set_value("runs").run()
    assert not at.exception
    assert at.query_params["compare"] == "runs"
    assert not set(LINK_PARAMS) & set(at.query_params)  # not what a runs link shows
    assert LABEL not in copy_links(at)
    at.radio(key="compare_mode").set_value("lists").run()
    assert at.query_params["order_b"] == "1,0" and orders(at) == {"A": ["a", "b"], "B": ["b", "a"]}
    slide = run_page("compare", query_params={"compare": "runs", "slide": "1"})
    assert not slide.exception and slide.header[0].value == "Neural vs BM25: NDCG"


def test_the_playground_opened_after_a_compare_link_shows_its_own_list():
    at = run_page("compare", query_params={"compare": "lists", "judged": "a:1,b:3", "order_a": "0,1", "order_b": "1,0"})
    at.switch_page("pages/playground.py").run()
    assert not at.exception
    assert at.session_state[state.RANKING_KEY].ranking == state.DEFAULT_RANKING


def test_one_url_write_per_action_and_none_for_opening_the_link_or_a_plain_rerun(url_writes):
    params = {"gain": "exponential", "base": "2", "z": "zero", "compare": "lists", **EXAMPLE_PARAMS}
    at = run_page("compare", query_params=params)
    at.run()
    assert url_writes == []  # the address already is the state: Back history untouched
    at.button(key="compare_swap").click().run()
    assert len(url_writes) == 1 and url_writes[0]["order_a"] == EXAMPLE_PARAMS["order_b"]
    at.run()
    assert len(url_writes) == 1


# --- bad, hostile and oversized links ------------------------------------------------------------------------------

@pytest.mark.parametrize(("params", "words"), [
    ({"judged": "a:1,b:2", "order_a": "0,0", "order_b": "1,0"}, "ranking A: it does not name each of the 2"),
    ({"judged": "a:1,b:2", "order_a": "0,1", "order_b": "0,2"}, "ranking B"),
    ({"judged": "a:1,b:2", "order_a": "0,1"}, "ranking B"),
    ({"judged": "a:1,b:2", "order_a": "0,1", "order_b": "1,²"}, "ranking B"),
    ({"judged": "a:1,b:2", "order_a": "0,1,0", "order_b": "1,0"}, "ranking A"),
    ({"judged": "a:1,b:2", "order_a": "0," * 20_000 + "1", "order_b": "1,0"}, "longer than 30,000 characters"),
    ({"judged": "a:1,a:2", "order_a": "0,1", "order_b": "1,0"}, "two documents have the same name"),
    ({"judged": "a:1e400", "order_a": "0", "order_b": "0"}, "too large"),
    ({"judged": "a:-1", "order_a": "0", "order_b": "0"}, "negative"),
    ({"judged": "a:٣", "order_a": "0", "order_b": "0"}, "not a number"),
    ({"judged": "", "order_a": "", "order_b": ""}, "it has no documents"),
    ({"order_a": "0"}, "it has no documents"),
    ({"judged": "x" * 40_000 + ":1", "order_a": "0", "order_b": "0"}, "longer than 30,000 characters"),
    ({"judged": "x" * 201 + ":1", "order_a": "0", "order_b": "0"}, "longer than 200 characters"),
    ({"judged": "D1:3," * 1_001 + "D2:1", "order_a": "0", "order_b": "0"}, "more than 1,000 documents"),
    ({"lists_unlinked": "2000"}, "too long to fit in a link"),
])
def test_a_bad_link_is_refused_with_a_message_and_the_example_is_shown(params, words):
    at = run_page("compare", query_params={"compare": "lists", **params})
    assert not at.exception, at.exception
    warnings = " ".join(warning.value for warning in at.warning)
    assert words in warnings, warnings
    assert "²" not in warnings and "٣" not in warnings and "xxxx" not in warnings  # the link's text is never quoted
    assert orders(at) == EXAMPLE
    # The address bar is corrected at once (it shows the example, as the page does).
    assert {name: at.query_params[name] for name in EXAMPLE_PARAMS} == EXAMPLE_PARAMS


def test_a_bad_links_warning_stays_until_the_rankings_change():
    at = run_page("compare", query_params={"compare": "lists", "judged": "a:1", "order_a": "1", "order_b": "0"})
    assert any("could not be used" in w.value for w in at.warning)
    at.run()
    assert any("could not be used" in w.value for w in at.warning)
    at.button(key="compare_swap").click().run()
    assert not at.warning


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(LINK_PARAMS),
                       st.text(max_size=40) | st.sampled_from(["0,1", "1,0", "0", "a:1,b:2", "²", "-1", "1e400"]),
                       max_size=4))
def test_the_reader_never_raises_and_refuses_what_it_cannot_use(params):
    lists, problem = url_state.compared_lists_from_params(params)
    if lists is None:
        assert problem is not None or not params
    else:
        assert problem is None and sorted(lists.order_a) == sorted(lists.order_b) == sorted(lists.names)


def test_rankings_too_big_for_a_link_say_so_and_the_address_says_they_are_not_in_it():
    names = [f"{'long document name ' * 10}{i}"[:200] for i in range(165)]  # 33,000+ characters of names
    at = run_page("compare")
    at.session_state[state.RANKING_KEY] = state.PlaygroundState.of(state.make_ranking(names, [1.0] * 165))
    at.run()  # the button loads the Playground's list as it was when the button was drawn
    at.button(key="compare_from_playground").click().run()
    assert not at.exception
    caption = next(c.value for c in at.caption if "cannot be shared as a link" in c.value)
    assert "characters" in caption and LABEL not in copy_links(at)
    assert at.query_params["lists_unlinked"] == "165" and "judged" not in at.query_params
    at.session_state[compare_lists.EDITOR_KEY] = {"edited_rows": {}, "added_rows": [], "deleted_rows": list(range(1, 165))}
    at.run()  # one long name left: still fits
    assert at.query_params["judged"] == f"{names[0].replace(' ', '%20')}:1"
    at.session_state[compare_lists.EDITOR_KEY] = {"edited_rows": {0: {"document": "n" * 201}}, "added_rows": [],
                                                  "deleted_rows": list(range(1, 165))}
    at.run()  # a name the link reader refuses is never written
    assert at.query_params["lists_unlinked"] == "1"
    assert any("longer than 200 characters" in c.value for c in at.caption)


# --- grades a gain cannot take: kept, and the page says why (never a traceback) -----------------------------------

def test_a_link_whose_grade_overflows_its_gain_keeps_the_rankings_and_says_why():
    """As on the Playground: the sender saw this error, so the recipient sees it too, not the example."""
    at = run_page("compare", query_params={"compare": "lists", "judged": "a:5000,b:1", "order_a": "0,1",
                                           "order_b": "1,0"})
    assert not at.exception and not at.warning
    assert any("too large for exponential gain" in e.value for e in at.error)
    assert orders(at) == {"A": ["a", "b"], "B": ["b", "a"]}
    at.sidebar.radio(key="settings_gain").set_value("linear").run()
    assert not at.error and at.query_params["judged"] == "a:5000,b:1"
    metric = MetricSettings(gain="linear")
    assert ndcg_cards(at) == [expected_ndcg(grades, [5000, 1], metric) for grades in ([5000, 1], [1, 5000])]


def test_choosing_a_gain_the_grades_overflow_says_why_instead_of_a_traceback():
    """A grade of 5000 under linear gain (shared in a link), then exponential gain: the page re-checked its table under
    the new gain while recovering from the refused one, and raised a traceback."""
    at = run_page("compare", query_params={"gain": "linear", "compare": "lists", "judged": "a:5000,b:1",
                                           "order_a": "0,1", "order_b": "1,0"})
    shown = ndcg_cards(at)
    at.sidebar.radio(key="settings_gain").set_value("exponential").run()
    assert not at.exception, at.exception
    errors = " ".join(e.value for e in at.error)
    assert "too large for exponential gain" in errors and "Edit not applied" not in errors  # nothing was edited
    assert at.query_params["judged"] == "a:5000,b:1"  # the address still holds what the page shows
    at.sidebar.radio(key="settings_gain").set_value("linear").run()
    assert not at.error and ndcg_cards(at) == shown


def test_a_playground_list_that_names_a_document_twice_cannot_be_loaded():
    """Two rankings of the same documents need distinct names: loading such a list raised a traceback."""
    at = run_page(None, query_params={"docs": "a:1,a:2,b:0"})
    at.switch_page("pages/compare.py").run()
    button = at.button(key="compare_from_playground")
    assert button.disabled and "names a document twice" in button.help
    assert not at.exception and orders(at) == EXAMPLE


def test_the_playground_list_brings_its_judged_documents_outside_the_ranking():
    """The Playground's A, B, C, D with E (grade 3) judged but not ranked: IDCG 9.8235 there, 4.1309 in both of
    Compare's rankings after "Playground list" (E dropped without a word, and the page still said the ideal is
    every judged document)."""
    at = run_page(None, query_params={"docs": "A:1,B:2,C:0,D:1", "extra": "E:3"})
    playground_idcg = next(m.value for m in at.metric if m.label == "IDCG")
    assert playground_idcg == f"{ndcg_core.evaluate([1, 2, 0, 1], ideal_relevances=[1, 2, 0, 1, 3]).idcg:.4f}" == "9.8235"
    at.switch_page("pages/compare.py").run()
    at.button(key="compare_from_playground").click().run()
    assert not at.exception
    assert orders(at) == {"A": ["A", "B", "C", "D", "E"], "B": ["A", "B", "C", "D", "E"]}
    expected = ndcg_core.evaluate([1, 2, 0, 1, 3])  # E at the end; the ideal of all five judged documents
    assert [m.value for m in at.metric if m.label.startswith("IDCG")] == [f"{expected.idcg:.4f}"] * 2 == ["9.8235"] * 2
    assert ndcg_cards(at) == [f"{expected.ndcg:.4f}"] * 2
    assert any(f"1 judged document outside its ranking ({isolated('E')}) is at the end of both rankings" in i.value
               for i in at.info)
    assert link_params(at)["judged"] == "A:1,B:2,C:0,D:1,E:3"
    at.run()  # said once
    assert not any("outside its ranking" in i.value for i in at.info)
