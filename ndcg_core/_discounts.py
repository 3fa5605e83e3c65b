r"""Position discounts: what the gain at rank i is divided by. The one definition of both discounts.

* ``"log"`` (every library): :math:`d_i = \log_b(i + 1)`, so rank 1 gets
  :math:`\log_b 2` (1 for b = 2). Changing b multiplies every discount by the
  same constant (:math:`\log_b x = \ln x / \ln b`): DCG changes, NDCG does not.
* ``"jk"`` (Järvelin and Kekäläinen, "Cumulated gain-based evaluation of IR
  techniques", ACM TOIS 20(4), 2002, section 2.2): :math:`DCG[i] = CG[i]` for
  :math:`i < b` and :math:`DCG[i] = DCG[i-1] + G[i] / \log_b i` for
  :math:`i \ge b`, i.e. :math:`d_i = 1` for :math:`i < b` and
  :math:`d_i = \log_b i` from rank b on (:math:`d_b = 1`). The ranks before b
  are not discounted at all, so b is not a mere scale here: NDCG depends on it
  (b = 2 in the paper's examples; a larger b models a more patient user).

Both are non-decreasing in i (the weights :math:`1/d_i` never increase), which
the tie band's rearrangement argument needs.
"""

from __future__ import annotations

import math

import numpy as np

from ._validation import LARGEST_K, InvalidInput, check_discount, check_log_base

# Exact numpy logarithms for the usual bases, so figures agree to the last bit
# with code that calls np.log2 (scikit-learn, the documents' notebooks), np.log or np.log10.
_EXACT_LOGS = {2.0: np.log2, math.e: np.log, 10.0: np.log10}


def discounts(n: int, log_base: float = 2.0, *, discount: str = "log") -> np.ndarray:
    r"""Return the discounts :math:`d_i` for ranks :math:`i = 1, \dots, n` (DCG adds :math:`g_i / d_i`).

    ``discount="log"``: :math:`d_i = \log_b(i + 1)`; ``discount="jk"``:
    :math:`d_i = 1` for :math:`i < b`, :math:`\log_b i` for :math:`i \ge b`
    (see the module docstring), with b = ``log_base``.

    Raises :class:`InvalidInput` if ``n`` is not a whole number >= 0,
    ``log_base`` is not a finite number greater than 1, or ``discount`` is
    not ``"log"`` or ``"jk"``.

    >>> discounts(3).tolist(), discounts(4, discount="jk").tolist()[:3]
    ([1.0, 1.584962500721156, 2.0], [1.0, 1.0, 1.584962500721156])
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise InvalidInput(f"n (the number of positions) must be a whole number 0 or more, got {n!r}.")
    if n > LARGEST_K:  # numpy refused it with its own ValueError ("Maximum allowed size exceeded")
        raise InvalidInput(f"n (the number of positions) is {len(str(int(n)))} digits long: no list is that long.")
    log_base = check_log_base(log_base)
    discount = check_discount(discount)
    ranks = np.arange(1, n + 1, dtype=float)
    if discount == "log":
        return _log(ranks + 1, log_base)
    late = ranks >= log_base
    values = np.ones(n)
    values[late] = _log(ranks[late], log_base)
    return values


def _log(values: np.ndarray, base: float) -> np.ndarray:
    exact = _EXACT_LOGS.get(float(base))
    return exact(values) if exact is not None else np.log(values) / np.log(base)
