"""The named results of id encoding: :class:`QueryCodes`, :class:`DocCodes` and :class:`EncodedIds`.

Kept apart from the encoders (:mod:`ndcg_core._encode`, :mod:`ndcg_core._categorical_codes`) so that both
can build them without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class QueryCodes:
    """Integer codes of the query ids of the run rows and of the judgments."""

    run: np.ndarray
    judged: np.ndarray
    names: np.ndarray  # the id of each code (object array)
    run_starts: np.ndarray | None  # first row of each query block when the run is grouped by query, else None
    name_index: pd.Index | None  # the names as a text Index, when at hand without work


@dataclass(frozen=True)
class DocCodes:
    """Integer codes of the document ids of the run rows and of the judgments (``n_docs`` codes in all)."""

    run: np.ndarray
    judged: np.ndarray
    n_docs: int


@dataclass(frozen=True)
class EncodedIds:
    """Query and document codes of a run and its judgments."""

    query: QueryCodes
    doc: DocCodes

    @property
    def n_queries(self) -> int:
        return self.query.names.size
