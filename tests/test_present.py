"""Present mode (ui/present.py) and the ghost of the previous state (ui/ghost.py), under AppTest.

The ghost's values are checked against ndcg_core's contributions for the order shown before the move; the
annotation against the two NDCG figures the cards show.
"""

from __future__ import annotations

from unittest import mock

import pytest

import ndcg_core
from tests.conftest import ROOT, chart_specs, copy_links, run_page
from ui import charts, ghost, present, url_state
from ui.ranked_list import moves_to

G = [3, 1, 2, 0, 2]  # the Playground's example list (document 000)


def ghost_traces(at) -> list[dict]:
    return [trace for figure in chart_specs(at) for trace in figure["data"] if trace.get("name") == ghost.GHOST_NAME]


def toggle(at):
    return next(widget for widget in at.toggle if widget.key == present.KEY)


# --- the switch and its URL parameter ------------------------------------------------------------------------------

def test_present_is_off_by_default_and_absent_from_the_url():
    at = run_page()
    assert not at.exception
    assert toggle(at).value is False
    assert "present" not in at.query_params
    assert [e.label for e in at.expander if e.label.startswith("Extra judged documents")]  # editing chrome shown
    assert list(copy_links(at)) == ["Share link of this list"]
    assert len(at.get("arrow_data_frame")) + len(at.get("data_editor") or []) >= 1


def test_present_link_turns_it_on_and_hides_the_playground_editing_chrome():
    at = run_page(query_params={"present": "1"})
    assert not at.exception
    assert toggle(at).value is True
    assert at.query_params["present"] == "1"
    assert not [e for e in at.expander if e.label.startswith("Extra judged documents")]
    assert not [s for s in at.header if s.value in ("Grades", "Share this exact state")]
    assert copy_links(at) == {}  # the share box
    assert [s.value for s in at.header if s.value == "Per-position table"]  # the teaching parts stay
    assert any("font-size: clamp(17px, 1.2vw, 28px)" in str(element.proto) for element in at.get("html"))


def test_toggle_round_trips_through_the_url():
    at = run_page()
    toggle(at).set_value(True).run()
    assert at.query_params["present"] == "1"
    toggle(at).set_value(False).run()
    assert "present" not in at.query_params
    assert [s.value for s in at.header if s.value == "Share this exact state"]


def test_present_stays_on_across_pages():
    at = run_page(query_params={"present": "1"})
    at.switch_page("pages/step_by_step.py").run()
    assert not at.exception
    assert toggle(at).value is True and at.query_params["present"] == "1"


@pytest.mark.parametrize("value", ["yes", "2", "", "１", "1 "])
def test_an_unusable_present_value_is_off_with_a_warning(value):
    at = run_page(query_params={"present": value})
    assert not at.exception
    assert toggle(at).value is False
    assert any("Present mode could not be read" in w.value for w in at.warning)
    assert "present" not in at.query_params


def test_parse_flag():
    assert url_state.parse_flag("1") is True and url_state.parse_flag("0") is False
    assert url_state.parse_flag("true") is None and url_state.parse_flag(None) is None and url_state.parse_flag(1) is None


def test_turning_present_on_keeps_an_edit_made_in_the_grade_editor():
    at = run_page()
    revision = at.session_state["playground"].revision
    at.session_state[f"playground_editor_{revision}"] = {"edited_rows": {"1": {"Grade": "3"}}, "added_rows": [],
                                                         "deleted_rows": []}
    at.run()
    assert list(at.session_state["playground"].ranking.grades) == [3, 3, 2, 0, 2]
    toggle(at).set_value(True).run()
    at.run()  # a further run without the editor drawn: the edit must still be the ranking
    assert list(at.session_state["playground"].ranking.grades) == [3, 3, 2, 0, 2]
    expected = ndcg_core.evaluate([3, 3, 2, 0, 2]).ndcg
    assert next(m.value for m in at.metric if m.label == "NDCG") == f"{expected:.4f}"


def test_present_figure_enlarges_chart_text_only_when_on():
    table = ndcg_core.evaluate(G, k=3).table
    normal = charts.contribution_chart(table, k=3)
    with mock.patch.object(present, "active", return_value=False):
        assert present.figure(normal).layout.font.size == 15
    with mock.patch.object(present, "active", return_value=True):
        big = present.figure(charts.contribution_chart(table, k=3))
    assert big.layout.font.size == present.CHART_FONT == 20
    assert big.layout.title.font.size == present.CHART_TITLE_FONT
    assert big.layout.annotations[0].font.size == 18  # the "k = 3" label
    assert big.layout.margin.b > normal.layout.margin.b


# --- the ghost of the previous state -------------------------------------------------------------------------------

def test_no_ghost_before_the_first_change():
    at = run_page()
    assert ghost_traces(at) == []


def test_ghost_after_a_move_holds_the_previous_contributions_and_the_ndcg_change():
    at = run_page()
    at.session_state["playground_list"] = moves_to(at.session_state, "playground_list", [0, 2, 1, 3, 4])
    at.run()
    assert not at.exception
    before, after = ndcg_core.evaluate(G), ndcg_core.evaluate([3, 2, 1, 0, 2])
    (trace,) = ghost_traces(at)
    assert trace["y"] == pytest.approx(list(before.table["contribution"]), abs=1e-12)
    assert trace["y"] == pytest.approx([7.0, 1 / 1.584962500721156, 1.5, 0.0, 3 / 2.584962500721156], abs=1e-12)
    assert trace["x"] == [1, 2, 3, 4, 5] and trace["offsetgroup"] == "actual"
    annotation = next(a for figure in chart_specs(at) for a in figure["layout"]["annotations"] if "NDCG" in a["text"])
    assert f"NDCG {before.ndcg:.4f} → {after.ndcg:.4f} (+{after.ndcg - before.ndcg:.4f})" in annotation["text"]
    assert "NDCG 0.9508 → 0.9750 (+0.0242)" in annotation["text"]  # by hand: DCG 10.5533 / IDCG 10.8235


def test_ghost_after_a_grade_edit_and_a_second_move_shows_the_state_just_before():
    at = run_page()
    revision = at.session_state["playground"].revision
    at.session_state[f"playground_editor_{revision}"] = {"edited_rows": {"3": {"Grade": "1"}}, "added_rows": [],
                                                         "deleted_rows": []}
    at.run()
    edited = ndcg_core.evaluate([3, 1, 2, 1, 2])
    (trace,) = ghost_traces(at)
    assert trace["y"] == pytest.approx(list(ndcg_core.evaluate(G).table["contribution"]), abs=1e-12)
    at.session_state["playground_list"] = moves_to(at.session_state, "playground_list", [4, 0, 1, 2, 3])
    at.run()
    (trace,) = ghost_traces(at)
    assert trace["y"] == pytest.approx(list(edited.table["contribution"]), abs=1e-12)
    moved = ndcg_core.evaluate([2, 3, 1, 2, 1])
    annotation = next(a for figure in chart_specs(at) for a in figure["layout"]["annotations"] if "NDCG" in a["text"])
    assert ghost.change_text(edited.ndcg, moved.ndcg) in annotation["text"]
    assert "−" in ghost.change_text(edited.ndcg, moved.ndcg)  # a drop, written with a minus sign


def test_change_text():
    assert ghost.change_text(0.95077, 0.83858) == "NDCG 0.9508 → 0.8386 (−0.1122)"
    assert ghost.change_text(0.5, 0.75) == "NDCG 0.5000 → 0.7500 (+0.2500)"
    assert ghost.change_text(float("nan"), 0.5) == "NDCG n/a → 0.5000"


# --- the Compare page's slide chart (on the page and in its PNG) --------------------------------------------------

def test_slide_chart_text_is_slide_sized():
    from ui import compare_charts

    comparison = ndcg_core.compare_runs([0.1, 0.5, 0.7, 0.2], [0.3, 0.4, 0.9, 0.2], n_boot=200)
    layout = compare_charts.slide_chart(comparison, name_a="A", name_b="B", metric="NDCG").layout
    assert layout.font.size == 20 and layout.yaxis.tickfont.size == 20
    assert layout.xaxis.title.font.size == 22 and layout.yaxis.title.font.size == 22
    assert layout.title.font.size == 28
    assert all(annotation.font.size >= 20 for annotation in layout.annotations)
    assert layout.height == compare_charts.SLIDE_HEIGHT


def test_in_present_mode_the_ndcg_change_is_the_playground_charts_title():
    at = run_page(query_params={"present": "1"})
    at.session_state["playground_list"] = moves_to(at.session_state, "playground_list", [0, 1, 3, 2, 4])
    at.run()
    (figure,) = chart_specs(at)
    assert figure["layout"]["title"]["text"] == "<b>NDCG 0.9508 → 0.9316 (−0.0192)</b>"  # DCG 10.0835 / 10.8235
    assert not [a for a in figure["layout"].get("annotations", []) if "NDCG" in a["text"]]
    assert figure["layout"]["font"]["size"] == present.CHART_FONT
    assert figure["layout"]["height"] == present.PRESENT_CHART_HEIGHT


# --- Present mode through every way of changing pages ---------------------------------------------------------------

def _page_title(at) -> str:
    return at.title[0].value if at.title else ""


@pytest.mark.parametrize(("button", "page"), [("example_open_0", "Playground"), ("example_walk_0", "Step by step")])
def test_present_stays_on_through_the_worked_examples_buttons(button, page):
    """st.switch_page drops every widget's state and the URL: the switch came back off on the page it opened."""
    at = run_page("worked_examples", query_params={"present": "1"})
    at.button(key=button).click().run()
    assert not at.exception
    assert page in _page_title(at)
    assert toggle(at).value is True and at.query_params["present"] == "1"
    assert any("font-size: clamp(17px, 1.2vw, 28px)" in str(element.proto) for element in at.get("html"))
    at.run()  # and on the runs after it
    assert toggle(at).value is True and at.query_params["present"] == "1"


def test_present_stays_on_through_datasets_open_in_the_playground():
    at = run_page("dataset", query_params={"present": "1"})
    at.button(key="dataset_open").click().run()
    assert not at.exception
    assert "Playground" in _page_title(at)
    assert toggle(at).value is True and at.query_params["present"] == "1"


def test_turned_off_present_stays_off_through_a_button():
    at = run_page("worked_examples", query_params={"present": "1"})
    toggle(at).set_value(False).run()
    at.button(key="example_open_0").click().run()
    assert toggle(at).value is False and "present" not in at.query_params


def test_links_to_other_pages_keep_present_mode():
    """A link opens a new session, which knows only the URL: the quiz's Playground links and the lesson plan's."""
    with mock.patch.object(present, "active", return_value=True):
        assert present.link("/?docs=D1:3") == "/?docs=D1:3&present=1"
        assert present.link("/quiz") == "/quiz?present=1"
    with mock.patch.object(present, "active", return_value=False):
        assert present.link("/?docs=D1:3") == "/?docs=D1:3"
    at = run_page("for_teachers", query_params={"present": "1"})
    assert not at.exception
    plan = [md.value for md in at.markdown if "min ·" in md.value]
    assert plan and all("present=1" in text for text in plan)
    worksheet = [md.value for md in at.markdown if md.value.startswith("Check it in the app")]
    assert worksheet and not any("present=1" in text for text in worksheet)  # students' links stay as they are


# --- every chart in Present mode --------------------------------------------------------------------------------

def test_every_chart_is_drawn_through_present():
    """A chart drawn with st.plotly_chart directly kept 15 px text on a projector (Step by step, Dataset, Compare),
    and it would have no text alternative (ui/chart_words.py): the student's phone too."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    exempt = {"ui/present.py"}
    direct = [str(path.relative_to(root)) for folder in ("ui", "pages") for path in (root / folder).rglob("*.py")
              if ".plotly_chart(" in path.read_text() and str(path.relative_to(root)) not in exempt]
    direct = [path for path in direct if "plotly_chart(" in "".join(
        line for line in (root / path).read_text().splitlines() if ".plotly_chart(" in line
        and "present.plotly_chart(" not in line and not line.lstrip().startswith(("#", '"')))]
    assert direct == [], direct


@pytest.mark.parametrize("page", ["step_by_step", "dataset", "compare"])
def test_present_mode_enlarges_every_chart_of_the_page(page):
    query = {"present": "1", **({"compare": "runs"} if page == "compare" else {})}
    specs = chart_specs(run_page(page, query_params=query))
    assert specs
    for spec in specs:
        assert spec["layout"]["font"]["size"] >= present.CHART_FONT, (page, spec["layout"].get("title"))
    normal = chart_specs(run_page(page, query_params={k: v for k, v in query.items() if k != "present"}))
    assert all(spec["layout"]["font"]["size"] < present.CHART_FONT for spec in normal)


def test_present_figure_fits_long_axis_titles_and_every_axis():
    table = ndcg_core.evaluate(G).table
    with mock.patch.object(present, "active", return_value=True):
        cumulative = present.figure(charts.cumulative_chart(table)).layout
    # "cumulative discounted gain" at 20 px is longer than the plot is tall: two lines
    assert cumulative.yaxis.title.text == "cumulative<br>discounted gain"
    assert cumulative.yaxis2.automargin is True and cumulative.xaxis.automargin is True
    assert cumulative.title.automargin is True and cumulative.title.yref == "container"
    assert cumulative.margin.t == present.TITLE_ROOM  # the title and the legend make their own room
    assert present.wrap("mean difference (B − A) in a resample", 28) == "mean difference<br>(B − A) in a resample"
    assert present.wrap("Rank i", 28) == "Rank i"


def test_in_present_mode_the_playground_legend_is_short():
    at = run_page(query_params={"present": "1"})
    (figure,) = chart_specs(at)
    assert [trace["name"] for trace in figure["data"]] == ["yours", "ideal"]
    assert figure["layout"]["legend"]["xanchor"] == "right" and figure["layout"]["legend"]["x"] > 1
    (normal,) = chart_specs(run_page())
    assert [trace["name"] for trace in normal["data"]] == ["Your ranking", "Ideal ranking"]


def test_present_mode_shows_the_per_position_table_as_text_that_grows_with_the_page():
    """On a projector the data grid kept 13 px text beside 23 px body text, and its 14 columns needed scrolling at
    1280 px: Present mode shows the main nine columns as an HTML table (its text scales with the page), rows below
    the cutoff in grey with a caption saying why."""
    import re

    from tests.conftest import run_page

    at = run_page(None, query_params={"present": "1", "k": "3", "docs": "D1:3,D2:1,D3:2,D4:0,D5:2"})
    assert not at.exception
    assert not [df for df in at.dataframe if "cumulative_dcg" in df.proto.column_order]  # no grid for it
    (table,) = [t for t in at.table if "DCG@i" in t.value.columns]
    assert table.value.columns.tolist() == ["Rank", "Document", "Grade", "Gain", "Discount", "Contribution", "DCG@i",
                                            "IDCG@i", "NDCG@i"]
    result = ndcg_core.evaluate([3, 1, 2, 0, 2], k=3)
    assert table.value["NDCG@i"].tolist() == [f"{v:.4f}" for v in result.table["ndcg_at_rank"]]
    rules = [rule.split("{") for rule in table.proto.arrow_data.styler.styles.split("}") if "{" in rule]
    grey = {int(row) for selectors, body in rules if "#6b6b6b" in body for row in re.findall(r"_row(\d+)_", selectors)}
    assert grey == {3, 4}
    assert ("Grey rows lie below the cutoff k = 3: they add nothing to DCG@3 (their grades still go into the ideal "
            "list).") in [c.value for c in at.caption]


def test_present_mode_text_is_never_smaller_than_without_it():
    """The theme's text is 17 px (.streamlit/config.toml); Present mode's floor stayed 16 px, so on a 1280 or
    1366 px projector Present mode made every text smaller (the root 17 -> 16 px). Its floor is the theme's size."""
    import re
    import tomllib

    theme = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())["theme"]
    floor = re.search(r"html \{ font-size: clamp\((\d+)px, ", present.CSS)
    assert floor and int(floor.group(1)) == theme["baseFontSize"] == 17


def test_in_present_mode_a_long_list_of_ranks_is_labelled_in_steps_that_fit():
    """29 ranks in Present mode at 1280x720: each rank had its own label (dtick 1) at 20 px in a plot ~270 px wide,
    and they ran into one another; beyond UNIT_TICKS ranks plotly picks the step. A short list keeps every rank."""
    docs = ",".join(f"D{i}:{i % 4}" for i in range(1, 30))
    (present_figure,) = chart_specs(run_page(query_params={"present": "1", "docs": docs}))
    (normal,) = chart_specs(run_page(query_params={"docs": docs}))
    assert normal["layout"]["xaxis"]["dtick"] == 1
    assert present_figure["layout"]["xaxis"].get("dtick") is None
    assert present_figure["layout"]["xaxis"]["range"] == [0.5, 29.5]
    (short,) = chart_specs(run_page(query_params={"present": "1"}))  # the default list of 5
    assert short["layout"]["xaxis"]["dtick"] == 1
