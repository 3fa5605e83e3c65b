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
from collections.abc import Sequence

import numpy as np
import pandas as pd

from ._list import evaluate
from ._validation import InvalidInput, check_k

CHOICES = {"gain": ("linear", "exponential"), "ideal": ("ranking", "all_judged"), "zero_idcg": ("zero", "one")}


def winner_grid(rankings_a: Sequence, rankings_b: Sequence, *, judged: Sequence | None = None, k: int | None = None,
                gain: str = "exponential", ideal: str = "all_judged", zero_idcg: str = "zero",
                tolerance: float = 1e-12) -> pd.DataFrame:
    """Mean NDCG of rankers A and B under every combination of the choices, and who wins.

    Parameters
    ----------
    rankings_a, rankings_b : sequences of grade lists
        Per query, the grades of ranker A's (B's) documents in ranked order
        (unjudged = 0).
    judged : sequence of grade lists, optional
        Per query, every judged grade (ranked by either ranker or not), for the
        "ideal from every judgment" choice; defaults to each ranking's own grades.
    k, gain, ideal, zero_idcg : the baseline choices (the first row of the result).

    Returns
    -------
    DataFrame
        One row per combination (baseline first): ``gain``, ``k`` (None = no
        cutoff), ``ideal``, ``zero_idcg``, ``mean_a``, ``mean_b``, ``winner``
        ("A", "B" or "tie" within ``tolerance``), ``queries_a`` / ``queries_b``
        (queries each wins), ``flips`` (winner differs from the baseline's) and
        ``changed`` (the choices that differ from the baseline).
    """
    if len(rankings_a) != len(rankings_b) or not rankings_a:
        raise InvalidInput("Give both rankers' lists for the same queries (at least one).")
    judged = judged if judged is not None else [None] * len(rankings_a)
    if len(judged) != len(rankings_a):
        raise InvalidInput("judged must have one list per query.")
    baseline = {"gain": gain, "k": check_k(k), "ideal": ideal, "zero_idcg": zero_idcg}
    cutoffs = list(dict.fromkeys([baseline["k"], 5, 10, None]))
    combos = [dict(zip(("gain", "k", "ideal", "zero_idcg"), values, strict=True))
              for values in itertools.product(CHOICES["gain"], cutoffs, CHOICES["ideal"], CHOICES["zero_idcg"])]
    combos.sort(key=lambda combo: combo != baseline)  # the baseline first
    rows = []
    for combo in combos:
        a = _scores(rankings_a, rankings_b, judged, combo, side=0)
        b = _scores(rankings_a, rankings_b, judged, combo, side=1)
        mean_a, mean_b = float(np.nanmean(a)), float(np.nanmean(b))
        rows.append({**combo, "mean_a": mean_a, "mean_b": mean_b, "winner": _winner(mean_a, mean_b, tolerance),
                     "queries_a": int((a > b + tolerance).sum()), "queries_b": int((b > a + tolerance).sum()),
                     "changed": ", ".join(name for name in baseline if combo[name] != baseline[name])})
    frame = pd.DataFrame(rows)
    frame["flips"] = frame["winner"] != frame["winner"].iloc[0]
    return frame


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
