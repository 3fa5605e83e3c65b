"""How numbers, formulas and conventions are written on every page: the one place for display formats.

Pure functions (no Streamlit): each takes a value or a setting and returns text.

Numbers
    * :func:`fixed`: a figure to a fixed number of decimals (metric cards, verdicts, "why" lines).
    * :func:`signed`: the same with an explicit sign, for differences and deltas.
    * :func:`num`: whole numbers without decimals, others to ``digits`` places (prose and the step-by-step
      formulas, where a grade of 3 reads better than 3.000).
    * :func:`compact`: up to four significant digits, for grades and the terms of a long formula.
    * :func:`percent`: a share as a whole percentage (confidence levels).
    * :func:`grouped`: a count with thousands separators (``12,345`` queries); :func:`megabytes` a file size.

    ``None`` and NaN (an NDCG left out by the zero-IDCG rule "skip") print as a word, never as "nan";
    a value that rounds to zero never prints as "-0.00".

LaTeX
    :func:`log_latex` (the discount's logarithm), :func:`gain_latex` (one grade's gain with the numbers in),
    :func:`gain_term_latex` (a grade's gain as a formula term) and :func:`gain_formula_latex` (the gain of a
    symbolic grade such as ``rel_i``).

Convention words
    :func:`gain_words`, :func:`discount_words`, :func:`preset_discount_words`, :func:`cutoff_words`: the same phrases on every page.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

MISSING = "n/a"  # a figure that does not exist (NaN, None)

# Gain conventions: the words used in captions and cards, and the LaTeX of a symbolic grade's gain.
GAIN_WORDS = {
    "exponential": "exponential gain 2^grade − 1",
    "linear": "linear gain: gain = grade",
    "custom": "the custom gain table",
}
GAIN_FORMULAS = {"exponential": "2^grade − 1", "linear": "gain = grade"}
LOG_LATEX = {"2": r"\log_2", "e": r"\ln", "10": r"\log_{10}"}
LOG_WORDS = {"2": "log₂", "e": "ln", "10": "log₁₀"}  # the sidebar's log bases, as prose writes them


def _missing(value: float | None) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


LARGE = 1e15  # from here on a figure is written in scientific notation (float64 keeps ~16 significant digits)


def fixed(value: float | None, digits: int = 4, *, missing: str = MISSING) -> str:
    """``value`` with ``digits`` decimals: ``fixed(0.88131, 3) == "0.881"``; ``missing`` for None/NaN; from
    ``LARGE`` on, ``digits`` decimals of scientific notation (``fixed(2.0**1000) == "1.0715e+301"``).

    A value that rounds to zero prints unsigned (``fixed(-1e-9, 2) == "0.00"``): "-0.00" reads as a loss.
    """
    if _missing(value):
        return missing
    if abs(float(value)) >= LARGE:  # past 2^53 decimals mean nothing, and 2^1000 − 1 would print 302 digits
        return f"{float(value):.{digits}e}"
    text = f"{float(value):.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def signed(value: float | None, digits: int = 4, *, missing: str = MISSING) -> str:
    """``value`` with an explicit sign and ``digits`` decimals: ``signed(0.04, 3) == "+0.040"``; from ``LARGE`` on,
    scientific notation as :func:`fixed` writes the value beside it (``signed(2.0**100) == "+1.2677e+30"``: a card's
    change of 2^100 printed 36 characters under its "1.2677e+30", cut off at the card's edge)."""
    if _missing(value):
        return missing
    if abs(float(value)) >= LARGE:
        return f"{float(value):+.{digits}e}"
    return f"{float(value):+.{digits}f}"


def signed_change(value: float | None, digits: int = 3, *, missing: str = MISSING) -> str:
    """:func:`signed`, with as many more places (up to 6) as it takes for a change that is not 0 not to read as 0:
    ``signed_change(-0.0002) == "-0.0002"``, where three places wrote a slide's mean change as "-0.000 vs runA.txt".
    A change that rounds to 0 even at 6 places prints unsigned, as :func:`fixed` does."""
    if _missing(value):
        return missing
    for places in range(digits, 7):
        text = signed(value, places)
        if float(text) != 0:
            return text
    return fixed(value, digits)


def num(value: float | None, digits: int = 3, *, missing: str = "undefined") -> str:
    """A figure for prose: whole numbers without decimals (``num(3.0) == "3"``), others to ``digits`` places."""
    if _missing(value):
        return missing
    if float(value).is_integer() and abs(float(value)) < LARGE:
        return f"{int(value)}"
    return fixed(value, digits)


def apart(first: float, second: float, digits: int = 3) -> tuple[str, str]:
    """Two different figures written with as many places as it takes to tell them apart (``digits`` to 6):
    ``apart(0.88269, 0.88306) == ("0.8827", "0.8831")``, where three places wrote 0.883 twice. The places are
    compared as fixed decimals: 1 and 0.99996 are "1" and "0.99996", not "1" and "1.000" (apart as text only)."""
    for places in range(digits, 7):
        if fixed(first, places) != fixed(second, places):
            return num(first, places), num(second, places)
    return num(first, 6), num(second, 6)


def compact(value: float) -> str:
    """Short: ``3`` for a whole number, else four significant digits (``compact(2.5237) == "2.524"``).

    For grades and the terms of a long formula.
    """
    return f"{value:g}" if float(value).is_integer() else f"{value:.4g}"


def short(value: float | None, digits: int = 3, *, missing: str = "…") -> str:
    """A figure for a narrow column: ``digits`` decimals below 10^5 (``short(1.26186) == "1.262"``), else
    ``digits + 1`` significant digits in scientific notation (``short(6172839450.75) == "6.173e+09"``), so it
    never needs more than ~9 characters; ``missing`` for None/NaN."""
    if _missing(value):
        return missing
    if abs(round(float(value), digits)) < 1e5:
        return fixed(value, digits)
    places = digits
    while places > 0 and len(f"{float(value):.{places}e}") > 9:  # "1.00e+301": fewer digits, not a longer column
        places -= 1
    return f"{float(value):.{places}e}"


# The tie rules (ndcg_core.TIE_RULES) as every page's pickers name them: short enough for a third of a laptop's
# width, with the libraries that rank that way.
TIE_RULE_LABELS = {
    "trec_eval": "Doc id, Z to A (trec_eval)",
    "average": "Average of the tie (scikit-learn)",
    "stable": "Input order (LightGBM, XGBoost)",  # not ranx: its unstable sort can order a tie otherwise
    "optimistic": "Better grades first (best case)",
    "pessimistic": "Worse grades first (worst case)",
}


def count(number: int, singular: str, plural: str) -> str:
    """'1 query has' / '3 queries have'."""
    return f"{number} {singular if number == 1 else plural}"


def percent(value: float) -> str:
    """A share as a whole percentage: ``percent(0.95) == "95%"``."""
    return f"{value:.0%}"


def grouped(count: int) -> str:
    """A count with thousands separators: ``grouped(1234567) == "1,234,567"``; from 10^15 on, its size in words
    (``"about 6.6 × 10^279"``): the number of orders of 96 tied groups has 280 digits and filled three lines."""
    count = int(count)
    if abs(count) < 10**15:
        return f"{count:,}"
    exponent = len(str(abs(count))) - 1
    mantissa = abs(count) / 10**exponent if exponent < 300 else int(str(abs(count))[:3]) / 100
    return f"about {'-' if count < 0 else ''}{mantissa:.1f} × 10^{exponent}"


def megabytes(size: int, digits: int = 1) -> str:
    """A size in bytes as megabytes (MiB): ``megabytes(3 * 1024 * 1024) == "3.0 MB"``."""
    return f"{fixed(size / 1024 / 1024, digits)} MB"


# --- LaTeX ---------------------------------------------------------------------------------------------------

def log_latex(log_base: str) -> str:
    r"""LaTeX for the discount's logarithm: ``\log_2``, ``\ln`` or ``\log_{10}`` (``\log`` for anything else)."""
    return LOG_LATEX.get(log_base, r"\log")


def gain_latex(grade: float, gain_value: float, gain: str) -> str:
    """How ``grade`` became ``gain_value`` under ``gain`` ("exponential", "linear" or "custom"), numbers in."""
    if gain == "exponential":
        return rf"2^{{{num(grade)}}} - 1 = {num(gain_value)}"
    if gain == "linear":
        return rf"\text{{grade}} = {num(grade)}"
    return rf"\text{{table}}({num(grade)}) = {num(gain_value)}"


def gain_term_latex(grade: float, gain: str, gain_table: Mapping[float, float] | None = None) -> str:
    """A grade's gain as the numerator of a formula term: ``2^{3}-1``, ``3``, or the table's value."""
    if gain == "exponential":
        return f"2^{{{compact(grade)}}}-1"
    if gain == "linear":
        return compact(grade)
    table = dict(gain_table or {})
    return compact(table[grade]) if grade in table else rf"g({compact(grade)})"


def gain_formula_latex(gain: str, grade: str = "rel_i") -> str:
    """The gain of a symbolic grade: ``2^{rel_i}-1``, ``rel_i`` or ``g(rel_i)``."""
    return {"exponential": f"2^{{{grade}}}-1", "linear": grade}.get(gain, f"g({grade})")


# --- convention words -----------------------------------------------------------------------------------------

def gain_words(gain: str | Mapping[float, float]) -> str:
    """'exponential gain 2^grade − 1', 'linear gain: gain = grade', or the custom table's pairs in words."""
    if isinstance(gain, Mapping):
        return "custom gain table " + ", ".join(f"{num(g)}→{num(v)}" for g, v in sorted(gain.items()))
    return GAIN_WORDS.get(gain, str(gain))


def discount_words(log_base: str, at: object = "i") -> str:
    """'log₂(i + 1)', 'ln(i + 1)' or 'log₁₀(i + 1)'; at a position: ``discount_words("e", 2) == "ln(2 + 1)"``."""
    return f"{LOG_WORDS[log_base]}({at} + 1)"


def preset_discount_words(discount: str, log_base: float, *, short: bool = False) -> str:
    """A preset's discount (``Convention.discount``, ``log_base``): 'log2(rank + 1)' for every library (its base
    leaves NDCG unchanged), 'none before rank 2, log2(rank) after' for Järvelin–Kekäläinen 2002; ``short``: the
    name with its b, as a tie-band row says it."""
    if discount == "log":
        return "log2(rank + 1)"
    b = f"{log_base:g}"
    if short:
        return f"Järvelin–Kekäläinen discount (b = {b})"
    return f"none before rank {b}, log{b}(rank) after" if b in ("2", "10") else f"none before rank b = {b}, log_b(rank)"


def cutoff_words(k: int | None) -> str:
    """'whole list' or 'k = 5'."""
    return "whole list" if k is None else f"k = {k}"
