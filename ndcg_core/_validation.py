"""Input checks shared by every public function.

Validation is kept apart from the maths (as scikit-learn does) so that every
refused input raises :class:`InvalidInput` with a message a student can act on,
and the kernels can assume clean, finite, non-negative float arrays.

What is refused, and why:

* non-numbers (text, ``None``, ``True``/``False``, nested lists): a grade is a number;
  ``True`` is refused rather than silently read as 1.
* NaN (a missing grade) and infinity: no meaningful DCG.
* negative grades: with a negative gain, DCG can be larger than the "ideal"
  DCG, or negative, so NDCG leaves [0, 1] (scikit-learn refuses them too).
* a cutoff ``k`` that is not a positive whole number, a log base that is not a
  finite number above 1, and unknown option names.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

GAIN_NAMES = ("linear", "exponential")
ZERO_IDCG_RULES = ("zero", "one", "skip", "error")
DISCOUNT_RULES = ("log", "jk")
AGGREGATES = ("mean", "ratio_of_sums")
MISSING_RULES = ("ignore", "zero")

LARGEST_K = 2**62  # beyond any list's length, and within numpy's int64 with room for k + 1
_GRADE_HINT = "Grades must be numbers such as 0, 1, 2 or 3."


class InvalidInput(ValueError):
    """An input that ndcg_core refuses, with a message that names the problem."""


def as_grades(values: object, *, what: str = "grades") -> np.ndarray:
    """Return ``values`` as a 1-D float array of finite, non-negative grades.

    Accepts a list, tuple, numpy array, pandas Series or any other iterable of
    real numbers. Raises :class:`InvalidInput` naming the first bad position.
    """
    numbers_array = _as_number_array(
        values, what=what, hint=_GRADE_HINT, nan_hint="Every document needs a grade; use 0 for 'not relevant'."
    )
    negative = numbers_array < 0
    if negative.any():
        position = int(np.flatnonzero(negative)[0])
        raise InvalidInput(
            f"{what}: position {position + 1} is negative ({numbers_array[position]:g}). Negative grades make "
            "NDCG unbounded (it can exceed 1 or drop below 0), so they are refused, as scikit-learn does. "
            "Use 0 for 'not relevant'."
        )
    return numbers_array


def as_finite_numbers(values: object, *, what: str) -> np.ndarray:
    """Return ``values`` as a 1-D float array of finite numbers (any sign), e.g. model scores."""
    return _as_number_array(
        values, what=what, hint="Give one number per document.", nan_hint="Every document needs a number."
    )


def _as_number_array(values: object, *, what: str, hint: str, nan_hint: str) -> np.ndarray:
    """Convert to a 1-D float array; refuse anything that is not a finite real number."""
    if values is None or isinstance(values, (str, bytes, Mapping)):
        shown = "nothing (None)" if values is None else f"{type(values).__name__} {values!r}"[:80]
        raise InvalidInput(f"{what} must be a list of numbers, got {shown}.")
    if isinstance(values, (set, frozenset)):
        raise InvalidInput(f"{what} must be an ordered list of numbers, got a set (a set has no order).")
    if hasattr(values, "to_numpy"):  # pandas Series / Index: keep its dtype for the fast path
        values = values.to_numpy()
    if isinstance(values, np.ndarray):
        array = values
    else:
        try:
            items = list(values)  # type: ignore[call-overload]
        except TypeError:
            raise InvalidInput(f"{what} must be a list of numbers, got {type(values).__name__} {values!r}.") from None
        for position, value in enumerate(items, start=1):
            _check_real(value, position=position, what=what, hint=hint)
        try:
            array = np.asarray(items, dtype=float)
        except OverflowError:
            raise InvalidInput(f"{what}: a number is too large to compute with (beyond about 1e308).") from None
    if array.ndim > 1:
        raise InvalidInput(
            f"{what} must be one flat list of numbers (one ranking), got a table of shape {array.shape}. "
            "Evaluate one list at a time, or use evaluate_run for many queries."
        )
    array = array.reshape(-1)
    if array.dtype == bool:
        raise InvalidInput(f"{what} are True/False values, not numbers. {hint}")
    if not np.issubdtype(array.dtype, np.number) or np.issubdtype(array.dtype, np.complexfloating):
        # object arrays and the like: check each value so the message can name it
        for position, value in enumerate(array.tolist(), start=1):
            _check_real(value, position=position, what=what, hint=hint)
    floats = np.asarray(array, dtype=float)
    bad = ~np.isfinite(floats)
    if bad.any():
        position = int(np.flatnonzero(bad)[0])
        if np.isnan(floats[position]):
            raise InvalidInput(f"{what}: position {position + 1} is NaN (missing). {nan_hint}")
        raise InvalidInput(f"{what}: position {position + 1} is infinite (or beyond about 1e308). {hint}")
    return floats


def _check_real(value: object, *, position: int, what: str, hint: str) -> None:
    """Refuse one value that is not a real number (bools, text, None, lists...)."""
    where = f"{what}: position {position}"
    if isinstance(value, (bool, np.bool_)):
        raise InvalidInput(f"{where} is {value!r}, a True/False value, not a number. {hint}")
    if value is None or value is pd.NA:
        raise InvalidInput(f"{where} is {value!s} (missing), which is not a number. {hint}")
    if not isinstance(value, (numbers.Real, np.number)) or isinstance(value, np.complexfloating):
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        kind = "text" if isinstance(value, str) else type(value).__name__
        raise InvalidInput(f"{where} is {shown} ({kind}), which is not a number. {hint}")
    try:
        float(value)
    except OverflowError:
        raise InvalidInput(f"{where} is too large to compute with (beyond about 1e308).") from None


def check_k(k: object) -> int | None:
    """Return a validated cutoff: ``None`` (whole list) or a positive whole number.

    A float with a whole value (``5.0``, e.g. from a numeric widget) is read as
    that integer; ``True``/``False``, text, fractions, 0 and negatives are refused.
    """
    if k is None:
        return None
    rule = "k must be a positive whole number (1, 2, 3, ...) or None for the whole list"
    if isinstance(k, (bool, np.bool_)):
        raise InvalidInput(f"{rule}, got {k!r} (a True/False value).")
    if isinstance(k, str):
        raise InvalidInput(f"{rule}, got the text {k!r}: pass the number itself, e.g. k=3.")
    if isinstance(k, (numbers.Integral, np.integer)):
        value = int(k)
    elif isinstance(k, (numbers.Real, np.floating)) and np.isfinite(float(k)) and float(k).is_integer():
        value = int(float(k))
    else:
        raise InvalidInput(f"{rule}, got {k!r}: the cutoff counts documents, so it cannot be a fraction.")
    if value < 1:
        raise InvalidInput(f"{rule}, got {value}: a cutoff of {value} would count no document at all.")
    if value > LARGEST_K:
        # numpy's integers stop at 2**63 - 1: a larger cutoff (10**400) overflowed inside the maths
        raise InvalidInput(f"{rule}, got a cutoff of {len(str(value))} digits: no list is that long; "
                           "use k=None for the whole list.")
    return value


def check_log_base(log_base: object) -> float:
    """Return a validated logarithm base (a finite number greater than 1)."""
    if isinstance(log_base, (bool, np.bool_)) or not isinstance(log_base, (numbers.Real, np.number)):
        raise InvalidInput(f"log_base must be a number greater than 1 (2, e or 10 are usual), got {log_base!r}.")
    base = float_or_infinity(log_base)
    if not np.isfinite(base) or base <= 1:
        raise InvalidInput(
            f"log_base must be a finite number greater than 1 (2, e or 10 are usual), got {base:g}: "
            "with a base of 1 or less the discount log_b(i + 1) would be zero, negative or undefined."
        )
    return base


def check_choice(value: object, choices: Iterable[str], *, name: str) -> str:
    """Return ``value`` if it is one of ``choices``; otherwise raise InvalidInput."""
    options = tuple(choices)
    if not isinstance(value, str) or value not in options:
        listed = ", ".join(repr(c) for c in options)
        raise InvalidInput(f"Unknown {name} {value!r}. Choose one of: {listed}.")
    return value


def check_discount(discount: object) -> str:
    """Return a validated discount name: ``"log"`` (log_b(i + 1)) or ``"jk"`` (Järvelin–Kekäläinen 2002)."""
    if not isinstance(discount, str) or discount not in DISCOUNT_RULES:
        raise InvalidInput(
            f"Unknown discount {discount!r}. Choose 'log' (divide the gain at rank i by log_b(i + 1), the usual "
            "NDCG) or 'jk' (Järvelin and Kekäläinen 2002: no discount before rank b, then log_b(i))."
        )
    return discount


def float_or_infinity(value: numbers.Real) -> float:
    """``float(value)``, with an int beyond float's range (10**400) read as ±inf instead of raising OverflowError,
    so the finiteness checks that follow refuse it with their own message."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def check_flag(value: object, *, name: str) -> bool:
    """Return a validated True/False option.

    Only ``True``/``False`` (or numpy's) are read: ``bool(np.array([1, 2]))`` raised numpy's own ValueError,
    and ``bool("no")`` is True, so text or a list would have silently switched the option on.
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise InvalidInput(f"{name} must be True or False, got {_shown(value)}.")


def check_tolerance(value: object, *, name: str = "tolerance") -> float:
    """Return a validated tolerance: a finite number, 0 or more (how far apart two figures may be and still tie)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.number)) \
            or isinstance(value, np.complexfloating):
        raise InvalidInput(f"{name} must be a number, 0 or more (e.g. 1e-9), got {_shown(value)}.")
    number = float_or_infinity(value)
    if not math.isfinite(number) or number < 0:
        raise InvalidInput(f"{name} must be a finite number, 0 or more (e.g. 1e-9), got {_shown(value)}.")
    return number


def check_labels(values: object, n: int, *, what: str, noun: str) -> np.ndarray | list | None:
    """Return ``values`` as ``n`` labels (ids, tie groups): a 1-D array as given, else a list; None when none given.

    A number, text or set in place of the list raised a bare TypeError (``'int' object is not iterable``), or
    was read letter by letter; a list inside the list could not be compared. An array of numbers or text is
    not looked at item by item (a million tie-group labels cost nothing more to check).
    """
    if values is None:
        return None
    if not _is_list(values):
        raise InvalidInput(f"{what} must be a list of {noun}s, one per document, got {_shown(values)}.")
    plain = isinstance(values, np.ndarray) and values.dtype.kind in "biufUS"  # numbers or text, nothing nested
    labels = values if plain else list(values)
    if len(labels) != n:
        raise InvalidInput(f"Got {n} grades but {len(labels)} {noun}s: give one {noun} per document.")
    if not plain:
        for value in labels:
            _check_label(value, what=what, noun=noun)
    return labels


def check_doc_ids(doc_ids: object, n: int) -> list[str] | None:
    """Return ``doc_ids`` as ``n`` texts (ids are compared as text, as trec_eval does), or None.

    One pass: a text id is taken as it is, anything else checked (:func:`check_labels`' rules) and written as text.
    """
    if doc_ids is None:
        return None
    if not _is_list(doc_ids):
        raise InvalidInput(f"doc_ids must be a list of document ids, one per document, got {_shown(doc_ids)}.")
    names = [value if type(value) is str else str(value) if type(value) in _PLAIN_LABELS else _label_text(value)
             for value in doc_ids]
    if len(names) != n:
        raise InvalidInput(f"Got {n} grades but {len(names)} document ids: give one document id per document.")
    return names


_PLAIN_LABELS = frozenset({int, float, np.int64, np.int32, np.float64, np.str_})  # written as text as they are


def _label_text(value: object) -> str:
    _check_label(value, what="doc_ids", noun="document id")
    return str(value)


def _check_label(value: object, *, what: str, noun: str) -> None:
    """Refuse a label that is not a text or a number (None, a list, a dict...)."""
    if value is None or not isinstance(value, (str, numbers.Number)):
        raise InvalidInput(f"{what}: every {noun} must be a text or a number, got {_shown(value)}.")


def check_list_of_lists(values: object, *, what: str) -> list:
    """Return ``values`` (one list per query) as a list; refuse a number, text, mapping or set in its place."""
    return check_sequence(values, what=what, of="one list of grades per query")


def check_sequence(values: object, *, what: str, of: str) -> list:
    """Return ``values`` as a list; refuse a number, text, mapping or set in its place (``of`` says what it holds).

    ``list(5)`` raised a bare TypeError and ``list("401")`` read a query id letter by letter.
    """
    if not _is_list(values):
        raise InvalidInput(f"{what} must be a list with {of}, got {_shown(values)}.")
    return list(values)


def _is_list(values: object) -> bool:
    """Whether ``values`` can be read as one list of items: not a number, text, bytes, mapping or set (``list(5)``
    raised a bare TypeError, ``list("401")`` read an id letter by letter), nor a numpy array of another shape."""
    if isinstance(values, (str, bytes, Mapping, set, frozenset)) or not isinstance(values, Iterable):
        return False
    return not isinstance(values, np.ndarray) or values.ndim == 1


def _shown(value: object) -> str:
    """``value`` as a short text for a message: its type and at most 40 characters of its repr."""
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 40 else text[:37] + '...'}"
