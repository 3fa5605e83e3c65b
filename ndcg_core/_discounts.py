"""Position discounts: the gain at rank i is divided by log_b(i + 1)."""

from __future__ import annotations

import numpy as np


def discounts(n: int, log_base: float = 2.0) -> np.ndarray:
    """Return ``log_b(i + 1)`` for ranks ``i = 1..n``.

    Rank 1 gets log_b(2), which is 1 for base 2. Changing the base multiplies
    every discount by the same constant, so DCG changes but NDCG does not.
    """
    ranks = np.arange(1, n + 1, dtype=float)
    return np.log(ranks + 1.0) / np.log(log_base)
