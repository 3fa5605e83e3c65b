"""Input checks shared by every public function.

Validation is kept apart from the maths (as scikit-learn does) so that every
refused input raises :class:`InvalidInput` with a message a student can act on,
and the kernels can assume clean, finite, non-negative float arrays.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable

import numpy as np

GAIN_NAMES = ("linear", "exponential")
ZERO_IDCG_RULES = ("zero", "one", "skip", "error")
LIST_TIE_RULES = ("average", "optimistic", "pessimistic", "stable")
RUN_TIE_RULES = (*LIST_TIE_RULES, "trec_eval")
AGGREGATES = ("mean", "ratio_of_sums")
MISSING_RULES = ("ignore", "zero")


class InvalidInput(ValueError):
    """An input that ndcg_core refuses, with a message that names the problem."""


def as_grades(values: object, *, what: str = "grades") -> np.ndarray:
    """Return ``values`` as a 1-D float array of finite, non-negative grades."""
    if isinstance(values, (str, bytes)):
        raise InvalidInput(f"{what} must be a list of numbers, not text ({values!r}).")
    try:
        raw = list(values) if not isinstance(values, np.ndarray) else values.ravel().tolist()
    except TypeError:
        raise InvalidInput(f"{what} must be a list of numbers, got {type(values).__name__}.") from None
    for position, value in enumerate(raw, start=1):
        _check_number(value, position=position, what=what)
    grades = np.asarray(raw, dtype=float).reshape(-1)
    return grades


def _check_number(value: object, *, position: int, what: str) -> None:
    where = f"{what}: position {position}"
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, np.number)):
        raise InvalidInput(f"{where} is {value!r}, which is not a number. Grades must be numbers such as 0, 1, 2 or 3.")
    number = float(value)
    if np.isnan(number):
        raise InvalidInput(f"{where} is NaN (missing). Every document needs a grade; use 0 for 'not relevant'.")
    if np.isinf(number):
        raise InvalidInput(f"{where} is infinite. Grades must be finite numbers.")
    if number < 0:
        raise InvalidInput(
            f"{where} is negative ({number:g}). Negative grades make NDCG unbounded "
            "(it can exceed 1 or drop below 0), so they are refused, as scikit-learn does."
        )


def check_k(k: object) -> int | None:
    """Return a validated cutoff: ``None`` or a positive integer."""
    if k is None:
        return None
    if isinstance(k, bool) or not isinstance(k, (numbers.Integral, np.integer)):
        if isinstance(k, (numbers.Real, np.floating)) and float(k).is_integer() and float(k) >= 1:
            return int(k)
        raise InvalidInput(f"k must be a positive whole number (1, 2, 3, ...) or None for the whole list, got {k!r}.")
    if int(k) < 1:
        raise InvalidInput(f"k must be a positive whole number (1, 2, 3, ...), got {int(k)}.")
    return int(k)


def check_log_base(log_base: object) -> float:
    """Return a validated logarithm base (a finite number greater than 1)."""
    if isinstance(log_base, bool) or not isinstance(log_base, (numbers.Real, np.number)):
        raise InvalidInput(f"log_base must be a number greater than 1, got {log_base!r}.")
    base = float(log_base)
    if not np.isfinite(base) or base <= 1:
        raise InvalidInput(
            f"log_base must be a finite number greater than 1 (2, e or 10 are usual), got {base:g}: "
            "log base 1 or less would make the discount zero or negative."
        )
    return base


def check_choice(value: object, choices: Iterable[str], *, name: str) -> str:
    """Return ``value`` if it is one of ``choices``; otherwise raise InvalidInput."""
    options = tuple(choices)
    if not isinstance(value, str) or value not in options:
        listed = ", ".join(repr(c) for c in options)
        raise InvalidInput(f"Unknown {name} {value!r}. Choose one of: {listed}.")
    return value
