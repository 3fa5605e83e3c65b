"""What a reported NDCG number says: its value, the precision it is printed with, and the presets its label names.

Used by :func:`ndcg_core.diagnose`: "0.99" (text) stands for anything that rounds to it, 0.99 (a float) for itself;
a label such as "scikit-learn" or "XGBoost ndcg@2-" names the presets whose figure the number should be.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

import numpy as np

from ._conventions import CONVENTIONS
from ._validation import InvalidInput

_ALIASES = {"sklearn": ("sklearn", "scikit"), "trec_eval": ("trec_eval", "trec-eval", "treceval", "pytrec"),
            "ranx_ndcg": ("ranx",), "ranx_ndcg_burges": ("ranx",), "lightgbm": ("lightgbm", "lgbm", "lgb"),
            "xgboost": ("xgboost", "xgb"), "xgboost_minus": ("xgboost", "xgb"), "torchmetrics": ("torchmetrics",),
            "ir_measures": ("ir_measures", "ir-measures", "ir measures"), "trec_gdeval": ("gdeval",),
            "es_rank_eval": ("elasticsearch", "opensearch", "rank_eval", "elastic"),
            "keras_rs": ("keras", "tf-ranking", "tfr", "tensorflow ranking", "tensorflow_ranking"),
            "quepid": ("quepid",),
            "jarvelin_kekalainen_2002": ("järvelin", "jarvelin", "kekäläinen", "kekalainen", "jk 2002", "jk2002")}


# XGBoost's own metric names: "ndcg-" and "ndcg@10-" (the trailing minus: 0 for a query with no relevant document).
_XGBOOST_MINUS_METRIC = re.compile(r"ndcg(?:@\s*(?:\d+|k))?\s*-(?![\w@])")


def named_presets(label: str) -> tuple[str, ...]:
    """Presets a label names: by key ("ranx_ndcg_burges", the longest key wins), else by library alias.

    An XGBoost label written with XGBoost's metric name ("XGBoost ndcg@2-") names ``xgboost_minus``.
    """
    text = label.lower().replace("-", "_").replace(" ", "_")  # "ranx ndcg-burges" names ranx_ndcg_burges
    keys = [key for key in CONVENTIONS if key in text]
    keys = [key for key in keys if not any(key != other and key in other for other in keys)]
    text = label.lower()
    if _XGBOOST_MINUS_METRIC.search(text) and (keys == ["xgboost"] or not keys and "xgboost" in _by_alias(text)):
        return ("xgboost_minus",)
    if keys:
        return tuple(keys)
    return _by_alias(text)


# A measure named with no cutoff ("ndcg" alone) or with one ("ndcg_cut", "ndcg_cut.10", "ndcg@10").
_WHOLE_LIST_MEASURE = re.compile(r"(?<![\w@])ndcg(?![\w@.-])")
_CUT_MEASURE = re.compile(r"ndcg(?:_cut|\s*@|\.\d)")


def measure_cutoff(label: str) -> str | None:
    """What a label says of the cutoff of the measure it names: ``"whole"`` ("trec_eval ndcg"), ``"cut"``
    ("trec_eval ndcg_cut.10", "ndcg@10") or None (no measure named: "pytrec_eval", "by hand").

    It matters for libraries that have both measures under their own names (trec_eval's ``ndcg`` and
    ``ndcg_cut``: :attr:`Convention.whole_list_label`).

    >>> measure_cutoff("pytrec_eval ndcg"), measure_cutoff("pytrec_eval ndcg_cut.3"), measure_cutoff("pytrec_eval")
    ('whole', 'cut', None)
    """
    text = label.lower()
    if _CUT_MEASURE.search(text):
        return "cut"
    return "whole" if _WHOLE_LIST_MEASURE.search(text) else None


# The cutoff a measure's name states: "ndcg@3", "NDCG@10", "ndcg_cut.10", "ndcg_cut_10", "ndcg_burges@5", "ndcg@2-",
# or a call's argument: "ndcg_score(k=5)", "top_k = 10".
_STATED_CUTOFF = re.compile(r"ndcg(?:[_-]cut|[_-]burges)?(?:\s*@\s*|[._])(\d{1,6})(?!\d)|(?<![a-z])(?:top_)?k\s*=\s*(\d{1,6})(?!\d)")


def stated_cutoff(label: str) -> int | None:
    """The cutoff a label's measure name states (LightGBM logs "ndcg@3", trec_eval "ndcg_cut_10"), or None.

    >>> stated_cutoff("LightGBM ndcg@3"), stated_cutoff("pytrec_eval ndcg_cut_10"), stated_cutoff("trec_eval ndcg")
    (3, 10, None)
    >>> stated_cutoff("ndcg_score(k=5)"), stated_cutoff("torchmetrics top_k=10"), stated_cutoff("rank=3")
    (5, 10, None)
    """
    found = _STATED_CUTOFF.search(label.lower())
    value = None if found is None else int(found.group(1) or found.group(2))
    return value if value else None


def _by_alias(text: str) -> tuple[str, ...]:
    return tuple(key for key, words in _ALIASES.items() if any(word in text for word in words))


@dataclass(frozen=True)
class Reported:
    label: str
    value: float
    printed: str = ""  # as given, when given as text

    def tolerance(self, least: float) -> float:
        """Half a unit of the printed number's last digit (0.659 stands for 0.6585..0.6595), or ``least``.

        NDCG's bounds printed with at most one decimal ("0", "1", "1.0", as Python prints the floats 0.0 and 1.0)
        are exact: no library prints 0.4307 as "0", and reading "0" as 0 to 0.5 confirmed a scikit-learn "0"
        that scikit-learn never prints (its figure was 0.4307).
        """
        if not self.printed or math.isnan(self.value):
            return least
        exponent = Decimal(self.printed).as_tuple().exponent
        if self.value in (0.0, 1.0) and exponent >= -1:
            return least
        return max(least, 0.5 * 10.0 ** exponent + 1e-12)  # 1e-12: 0.6585 itself, whatever its binary rounding


def _number(position: int, value) -> tuple[float, str]:
    """A reported value as a float and, when given as text, the text (for its printed precision)."""
    if isinstance(value, str):
        text = value.strip().lower()
        if text in ("nan", "no value", "none", "skipped"):
            return math.nan, ""
        try:
            number = Decimal(text)
        except InvalidOperation:
            raise InvalidInput(f"Reported number {position} is {value[:20]!r}, not a number.") from None
        if not number.is_finite() or not math.isfinite(float(number)):
            raise InvalidInput(f"Reported number {position} is {value[:20]!r}, not a finite number.")
        return float(number), text
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number)):
        raise InvalidInput(f"Reported number {position} is {value!r}, not a number.")
    try:
        return float(value), ""
    except OverflowError:  # an int beyond float's range (10**400): an NDCG lies between 0 and 1
        raise InvalidInput(f"Reported number {position} is too large to be an NDCG (they lie between 0 and 1).") \
            from None


def reported_numbers(reported) -> list[Reported]:
    """Normalise ``reported`` to (label, value) pairs; refuse anything that is not a number in [0, 1] or NaN."""
    if isinstance(reported, Mapping):
        pairs = list(reported.items())
    elif isinstance(reported, (int, float, np.number, str)) and not isinstance(reported, bool):
        pairs = [("", reported)]
    else:
        try:
            items = list(reported)
        except TypeError:
            raise InvalidInput(f"reported must be a number, a list of numbers or a mapping, got {reported!r}.") from None
        pairs = [tuple(item) if isinstance(item, (tuple, list)) else ("", item) for item in items]
    if not pairs:
        raise InvalidInput("Give at least one reported NDCG number.")
    checked = []
    for position, pair in enumerate(pairs, start=1):
        if len(pair) != 2:
            raise InvalidInput(f"Reported number {position}: give (label, number) pairs.")
        label, given = pair
        value, printed = _number(position, given)
        if not math.isnan(value) and not (-1e-9 <= value <= 1 + 1e-9):
            raise InvalidInput(f"Reported number {position} is {value:g}; NDCG lies between 0 and 1.")
        checked.append(Reported(str(label).strip() or f"Number {position}", value, printed))
    return checked


def rounding_note(value: float, tolerance: float, least_tolerance: float) -> str:
    if tolerance <= least_tolerance:
        return ""
    digits = max(0, round(-math.log10(2 * tolerance)))
    return (f" Read as a rounded figure: every calculation from "
            f"{value - tolerance:.{digits + 1}f} to {value + tolerance:.{digits + 1}f} counts.")


def shown_value(value: float) -> str:
    return "no value" if math.isnan(value) else f"{value:.4f}"
