"""Every combination of a diagnosis's search space evaluated at once, and the calculations they fall into.

:func:`evaluate_grid` broadcasts DCG (one cumulative sum per ranking x gain x discount) against IDCG (per ideal
source x gain x discount); combinations with bit-identical DCG and IDCG on the query form one *calculation*.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._search_space import SearchSpace


@dataclass(frozen=True)
class Grid:
    ndcg: np.ndarray  # flat, one entry per combination
    dcg: np.ndarray
    idcg: np.ndarray
    valid: np.ndarray
    group: np.ndarray  # calculation id: equal (DCG, IDCG, zero-rule-if-it-applies)
    coords: np.ndarray  # (combinations, 8) index of each dimension's value


def evaluate_grid(space: SearchSpace) -> Grid:
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
    group = row_groups(keys)
    coords = np.indices(shape).reshape(len(shape), -1).T
    return Grid(ndcg=ndcg, dcg=dcg_flat, idcg=idcg_flat, valid=valid, group=group.reshape(-1), coords=coords)


def row_groups(keys: np.ndarray) -> np.ndarray:
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


def close_to(values: np.ndarray, target: float, tolerance: float) -> np.ndarray:
    if math.isnan(target):
        return np.isnan(values)
    return np.abs(values - target) <= tolerance


def tie_order_range(space, grid: Grid, point: tuple, *, any_rule: bool = False) -> tuple[float, float] | None:
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
