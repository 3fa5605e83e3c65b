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

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from ._battery import SILENTLY_TRUNCATING, evaluate_as_read
from ._conventions import CONVENTIONS
from ._diagnose_grid import Grid, close_to, evaluate_grid, tie_order_range
from ._diagnose_words import UNSTABLE_TIES, comparison, match_sentence, summary, uncut_note
from ._reported import (
    Reported,
    measure_cutoff,
    named_presets,
    reported_numbers,
    rounding_note,
    shown_value,
    stated_cutoff,
)
from ._search_space import DIMENSIONS, SearchSpace, build_space, calculation_table, is_close, preset_settings
from ._validation import InvalidInput, check_flag, check_k, check_tolerance


@dataclass(frozen=True)
class Match:
    """One calculation that reproduces a reported number.

    ``ndcg``, ``dcg`` and ``idcg`` are this calculation's figures (``ndcg``
    within the finding's ``tolerance`` of the reported number); ``sentence``
    names the calculation in words: the presets it equals ("scikit-learn
    ndcg_score = trec_eval ndcg = ..."), or the nearest preset and the
    choices that differ from it.
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
    """Every calculation reproducing one reported number, presets first, then fewest departures.

    ``label`` is the name the number was given with ("LightGBM", "" when it had
    none) and ``reported`` the number; ``matches`` holds one :class:`Match` per
    distinct calculation within ``tolerance`` of it (empty: nothing reproduces
    it), library presets first. ``named_presets`` are the presets the label
    names ("ranx" names ranx_ndcg and ranx_ndcg_burges). ``summary`` says in
    words what reproduces the number (or why nothing does). ``preset_values``
    gives every preset's NDCG on this input. ``tolerance`` is how close a
    calculation had to come (wider than the ``tolerance`` argument for a
    number given as rounded text); ``printed`` is the number as typed
    ("0.659"; "" when given as a float). ``whole_reading`` is, for a label
    naming trec_eval or ranx on fractional grades, that library's figure on
    the whole grades it reads (a :class:`WholeReading`), else None.
    """

    label: str
    reported: float
    matches: tuple[Match, ...]
    named_presets: tuple[str, ...]
    summary: str
    preset_values: dict[str, float] = field(repr=False)
    tolerance: float = 5e-5  # how close a calculation came to count as a match
    printed: str = ""  # the number as given, e.g. "0.659"; "" when given as a float
    whole_reading: WholeReading | None = None  # the named library's figure on the grades it reads as whole numbers


@dataclass(frozen=True)
class WholeReading:
    """What a library that reads a fractional grade as its whole part (trec_eval, ranx) gives on these grades.

    Such a library gives no error for 1.5: it computes on 1. So a number labelled with it is its figure on
    the grades it read, not a number from "different settings": ``ndcg`` is that figure, ``read`` the
    (typed, read) pairs of the grades it changed and ``gives_number`` whether it is the reported number.
    ``preset`` is the library's preset key (e.g. "trec_eval") and ``setting`` its choices, as a
    :class:`Match`'s ``setting`` (the comparison sentence reads them).
    """

    preset: str
    ndcg: float
    read: tuple[tuple[float, float], ...]
    gives_number: bool
    setting: dict[str, object] = field(default_factory=dict, repr=False)  # the preset's choices (see comparison)


@dataclass(frozen=True)
class Diagnosis:
    """The findings for each reported number and, for two or more, why they differ.

    ``findings`` holds one :class:`Finding` per reported number, in the order
    given; ``comparison`` is the sentence on why two numbers differ (or that
    they are the same calculation; "" for a single number). ``space`` is the
    search space the findings index (every convention's figures on this
    input), read by :meth:`table` for a match's position-by-position table.
    """

    findings: tuple[Finding, ...]
    comparison: str
    space: SearchSpace = field(repr=False)

    def table(self, match: Match) -> pd.DataFrame:
        """Position-by-position calculation of ``match`` (see :func:`calculation_table`)."""
        return calculation_table(self.space, match.setting)


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
    k = check_k(k)  # as evaluate reads it (2.0 is 2): the search indexes arrays with it
    if baseline is not None and (not isinstance(baseline, str) or baseline not in CONVENTIONS):
        raise InvalidInput(f"Unknown baseline preset {baseline!r}. Choose one of: {', '.join(CONVENTIONS)}.")
    tolerance = check_tolerance(tolerance)
    library_refusals = check_flag(library_refusals, name="library_refusals")
    if gain_tables is not None and not isinstance(gain_tables, Mapping):
        raise InvalidInput(f"gain_tables must map a name to a grade -> gain mapping, e.g. {{'mine': {{0: 0, 1: 3}}}}, "
                           f"got {type(gain_tables).__name__} {gain_tables!r:.40}.")
    space = build_space(relevances, scores, ideal_relevances=ideal_relevances, k=k, doc_ids=doc_ids,
                        gain_tables=gain_tables)
    grid = evaluate_grid(space)
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

    def read_whole(key: str, number: Reported) -> WholeReading | None:
        return _whole_reading(key, number, least_tolerance=tolerance, relevances=relevances, scores=scores,
                              ideal_relevances=ideal_relevances, k=k, doc_ids=doc_ids)

    findings = tuple(_finding(space, grid, _presets_for(number, presets, whole_list, grid, space, tolerance), number,
                              tolerance, baseline, refusals, unknown_ids=unknown_ids, k=k, read_whole=read_whole)
                     for number in numbers)
    return Diagnosis(findings=findings, comparison=comparison(findings), space=space)


def _presets_for(number: Reported, presets: dict[str, tuple], whole_list: dict[str, tuple], grid: Grid,
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
    stated = label_cutoff_value(space, number.label)
    if stated is not None:  # no k typed, and the label names one searched ("LightGBM ndcg@3"): the presets at it
        axis = DIMENSIONS.index("k")
        at = space.axes["k"].values.index(stated)
        for key in named:
            if key in chosen:
                chosen[key] = (*chosen[key][:axis], at, *chosen[key][axis + 1:])
        return chosen
    for key in named:
        if key not in whole_list or key not in presets or whole_list[key] == presets[key] or said == "cut":
            continue
        whole_gives, cut_gives = gives(whole_list[key]), gives(presets[key])
        if whole_gives and not cut_gives or said == "whole" and not (cut_gives and not whole_gives):
            chosen[key] = whole_list[key]
    return chosen


def label_cutoff_value(space: SearchSpace, label: str) -> str | None:
    """The searched ``k`` value a label's measure names when no k was typed ("ndcg@3": ``"default_3"``), or None."""
    stated = stated_cutoff(label)
    if stated is None or "given" in space.axes["k"].values:
        return None
    value = f"default_{stated}"
    return value if value in space.axes["k"].values else None


def _cutoff_from_label(space: SearchSpace, match: Match, stated: str) -> Match:
    """The match's sentence with the cutoff the label named said to come from the label: the searched cutoff's own
    words name the library whose default it is ("cut at 10 (the usual @10 (Quepid's nDCG@10))", "cut at 5
    (LightGBM's default ndcg_eval_at (1-5))"), which read as the reason for an ir_measures or ranx number."""
    if match.setting["k"] != stated:
        return match
    axis = space.axes["k"]
    words = axis.labels[axis.values.index(stated)]
    return replace(match, sentence=match.sentence.replace(
        words, f"cut at {stated.removeprefix('default_')} (the cutoff in the label)"))


def _label_cutoff_note(space: SearchSpace, label: str, k: int | None) -> str:
    """What the page did with a cutoff the label states: read it (k empty, a searched cutoff), or ask for it."""
    stated = stated_cutoff(label)
    if stated is None or stated == k:
        return ""
    if k is not None:
        return f" ({label} names a cutoff of {stated}, but k is {k}.)"
    if label_cutoff_value(space, label) is not None:
        return f" (k is empty, so the cutoff in the label, {stated}, was used.)"
    return f" ({label} names a cutoff of {stated}, which is not searched when k is empty: type k = {stated}.)"


def _finding(space, grid: Grid, presets: dict[str, tuple], number: Reported, least_tolerance: float,
             baseline=None, refusals: dict[str, str] | None = None, *, unknown_ids: bool = False,
             k: int | None = None, read_whole=None) -> Finding:
    label, value = number.label, number.value
    named = named_presets(label)
    # A library the label names that read the fractional grades as whole numbers: its figure on those, the one
    # that gives the number first ("ranx" names ndcg and ndcg_burges).
    readings = [reading for key in named if key in (refusals or {}) and read_whole is not None
                and (reading := read_whole(key, number)) is not None]
    whole_reading = min(readings, key=lambda reading: not reading.gives_number, default=None)
    uncut = [key for key in named if key in presets and k is not None and CONVENTIONS[key].whole_list_label
             and space.setting(presets[key])["k"] == "whole"]
    keys = list(presets)
    flat = {key: int(np.ravel_multi_index(point, space.shape)) for key, point in presets.items()}
    preset_values = {key: float(grid.ndcg[index]) for key, index in flat.items() if grid.valid[index]}
    id_ranges = {key: spread for key in named if key in presets and (unknown_ids or key in UNSTABLE_TIES)
                 and (spread := tie_order_range(space, grid, presets[key], any_rule=key in UNSTABLE_TIES)) is not None}
    tolerance = _tolerance(number, least_tolerance, grid, [preset_values[key] for key in named if key in preset_values])
    rows = np.flatnonzero(grid.valid & close_to(grid.ndcg, value, tolerance))
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
    stated = label_cutoff_value(space, label)
    if stated is not None:
        matches = [_cutoff_from_label(space, match, stated) for match in matches]
    return Finding(label=label, reported=value, matches=tuple(matches), named_presets=named,
                   summary=summary(label, number.printed or shown_value(value), matches, named, preset_values, value,
                                    refusals or {}, id_ranges, tolerance, whole_reading) + uncut_note(uncut, k)
                   + _label_cutoff_note(space, label, k)
                   + rounding_note(value, tolerance, least_tolerance),
                   preset_values=preset_values, tolerance=tolerance, printed=number.printed, whole_reading=whole_reading)


def _whole_reading(key: str, number: Reported, *, least_tolerance: float, relevances, scores, ideal_relevances,
                   k: int | None, doc_ids) -> WholeReading | None:
    """Preset ``key``'s figure on the grades it reads, when it reads fractional grades as whole numbers
    (``SILENTLY_TRUNCATING``: trec_eval, ranx) and then accepts them; None for any other library."""
    if key not in SILENTLY_TRUNCATING:
        return None
    convention = CONVENTIONS[key]
    # "trec_eval ndcg" is the measure without a cutoff, whatever k is (as _presets_for reads the label)
    cut = None if convention.whole_list_label and measure_cutoff(number.label) == "whole" else k
    try:
        result, read = evaluate_as_read(key, relevances, scores, k=cut, ideal_relevances=ideal_relevances,
                                        doc_ids=doc_ids)
    except InvalidInput:  # refused for another reason too (a grade above its largest): no figure of its own
        return None
    gives = is_close(result.ndcg, number.value, number.tolerance(least_tolerance))
    return WholeReading(preset=key, ndcg=result.ndcg, read=read, gives_number=gives,
                        setting=preset_settings(key, has_k=cut is not None))


def _tolerance(number: Reported, least: float, grid: Grid, named_values: list[float]) -> float:
    """How close a calculation must come to ``number``: ``least``, or the printed precision of a rounded number.

    A number given as text is read as rounded (whatever rounds to it counts) when nothing gives it within
    ``least``, or when a library its label names gives a figure that rounds to it but is not within ``least``:
    scikit-learn's 0.990067 printed "0.99" is scikit-learn's figure, even if another calculation gives 0.99000.
    """
    printed = number.tolerance(least)
    if printed <= least:
        return least
    strict = np.any(grid.valid & close_to(grid.ndcg, number.value, least))
    named_rounds = any(least < abs(figure - number.value) <= printed for figure in named_values)
    return printed if not strict or named_rounds else least


def _match(space, grid: Grid, row: int, exact, nearest: str, presets: dict[str, tuple], named) -> Match:
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
    sentence = match_sentence(space, setting, alternatives, exact, nearest, departures, exact_settings)
    return Match(setting=setting, ndcg=float(grid.ndcg[row]), dcg=float(grid.dcg[row]), idcg=float(grid.idcg[row]),
                 presets=exact, nearest=nearest, departures=departures, alternatives=alternatives, sentence=sentence)


