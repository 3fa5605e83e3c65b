"""Classroom quiz: questions generated from a seed, answered and scored in the session.

The first half of this module is pure (no Streamlit): :func:`generate_quiz`
turns a seed into the same questions every time, with a numpy Generator, and
every correct answer comes from ``ndcg_core``. The second half draws a
question and records the answer.

Three kinds of question:

* ``"compare"``: which of two orderings of the same documents has the higher NDCG@k?
* ``"estimate"``: estimate NDCG@k of a list with a slider (scored by closeness).
* ``"reorder"``: drag the documents to reach the highest NDCG@k in as few moves as possible.
"""

from __future__ import annotations

import functools
import itertools
from bisect import bisect_left
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd
import streamlit as st

import ndcg_core

KINDS = ("compare", "estimate", "reorder")
KIND_TITLES = {
    "compare": "Which ranking is better?",
    "estimate": "Estimate NDCG",
    "reorder": "Fix the ranking",
}
QUESTIONS_PER_KIND = 2
MAX_SEED = 9_999  # four digits: easy to read out to a class
GAIN_FORMULAS = {"exponential": "2^grade − 1", "linear": "gain = grade"}
# Estimate questions: full marks within 0.05 of the true NDCG, half within 0.15.
ESTIMATE_FULL, ESTIMATE_HALF = 0.05, 0.15
SMALLEST_COMPARE_GAP = 0.02  # the two orderings of a compare question differ by at least this much


@dataclass(frozen=True)
class Question:
    """One quiz question. ``grades[j]`` is the grade of ``names[j]``; ``order`` lists the shown ranking."""

    number: int
    kind: str
    names: tuple[str, ...]
    grades: tuple[float, ...]
    k: int
    gain: str
    order: tuple[int, ...]
    other_order: tuple[int, ...] | None = None  # the second ranking of a compare question

    @property
    def title(self) -> str:
        return KIND_TITLES[self.kind]

    def convention(self) -> str:
        return f"{self.gain} gain ({GAIN_FORMULAS[self.gain]}), discount log₂(i + 1), cutoff k = {self.k}"

    def ranked_names(self, order: tuple[int, ...] | None = None) -> list[str]:
        return [self.names[j] for j in (self.order if order is None else order)]

    def ranked_grades(self, order: tuple[int, ...] | None = None) -> list[float]:
        return [self.grades[j] for j in (self.order if order is None else order)]

    def result(self, order: tuple[int, ...] | None = None) -> ndcg_core.ListResult:
        """ndcg_core's evaluation of a ranking (indices into ``names``; default: the shown order)."""
        return _evaluate(tuple(self.ranked_grades(order)), self.k, self.gain)

    def best_answer(self) -> str:
        """Compare: "A" or "B"."""
        if self.other_order is None:
            raise ValueError("only compare questions have two rankings")
        return "A" if self.result().ndcg > self.result(self.other_order).ndcg else "B"

    def fewest_moves(self) -> int:
        """Reorder: the fewest single moves (drag one document elsewhere) that reach the highest NDCG@k."""
        return fewest_moves_to_best(tuple(self.ranked_grades()), self.k, self.gain)


@functools.lru_cache(maxsize=4096)
def _evaluate(grades: tuple[float, ...], k: int, gain: str) -> ndcg_core.ListResult:
    return ndcg_core.evaluate(list(grades), k=k, gain=gain)


def moves_needed(permutation: list[int] | tuple[int, ...]) -> int:
    """Fewest moves (take one item out, insert it elsewhere) that turn 0..n-1 into ``permutation``.

    Items that never move keep their relative order, so the most that can stay
    is the longest increasing subsequence; every other item moves once.
    """
    tails: list[int] = []
    for value in permutation:
        slot = bisect_left(tails, value)
        if slot == len(tails):
            tails.append(value)
        else:
            tails[slot] = value
    return len(permutation) - len(tails)


@functools.lru_cache(maxsize=512)
def fewest_moves_to_best(grades: tuple[float, ...], k: int, gain: str) -> int:
    """Fewest moves from ``grades`` (ranked order) to any ordering with the highest NDCG@k.

    Brute force over all orderings (lists have at most 6 documents); each
    distinct grade sequence is evaluated once by ndcg_core.
    """
    best = _evaluate(tuple(sorted(grades, reverse=True)), k, gain).ndcg
    fewest = len(grades)
    for permutation in itertools.permutations(range(len(grades))):
        moves = moves_needed(permutation)
        if moves >= fewest:
            continue
        if _evaluate(tuple(grades[j] for j in permutation), k, gain).ndcg >= best - 1e-12:
            fewest = moves
    return fewest


def generate_quiz(seed: int) -> tuple[Question, ...]:
    """The questions for ``seed``: the same seed always gives the same questions."""
    rng = np.random.default_rng(seed)
    kinds = [kind for _ in range(QUESTIONS_PER_KIND) for kind in KINDS]
    return tuple(_make_question(rng, number, kind) for number, kind in enumerate(kinds, start=1))


def _make_question(rng: np.random.Generator, number: int, kind: str) -> Question:
    # Rejection sampling: draw until the question is a fair one. The draws come
    # from the seeded generator, so the outcome is still deterministic.
    while True:
        size = int(rng.integers(5, 7)) if kind != "estimate" else int(rng.integers(4, 7))
        grades = tuple(float(g) for g in rng.integers(0, 4, size))
        if max(grades) == 0 or len(set(grades)) < 2:
            continue
        names = tuple(f"D{j + 1}" for j in range(size))
        k = int(rng.integers(3, size + 1))
        gain = str(rng.choice(["exponential", "linear"]))
        order = tuple(int(j) for j in rng.permutation(size))
        question = Question(number=number, kind=kind, names=names, grades=grades, k=k, gain=gain, order=order)
        shown = question.result().ndcg
        if kind == "compare":
            other = tuple(int(j) for j in rng.permutation(size))
            question = replace(question, other_order=other)
            if abs(shown - question.result(other).ndcg) >= SMALLEST_COMPARE_GAP:
                return question
        elif kind == "estimate":
            if shown < 0.999:
                return question
        elif shown < 0.95 and question.fewest_moves() >= 2:
            return question


def estimate_points(guess: float, truth: float) -> float:
    """1 point within 0.05 of the true NDCG, ½ within 0.15, else 0."""
    error = abs(guess - truth)
    if error <= ESTIMATE_FULL + 1e-9:
        return 1.0
    if error <= ESTIMATE_HALF + 1e-9:
        return 0.5
    return 0.0


def reorder_points(reached_best: bool, moves: int, fewest: int) -> float:
    """1 point for the best NDCG in the fewest moves, ½ for the best NDCG in more moves, else 0."""
    if not reached_best:
        return 0.0
    return 1.0 if moves <= fewest else 0.5


def parse_seed(text: str | None) -> int | None:
    """A seed from the URL: digits only, 0..MAX_SEED; None when absent or malformed."""
    if text is None or not text.isdigit() or len(text) > 6:
        return None
    value = int(text)
    return value if value <= MAX_SEED else None


# --- Streamlit part ----------------------------------------------------------------------------------------

ANSWERS_KEY = "quiz_answers"  # {(seed, number): Answer}


@dataclass(frozen=True)
class Answer:
    """What the student answered and what it scored."""

    points: float
    verdict: str  # one line: "Correct", "Close", ...
    given: str  # the student's answer in words
    details: dict = field(default_factory=dict)


def session_answers() -> dict[tuple[int, int], Answer]:
    return st.session_state.setdefault(ANSWERS_KEY, {})


def session_score() -> tuple[float, int]:
    """(points, questions answered) over the whole session, all seeds included."""
    answers = session_answers().values()
    return sum(answer.points for answer in answers), len(answers)


def record_answer(seed: int, number: int, answer: Answer) -> None:
    session_answers()[(seed, number)] = answer


def _fmt(value: float) -> str:
    return f"{value:.3f}"


def ranking_frame(question: Question, order: tuple[int, ...] | None = None, *, with_numbers: bool = False) -> pd.DataFrame:
    """The ranking as a small table; ``with_numbers`` adds ndcg_core's per-position figures."""
    result = question.result(order)
    table = result.table
    frame = pd.DataFrame(
        {
            "Rank": table["rank"].astype(int),
            "Document": question.ranked_names(order),
            "Grade": table["relevance"].astype(int),
        }
    )
    if with_numbers:
        frame["Gain"] = table["gain"]
        frame["Discount log₂(i+1)"] = table["discount"].round(3)
        frame["Contribution"] = table["contribution"].round(3)
        frame["Counts (≤ k)"] = table["in_cutoff"].map({True: "yes", False: "no"})
    return frame


def why_text(question: Question, order: tuple[int, ...] | None = None, label: str = "") -> str:
    """'NDCG@3 = DCG@3 / IDCG@3 = 5.631 / 6.392 = 0.881' with ndcg_core's numbers."""
    result = question.result(order)
    k = question.k
    prefix = f"{label}: " if label else ""
    return (
        f"{prefix}NDCG@{k} = DCG@{k} / IDCG@{k} = {_fmt(result.dcg)} / {_fmt(result.idcg)} = {_fmt(result.ndcg)}"
    )
