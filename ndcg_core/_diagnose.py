r"""From reported NDCG numbers back to the conventions that produce them.

:func:`diagnose` evaluates one query under every combination of the choices
in :mod:`ndcg_core._search_space` (tie rule x score precision x gain x
discount x cutoff x ideal source x ideal depth x IDCG = 0 rule, about 20,000
combinations) and keeps those within ``tolerance`` of each reported number.

How it stays fast (a 100-document list takes a few milliseconds, see
``bench/bench_diagnose.py``):

* Rankings are computed once per tie rule x precision (10 sorts), gains once
  per ranking x gain; nothing is computed per combination in Python.
* DCG at every depth is one cumulative sum per ranking x gain x discount
  (shape 10 x G x 4 x n); a cutoff is then an index into it. IDCG likewise,
  per ideal source x gain x discount. The NDCG of every combination is one
  broadcast division of the two arrays.
* The log base is not searched: NDCG is the same for every base of a pure
  log2(i + 1) discount (log_b x = ln x / ln b cancels in DCG / IDCG), so
  natural log and log10 are covered by the log2 value (the sentences say so).
* Combinations that give bit-identical DCG and IDCG on this query are one
  *calculation* (e.g. every tie rule when no scores tie): each match lists
  which other values of each choice would give the same figures.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from ._conventions import CONVENTIONS
from ._reported import Reported, measure_cutoff, named_presets, reported_numbers, rounding_note, shown_value
from ._search_space import (
    DIMENSIONS,
    WORDS,
    SearchSpace,
    build_space,
    calculation_table,
    describe,
    is_close,
    preset_settings,
)
from ._validation import InvalidInput


@dataclass(frozen=True)
class Match:
    """One calculation that reproduces a reported number.

    ``setting`` maps each dimension to its value (the member of the
    calculation nearest to a preset); ``alternatives`` lists, per dimension,
    every value that gives the same figures when changed alone (all values:
    the choice does not matter here). ``presets`` are the library presets that
    are exactly this calculation; otherwise ``nearest`` is the closest preset
    and ``departures`` the (dimension, preset's value, this value) triples.
    ``distances`` gives, for every preset, the fewest choices to change in it
    to get this calculation.
    """

    setting: dict[str, object]
    ndcg: float
    dcg: float
    idcg: float
    presets: tuple[str, ...]
    nearest: str
    departures: tuple[tuple[str, object, object], ...]
    alternatives: dict[str, tuple]
    sentence: str
    distances: dict[str, int] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class Finding:
    """Every calculation reproducing one reported number, presets first, then fewest departures."""

    label: str
    reported: float
    matches: tuple[Match, ...]
    named_presets: tuple[str, ...]
    summary: str
    preset_values: dict[str, float] = field(repr=False)
    tolerance: float = 5e-5  # how close a calculation came to count as a match
    printed: str = ""  # the number as given, e.g. "0.659"; "" when given as a float


@dataclass(frozen=True)
class Diagnosis:
    """The findings for each reported number and, for two or more, why they differ."""

    findings: tuple[Finding, ...]
    comparison: str
    space: SearchSpace = field(repr=False)

    def table(self, match: Match) -> pd.DataFrame:
        """Position-by-position calculation of ``match`` (see :func:`calculation_table`)."""
        return calculation_table(self.space, match.setting)


# Presets whose order inside score ties cannot be reproduced (ranx sorts with an unstable argsort): a number labelled
# with them is checked against the range over the ties' orders.
UNSTABLE_TIES = frozenset(key for key, convention in CONVENTIONS.items() if convention.unstable_ties)


def diagnose(relevances, scores=None, *, reported, ideal_relevances=None, k=None, tolerance: float = 5e-5,
             doc_ids=None, gain_tables: Mapping[str, Mapping[float, float]] | None = None,
             baseline: str | None = None, library_refusals: bool = True) -> Diagnosis:
    """Find every NDCG convention that reproduces each reported number for one query.

    Parameters
    ----------
    relevances : sequence of non-negative numbers
        Grades, in ranked order when ``scores`` is None, else one per document.
    scores : sequence of numbers, optional
        Model scores (the documents are ranked by descending score; how ties
        are broken is one of the choices searched).
    reported : number, sequence of numbers, mapping label -> number, or sequence of (label, number)
        The NDCG figure(s) obtained, optionally labelled with where they came
        from ("LightGBM", "by hand"); a label naming a library puts its preset
        first, and one naming trec_eval's measure without a cutoff
        ("pytrec_eval ndcg", not "ndcg_cut") reads that preset on the whole
        list whatever ``k`` is. NaN stands for "the library gave no value" (a
        skipped query).
        A number given as text ("0.659") is matched to the precision it is
        printed with when nothing comes within ``tolerance`` of it: anything
        that rounds to it (within half a unit of its last digit, ±0.0005
        here). "0.5" is first taken as exactly 0.5, then as 0.45..0.55.
    ideal_relevances : sequence of non-negative numbers, optional
        Every judged grade of the query (ranked or not), for the "ideal from
        all judged documents" choice. Defaults to ``relevances``.
    k : positive int, optional
        The cutoff used, if any (other cutoffs are searched as departures).
    tolerance : float
        How close a calculation must come to a reported number (absolute);
        the least tolerance for numbers given as text.
    doc_ids : sequence of str, optional
        Document ids, for trec_eval's tie rule (id descending).
    gain_tables : mapping name -> (mapping grade -> gain), optional
        More gain tables to search, e.g. a custom LightGBM ``label_gain``.
    baseline : preset key, optional
        Measure every match's departures from this preset (instead of from
        the nearest one), e.g. to ask "which mistake turns trec_eval's number
        into mine?".
    library_refusals : bool
        Leave out the presets of libraries that refuse these grades or read
        them as others (``Convention.refusal``: fractional grades in trec_eval
        or ranx, one document in scikit-learn): their number cannot be the
        library's on this input, and a reported number labelled with such a
        library says so. ``False`` keeps every preset, to measure how far an
        implementation that kept the grades is from one (the battery check).

    Returns
    -------
    Diagnosis
        One :class:`Finding` per reported number, each with every matching
        calculation (presets first, then fewest departures from a preset),
        and a sentence comparing the numbers' conventions.

    >>> d = diagnose([3, 2, 0, 1], [4, 3, 2, 1], reported={"scikit-learn": 0.9854, "LightGBM": 0.9926})
    >>> d.findings[0].matches[0].presets[:1], d.findings[1].matches[0].presets[:1]
    (('sklearn',), ('lightgbm',))
    """
    numbers = reported_numbers(reported)
    if baseline is not None and baseline not in CONVENTIONS:
        raise InvalidInput(f"Unknown baseline preset {baseline!r}. Choose one of: {', '.join(CONVENTIONS)}.")
    if not (isinstance(tolerance, (int, float)) and math.isfinite(tolerance) and tolerance >= 0):
        raise InvalidInput(f"tolerance must be a number 0 or more, got {tolerance!r}.")
    space = build_space(relevances, scores, ideal_relevances=ideal_relevances, k=k, doc_ids=doc_ids,
                        gain_tables=gain_tables)
    grid = _evaluate_grid(space)
    # A library that refuses these grades (or truncates them to others: trec_eval reads 1.5 as 1) computes none of
    # the numbers searched here: its preset is not offered as the source of a number.
    refusals = {key: reason for key, convention in CONVENTIONS.items()
                if library_refusals and (reason := convention.refusal(relevances, ideal_relevances=ideal_relevances))}
    presets = {key: space.index(preset_settings(key, has_k=k is not None)) for key in CONVENTIONS if key not in refusals}
    # A label naming a library's measure without a cutoff ("pytrec_eval ndcg") reads that preset on the whole list.
    whole_list = {key: space.index(preset_settings(key, has_k=False)) for key in presets
                  if CONVENTIONS[key].whole_list_label}
    baseline = None if baseline in refusals else baseline
    unknown_ids = doc_ids is None and scores is not None  # trec_eval's order of tied scores is then a guess
    findings = tuple(_finding(space, grid, _presets_for(number, presets, whole_list, grid, space, tolerance), number,
                              tolerance, baseline, refusals, unknown_ids=unknown_ids, k=k)
                     for number in numbers)
    return Diagnosis(findings=findings, comparison=_comparison(findings), space=space)


def _presets_for(number: Reported, presets: dict[str, tuple], whole_list: dict[str, tuple], grid: _Grid,
                 space, least_tolerance: float) -> dict[str, tuple]:
    """The grid points of the presets for one reported number, for a library with a measure with a cutoff and one
    without (trec_eval's ``ndcg_cut`` and ``ndcg``): the one its label names, else the one that gives the number
    (the cut one when both or neither do). "pytrec_eval ndcg" is the whole-list measure whatever k the user set,
    unless only the cut one gives the number (``ndcg`` said for the family)."""
    named = named_presets(number.label)
    said = measure_cutoff(number.label)
    tolerance = number.tolerance(least_tolerance)

    def gives(point: tuple) -> bool:
        index = int(np.ravel_multi_index(point, space.shape))
        return bool(grid.valid[index]) and is_close(float(grid.ndcg[index]), number.value, tolerance)

    chosen = dict(presets)
    for key in named:
        if key not in whole_list or key not in presets or whole_list[key] == presets[key] or said == "cut":
            continue
        whole_gives, cut_gives = gives(whole_list[key]), gives(presets[key])
        if whole_gives and not cut_gives or said == "whole" and not (cut_gives and not whole_gives):
            chosen[key] = whole_list[key]
    return chosen


@dataclass(frozen=True)
class _Grid:
    ndcg: np.ndarray  # flat, one entry per combination
    dcg: np.ndarray
    idcg: np.ndarray
    valid: np.ndarray
    group: np.ndarray  # calculation id: equal (DCG, IDCG, zero-rule-if-it-applies)
    coords: np.ndarray  # (combinations, 8) index of each dimension's value


def _evaluate_grid(space: SearchSpace) -> _Grid:
    """NDCG of every combination by broadcasting DCG (rankings) against IDCG (ideal lists)."""
    n = space.grades.size
    width = space.ideal_gains.shape[-1]
    # DCG at every depth: (ties, precision, gain, discount, depth)
    running_dcg = np.cumsum(space.ranked_gains[:, :, :, None, :] * space.weights[None, None, None, :, :n], axis=-1)
    running_idcg = np.cumsum(space.ideal_gains[:, :, None, :] * space.weights[None, None, :, :width], axis=-1)
    cut = [n if c is None else min(c, n) for c in space.cutoffs]
    dcg = running_dcg[..., np.array(cut) - 1]  # (T, P, G, D, K)
    depth = np.array([[width if c is None else c, n if c is None else min(c, n), width] for c in space.cutoffs])
    idcg = running_idcg[..., np.minimum(depth, width) - 1]  # (S, G, D, K, M)
    idcg = np.moveaxis(idcg, 0, 3)  # (G, D, K, S, M)
    shape = space.shape
    dcg_full = np.broadcast_to(dcg[..., None, None, None], shape)
    idcg_full = np.broadcast_to(idcg[None, None, ..., None], shape)
    positive = idcg_full > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(positive, dcg_full / np.where(positive, idcg_full, 1.0), 0.0)
    fill = np.array([0.0, 1.0, np.nan])[None, None, None, None, None, None, None, :]
    ndcg = np.where(positive, ratio, np.broadcast_to(fill, shape)).reshape(-1)
    dcg_flat, idcg_flat = dcg_full.reshape(-1), idcg_full.reshape(-1)
    valid = np.isfinite(dcg_flat) & np.isfinite(idcg_flat)
    zero_rule = np.where(idcg_flat > 0, -1, np.indices(shape)[-1].reshape(-1))
    keys = np.stack([np.where(valid, dcg_flat, -1.0), np.where(valid, idcg_flat, -1.0), zero_rule.astype(float)], 1)
    group = _row_groups(keys)
    coords = np.indices(shape).reshape(len(shape), -1).T
    return _Grid(ndcg=ndcg, dcg=dcg_flat, idcg=idcg_flat, valid=valid, group=group.reshape(-1), coords=coords)


def _row_groups(keys: np.ndarray) -> np.ndarray:
    """For each row of ``keys``, the index of its distinct row in lexicographic order.

    What ``np.unique(keys, axis=0, return_inverse=True)`` returns, by a lexsort of the columns, which is ~10x
    faster on the ~10^5 rows of a grid than the structured-row sort ``np.unique`` does.
    """
    order = np.lexsort(keys.T[::-1])
    ordered = keys[order]
    starts = np.empty(len(keys), dtype=bool)
    starts[:1] = True
    np.any(ordered[1:] != ordered[:-1], axis=1, out=starts[1:])
    group = np.empty(len(keys), dtype=np.intp)
    group[order] = np.cumsum(starts) - 1
    return group


def _close(values: np.ndarray, target: float, tolerance: float) -> np.ndarray:
    if math.isnan(target):
        return np.isnan(values)
    return np.abs(values - target) <= tolerance


def _finding(space, grid: _Grid, presets: dict[str, tuple], number: Reported, least_tolerance: float,
             baseline=None, refusals: dict[str, str] | None = None, *, unknown_ids: bool = False,
             k: int | None = None) -> Finding:
    label, value = number.label, number.value
    named = named_presets(label)
    uncut = [key for key in named if key in presets and k is not None and CONVENTIONS[key].whole_list_label
             and space.setting(presets[key])["k"] == "whole"]
    keys = list(presets)
    flat = {key: int(np.ravel_multi_index(point, space.shape)) for key, point in presets.items()}
    preset_values = {key: float(grid.ndcg[index]) for key, index in flat.items() if grid.valid[index]}
    id_ranges = {key: spread for key in named if key in presets and (unknown_ids or key in UNSTABLE_TIES)
                 and (spread := _tie_order_range(space, grid, presets[key], any_rule=key in UNSTABLE_TIES)) is not None}
    tolerance = _tolerance(number, least_tolerance, grid, [preset_values[key] for key in named if key in preset_values])
    rows = np.flatnonzero(grid.valid & _close(grid.ndcg, value, tolerance))
    preset_coords = np.array([presets[key] for key in keys])
    distance = (grid.coords[rows][:, None, :] != preset_coords[None, :, :]).sum(-1)  # (rows, presets)
    groups = grid.group[rows]
    matches = []
    for group in np.unique(groups):
        members = np.flatnonzero(groups == group)
        best = distance[members].min(axis=0)  # per preset
        exact = tuple(sorted((keys[j] for j in np.flatnonzero(best == 0)), key=lambda key: key not in named))
        order = sorted(range(len(keys)), key=lambda j: (best[j], keys[j] not in named, j))
        chosen = order[0] if baseline is None else keys.index(baseline)
        nearest = keys[chosen]
        row = rows[members[np.argmin(distance[members, chosen])]]
        match = _match(space, grid, row, exact, nearest, presets, named)
        matches.append(replace(match, distances={key: int(best[j]) for j, key in enumerate(keys)}))
    matches.sort(key=lambda m: (not m.presets, not set(m.presets) & set(named), len(m.departures),
                                keys.index(m.nearest)))
    return Finding(label=label, reported=value, matches=tuple(matches), named_presets=named,
                   summary=_summary(label, number.printed or shown_value(value), matches, named, preset_values, value,
                                    refusals or {}, id_ranges, tolerance) + _uncut_note(uncut, k)
                   + rounding_note(value, tolerance, least_tolerance),
                   preset_values=preset_values, tolerance=tolerance, printed=number.printed)


def _uncut_note(keys: list[str], k: int | None) -> str:
    """A label naming a measure without a cutoff was read without the cutoff the user set: say so."""
    if not keys:
        return ""
    measure = CONVENTIONS[keys[0]].label_for(whole_list=True)
    return f" ({measure} has no cutoff, so k = {k} does not apply to it.)"


def _tie_order_range(space, grid: _Grid, point: tuple, *, any_rule: bool = False) -> tuple[float, float] | None:
    """(lowest, highest) NDCG of a preset over every order of its tied scores, when the order matters.

    trec_eval orders tied scores by document id; with no ids given, the preset's figure takes one order (the later
    position first), and the user's ids may give any other: the best and the worst orders bound them. ``any_rule``:
    a preset whose tie order cannot be reproduced at all (ranx's unstable sort), whatever its tie rule says.
    """
    ties = list(space.axes["ties"].values)
    if not any_rule and space.setting(point)["ties"] != "trec_eval":
        return None
    figures = []
    for rule in ("optimistic", "pessimistic"):
        moved = (ties.index(rule), *point[1:])
        index = int(np.ravel_multi_index(moved, space.shape))
        if not grid.valid[index]:
            return None
        figures.append(float(grid.ndcg[index]))
    low, high = min(figures), max(figures)
    return None if high - low <= 1e-12 or math.isnan(low) else (low, high)


def _tolerance(number: Reported, least: float, grid: _Grid, named_values: list[float]) -> float:
    """How close a calculation must come to ``number``: ``least``, or the printed precision of a rounded number.

    A number given as text is read as rounded (whatever rounds to it counts) when nothing gives it within
    ``least``, or when a library its label names gives a figure that rounds to it but is not within ``least``:
    scikit-learn's 0.990067 printed "0.99" is scikit-learn's figure, even if another calculation gives 0.99000.
    """
    printed = number.tolerance(least)
    if printed <= least:
        return least
    strict = np.any(grid.valid & _close(grid.ndcg, number.value, least))
    named_rounds = any(least < abs(figure - number.value) <= printed for figure in named_values)
    return printed if not strict or named_rounds else least


def _match(space, grid: _Grid, row: int, exact, nearest: str, presets: dict[str, tuple], named) -> Match:
    point = tuple(int(i) for i in grid.coords[row])
    setting = space.setting(point)
    alternatives = {}
    for axis, name in enumerate(DIMENSIONS):
        same = []
        for value_index, value in enumerate(space.axes[name].values):
            moved = list(point)
            moved[axis] = value_index
            other = int(np.ravel_multi_index(moved, space.shape))
            if grid.valid[other] and grid.group[other] == grid.group[row]:
                same.append(value)
        alternatives[name] = tuple(same)
    preset_setting = space.setting(presets[nearest])
    departures = tuple((name, preset_setting[name], setting[name]) for name in DIMENSIONS
                       if setting[name] != preset_setting[name])
    exact_settings = [space.setting(presets[key]) for key in exact]
    sentence = _sentence(space, setting, alternatives, exact, nearest, departures, exact_settings)
    return Match(setting=setting, ndcg=float(grid.ndcg[row]), dcg=float(grid.dcg[row]), idcg=float(grid.idcg[row]),
                 presets=exact, nearest=nearest, departures=departures, alternatives=alternatives, sentence=sentence)


def _mattering(space, setting, alternatives) -> list[str]:
    """The dimensions whose value changes the figures on this query (the others are left unsaid)."""
    return [name for name in DIMENSIONS if len(alternatives[name]) < len(space.axes[name].values)]


def _sentence(space, setting, alternatives, exact, nearest, departures, exact_settings) -> str:
    words = describe(space, setting)
    if exact:
        who = " = ".join(CONVENTIONS[key].label_for(whole_list=setting["k"] == "whole") for key in exact)
        said = [_shared(space, name, words[name], [preset[name] for preset in exact_settings])
                for name in _mattering(space, setting, alternatives)]
        return f"{who}: " + ("; ".join(said) if said else "every choice gives the same figure here") + "."
    preset_words = describe(space, space.setting(space.index(preset_settings(nearest, has_k="given" in
                                                                                      space.axes["k"].values))))
    changes = "; ".join(f"{words[name]} instead of {preset_words[name]}" for name, _, _ in departures)
    count = len(departures)
    return f"{CONVENTIONS[nearest].label} with {count} change{'s' if count > 1 else ''}: {changes}."


def _shared(space, name: str, words: str, values: list) -> str:
    """What the presets of one calculation choose on dimension ``name``: one value in words, or each of theirs.

    Presets give the same figures with different values when the difference does not matter on this query
    (linear and exponential gain on all-zero grades): naming one value would put the others under the wrong one.
    """
    distinct = list(dict.fromkeys(values))
    if len(distinct) == 1:
        return words
    labels = [space.axes[name].labels[space.axes[name].values.index(value)] for value in distinct]
    return " or ".join(labels) + " (the same figure here)"


def _summary(label, shown: str, matches, named, preset_values, value: float, refusals: dict[str, str],
             id_ranges: dict[str, tuple[float, float]] | None = None, tolerance: float = 0.0) -> str:
    head = f"{label} ({shown})"
    refusing = [key for key in named if key in refusals]  # one sentence, from the first preset the label names
    refused = [f"{refusals[refusing[0]]} So this number did not come from {label} on these grades as typed."] \
        if refusing else []
    if refused and not matches:
        return f"{head}: " + " ".join(refused)
    if not matches and not preset_values:
        return f"{head}: no convention searched reproduces it; check the grades, their order (or scores) and k."
    # A library whose order of tied scores cannot be reproduced (ranx's unstable sort in a large tie) gives any
    # figure in the range over those orders: no calculation searched may give the number, and it can still be its.
    ranged = [key for key in named if key in preset_values and (id_ranges or {}).get(key)]
    if not matches and ranged:
        return (f"{head}: no calculation searched gives it exactly. "
                + _named_miss(ranged[0], preset_values[ranged[0]], value, id_ranges[ranged[0]], tolerance))
    if not matches:
        closest = min(preset_values, key=lambda key: abs(preset_values[key] - value) if not math.isnan(value) else 0)
        return (f"{head}: no convention searched reproduces it. The closest preset, "
                f"{CONVENTIONS[closest].label}, gives {preset_values[closest]:.4f}; check the grades, their order "
                "(or scores) and k.")
    exact = [m for m in matches if m.presets]
    text = []
    if exact:
        found = {key for m in exact for key in m.presets}
        # Each library's measure as its first match uses it: trec_eval's is ndcg without a cutoff, ndcg_cut with one.
        whole = {key: next(m.setting["k"] == "whole" for m in exact if key in m.presets) for key in found}
        libraries = [CONVENTIONS[key].label_for(whole_list=whole[key])
                     for key in sorted(found, key=lambda key: (key not in named, list(CONVENTIONS).index(key)))]
        text.append(f"{head} is what {_listing(libraries)} compute{'s' if len(libraries) == 1 else ''}.")
    else:
        text.append(f"{head} is no library preset's figure; the nearest reading: {matches[0].sentence}")
    # A label naming several presets ("ranx": ndcg and ndcg_burges) is explained once one of them gives the number.
    named_found = any(key in m.presets for m in matches for key in named)
    for key in named:
        if not named_found and key in preset_values:
            text.append(_named_miss(key, preset_values[key], value, (id_ranges or {}).get(key), tolerance))
    text.extend(refused)
    others = len(matches) - (len(exact) if exact else 1)
    if others > 0:
        text.append(f"{others} other calculation{'s' if others > 1 else ''} also give{'s' if others == 1 else ''} "
                    "this number: the figure alone cannot tell them apart.")
    return " ".join(text)


def _named_miss(key: str, figure: float, value: float, id_range: tuple[float, float] | None, tolerance: float) -> str:
    """Why a number labelled with a library is not that library's figure here (or may be, given the ids)."""
    library = CONVENTIONS[key].label
    if id_range is None:
        return (f"{library}'s own conventions give {figure:.4f} on this input, so the number came from different "
                "settings or a different input.")
    low, high = id_range
    if key in UNSTABLE_TIES:
        guess = (f"{library} orders tied scores with an unstable internal sort, so its figure depends on the order "
                 f"that sort gives them: {figure:.4f} with the ties in input order, anything from {low:.4f} to "
                 f"{high:.4f} over their orders.")
        if low - tolerance <= value <= high + tolerance:
            return guess + f" This number is in that range: it can be {library}'s figure."
        return guess + " This number is outside it, so it came from different settings or a different input."
    guess = (f"{library} orders tied scores by document id, and no ids were given: its figure here, {figure:.4f}, "
             f"takes the later of two tied documents first, and other ids give anything from {low:.4f} to "
             f"{high:.4f}.")
    if low - tolerance <= value <= high + tolerance:
        return guess + " This number is in that range: type the document ids to check it."
    return guess + " This number is outside it, so it came from different settings or a different input."


def _listing(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _comparison(findings: tuple[Finding, ...]) -> str:
    """Why the first reported number differs from each other one, in the conventions that matter."""
    if len(findings) < 2:
        return ""
    first = findings[0]
    sentences = []
    for other in findings[1:]:
        if not first.matches or not other.matches:
            missing = first if not first.matches else other
            sentences.append(f"{missing.label}: no convention reproduces it, so the difference cannot be explained.")
            continue
        a, b = first.matches[0], other.matches[0]
        differ = [name for name in DIMENSIONS
                  if a.setting[name] not in b.alternatives[name] and b.setting[name] not in a.alternatives[name]]
        if not differ and (abs(first.reported - other.reported) <= max(first.tolerance, other.tolerance)
                           or math.isnan(first.reported) and math.isnan(other.reported)):
            sentences.append(f"{first.label} and {other.label}: the same calculation reproduces both (they differ by "
                             "less than the tolerance).")
            continue
        # No setting alone separates them (each is among the other's alternatives), but together they do.
        names = differ or [name for name in DIMENSIONS if a.setting[name] != b.setting[name]]
        together = "" if differ else " Each of these alone changes nothing on this input; together they make the difference."
        sentences.append(f"{_who(other)}: it uses {_listing([_word(b, n) for n in names])}; "
                         f"{_who(first)} used {_listing([_word(a, n) for n in names])}.{together}")
    return " ".join(sentences)


def _who(finding: Finding) -> str:
    return f"{finding.label}'s number"


def _word(match: Match, name: str) -> str:
    value = match.setting[name]
    if name == "k":
        return "no cutoff" if value == "whole" else ("the given k" if value == "given" else
                                                    f"a cutoff at {str(value).removeprefix('default_')}")
    return WORDS[name].get(value, f"the gain table '{value}'")
