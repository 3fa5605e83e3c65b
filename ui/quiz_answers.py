"""A quiz answer scored, and as the address keeps it (no Streamlit here).

Each kind of question has one function that scores what the student gave (the Check buttons and a reopened
address both call it, so an answer read back scores as it did when checked) and records, in ``details["link"]``,
the answer's text in the address: ``B`` (the ranking chosen), ``0.62`` (the estimate), ``2,1,0,4,3/5`` (the order
reached, as rows of the question's list, and the moves it took), beside the values themselves (``choice``, or
``order`` and ``moves``). :func:`answer_from_link` reads that text back.
"""

from __future__ import annotations

from ui.formatting import fixed
from ui.moves import moves_needed
from ui.quiz_model import ESTIMATE_STEP, Answer, Question, estimate_points, is_best, reorder_points
from ui.url_codecs import decode_order, encode_order
from ui.url_rules import LinkError, format_number, parse_int, parse_number

MAX_MOVES = 10_000


def compare_answer(question: Question, chosen: str) -> Answer:
    right = chosen == question.best_answer()
    return Answer(1.0 if right else 0.0, "Correct!" if right else "Not quite.", f"Ranking {chosen}",
                  {"link": chosen, "choice": chosen})


def estimate_answer(question: Question, guess: float) -> Answer:
    points = estimate_points(guess, question.result().ndcg)
    verdict = {1.0: "Spot on!", 0.5: "Close.", 0.0: "Not quite."}[points]
    return Answer(points, verdict, fixed(guess, 2), {"link": format_number(guess)})


def reorder_answer(question: Question, order: tuple[int, ...], moves: int) -> Answer:
    points = reorder_points(is_best(question, order), moves, question.fewest_moves())
    verdict = {1.0: "Perfect!", 0.5: "Best NDCG reached, but in more moves than needed.", 0.0: "Not the best NDCG."}[points]
    return Answer(points, verdict, ", ".join(question.ranked_names(order)),
                  {"link": f"{encode_order(order)}/{moves}", "order": tuple(order), "moves": moves})


def answer_from_link(question: Question, text: str) -> Answer:
    """The answer a link's text stands for, scored as the Check button scores it; LinkError when it is not one."""
    if question.kind == "compare":
        if text not in ("A", "B"):
            raise LinkError(f"question {question.number}'s answer is not ranking A or B")
        return compare_answer(question, text)
    if question.kind == "estimate":
        guess = parse_number(text, f"question {question.number}'s estimate")
        if guess > 1:
            raise LinkError(f"question {question.number}'s estimate is above 1")
        steps = guess / ESTIMATE_STEP
        if abs(steps - round(steps)) > 1e-6:  # 0.9015 scored as itself but was shown and explained as 0.90
            raise LinkError(f"question {question.number}'s estimate is not one of the slider's steps of {ESTIMATE_STEP:g}")
        return estimate_answer(question, guess)
    order_text, _, moves_text = text.partition("/")
    order = decode_order(order_text, len(question.names))
    moves = parse_int(moves_text, low=0, high=MAX_MOVES)
    if moves is None:
        raise LinkError(f"question {question.number}'s number of moves is not a whole number")
    # No way of moving documents reaches an order in fewer moves than it takes (a hand-edited "/0" scored
    # "Perfect! … in 0 moves; the best is 1.000, reachable in 2 moves").
    needed = moves_needed(tuple(question.order.index(row) for row in order))
    if moves < needed:
        raise LinkError(f"question {question.number}'s order takes at least {needed} moves from the starting list, "
                        f"not {moves}")
    return reorder_answer(question, order, moves)
