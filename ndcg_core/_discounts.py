"""Position discounts: the gain at rank i is divided by log_b(i + 1)."""

from __future__ import annotations

import math

import numpy as np

from ._validation import InvalidInput, check_log_base

# Exact numpy logarithms for the usual bases, so figures agree to the last bit
# with code that calls np.log2 (scikit-learn, the documents' notebooks), np.log or np.log10.
_EXACT_LOGS = {2.0: np.log2, math.e: np.log, 10.0: np.log10}


def discounts(n: int, log_base: float = 2.0) -> np.ndarray:
    r"""Return the discounts :math:`\log_b(i + 1)` for ranks :math:`i = 1, \dots, n`.

    Rank 1 gets :math:`\log_b 2`, which is 1 for base 2. Changing the base
    multiplies every discount by the same constant
    (:math:`\log_b x = \ln x / \ln b`), so DCG changes with the base but
    NDCG = DCG / IDCG does not.

    Raises :class:`InvalidInput` if ``n`` is not a whole number >= 0 or
    ``log_base`` is not a finite number greater than 1.
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise InvalidInput(f"n (the number of positions) must be a whole number 0 or more, got {n!r}.")
    log_base = check_log_base(log_base)
    positions_plus_one = np.arange(2, n + 2, dtype=float)
    exact = _EXACT_LOGS.get(float(log_base))
    if exact is not None:
        return exact(positions_plus_one)
    return np.log(positions_plus_one) / np.log(log_base)
