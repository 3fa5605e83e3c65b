"""The metric settings every page shares: the typed value, its sidebar labels, and its words for messages.

No Streamlit here: ``ui.settings`` draws the sidebar, ``ui.url_state`` reads and writes them in links.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

GAIN_LABELS = {
    "exponential": "Exponential: 2^grade − 1",
    "linear": "Linear: gain = grade",
    "custom": "Custom table: grade → gain",
}
LOG_BASES = {"2": 2.0, "e": math.e, "10": 10.0}
ZERO_IDCG_LABELS = {
    "zero": "0 (scikit-learn, trec_eval)",
    "one": "1 (LightGBM, XGBoost)",
    "skip": "Skip (left out of averages)",
    "error": "Refuse (show an error)",
}
# The sidebar's widget labels: messages name the settings by these words, never by ndcg_core's argument names.
GAIN_SETTING = "Gain"
LOG_BASE_SETTING = "Log base of the discount"
CUTOFF_SETTING = "Cutoff k (empty = whole list)"
ZERO_IDCG_SETTING = "NDCG when IDCG = 0"
MAX_K = 100_000
DEFAULT_GAIN_TABLE: tuple[tuple[float, float], ...] = ((0.0, 0.0), (1.0, 1.0), (2.0, 3.0), (3.0, 7.0), (4.0, 15.0))


@dataclass(frozen=True)
class MetricSettings:
    """Gain, log base, cutoff and zero-IDCG rule, as chosen in the sidebar."""

    gain: str = "exponential"
    gain_table: tuple[tuple[float, float], ...] = DEFAULT_GAIN_TABLE
    log_base: str = "2"
    k: int | None = None
    zero_idcg: str = "zero"

    def gain_spec(self) -> str | dict[float, float]:
        """The ``gain`` argument for ndcg_core."""
        return dict(self.gain_table) if self.gain == "custom" else self.gain

    def kwargs(self) -> dict:
        """Keyword arguments for ``ndcg_core.evaluate`` and friends."""
        return {"k": self.k, "gain": self.gain_spec(), "log_base": LOG_BASES[self.log_base], "zero_idcg": self.zero_idcg}

    def describe(self) -> str:
        """A one-line summary in the sidebar's words, such as
        'exponential gain · log base 2 · k = 5 · IDCG = 0 → Skip (left out of averages)'."""
        cutoff = "whole list" if self.k is None else f"k = {self.k}"
        zero = ZERO_IDCG_LABELS.get(self.zero_idcg, self.zero_idcg)
        return f"{self.gain} gain · log base {self.log_base} · {cutoff} · IDCG = 0 → {zero}"


def zero_idcg_words(rule: str) -> str:
    """'“NDCG when IDCG = 0” = 0 (scikit-learn, trec_eval)': the sidebar's words for a rule."""
    return f"“{ZERO_IDCG_SETTING}” = {ZERO_IDCG_LABELS.get(rule, rule)}"
