r"""Gain functions: how a relevance grade becomes a gain.

* ``"linear"``: :math:`g(rel) = rel` (Järvelin and Kekäläinen, 2002; scikit-learn's
  ``ndcg_score``, trec_eval's ``ndcg_cut``, ranx's ``ndcg``, torchmetrics; the
  documents 001 and 003).
* ``"exponential"``: :math:`g(rel) = 2^{rel} - 1` (Burges et al., 2005; LightGBM,
  XGBoost, ranx's ``ndcg_burges``; the documents 000, 002 and 004). It rewards a
  grade-3 document far more than a grade-2 one (7 versus 3).
* a mapping grade -> gain: a custom gain table (trec_eval gain levels,
  LightGBM ``label_gain``, the ``customGain`` list of 000_0bdd5abdb117b00b.txt).
  Every grade used must appear in the table.

For 0/1 grades the linear and exponential gains coincide (2^1 - 1 = 1).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ._validation import GAIN_NAMES, InvalidInput, as_grades

GainSpec = str | Mapping[float, float]


def check_gain(gain: object) -> GainSpec:
    """Validate a gain specification and return it (tables as a plain dict float -> float).

    A table's grades and gains must be finite, non-negative numbers, and a
    higher grade must not get a smaller gain (so sorting grades gives the ideal).
    """
    if isinstance(gain, str):
        if gain not in GAIN_NAMES:
            raise InvalidInput(f"Unknown gain {gain!r}. Choose 'linear', 'exponential' or a table grade -> gain.")
        return gain
    if isinstance(gain, Mapping):
        if not gain:
            raise InvalidInput("The gain table is empty: give at least one grade -> gain pair.")
        grades = as_grades(list(gain.keys()), what="gain table grades")
        gains = as_grades(list(gain.values()), what="gain table gains")
        table = dict(zip(grades.tolist(), gains.tolist(), strict=True))
        ordered = [table[grade] for grade in sorted(table)]
        if any(higher < lower for lower, higher in zip(ordered, ordered[1:], strict=False)):
            raise InvalidInput(
                "In the gain table a higher grade gets a smaller gain. Gains must not decrease as grades go up, "
                "otherwise the 'ideal' order (grades sorted from high to low) would not be the best one."
            )
        return table
    raise InvalidInput(f"gain must be 'linear', 'exponential' or a mapping grade -> gain, got {type(gain).__name__}.")


def check_grades(grades, *, gain: GainSpec) -> np.ndarray:
    """Validate grades for the given gain; return them as a float array.

    The app's one grade check: refuses what :func:`ndcg_core.evaluate` would
    refuse for these grades under *this* gain (not a default one): a grade
    that is not a finite, non-negative number, a grade whose exponential gain
    2^grade - 1 overflows, a grade missing from a gain table. Raises
    :class:`InvalidInput` naming the grade and the gain.

    >>> check_grades([0, 3, 1100], gain="linear").tolist()
    [0.0, 3.0, 1100.0]
    >>> check_grades([0, 3, 1100], gain="exponential")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ndcg_core._validation.InvalidInput: Grade 1100 is too large for exponential gain: ...
    """
    values = as_grades(grades)
    gain_values(values, check_gain(gain))
    return values


def gains_of(grades, gain: GainSpec) -> np.ndarray:
    """Map grades to gains: ``grades`` itself, ``2**grades - 1`` or a table lookup.

    The public form: ``grades`` (any list of finite, non-negative numbers) and
    ``gain`` are checked first, so a wrong type raises :class:`InvalidInput`
    naming it (``gains_of(None, "linear")`` raised a bare AttributeError).
    Also raises it when an exponential gain overflows or a grade is missing
    from a gain table.

    >>> gains_of([0, 1, 3], "exponential").tolist()
    [0.0, 1.0, 7.0]
    """
    return gain_values(as_grades(grades), check_gain(gain))


def gain_values(grades: np.ndarray, gain: GainSpec) -> np.ndarray:
    """The kernel of :func:`gains_of`, without its checks (the engine's hot paths call it on checked arrays).

    ``grades`` must come from validation (finite, non-negative floats) and
    ``gain`` from :func:`check_gain`. Raises :class:`InvalidInput` when an
    exponential gain overflows or a grade is missing from a gain table.
    """
    if gain == "linear":
        return grades.astype(float, copy=True)
    if gain == "exponential":
        with np.errstate(over="ignore"):
            powers = np.exp2(grades)
        too_big = ~np.isfinite(powers)
        if too_big.any():
            worst = float(grades[too_big].max())
            raise InvalidInput(
                f"Grade {worst:g} is too large for exponential gain: 2^{worst:g} - 1 overflows "
                "(a computer number stops at about 2^1024). Use linear gain or smaller grades (0-4 is usual)."
            )
        return powers - 1.0
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
