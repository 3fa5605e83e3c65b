"""The quiz's model, with no Streamlit: questions generated from a seed, their answers, and scoring.

:func:`generate_quiz` turns a seed into the same questions every time (a numpy Generator seeded with it), and
every correct answer comes from ``ndcg_core``: the NDCG@k of an ordering is ``ndcg_core.evaluate`` of its
grades, and the best NDCG@k any ordering reaches is that of the core's ideal list (``ListResult.ideal_relevances``).

Three kinds of question:

* ``"compare"``: which of two orderings of the same documents has the higher NDCG@k?
* ``"estimate"``: estimate NDCG@k of a list with a slider (scored by closeness).
* ``"reorder"``: drag the documents to reach the highest NDCG@k in as few moves as possible.

Every question states its own convention (gain, log₂ discount, cutoff k); the sidebar does not change it.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

import ndcg_core
from ui.formatting import cutoff_words, discount_words, fixed, gain_words
from ui.moves import moves_needed

KINDS = ("compare", "estimate", "reorder")
KIND_TITLES = {
    "compare": "Which ranking is better?",
    "estimate": "Estimate NDCG",
    "reorder": "Fix the ranking",
}
QUESTIONS_PER_KIND = 2
MAX_SEED = 9_999  # four digits: easy to read out to a class
# Estimate questions: full marks within 0.05 of the true NDCG, half within 0.15.
ESTIMATE_FULL, ESTIMATE_HALF = 0.05, 0.15
ESTIMATE_STEP = 0.01  # the estimate slider's step: an estimate is a whole number of these
SMALLEST_COMPARE_GAP = 0.02  # the two orderings of a compare question differ by at least this much
LOG_BASE = "2"  # every question uses the log₂ discount


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
    # Reorder questions: the fewest moves to the highest NDCG@k and one ordering reaching it in that many,
    # found once when the question is drawn (a brute force over every ordering).
    fewest: int | None = None
    fix: tuple[int, ...] | None = None

    @property
    def title(self) -> str:
        return KIND_TITLES[self.kind]

    def convention(self) -> str:
        """'linear gain: gain = grade · discount log₂(i + 1) · k = 3': the words every page uses."""
        return f"{gain_words(self.gain)} · discount {discount_words(LOG_BASE)} · cutoff {cutoff_words(self.k)}"

    def ranked_names(self, order: tuple[int, ...] | None = None) -> list[str]:
        return [self.names[j] for j in (self.order if order is None else order)]

    def ranked_grades(self, order: tuple[int, ...] | None = None) -> list[float]:
        return [self.grades[j] for j in (self.order if order is None else order)]

    def result(self, order: tuple[int, ...] | None = None) -> ndcg_core.ListResult:
        """ndcg_core's evaluation of a ranking (indices into ``names``; default: the shown order)."""
        return _evaluate(self.ranked_grades(order), self.k, self.gain)

    def best_ndcg(self) -> float:
        """The highest NDCG@k any ordering of these documents reaches: that of ndcg_core's ideal list."""
        return _evaluate(self.result().ideal_relevances, self.k, self.gain).ndcg

    def best_answer(self) -> str:
        """Compare: "A" or "B"."""
        if self.other_order is None:
            raise ValueError("only compare questions have two rankings")
        return "A" if self.result().ndcg > self.result(self.other_order).ndcg else "B"

    def fewest_moves(self) -> int:
        """Reorder: the fewest single moves (drag one document elsewhere) that reach the highest NDCG@k."""
        return self.fewest if self.fewest is not None else self.solved().fewest

    def shortest_fix(self) -> tuple[int, ...]:
        """Reorder: one ordering (indices into ``names``) with the highest NDCG@k, reached in the fewest moves."""
        return self.fix if self.fix is not None else self.solved().fix

    def solved(self) -> Question:
        """This question with ``fewest`` and ``fix`` filled in (the brute force of :func:`best_reordering`)."""
        fewest, winner = best_reordering(tuple(self.ranked_grades()), self.k, self.gain)
        return replace(self, fewest=fewest, fix=tuple(self.order[j] for j in winner))


def _evaluate(grades, k: int, gain: str) -> ndcg_core.ListResult:
    return ndcg_core.evaluate(list(grades), k=k, gain=gain)


def fewest_moves_to_best(grades: tuple[float, ...], k: int, gain: str) -> int:
    """Fewest moves from ``grades`` (ranked order) to any ordering with the highest NDCG@k."""
    return best_reordering(grades, k, gain)[0]


def best_reordering(grades: tuple[float, ...], k: int, gain: str) -> tuple[int, tuple[int, ...]]:
    """(fewest moves, one permutation reaching the highest NDCG@k in that many moves).

    Brute force over all orderings (lists have at most 6 documents); each distinct grade sequence is
    evaluated once by ndcg_core (the memo lives for this call only). The target is the NDCG@k of the core's
    ideal list.
    """
    ndcg_of: dict[tuple[float, ...], float] = {}

    def ndcg(sequence: tuple[float, ...]) -> float:
        if sequence not in ndcg_of:
            ndcg_of[sequence] = _evaluate(sequence, k, gain).ndcg
        return ndcg_of[sequence]

    best = ndcg(tuple(_evaluate(grades, k, gain).ideal_relevances))
    fewest, winner = len(grades) + 1, tuple(range(len(grades)))
    for permutation in itertools.permutations(range(len(grades))):
        moves = moves_needed(permutation)
        if moves >= fewest:
            continue
        if ndcg(tuple(grades[j] for j in permutation)) >= best - 1e-12:
            fewest, winner = moves, permutation
    return fewest, winner


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
        elif shown < 0.95:
            question = question.solved()
            if question.fewest >= 2:
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
    """A seed from the URL: ASCII digits only ('²'.isdigit() is True, int('²') fails), 0..MAX_SEED; else None."""
    if not isinstance(text, str) or not text.isascii() or not text.isdigit() or len(text) > 6:
        return None
    value = int(text)
    return value if value <= MAX_SEED else None


def fresh_seed(avoid: int | None = None) -> int:
    """A new random seed (different from ``avoid``)."""
    rng = np.random.default_rng()
    while True:
        seed = int(rng.integers(0, MAX_SEED + 1))
        if seed != avoid:
            return seed


@dataclass(frozen=True)
class Answer:
    """What the student answered and what it scored."""

    points: float
    verdict: str  # one line: "Correct", "Close", ...
    given: str  # the student's answer in words
    details: dict = field(default_factory=dict)


def is_best(question: Question, order: tuple[int, ...]) -> bool:
    """Whether ``order`` reaches the highest NDCG@k of the question's documents."""
    return question.result(order).ndcg >= question.best_ndcg() - 1e-12


def in_dcg_column(k: int) -> str:
    """The header of the column that marks the rows past k: "In DCG@4". Only DCG@k leaves them out (the ideal list
    still takes their grades), so the header names DCG@k, not "counts"."""
    return f"In DCG@{k}"


def ranking_frame(question: Question, order: tuple[int, ...] | None = None, *, with_numbers: bool = False) -> pd.DataFrame:
    """The ranking as a small table; ``with_numbers`` adds ndcg_core's per-position figures.

    "In DCG@k" (yes / no, with k's value) is there with the figures, and whenever a rank lies past k: the rows past
    k are also greyed, but a colour is not read out, and a screen reader heard them as rows like the others. It was
    "Counts (≤ k)", whose "no" was false for IDCG@k: a row past k adds nothing to DCG@k, but its grade still goes
    into the ideal list (seed 9269: D3's grade 3, past k = 4, is in IDCG@4 = 6.754)."""
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
    if with_numbers or not table["in_cutoff"].all():
        frame[in_dcg_column(question.k)] = table["in_cutoff"].map({True: "yes", False: "no"})
    return frame


def why_text(question: Question, order: tuple[int, ...] | None = None, label: str = "") -> str:
    """'NDCG@3 = DCG@3 / IDCG@3 = 5.631 / 6.392 = 0.881' with ndcg_core's numbers."""
    result = question.result(order)
    k = question.k
    prefix = f"{label}: " if label else ""
    return (
        f"{prefix}NDCG@{k} = DCG@{k} / IDCG@{k} = {fixed(result.dcg, 3)} / {fixed(result.idcg, 3)} = {fixed(result.ndcg, 3)}"
    )


def answer_summary(question: Question) -> str:
    """The correct answer in one line, with ndcg_core's numbers (for the teacher's 'show answers')."""
    if question.kind == "compare":
        return (f"Ranking {question.best_answer()}. " + why_text(question, question.order, "A") + "; "
                + why_text(question, question.other_order, "B") + ".")
    if question.kind == "estimate":
        return why_text(question) + "."
    shortest = question.shortest_fix()
    best_order = ", ".join(question.ranked_names(shortest))
    return f"{question.fewest_moves()} moves, e.g. to {best_order}: " + why_text(question, shortest) + "."

