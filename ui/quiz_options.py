"""Every option of an answered quiz question explained, right or wrong (no Streamlit; drawn by ui/quiz_whys.py).

Compare questions: both rankings, each with its NDCG@k and why it wins or loses. Estimate questions: the answer
and the values the common slips give (the discount, the cutoff or the gain forgotten), each with its slip. Every
value is an ``ndcg_core`` result.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import ndcg_core
from ui.formatting import fixed, gain_words
from ui.quiz_model import Question, _evaluate


@dataclass(frozen=True)
class OptionWhy:
    """One option of an answered question: its label, its value, whether it is right, and the one-line why."""

    label: str
    value: float
    correct: bool
    why: str


def _grades_words(grades) -> str:
    return ", ".join(f"{g:g}" for g in grades)


def compare_whys(question: Question) -> list[OptionWhy]:
    """Rankings A and B, each with its NDCG@k and why it wins or loses, from ndcg_core's per-position table.

    The reason names the first counted rank where the two rankings' grades differ, and whether that first
    difference decided it or was outweighed further down (the discounted gains that follow).
    """
    k = question.k
    orders = {"A": question.order, "B": question.other_order}
    results = {label: question.result(order) for label, order in orders.items()}
    grades = {label: question.ranked_grades(order)[:k] for label, order in orders.items()}
    best = question.best_answer()
    first = next((i for i in range(min(k, len(question.names))) if grades["A"][i] != grades["B"][i]), None)
    whys = []
    for label, other in (("A", "B"), ("B", "A")):
        mine, theirs = results[label], results[other]
        head = f"top {k} grades {_grades_words(grades[label])}, DCG@{k} {fixed(mine.dcg, 3)} vs {fixed(theirs.dcg, 3)}"
        if first is None:
            reason = f"{head}: the counted positions hold the same grades."
        else:
            ahead = grades[label][first] > grades[other][first]
            if label == best:
                reason = (f"{head}. At rank {first + 1} it has grade {grades[label][first]:g} where {other} has "
                          f"{grades[other][first]:g}" + (": a larger gain at a smaller discount, and it keeps the lead."
                                                         if ahead else ", but the ranks below make up for it."))
            else:
                reason = (f"{head}. At rank {first + 1} it has grade {grades[label][first]:g} where {other} has "
                          f"{grades[other][first]:g}" + (", but it loses more further down." if ahead
                                                         else ": its better documents sit lower, where the discount is larger."))
        whys.append(OptionWhy(f"Ranking {label}", mine.ndcg, label == best,
                              f"NDCG@{k} = {fixed(mine.ndcg, 3)}; {reason}"))
    return whys


def estimate_whys(question: Question) -> list[OptionWhy]:
    """The answer and the tempting wrong ones an estimate suggests, each with the slip that produces it.

    All from ndcg_core: NDCG@k itself; CG@k over the ideal CG@k (the discount forgotten); NDCG of the whole list
    (the cutoff forgotten); NDCG@k under the other gain (linear and exponential gain swapped).
    """
    k, gain = question.k, question.gain
    grades = question.ranked_grades()
    result = question.result()
    ideal_cg = _evaluate(result.ideal_relevances, k, gain).cg
    other_gain = "linear" if gain == "exponential" else "exponential"
    options = [
        OptionWhy(f"NDCG@{k}", result.ndcg, True, f"DCG@{k} / IDCG@{k} = {fixed(result.dcg, 3)} / "
                                                 f"{fixed(result.idcg, 3)}: the answer."),
        OptionWhy("No discount", result.cg / ideal_cg if ideal_cg else 0.0, False,
                  f"CG@{k} / ideal CG@{k} = {fixed(result.cg, 3)} / {fixed(ideal_cg, 3)}: forgets that lower ranks "
                  "count less (each gain is divided by log₂(i + 1))."),
        OptionWhy("No cutoff", ndcg_core.evaluate(list(grades), gain=gain).ndcg, False,
                  f"NDCG of all {len(grades)} positions: forgets that only the top {k} count."),
        OptionWhy(f"{other_gain.capitalize()} gain", _evaluate(grades, k, other_gain).ndcg, False,
                  f"NDCG@{k} with {gain_words(other_gain)}: the question uses {gain_words(gain)}."),
    ]
    # A slip that lands on the answer is not a wrong option (it showed as ❌ next to the student's right value): the
    # answer says which slips give the same figure here.
    same = [option.label.lower() for option in options if not option.correct and abs(option.value - result.ndcg) < 5e-4]
    answer = options[0]
    if same:
        answer = replace(answer, why=answer.why + f" ({' and '.join(same).capitalize()} would give the same here.)")
    return [answer, *(option for option in options[1:] if option.label.lower() not in same)]


def nearest_option(options: list[OptionWhy], guess: float) -> OptionWhy:
    """The option closest to a guess (the slip the guess most likely made; the answer on a tie)."""
    return min(options, key=lambda option: (round(abs(option.value - guess), 9), not option.correct))
