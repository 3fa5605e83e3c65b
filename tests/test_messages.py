"""ui/messages.py rewrites phrases of ndcg_core's refusals into the sidebar's words: each phrase it maps must still
be in the refusal ndcg_core gives, or the rewrite (and reason_only) silently stops working."""

from __future__ import annotations

import pandas as pd
import pytest

import ndcg_core
from ui import messages


def _refusal(call) -> str:
    with pytest.raises(ndcg_core.InvalidInput) as refused:
        call()
    return str(refused.value)


REFUSALS = {
    "zero IDCG, one list": lambda: ndcg_core.evaluate([0, 0], zero_idcg="error"),
    "zero IDCG, a run": lambda: ndcg_core.evaluate_run(
        pd.DataFrame({"query": ["q"], "doc": ["d"], "score": [1.0]}),
        pd.DataFrame({"query": ["q"], "doc": ["d"], "relevance": [0.0]}), zero_idcg="error"),
    "exponential overflow": lambda: ndcg_core.evaluate([2000.0, 1.0]),
    "sum overflow": lambda: ndcg_core.evaluate([1023, 1023, 1023]),
}


def test_every_core_phrase_the_app_rewrites_is_in_a_refusal_ndcg_core_gives():
    texts = {name: _refusal(call) for name, call in REFUSALS.items()}
    for core, words in messages.REWRITES:
        assert any(core in text for text in texts.values()), core
        assert all(core not in messages.user_message(text) for text in texts.values()), words


def test_reason_only_keeps_the_reason_and_drops_the_advice_to_pick_another_rule():
    text = _refusal(REFUSALS["zero IDCG, one list"])
    assert messages.reason_only(text) == ("IDCG is 0 (no judged document has a positive gain), so NDCG = DCG / IDCG is "
                                          "undefined (0/0).")
    run_text = _refusal(REFUSALS["zero IDCG, a run"])
    assert messages.reason_only(run_text).endswith("so NDCG is undefined (0/0).")


def test_the_right_to_left_ids_a_refusal_quotes_are_set_apart_and_nothing_else():
    """ndcg_core quotes ids with Python's repr; a right-to-left id is set apart inside its quotes (a first-strong
    isolate), so a list of them keeps its order on screen. Left-to-right names, apostrophes and the sidebar's own
    words are left as they were (a test's "'high' is not a number" still matches)."""
    from ui.messages import user_message

    core = ("IDCG is 0 for queries 'سؤال-120', 'x', \"o'שלום\": no judged document has a positive gain, so NDCG is "
            "undefined (0/0). Choose another zero_idcg rule ('zero', 'one' or 'skip').")
    shown = user_message(core)
    assert shown.startswith("IDCG is 0 for queries '\u2068سؤال-120\u2069', 'x', \"\u2068o'שלום\u2069\": no judged")
    assert shown.count("\u2068") == shown.count("\u2069") == 2
    assert "sidebar (“0 (scikit-learn, trec_eval)”" in shown  # the rewrite still applies
    assert user_message("the battery's cases: the relevance 'high' is not a number") == \
        "the battery's cases: the relevance 'high' is not a number"
    # a name's own direction controls are left out of its isolate (repr escapes them, but a message may not be repr)
    assert user_message("query 'د\u202e1'") == "query '\u2068د1\u2069'"
