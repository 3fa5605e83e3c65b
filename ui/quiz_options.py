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


def _ranks_words(ranks: list[int]) -> str:
    """1-based ranks as words: "2", "2 and 4", "2, 4 and 5"."""
    words = [str(rank + 1) for rank in ranks]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _race_words(label: str, other: str, grades: dict, running: dict, *, won: bool) -> str:
    """Where ``label`` is ahead of ``other`` in running DCG, rank by rank, and where the winner took the lead for
    good (its grade there is higher: the same discount, a larger gain)."""
    mine, theirs = running[label], running[other]
    ahead = [i for i in range(len(mine)) if mine[i] > theirs[i]]
    behind = [i for i in range(len(mine)) if mine[i] < theirs[i]]
    winner, loser = (label, other) if won else (other, label)
    # The winner is ahead from this rank to the last counted one, and was not just before it.
    not_ahead = [i for i in range(len(mine)) if not running[winner][i] > running[loser][i]]
    settled = not_ahead[-1] + 1 if not_ahead else 0
    at = (f"rank {settled + 1} (grade {grades[winner][settled]:g} against {grades[loser][settled]:g}; running DCG "
          f"{fixed(running[winner][settled], 3)} against {fixed(running[loser][settled], 3)})")
    if won and not behind:
        return f"it is ahead in running DCG from {at} down to the last counted rank, and never behind."
    if won:
        return (f"{other} is ahead in running DCG at {'rank' if len(behind) == 1 else 'ranks'} {_ranks_words(behind)}; "
                f"{label} takes the lead for good at {at}.")
    if not ahead:
        return f"it is never ahead in running DCG: {other} leads from {at} on."
    return (f"it is ahead in running DCG at {'rank' if len(ahead) == 1 else 'ranks'} {_ranks_words(ahead)}, but "
            f"{other} takes the lead for good at {at}.")


def compare_whys(question: Question) -> list[OptionWhy]:
    """Rankings A and B, each with its NDCG@k and why it wins or loses, from ndcg_core's per-position table.

    Both rankings hold the same documents, so they share IDCG@k and the one with the larger DCG@k wins. The
    reason follows the running DCG (``cumulative_dcg``) rank by rank: where each ranking is ahead, and the rank
    from which the winner stays ahead to the cutoff.
    """
    k = question.k
    orders = {"A": question.order, "B": question.other_order}
    results = {label: question.result(order) for label, order in orders.items()}
    counted = min(k, len(question.names))
    grades = {label: question.ranked_grades(order)[:counted] for label, order in orders.items()}
    running = {label: result.table["cumulative_dcg"].to_numpy()[:counted] for label, result in results.items()}
    best = question.best_answer()
    whys = []
    for label, other in (("A", "B"), ("B", "A")):
        mine, theirs = results[label], results[other]
        head = f"top {k} grades {_grades_words(grades[label])}, DCG@{k} {fixed(mine.dcg, 3)} vs {fixed(theirs.dcg, 3)}"
        if grades[label] == grades[other]:
            reason = f"{head}: the counted positions hold the same grades."
        else:
            reason = f"{head}; " + _race_words(label, other, grades, running, won=label == best)
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
