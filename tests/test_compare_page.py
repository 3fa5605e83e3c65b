"""Compare page (AppTest): two rankings side by side, and two runs with a bootstrap verdict checked independently."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import ndcg_core
from tests.conftest import chart_specs, chart_values, run_page
from ui.ranked_list import moves_to

DATA = Path(__file__).resolve().parents[1] / "data"
GRADES = {"D1": 3, "D2": 2, "D3": 3, "D4": 0, "D5": 1, "D6": 2, "D7": 0, "D8": 1}


def verdict_text(at) -> str:
    return next(t.value for t in at.text if " is better on " in t.value)


def metric_values(at) -> list[tuple[str, str]]:
    return [(m.label, m.value) for m in at.metric]


def exponential_dcg(grades: list[float]) -> float:
    """DCG by hand from the formula: sum of (2^g - 1) / log2(i + 1)."""
    return sum((2**g - 1) / np.log2(i + 2) for i, g in enumerate(grades))


@pytest.fixture
def lists_page():
    at = run_page("compare")
    assert not at.exception, at.exception
    return at


def test_example_rankings_show_both_results(lists_page):
    at = lists_page
    order_a = ["D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8"]
    order_b = ["D3", "D4", "D1", "D6", "D2", "D8", "D5", "D7"]
    ideal = exponential_dcg(sorted(GRADES.values(), reverse=True))
    dcg_a = exponential_dcg([GRADES[d] for d in order_a])
    dcg_b = exponential_dcg([GRADES[d] for d in order_b])
    shown = dict.fromkeys(("A", "B"))
    values = metric_values(at)
    shown["A"], shown["B"] = dict(values[:4]), dict(values[4:8])
    assert shown["A"]["DCG"] == f"{dcg_a:.4f}" and shown["B"]["DCG"] == f"{dcg_b:.4f}"
    assert shown["A"]["IDCG"] == shown["B"]["IDCG"] == f"{ideal:.4f}"
    assert shown["A"]["NDCG"] == f"{dcg_a / ideal:.4f}" and shown["B"]["NDCG"] == f"{dcg_b / ideal:.4f}"
    # B's cards carry the delta against A
    assert at.metric[7].delta == f"{dcg_b / ideal - dcg_a / ideal:+.4f}"
    sentence = at.text[0].value
    assert sentence.startswith(f"Ranking A has the higher DCG by {dcg_a - dcg_b:.4f}")
    # Rank 2 is the biggest difference: A's D2 (grade 2) against B's D4 (grade 0) = -(2^2 - 1)/log2(3)
    assert f"rank 2: A has D2 (grade 2), B has D4 (grade 0), {-3 / np.log2(3):+.4f} for B" in sentence


def test_dragging_ranking_b_updates_it(lists_page):
    at = lists_page
    key = "compare_list_B"
    # B is D3, D4, D1, ...; move D4 (position 2) to the bottom
    perm = [0, 2, 3, 4, 5, 6, 7, 1]
    at.session_state[key] = moves_to(at.session_state, key, perm)
    at.run()
    assert not at.exception, at.exception
    new_b = ["D3", "D1", "D6", "D2", "D8", "D5", "D7", "D4"]
    assert at.session_state["compare_order_b"] == new_b
    ideal = exponential_dcg(sorted(GRADES.values(), reverse=True))
    assert dict(metric_values(at)[4:8])["NDCG"] == f"{exponential_dcg([GRADES[d] for d in new_b]) / ideal:.4f}"


def test_ideal_button_and_swap(lists_page):
    at = lists_page
    order_b = at.session_state["compare_order_b"]
    at.button(key="compare_ideal_a").click().run()
    assert dict(metric_values(at)[:4])["NDCG"] == "1.0000"
    ideal_a = at.session_state["compare_order_a"]
    assert [GRADES[name] for name in ideal_a] == sorted(GRADES.values(), reverse=True)
    at.button(key="compare_swap").click().run()
    assert at.session_state["compare_order_b"] == ideal_a and at.session_state["compare_order_a"] == order_b
    assert dict(metric_values(at)[4:8])["NDCG"] == "1.0000"


def test_ideal_button_clicked_with_a_grade_edit_uses_the_edited_grades(lists_page):
    """A grade typed and "A: ideal" clicked at once (one request): A is ideal for the grades as edited.

    D4 (grade 0, row 3) becomes 5, so the ideal starts with D4; with the ideal of the last redraw A would start
    with D1 or D3 and its NDCG would be below 1.
    """
    at = lists_page
    at.session_state["compare_docs_editor"] = {"edited_rows": {3: {"grade": 5}}, "added_rows": [], "deleted_rows": []}
    at.button(key="compare_ideal_a").click().run()
    assert not at.exception
    assert at.session_state["compare_order_a"][0] == "D4"
    assert dict(metric_values(at)[:4])["NDCG"] == "1.0000"


def test_editing_a_grade_changes_both_and_bad_edit_keeps_previous(lists_page):
    at = lists_page
    at.session_state["compare_docs_editor"] = {"edited_rows": {3: {"grade": 3}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.exception
    grades = dict(GRADES, D4=3)
    ideal = exponential_dcg(sorted(grades.values(), reverse=True))
    assert dict(metric_values(at)[:4])["IDCG"] == f"{ideal:.4f}"
    at.session_state["compare_docs_editor"] = {"edited_rows": {3: {"grade": -1}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.exception
    assert any("Edit not applied" in e.value and "negative" in e.value for e in at.error)
    # falls back to the last base (the example), not a broken state
    assert dict(metric_values(at)[:4])["IDCG"] == f"{exponential_dcg(sorted(GRADES.values(), reverse=True)):.4f}"


def bootstrap_by_hand(differences: np.ndarray, *, n_boot: int, seed: int, confidence: float):
    rng = np.random.default_rng(seed)
    samples = rng.integers(0, differences.size, size=(n_boot, differences.size))
    means = differences[samples].mean(axis=1)
    return np.quantile(means, [(1 - confidence) / 2, (1 + confidence) / 2])


def sample_per_query(run_file: str, k: int | None):
    qrels = ndcg_core.read_qrels(DATA / "sample.qrels")
    return ndcg_core.evaluate_run(ndcg_core.read_run(DATA / run_file), qrels, k=k).per_query["ndcg"]


@pytest.mark.parametrize("k", [None, 10])
def test_run_verdict_equals_independent_bootstrap(k):
    at = run_page("compare", query_params={"k": str(k)} if k else None)
    at.radio(key="compare_mode").set_value("runs").run()
    assert not at.exception, at.exception
    bm25, neural = sample_per_query("run_bm25.txt", k), sample_per_query("run_neural.txt", k)
    common = bm25.index.intersection(neural.index)
    differences = (neural[common] - bm25[common]).to_numpy()
    low, high = bootstrap_by_hand(differences, n_boot=10_000, seed=0, confidence=0.95)
    wins, losses = int((differences > 1e-9).sum()), int((differences < -1e-9).sum())
    ties = differences.size - wins - losses
    metric = "NDCG" if k is None else f"NDCG@{k}"
    expected = (
        f"Neural is better on {wins} of {differences.size} queries (BM25 on {losses}, {ties} tied); "
        f"the mean {metric} improvement is {differences.mean():+.4f}, 95% CI {low:+.4f} to {high:+.4f}."
    )
    verdict = verdict_text(at)
    assert verdict.startswith(expected), (verdict, expected)
    assert "excludes 0" in verdict  # the sample's neural run is clearly better
    assert differences.size == 59  # 433 is missing from BM25 (ignored), 461 is unjudged
    labels = dict(metric_values(at))
    assert labels["B better"] == str(wins) and labels["A better"] == str(losses) and labels["Tied"] == str(ties)
    assert labels[f"Mean {metric}: B"] == f"{neural[common].mean():.4f}"


def test_run_comparison_reacts_to_seed_and_confidence():
    at = run_page("compare")
    at.radio(key="compare_mode").set_value("runs").run()
    at.number_input(key="compare_seed").set_value(7)
    at.number_input(key="compare_n_boot").set_value(2000)
    at.selectbox(key="compare_confidence").set_value(0.9).run()
    assert not at.exception
    bm25, neural = sample_per_query("run_bm25.txt", None), sample_per_query("run_neural.txt", None)
    common = bm25.index.intersection(neural.index)
    differences = (neural[common] - bm25[common]).to_numpy()
    low, high = bootstrap_by_hand(differences, n_boot=2000, seed=7, confidence=0.9)
    assert f"90% CI {low:+.4f} to {high:+.4f}" in verdict_text(at)
    # The interval at 2 decimals is the same for 2,000 and 10,000 resamples: the chart says how many were drawn,
    # and its histogram holds one mean per resample.
    (bootstrap,) = [spec for spec in chart_specs(at) if "Bootstrap" in spec["layout"]["title"]["text"]]
    assert "Bootstrap: 2,000 resamples" in bootstrap["layout"]["title"]["text"]
    assert len(chart_values(bootstrap["data"][0]["x"])) == 2000


def test_a_rerun_that_changes_nothing_does_not_bootstrap_again(monkeypatch):
    # 10,000 resamples cost ~0.3 s for 10,000 queries and ~3 s for 100,000: the comparison is kept, not redone on
    # every rerun of the page (and done again when a choice it depends on changes).
    from ui import compare_runs

    compare_runs._comparison.clear()  # kept across AppTests of this process: start from none
    calls = []
    original = ndcg_core.compare_runs
    monkeypatch.setattr(ndcg_core, "compare_runs", lambda *args, **kwargs: calls.append(1) or original(*args, **kwargs))
    at = run_page("compare")
    at.radio(key="compare_mode").set_value("runs").run()
    first = len(calls)
    assert first >= 1 and not at.exception
    verdict = verdict_text(at)
    at.run()
    assert len(calls) == first and verdict_text(at) == verdict
    at.number_input(key="compare_seed").set_value(3).run()  # a choice of the bootstrap: computed again
    assert len(calls) == first + 1


def test_swapped_runs_verdict_names_the_better_one():
    at = run_page("compare")
    at.radio(key="compare_mode").set_value("runs").run()
    at.selectbox(key="compare_run_a").set_value("Neural")
    at.selectbox(key="compare_run_b").set_value("BM25").run()
    assert not at.exception
    assert verdict_text(at).startswith("Neural is better on")
    at.selectbox(key="compare_run_b").set_value("Neural").run()
    assert any("two different runs" in w.value for w in at.warning)


def test_slide_summary_has_big_numbers_chart_and_png():
    at = run_page("compare")
    at.radio(key="compare_mode").set_value("runs").run()
    at.selectbox(key="compare_confidence").set_value(0.99).run()
    at.toggle(key="compare_slide").set_value(True).run()
    assert not at.exception, at.exception
    assert not at.main.radio and not at.main.selectbox  # one clean screen: the controls are hidden
    assert at.header[0].value == "Neural vs BM25: NDCG"
    shown = {m.label: m.value for m in at.metric}
    assert shown["Queries where Neural is better"].endswith(" of 59")
    assert "99% CI of the mean difference" in shown  # the choice made before switching to the slide is kept
    assert len(at.get("plotly_chart")) == 1
    assert " is better on " in verdict_text(at)
    downloads = [element for element in at.get("download_button") if "PNG" in element.proto.label]
    captions = [c.value for c in at.caption if "PNG" in c.value]
    assert downloads or captions  # a real PNG button when kaleido + Chromium work, else the toolbar instructions


def test_png_export_renders_the_slide_chart():
    from ui import compare_charts

    if not compare_charts.png_export_available():
        pytest.skip("kaleido cannot start Chromium here; the page falls back to the chart toolbar")
    comparison = ndcg_core.compare_runs([0.1, 0.5, 0.7], [0.3, 0.4, 0.9], n_boot=200)
    png = compare_charts.png_bytes(compare_charts.slide_chart(comparison, name_a="A", name_b="B", metric="NDCG"))
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000


def test_leaving_the_slide_view_restores_the_controls():
    at = run_page("compare")
    at.radio(key="compare_mode").set_value("runs").run()
    at.selectbox(key="compare_run_a").set_value("Neural")
    at.selectbox(key="compare_run_b").set_value("BM25").run()
    at.toggle(key="compare_slide").set_value(True).run()
    assert at.header[0].value == "BM25 vs Neural: NDCG"
    at.toggle(key="compare_slide").set_value(False).run()
    assert at.radio(key="compare_mode").value == "runs"
    assert at.selectbox(key="compare_run_a").value == "Neural"


def test_share_link_opens_the_slide_view():
    at = run_page("compare", query_params={"compare": "runs", "slide": "1"})
    assert not at.exception, at.exception
    assert at.header[0].value == "Neural vs BM25: NDCG"
    lists = run_page("compare", query_params={"compare": "nonsense"})
    assert not lists.exception and lists.radio(key="compare_mode").value == "lists"


def test_open_ranking_b_in_the_playground(lists_page):
    at = lists_page
    at.button(key="compare_open_B").click().run()
    assert not at.exception, at.exception
    ranking = at.session_state["playground"].ranking
    assert list(ranking.names) == ["D3", "D4", "D1", "D6", "D2", "D8", "D5", "D7"]
    assert list(ranking.grades) == [3, 0, 3, 2, 2, 1, 1, 0]


def test_renaming_a_document_keeps_its_place_in_both_rankings(lists_page):
    at = lists_page
    at.session_state["compare_docs_editor"] = {"edited_rows": {3: {"document": "D4 new"}}, "added_rows": [],
                                               "deleted_rows": []}
    at.run()
    assert not at.exception
    assert at.session_state["compare_order_b"][:3] == ["D3", "D4 new", "D1"]
    assert at.session_state["compare_order_a"][3] == "D4 new"
    # renamed again (the editor reports it against the same base row): still in place
    at.session_state["compare_docs_editor"] = {"edited_rows": {3: {"document": "X"}}, "added_rows": [],
                                               "deleted_rows": []}
    at.run()
    assert at.session_state["compare_order_b"][:3] == ["D3", "X", "D1"]
    # a deleted row plus an added one is not a rename: the new document goes to the bottom
    at.session_state["compare_docs_editor"] = {"edited_rows": {3: {"document": "X"}},
                                               "added_rows": [{"document": "N", "grade": 2}], "deleted_rows": [0]}
    at.run()
    order_b = at.session_state["compare_order_b"]
    assert "D1" not in order_b and order_b[-1] == "N" and order_b[:2] == ["D3", "X"]
    grades = {name: GRADES.get(name, 0) for name in order_b} | {"X": 0, "N": 2}
    ideal = exponential_dcg(sorted(grades.values(), reverse=True))
    assert dict(metric_values(at)[4:8])["NDCG"] == f"{exponential_dcg([grades[d] for d in order_b]) / ideal:.4f}"


def test_the_flip_grid_names_the_idcg_rule_it_uses_in_the_sidebars_words():
    """Under "Skip" the runs grid said "(In this grid the IDCG = 0 rule “skip” by 0.)": the raw value, a verb
    missing, and no word on why its means differ from the cards above (found by an exploratory pass)."""
    at = run_page("compare", query_params={"compare": "runs", "z": "skip"})
    assert not at.exception
    (intro,) = [c.value for c in at.caption if "In this grid" in c.value]
    assert ("(In this grid NDCG when IDCG = 0 is “0 (scikit-learn, trec_eval)” instead of the sidebar's “Skip (left "
            "out of averages)”, so its means count those queries as 0.)") in intro
    assert "“skip”" not in intro


def test_the_verdict_says_a_small_mean_difference_as_the_cards_do():
    """A mean difference of +0.0036 (CI -0.0466 to +0.0527) read "the mean NDCG@10 improvement is 0.00, 95% CI
    -0.05–0.05" beside a card showing +0.0036: as if the runs were identical."""
    from types import SimpleNamespace

    from ui.compare_runs import verdict

    comparison = SimpleNamespace(mean_difference=0.0036, ci_low=-0.0466, ci_high=0.0527, wins=16, losses=12, ties=2,
                                 n_queries=30, confidence=0.95)
    assert verdict(comparison, name_a="runA", name_b="runB", metric="NDCG@10") == (
        "runB is better on 16 of 30 queries (runA on 12, 2 tied); the mean NDCG@10 improvement is +0.0036, 95% CI "
        "-0.0466 to +0.0527. The interval includes 0, so these queries do not show a reliable difference in the mean.")


def test_a_flip_grid_cell_writes_its_winner_apart_from_the_loser():
    """'B (0.521 vs 0.521)': the cell named a winner beside two equal numbers (three places); it now writes as many
    places as it takes to tell them apart, as ndcg_core gives them."""
    judged = "D0:3,D1:2,D2:3,D3:0,D4:1,D5:2,D6:0,D7:1"
    at = run_page("compare", query_params={"compare": "lists", "judged": judged, "order_a": "3,6,4,1,7,5,0,2",
                                           "order_b": "3,6,4,7,1,0,5,2"})
    assert not at.exception, at.exception
    grades = [3, 2, 3, 0, 1, 2, 0, 1]
    a = ndcg_core.evaluate([grades[i] for i in (3, 6, 4, 1, 7, 5, 0, 2)], gain="exponential").ndcg
    b = ndcg_core.evaluate([grades[i] for i in (3, 6, 4, 7, 1, 0, 5, 2)], gain="exponential").ndcg
    assert f"{a:.3f}" == f"{b:.3f}" and f"{a:.4f}" != f"{b:.4f}" and b > a  # 0.5210 vs 0.5212
    grid = next(frame.value for frame in at.dataframe if "no cutoff" in frame.value.columns).set_index("gain")
    assert grid.loc["exponential", "no cutoff"].endswith(f"({a:.4f} vs {b:.4f})")
    assert grid.loc["exponential", "no cutoff"].startswith("B ")


def _runs_one_rank_apart(depth: int):
    """Compare, two runs, on one query whose one relevant document (d1) is at rank ``depth`` in a.txt and at rank
    ``depth + 1`` in b.txt, behind ``depth`` - 1 unjudged documents (uploaded through the Dataset page)."""
    from tests.test_dataset_page import upload_trec

    fillers = "".join(f"q1 Q0 x{i:03d} {i} {1000 - i} t\n" for i in range(1, depth + 1))
    run_a = fillers.replace(f"x{depth:03d} {depth} {1000 - depth}", f"d1 {depth} {1000 - depth}")
    run_b = fillers + f"q1 Q0 d1 {depth + 1} {999 - depth} t\n"
    at = upload_trec(run_page("dataset"), b"q1 0 d1 1\n", ("a.txt", run_a.encode()), ("b.txt", run_b.encode()))
    at.switch_page("pages/compare.py").run()
    at.radio(key="compare_mode").set_value("runs").run()
    return at


def test_the_slide_writes_a_small_mean_change_with_the_places_it_needs():
    """Two runs a third of a thousandth apart: the slide's card said '-0.000 vs a.txt' and its chart 'mean difference
    -0.000', a change that reads as none; they now say -0.0003, as ndcg_core's mean difference is."""
    at = _runs_one_rank_apart(100)
    at.toggle(key="compare_slide").set_value(True).run()
    assert not at.exception, at.exception
    change = 1 / np.log2(102) - 1 / np.log2(101)  # NDCG = DCG here (IDCG = 1)
    assert f"{change:+.3f}" == "-0.000" and f"{change:+.4f}" == "-0.0003"
    card = next(m for m in at.metric if m.label == "Mean NDCG of b\\.txt")  # names are shown as typed (escaped)
    assert card.delta == "-0.0003 vs a\\.txt"
    assert "<b>mean difference -0.0003</b>" in json.dumps(chart_specs(at)[0], ensure_ascii=False)


def test_the_flip_grid_says_it_leaves_out_what_the_missing_query_rule_counts_as_zero():
    """Under 'Count them as NDCG 0' the cards compared 3 queries (a.txt 0.6667, b.txt 0.6199: 'a.txt is better') and
    the flip grid, over the 2 queries both runs rank, said 'With the current settings B wins' (0.500 vs 0.930), with
    no word on why the two disagree."""
    from tests.test_dataset_page import upload_trec

    qrels = b"q1 0 a 2\nq1 0 b 1\nq2 0 c 1\nq3 0 d 1\n"
    run_a = b"q1 Q0 a 1 2 t\nq1 Q0 b 2 1 t\nq2 Q0 c 1 1 t\nq3 Q0 x 1 1 t\n"
    run_b = b"q1 Q0 b 1 2 t\nq1 Q0 a 2 1 t\nq3 Q0 d 1 1 t\n"  # b.txt has no q2
    at = upload_trec(run_page("dataset", query_params={"gain": "linear"}), qrels, ("a.txt", run_a), ("b.txt", run_b))
    at.selectbox(key="dataset_missing").set_value("zero").run()
    at.switch_page("pages/compare.py").run()
    at.radio(key="compare_mode").set_value("runs").run()
    assert not at.exception, at.exception
    cards = {m.label: m.value for m in at.metric}
    assert (cards["Mean NDCG: A"], cards["Mean NDCG: B"]) == ("0.6667", "0.6199")
    assert "**Overall**: mean NDCG over the 2 queries both runs rank" in [m.value for m in at.markdown]
    notes = [i.value for i in at.info if "Unlike the cards above" in i.value]
    assert notes == ["Unlike the cards above, this grid leaves out the 1 judged query that only one run (or neither) "
                     "retrieved, which the missing-query rule “Count them as NDCG 0 (trec_eval -c)” counts there as "
                     "NDCG 0: its means and its winner can differ from theirs."]
    at.switch_page("pages/dataset.py").run()
    at.selectbox(key="dataset_missing").set_value("ignore").run()
    at.switch_page("pages/compare.py").run()
    assert not [i for i in at.info if "Unlike the cards above" in i.value]  # both compare the same 2 queries


def test_the_verdict_and_cards_write_a_tiny_mean_change_with_the_places_it_needs():
    """Runs 0.00004 apart: the verdict said 'the mean NDCG improvement is +0.0000, 95% CI +0.0000 to +0.0000. The
    interval excludes 0, ...' (an interval of zeros that excludes 0) and the card '-0.0000', a change that reads as
    none."""
    at = _runs_one_rank_apart(500)
    assert not at.exception, at.exception
    change = 1 / np.log2(502) - 1 / np.log2(501)
    assert f"{change:+.4f}" == "-0.0000" and f"{change:+.5f}" == "-0.00004"
    assert "the mean NDCG improvement is +0.00004, 95% CI +0.00004 to +0.00004. The interval excludes 0" in verdict_text(at)
    card = next(m for m in at.metric if m.label == "Mean NDCG: B")
    assert card.delta == "-0.00004"
