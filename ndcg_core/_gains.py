"""Gain functions: how a relevance grade becomes a gain.

* ``"linear"``: gain = grade (Järvelin and Kekäläinen; scikit-learn, trec_eval).
* ``"exponential"``: gain = 2**grade - 1 (Burges et al.; LightGBM, XGBoost).
* a mapping grade -> gain: a custom gain table (trec_eval gain levels,
  LightGBM ``label_gain``, the ``customGain`` list of 000_0bdd5abdb117b00b.txt).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ._validation import GAIN_NAMES, InvalidInput, as_grades

GainSpec = str | Mapping[float, float]

# 2**1023 is the largest power of two a float64 holds; beyond it the gain is inf.
_MAX_EXPONENTIAL_GRADE = 1023.0


def check_gain(gain: object) -> GainSpec:
    """Validate a gain specification and return it (tables as a plain dict)."""
    if isinstance(gain, str):
        if gain not in GAIN_NAMES:
            raise InvalidInput(f"Unknown gain {gain!r}. Choose 'linear', 'exponential' or a table grade -> gain.")
        return gain
    if isinstance(gain, Mapping):
        if not gain:
            raise InvalidInput("The gain table is empty: give at least one grade -> gain pair.")
        grades = as_grades(list(gain.keys()), what="gain table grades")
        gains = as_grades(list(gain.values()), what="gain table gains")
        return dict(zip(grades.tolist(), gains.tolist(), strict=True))
    raise InvalidInput(f"gain must be 'linear', 'exponential' or a mapping grade -> gain, got {type(gain).__name__}.")


def gains_of(grades: np.ndarray, gain: GainSpec) -> np.ndarray:
    """Map validated grades to gains under a validated gain specification."""
    if gain == "linear":
        return grades.astype(float, copy=True)
    if gain == "exponential":
        too_big = grades > _MAX_EXPONENTIAL_GRADE
        if too_big.any():
            worst = float(grades[too_big].max())
            raise InvalidInput(
                f"Grade {worst:g} is too large for exponential gain: 2^{worst:g} - 1 overflows. "
                "Use linear gain or smaller grades (0-4 is usual)."
            )
        return np.exp2(grades) - 1.0
    return _table_gains(grades, gain)


def _table_gains(grades: np.ndarray, table: Mapping[float, float]) -> np.ndarray:
    keys = np.array(sorted(table), dtype=float)
    values = np.array([table[key] for key in keys], dtype=float)
    slot = np.clip(np.searchsorted(keys, grades), 0, len(keys) - 1)
    found = keys[slot] == grades
    if not found.all():
        missing = sorted({float(g) for g in grades[~found]})
        shown = ", ".join(f"{g:g}" for g in missing[:5])
        raise InvalidInput(
            f"Grade {shown} is missing from the gain table (it has grades {', '.join(f'{k:g}' for k in keys)}). "
            "Add a gain for every grade used."
        )
    return values[slot]
