"""Predict, then reveal: score a learner's guess and pick the one-line explanation its mistake suggests.

Pure (no Streamlit), so every rule is tested with real values. The figures come from ``ndcg_core`` results the
caller passes in (before and after a change); this module only compares them with the guess.

Two guesses:

* :func:`judge_ndcg` - the Playground's "what will NDCG be after this move / edit?". The explanation is tied to
  the misconception the guess suggests: no change guessed (order matters: that is CG, not DCG), a change guessed
  where there is none (past the cutoff, equal grades), the wrong direction (raising a grade can raise IDCG more
  than DCG), overshoot and undershoot.
* :func:`judge_contribution` - Step by step's "what does position i add?": the gain itself, the grade instead of
  its gain, multiplying by the discount, dividing by the rank instead of log(i + 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import ndcg_core
from ui.formatting import fixed, num, signed

SPOT_ON, CLOSE = 0.02, 0.05  # |guess - truth| for full and half marks (NDCG is between 0 and 1)
NO_CHANGE = 0.005  # a guessed change smaller than this means "no change"
SAME = 5e-5  # a true change below this is no change (the cards show 4 decimals)


@dataclass(frozen=True)
class Change:
    """What changed between two states of the Playground, in the terms the explanations use.

    ``kind``: "order" (same documents and grades, another order), "grades" (a grade edited, a document added or
    removed), "settings" (only the sidebar's settings) or "none". ``moved``: (name, grade, from rank, to rank)
    when exactly one document moved (1-based ranks).
    """

    kind: str
    moved: tuple[str, float, int, int] | None = None
    passed: tuple[tuple[str, float], ...] = ()  # (name, grade) of each document the moved one went past


def single_move(before: Sequence, after: Sequence, *, moved=None) -> tuple[int, int] | None:
    """(from, to), 0-based, when ``after`` is ``before`` with exactly one item taken out and put elsewhere.

    Linear time (the Playground's lists can hold thousands of documents): the two lists differ on one stretch,
    which must be that stretch rotated by one place. Two neighbours that swap places are both one move (the
    upper one down, or the lower one up): ``moved``, the item the person actually moved, says which.
    """
    if len(before) != len(after) or list(before) == list(after):
        return None
    first = next(i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b)
    last = next(i for i in range(len(before) - 1, -1, -1) if before[i] != after[i])
    b, a = list(before[first:last + 1]), list(after[first:last + 1])
    if len(b) == 2 and a == [b[1], b[0]] and moved == b[0]:
        return first, last  # a swap of neighbours, made by moving the upper one down
    if a == [b[-1], *b[:-1]]:
        return last, first  # the item at `last` moved up to `first`
    if a == [*b[1:], b[0]]:
        return first, last  # the item at `first` moved down to `last`
    return None


def classify(
    before: tuple[Sequence[str], Sequence[float]], after: tuple[Sequence[str], Sequence[float]],
    *, same_settings: bool = True, same_extra: bool = True, moved: tuple[str, float] | None = None,
) -> Change:
    """The :class:`Change` from ``before`` to ``after`` (each ``(names, grades)`` in ranked order); ``moved``, the
    (name, grade) of the document the person moved last, names the mover of a swap of neighbours."""
    pairs_before = list(zip(before[0], (float(g) for g in before[1]), strict=True))
    pairs_after = list(zip(after[0], (float(g) for g in after[1]), strict=True))
    if pairs_before == pairs_after and same_extra:
        return Change("none" if same_settings else "settings")
    if sorted(pairs_before) == sorted(pairs_after) and same_extra and same_settings:
        move = single_move(pairs_before, pairs_after, moved=None if moved is None else (moved[0], float(moved[1])))
        if move is None:
            return Change("order")
        name, grade = pairs_before[move[0]]
        passed = tuple(pairs_before[j] for j in range(min(move), max(move) + 1) if j != move[0])
        return Change("order", (name, grade, move[0] + 1, move[1] + 1), passed)
    return Change("grades" if same_settings else "mixed")


@dataclass(frozen=True)
class Scores:
    """The figures of one state, read from an ``ndcg_core.ListResult`` (and the cutoff in use)."""

    dcg: float
    idcg: float
    ndcg: float
    k: int | None = None

    @classmethod
    def of(cls, result) -> Scores:
        return cls(float(result.dcg), float(result.idcg), float(result.ndcg), result.k)


@dataclass(frozen=True)
class Feedback:
    """A judged guess: what was guessed, the answer, how far off, and the one-line why."""

    guess: float
    truth: float
    before: float
    points: float  # 1, 0.5 or 0, as on the Quiz
    verdict: str
    misconception: str  # a key: exact, close, no_change, phantom_change, direction, overshoot, undershoot
    explanation: str

    @property
    def error(self) -> float:
        return self.guess - self.truth

    def summary(self) -> str:
        """'NDCG is now 0.8856 (was 0.9508); you guessed 0.95: off by 0.0644.'"""
        return (f"NDCG is now {fixed(self.truth)} (was {fixed(self.before)}); you guessed {fixed(self.guess, 3)}: "
                f"off by {fixed(abs(self.error))}.")


def _points(error: float) -> tuple[float, str]:
    if abs(error) <= SPOT_ON + 1e-12:
        return 1.0, "Spot on!"
    if abs(error) <= CLOSE + 1e-12:
        return 0.5, "Close."
    return 0.0, "Not quite."


def _direction(delta: float) -> str:
    return "rose" if delta > 0 else "fell"


def _moved_words(change: Change) -> str:
    name, grade, start, end = change.moved  # type: ignore[misc]
    return f"{name} (grade {num(grade)}) moved from rank {start} to rank {end}"


def _beyond_cutoff(change: Change, k: int | None) -> bool:
    return change.moved is not None and k is not None and min(change.moved[2], change.moved[3]) > k


def judge_ndcg(guess: float, before: Scores, after: Scores, change: Change, *, exponential_gain: bool = False) -> Feedback:
    """Score a guess of the new NDCG and explain it by the misconception it suggests (``exponential_gain``: the
    settings' gain is 2^grade − 1, which an explanation may point to)."""
    truth, was = after.ndcg, before.ndcg
    actual, guessed = truth - was, guess - was
    error = guess - truth
    points, verdict = _points(error)
    changed = abs(actual) >= SAME
    if _said_no_change(actual, guessed) and points == 1.0:
        # Re-typing the old value is the "order does not matter" slip, even when the change is small enough to
        # fall within SPOT_ON of it (a move low in the list): half a point and the slip's explanation.
        points, verdict = 0.5, "Close, but it did change."
    key, why = _explain(guess, before, after, change, actual, guessed, changed, exponential_gain=exponential_gain)
    return Feedback(guess, truth, was, points, verdict, key, why)


def _said_no_change(actual: float, guessed: float) -> bool:
    """The guess says NDCG stays (within NO_CHANGE of the old value) while it moved by at least that much."""
    return abs(guessed) < NO_CHANGE <= abs(actual)


def _right_because(before: Scores, after: Scores, change: Change, actual: float, changed: bool) -> str:
    if not changed:
        if abs(after.dcg - before.dcg) < SAME and abs(after.idcg - before.idcg) < SAME:
            return "Right: this change leaves DCG and IDCG as they were, so NDCG stays."
        # Another gain or log base rescales both sums (log base: by the same factor), so their ratio stays.
        return (f"Right: DCG went from {fixed(before.dcg)} to {fixed(after.dcg)} and IDCG from {fixed(before.idcg)} "
                f"to {fixed(after.idcg)}, in the same proportion, so their ratio, NDCG, stays.")
    return (f"Right: DCG went from {fixed(before.dcg)} to {fixed(after.dcg)} and IDCG from {fixed(before.idcg)} to "
            f"{fixed(after.idcg)}, so NDCG {_direction(actual)} by {fixed(abs(actual))}.")


def _explain(
    guess: float, before: Scores, after: Scores, change: Change, actual: float, guessed: float, changed: bool, *,
    exponential_gain: bool = False,
) -> tuple[str, str]:
    if abs(guess - after.ndcg) <= SPOT_ON + 1e-12 and not _said_no_change(actual, guessed):
        return "exact", _right_because(before, after, change, actual, changed)
    if changed and abs(guessed) < NO_CHANGE:
        if change.kind == "order":
            return "no_change", (
                "Order matters: the same grades in another order give another DCG, because each gain is divided by "
                "its position's discount log(i + 1). A sum that ignores order is CG, not DCG."
            )
        if change.kind in ("grades", "mixed"):
            return "no_change", (
                f"A grade edit changes that document's gain, and the ideal list is rebuilt from the new grades: DCG "
                f"went {fixed(before.dcg)} → {fixed(after.dcg)}, IDCG {fixed(before.idcg)} → {fixed(after.idcg)}."
            )
        return "no_change", ("The settings decide how grades become gains, how positions are discounted and where "
                             "the cutoff is: changing them changes DCG and IDCG by different amounts.")
    if not changed:
        if _beyond_cutoff(change, after.k):
            return "phantom_change", (f"Both ranks are past the cutoff k = {after.k}: positions there do not count, "
                                      "so NDCG@k does not move.")
        if change.kind == "order":
            return "phantom_change", ("The documents that changed places count the same where they are now (equal "
                                      "grades, or positions past the cutoff): DCG is unchanged, so NDCG is too.")
        return "phantom_change", ("DCG and IDCG changed in the same proportion (or not at all), so their ratio, "
                                  "NDCG, stayed the same.")
    if guessed * actual < 0:
        return "direction", _direction_reason(before, after, change, actual)
    if change.kind == "settings":  # no list changed: what the discount does down a list is not the reason
        size = "too far: NDCG only" if abs(guessed) > abs(actual) else "not far enough: NDCG"
        return ("overshoot" if abs(guessed) > abs(actual) else "undershoot"), (
            f"Right direction, {size} {_direction(actual)} by {fixed(abs(actual))}: the new settings took DCG from "
            f"{fixed(before.dcg)} to {fixed(after.dcg)} and IDCG from {fixed(before.idcg)} to {fixed(after.idcg)}."
        )
    # What a gain counts at rank i against rank 1, d_1 / d_i: the same under every log base (the base multiplies
    # every discount by one constant), where a gain's own weight 1/d_i is not (1 at rank 1 in base 2, 3.32 in base 10).
    discount = ndcg_core.discounts(7)
    weights = discount[0] / discount
    if abs(guessed) > abs(actual):
        return "overshoot", (
            f"Right direction, too far: NDCG only {_direction(actual)} by {fixed(abs(actual))}. Lower down the list a "
            f"change is damped by the discount (a gain counts {num(weights[2], 2)} of its rank-1 value at rank 3, "
            f"{num(weights[6], 2)} at rank 7), and NDCG is measured against IDCG, not against zero."
        )
    # Said of exponential gain only: under linear gain it was a reason that did not apply (the caption said linear).
    grades = ", and with exponential gain a high grade counts much more than a low one" if exponential_gain else ""
    return "undershoot", (
        f"Right direction, not far enough: NDCG {_direction(actual)} by {fixed(abs(actual))}. The top ranks weigh "
        f"most (at rank 2 a gain already counts only {num(weights[1], 2)} of its rank-1 value){grades}."
    )


def _direction_reason(before: Scores, after: Scores, change: Change, actual: float) -> str:
    idcg_moved = abs(after.idcg - before.idcg) >= SAME
    if change.kind in ("grades", "mixed") and idcg_moved and (after.dcg - before.dcg) * actual < 0:
        return (f"NDCG {_direction(actual)} although DCG went {fixed(before.dcg)} → {fixed(after.dcg)}: the ideal list "
                f"changed too, and IDCG went {fixed(before.idcg)} → {fixed(after.idcg)}, by a larger share.")
    if change.kind in ("grades", "mixed") and idcg_moved:
        return _both_moved(before, after, actual)
    if change.moved is not None:
        name, grade, start, end = change.moved
        if end < start:
            passed = "documents with higher grades" if actual < 0 else "documents with lower grades"
        else:
            passed = "documents with lower grades" if actual < 0 else "documents with higher grades"
        passed, mixed = _passed_words(change) if change.passed else (passed, False)
        side = "ahead of" if end < start else "behind"
        return (f"NDCG {_direction(actual)} ({signed(actual)}): {_moved_words(change)}, {side} {passed}, so "
                f"{'on balance ' if mixed else ''}the larger gains now sit where the discount log(i + 1) is "
                f"{'smaller' if actual > 0 else 'larger'}.")
    return (f"NDCG {_direction(actual)} ({signed(actual)}): DCG went {fixed(before.dcg)} → {fixed(after.dcg)} and IDCG "
            f"{fixed(before.idcg)} → {fixed(after.idcg)}.")


def _passed_words(change: Change) -> tuple[str, bool]:
    """The documents a move went past, by name and grade (up to three) or counted, and whether their grades lie on
    both sides of the moved one's. D3 (grade 2) up from rank 3 past D1 (3) and D2 (1) was "ahead of documents with
    higher grades", as if D2 were one of them."""
    grade = change.moved[1]  # type: ignore[index]
    if len(change.passed) <= 3:
        words = [f"{name} (grade {num(g)})" for name, g in change.passed]
        listed = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
    else:
        counts = [(sum(g > grade for _, g in change.passed), "a higher grade", "higher grades"),
                  (sum(g < grade for _, g in change.passed), "a lower grade", "lower grades"),
                  (sum(g == grade for _, g in change.passed), "the same grade", "the same grade")]
        parts = [f"{n} {'document' if n == 1 else 'documents'} with {one if n == 1 else many}"
                 for n, one, many in counts if n]
        listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    mixed = any(g > grade for _, g in change.passed) and any(g < grade for _, g in change.passed)
    return listed, mixed


def _both_moved(before: Scores, after: Scores, actual: float) -> str:
    """A grade edit moved DCG the way NDCG went, and IDCG too (the ideal list is rebuilt from the new grades): say
    which moved by the larger share, or that IDCG went the other way and both pushed NDCG the same way."""
    moves = f"DCG went {fixed(before.dcg)} → {fixed(after.dcg)} and IDCG {fixed(before.idcg)} → {fixed(after.idcg)}"
    if abs(after.dcg - before.dcg) < SAME:  # e.g. an extra judged document's grade: only the ideal list changed
        return (f"NDCG {_direction(actual)}: DCG stayed {fixed(after.dcg)} while IDCG went {fixed(before.idcg)} → "
                f"{fixed(after.idcg)}: the edit changed the ideal list, not the ranking's gains.")
    if (after.idcg - before.idcg) * actual < 0:
        return (f"NDCG {_direction(actual)}: {moves}. The ideal list is rebuilt from the new grades, and here DCG and "
                "IDCG moved apart, so both pushed NDCG = DCG / IDCG the same way.")
    if before.dcg > 0 and before.idcg > 0:
        shares = (f" ({signed(100 * (after.dcg / before.dcg - 1), 1)}% against "
                  f"{signed(100 * (after.idcg / before.idcg - 1), 1)}%)")
    else:
        shares = ""
    return (f"NDCG {_direction(actual)}: {moves}. The ideal list is rebuilt from the new grades, so IDCG moved with "
            f"DCG, and NDCG = DCG / IDCG follows the one that changed by the larger share: DCG{shares}.")


# --- Step by step: one position's contribution --------------------------------------------------------------

@dataclass(frozen=True)
class Term:
    """One position's figures, read from ``ListResult.table`` (rank i, grade, gain, discount, contribution)."""

    rank: int
    grade: float
    gain: float
    discount: float
    contribution: float
    k: int | None = None  # the cutoff, for the words
    counted: bool = True  # ndcg_core's ``in_cutoff``: False past the cutoff, where it adds nothing to DCG@k

    @property
    def past_cutoff(self) -> bool:
        return not self.counted


def _near(guess: float, value: float) -> bool:
    return abs(guess - value) <= max(0.01, 0.02 * abs(value))


def judge_contribution(guess: float, term: Term) -> Feedback:
    """Score a guess of position i's contribution (gain ÷ discount) and name the slip it suggests."""
    truth = term.contribution
    points = 1.0 if _near(guess, truth) else 0.5 if abs(guess - truth) <= max(0.05, 0.1 * abs(truth)) else 0.0
    verdict = {1.0: "Spot on!", 0.5: "Close.", 0.0: "Not quite."}[points]
    gain, grade, discount, rank = term.gain, term.grade, term.discount, term.rank
    sum_line = f"{num(gain)} ÷ {num(discount)} = {num(truth)}"
    if term.past_cutoff and points < 1.0 and _near(guess, 0.0):
        # What it adds to DCG@k is 0, which is right; the question past the cutoff asks what it would add without it.
        return Feedback(float(guess), float(truth), 0.0, 0.5, "Close.", "past_cutoff",
                        f"Right that it adds nothing to DCG@{term.k}: rank {rank} is past the cutoff. Without the "
                        f"cutoff it would add its gain divided by the discount: {sum_line}.")
    if points == 1.0:
        key, why = "exact", f"Right: the gain divided by the discount of rank {rank}, {sum_line}."
    elif abs(discount - 1) > 1e-9 and _near(guess, gain):
        key, why = "gain_only", f"That is the gain; the contribution divides it by the discount log(i + 1): {sum_line}."
    elif abs(gain - grade) > 1e-9 and abs(discount - 1) > 1e-9 and _near(guess, grade / discount):
        # (At rank 1 the discount is 1: the grade itself was typed, nothing divided; the branch below says so.)
        key, why = "grade_not_gain", (f"You divided the grade; divide its gain instead (here {num(gain)} for grade "
                                      f"{num(grade)}): {sum_line}.")
    elif abs(gain - grade) > 1e-9 and _near(guess, grade):
        key, why = "grade_not_gain", f"That is the grade; its gain is {num(gain)}, then divided by the discount: {sum_line}."
    elif abs(discount - 1) > 1e-9 and _near(guess, gain * discount):
        key, why = "multiplied", f"The discount divides the gain, it does not multiply it: {sum_line}."
    elif rank > 1 and _near(guess, gain / rank):
        key, why = "rank_not_log", (f"The discount is log(i + 1) = {num(discount)}, not the rank {rank}; it grows "
                                    f"slowly: {sum_line}.")
    else:
        key, why = "other", f"The contribution is the gain divided by the discount of rank {rank}: {sum_line}."
    return Feedback(float(guess), float(truth), 0.0, points, verdict, key, why)
