"""The shared sidebar settings: they change the Playground's numbers and round-trip through the URL."""

from __future__ import annotations

import math

import pytest

import ndcg_core
from tests.conftest import run_page
from tests.test_playground import G, edit, expected_metrics, open_playground, shown_metrics
from ui.settings import MetricSettings, parse_gain_table_param, settings_to_params


@pytest.fixture
def at():
    page = open_playground()
    assert not page.exception, page.exception
    return page


def test_linear_gain(at):
    at.radio(key="settings_gain").set_value("linear").run()
    assert shown_metrics(at) == expected_metrics(G, gain="linear")
    assert shown_metrics(at)["CG"] == "8.0000"  # 3 + 1 + 2 + 0 + 2


def test_log_base_changes_dcg_but_not_ndcg(at):
    at.radio(key="settings_log_base").set_value("e").run()
    assert shown_metrics(at) == expected_metrics(G, log_base=math.e)
    natural = ndcg_core.evaluate(G, log_base=math.e)
    # document 000's code divides by Math.Log (natural log): NDCG@5 = 0.950849602851865
    assert natural.ndcg == pytest.approx(0.950849602851865, abs=1e-12)
    assert shown_metrics(at)["DCG"] == f"{natural.dcg:.4f}"
    assert any(r"\ln" in element.value for element in at.latex)


def test_cutoff_k_labels_and_values(at):
    at.number_input(key="settings_k").set_value(3).run()
    assert shown_metrics(at) == expected_metrics(G, k=3)
    assert set(shown_metrics(at)) == {"CG@3", "DCG@3", "IDCG@3", "NDCG@3"}


def test_zero_idcg_rule(at):
    edit(at, edited={0: {"Grade": 0}, 1: {"Grade": 0}, 2: {"Grade": 0}, 4: {"Grade": 0}})
    assert shown_metrics(at)["NDCG"] == "0.0000"
    at.selectbox(key="settings_zero_idcg").set_value("one").run()
    assert shown_metrics(at)["NDCG"] == "1.0000"
    at.selectbox(key="settings_zero_idcg").set_value("error").run()
    assert not at.exception
    assert at.error  # the edit (or the page) says IDCG is 0


def test_the_settings_line_names_the_zero_idcg_rule_as_the_sidebar_does(at):
    """The Playground's (and Step by step's) "Settings (sidebar): … IDCG = 0 → skip" named ndcg_core's value, not
    the sidebar's choice "Skip (left out of averages)"."""
    at.selectbox(key="settings_zero_idcg").set_value("skip").run()
    line = next(c.value for c in at.caption if "Settings (sidebar)" in c.value)
    assert line.endswith("IDCG = 0 → Skip (left out of averages).") and "→ skip" not in line
    assert MetricSettings(zero_idcg="one", k=5).describe() == (
        "exponential gain · log base 2 · k = 5 · IDCG = 0 → 1 (LightGBM, XGBoost)")


def test_settings_are_mirrored_to_the_url(at):
    at.radio(key="settings_gain").set_value("linear").run()
    at.number_input(key="settings_k").set_value(4).run()
    assert at.query_params["gain"] == "linear"
    assert at.query_params["k"] == "4"
    assert at.query_params["base"] == "2"


def test_url_restores_settings():
    at = open_playground({"gain": "linear", "base": "10", "k": "2", "z": "one"})
    assert not at.exception and not at.warning
    assert at.radio(key="settings_gain").value == "linear"
    assert at.radio(key="settings_log_base").value == "10"
    assert at.number_input(key="settings_k").value == 2
    assert shown_metrics(at) == expected_metrics(G, k=2, gain="linear", log_base=10)


def test_custom_gain_table_from_url():
    at = open_playground({"gain": "custom", "gt": "0:0,1:2,2:5,3:9"})
    assert not at.exception and not at.warning
    assert shown_metrics(at) == expected_metrics(G, gain={0: 0, 1: 2, 2: 5, 3: 9})


@pytest.mark.parametrize(
    ("params", "named"),
    [
        ({"gain": "quadratic"}, "gain"),
        ({"base": "3"}, "log base"),
        ({"k": "-1"}, "k"),
        ({"k": "abc"}, "k"),
        ({"k": "9" * 50}, "k"),
        ({"z": "<script>"}, "“NDCG when IDCG = 0” rule"),
            ({"k": "²"}, "k"),
            ({"k": "1" * 100_000}, "k"),
            ({"k": "٣"}, "k"),
        ({"gain": "custom", "gt": "1:2:3"}, "gain table"),
        ({"gain": "custom", "gt": "a:b"}, "gain table"),
        ({"gain": "custom", "gt": "0:-5"}, "gain table"),
        ({"gain": "custom", "gt": "0:1," * 1000}, "gain table"),
    ],
)
def test_malformed_settings_fall_back_with_a_warning(params, named):
    at = open_playground(params)
    assert not at.exception
    assert any(named in warning.value and "could not be read" in warning.value for warning in at.warning)
    assert "NDCG" in shown_metrics(at) or "NDCG@" in "".join(shown_metrics(at))


def test_settings_to_params_round_trip():
    settings = MetricSettings(gain="custom", gain_table=((0.0, 0.0), (1.0, 2.5)), log_base="e", k=7, zero_idcg="skip")
    params = settings_to_params(settings)
    assert params == {"gain": "custom", "base": "e", "z": "skip", "k": "7", "gt": "0:0,1:2.5"}
    assert parse_gain_table_param(params["gt"]) == settings.gain_table


def test_a_links_gain_table_that_reads_but_is_refused_says_why():
    """/?gain=custom&gt=0:0,1:5,2:3 said the table "could not be read": it was read, and ndcg_core refuses gains
    that fall as grades rise. The warning gives that reason; an unreadable table still says it could not be read."""
    at = run_page(None, query_params={"gain": "custom", "gt": "0:0,1:5,2:3", "docs": "D1:2,D2:1"})
    assert [w.value for w in at.warning] == [
        "The link's gain table was refused, so the default table is used: In the gain table a higher grade gets a "
        "smaller gain. Gains must not decrease as grades go up, otherwise the 'ideal' order (grades sorted from high "
        "to low) would not be the best one."]
    unreadable = run_page(None, query_params={"gain": "custom", "gt": "0:0,1:x", "k": "0"})
    assert [w.value for w in unreadable.warning] == [
        "The link's cutoff k, gain table could not be read, so the default was used."]
