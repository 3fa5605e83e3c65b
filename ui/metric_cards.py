"""The CG, DCG, IDCG and NDCG cards, with the change since the figures shown before.

Every number comes from an ``ndcg_core.ListResult`` (or the figures kept from an earlier one); this only formats it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import streamlit as st

import ndcg_core
from ui.formatting import fixed, signed

METRICS = (
    ("cg", "CG", "Cumulative gain: the sum of the gains of the counted positions. Order does not matter."),
    ("dcg", "DCG", "Discounted cumulative gain: each gain divided by log_b(rank + 1), summed."),
    ("idcg", "IDCG", "Ideal DCG: the DCG of the best possible order of all judged documents."),
    ("ndcg", "NDCG", "Normalised DCG = DCG / IDCG, between 0 and 1 (1 = ideal order)."),
)

def _metric_values(source) -> dict[str, float] | None:
    if source is None:
        return None
    if isinstance(source, Mapping):
        return {name: float(source[name]) for name, _, _ in METRICS if name in source}
    return {name: float(getattr(source, name)) for name, _, _ in METRICS}


# In the ``previous`` figures given to metric_cards: True when they were computed under other settings (another k,
# gain or log base), a different measure of the ranking rather than a worse or better ranking.
OTHER_SETTINGS = "other_settings"

LONG_CARD_VALUE = 7  # characters: "14.0000" fits a quarter of the page; "1.0715e+301" is drawn smaller


def metric_cards(result: ndcg_core.ListResult, previous=None, *, reserve_delta: bool = False,
                 key: str = "cards") -> None:
    """CG@k, DCG@k, IDCG@k and NDCG@k cards; ``previous`` (a ListResult or dict) gives the deltas.

    Figures from other settings (``previous[OTHER_SETTINGS]``) are shown as "was 0.9508" in grey: a new k or gain
    measures the same ranking differently, and a red arrow would say the ranking got worse.

    ``reserve_delta``: every card always has a delta line ("±0" in grey when nothing changed), so the first
    change does not make the cards taller and shift what is below them (the list under the pointer).
    ``key``: unique on the page. Cards with a value longer than :data:`LONG_CARD_VALUE` characters are keyed
    ``long-<key>``, which ui/app_style.py draws in a smaller font, so "1.0715e+301" is not cut to "1.0715…".
    """
    suffix = "" if result.k is None else f"@{result.k}"
    before = _metric_values(previous)
    other_settings = isinstance(previous, Mapping) and bool(previous.get(OTHER_SETTINGS))
    longest = max(len(fixed(float(getattr(result, name)))) for name, _, _ in METRICS)
    # One horizontal container of bordered metrics looks like bordered columns and is one block instead of five
    # (each block is a message to the browser; ~1 ms less per rerun of the Playground).
    with st.container(horizontal=True, key=f"long-{key}" if longest > LONG_CARD_VALUE else key):
        for name, label, help_text in METRICS:
            value = float(getattr(result, name))
            delta, neutral = _delta(value, None if before is None else before.get(name), other_settings=other_settings)
            unchanged = delta is None and reserve_delta
            neutral = neutral or unchanged
            st.metric(
                f"{label}{suffix}", fixed(value), delta="±0" if unchanged else delta,
                delta_color="off" if neutral else "normal", delta_arrow="off" if neutral else "auto",
                help=help_text, border=True,
                width="stretch", height="stretch",  # equal heights whether or not a card has a delta
            )


def _delta(value: float, before: float | None, *, other_settings: bool) -> tuple[str | None, bool]:
    """A card's delta text (None: no change to show) and whether it is neutral (grey, no arrow)."""
    if before is None:
        return None, False
    if math.isnan(value) != math.isnan(before):
        # to or from "n/a" (IDCG = 0 under "skip"): no difference to show, so what it was ("±0" said nothing had
        # changed when NDCG went from 1.0000 to n/a)
        return f"was {fixed(before)}", True
    if math.isnan(value) or abs(value - before) < 5e-5:
        return None, False
    if other_settings:  # NDCG@3 against the whole list's NDCG: a different measure, not a worse ranking
        return f"was {fixed(before)}", True
    return signed(value - before), False
