"""Does a convention decide which of two rankers wins? Mean NDCG of both under every combination of choices.

:func:`winner_grid` evaluates two rankers on the same queries under each
combination of gain (linear, exponential), cutoff (the given k, 5, 10, none),
ideal list (ranked documents only, every judgment) and IDCG = 0 rule (0, 1),
and says, per combination, which ranker wins on mean NDCG, on how many queries
each wins, and whether the winner differs from the baseline combination.
Every figure is :func:`evaluate` on one query's ranked grades.
"""

from __future__ import annotations

import itertools
import numbers
import warnings
from collections.abc import Sequence

import numpy as np
import pandas as pd

from ._list import evaluate
from ._validation import InvalidInput, as_grades, check_choice, check_k, check_list_of_lists, check_tolerance

CHOICES = {"gain": ("linear", "exponential"), "ideal": ("ranking", "all_judged"), "zero_idcg": ("zero", "one")}


def winner_grid(rankings_a: Sequence, rankings_b: Sequence, *, ideal_relevances: Sequence | None = None,
                k: int | None = None, gain: str = "exponential", ideal: str = "all_judged", zero_idcg: str = "zero",
                tolerance: float = 1e-12, judged: Sequence | None = None) -> pd.DataFrame:
    """Mean NDCG of rankers A and B under every combination of the choices, and who wins.

    Parameters
    ----------
    rankings_a, rankings_b : sequences of grade lists
        Per query, the grades of ranker A's (B's) documents in ranked order
        (unjudged = 0).
    ideal_relevances : sequence of grade lists, optional
        Per query, every judged grade (ranked by either ranker or not), for the
        "ideal from every judgment" choice; defaults to each ranking's own grades.
        The same keyword as :func:`evaluate`'s, one list per query.
    k, gain, ideal, zero_idcg : the baseline choices (the first row of the result).
    tolerance : float
        Mean (or per-query) NDCGs closer than this are a tie.
    judged : sequence of grade lists, optional
        The former name of ``ideal_relevances`` (every other function says
        ``ideal_relevances``); still read, with a DeprecationWarning.

    Returns
    -------
    DataFrame
        One row per combination (baseline first): ``gain``, ``k`` (None = no
        cutoff), ``ideal``, ``zero_idcg``, ``mean_a``, ``mean_b``, ``winner``
        ("A", "B" or "tie" within ``tolerance``), ``queries_a`` / ``queries_b``
        (queries each wins), ``flips`` (winner differs from the baseline's) and
        ``changed`` (the choices that differ from the baseline).
    """
    if judged is not None:
        if ideal_relevances is not None:
            raise InvalidInput("Give ideal_relevances only (judged is its former name), not both.")
        warnings.warn("winner_grid(judged=...) is renamed ideal_relevances=..., as in evaluate and every other "
                      "function; judged will be removed.", DeprecationWarning, stacklevel=2)
        ideal_relevances = judged
    rankings_a, rankings_b = _per_query(rankings_a, "rankings_a"), _per_query(rankings_b, "rankings_b")
    if len(rankings_a) != len(rankings_b) or not rankings_a:
        raise InvalidInput("Give both rankers' lists for the same queries (at least one).")
    pools = ([None] * len(rankings_a) if ideal_relevances is None
             else check_list_of_lists(ideal_relevances, what="ideal_relevances"))
    if len(pools) != len(rankings_a):
        raise InvalidInput("ideal_relevances must have one list per query.")
    baseline = {"gain": check_choice(gain, CHOICES["gain"], name="gain"), "k": check_k(k),
                "ideal": check_choice(ideal, CHOICES["ideal"], name="ideal list"),
                "zero_idcg": check_choice(zero_idcg, CHOICES["zero_idcg"], name="zero_idcg rule")}
    tolerance = check_tolerance(tolerance)
    cutoffs = list(dict.fromkeys([baseline["k"], 5, 10, None]))
    combos = [dict(zip(("gain", "k", "ideal", "zero_idcg"), values, strict=True))
              for values in itertools.product(CHOICES["gain"], cutoffs, CHOICES["ideal"], CHOICES["zero_idcg"])]
    combos.sort(key=lambda combo: combo != baseline)  # the baseline first
    rows = []
    for combo in combos:
        a = _scores(rankings_a, rankings_b, pools, combo, side=0)
        b = _scores(rankings_a, rankings_b, pools, combo, side=1)
        mean_a, mean_b = float(np.nanmean(a)), float(np.nanmean(b))
        rows.append({**combo, "mean_a": mean_a, "mean_b": mean_b, "winner": _winner(mean_a, mean_b, tolerance),
                     "queries_a": int((a > b + tolerance).sum()), "queries_b": int((b > a + tolerance).sum()),
                     "changed": ", ".join(name for name in baseline if combo[name] != baseline[name])})
    frame = pd.DataFrame(rows)
    frame["flips"] = frame["winner"] != frame["winner"].iloc[0]
    return frame


def _per_query(rankings: object, what: str) -> list:
    """One checked grade array per query; one flat list of grades (a single query given as [3, 1, 0]) is named."""
    lists = check_list_of_lists(rankings, what=what)
    if lists and all(isinstance(grades, (numbers.Number, type(None))) for grades in lists):
        raise InvalidInput(f"{what} is one flat list of grades: give one list per query, e.g. [[3, 1, 0]] for a "
                           "single query.")
    return [as_grades(grades, what=f"{what}, query {query}") for query, grades in enumerate(lists, start=1)]


def _scores(rankings_a, rankings_b, judged, combo, *, side: int) -> np.ndarray:
    values = []
    for ranking_a, ranking_b, pool in zip(rankings_a, rankings_b, judged, strict=True):
        ranking = ranking_a if side == 0 else ranking_b
        ideal = None
        depth = combo["k"]
        if combo["ideal"] == "all_judged":
            ideal = list(pool) if pool is not None else list(ranking)
            if depth is None:  # no cutoff: every judged grade stays in the ideal list
                depth = max(len(ranking), len(ideal))
        result = evaluate(ranking, k=depth, gain=combo["gain"], ideal_relevances=ideal, zero_idcg=combo["zero_idcg"])
        values.append(result.ndcg)
    return np.array(values)


def _winner(a: float, b: float, tolerance: float) -> str:
    if abs(a - b) <= tolerance:
        return "tie"
    return "A" if a > b else "B"
