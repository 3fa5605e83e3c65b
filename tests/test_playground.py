"""The Playground page under AppTest: every number shown equals ndcg_core's for the same input.

Edits go through the data editor's session-state protocol, reorders through the ranked-list
component's state (the same messages the browser sends), buttons through AppTest clicks.
"""

from __future__ import annotations

import ast
import math
from urllib.parse import parse_qsl, urlsplit

import pytest
from streamlit.proto.Metric_pb2 import Metric

import ndcg_core
from tests.conftest import chart_specs, chart_values, run_page
from ui import state
from ui.ranked_list import last_applied, moves_to, row_ids
from ui.settings import MetricSettings
from ui.widgets import isolated, plain

G = [3, 1, 2, 0, 2]  # 000_0bdd5abdb117b00b.txt


def shown_metrics(at) -> dict[str, str]:
    """Metric card label (e.g. 'NDCG@3') -> displayed value."""
    return {metric.label: metric.value for metric in at.metric}


def expected_metrics(grades, *, k=None, ideal=None, **kwargs) -> dict[str, str]:
    result = ndcg_core.evaluate(grades, k=k, ideal_relevances=ideal, **kwargs)
    suffix = "" if k is None else f"@{k}"
    return {f"{name}{suffix}": f"{getattr(result, name.lower()):.4f}" for name in ("CG", "DCG", "IDCG", "NDCG")}


def ranking(at) -> state.Ranking:
    return at.session_state[state.RANKING_KEY].ranking


def editor_key(at, prefix: str = "playground_editor") -> str:
    revision = at.session_state[state.RANKING_KEY].revision
    return f"{prefix}_{revision}"


def edit(at, *, edited=None, added=None, deleted=None, prefix="playground_editor"):
    at.session_state[editor_key(at, prefix)] = {
        "edited_rows": edited or {}, "added_rows": added or [], "deleted_rows": deleted or [],
    }
    return at.run()


class Browser:
    """Sends a ranking editor's edits as the browser does: its state accumulates while the editor keeps its key
    (each message carries every edit made since the editor was drawn) and starts empty when the key changes."""

    def __init__(self, at):
        self.at, self.key, self.delta = at, None, None

    def edit(self, *, edited=None, added=None, deleted=None):
        key = editor_key(self.at)
        if key != self.key:
            self.key, self.delta = key, {"edited_rows": {}, "added_rows": [], "deleted_rows": []}
        for row, cells in (edited or {}).items():
            self.delta["edited_rows"].setdefault(row, {}).update(cells)
        self.delta["added_rows"].extend(added or [])
        self.delta["deleted_rows"].extend(deleted or [])
        self.at.session_state[key] = {part: value.copy() for part, value in self.delta.items()}
        self.at.run()
        assert not self.at.exception, self.at.exception
        return self.at


def drag(at, perm):
    """Send the message the browser sends after drags: the queued moves that turn the shown list into ``perm``."""
    at.session_state["playground_list"] = moves_to(at.session_state, "playground_list", perm)
    return at.run()


def open_playground(query_params: dict | None = None):
    """The app as a visitor opens it: app.py (sidebar, navigation) on its default page, the Playground.

    (AppTest's switch_page drops the sidebar from the element tree, so the default page is used directly.)
    """
    return run_page(None, query_params=query_params)


def click(at, kind: str):
    at.button(key=f"playground_{kind}").click()
    return at.run()


@pytest.fixture
def at():
    page = open_playground()
    assert not page.exception, page.exception
    return page


def test_default_example_matches_ndcg_core_and_document_000(at):
    assert shown_metrics(at) == expected_metrics(G)
    # 000_0bdd5abdb117b00b.txt prints NDCG@5: 0.950849602851865 (natural log; NDCG does not depend on the base).
    assert shown_metrics(at)["NDCG"] == "0.9508"
    assert ranking(at).names == ("D1", "D2", "D3", "D4", "D5")
    assert not at.error and not at.warning


def test_formula_substitutes_the_current_numbers(at):
    latex = [element.value for element in at.latex]
    result = ndcg_core.evaluate(G)
    assert any(f"= {result.dcg:.4f}" in text and r"\frac{2^{3}-1}{\log_2(1+1)}" in text for text in latex)
    assert any(f"= {result.idcg:.4f}" in text for text in latex)
    assert any(f"= {result.ndcg:.4f}" in text for text in latex)


def test_editing_a_grade_updates_every_metric(at):
    edit(at, edited={1: {"Grade": 3}})
    assert not at.exception
    assert ranking(at).grades == (3, 3, 2, 0, 2)
    assert shown_metrics(at) == expected_metrics([3, 3, 2, 0, 2])
    at.run()  # the edit applies exactly once: a further rerun changes nothing
    assert ranking(at).grades == (3, 3, 2, 0, 2)


def test_deltas_show_the_change_since_the_previous_ordering(at):
    before = ndcg_core.evaluate(G)
    edit(at, edited={1: {"Grade": 3}})
    after = ndcg_core.evaluate([3, 3, 2, 0, 2])
    deltas = {metric.label: metric.delta for metric in at.metric}
    assert deltas["NDCG"] == f"{after.ndcg - before.ndcg:+.4f}"
    assert deltas["DCG"] == f"{after.dcg - before.dcg:+.4f}"


def test_a_new_k_or_gain_says_what_the_figures_were_without_a_better_or_worse_arrow(at):
    """k = 3 measures the same ranking differently: NDCG@3 0.8786 beside "-0.0723" in red said the ranking had got
    worse than the whole list's 0.9508. The cards now say what the figures were, in grey; a move after it has its
    arrow again."""
    whole, top3 = ndcg_core.evaluate(G), ndcg_core.evaluate(G, k=3)
    at.number_input(key="settings_k").set_value(3).run()
    cards = {metric.label: metric for metric in at.metric}
    assert cards["NDCG@3"].value == f"{top3.ndcg:.4f}" == "0.8786"
    assert cards["NDCG@3"].delta == f"was {whole.ndcg:.4f}" == "was 0.9508"
    assert cards["CG@3"].delta == "was 14.0000"  # by hand: 3 + 1 + 2 + 0 + 2 -> 3 + 1 + 2 at k = 3
    assert {metric.proto.color for metric in at.metric} == {Metric.MetricColor.GRAY}  # delta_color="off"
    annotation = next(a for figure in chart_specs(at) for a in figure["layout"]["annotations"] if "NDCG" in a["text"])
    assert "NDCG 0.9508 → 0.8786 (new settings)" in annotation["text"]  # not "(−0.0723)" on the chart either
    drag(at, [1, 0, 2, 3, 4])  # a move under the new k: a real change of the ranking, with its sign
    moved = ndcg_core.evaluate([1, 3, 2, 0, 2], k=3)
    assert deltas(at)["NDCG@3"] == f"{moved.ndcg - top3.ndcg:+.4f}"


def test_ndcg_going_to_n_a_says_what_it_was_not_no_change():
    """Under "skip", a list whose ideal is all zero has no NDCG ("n/a"). D1's grade 3 -> 0 on D1:3, D2:0 takes NDCG
    from 1.0000 to n/a: the card said "±0" (no change) while the chart's title said "NDCG 1.0000 → n/a"."""
    at = run_page("playground", query_params={"z": "skip", "docs": "D1:3,D2:0"})
    assert shown_metrics(at)["NDCG"] == "1.0000"
    edit(at, edited={0: {"Grade": "0"}})
    assert shown_metrics(at)["NDCG"] == "n/a"
    assert deltas(at)["NDCG"] == "was 1.0000" and deltas(at)["DCG"] == "-7.0000"  # by hand: 2^3 - 1 = 7 -> 0
    edit(at, edited={0: {"Grade": "2"}})  # and back: a value again, from n/a
    assert shown_metrics(at)["NDCG"] == "1.0000" and deltas(at)["NDCG"] == "was n/a"


def _press(at, queue: list, name: str, grade: float, start: int, to: int, *, continues: bool) -> None:
    """One ▲/▼ press on ``name`` as the browser queues it (``continues``: made while earlier presses were still
    unanswered), the whole unacknowledged queue sent, then the run the browser's message starts."""
    (doc,) = [d for d in row_ids(ranking(at).names, ranking(at).grades) if d.startswith(f"{name}\x1f{float(grade)!r}")]
    seq = (queue[-1]["seq"] if queue else last_applied(at.session_state, "playground_list")) + 1
    queue.append({"seq": seq, "id": doc,
                  "from": start, "to": to, "continues": continues})
    at.session_state["playground_list"] = {"moves": list(queue)}


def deltas(at) -> dict[str, str]:
    return {metric.label: metric.delta for metric in at.metric}


def test_a_double_press_shows_its_change_since_the_figures_shown_before_it(at):
    """Two ▼ presses 0.1 s apart reach the server in two runs; the second, made before the first one's answer
    arrived, continues it. The cards said −0.0484 (the change since the in-between order, which the person never
    saw settle) instead of −0.2530, and a press down and back up showed −0.0682 beside an unchanged NDCG."""
    start = ndcg_core.evaluate(G)
    _press(at, queue := [], "D1", 3, 0, 1, continues=False)
    at.run()
    middle = ndcg_core.evaluate([1, 3, 2, 0, 2])
    assert deltas(at)["NDCG"] == f"{middle.ndcg - start.ndcg:+.4f}"
    _press(at, queue, "D1", 3, 1, 2, continues=True)  # the first is still queued in the browser
    at.run()
    end = ndcg_core.evaluate([1, 2, 3, 0, 2])
    assert ranking(at).names == ("D2", "D3", "D1", "D4", "D5")
    assert deltas(at)["NDCG"] == f"{end.ndcg - start.ndcg:+.4f}" == "-0.2530"  # by hand: 0.6979 - 0.9508
    assert deltas(at)["DCG"] == f"{end.dcg - start.dcg:+.4f}"
    # The next press, made after that answer arrived, is a change of its own: since the figures now shown.
    _press(at, [], "D1", 3, 2, 3, continues=False)
    at.run()
    assert deltas(at)["NDCG"] == f"{ndcg_core.evaluate([1, 2, 0, 3, 2]).ndcg - end.ndcg:+.4f}"


def test_a_double_press_down_and_back_up_shows_no_change(at):
    _press(at, queue := [], "D1", 3, 0, 1, continues=False)
    at.run()
    _press(at, queue, "D1", 3, 1, 0, continues=True)
    at.run()
    assert ranking(at).names == ("D1", "D2", "D3", "D4", "D5")
    assert shown_metrics(at) == expected_metrics(G)
    assert deltas(at)["NDCG"] == "±0"  # the NDCG the person saw before the presses, unchanged


def test_a_double_tap_on_an_order_button_shows_no_change_for_figures_never_shown():
    """A double tap on Reverse (taps 0.1 s apart) showed the list as it was, with "NDCG −0.3965" on its card: the
    change since the reversed list, whose figures had not reached the phone when the second tap was sent (its
    request still carried the address from before the first tap's write)."""
    opened = {"gain": "exponential", "base": "2", "z": "zero", "docs": "D1:3,D2:1,D3:2,D4:0,D5:2"}
    at = open_playground(opened)
    at.run()  # a plain rerun: the address already holds the state, nothing written
    click(at, "reverse")
    reversed_ndcg = ndcg_core.evaluate([2, 0, 2, 1, 3]).ndcg
    assert deltas(at)["NDCG"] == f"{reversed_ndcg - ndcg_core.evaluate(G).ndcg:+.4f}"  # the first tap, answered
    at.query_params.clear()
    at.query_params.update(opened)  # the second tap left before that answer (and its address) arrived
    click(at, "reverse")
    assert ranking(at).names == ("D1", "D2", "D3", "D4", "D5")
    assert set(deltas(at).values()) == {"±0"}  # against the figures on screen before the double tap
    # A tap made after the answer arrived is a change of its own, against the figures then shown.
    click(at, "reverse")
    assert deltas(at)["NDCG"] == f"{reversed_ndcg - ndcg_core.evaluate(G).ndcg:+.4f}"
    click(at, "reverse")
    assert deltas(at)["NDCG"] == f"{ndcg_core.evaluate(G).ndcg - reversed_ndcg:+.4f}"


def test_adding_and_deleting_rows(at):
    # The editor's state is cumulative (relative to the rows it was drawn from), as the browser sends it; an added or
    # deleted row restarts the table from the new ranking (its Rank column renumbered), so the next edit is relative
    # to that.
    browser = Browser(at)
    browser.edit(added=[{"Document": "D6", "Grade": 1}])
    assert ranking(at).names == ("D1", "D2", "D3", "D4", "D5", "D6")
    assert shown_metrics(at) == expected_metrics([3, 1, 2, 0, 2, 1])
    browser.edit(deleted=[0, 3])
    assert ranking(at).names == ("D2", "D3", "D5", "D6")
    assert shown_metrics(at) == expected_metrics([1, 2, 2, 1])
    browser.edit(added=[{"Grade": 2}])  # a row without a name gets a fresh one
    assert ranking(at).grades == (1, 2, 2, 1, 2)
    assert len(set(ranking(at).names)) == 5


def test_undoing_an_edit_in_the_table_undoes_it_everywhere(at):
    edit(at, edited={1: {"Grade": 3}})
    assert ranking(at).grades == (3, 3, 2, 0, 2)
    edit(at)  # the user changed the cell back: the editor's state is empty again
    assert ranking(at).grades == tuple(G)
    assert shown_metrics(at) == expected_metrics(G)


def test_an_edit_then_a_drag_then_another_edit(at):
    edit(at, edited={1: {"Grade": 3}})
    drag(at, [4, 3, 2, 1, 0])  # restarts the editor from the new order
    assert ranking(at).names == ("D5", "D4", "D3", "D2", "D1")
    assert ranking(at).grades == (2, 0, 2, 3, 3)
    edit(at, edited={1: {"Grade": 1}})  # row 2 of the new order is D4
    assert ranking(at).grades == (2, 1, 2, 3, 3)
    assert shown_metrics(at) == expected_metrics([2, 1, 2, 3, 3])


def test_renaming_keeps_the_name_as_plain_text(at):
    hostile = "<img src=x onerror=alert(1)>**bold**"
    edit(at, edited={0: {"Document": hostile}})
    assert ranking(at).names[0] == hostile
    # A refused grade on that row quotes its name in an error (an element that renders markdown): escaped, never raw.
    edit(at, edited={0: {"Document": hostile, "Grade": -1}})  # the editor's state holds all its edits
    shown = [element.value for element in [*at.markdown, *at.error, *at.caption]]
    assert any(f"Rank 1 ({plain(hostile)})" in text for text in shown), shown
    assert not any(hostile in text for text in shown)  # never rendered as markdown
    assert ranking(at).names[0] == hostile


@pytest.mark.parametrize(
    ("value", "needle"),
    [(None, "blank"), (-1, "negative"), (math.nan, "NaN"), ("abc", "not a number"), (math.inf, "infinite"),
     (2000, "overflows")],
)
def test_invalid_grade_shows_an_error_and_keeps_the_last_valid_ranking(at, value, needle):
    edit(at, edited={2: {"Grade": value}})
    assert not at.exception
    assert at.error, "an error must be shown next to the editor"
    assert needle.lower() in at.error[0].value.lower()
    assert "Rank 3" in at.error[0].value or needle == "overflows"
    assert ranking(at).grades == tuple(G)
    assert shown_metrics(at) == expected_metrics(G)


@pytest.mark.parametrize("blank", ["", "   ", None])
def test_a_blanked_name_is_refused_with_a_message(at, blank):
    """A name emptied in the table: the list kept "D4" while the table showed nothing, and no message said so."""
    edit(at, edited={3: {"Document": blank}})
    assert not at.exception
    assert [e.value for e in at.error] == ["Edit not applied: Rank 4: the document name is empty. Type a name; the "
                                           "list keeps “D4” until then. The numbers still show the last valid ranking."]
    assert ranking(at).names == ("D1", "D2", "D3", "D4", "D5")
    assert shown_metrics(at) == expected_metrics(G)


def test_grade_missing_from_custom_gain_table_is_named():
    at = open_playground({"gain": "custom", "gt": "0:0,1:2,2:5,3:9"})  # a table that is not 2^g - 1
    assert at.session_state["settings"] == MetricSettings(gain="custom", gain_table=((0, 0), (1, 2), (2, 5), (3, 9)))
    assert shown_metrics(at) == expected_metrics(G, gain={0: 0, 1: 2, 2: 5, 3: 9})
    assert shown_metrics(at) != expected_metrics(G, gain="exponential")
    edit(at, edited={0: {"Grade": 5}})
    assert "missing from the gain table" in at.error[0].value
    assert ranking(at).grades == tuple(G)


def test_empty_ranking_is_refused(at):
    edit(at, deleted=[0, 1, 2, 3, 4])
    assert "empty" in at.error[0].value
    assert ranking(at).names == ("D1", "D2", "D3", "D4", "D5")


def test_reorder_through_the_component_state(at):
    drag(at, [2, 0, 1, 3, 4])  # D3 dragged to the top
    assert not at.exception
    assert ranking(at).names == ("D3", "D1", "D2", "D4", "D5")
    assert shown_metrics(at) == expected_metrics([2, 3, 1, 0, 2])
    at.run()  # applied exactly once
    assert ranking(at).names == ("D3", "D1", "D2", "D4", "D5")


def test_stale_or_malformed_component_messages_are_ignored(at):
    stale = moves_to(at.session_state, "playground_list", [1, 0, 2, 3, 4])
    drag(at, [4, 0, 1, 2, 3])  # D5 to the top: seq 1 ...
    at.session_state["playground_list"] = stale  # ... so a message carrying seq 1 again is already applied
    at.run()
    assert ranking(at).names == ("D5", "D1", "D2", "D3", "D4")
    for bad in ([{"seq": 9, "id": "D1", "to": 1}], {"seq": 9}, [{"seq": True, "id": 1, "to": "x"}], "moves", [7]):
        at.session_state["playground_list"] = {"moves": bad}
        at.run()
        assert not at.exception
        assert ranking(at).names == ("D5", "D1", "D2", "D3", "D4")


def test_list_and_table_show_the_same_order_after_a_drag(at):
    drag(at, [4, 3, 2, 1, 0])
    table = next(frame.value for frame in at.dataframe if "document" in frame.value.columns)
    assert list(table["document"]) == ["D5", "D4", "D3", "D2", "D1"]
    assert list(table["relevance"]) == [2, 0, 2, 1, 3]


@pytest.mark.parametrize(
    ("kind", "grades"),
    [("ideal", [3, 2, 2, 1, 0]), ("worst", [0, 1, 2, 2, 3]), ("reverse", [2, 0, 2, 1, 3])],
)
def test_order_buttons(at, kind, grades):
    click(at, kind)
    assert list(ranking(at).grades) == grades
    assert shown_metrics(at) == expected_metrics(grades)


def test_ideal_and_worst_match_document_000(at):
    click(at, "ideal")
    assert shown_metrics(at)["NDCG"] == "1.0000"  # "Best NDCG@5: 1.0"
    click(at, "worst")
    assert shown_metrics(at)["NDCG"] == "0.5664"  # "Worst NDCG@5: 0.5664478625498256"


def test_shuffle_is_a_permutation_and_reset_restores(at):
    click(at, "shuffle")
    shuffled = ranking(at)
    assert sorted(shuffled.names) == ["D1", "D2", "D3", "D4", "D5"]
    assert dict(zip(shuffled.names, shuffled.grades, strict=True)) == dict(zip(state.DEFAULT_RANKING.names, G, strict=True))
    assert shown_metrics(at) == expected_metrics(list(shuffled.grades))
    click(at, "reset")
    assert ranking(at) == state.DEFAULT_RANKING


def test_extra_judged_documents_of_document_003():
    # 003_f44d929bf8cc7fa4.txt: D1..D6 graded 3,2,3,0,1,2 (linear gain), plus judged D7 = 3 and D8 = 2: nDCG_6 = 0.785.
    at = open_playground({
        "docs": "D1:3,D2:2,D3:3,D4:0,D5:1,D6:2", "extra": "D7:3,D8:2", "gain": "linear", "k": "6",
    })
    assert not at.exception and not at.warning
    assert shown_metrics(at) == expected_metrics([3, 2, 3, 0, 1, 2], k=6, ideal=[3, 2, 3, 0, 1, 2, 3, 2], gain="linear")
    assert shown_metrics(at)["NDCG@6"] == "0.7850"
    assert shown_metrics(at)["IDCG@6"] == "8.7403"  # "DCG value new = 8.740262365546284"
    assert any("raise IDCG" in info.value for info in at.info)


def test_extra_documents_editor_feeds_the_ideal_list(at):
    edit(at, added=[{"Document": "D7", "Grade": 3}], prefix="playground_extra")
    assert ranking(at).extra_names == ("D7",)
    assert shown_metrics(at) == expected_metrics(G, ideal=G + [3])
    assert any("raise IDCG" in info.value for info in at.info)


def test_share_link_round_trip():
    settings = MetricSettings(gain="linear", log_base="10", k=3, zero_idcg="one")
    link = state.playground_link(
        ["a,b", "c:d", "é ö"], [2, 0, 1.5], extra_names=["x"], extra_grades=[4], settings=settings
    )
    assert link.startswith("/?")
    params = dict(parse_qsl(urlsplit(link).query))
    at = open_playground(params)
    assert not at.exception and not at.warning
    assert ranking(at) == state.Ranking(("a,b", "c:d", "é ö"), (2.0, 0.0, 1.5), ("x",), (4.0,))
    assert shown_metrics(at) == expected_metrics([2, 0, 1.5], k=3, ideal=[2, 0, 1.5, 4], gain="linear", log_base=10)
    # the page keeps mirroring its state to the URL
    # Letters of every script stay letters (é, ö), as the address bar shows them; delimiters and spaces are escaped.
    assert at.query_params["docs"] == "a%2Cb:2,c%3Ad:0,é%20ö:1.5"
    assert at.query_params["extra"] == "x:4"


def test_page_mirrors_edits_to_the_url(at):
    drag(at, [1, 0, 2, 3, 4])
    assert at.query_params["docs"] == "D2:1,D1:3,D3:2,D4:0,D5:2"


@pytest.mark.parametrize(
    "docs",
    ["D1:abc", ":::", "D1", "D1:-1", "D1:nan", "D1:inf", "", ",,,", "D1:1:2", "D1:1e400", "D1:²", "D1:٣",
     "A:1," * 2000 + "A:1", "x" * 40_000 + ":1"],
)
def test_malformed_links_fall_back_to_the_example_with_a_warning(docs):
    at = open_playground({"docs": docs})
    assert not at.exception
    assert any("could not be used" in warning.value for warning in at.warning)
    assert ranking(at) == state.DEFAULT_RANKING
    assert shown_metrics(at) == expected_metrics(G)


def test_link_grade_too_large_for_exponential_gain_names_the_sidebar_setting():
    """The link's list is kept (it works under linear gain); the error names the sidebar's words and the hint fits."""
    at = open_playground({"docs": "D1:5000,D2:1"})
    assert not at.exception
    assert ranking(at).grades == (5000.0, 1.0)
    message = at.error[0].value
    assert "too large for exponential gain" in message and "“Gain” to “Linear: gain = grade”" in message
    hints = [caption.value for caption in at.caption if caption.value.startswith("Change")]
    assert hints == ["Change the grades here (or the gain in the sidebar):"]


def test_markup_in_link_names_is_kept_as_text():
    at = open_playground({"docs": "%3Cb%3Ehi%3C%2Fb%3E:2,D2:1"})
    assert not at.exception and not at.warning
    assert ranking(at).names[0] == "<b>hi</b>"
    # The link's view quotes no name; a refused grade on that row does, in an error (an element that renders markdown).
    edit(at, edited={0: {"Grade": -1}})
    shown = [element.value for element in [*at.markdown, *at.error, *at.caption]]
    assert any(r"Rank 1 (\<b\>hi\</b\>)" in text for text in shown), shown
    assert not any("<b>hi</b>" in text for text in shown)


def test_other_pages_read_the_playgrounds_list_with_its_extra_documents():
    # Step by step walks the Playground's list (ui.state.playground_list): A, B, C graded 3, 0, 1, and X (grade 2)
    # judged but not ranked, which joins the ideal list. Exponential gain, by hand:
    dcg = 7 + 0 + 1 / 2  # gains 7, 0, 1 at ranks 1-3
    idcg = 7 + 3 / math.log2(3) + 1 / 2  # ideal grades 3, 2, 1 (without X it would be 7 + 1 / log2(3))
    at = run_page("playground", query_params={"docs": "A:3,B:0,C:1", "extra": "X:2"})
    at.switch_page("pages/step_by_step.py").run()
    assert not at.exception, at.exception
    assert [(m.label, m.value) for m in at.metric[:4]] == [
        ("CG", "8.0000"), ("DCG", f"{dcg:.4f}"), ("IDCG", f"{idcg:.4f}"), ("NDCG", f"{dcg / idcg:.4f}")]


def test_ten_thousand_documents_stay_usable():
    big = state.Ranking(tuple(f"doc{i}" for i in range(10_000)), tuple(float(i % 5) for i in range(10_000)))
    at = open_playground()
    at.session_state[state.RANKING_KEY] = state.PlaygroundState.of(big)
    at.run()
    assert not at.exception
    assert shown_metrics(at) == expected_metrics(list(big.grades))
    assert any("cannot be shared as a link: it has 10,000 documents" in caption.value for caption in at.caption)
    # The address says the list is not in it (instead of silently dropping docs and reopening the example).
    assert at.query_params.get("unlinked") == "10000" and "docs" not in at.query_params


@pytest.mark.parametrize(("n", "k", "highlight"), [(1, None, 1), (5, 3, 2), (50, None, None), (10_000, 20, 5)])
def test_chart_specs_are_valid_plotly(n, k, highlight):
    """The charts are built without plotly's validators (speed); validate the same specs fully here."""
    import plotly.graph_objects as go

    from ui import charts

    result = ndcg_core.evaluate([i % 4 for i in range(n)], k=k)
    for build in (charts.contribution_chart, charts.cumulative_chart, charts.decomposition_chart):
        figure = build(result.table, k=k, highlight=highlight)
        go.Figure(figure.to_plotly_json())  # raises ValueError on any invalid property
        bars = [trace for trace in figure.data if trace.type == "bar"]
        series = {trace.offsetgroup for trace in bars}
        assert sum(len(chart_values(trace.x)) for trace in bars) == len(series) * len(charts._visible(result.table, k))


def test_the_ideal_bars_and_idcg_line_reach_the_ideal_places_past_the_ranking():
    """A:3, B:2 with D9:1 judged but not ranked: IDCG counts three places (9.3928) and the chart drew two ideal bars
    (8.8928): the ideal bars now add up to the IDCG card, on the Playground and in Step by step (helper-63)."""
    from plotly.io import from_json

    result = ndcg_core.evaluate([3, 2], ideal_relevances=[3, 2, 1])
    at = open_playground({"docs": "A:3,B:2", "extra": "D9:1"})
    [chart] = at.get("plotly_chart")
    ideal = [trace for trace in from_json(chart.proto.spec).data if trace.name == "Ideal ranking"]
    assert [chart_values(trace.x).tolist() for trace in ideal] == [[1, 2, 3]]
    assert sum(chart_values(ideal[0].y)) == pytest.approx(result.idcg, abs=1e-12)
    assert shown_metrics(at)["IDCG"] == f"{result.idcg:.4f}" == "9.3928"
    at.segmented_control(key="playground_chart").set_value("cumulative").run()
    [chart] = at.get("plotly_chart")
    idcg_line = next(trace for trace in from_json(chart.proto.spec).data if trace.name == "IDCG@i")
    assert chart_values(idcg_line.x).tolist() == [1, 2, 3] and chart_values(idcg_line.y)[-1] == result.idcg
    step = run_page("step_by_step", query_params={"docs": "A:3,B:2", "extra": "D9:1"})
    walked = [from_json(c.proto.spec) for c in step.get("plotly_chart")]
    bars = [t for figure in walked for t in figure.data if t.name == "Ideal ranking"]
    assert [chart_values(t.x).tolist() for t in bars] == [[1, 2, 3]]


def test_contribution_chart_numbers_come_from_the_table():
    from ui import charts

    result = ndcg_core.evaluate(G, k=3)
    figure = charts.contribution_chart(result.table, k=3)
    counted = next(trace for trace in figure.data if trace.name == "Your ranking")
    past = next(trace for trace in figure.data if trace.name == "past k (not counted)")
    assert chart_values(counted.x).tolist() == [1, 2, 3] and chart_values(past.x).tolist()[:2] == [4, 5]
    assert chart_values(counted.y).tolist() == result.table["contribution"][:3].tolist()  # exact: float64 bytes, not text
    expected = result.table[["relevance", "gain", "discount"]].to_numpy()
    assert chart_values(counted.customdata).tolist() == expected[:3].tolist()
    assert chart_values(past.customdata).tolist() == expected[3:].tolist()


@pytest.mark.parametrize("docs", ["[x](//evil.example/a)", "**bold**", "A:**2**", "A:1,<b>:x"])
def test_malformed_link_warning_does_not_echo_the_link(docs):
    at = open_playground({"docs": docs})
    warning = " ".join(element.value for element in at.warning)
    assert "could not be used" in warning and "entry" in warning
    assert "**" not in warning and "](" not in warning and "<b>" not in warning


def test_error_naming_a_row_shows_its_name_as_text(at):
    edit(at, edited={0: {"Document": "**x** [l](//e)", "Grade": -1}})
    message = at.error[0].value
    assert "negative" in message
    assert "**x**" not in message and "](" not in message  # escaped, so markdown shows it literally
    assert r"\*\*x\*\*" in message


def test_no_page_relies_on_streamlit_magic():
    """.streamlit/config.toml turns magic off: no script may hold a bare expression meant to be st.write-n."""
    import tomllib
    from pathlib import Path

    from streamlit.runtime.scriptrunner import magic

    root = Path(__file__).resolve().parents[1]
    config = tomllib.loads((root / ".streamlit" / "config.toml").read_text())
    assert config["runner"]["magicEnabled"] is False
    for script in [root / "app.py", *sorted((root / "pages").glob("*.py"))]:
        transformed = ast.dump(magic.add_magic(script.read_text(), str(script)))
        assert "transparent_write" not in transformed, f"{script.name} has an expression that magic would display"


@pytest.mark.parametrize("k", [None, 3])
def test_table_sent_as_arrow_equals_the_dataframe(k):
    """show_table sends an Arrow table built straight from ListResult.table: same columns, order and values."""
    from ui import widgets

    result = ndcg_core.evaluate(G, k=k, ideal_relevances=G + [4])
    names = ["a", "b<i>", "c", "d", "é"]
    expected = widgets.table_frame(result, names)
    arrow = widgets.table_arrow(result, names).to_pandas()
    assert list(arrow.columns) == list(expected.columns)
    for column in expected.columns:
        assert arrow[column].tolist() == expected[column].tolist(), column


# --- the grade table's Rank column after rows are added or deleted ----------------------------------------------

def shown_grade_table(at) -> list[tuple]:
    """(Rank, Document, Grade) rows as the browser shows the grade table: the frame the data editor was given, with
    the edit state it keeps under its key applied (edited cells, deleted rows gone, added rows at the end)."""
    key = editor_key(at)
    frame = at.dataframe(key=key).value
    rows = [[rank, name, grade] for rank, name, grade in zip(frame["Rank"], frame["Document"], frame["Grade"],
                                                            strict=True)]
    try:  # AppTest's session state has no .get()
        delta = at.session_state[key]
    except KeyError:  # a renewed editor the browser has not edited yet
        delta = {}
    for row, cells in (delta.get("edited_rows") or {}).items():
        for column, value in cells.items():
            rows[int(row)][("Rank", "Document", "Grade").index(column)] = value
    deleted = {int(row) for row in delta.get("deleted_rows") or []}
    rows = [row for i, row in enumerate(rows) if i not in deleted]
    rows += [[None, added.get("Document"), added.get("Grade")] for added in delta.get("added_rows") or []]
    return [tuple(None if rank is None else int(rank) for rank in row[:1]) + (row[1], row[2]) for row in rows]


def assert_table_follows_the_list(at, names, grades):
    ranked = ranking(at)
    assert ranked.names == tuple(names) and ranked.grades == tuple(grades)
    listed = next(frame.value for frame in at.dataframe if "document" in frame.value.columns)  # the list's ranks
    assert list(listed["document"]) == list(names) and list(listed["rank"]) == list(range(1, len(names) + 1))
    assert [(rank, name) for rank, name, _ in shown_grade_table(at)] == list(enumerate(names, start=1))
    assert shown_metrics(at) == expected_metrics(list(grades))


def test_rank_column_follows_the_list_after_a_delete_then_an_add(at):
    """Deleting D2 then adding a row showed ranks 1, 3, 4, 5 and a blank for D6, while the list said 1-5."""
    browser = Browser(at)
    browser.edit(deleted=[1])
    assert_table_follows_the_list(at, ["D1", "D3", "D4", "D5"], [3, 2, 0, 2])
    browser.edit(added=[{"Document": "D6", "Grade": "0"}])  # the row tools add a row with the column defaults
    assert_table_follows_the_list(at, ["D1", "D3", "D4", "D5", "D6"], [3, 2, 0, 2, 0])
    # The renewed table takes the next edits on its own rows: row 2 is now D3, row 5 the new D6.
    browser.edit(edited={1: {"Grade": "1"}, 4: {"Grade": "3"}})
    assert_table_follows_the_list(at, ["D1", "D3", "D4", "D5", "D6"], [3, 1, 0, 2, 3])
    browser.edit(deleted=[0])
    assert_table_follows_the_list(at, ["D3", "D4", "D5", "D6"], [1, 0, 2, 3])


def test_rank_column_follows_the_list_after_deleting_the_first_row(at):
    browser = Browser(at)
    browser.edit(deleted=[0])
    assert_table_follows_the_list(at, ["D2", "D3", "D4", "D5"], [1, 2, 0, 2])
    browser.edit(edited={0: {"Grade": "2"}})  # row 1 is D2 now
    assert_table_follows_the_list(at, ["D2", "D3", "D4", "D5"], [2, 2, 0, 2])


def test_a_grade_edit_then_an_add_keeps_both(at):
    """A grade typed before a row is added is kept when the table is renewed (the browser sends both together)."""
    browser = Browser(at)
    browser.edit(edited={3: {"Grade": "4"}})
    assert_table_follows_the_list(at, ["D1", "D2", "D3", "D4", "D5"], [3, 1, 2, 4, 2])
    browser.edit(added=[{"Document": "D6", "Grade": "1"}])
    assert_table_follows_the_list(at, ["D1", "D2", "D3", "D4", "D5", "D6"], [3, 1, 2, 4, 2, 1])
    at.run()  # applied exactly once
    assert_table_follows_the_list(at, ["D1", "D2", "D3", "D4", "D5", "D6"], [3, 1, 2, 4, 2, 1])


def test_without_a_cutoff_the_ideal_sum_is_labelled_by_the_judged_documents_it_counts():
    """Six ranked documents and a seventh judged one: the formula read "IDCG@6 = ... + (2^0-1)/log2(7+1)", seven
    terms under @6. The core counts every judged document in IDCG without a cutoff (trec_eval's ndcg); the formula
    now says so: IDCG@m with m = 7, and NDCG@n = DCG@n / IDCG@m."""
    at = open_playground({"docs": "d2:0,d5:0,d1:2,d7:1,d3:1,d6:3", "extra": "d4:2"})
    bodies = [latex.body.strip("$\n") for latex in at.latex]
    assert any(body.startswith("IDCG@m = \\sum_{i=1}^{m}") for body in bodies)
    assert any(body.startswith("NDCG@n = \\frac{DCG@n}{IDCG@m}") for body in bodies)
    expected = ndcg_core.evaluate([0, 0, 2, 1, 1, 3], ideal_relevances=[0, 0, 2, 1, 1, 3, 2])
    assert expected.ideal_depth == 7
    substituted = next(body for body in bodies if body.startswith("IDCG@7 = "))
    assert "\\log_2(7+1)" in substituted and substituted.endswith(f"= {expected.idcg:.4f}")  # the 7th term, last
    assert any(c.value.startswith("Here n = 6 and m = 7; rel* is the ideal order") for c in at.caption)


EXTRA_LINK = {"docs": "D1:3,D2:2,D3:3,D4:0,D5:1,D6:2", "extra": "D7:3,D8:2"}  # two judged documents not ranked


def test_the_ideal_order_buttons_help_says_what_it_reaches_on_this_list():
    """"Ideal order" promised "NDCG becomes 1" on a list whose judged documents outside the ranking grade higher:
    pressed, NDCG reached 0.8170 (the worked example "Ideal from all judgments")."""
    at = open_playground(EXTRA_LINK)
    help_text = at.button(key="playground_ideal").help
    reached = ndcg_core.evaluate([3, 3, 2, 2, 1, 0], ideal_relevances=[3, 2, 3, 0, 1, 2, 3, 2])
    assert reached.ndcg < 1 and "NDCG becomes 1" not in help_text
    assert f"NDCG reaches {reached.ndcg:.4f}, not 1: judged documents outside the ranking have higher grades" in help_text
    click(at, "ideal")
    assert shown_metrics(at)["NDCG"] == f"{reached.ndcg:.4f}"  # what the help said
    assert open_playground().button(key="playground_ideal").help == "Sort by grade, highest first: NDCG becomes 1."


def test_the_ideal_order_help_gives_the_reason_that_applies():
    """An extra document graded below every ranked one: NDCG reaches 0.9468 because the ideal list has a third place
    the ranking cannot fill, yet the help said the extra documents "have higher grades" (helper-63)."""
    reached = ndcg_core.evaluate([3, 2], ideal_relevances=[3, 2, 1])
    assert reached.ideal_depth == 3 and f"{reached.ndcg:.4f}" == "0.9468"
    help_text = open_playground({"docs": "A:3,B:2", "extra": "D9:1"}).button(key="playground_ideal").help
    assert help_text.endswith("NDCG reaches 0.9468, not 1: the ideal list counts 3 places (one per judged document) "
                              "and the ranking fills only 2.")
    cut = open_playground({"docs": "A:1,B:2,C:0", "extra": "D9:3", "k": "2"}).button(key="playground_ideal").help
    assert cut.endswith("not 1: judged documents outside the ranking have higher grades than some in it, and the "
                        "ideal list (IDCG) puts them first.")
    nothing = open_playground({"docs": "D1:0,D2:0", "z": "one"}).button(key="playground_ideal").help
    assert "No judged document is relevant (IDCG = 0), so NDCG is what the “NDCG when IDCG = 0” setting gives: 1.0000" in nothing


def test_present_mode_names_the_extra_judged_documents_it_hides_the_table_of():
    at = open_playground({**EXTRA_LINK, "present": "1"})
    assert (f"Also judged, not in the ranking: {isolated('D7')} (grade 3), {isolated('D8')} (grade 2). The ideal list (IDCG) "
            "includes them.") in [
        caption.value for caption in at.caption]
    assert not [c for c in open_playground(EXTRA_LINK).caption if c.value.startswith("Also judged")]  # the table shows them


def test_the_per_position_table_greys_the_rows_below_the_cutoff_and_shows_counted_beside_the_names():
    """k = 3 on five documents: the list and the chart mark ranks 4-5 "do not count", but the table showed them
    like the others, its "Counted (≤ k)" column off the right edge at 1440 px (found by an exploratory pass)."""
    import re

    at = run_page("playground", query_params={"k": "3", "docs": "D1:3,D2:1,D3:2,D4:0,D5:2", "gain": "linear"})
    table = next(df.proto for df in at.dataframe if "cumulative_dcg" in df.proto.column_order)
    assert list(table.column_order)[:3] == ["rank", "document", "in_cutoff"]
    styles = table.arrow_data.styler.styles
    rules = [rule.split("{") for rule in styles.split("}") if "{" in rule]  # "selector, selector { body"
    grey_rows = {int(row) for selectors, body in rules if "color: #6b6b6b" in body
                 for row in re.findall(r"_row(\d+)_col", selectors)}
    styled_rows = {int(row) for row in re.findall(r"_row(\d+)_col", styles)}
    assert grey_rows == styled_rows == {3, 4}  # ranks 4 and 5
    whole = run_page("playground", query_params={"docs": "D1:3,D2:1,D3:2,D4:0,D5:2", "gain": "linear"})
    table = next(df.proto for df in whole.dataframe if "cumulative_dcg" in df.proto.column_order)
    assert not table.arrow_data.HasField("styler")  # every position counts: no styling (and no Styler's cost)


def test_the_per_position_table_keeps_rank_and_document_in_view():
    """Its 14 columns are wider than a 1440 px page with the sidebar (1,106 against 949 px): scrolled to IDCG@i and
    NDCG@i, no column said which document a row was. Rank and Document are pinned; the two contribution
    headers are short (Contrib., Ideal contrib.) with the full words in their help."""
    import json

    at = run_page("playground", query_params={"docs": "D1:3,D2:1,D3:2,D4:0,D5:2", "gain": "linear"})
    table = next(df.proto for df in at.dataframe if "cumulative_dcg" in df.proto.column_order)
    config = json.loads(table.columns)
    assert [name for name, column in config.items() if column.get("pinned")] == ["rank", "document"]
    assert (config["contribution"]["label"], config["ideal_contribution"]["label"]) == ("Contrib.", "Ideal contrib.")
    assert config["contribution"]["help"].startswith("Contribution:")


def test_the_formula_says_what_g_is_under_a_custom_gain_table():
    """The formula reads Σ g(rel_i)/log(i + 1): with a custom gain nothing said g was the sidebar's table."""
    at = run_page("playground", query_params={"gain": "custom", "k": "5"})
    (caption,) = [c.value for c in at.caption if c.value.startswith("Here k = 5")]
    assert caption.endswith("g(rel) is the gain of a grade in the sidebar's custom gain table 0→0, 1→1, 2→3, 3→7, "
                            "4→15.")
    plain_caption = [c.value for c in run_page("playground").caption if c.value.startswith("Here n = 5")]
    assert plain_caption == ["Here n = 5; rel* is the ideal order: every judged grade sorted from high to low."]


def test_a_name_used_twice_is_said_and_its_numbers_stay_right():
    """Two ranked documents named D1 and a ranked D2 also among the extra documents were accepted without a word; the
    second doubles D2's grade in the ideal list. Both are now said next to the editor (the figures are unchanged:
    NDCG does not depend on names)."""
    at = open_playground({"docs": "D1:3,D2:1,D3:0", "extra": "D4:2", "gain": "linear"})
    assert not at.warning
    at = edit(at, edited={2: {"Document": "D1"}})  # a typo: D3 renamed D1
    assert [w.value for w in at.warning] == [
        "“D1” names 2 ranked documents (ranks 1 and 3): the list, the chart and the formula cannot tell them apart. "
        "Give each document its own name."]
    assert ranking(at).names == ("D1", "D2", "D1")
    metric = next(m for m in at.metric if m.label == "NDCG")
    assert metric.value == f"{ndcg_core.evaluate([3, 1, 0], ideal_relevances=[3, 1, 0, 2], gain='linear').ndcg:.4f}"
    at = open_playground({"docs": "D1:3,D2:1", "extra": "D2:1", "gain": "linear"})
    assert [w.value for w in at.warning] == [
        "“D2” is both ranked and among the extra judged documents, so its grade is in the ideal list twice. If it "
        "is one document, delete it from the extra documents."]


def test_a_grade_typed_then_left_by_a_move_or_an_order_button_is_kept():
    """D4's grade typed as 3, then ▲ on D5 (or "Reverse") clicked before Enter: both arrive in one message, the move
    restarted the editors first and the edit was lost without a word (helper-64: 3 of 3 tries)."""
    at = open_playground()
    at.session_state[editor_key(at)] = {"edited_rows": {3: {"Grade": "3"}}, "added_rows": [], "deleted_rows": []}
    at = drag(at, [0, 1, 2, 4, 3])  # the same run: D5 up one place
    assert not at.exception
    assert ranking(at).names == ("D1", "D2", "D3", "D5", "D4") and ranking(at).grades == (3.0, 1.0, 2.0, 2.0, 3.0)
    assert shown_metrics(at)["NDCG"] == f"{ndcg_core.evaluate([3, 1, 2, 2, 3]).ndcg:.4f}"
    assert at.query_params["docs"] in ("D1:3,D2:1,D3:2,D5:2,D4:3", ["D1:3,D2:1,D3:2,D5:2,D4:3"])  # the link too

    at = open_playground()
    at.session_state[editor_key(at)] = {"edited_rows": {3: {"Grade": "3"}}, "added_rows": [], "deleted_rows": []}
    at = click(at, "reverse")
    assert ranking(at).names == ("D5", "D4", "D3", "D2", "D1") and ranking(at).grades == (2.0, 3.0, 2.0, 1.0, 3.0)

    at = open_playground()  # a refused edit with a move: the move applies, and the refusal is still said
    at.session_state[editor_key(at)] = {"edited_rows": {3: {"Grade": "-1"}}, "added_rows": [], "deleted_rows": []}
    at = drag(at, [0, 1, 2, 4, 3])
    assert ranking(at).names == ("D1", "D2", "D3", "D5", "D4") and ranking(at).grades == (3.0, 1.0, 2.0, 2.0, 0.0)
    assert any(e.value.startswith("Edit not applied:") for e in at.error)



def test_the_grades_table_says_how_to_edit_a_cell_with_the_keyboard():
    """The caption under the Grades table told only how to edit with a mouse ("Double-click … a grade"); a keyboard
    user (arrows, typing, Enter: tests/browser/test_keyboard_browser.py) was not told."""
    at = run_page("playground")
    caption = next(c.value for c in at.caption if c.value.startswith("Double-click"))
    assert "with the keyboard: Tab into the table, go to the cell with the arrows, type and press Enter" in caption
