"""The model of "a ranking with extra judged documents": what the Playground edits and other pages open.

Pure data (no Streamlit): names and grades in ranked order, plus judged documents the ranker did not return.
Every figure is computed by ``ndcg_core.evaluate`` on :meth:`Ranking.ideal_relevances`; this module never
sorts, cuts or scores anything itself. (Seam for the core's ``ranked_query``: when it lands, ``evaluate``
below is the one place to build on it.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

import ndcg_core


@dataclass(frozen=True)
class Ranking:
    """Documents in ranked order with their grades, plus judged documents that are not ranked.

    ``tie_groups`` (one label per ranked document, or None) marks documents whose scores tied in the run
    this list was opened from, under the "average" tie rule: ``ndcg_core.evaluate`` averages their gains, so
    the Playground shows the Dataset's figure. Any reorder or edit gives a plain list (None).
    """

    names: tuple[str, ...]
    grades: tuple[float, ...]
    extra_names: tuple[str, ...] = ()
    extra_grades: tuple[float, ...] = ()
    tie_groups: tuple[int, ...] | None = None

    def ideal_relevances(self) -> list[float]:
        """Every judged grade: the ranked ones and the extra ones (what IDCG is computed from)."""
        return list(self.grades) + list(self.extra_grades)

    def reordered(self, perm: Sequence[int]) -> Ranking:
        """The ranking with position i holding the document that was at ``perm[i]``."""
        return Ranking(
            tuple(self.names[i] for i in perm), tuple(self.grades[i] for i in perm), self.extra_names, self.extra_grades
        )

    def without_extra(self) -> Ranking:
        """The same ranked documents with no extra judged ones (the ideal list from the ranking alone)."""
        return Ranking(self.names, self.grades, tie_groups=self.tie_groups)


# 000_0bdd5abdb117b00b.txt: "rank a list of 5 documents with grades G = [3, 1, 2, 0, 2]".
DEFAULT_RANKING = Ranking(names=("D1", "D2", "D3", "D4", "D5"), grades=(3.0, 1.0, 2.0, 0.0, 2.0))


def make_ranking(names, grades, extra_names=(), extra_grades=(), tie_groups=None) -> Ranking:
    """A Ranking from any sequences (grades become floats)."""
    return Ranking(
        tuple(str(n) for n in names), tuple(float(g) for g in grades),
        tuple(str(n) for n in extra_names), tuple(float(g) for g in extra_grades),
        None if tie_groups is None else tuple(int(g) for g in tie_groups),
    )


def evaluate(ranking: Ranking, **options) -> ndcg_core.ListResult:
    """``ndcg_core.evaluate`` of the ranking, its ideal list from every judged grade (``options``: k, gain...)."""
    return ndcg_core.evaluate(
        np.asarray(ranking.grades, dtype=float),
        ideal_relevances=np.asarray(ranking.ideal_relevances(), dtype=float),
        tie_groups=ranking.tie_groups, **options,
    )


def repeated_names(names: Sequence[str]) -> dict[str, list[int]]:
    """Each name given to more than one document, with its 1-based positions (in the order the names first appear).

    The list, chart and formula tell documents apart by name, and trec_eval orders tied scores by document id: two
    documents with one name have no order there (the Playground warns; the Why and Conventions pages refuse).
    """
    positions: dict[str, list[int]] = {}
    for position, name in enumerate(names, start=1):
        positions.setdefault(name, []).append(position)
    return {name: at for name, at in positions.items() if len(at) > 1}


def first_repeated_name(names: Sequence[str]) -> tuple[str, int, int] | None:
    """The name seen a second time earliest, with its first and second positions (1-based), or None."""
    repeated = repeated_names(names)
    if not repeated:
        return None
    name, at = min(repeated.items(), key=lambda item: item[1][1])
    return name, at[0], at[1]
