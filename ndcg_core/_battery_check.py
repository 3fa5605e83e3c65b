"""Check an implementation against the battery: which preset it matches, and the bug each mismatch fits.

:func:`check_implementation` takes a user's outputs (one NDCG per battery
case), finds the preset that agrees on the most cases, and for every case
where it disagrees asks :func:`diagnose` which fewest changes to that preset
reproduce the user's number; each change is named as a known bug pattern
(``BUG_PATTERNS``): off-by-one discount, ideal from the ranking only, gain
mismatch, ties broken by input order, IDCG = 0 handling, truncation of the
ideal at k, and the rest of the search space.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ._battery import BATTERY, TRUNCATING, expected_ndcg, library_grades
from ._conventions import CONVENTIONS
from ._diagnose import diagnose
from ._validation import InvalidInput, check_tolerance, float_or_infinity

_UNEXPLAINED = 9  # more changes than the search space has dimensions
_NOT_TRUNCATED = "fractional grades kept (trec_eval and ranx read 1.5 as 1)"

BUG_PATTERNS = {
    ("discount", "log2_shifted"): "off-by-one discount (log2(rank + 2))",
    ("discount", "log2"): "discount log2(rank + 1) (not Järvelin–Kekäläinen's: rank 2 discounted)",
    ("discount", "jk_b2"): "first two ranks undiscounted (Järvelin–Kekäläinen, b = 2)",
    ("discount", "jk_b10"): "first nine ranks undiscounted (Järvelin–Kekäläinen, b = 10)",
    ("ideal", "ranking"): "ideal from the ranking only (judged documents it missed left out)",
    ("ideal", "all_judged"): "ideal from every judgment (the library sees the ranking only)",
    ("gain", "linear"): "gain mismatch (the grade itself used as the gain)",
    ("gain", "exponential"): "gain mismatch (2^grade − 1 used as the gain)",
    ("gain", "pow2"): "gain mismatch (2^grade, the −1 forgotten)",
    ("ties", "stable"): "ties broken by input order",
    ("ties", "average"): "ties averaged",
    ("ties", "trec_eval"): "ties broken by document id, Z to A",
    ("ties", "optimistic"): "ties broken with the better grades first",
    ("ties", "pessimistic"): "ties broken with the worse grades first",
    ("zero_idcg", "zero"): "IDCG = 0 handling (0 for no relevant document)",
    ("zero_idcg", "one"): "IDCG = 0 handling (1 for no relevant document)",
    ("zero_idcg", "skip"): "IDCG = 0 handling (no value)",
    ("ideal_depth", "uncut"): "truncation of the ideal at k (the ideal not cut at k)",
    ("ideal_depth", "ranking_length"): "truncation of the ideal at k (cut at the ranking's length)",
    ("ideal_depth", "cutoff"): "truncation of the ideal at k (cut at k)",
    ("precision", "float32"): "scores rounded to float32",
    ("precision", "double"): "scores kept in double precision",
}


@dataclass(frozen=True)
class Mismatch:
    """One battery case where the outputs differ from the chosen preset.

    ``case``: the battery case's key; ``yours``: the output given (NaN: no value); ``expected``: the preset's figure;
    ``fits``: the explanations with the fewest changes, each a tuple of bug pattern names (empty: none fits).
    """

    case: str
    yours: float
    expected: float | None
    fits: tuple[tuple[str, ...], ...]  # each: the bug patterns of one explanation (fewest changes first)


@dataclass(frozen=True)
class ImplementationCheck:
    """Agreement with every preset and the diagnosis of each mismatch with the best one.

    ``preset``: the key (in :data:`CONVENTIONS`) of the preset the outputs are closest to (fewest changes, then most
    cases agreeing); ``agreement``: preset -> (cases agreeing, cases compared; a case the library refuses is not
    compared); ``mismatches``: the cases where the outputs differ from ``preset``; ``summary``: the verdict in words.
    """

    preset: str
    agreement: dict[str, tuple[int, int]]  # preset -> (cases agreeing, cases compared)
    mismatches: tuple[Mismatch, ...]
    summary: str


def pattern_name(dimension: str, value: object) -> str:
    """The bug pattern a departure to ``value`` in ``dimension`` stands for."""
    if dimension == "k":
        return "a different cutoff" if value != "whole" else "the cutoff ignored"
    return BUG_PATTERNS.get((dimension, value), f"{dimension}: {value}")


def check_implementation(outputs: Mapping[str, float], *, tolerance: float = 5e-5) -> ImplementationCheck:
    """Which preset ``outputs`` (battery case -> NDCG, NaN or None for no value) match, and what each mismatch
    fits."""
    cases = {vector.key: vector for vector in BATTERY}
    outputs = _numbers_by_case(outputs)
    tolerance = check_tolerance(tolerance)
    if not outputs:
        raise InvalidInput("Give your output for at least one battery case (one line 'case,ndcg' per case).")
    unknown = sorted(set(outputs) - set(cases))
    if unknown:
        raise InvalidInput(f"Unknown battery case {unknown[0][:40]!r}.")
    agreement, cost = {}, dict.fromkeys(CONVENTIONS, 0)
    for key in CONVENTIONS:
        compared = agreed = 0
        for case, value in outputs.items():
            expected = expected_ndcg(key, cases[case])
            if expected is None:
                continue
            compared += 1
            agreed += _agrees(value, expected, tolerance)
        agreement[key] = (agreed, compared)
    for case, value in outputs.items():
        # the fewest changes to each preset that reproduce this output (an unexplained case costs the most)
        readings = {reading: _finding(cases[case], value, tolerance, reading=reading, baseline=None)
                    for reading in ("as_given", "truncated")}
        for key in CONVENTIONS:
            if expected_ndcg(key, cases[case]) is None:
                # the library refuses this case: a number given for it is one change (accepting what it refuses),
                # and that number must still be reproduced from the library's rules, read either way. A flat 1
                # made an output no convention explains (a negative grade's negative gain) cost 9 against every
                # library that computes the case and 1 against those that refuse it, so they won (_refused_cost).
                cost[key] += 0 if math.isnan(value) else _refused_cost(readings, key)
                continue
            steps = _steps(readings["truncated" if key in TRUNCATING else "as_given"], key)
            if key in TRUNCATING:  # or the implementation kept the grades the library truncates: one more change
                steps = min(steps, 1 + _steps(readings["as_given"], key))
            cost[key] += steps
    # the preset the outputs are closest to: fewest changes in all, then most cases agreeing
    best = min(CONVENTIONS, key=lambda key: (cost[key], -agreement[key][0], list(CONVENTIONS).index(key)))
    mismatches = []
    for case, value in outputs.items():
        expected = expected_ndcg(best, cases[case])
        if expected is None or _agrees(value, expected, tolerance):
            continue
        reading = "truncated" if best in TRUNCATING else "as_given"
        fits = _fits(_finding(cases[case], value, tolerance, reading=reading, baseline=best))
        if not fits and reading == "truncated":
            # the implementation kept the fractional (or negative) grades that the library reads otherwise
            raw = _finding(cases[case], value, tolerance, reading="as_given", baseline=best)
            if raw is not None and raw.matches:
                fits = tuple((_NOT_TRUNCATED, *fit) for fit in (_fits(raw) or ((),)))
        mismatches.append(Mismatch(case=case, yours=value, expected=expected, fits=fits))
    # Presets the outputs cannot tell from the chosen one: as few changes and the same cases agreeing.
    alike = [key for key in CONVENTIONS if key != best and (cost[key], agreement[key]) == (cost[best], agreement[best])]
    # numbers given for cases the library refuses (fractional grades in XGBoost) are not in "n of m": say which
    refused = [case for case, value in outputs.items()
               if expected_ndcg(best, cases[case]) is None and not math.isnan(value)]
    return ImplementationCheck(preset=best, agreement=agreement, mismatches=tuple(mismatches),
                               summary=_summary(best, agreement[best], mismatches, alike) + _refused_note(best, refused))


def _numbers_by_case(outputs: object) -> dict[str, float]:
    """The outputs as case -> float, None read as NaN ("no value", as :func:`read_outputs` reads JSON's null, so
    ``check_implementation(json.load(file))`` works); anything else that is not a number is refused, naming its case
    (the comparisons below raised TypeError on it)."""
    if not isinstance(outputs, Mapping):
        raise InvalidInput("Give the outputs as a mapping case -> NDCG (one NDCG per battery case), e.g. "
                           "{'plain': 0.9608}; read_outputs reads them from CSV or JSON text.")
    numbers = {}
    for case, value in outputs.items():
        if not isinstance(case, str):  # a case is named by text ('plain'); an int key failed later with TypeError
            raise InvalidInput(f"The case {case!r} is not a case name: name each case by its text, e.g. 'plain'.")
        if value is None:
            numbers[case] = math.nan
        elif isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_)):
            numbers[case] = float_or_infinity(value)
        else:
            shown = f"{value!r}, text" if isinstance(value, str) else repr(value)[:40]
            raise InvalidInput(f"The output for {str(case)[:40]!r} ({shown}) is not a number: give each case's NDCG "
                               "as a number, or None / NaN for no value.")
    return numbers


def _finding(vector, value: float, tolerance: float, *, reading: str, baseline: str | None):
    """diagnose() of one battery case and one output, with the grades as given or as trec_eval and ranx read
    them; None when the input is outside ndcg_core's domain (negative grades)."""
    grades, extra = library_grades("trec_eval" if reading == "truncated" else "sklearn", vector)
    try:
        return diagnose(grades, list(vector.scores), reported={"yours": value},
                        ideal_relevances=np.r_[grades, extra], k=vector.k,
                        doc_ids=list(vector.doc_ids), tolerance=tolerance, baseline=baseline,
                        library_refusals=False).findings[0]  # kept grades are measured as one more change
    except InvalidInput:
        return None


def _agrees(value: float, expected: float, tolerance: float) -> bool:
    """Within tolerance, or both "no value" (NaN)."""
    if math.isnan(value) or math.isnan(expected):
        return math.isnan(value) and math.isnan(expected)
    return abs(value - expected) <= tolerance


def _steps(finding, key: str) -> int:
    """Fewest changes to preset ``key`` that reproduce the finding's number."""
    if finding is None or not finding.matches:
        return _UNEXPLAINED
    return min(match.distances.get(key, _UNEXPLAINED) for match in finding.matches)


def _refused_cost(readings: Mapping[str, object], key: str) -> int:
    """Changes to preset ``key``, whose library refuses the case, that give the output: one to accept the case,
    then the fewest that reproduce the number with the grades as given or as trec_eval reads them (the library
    has no reading of its own for what it refuses). An output nothing explains thus costs every preset alike."""
    return 1 + min(_steps(readings["as_given"], key), _steps(readings["truncated"], key))


def _fits(finding) -> tuple[tuple[str, ...], ...]:
    """The explanations with the fewest changes from the baseline preset, as bug pattern names."""
    changed = [match for match in finding.matches if match.departures] if finding else []
    if not changed:
        return ()
    fewest = min(len(match.departures) for match in changed)
    explanations = []
    for match in changed:
        if len(match.departures) == fewest:
            names = tuple(pattern_name(name, value) for name, _, value in match.departures)
            if names not in explanations:
                explanations.append(names)
    return tuple(explanations)


def _listing(words: list[str], last: str = "and") -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {last} " + words[-1]


def _separating_cases(key: str, other: str, tolerance: float = 5e-5) -> list[str]:
    """The battery cases on which two presets' figures differ (one of them refusing the case counts)."""
    cases = []
    for vector in BATTERY:
        a, b = expected_ndcg(key, vector), expected_ndcg(other, vector)
        if (a is None) != (b is None) or a is not None and not _agrees(a, b, tolerance):
            cases.append(vector.key)
    return cases


def _refused_note(best: str, refused: list[str]) -> str:
    """The cases an output was given for that the best preset's library refuses (not counted in its agreement)."""
    if not refused:
        return ""
    it = "it" if len(refused) == 1 else "them"
    return (f" Not compared: {', '.join(refused)} ({CONVENTIONS[best].label} refuses {it}, so it has no figure to "
            "compare yours with).")


def _summary(best: str, agreement: tuple[int, int], mismatches: list[Mismatch], alike: list[str]) -> str:
    agreed, compared = agreement
    label = CONVENTIONS[best].label
    if not mismatches:
        cases = "the 1 case" if compared == 1 else f"all {compared} cases"
        return f"Your outputs match {label} on {cases} it computes." + _alike_note(best, alike)
    text = f"Your outputs match {label} on {agreed} of {compared} cases."
    counts = Counter(pattern for mismatch in mismatches for fit in mismatch.fits[:1] for pattern in fit)
    if counts:
        common = ", ".join(f"{name} ({count} case{'s' if count > 1 else ''})" for name, count in counts.most_common(3))
        text += f" The differences fit: {common}."
    unexplained = sum(1 for mismatch in mismatches if not mismatch.fits)
    if unexplained:
        text += f" {unexplained} case{'s' if unexplained > 1 else ''} fit{'' if unexplained > 1 else 's'} no known pattern."
    if alike:
        text += f" {_listing([CONVENTIONS[key].label for key in alike])} {'fit' if len(alike) > 1 else 'fits'} your " \
                "outputs as closely."
    return text


def _alike_note(best: str, alike: list[str]) -> str:
    """Outputs that match ``best`` on every case given: which other presets they match too, and whether the battery
    has cases that would tell them apart."""
    separable = {key: _separating_cases(best, key) for key in alike}
    told = [key for key in alike if separable[key]]
    text = ""
    if told:
        cases = sorted({case for key in told for case in separable[key]}, key=[v.key for v in BATTERY].index)
        text += (f" {_listing([CONVENTIONS[key].label for key in told])} {'agree' if len(told) > 1 else 'agrees'} on "
                 f"the cases given; your output{'s' if len(cases) > 1 else ''} for {_listing(cases)} would tell "
                 f"{'them' if len(told) > 1 else 'it'} apart.")
    same = [key for key in alike if not separable[key]]
    if same:
        text += (f" {_listing([CONVENTIONS[key].label for key in same])} "
                 f"{'give' if len(same) > 1 else 'gives'} the same figure on every case of the battery.")
    return text
