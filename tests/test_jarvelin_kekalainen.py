"""The Järvelin–Kekäläinen 2002 DCG: the ``"jk"`` discount and the ``"jarvelin_kekalainen_2002"`` preset.

K. Järvelin and J. Kekäläinen, "Cumulated gain-based evaluation of IR techniques", ACM TOIS 20(4), 2002:
DCG[i] = CG[i] for i < b, DCG[i] = DCG[i - 1] + G[i] / log_b(i) for i >= b. The paper's example (b = 2):
G' = <3, 2, 3, 0, 0, 1, 2, 2, 3, 0> gives DCG' = <3, 5, 6.89, 6.89, 6.89, 7.28, 7.99, 8.66, 9.61, 9.61>.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ndcg_core
from ndcg_core import CONVENTIONS, InvalidInput, discounts, evaluate, evaluate_run, evaluate_scores
from ndcg_core._search_space import discount_weights, preset_settings

KEY = "jarvelin_kekalainen_2002"
PAPER_GAINS = [3, 2, 3, 0, 0, 1, 2, 2, 3, 0]
PAPER_DCG = [3, 5, 6.89, 6.89, 6.89, 7.28, 7.99, 8.66, 9.61, 9.61]


def paper_dcg(gains, b=2.0) -> list[float]:
    """The paper's recursion, written out: no discount before rank b, then G[i] / log_b(i)."""
    out, total = [], 0.0
    for i, g in enumerate(gains, start=1):
        total += g if i < b else g / (math.log(i) / math.log(b))
        out.append(total)
    return out


def test_the_papers_dcg_vector_as_printed_and_exactly():
    result = evaluate(PAPER_GAINS, gain="linear", discount="jk", log_base=2)
    running = result.table["cumulative_dcg"].to_numpy()
    assert np.round(running, 2).tolist() == PAPER_DCG
    # exactly the recursion: 5 + 3/log2(3) = 6.8928, + 1/log2(6), + 2/log2(7), + 2/log2(8) = 2/3, + 3/log2(9)
    assert running == pytest.approx(paper_dcg(PAPER_GAINS), abs=1e-12)
    assert running[2] == pytest.approx(5 + 3 / math.log2(3), abs=1e-12)
    assert running[8] == pytest.approx(5 + 3 / math.log2(3) + 1 / math.log2(6) + 2 / math.log2(7) + 2 / 3
                                       + 3 / math.log2(9), abs=1e-12)
    assert result.dcg == pytest.approx(9.6051, abs=1e-4)  # 7.2796 + 0.7124 + 0.6667 + 0.9464


def test_the_papers_ideal_vector_and_ndcg():
    # the ideal is the grades sorted descending: 3, 3, 3, 2, 2, 2, 1, 0, 0, 0
    ideal = paper_dcg(sorted(PAPER_GAINS, reverse=True))
    result = CONVENTIONS[KEY].evaluate(PAPER_GAINS)
    assert result.idcg == pytest.approx(ideal[-1], abs=1e-12)
    assert result.ndcg == pytest.approx(paper_dcg(PAPER_GAINS)[-1] / ideal[-1], abs=1e-12)
    assert result.ndcg == pytest.approx(0.8825, abs=1e-4)


def test_discounts_jk_by_hand():
    assert discounts(4, discount="jk").tolist() == [1.0, 1.0, math.log2(3), 2.0]
    # b = 10: ranks 1-9 undiscounted, log10(10) = 1 at rank 10, log10(11) at 11
    tenth = discounts(11, 10, discount="jk")
    assert tenth[:10].tolist() == [1.0] * 10 and tenth[10] == pytest.approx(math.log10(11))
    assert discounts(3).tolist() == [1.0, math.log2(3), 2.0]  # the log discount is unchanged
    assert discount_weights("jk_b2", 5) == pytest.approx(1 / discounts(5, 2, discount="jk"))
    assert discount_weights("log2_shifted", 3) == pytest.approx([1 / math.log2(3), 0.5, 1 / math.log2(5)])


@pytest.mark.parametrize("bad", ["jk_b2", "LOG", "", None, 2])
def test_unknown_discount_is_refused(bad):
    with pytest.raises(InvalidInput, match="Unknown discount"):
        evaluate([1, 0], discount=bad)
    with pytest.raises(InvalidInput, match="Unknown discount"):
        discounts(2, discount=bad)


def test_with_a_large_base_the_log_dcg_can_exceed_the_jk_dcg():
    # b = 10: rank 1 is divided by log10(2) = 0.301 under the log discount, by 1 under JK's
    assert evaluate([1], gain="linear", log_base=10).dcg == pytest.approx(1 / math.log10(2))
    assert evaluate([1], gain="linear", log_base=10, discount="jk").dcg == 1.0


def test_under_jk_ndcg_depends_on_the_base():
    log2 = evaluate([0, 1, 2, 3], gain="linear", log_base=2).ndcg
    assert evaluate([0, 1, 2, 3], gain="linear", log_base=10).ndcg == pytest.approx(log2, abs=1e-15)
    jk2 = evaluate([0, 1, 2, 3], gain="linear", log_base=2, discount="jk").ndcg
    jk10 = evaluate([0, 1, 2, 3], gain="linear", log_base=10, discount="jk").ndcg
    assert jk10 == pytest.approx(1.0)  # 4 documents, all before rank 10: nothing is discounted, DCG = CG
    assert jk2 == pytest.approx((0 + 1 + 2 / math.log2(3) + 3 / 2) / (3 + 2 + 1 / math.log2(3)), abs=1e-12)


def test_preset_is_evaluate_with_the_jk_discount():
    rng = np.random.default_rng(7)
    for _ in range(20):
        n = int(rng.integers(1, 15))
        grades = rng.integers(0, 4, n).astype(float)
        scores = rng.integers(0, 4, n).astype(float)  # ties: input order (stable)
        extra = rng.integers(0, 4, 2).astype(float)
        k = None if rng.random() < 0.3 else int(rng.integers(1, n + 3))
        preset = CONVENTIONS[KEY].evaluate(grades, scores, k=k, ideal_relevances=[*grades, *extra])
        direct = evaluate_scores(grades, scores, ties="stable", gain="linear", discount="jk", log_base=2, k=k,
                                 ideal_relevances=[*grades, *extra])
        assert (preset.dcg, preset.idcg, preset.ndcg) == (direct.dcg, direct.idcg, direct.ndcg)
        order = np.argsort(-scores, kind="stable")
        dcg = paper_dcg(grades[order])[(n if k is None else min(k, n)) - 1]
        assert preset.dcg == pytest.approx(dcg, abs=1e-12)


def test_evaluate_run_with_the_jk_discount_matches_the_list():
    run = pd.DataFrame({"query": "q", "doc": [f"d{i}" for i in range(10)], "score": np.arange(10, 0, -1.0)})
    qrels = pd.DataFrame({"query": "q", "doc": [f"d{i}" for i in range(10)], "relevance": PAPER_GAINS})
    result = evaluate_run(run, qrels, gain="linear", discount="jk")
    assert result.per_query["dcg"].iloc[0] == pytest.approx(paper_dcg(PAPER_GAINS)[-1], abs=1e-12)
    assert result.value == pytest.approx(CONVENTIONS[KEY].evaluate(PAPER_GAINS).ndcg, abs=1e-12)
    curve = ndcg_core.ndcg_curve(run, qrels, ks=[3], gain="linear", discount="jk")
    assert curve["mean_ndcg"].iloc[0] == pytest.approx(evaluate(PAPER_GAINS, k=3, gain="linear", discount="jk").ndcg)


def test_tie_band_under_jk_ranks_one_and_two_are_equal():
    # b = 2: ranks 1 and 2 are both undiscounted, so the order of a tie there does not matter
    band = ndcg_core.tie_band([3, 0, 1], [1.0, 1.0, 0.5], gain="linear", discount="jk")
    assert band.width == 0 and band.tied_groups == 1
    assert ndcg_core.tie_band([3, 0, 1], [1.0, 1.0, 0.5], gain="linear").width > 0


grades_lists = st.lists(st.integers(0, 4).map(float), min_size=1, max_size=25)


@settings(max_examples=200, deadline=None)
@given(grades_lists, st.floats(1.01, 2.0))
def test_jk_dcg_is_at_least_the_log_dcg(grades, base):
    # for b <= 2 every JK discount is at most the log one: 1 <= log_b(2) <= log_b(i + 1) before rank b, and
    # log_b(i) <= log_b(i + 1) after (for b > 2 the log discount of rank 1 is below 1, so it can go either way)
    jk = evaluate(grades, gain="linear", discount="jk", log_base=base)
    log = evaluate(grades, gain="linear", log_base=base)
    assert jk.dcg >= log.dcg - 1e-12 and jk.idcg >= log.idcg - 1e-12


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 4).map(float), st.integers(0, 20))
def test_with_b_2_a_grade_at_rank_one_only_gives_the_log_dcg(top, zeros):
    grades = [top] + [0.0] * zeros
    jk = evaluate(grades, gain="linear", discount="jk", log_base=2)
    log = evaluate(grades, gain="linear", log_base=2)
    assert jk.dcg == log.dcg == top  # both divide rank 1 by 1


def test_diagnose_names_the_preset_on_the_papers_example():
    value = CONVENTIONS[KEY].evaluate(PAPER_GAINS).ndcg
    finding = ndcg_core.diagnose(PAPER_GAINS, reported={"my number": value}).findings[0]
    assert finding.matches[0].presets[0] == KEY
    assert finding.matches[0].setting["discount"] == "jk_b2"
    assert "Järvelin–Kekäläinen 2002 DCG" in finding.summary
    named = ndcg_core.diagnose(PAPER_GAINS, reported={"Jarvelin & Kekalainen": value}).findings[0]
    assert named.named_presets == (KEY,)
    assert preset_settings(KEY, has_k=False)["discount"] == "jk_b2"


def test_battery_lists_the_preset_and_check_implementation_recognises_it():
    expected = ndcg_core.battery_expected()
    ours = {case: values[KEY] for case, values in expected.items() if values[KEY] is not None}
    assert ours["single"] == 1.0 and ours["idcg_zero"] == 0.0
    # off_by_one: grades 2, 3, 0, 1 by descending score; JK b = 2 divides ranks 1 and 2 by 1
    assert ours["off_by_one"] == pytest.approx((2 + 3 + 1 / 2) / (3 + 2 + 1 / math.log2(3)), abs=1e-12)
    check = ndcg_core.check_implementation(ours)
    assert check.preset == KEY and not check.mismatches
    assert check.summary.startswith("Your outputs match Järvelin–Kekäläinen 2002 DCG on all")
    document = json.loads(ndcg_core.battery_json())
    assert document["presets"][KEY]["label"] == "Järvelin–Kekäläinen 2002 DCG"
    assert all(case["expected"][KEY] == pytest.approx(ours[case["case"]]) for case in document["cases"]
               if case["case"] in ours)
    header, *rows = ndcg_core.battery_csv().splitlines()
    column = header.split(",").index(f"expected_{KEY}")
    assert column > 0 and rows


def test_the_log_discount_is_one_change_from_the_preset():
    # the paper's example under the usual log2(rank + 1), everything else as the preset: one departure, named
    value = evaluate(PAPER_GAINS, gain="linear").ndcg
    finding = ndcg_core.diagnose(PAPER_GAINS, reported={"mine": value}, baseline=KEY).findings[0]
    closest = min(finding.matches, key=lambda match: len(match.departures))
    assert closest.departures == (("discount", "jk_b2", "log2"),)
    from ndcg_core._battery_check import pattern_name
    assert "not Järvelin–Kekäläinen" in pattern_name("discount", "log2")
