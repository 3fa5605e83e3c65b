"""Live activities: specs built by the quiz generator, server-side scoring, misconceptions, worked answers.

Every number comes from ``ndcg_core`` (through the quiz's :class:`Question`, whose ``result`` calls
``ndcg_core.evaluate``); nothing here recomputes a gain, a discount, an ideal order or a cutoff.

Kinds (the quiz's three question types, each one live activity):

* ``"estimate"`` - predict NDCG@k of a projected ranking with a slider. Answer ``{"value": v}``; 1 point
  within 0.05 of the truth, ½ within 0.15 (the quiz's rule); distribution in bins of 0.05.
* ``"compare"`` - which of rankings A and B (same documents and grades) has the higher NDCG@k.
  Answer ``{"choice": "A" | "B"}``.
* ``"reorder"`` - drag the list to the highest NDCG@k in as few moves as possible. Answer
  ``{"order": [indices into the names, top first], "moves": m}``. The moves counted are
  ``max(m, fewest moves from the shown order to that order)``, so a client cannot claim fewer than it
  needed; 1 point for the best NDCG in the fewest moves, ½ for the best in more (the quiz's rule).
"""

from __future__ import annotations

import numpy as np

import ndcg_core
from ui.moves import moves_needed
from ui.quiz_model import (
    ESTIMATE_FULL,
    KIND_TITLES,
    Question,
    estimate_points,
    generate_quiz,
    is_best,
    reorder_points,
)

KINDS = ("estimate", "compare", "reorder")
TITLES = {**KIND_TITLES, "estimate": "Predict the NDCG"}
BIN = 0.05  # estimate answers are shown in bins of this width


def spec_of(question: Question, *, seed: int) -> dict:
    """The JSON-able spec stored for an activity made from a quiz question."""
    return {"names": list(question.names), "grades": list(question.grades), "k": question.k, "gain": question.gain,
            "order": list(question.order),
            "other_order": None if question.other_order is None else list(question.other_order),
            # Reorder: the quiz's solution, found when the question was drawn (so no answer re-solves it).
            "fewest": question.fewest, "fix": None if question.fix is None else list(question.fix),
            "seed": seed, "number": question.number}


def question_of(kind: str, spec: dict) -> Question:
    other, fix = spec.get("other_order"), spec.get("fix")
    return Question(number=int(spec.get("number", 1)), kind=kind, names=tuple(spec["names"]),
                    grades=tuple(float(g) for g in spec["grades"]), k=int(spec["k"]), gain=str(spec["gain"]),
                    order=tuple(int(j) for j in spec["order"]), other_order=None if other is None else tuple(other),
                    fewest=spec.get("fewest"), fix=None if fix is None else tuple(fix))


def generate(kind: str, *, seed: int, variant: int = 0) -> dict:
    """The spec of a ``kind`` activity from quiz seed ``seed`` (the quiz has two questions per kind)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}")
    of_kind = [q for q in generate_quiz(seed) if q.kind == kind]
    return spec_of(of_kind[variant % len(of_kind)], seed=seed)


def quiz_specs(seed: int) -> list[tuple[str, dict]]:
    """All the questions of quiz seed ``seed``, in the quiz's order, as (kind, spec)."""
    return [(q.kind, spec_of(q, seed=seed)) for q in generate_quiz(seed)]


def truth(kind: str, spec: dict) -> float:
    """NDCG@k of the shown ranking (estimate and reorder: the starting list; compare: ranking A)."""
    return question_of(kind, spec).result().ndcg


def _valid_order(order: object, size: int) -> tuple[int, ...] | None:
    if not isinstance(order, list | tuple) or len(order) != size:
        return None
    if not all(isinstance(j, int) and not isinstance(j, bool) for j in order) or sorted(order) != list(range(size)):
        return None
    return tuple(order)


def score(kind: str, spec: dict, answer: dict) -> tuple[str, float, bool]:
    """(distribution label, points, correct) of an answer; raises ValueError for a malformed answer."""
    question = question_of(kind, spec)
    if kind == "estimate":
        value = answer.get("value")
        if not isinstance(value, int | float) or not 0.0 <= float(value) <= 1.0:
            raise ValueError("an estimate is a number from 0 to 1")
        points = estimate_points(float(value), question.result().ndcg)
        return f"{round(float(value) / BIN) * BIN:.2f}", points, points == 1.0
    if kind == "compare":
        choice = answer.get("choice")
        if choice not in ("A", "B"):
            raise ValueError("the answer is A or B")
        right = choice == question.best_answer()
        return choice, 1.0 if right else 0.0, right
    if kind == "reorder":
        order = _valid_order(answer.get("order"), len(question.names))
        if order is None:
            raise ValueError("the answer is an order of the shown documents")
        moves = _moves(question, order, answer)
        reached = question.result(order).ndcg
        best = is_best(question, order)
        points = reorder_points(best, moves, question.fewest_moves())
        label = (f"best in {moves} move{'s' if moves != 1 else ''}" if best else f"NDCG {reached:.2f}")
        return label, points, points == 1.0
    raise ValueError(f"unknown activity kind {kind!r}")


def _moves(question: Question, order: tuple[int, ...], answer: dict) -> int:
    """The moves an order took: as the phone counted them, and never fewer than it needs."""
    return max(_int(answer.get("moves")), moves_needed([question.order.index(j) for j in order]))


def unrevealed_label(kind: str, spec: dict, answer: dict, label: str) -> str:
    """An answer's bar before the reveal: its label, except a reorder's, which said "best in 2 moves" or "NDCG 0.93"
    on the projected chart while the class was still answering; the moves it took say nothing right or wrong."""
    if kind != "reorder":
        return label
    question = question_of(kind, spec)
    order = _valid_order(answer.get("order"), len(question.names))
    moves = 0 if order is None else _moves(question, order, answer)
    return f"{moves} move{'s' if moves != 1 else ''}"


def answer_words(kind: str, spec: dict, answer: dict) -> str:
    """An answer as the teacher reads it in the CSV export: "0.57", "Ranking A", or a reorder's order by the documents'
    names with its moves ("D2, D3, D1, D5, D4 (3 moves)"); the stored answer holds indices into the spec's names,
    ``{"order": [1, 2, 0, 4, 3], "moves": 3}``, which no one can read without the spec."""
    if kind == "estimate":
        value = answer.get("value")
        return f"{float(value):.2f}" if isinstance(value, int | float) else ""
    if kind == "compare":
        return f"Ranking {answer['choice']}" if answer.get("choice") in ("A", "B") else ""
    question = question_of(kind, spec)
    order = _valid_order(answer.get("order"), len(question.names))
    if order is None:
        return ""
    moves = _moves(question, order, answer)
    return f"{', '.join(question.ranked_names(order))} ({moves} move{'s' if moves != 1 else ''})"


def _int(value: object) -> int:
    return int(value) if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10_000 else 0


def _other_gain(gain: str) -> str:
    return "linear" if gain == "exponential" else "exponential"


def misconception(kind: str, spec: dict, answer: dict) -> str | None:
    """What a wrong answer suggests the student did, or None when no single slip explains it.

    Each candidate slip is evaluated with ndcg_core and must predict the answer *better* than the truth:
    order ignored (CG@k / ideal CG@k instead of NDCG), cutoff ignored (NDCG over the whole list), the
    other gain, no normalisation (DCG@k read as NDCG), or (compare) judging by the top document alone.
    """
    question = question_of(kind, spec)
    k, gain = question.k, question.gain
    if kind == "estimate":
        value, true = float(answer.get("value", -1)), question.result().ndcg
        slips = _estimate_slips(question)
        near = [(abs(value - guess), text) for guess, text in slips
                if abs(guess - true) > ESTIMATE_FULL and abs(value - guess) <= BIN and abs(value - guess) < abs(value - true)]
        return min(near)[1] if near else None
    if kind == "compare":
        chosen = answer.get("choice")
        if chosen not in ("A", "B") or chosen == question.best_answer():
            return None
        mine, theirs = ((question.order, question.other_order) if chosen == "A" else (question.other_order, question.order))
        grades = (question.ranked_grades(mine), question.ranked_grades(theirs))
        tests = [
            (lambda g: ndcg_core.evaluate(g, k=k, gain=gain).cg, "answered as if order did not matter: that is CG, not DCG"),
            (lambda g: ndcg_core.evaluate(g, gain=gain).ndcg, f"counted positions past the cutoff k = {k}"),
            (lambda g: ndcg_core.evaluate(g, k=k, gain=_other_gain(gain)).ndcg, f"used {_other_gain(gain)} gain instead of {gain}"),
            (lambda g: g[0], "looked only at the top document"),
        ]
        for measure, text in tests:
            if measure(grades[0]) > measure(grades[1]) + 1e-12:
                return text
        return None
    if kind == "reorder":
        order = _valid_order(answer.get("order"), len(question.names))
        if order is None:
            return None
        if is_best(question, order):
            # Below the cutoff only when the order itself shows it: documents there out of their starting order,
            # in an order that needs more moves than the fewest (a detour that ends in a shortest fix is not it).
            below = [question.order.index(j) for j in order[k:]]
            if below != sorted(below) and moves_needed([question.order.index(j) for j in order]) > question.fewest_moves():
                return f"reached the best NDCG, but also moved documents below the cutoff k = {k}: their order does not count"
            return "reached the best NDCG in more moves than needed"
        top = sorted(question.ranked_grades(order)[:k])
        ideal_top = sorted(float(g) for g in question.result().ideal_relevances[:k])
        if top == ideal_top:
            # Name the pair out of order (it said "the discount rewards the highest grade at rank 1" to a student
            # who had put a grade 3 at rank 1 and left the other grade 3 at rank 6).
            shown = [float(g) for g in question.ranked_grades(order)[:k]]
            later = next(j for j in range(len(shown)) if any(shown[i] < shown[j] for i in range(j)))
            earlier = next(i for i in range(later) if shown[i] < shown[later])
            pair = (f"the grade-{shown[later]:g} document at rank {later + 1} belongs above the grade-"
                    f"{shown[earlier]:g} one at rank {earlier + 1} (each rank down divides a gain by more)")
            if k >= len(question.names):  # a cutoff past the list cuts nothing: every document is "right"
                return f"not in the best order: {pair}"
            return f"the right documents above the cutoff, but not in the best order: {pair}"
        return f"a higher grade left below the cutoff: only the top k = {k} positions count"
    return None


def _estimate_slips(question: Question) -> list[tuple[float, str]]:
    k, gain, grades = question.k, question.gain, question.ranked_grades()
    result = question.result()
    ideal = ndcg_core.evaluate(list(result.ideal_relevances), k=k, gain=gain)
    slips = [
        (result.cg / ideal.cg if ideal.cg else 0.0, "answered as if order did not matter: that is CG, not DCG"),
        (ndcg_core.evaluate(grades, k=k, gain=_other_gain(gain)).ndcg, f"used {_other_gain(gain)} gain instead of {gain}"),
    ]
    if k < len(grades):
        slips.append((ndcg_core.evaluate(grades, gain=gain).ndcg, f"ignored the cutoff: NDCG of all {len(grades)} positions, not @{k}"))
    if result.dcg <= 1.0:
        slips.append((result.dcg, f"forgot to divide by IDCG@{k}: that is DCG, not NDCG"))
    return slips


def most_common_wrong(kind: str, spec: dict, rows: list) -> list[tuple[str, int, str | None]]:
    """(label, how many, misconception) of the most frequent wrong answer among ``rows`` (store.Answer): every
    label tied for the most, those a known slip explains first (a 1-1 tie was settled by the labels' sort, and
    showed "no single slip" while the other answer fitted one). Empty when no answer is wrong."""
    wrong = [row for row in rows if not row.correct]
    if not wrong:
        return []
    labels, counts = np.unique([row.label for row in wrong], return_counts=True)
    tied = [str(label) for label, count in zip(labels, counts, strict=True) if count == counts.max()]
    found = [(label, int(counts.max()), misconception(kind, spec, next(row for row in wrong if row.label == label).answer))
             for label in tied]
    return sorted(found, key=lambda entry: entry[2] is None)  # stable: in label order within each group


def correct_answer(kind: str, spec: dict) -> str:
    """The right answer in words, with ndcg_core's numbers."""
    question = question_of(kind, spec)
    if kind == "estimate":
        return f"NDCG@{question.k} = {question.result().ndcg:.3f}"
    if kind == "compare":
        return f"Ranking {question.best_answer()}"
    best = question.ranked_names(question.shortest_fix())
    return f"{', '.join(best)} (NDCG@{question.k} = {question.best_ndcg():.3f}, {question.fewest_moves()} moves)"


def worked(question: Question, order: tuple[int, ...] | None = None) -> list[str]:
    """The calculation written out with ndcg_core's per-position figures: DCG@k, IDCG@k, NDCG@k."""
    result = question.result(order)
    table = result.table[result.table["in_cutoff"]]
    k = question.k
    dcg_terms = " + ".join(f"{g:g}/{d:.3f}" for g, d in zip(table["gain"], table["discount"], strict=True))
    idcg_terms = " + ".join(f"{g:g}/{d:.3f}" for g, d in zip(table["ideal_gain"], table["discount"], strict=True))
    gain_rule = "gain = 2^grade − 1" if question.gain == "exponential" else "gain = grade"
    return [
        f"{gain_rule}; discount = log₂(rank + 1); only ranks 1..{k} count.",
        f"DCG@{k} = {dcg_terms} = {result.dcg:.3f}",
        f"IDCG@{k} (grades sorted best first: {', '.join(f'{g:g}' for g in result.ideal_relevances)}) = {idcg_terms} = {result.idcg:.3f}",
        f"NDCG@{k} = {result.dcg:.3f} / {result.idcg:.3f} = {result.ndcg:.3f}",
    ]
