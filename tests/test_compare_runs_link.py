"""Compare page, two runs: the share link reproduces the comparison, every figure equal to ndcg_core's.

Before the fix the link held only ``compare=runs`` (and ``slide=1``): whoever opened it saw BM25 vs Neural with 10,000
resamples, seed 0 and a 95% interval under the default tie and missing-query rules, whatever the sender had picked.
The URL layer is ``ui.url_state`` (``run_a``, ``run_b``, ``resamples``, ``boot_seed``, ``confidence``, ``ties``,
``missing``, ``flip_query``, ``runs_unlinked``); the page is ``ui.compare_runs``.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ndcg_core
from tests.conftest import chart_specs, chart_values, copy_links, run_page
from ui import compare_runs, url_state
from ui.formatting import fixed, percent, signed
from ui.settings_model import MetricSettings

DATA = Path(__file__).resolve().parents[1] / "data"
RUN_FILES = {"BM25": "run_bm25.txt", "Neural": "run_neural.txt"}
LABEL = "Share link of this comparison"
RUNS_PARAMS = ("run_a", "run_b", "resamples", "boot_seed", "confidence", "ties", "missing")
DEFAULT_PARAMS = {"run_a": "BM25", "run_b": "Neural", "resamples": "10000", "boot_seed": "0", "confidence": "0.95",
                  "ties": "trec_eval", "missing": "ignore"}


def direct(run_a: str, run_b: str, *, n_boot: int, seed: int, confidence: float, ties: str, missing: str,
           metric: MetricSettings) -> ndcg_core.Comparison:
    """The comparison computed by ndcg_core straight from the sample's files (not through the page's caches)."""
    qrels = ndcg_core.read_qrels(DATA / "sample.qrels")
    per_query = [ndcg_core.evaluate_run(ndcg_core.read_run(DATA / RUN_FILES[name]), qrels, ties=ties, missing=missing,
                                        **metric.kwargs()).per_query["ndcg"] for name in (run_a, run_b)]
    return ndcg_core.compare_runs(*per_query, n_boot=n_boot, seed=seed, confidence=confidence)


def detail_cards(comparison: ndcg_core.Comparison, label: str) -> list[tuple[str, str, str | None]]:
    c = comparison
    return [(f"Mean {label}: A", fixed(c.mean_a), None), (f"Mean {label}: B", fixed(c.mean_b), signed(c.mean_difference)),
            ("B better", str(c.wins), None), ("Tied", str(c.ties), None), ("A better", str(c.losses), None)]


def cards(at) -> list[tuple[str, str, str | None]]:
    return [(m.label, m.value, m.delta or None) for m in at.metric]


def verdict_text(at) -> str:
    return next(t.value for t in at.text if " is better on " in t.value)


def seen(at) -> dict:
    """Every figure the mode shows: cards, texts, tables (flip grids included) and charts."""
    return {"cards": cards(at), "texts": [t.value for t in at.text], "markdown": [m.value for m in at.markdown],
            "tables": [df.value.to_json() for df in at.dataframe],
            "charts": [json.dumps(spec, sort_keys=True, default=str) for spec in chart_specs(at)]}


def link_params(at) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(copy_links(at)[LABEL]).query, keep_blank_values=True))


def bootstrap_resamples(at) -> int:
    (bootstrap,) = [spec for spec in chart_specs(at) if "Bootstrap" in spec["layout"]["title"]["text"]]
    return len(chart_values(bootstrap["data"][0]["x"]))


# --- a comparison made on the page reopens to the same figures ------------------------------------------------------

def test_a_runs_comparison_made_on_the_page_reopens_from_its_link_with_every_figure_equal():
    at = run_page("compare", query_params={"compare": "runs", "gain": "linear", "k": "5"})
    # The Dataset page's rules, as its pickers leave them (the comparison evaluates both runs with them).
    at.session_state["dataset_ties"] = "pessimistic"
    at.session_state["dataset_missing"] = "zero"
    at.selectbox(key="compare_run_a").set_value("Neural")
    at.selectbox(key="compare_run_b").set_value("BM25").run()
    at.number_input(key="compare_n_boot").set_value(2_500).run()
    at.number_input(key="compare_seed").set_value(2**31 - 1).run()  # the largest seed: 10 digits
    at.selectbox(key="compare_confidence").set_value(0.99).run()
    at.selectbox(key="compare_flip_query").set_value("417").run()
    assert not at.exception and not at.error and not at.warning, (at.exception, at.error, at.warning)
    sent = seen(at)
    params = link_params(at)
    assert params == {"gain": "linear", "base": "2", "z": "zero", "k": "5", "compare": "runs", "run_a": "Neural",
                      "run_b": "BM25", "resamples": "2500", "boot_seed": "2147483647", "confidence": "0.99",
                      "ties": "pessimistic", "missing": "zero", "flip_query": "417"}
    assert {name: at.query_params[name] for name in params} == params  # the address bar is the share link

    opened = run_page("compare", query_params=params)  # a fresh session: someone else opens the link
    assert not opened.exception and not opened.warning and not opened.error
    assert seen(opened) == sent  # every card, sentence, table (flip grids too) and chart
    assert opened.selectbox(key="compare_flip_query").value == "417"
    # ... and they are ndcg_core's figures for that comparison, not just equal to each other.
    metric = MetricSettings(gain="linear", k=5)
    expected = direct("Neural", "BM25", n_boot=2_500, seed=2**31 - 1, confidence=0.99, ties="pessimistic",
                      missing="zero", metric=metric)
    assert cards(opened) == detail_cards(expected, "NDCG@5")
    sign = 1 if expected.wins >= expected.losses else -1  # the verdict speaks of the better run's gain
    low, high = sorted((sign * expected.ci_low, sign * expected.ci_high))
    assert f"Neural is better on {expected.losses} of 60 queries (BM25 on {expected.wins}, {expected.ties} tied)" in (
        verdict_text(opened))
    assert f"99% CI {signed(low)} to {signed(high)}" in verdict_text(opened)
    # In the Dataset page's words, not ndcg_core's argument values ("pessimistic", "zero").
    assert ("tied scores: Worse grades first (worst case); missing queries: Count them as NDCG 0 (trec_eval -c)"
            in " ".join(t.value for t in opened.text))
    assert bootstrap_resamples(opened) == 2_500
    # The default comparison differs in these figures: the link, not chance, made them equal.
    default = direct("BM25", "Neural", n_boot=10_000, seed=0, confidence=0.95, ties="trec_eval", missing="ignore",
                     metric=metric)
    assert detail_cards(default, "NDCG@5") != cards(opened)
    assert expected.n_queries == 60 and default.n_queries == 59  # "zero": BM25's missing query 433 counts as 0


def test_the_slide_view_reopens_from_the_address_with_the_same_three_numbers():
    at = run_page("compare", query_params={"compare": "runs"})
    at.number_input(key="compare_seed").set_value(12345).run()
    at.selectbox(key="compare_confidence").set_value(0.9).run()
    at.toggle(key="compare_slide").set_value(True).run()
    assert not at.exception
    address = dict(at.query_params)
    assert address["slide"] == "1" and address["boot_seed"] == "12345" and address["confidence"] == "0.9"
    assert "flip_query" not in address  # the slide view has no flip grid
    opened = run_page("compare", query_params=address)
    assert not opened.exception and not opened.warning
    assert cards(opened) == cards(at) and opened.header[0].value == at.header[0].value == "Neural vs BM25: NDCG"
    expected = direct("BM25", "Neural", n_boot=10_000, seed=12345, confidence=0.9, ties="trec_eval", missing="ignore",
                      metric=MetricSettings())
    shown = {m.label: m.value for m in opened.metric}
    assert shown["90% CI of the mean difference"] == f"{signed(expected.ci_low, 3)} to {signed(expected.ci_high, 3)}"
    assert shown["Queries where Neural is better"] == f"{expected.wins} of {expected.n_queries}"
    assert shown["Mean NDCG of Neural"] == fixed(expected.mean_b, 3)


def test_an_old_runs_link_without_the_comparison_shows_the_default_without_a_warning():
    at = run_page("compare", query_params={"compare": "runs"})
    assert not at.exception and not at.warning
    expected = direct("BM25", "Neural", n_boot=10_000, seed=0, confidence=0.95, ties="trec_eval", missing="ignore",
                      metric=MetricSettings())
    assert cards(at) == detail_cards(expected, "NDCG")
    assert {name: link_params(at)[name] for name in DEFAULT_PARAMS} == DEFAULT_PARAMS


def test_the_lists_mode_carries_no_runs_parameters():
    at = run_page("compare", query_params={"compare": "runs", "boot_seed": "7"})
    at.radio(key="compare_mode").set_value("lists").run()
    assert not at.exception
    assert not (set(url_state.COMPARE_RUNS_PARAMS) | {"ties", "missing"}) & set(at.query_params)
    at.radio(key="compare_mode").set_value("runs").run()  # the choices are kept, and published again
    assert at.query_params["boot_seed"] == "7"


# --- uploaded runs cannot travel ------------------------------------------------------------------------------------

def test_uploaded_runs_say_they_cannot_be_shared_and_their_link_says_so():
    at = run_page("dataset")
    at.radio(key="dataset_source").set_value("trec").run()
    at.file_uploader(key="dataset_qrels_file").set_value(("mine.qrels", (DATA / "sample.qrels").read_bytes(),
                                                          "text/plain"))
    at.file_uploader(key="dataset_run_files").set_value([
        (f"private_{name}.txt", (DATA / file).read_bytes(), "text/plain") for name, file in RUN_FILES.items()])
    at.run()
    at.switch_page("pages/compare.py").run()
    at.radio(key="compare_mode").set_value("runs").run()
    assert not at.exception and " is better on " in verdict_text(at)
    assert LABEL not in copy_links(at)
    assert any("cannot be shared as a link: its runs were uploaded" in c.value for c in at.caption)
    address = dict(at.query_params)
    assert address["runs_unlinked"] == "1"
    assert not {"run_a", "run_b", "flip_query"} & set(address)
    assert "private" not in json.dumps(address)  # the uploaded files' names stay private

    opened = run_page("compare", query_params=address)
    assert not opened.exception
    warnings = " ".join(w.value for w in opened.warning)
    assert "copied from a comparison of uploaded runs" in warnings and "bundled sample" in warnings
    assert cards(opened) == cards(run_page("compare", query_params={"compare": "runs"}))  # the default comparison
    assert opened.query_params["run_a"] == "BM25"  # the address is corrected at once


# --- bad, hostile and out-of-range links ----------------------------------------------------------------------------

@pytest.mark.parametrize(("params", "words"), [
    ({"run_a": "Unknown<b>"}, "run A is not one of the bundled sample's runs (BM25 or Neural)"),
    ({"run_b": ""}, "run B is not one of"),
    ({"resamples": "999"}, "the number of resamples is not a whole number from 1,000 to 100,000"),
    ({"resamples": "100001"}, "from 1,000 to 100,000"),
    ({"resamples": "2e3"}, "the number of resamples"),
    ({"resamples": "-1000"}, "the number of resamples"),
    ({"resamples": "²⁰⁰⁰"}, "the number of resamples"),
    ({"boot_seed": "2147483648"}, "the seed is not a whole number from 0 to 2,147,483,647"),
    ({"boot_seed": "1" * 5_000}, "the seed"),
    ({"boot_seed": "٣"}, "the seed"),
    ({"confidence": "0.8"}, "the confidence level is not 0.9, 0.95 or 0.99"),
    ({"confidence": "95%"}, "the confidence level"),
    ({"ties": "random"}, "the tie rule is not one of"),
    ({"missing": "drop"}, "the missing-query rule is not one of ignore or zero"),
    ({"resamples": "x", "confidence": "y"}, "the number of resamples is not a whole number from 1,000 to 100,000; "
                                            "the confidence level"),
])
def test_a_bad_runs_link_is_refused_with_a_message_and_the_default_is_shown(params, words):
    link = {"compare": "runs", **DEFAULT_PARAMS, "run_a": "Neural", "run_b": "BM25", "boot_seed": "5", **params}
    at = run_page("compare", query_params=link)
    assert not at.exception, at.exception
    warnings = " ".join(warning.value for warning in at.warning)
    assert "The link's comparison of runs could not be used (" in warnings and words in warnings, warnings
    assert "so the default comparison is shown" in warnings
    for text in params.values():  # the link's text is never quoted
        assert not text or text not in warnings.replace(words, "")
    assert cards(at) == cards(run_page("compare", query_params={"compare": "runs"}))  # every default, not a mix
    assert {name: at.query_params[name] for name in DEFAULT_PARAMS} == DEFAULT_PARAMS  # the address is corrected


def test_an_unknown_flip_query_is_refused_and_the_first_query_shown():
    at = run_page("compare", query_params={"compare": "runs", **DEFAULT_PARAMS, "flip_query": "<b>9999</b>"})
    assert not at.exception
    warnings = " ".join(w.value for w in at.warning)
    assert "The link's query for “Does my choice flip the winner?” could not be read" in warnings
    assert "9999" not in warnings
    assert at.selectbox(key="compare_flip_query").value == "401" == at.query_params["flip_query"]
    assert not [w for w in at.warning if "comparison of runs" in w.value]  # the rest of the link was used


def test_a_bad_links_warning_stays_until_the_comparison_changes():
    at = run_page("compare", query_params={"compare": "runs", "resamples": "5"})
    assert any("could not be used" in w.value for w in at.warning)
    at.run()
    assert any("could not be used" in w.value for w in at.warning)
    at.number_input(key="compare_seed").set_value(3).run()
    assert not at.warning


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from((*RUNS_PARAMS, "runs_unlinked")),
                       st.text(max_size=12) | st.sampled_from(["BM25", "Neural", "1000", "0", "0.9", "0.95", "average",
                                                               "zero", "2147483647", "²", "1e3"]), max_size=5))
def test_the_reader_never_raises_and_returns_only_what_the_page_offers(params):
    choices = compare_runs.link_choices(["BM25", "Neural"])
    runs, problem = url_state.compared_runs_from_params(params, choices)
    if runs is None:
        assert problem is not None or not params
    else:
        assert problem is None and "runs_unlinked" not in params
        assert {runs.run_a, runs.run_b} <= set(choices.run_names) and runs.confidence in choices.confidences
        assert 1_000 <= runs.resamples <= 100_000 and 0 <= runs.seed < 2**31
        assert runs.ties in choices.ties and runs.missing in choices.missing
        assert url_state.compared_runs_params(runs) == {**url_state.compared_runs_params(choices.defaults),
                                                        **{name: params[name] for name in RUNS_PARAMS if name in params}}


# --- history ---------------------------------------------------------------------------------------------------------

def test_one_url_write_per_action_and_none_for_opening_the_link_or_a_plain_rerun(url_writes):
    params = {"gain": "exponential", "base": "2", "z": "zero", "compare": "runs", **DEFAULT_PARAMS,
              "boot_seed": "9", "flip_query": "402"}
    at = run_page("compare", query_params=params)
    at.run()
    assert url_writes == [] and not at.warning  # the address already is the state: Back history untouched
    assert at.number_input(key="compare_seed").value == 9
    at.selectbox(key="compare_confidence").set_value(0.9).run()
    assert len(url_writes) == 1 and url_writes[0]["confidence"] == "0.9" and url_writes[0]["flip_query"] == "402"
    at.run()
    assert len(url_writes) == 1
    assert percent(0.9) in verdict_text(at)



def test_opening_a_runs_link_logs_no_widget_warning(caplog):
    """Opening a runs link put "The widget with key "compare_run_b" was created with a default value but also had
    its value set via the Session State API" into the server's log (the state layer sets the pickers from the link
    before they are drawn, on purpose: .streamlit/config.toml turns that warning off)."""
    params = {"compare": "runs", "run_a": "Neural", "run_b": "BM25", "resamples": "2000", "boot_seed": "3",
              "confidence": "0.9"}
    with caplog.at_level("WARNING"):
        at = run_page("compare", query_params=params)
    assert not at.exception
    assert (at.selectbox(key="compare_run_a").value, at.selectbox(key="compare_run_b").value) == ("Neural", "BM25")
    assert not [r.getMessage() for r in caplog.records if "Session State API" in r.getMessage()]
