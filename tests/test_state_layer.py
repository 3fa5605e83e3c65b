"""The state/URL layer and the input-feedback defects of issues 12 and 16, under AppTest.

Each test names the defect it pins; each failed before its fix (old messages, tracebacks, rounded links).
"""

from __future__ import annotations

import json
import math
from urllib.parse import parse_qsl, urlsplit

import pytest

import ndcg_core
from tests.conftest import run_page
from tests.test_playground import drag
from ui import state, url_state

G = [3, 1, 2, 0, 2]
REFUSED = "could not be read (it names rows or columns that are not in the table)"


def ranking(at) -> state.Ranking:
    return at.session_state[state.RANKING_KEY].ranking


def edit(at, delta: dict, prefix: str = "playground_editor"):
    revision = at.session_state[state.RANKING_KEY].revision
    at.session_state[f"{prefix}_{revision}"] = {"edited_rows": {}, "added_rows": [], "deleted_rows": [], **delta}
    return at.run()


def texts(at) -> str:
    parts = [element.value for kind in ("error", "warning", "info", "caption", "markdown") for element in getattr(at, kind)]
    return "\n".join(str(part) for part in parts)


def open_playground(params: dict | None = None):
    at = run_page(None, query_params=params)
    assert not at.exception, at.exception
    return at


# --- issue 16 item 1: "Refuse" with extra judged documents ---------------------------------------------------

@pytest.mark.parametrize(("rule", "words"), [
    ("error", "which this rule refuses to compute"),
    ("zero", "which this rule reports as 0.0000"),
    ("one", "which this rule reports as 1.0000"),
    ("skip", "which this rule leaves undefined (n/a)"),
])
def test_extra_documents_note_says_in_words_what_idcg_would_be_without_them(rule, words):
    at = open_playground({"docs": "D1:0,D2:0", "extra": "D7:3", "z": rule})
    result = ndcg_core.evaluate([0, 0], ideal_relevances=[0, 0, 3], zero_idcg=rule)
    note = next(info.value for info in at.info if "Without the extra judged documents" in info.value)
    assert "IDCG would be 0 (no ranked document is relevant)" in note and words in note
    assert f"With them IDCG is {result.idcg:.4f} and NDCG is {result.ndcg:.4f}" in note


def test_extra_documents_are_said_to_be_outside_the_ranking_shown_not_missed_by_it():
    """A query opened from the Dataset page brings the run's top 1,000 documents; a relevant document the run ranked
    at 1,206 becomes an extra judged document, and the note said "the ranking missed relevant documents" of a run
    that had retrieved it. D1 3, D2 0 with D7 (grade 2) judged: IDCG 3 + 2/log2 3 instead of 3."""
    at = open_playground({"docs": "D1:3,D2:0", "extra": "D7:2", "gain": "linear"})
    note = next(info.value for info in at.info if "extra judged documents raise IDCG" in info.value)
    assert note.replace("\\", "") == (f"The extra judged documents raise IDCG from 3.0000 to {3 + 2 / math.log2(3):.4f}, "
                                        f"so NDCG drops from 1.0000 to {3 / (3 + 2 / math.log2(3)):.4f}: relevant "
                                        "judged documents are not in the ranking shown here.")


# --- issue 16 item 3: the share box names the real limit and the URL follows the page -----------------------

def test_share_box_names_the_real_limit_and_the_url_says_the_list_is_not_in_it():
    names = [f"{'long document name ' * 10}{i}"[:200] for i in range(165)]
    at = open_playground()
    at.session_state[state.RANKING_KEY] = state.PlaygroundState.of(state.make_ranking(names, [1.0] * 165))
    at.run()
    caption = next(c.value for c in at.caption if "cannot be shared as a link" in c.value)
    assert "characters" in caption and "1,000 documents" not in caption
    assert at.query_params.get("unlinked") == "165" and "docs" not in at.query_params
    reopened = open_playground({"unlinked": "165"})
    assert "too long to fit in a link" in texts(reopened) and ranking(reopened) == state.DEFAULT_RANKING


# --- issue 16 item 4: the server validates what the browser sends --------------------------------------------

@pytest.mark.parametrize(("delta", "needle"), [
    ({"edited_rows": {"abc": {"Grade": 1}}}, REFUSED),
    ({"edited_rows": {"²": {"Grade": 1}}}, REFUSED),
    ({"edited_rows": {"99": {"Grade": 1}}}, REFUSED),
    ({"edited_rows": {"1": {"Grade": 10**400}}}, "too large"),
    ({"edited_rows": {"1": {"Grade": "9" * 400}}}, "400 characters long"),
    ({"edited_rows": {"1": "x"}}, REFUSED),
    ({"edited_rows": "x"}, REFUSED),
    ({"deleted_rows": ["x"]}, REFUSED),
    ({"edited_rows": {"1": {"Grade": [1]}}}, "not a number"),
])
def test_hostile_editor_messages_are_refused_quietly(delta, needle):
    at = open_playground()
    edit(at, delta)
    assert not at.exception
    assert needle in at.error[0].value
    assert ranking(at).grades == tuple(G)


@pytest.mark.parametrize(("page", "key", "delta"), [
    ("compare", "compare_docs_editor", {"edited_rows": {"abc": {"grade": 1}}}),
    ("compare", "compare_docs_editor", {"deleted_rows": [99]}),
    ("conventions", "conventions_editor_equal", {"edited_rows": {"0": {"nope": 1}}}),
])
def test_hostile_editor_messages_on_other_pages_are_refused_quietly(page, key, delta):
    at = run_page(page)
    at.session_state[key] = {"edited_rows": {}, "added_rows": [], "deleted_rows": [], **delta}
    at.run()
    assert not at.exception
    assert any(REFUSED in error.value for error in at.error)


# --- issue 12: input feedback that says what happened ----------------------------------------------------------

def test_text_grade_is_called_not_a_number_not_blank():
    at = open_playground()
    edit(at, {"edited_rows": {"2": {"Grade": "abc"}}})
    assert "“abc” is not a number" in at.error[0].value and "blank" not in at.error[0].value


@pytest.mark.parametrize(("typed", "stored"), [("1e308", 1e308), ("12345678901234567890123456", 1.2345678901234568e25),
                                                ("12345678901.5", 12345678901.5)])
def test_typed_grades_are_stored_as_typed_not_mangled_or_dropped(typed, stored):
    at = open_playground({"gain": "linear"})
    edit(at, {"edited_rows": {"0": {"Grade": typed}}})
    assert not at.error
    assert ranking(at).grades[0] == stored


def test_a_grade_typed_as_minus_zero_is_zero_and_one_too_small_for_a_float_is_named():
    """"-0" was kept as -0.0: the formula said 2^{-0} - 1, the table and the share link "-0". "1e-400" became 0
    without a word, though every other unreadable grade is named."""
    at = open_playground()
    edit(at, {"edited_rows": {"2": {"Grade": "-0"}}})
    assert not at.error and math.copysign(1, ranking(at).grades[2]) == 1.0
    assert not [latex.value for latex in at.latex if "{-0}" in latex.value]
    assert at.query_params["docs"] == "D1:3,D2:1,D3:0,D4:0,D5:2"
    assert math.copysign(1, url_state.ranking_from_params({"docs": "D1:-0"})[0].grades[0]) == 1.0  # a link's too
    at = open_playground()
    edit(at, {"edited_rows": {"2": {"Grade": "1e-400"}}})
    assert "too small for a computer number" in at.error[0].value and "would be read as 0" in at.error[0].value
    assert ranking(at).grades == tuple(G)


def test_1e308_under_exponential_gain_says_why_in_the_sidebars_words():
    at = open_playground()
    edit(at, {"edited_rows": {"0": {"Grade": "1e308"}}})
    message = at.error[0].value
    assert "too large for exponential gain" in message and "“Gain” to “Linear: gain = grade”" in message
    assert ranking(at).grades == tuple(G)


def test_a_new_row_is_shown_with_the_name_the_list_gives_it():
    at = open_playground()
    columns = json.loads(at.dataframe(key="playground_editor_0").proto.columns)
    assert columns["Document"]["default"] == "D6" and columns["Grade"]["default"] == "0"
    edit(at, {"added_rows": [{}]})
    assert ranking(at).names[-1] == "D6"


def test_refuse_rule_error_names_the_sidebar_setting_not_internal_values():
    at = open_playground({"docs": "D1:0,D2:0", "z": "error"})
    message = at.error[0].value
    assert "“NDCG when IDCG = 0” setting" in message and "zero_idcg" not in message and "'zero'" not in message
    assert any(c.value.startswith("Change “NDCG when IDCG = 0” in the sidebar") for c in at.caption)


def test_cards_always_reserve_the_delta_line():
    at = open_playground()
    assert [m.delta for m in at.metric] == ["±0"] * 4
    at.button(key="playground_ideal").click().run()
    ndcg = next(m for m in at.metric if m.label == "NDCG")
    assert ndcg.delta.startswith("+") and all(m.delta for m in at.metric)


# --- links: exact round trips and hostile parameters -------------------------------------------------------

def test_grades_and_gain_table_values_round_trip_exactly():
    link = state.playground_link(["a", "b"], [12345678901.5, 0.1 + 0.2], settings=state.MetricSettings(
        gain="custom", gain_table=((0.0, 0.0), (0.30000000000000004, 1.5), (12345678901.5, 12345678901.5))))
    params = dict(parse_qsl(urlsplit(link).query))
    at = open_playground(params)
    assert ranking(at).grades == (12345678901.5, 0.30000000000000004)
    assert dict(at.session_state["settings"].gain_table)[12345678901.5] == 12345678901.5


@pytest.mark.parametrize("params", [
    {"k": "²"}, {"k": "1" * 100_000}, {"docs": "D1:0,D2:0", "z": "error"}, {"docs": "D1:²"},
    {"docs": "D1:" + "9" * 100_000}, {"gain": "custom", "gt": "0:0,1:" + "9" * 400},
])
def test_hostile_playground_links_warn_instead_of_a_traceback(params):
    at = open_playground(params)
    assert not at.exception
    assert at.warning or at.error


@pytest.mark.parametrize(("page", "params"), [
    ("step_by_step", {"pos": "²"}), ("step_by_step", {"pos": "9" * 100_000}), ("why_differ", {"cut": "²", "g": "9" * 100_000}), ("step_by_step", {"list": "\u202e"}),
    ("quiz", {"seed": "²"}), ("quiz", {"seed": "1" * 100_000}), ("compare", {"compare": "²", "slide": "x"}),
    ("conventions", {"case": "\x00", "rows": "A:²:1::1"}),
])
def test_hostile_parameters_on_other_pages_warn_instead_of_a_traceback(page, params):
    at = run_page(page, query_params=params)
    assert not at.exception
    assert at.warning


def test_a_hostile_cutoff_in_an_otherwise_valid_why_differ_link_is_named():
    # The case above with a too-long g is refused before cut is read; here cut is the only problem.
    at = run_page("why_differ", query_params={"g": "1,2", "cut": "²"})
    assert not at.exception
    warnings = " ".join(warning.value for warning in at.warning)
    assert "k must be a whole number" in warnings and "²" in warnings, warnings


# --- history: at most one URL write per action, none for a rerun that changes nothing ------------------------

def test_one_url_write_per_action_and_none_for_a_plain_rerun(url_writes):
    at = open_playground({"gain": "linear"})
    # The tab's first run leaves the address as opened: written then, it reached the browser before ui/history.py's
    # script and became a second history entry for the page (one Back stayed on it).
    assert url_writes == []
    at.run()  # the next run writes the whole state once (a replace, in the browser)
    assert url_writes == [{"gain": "linear", "base": "2", "z": "zero", "docs": "D1:3,D2:1,D3:2,D4:0,D5:2"}]
    url_writes.clear()
    at.run()
    assert url_writes == []  # nothing changed: no write
    at.button(key="playground_reverse").click().run()
    assert len(url_writes) == 1 and url_writes[0]["docs"].startswith("D5:")
    url_writes.clear()
    at.sidebar.radio(key="settings_gain").set_value("exponential").run()
    assert len(url_writes) == 1 and url_writes[0]["gain"] == "exponential"


def test_a_move_undone_by_a_request_sent_before_the_first_moves_address_arrived_is_written(url_writes):
    """A double tap on ▲ (the second tap lands on the row that took the first one's place) showed the list as it
    was, while the address bar kept the first tap's list: the second tap's request carried the address from before
    the first tap's write, which equals the state it made, so nothing was written; a reload or a copied address then
    opened the other list (NDCG 0.6368 instead of the 0.6561 on screen)."""
    shown = {"gain": "exponential", "base": "2", "z": "zero", "docs": "D2:1,D3:2,D5:2,D4:0,D1:3"}
    at = open_playground(shown)
    drag(at, [0, 1, 3, 2, 4])  # first tap: D4 up
    assert url_writes[-1]["docs"] == "D2:1,D3:2,D4:0,D5:2,D1:3"
    at.query_params.clear()
    at.query_params.update(shown)  # the browser had not received that write when it sent the second tap
    drag(at, [0, 1, 3, 2, 4])  # second tap, same place: D5 up, back to the list as opened
    assert ranking(at).names == ("D2", "D3", "D5", "D4", "D1")
    assert url_writes[-1] == shown  # written again: the bar ends on the list shown, not the first tap's
    url_writes.clear()
    at.run()
    assert url_writes == []  # and a plain rerun still writes nothing


def test_opening_a_worked_example_says_which_settings_it_changed():
    """Issue 12: opening or walking a worked example silently rewrote the sidebar settings."""
    at = run_page("worked_examples")
    example = next(i for i, e in enumerate(ndcg_core.WORKED_EXAMPLES) if e.gain == "linear")
    at.button(key=f"example_open_{example}").click().run()
    assert not at.exception
    notice = next(info.value for info in at.sidebar.info)
    assert "was opened with its document's convention, so the settings changed" in notice
    assert "Gain: Exponential: 2^grade − 1 → Linear: gain = grade" in notice
    at.sidebar.radio(key="settings_log_base").set_value("e").run()
    assert not at.sidebar.info  # gone once the user changes a setting


def test_opening_another_example_with_the_same_settings_drops_the_first_ones_notice():
    """The sidebar kept saying "The worked example “Worst order …” was opened …" after the next card, with the same
    settings, was opened: the notice named an example that was not the one shown."""
    at = run_page("worked_examples")
    first, second = 2, 3  # worst and best order of one document: exponential gain, k = 5, natural log
    convention = [(e.gain, e.k, e.log_base) for e in ndcg_core.WORKED_EXAMPLES[first:second + 1]]
    assert convention[0] == convention[1] and convention[0][1:] != (None, 2.0)  # the same, not the default
    at.button(key=f"example_open_{first}").click().run()
    assert ndcg_core.WORKED_EXAMPLES[first].title in next(info.value for info in at.sidebar.info)
    at.switch_page("pages/worked_examples.py").run()
    at.button(key=f"example_open_{second}").click().run()
    assert not at.exception
    assert not [info.value for info in at.sidebar.info if ndcg_core.WORKED_EXAMPLES[first].title in info.value]


def test_tie_groups_of_a_list_opened_from_a_run_are_in_its_share_link():
    """A list opened from the Dataset page under "average" ties reopens with the same averaged figure."""
    tied = state.make_ranking(["a", "b", "c"], [3, 0, 1], tie_groups=[0, 0, 1])
    at = open_playground(dict(parse_qsl(urlsplit(state.url_state.playground_link(tied, state.MetricSettings())).query)))
    assert ranking(at) == tied
    expected = ndcg_core.evaluate([3, 0, 1], tie_groups=[0, 0, 1])
    assert next(m.value for m in at.metric if m.label == "NDCG") == f"{expected.ndcg:.4f}"
    broken = open_playground({"docs": "a:3,b:0", "tg": "0,²"})
    assert "tie groups" in texts(broken) and ranking(broken) == state.DEFAULT_RANKING


def test_views_reach_session_and_url_only_through_the_state_layer():
    """One typed state object per page (e.g. ui/live/state.py, via ui.session) and URL parameters only via
    ui.url_state: no other module of ui/ or pages/ (nor app.py) touches st.session_state or st.query_params itself
    (ui/score_mode.py and ui/ranked_list.py did)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    doors = {"st.session_state": root / "ui" / "session.py", "st.query_params": root / "ui" / "url_state.py"}
    files = sorted([*(root / "ui").rglob("*.py"), *(root / "pages").glob("*.py"), root / "app.py"])
    bare = [f"{path.relative_to(root)}:{number}" for path in files
            for number, line in enumerate(path.read_text().splitlines(), 1)
            for name, door in doors.items() if path != door and re.search(re.escape(name) + r"\s*[.\[(]", line)]
    assert len(files) > 60 and bare == []


def test_a_link_with_a_misspelt_parameter_name_says_so_instead_of_silently_showing_other_numbers():
    """/?gain=linear&dosc=D1:3,D2:1 showed the built-in list and /?GAIN=linear exponential gain, with no word: a
    bad value was named, a bad name never. The warning stays on the page the link opened, not on the next one."""
    at = run_page(None, query_params={"gain": "linear", "dosc": "D1:3,D2:1"})
    assert not at.exception
    assert [w.value for w in at.warning] == [
        "The link has parameters this app does not read, left out: “dosc” (did you mean “docs”?)."]
    assert "dosc" not in at.query_params and at.query_params["gain"] == "linear"  # the address shows what is used
    at.run()
    assert len(at.warning) == 1
    at.switch_page("pages/step_by_step.py").run()
    assert not [w for w in at.warning if "does not read" in w.value]
    quiz = run_page("quiz", query_params={"sed": "46"})
    assert [w.value for w in quiz.warning] == [
        "The link has parameters this app does not read, left out: “sed” (did you mean “seed”?)."]


def test_every_name_the_app_reads_passes_and_a_repeated_one_is_named():
    from ui import url_state

    assert url_state.unread_names(sorted(url_state.KNOWN), {}) is None
    assert url_state.unread_names(["gain", "docs"], {"gain": 2, "docs": 1}) == (
        "The link gives “gain” more than once: the last value is used.")
    assert url_state.unread_names(["GAIN", "utm_source"], {}) == (
        "The link has parameters this app does not read, left out: “GAIN” (did you mean “gain”?), “utm_source”.")
    at = run_page(None, query_params={name: "x" for name in sorted(url_state.MANAGED)})
    assert not at.exception and not [w for w in at.warning if "does not read" in w.value]


def test_extra_documents_that_change_no_ndcg_are_not_said_to_lower_it():
    """k = 1 with A 0 ranked first and C 3, D 2 judged: IDCG@1 goes 1 -> 3 and NDCG stays 0, and the note said "NDCG
    drops from 0.0000 to 0.0000". With every grade 0 (extras too) it said "no relevant judged document is in the
    ranking shown here", of a query with no relevant document at all."""
    at = open_playground({"docs": "A:0,B:1", "extra": "C:3,D:2", "k": "1", "gain": "linear"})
    note = next(info.value for info in at.info if "extra judged documents raise IDCG" in info.value)
    assert note.replace("\\", "") == ("The extra judged documents raise IDCG from 1.0000 to 3.0000; NDCG stays 0.0000, "
                                      "as DCG is 0.")
    nothing = open_playground({"docs": "A:0,B:0", "extra": "C:0", "z": "one"})
    assert not [info.value for info in nothing.info if "extra judged documents" in info.value]
    assert any(caption.value.startswith("The extra judged documents do not change IDCG: no document, ranked or extra, "
                                        "is relevant") for caption in nothing.caption)


def test_opening_a_worked_example_whose_convention_the_sidebar_has_says_so():
    """Document 002's B, A, D, C (exponential gain, log base 2, whole list) opened in a new session, from the card
    or its walk-through, left the sidebar without a word: nothing said that the numbers shown were under the
    example's convention, where every other example named what it changed."""
    index, example = next((i, e) for i, e in enumerate(ndcg_core.WORKED_EXAMPLES) if e.key == "002-badc")
    for button in ("example_open", "example_walk"):
        at = run_page("worked_examples")
        at.button(key=f"{button}_{index}").click().run()
        assert not at.exception
        notices = [info.value for info in at.sidebar.info]
        assert len(notices) == 1 and f"“{example.title}”" in notices[0], (button, notices)
        assert "the settings already matched it, so none changed" in notices[0]
        settings = at.session_state["settings"]
        assert (settings.gain, settings.log_base, settings.k) == ("exponential", "2", None)


def test_a_link_whose_tie_group_is_split_by_another_document_is_refused_not_described_as_averaged():
    """A hand-edited ``tg=1,2,1`` opened a, b, c with the note "Tied scores in the run: a, c. … each tied document
    gets the mean gain of its group", while the figures did not average them (ndcg_core averages neighbouring
    positions with one label only): NDCG 1.0000 and DCG 9.3928 (gains 7, 3, 1), not the 7.8928 of averaged gains
    (4, 3, 4). A run's tied documents are always neighbours, so such a link is refused, and said so."""
    at = open_playground({"docs": "a:3,b:2,c:1", "tg": "1,2,1"})
    assert not [info.value for info in at.info if "Tied scores in the run" in info.value]
    assert "tie groups" in texts(at) and ranking(at) == state.DEFAULT_RANKING
    neighbours = open_playground({"docs": "a:3,b:2,c:1", "tg": "1,1,2"})  # a and b tied, next to each other
    expected = ndcg_core.evaluate([3, 2, 1], tie_groups=[1, 1, 2])
    assert next(m.value for m in neighbours.metric if m.label == "DCG") == f"{expected.dcg:.4f}" == "8.6546"
