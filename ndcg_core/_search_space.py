r"""The space of NDCG conventions that :func:`diagnose` searches, prepared for one query.

Eight choices (dimensions), each with the values found in libraries and in
hand calculations:

* ``ties`` - how equal scores are ordered: ``"average"`` (scikit-learn,
  torchmetrics), ``"stable"`` (input order: LightGBM, XGBoost; ranx approximately),
  ``"trec_eval"`` (document id descending, as trec_eval), ``"optimistic"``, ``"pessimistic"``.
* ``precision`` - scores compared as ``"double"`` or rounded to ``"float32"``
  first (XGBoost, torchmetrics), which can create ties.
* ``gain`` - ``"linear"`` (grade), ``"exponential"`` (2^grade - 1, also
  LightGBM's default ``label_gain`` table 0, 1, 3, 7, ... for grades 0-30),
  ``"pow2"`` (2^grade: the -1 forgotten) and any gain table the caller names.
* ``discount`` - ``"log2"``: 1 / log2(i + 1). Any other base gives the same
  NDCG (log_b x = ln x / ln b scales DCG and IDCG alike), so natural log and
  log10 are not searched separately: a log2 match is a match for them too.
  ``"jk_b2"`` and ``"jk_b10"``: Järvelin and Kekäläinen (2002), no discount
  before rank b, 1 / log_b(i) from rank b on (not a pure rescaling of log2, so
  NDCG changes; ``"jk_b2"`` is the ``"jarvelin_kekalainen_2002"`` preset's).
  ``"log2_shifted"``: 1 / log2(i + 2), the off-by-one of a 0-based index plus 2.
  All four come from :func:`ndcg_core.discounts`, the one definition.
* ``k`` - the cutoff: ``"given"`` (the k the user typed), ``"whole"`` (none),
  or a library default: 1-5 (LightGBM's ``ndcg_eval_at``), 10, 32 (XGBoost
  3.x's ``ndcg`` without ``@k``).
* ``ideal`` - the ideal list from the ``"ranking"`` (ranked documents only)
  or from ``"all_judged"`` (``ideal_relevances``).
* ``ideal_depth`` - places of the ideal list that count: ``"cutoff"`` (k, all
  for no cutoff: trec_eval), ``"ranking_length"`` (min(k, n): cut at the
  ranking's length), ``"uncut"`` (the ideal not cut at k: a classic bug).
* ``zero_idcg`` - NDCG when IDCG = 0: ``"zero"``, ``"one"``, ``"skip"`` (no value).

The orders come from :func:`evaluate_scores` and the presets (the tie rules
are defined once, in ``_ties.py``); the gains from :func:`gains_of`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ._conventions import CONVENTIONS
from ._discounts import discounts
from ._gains import check_gain, gain_values
from ._list import evaluate_scores
from ._score_order import SCORE_PRECISIONS, score_order, stored_scores
from ._validation import InvalidInput, as_finite_numbers, as_grades

TIES = ("average", "stable", "trec_eval", "optimistic", "pessimistic")
PRECISIONS = SCORE_PRECISIONS
BUILT_IN_GAINS = ("linear", "exponential", "pow2")
DISCOUNTS = ("log2", "jk_b2", "jk_b10", "log2_shifted")
DEFAULT_CUTOFFS = {1: "LightGBM's default ndcg_eval_at (1-5)", 2: "LightGBM's default ndcg_eval_at (1-5)",
                   3: "LightGBM's default ndcg_eval_at (1-5)", 4: "LightGBM's default ndcg_eval_at (1-5)",
                   5: "LightGBM's default ndcg_eval_at (1-5)", 10: "the usual @10 (Quepid's nDCG@10)",
                   32: "XGBoost 3.2's 'ndcg' without @k, which cuts at 32"}
IDEALS = ("ranking", "all_judged")
IDEAL_DEPTHS = ("cutoff", "ranking_length", "uncut")
ZERO_RULES = ("zero", "one", "skip")
DIMENSIONS = ("ties", "precision", "gain", "discount", "k", "ideal", "ideal_depth", "zero_idcg")

WORDS = {
    "ties": {"average": "tied scores sharing their mean gain", "stable": "tied scores kept in input order",
             "trec_eval": "tied scores ordered by document id, Z to A",
             "optimistic": "tied scores with the better grades first",
             "pessimistic": "tied scores with the worse grades first"},
    "precision": {"double": "scores compared in double precision",
                  "float32": "scores rounded to float32 first (close scores can tie)"},
    "gain": {"linear": "gain = the grade itself", "exponential": "gain = 2^grade − 1",
             "pow2": "gain = 2^grade (the −1 forgotten)"},
    "discount": {"log2": "discount log2(rank + 1) (any log base gives the same NDCG)",
                 "jk_b2": "Järvelin–Kekäläinen 2002 discount with b = 2 (rank 1 undiscounted, log2(rank) after)",
                 "jk_b10": "Järvelin–Kekäläinen 2002 discount with b = 10 (ranks 1-9 undiscounted, log10(rank) after)",
                 "log2_shifted": "discount log2(rank + 2) (off by one)"},
    "ideal": {"ranking": "the ideal built from the ranked documents only",
              "all_judged": "the ideal built from every judged document"},
    "ideal_depth": {"cutoff": "the ideal cut at k", "ranking_length": "the ideal cut at the ranking's length",
                    "uncut": "the ideal not cut at k"},
    "zero_idcg": {"zero": "0 for a query with no relevant document", "one": "1 for a query with no relevant document",
                  "skip": "no value for a query with no relevant document (skipped)"},
}


def discount_weights(name: str, n: int) -> np.ndarray:
    """1 / discount for ranks 1..n under one of :data:`DISCOUNTS`, from :func:`ndcg_core.discounts`.

    ``"jk_bB"`` is Järvelin and Kekäläinen (2002) with b = B (weight 1 before
    rank B, 1 / log_B(i) from rank B on); ``"log2_shifted"`` is the log2
    discount one rank late (log2(i + 2)).
    """
    if name == "log2":
        return 1.0 / discounts(n, 2.0)
    if name == "log2_shifted":
        return 1.0 / discounts(n + 1, 2.0)[1:]
    return 1.0 / discounts(n, float(name.removeprefix("jk_b")), discount="jk")


def discount_name(discount: str, log_base: float) -> str:
    """The :data:`DISCOUNTS` value of a preset's ``discount`` and ``log_base`` (any base: "log2", same NDCG)."""
    if discount == "log":
        return "log2"
    name = f"jk_b{log_base:g}"
    if name not in DISCOUNTS:
        raise InvalidInput(f"The search space has no Järvelin–Kekäläinen discount with b = {log_base:g}.")
    return name


@dataclass(frozen=True)
class Axis:
    """One dimension of the grid: its values and a human label for each."""

    name: str
    values: tuple
    labels: tuple[str, ...]


@dataclass(frozen=True)
class SearchSpace:
    """The query's arrays for every value of every dimension, ready to broadcast.

    ``ranked_gains[t, p, g]`` is the gain at each rank for tie rule t, score
    precision p and gain g (NaN rows for a gain the grades cannot use);
    ``items[t, p]`` the input index at each rank; ``ideal_gains[s, g]`` the
    ideal list's gains (zero-padded to ``width``); ``weights[d]`` 1 / discount.
    """

    grades: np.ndarray
    ideal_grades: tuple[np.ndarray, np.ndarray]
    axes: dict[str, Axis]
    items: np.ndarray
    ranked_gains: np.ndarray
    ideal_gains: np.ndarray
    weights: np.ndarray
    cutoffs: tuple[int | None, ...]
    notes: tuple[str, ...] = field(default=())

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(len(self.axes[name].values) for name in DIMENSIONS)

    def index(self, setting: Mapping[str, object]) -> tuple[int, ...]:
        """Grid position of a setting given as dimension -> value."""
        return tuple(self.axes[name].values.index(setting[name]) for name in DIMENSIONS)

    def setting(self, position) -> dict[str, object]:
        return {name: self.axes[name].values[int(i)] for name, i in zip(DIMENSIONS, position, strict=True)}


def build_space(relevances, scores=None, *, ideal_relevances=None, k=None, doc_ids=None,
                gain_tables: Mapping[str, Mapping[float, float]] | None = None) -> SearchSpace:
    """Prepare every ranking, gain, ideal list and discount of one query (see the module docstring)."""
    grades = as_grades(relevances, what="relevances")
    if grades.size == 0:
        raise InvalidInput("The ranking is empty: add at least one document with a grade.")
    n = grades.size
    judged = grades if ideal_relevances is None else as_grades(ideal_relevances, what="ideal_relevances")
    gains = {name: name for name in BUILT_IN_GAINS} | {name: check_gain(table) for name, table in
                                                       (gain_tables or {}).items()}
    orders, ranked = _rankings(grades, scores, doc_ids, gains)
    notes = []
    usable = [name for name in gains if np.isfinite(ranked[:, :, list(gains).index(name)]).all()]
    if len(usable) < len(gains):
        notes.append("Not searched (a grade cannot use them): " + ", ".join(sorted(set(gains) - set(usable))) + ".")
    ideal_lists = (np.sort(grades)[::-1], np.sort(judged)[::-1])
    width = max(n, judged.size)
    ideal_gains = np.full((2, len(gains), width), np.nan)
    for s, ideal in enumerate(ideal_lists):
        for g, spec in enumerate(gains.values()):
            values = _gains_or_nan(ideal, spec)
            ideal_gains[s, g, :] = 0.0
            ideal_gains[s, g, : ideal.size] = values
    cutoffs = ((k,) if k is not None else ()) + (None, *DEFAULT_CUTOFFS)
    k_values = (("given",) if k is not None else ()) + ("whole", *(f"default_{c}" for c in DEFAULT_CUTOFFS))
    k_labels = ((f"cut at k = {k}",) if k is not None else ()) + (
        "no cutoff (the whole list)", *(f"cut at {c} ({why})" for c, why in DEFAULT_CUTOFFS.items()))
    gain_labels = tuple(WORDS["gain"].get(name, f"the gain table '{name}'") for name in gains)
    axes = {
        "ties": Axis("ties", TIES, tuple(WORDS["ties"][t] for t in TIES)),
        "precision": Axis("precision", PRECISIONS, tuple(WORDS["precision"][p] for p in PRECISIONS)),
        "gain": Axis("gain", tuple(gains), gain_labels),
        "discount": Axis("discount", DISCOUNTS, tuple(WORDS["discount"][d] for d in DISCOUNTS)),
        "k": Axis("k", k_values, k_labels),
        "ideal": Axis("ideal", IDEALS, tuple(WORDS["ideal"][s] for s in IDEALS)),
        "ideal_depth": Axis("ideal_depth", IDEAL_DEPTHS, tuple(WORDS["ideal_depth"][m] for m in IDEAL_DEPTHS)),
        "zero_idcg": Axis("zero_idcg", ZERO_RULES, tuple(WORDS["zero_idcg"][z] for z in ZERO_RULES)),
    }
    weights = np.stack([discount_weights(name, width) for name in DISCOUNTS])
    return SearchSpace(grades=grades, ideal_grades=ideal_lists, axes=axes, items=orders, ranked_gains=ranked,
                       ideal_gains=ideal_gains, weights=weights, cutoffs=cutoffs, notes=tuple(notes))


def _gains_or_nan(grades: np.ndarray, spec) -> np.ndarray:
    """Gains, or NaN everywhere when this gain cannot take these grades (overflow, missing table grade)."""
    if spec == "pow2":
        return _gains_or_nan(grades, "exponential") + 1.0
    try:
        return gain_values(grades, spec)
    except InvalidInput:
        return np.full(grades.size, np.nan)


def _rankings(grades, scores, doc_ids, gains) -> tuple[np.ndarray, np.ndarray]:
    """Input index and gain at each rank, for every tie rule x precision x gain."""
    n = grades.size
    items = np.empty((len(TIES), len(PRECISIONS), n), dtype=np.int64)
    ranked = np.empty((len(TIES), len(PRECISIONS), len(gains), n))
    score_values = None if scores is None else as_finite_numbers(scores, what="scores")
    if score_values is not None and score_values.size != n:
        raise InvalidInput(f"Got {n} grades but {score_values.size} scores: give one score per document.")
    for p, precision in enumerate(PRECISIONS):
        by_precision = None if score_values is None else stored_scores(score_values, precision=precision)
        for t, rule in enumerate(TIES):
            order = _order(grades, by_precision, rule, doc_ids)
            items[t, p] = order
            for g, spec in enumerate(gains.values()):
                if by_precision is not None and rule == "average":
                    ranked[t, p, g] = _averaged_gains(grades, by_precision, spec)
                else:
                    ranked[t, p, g] = _gains_or_nan(grades[order], spec)
    return items, ranked


def _order(grades, scores, rule, doc_ids) -> np.ndarray:
    if scores is None:
        return np.arange(grades.size)  # the given order: no scores, no ties to break
    # (under "average" the rows keep their input order inside a tie; the gains are averaged in _averaged_gains)
    order = score_order(grades, scores, ties=rule, doc_ids=doc_ids if rule == "trec_eval" else None).order
    return np.asarray(order, dtype=np.int64)


def _averaged_gains(grades, scores, spec) -> np.ndarray:
    """Tie-averaged gains at each rank (the average rule of ``_ties.py``); pow2 = exponential + 1."""
    if spec == "pow2":
        return _averaged_gains(grades, scores, "exponential") + 1.0
    try:
        return evaluate_scores(grades, scores, ties="average", gain=spec).table["gain"].to_numpy()
    except InvalidInput:
        return np.full(grades.size, np.nan)


def preset_settings(key: str, *, has_k: bool) -> dict[str, object]:
    """The grid point a :data:`CONVENTIONS` preset stands for (its k is the k the user gave, else its default)."""
    convention = CONVENTIONS[key]
    default = convention.default_k
    k_value = "given" if has_k else (f"default_{default}" if default in DEFAULT_CUTOFFS else "whole")
    return {"ties": convention.ties, "precision": convention.score_precision,
            "gain": convention.gain, "discount": discount_name(convention.discount, convention.log_base), "k": k_value,
            "ideal": convention.ideal, "ideal_depth": convention.ideal_depth, "zero_idcg": convention.zero_idcg}


def describe(space: SearchSpace, setting: Mapping[str, object]) -> dict[str, str]:
    """Each dimension's value of ``setting`` in words."""
    return {name: space.axes[name].labels[space.axes[name].values.index(setting[name])] for name in DIMENSIONS}


def cutoff_of(space: SearchSpace, k_value: str) -> int | None:
    return space.cutoffs[space.axes["k"].values.index(k_value)]


def is_close(a: float, b: float, tolerance: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= tolerance


def calculation_table(space: SearchSpace, setting: Mapping[str, object]) -> pd.DataFrame:
    """The calculation of ``setting`` position by position: the ranked and the ideal list side by side.

    Columns: ``rank``, ``item`` (input index), ``grade``, ``gain``,
    ``discount`` (what the gain is divided by), ``contribution``,
    ``cumulative_dcg``, ``in_cutoff``, then ``ideal_grade``, ``ideal_gain``,
    ``ideal_contribution``, ``cumulative_idcg``, ``in_ideal_cut``. Rows run
    over the longer of the two lists.
    """
    point = space.index(setting)
    t, p, g, d, _, s, _, _ = point
    n = space.grades.size
    ideal = space.ideal_grades[s]
    width = max(n, ideal.size)
    rows = np.arange(width)
    weights = space.weights[d, :width]
    cutoff = cutoff_of(space, str(setting["k"]))
    depth = n if cutoff is None else min(cutoff, n)
    ideal_depth = {"cutoff": width if cutoff is None else cutoff, "ranking_length": depth,
                   "uncut": width}[str(setting["ideal_depth"])]
    gains = np.full(width, np.nan)
    gains[:n] = space.ranked_gains[t, p, g]
    grades = np.full(width, np.nan)
    grades[:n] = space.grades[space.items[t, p]]
    items = np.full(width, -1)
    items[:n] = space.items[t, p]
    ideal_grades = np.zeros(width)
    ideal_grades[: ideal.size] = ideal
    ideal_gains = space.ideal_gains[s, g, :width]
    contribution = gains * weights
    ideal_contribution = ideal_gains * weights
    return pd.DataFrame({
        "rank": rows + 1, "item": items, "grade": grades, "gain": gains, "discount": 1.0 / weights,
        "contribution": contribution, "cumulative_dcg": np.cumsum(np.where(rows < depth, contribution, 0.0)),
        "in_cutoff": rows < depth, "ideal_grade": ideal_grades, "ideal_gain": ideal_gains,
        "ideal_contribution": ideal_contribution,
        "cumulative_idcg": np.cumsum(np.where(rows < ideal_depth, ideal_contribution, 0.0)),
        "in_ideal_cut": rows < ideal_depth,
    })
