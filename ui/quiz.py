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
from ui import session, url_state
from ui.ranked_list import pending_order, ranked_list
from ui.settings import MetricSettings
from ui.state import playground_link

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


def fewest_moves_to_best(grades: tuple[float, ...], k: int, gain: str) -> int:
    """Fewest moves from ``grades`` (ranked order) to any ordering with the highest NDCG@k."""
    return best_reordering(grades, k, gain)[0]


@functools.lru_cache(maxsize=512)
def best_reordering(grades: tuple[float, ...], k: int, gain: str) -> tuple[int, tuple[int, ...]]:
    """(fewest moves, one permutation reaching the highest NDCG@k in that many moves).

    Brute force over all orderings (lists have at most 6 documents); each
    distinct grade sequence is evaluated once by ndcg_core.
    """
    best = _evaluate(tuple(sorted(grades, reverse=True)), k, gain).ndcg
    fewest, winner = len(grades) + 1, tuple(range(len(grades)))
    for permutation in itertools.permutations(range(len(grades))):
        moves = moves_needed(permutation)
        if moves >= fewest:
            continue
        if _evaluate(tuple(grades[j] for j in permutation), k, gain).ndcg >= best - 1e-12:
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
    """A seed from the URL: ASCII digits only, 0..MAX_SEED (ui.url_state's rule); None when absent or malformed."""
    return url_state.parse_int(text, low=0, high=MAX_SEED)


# --- Streamlit part ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Answer:
    """What the student answered and what it scored."""

    points: float
    verdict: str  # one line: "Correct", "Close", ...
    given: str  # the student's answer in words
    details: dict = field(default_factory=dict)


def session_answers() -> dict[tuple[int, int], Answer]:
    return quiz_state().answers


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


def past_cutoff_greyed(frame: pd.DataFrame, k: int):
    """Grey out the rows past the cutoff (they do not count towards NDCG@k)."""
    def shade(row: pd.Series) -> list[str]:
        return ["color: #9CA3AF; background-color: #F3F4F6"] * len(row) if row["Rank"] > k else [""] * len(row)

    return frame.style.apply(shade, axis=1)


def _show_ranking(question: Question, order: tuple[int, ...] | None = None, *, with_numbers: bool = False) -> None:
    st.dataframe(past_cutoff_greyed(ranking_frame(question, order, with_numbers=with_numbers), question.k),
                 hide_index=True, width="stretch")


def why_text(question: Question, order: tuple[int, ...] | None = None, label: str = "") -> str:
    """'NDCG@3 = DCG@3 / IDCG@3 = 5.631 / 6.392 = 0.881' with ndcg_core's numbers."""
    result = question.result(order)
    k = question.k
    prefix = f"{label}: " if label else ""
    return (
        f"{prefix}NDCG@{k} = DCG@{k} / IDCG@{k} = {_fmt(result.dcg)} / {_fmt(result.idcg)} = {_fmt(result.ndcg)}"
    )


# --- Seed, score and page header ---------------------------------------------------------------------------

STATE_KEY = "quiz"
SEED_INPUT_KEY = "quiz_seed_input"
REVEAL_KEY = "quiz_reveal"


@dataclass
class QuizState:
    """The quiz's session state: the seed in use (mirrored to ``?seed=``) and every answer given."""

    seed: int | None = None
    answers: dict = field(default_factory=dict)  # {(seed, number): Answer}


def _quiz_from_url() -> QuizState:
    from_url = url_state.params().get("seed")
    seed = parse_seed(from_url)
    if seed is None and from_url is not None:
        url_state.warn("quiz", f"The link's seed could not be read (it must be a number from 0 to {MAX_SEED}), "
                               "so new questions were drawn.")
    return QuizState(seed=seed)


def quiz_state() -> QuizState:
    return session.page_state(STATE_KEY, _quiz_from_url)


def current_seed() -> int:
    """The quiz seed: the link's on a session's first visit (when valid), else a fresh one; kept in the URL."""
    state = quiz_state()
    if state.seed is None:
        state.seed = fresh_seed()
    url_state.show_warning("quiz")
    session.set_widget(SEED_INPUT_KEY, state.seed)  # the 'type a seed' box follows (it is drawn after this)
    url_state.publish({"seed": str(state.seed)})
    return state.seed


def fresh_seed(avoid: int | None = None) -> int:
    """A new random seed (different from ``avoid``)."""
    rng = np.random.default_rng()
    while True:
        seed = int(rng.integers(0, MAX_SEED + 1))
        if seed != avoid:
            return seed


def _new_questions() -> None:
    state = quiz_state()
    state.seed = fresh_seed(avoid=state.seed)
    url_state.warn("quiz", None)


def _typed_seed() -> None:
    quiz_state().seed = int(session.widget(SEED_INPUT_KEY))
    url_state.warn("quiz", None)


def share_link(seed: int) -> str:
    """The quiz's address with this seed (absolute when the browser's URL is known)."""
    url = getattr(st.context, "url", None) or ""
    base = url.split("?", 1)[0] if url else "/quiz"
    return f"{base}?seed={seed}"


def quiz_header(seed: int, questions: tuple[Question, ...]) -> None:
    """Seed, share link, 'new questions', and the session's running score."""
    points, answered = session_score()
    on_this_seed = sum(1 for (s, _n) in session_answers() if s == seed)
    left, middle, right = st.columns([2.2, 1.2, 1.2], vertical_alignment="center")
    with left:
        st.markdown(f"#### Seed **{seed}**")
        st.caption("Everyone who opens this link gets the same questions:")
        st.code(share_link(seed), language=None)
    with middle:
        st.metric("Score this session", f"{points:g} / {answered}", help="1 point per question; ½ for close answers.")
        st.caption(f"Answered {on_this_seed} of {len(questions)} questions of seed {seed}.")
    with right:
        st.button("New questions", icon=":material/casino:", key="quiz_new", on_click=_new_questions, type="primary", width="stretch",
                  help="Draw a new seed (the score keeps counting).")
        st.toggle("Show all answers", key=REVEAL_KEY,
                  help="For the teacher, after the class has answered: shows every question's answer.")
        with st.popover("Type a seed", width="stretch"):
            st.number_input("Seed", min_value=0, max_value=MAX_SEED, step=1, key="quiz_seed_input",
                            on_change=_typed_seed)


# --- One question ------------------------------------------------------------------------------------------

def _widget_key(seed: int, question: Question, what: str) -> str:
    return f"quiz_{seed}_{question.number}_{what}"


def _question_settings(question: Question):
    return MetricSettings(gain=question.gain, log_base="2", k=question.k)


def _playground_button(question: Question, order: tuple[int, ...] | None, label: str, key: str) -> None:
    link = playground_link(
        question.ranked_names(order), question.ranked_grades(order), settings=_question_settings(question)
    )
    st.link_button(label, link, icon=":material/tune:", key=key)


def show_question(question: Question, seed: int) -> None:
    """Draw one question; once answered, show the verdict, the reasoning and a Playground link."""
    answer = session_answers().get((seed, question.number))
    with st.container(border=True, key=f"quiz_question_{question.number}"):
        heading, badge = st.columns([5, 1], vertical_alignment="center")
        heading.subheader(f"Question {question.number} · {question.title}")
        with badge:
            if answer is not None:
                colour = "green" if answer.points == 1 else "orange" if answer.points > 0 else "red"
                st.badge(f"{answer.points:g} point{'s' if answer.points != 1 else ''}", color=colour)
        st.caption(f"Convention: {question.convention()}")
        {"compare": _compare, "estimate": _estimate, "reorder": _reorder}[question.kind](question, seed, answer)
        if answer is None and session.widget(REVEAL_KEY, False):
            st.info(f"**Answer:** {answer_summary(question)}", icon=":material/visibility:")


def answer_summary(question: Question) -> str:
    """The correct answer in one line, with ndcg_core's numbers (for the teacher's 'show answers')."""
    if question.kind == "compare":
        return (f"Ranking {question.best_answer()}. " + why_text(question, question.order, "A") + "; "
                + why_text(question, question.other_order, "B") + ".")
    if question.kind == "estimate":
        return why_text(question) + "."
    fewest, winner = best_reordering(tuple(question.ranked_grades()), question.k, question.gain)
    best_order = ", ".join(question.ranked_names(tuple(question.order[j] for j in winner)))
    return f"{fewest} moves, e.g. to {best_order}: " + why_text(question, tuple(question.order[j] for j in winner)) + "."


def _cutoff_hint(question: Question) -> str:
    if question.k >= len(question.names):
        return ""
    return f" Greyed rows are past the cutoff k = {question.k} and do not count."


def _compare(question: Question, seed: int, answer: Answer | None) -> None:
    st.markdown(f"Two rankings of the same {len(question.names)} documents. **Which has the higher NDCG@{question.k}?**"
                + _cutoff_hint(question))
    left, right = st.columns(2)
    for column, label, order in ((left, "A", question.order), (right, "B", question.other_order)):
        with column:
            st.markdown(f"**Ranking {label}**")
            _show_ranking(question, order)
    choice_key = _widget_key(seed, question, "choice")
    st.radio("Your answer", ["A", "B"], index=None, horizontal=True, key=choice_key, disabled=answer is not None,
             format_func=lambda label: f"Ranking {label}")
    if answer is None:
        st.button("Check", key=_widget_key(seed, question, "check"), on_click=_answer_compare, args=(question, seed),
                  disabled=session.widget(choice_key) is None)
        return
    correct = question.best_answer()
    (st.success if answer.points == 1 else st.error)(
        f"{answer.verdict} Ranking {correct} has the higher NDCG@{question.k}."
    )
    st.markdown("**Why:** " + why_text(question, question.order, "A") + "; " + why_text(question, question.other_order, "B") + ".")
    st.caption("Both share the same ideal list, so the ranking with the larger DCG@k wins.")
    with st.expander("Per-position numbers"):
        left, right = st.columns(2)
        with left:
            _show_ranking(question, question.order, with_numbers=True)
        with right:
            _show_ranking(question, question.other_order, with_numbers=True)
    links = st.columns(2)
    with links[0]:
        _playground_button(question, question.order, "Open ranking A in the Playground", _widget_key(seed, question, "link_a"))
    with links[1]:
        _playground_button(question, question.other_order, "Open ranking B in the Playground", _widget_key(seed, question, "link_b"))


def _answer_compare(question: Question, seed: int) -> None:
    chosen = session.widget(_widget_key(seed, question, "choice"))
    if chosen is None:
        return
    right = chosen == question.best_answer()
    record_answer(seed, question.number, Answer(1.0 if right else 0.0, "Correct!" if right else "Not quite.",
                                                f"Ranking {chosen}"))


def _estimate(question: Question, seed: int, answer: Answer | None) -> None:
    st.markdown(f"**Estimate NDCG@{question.k}** of this ranking (full marks within {ESTIMATE_FULL:g}, "
                f"half within {ESTIMATE_HALF:g})." + _cutoff_hint(question))
    _show_ranking(question)
    st.slider("Your estimate", 0.0, 1.0, 0.5, 0.01, key=_widget_key(seed, question, "guess"),
              disabled=answer is not None)
    if answer is None:
        st.button("Check", key=_widget_key(seed, question, "check"), on_click=_answer_estimate, args=(question, seed))
        return
    truth = question.result().ndcg
    (st.success if answer.points == 1 else st.warning if answer.points > 0 else st.error)(
        f"{answer.verdict} NDCG@{question.k} = {_fmt(truth)}; you said {answer.given} "
        f"(off by {_fmt(abs(float(answer.given) - truth))})."
    )
    st.markdown("**Why:** " + why_text(question) + ".")
    ideal = question.result()
    st.caption("Ideal order of the grades: " + ", ".join(f"{g:g}" for g in ideal.ideal_relevances)
               + f"; IDCG@{question.k} sums the first {question.k} of them, each divided by log₂(i + 1).")
    with st.expander("Per-position numbers"):
        _show_ranking(question, with_numbers=True)
    _playground_button(question, None, "Open this question in the Playground", _widget_key(seed, question, "link"))


def _answer_estimate(question: Question, seed: int) -> None:
    guess = float(session.widget(_widget_key(seed, question, "guess"), 0.5))
    points = estimate_points(guess, question.result().ndcg)
    verdict = {1.0: "Spot on!", 0.5: "Close.", 0.0: "Not quite."}[points]
    record_answer(seed, question.number, Answer(points, verdict, f"{guess:.2f}"))


def _order_key(seed: int, question: Question) -> str:
    return _widget_key(seed, question, "current")


def _moves_key(seed: int, question: Question) -> str:
    return _widget_key(seed, question, "moves")


def current_order(seed: int, question: Question) -> tuple[int, ...]:
    """The student's current ordering (indices into ``question.names``), starting from the shown order."""
    return session.page_state(_order_key(seed, question), lambda: question.order)


def _reorder(question: Question, seed: int, answer: Answer | None) -> None:
    widget_key = _widget_key(seed, question, "drag")
    order = current_order(seed, question)
    if answer is None:
        # Apply a drag before drawing, so the list and the move counter show it (ranked_list's protocol).
        moved = pending_order(widget_key, len(order))
        if moved is not None:
            order = tuple(order[j] for j in moved)
            session.set_widget(_order_key(seed, question), order)
            session.set_widget(_moves_key(seed, question), session.widget(_moves_key(seed, question), 0) + moves_needed(moved))
    fewest = question.fewest_moves()
    st.markdown(
        f"**Drag the documents to reach the highest possible NDCG@{question.k} in as few moves as possible.** "
        f"It can be done in {fewest} moves. Only the top {question.k} positions count."
    )
    moves = session.widget(_moves_key(seed, question), 0)
    left, right = st.columns([3, 1])
    with left:
        if answer is None:
            ranked_list(question.ranked_names(order), question.ranked_grades(order),
                        question.result(order).table["contribution"].tolist(), key=widget_key, k=question.k)
        else:
            _show_ranking(question, order)
    with right:
        st.metric("Moves so far", moves)
        if answer is None:
            st.button("Check my order", key=_widget_key(seed, question, "check"), on_click=_answer_reorder,
                      args=(question, seed), type="primary", width="stretch")
            st.button("Start over", key=_widget_key(seed, question, "reset"), on_click=_reset_reorder,
                      args=(question, seed), width="stretch")
    if answer is None:
        return
    mine = question.result(order)
    best = question.result(tuple(sorted(range(len(question.grades)), key=lambda j: -question.grades[j])))
    (st.success if answer.points == 1 else st.warning if answer.points > 0 else st.error)(
        f"{answer.verdict} Your order: NDCG@{question.k} = {_fmt(mine.ndcg)} in {moves} move{'s' if moves != 1 else ''}; "
        f"the best is {_fmt(best.ndcg)}, reachable in {fewest} moves."
    )
    _, winner = best_reordering(tuple(question.ranked_grades()), question.k, question.gain)
    shortest = tuple(question.order[j] for j in winner)
    st.markdown(
        f"**Why:** NDCG@{question.k} is highest when the top {question.k} positions hold the highest grades, best "
        f"first; the order of the rest does not matter. The best order reaches {why_text(question, shortest)}. "
        f"One way to get there in {fewest} moves:"
    )
    _show_ranking(question, shortest)
    _playground_button(question, None, "Open the starting list in the Playground", _widget_key(seed, question, "link"))


def _reset_reorder(question: Question, seed: int) -> None:
    session.set_widget(_order_key(seed, question), question.order)
    session.set_widget(_moves_key(seed, question), 0)


def _answer_reorder(question: Question, seed: int) -> None:
    order = current_order(seed, question)
    moves = session.widget(_moves_key(seed, question), 0)
    best = question.result(tuple(sorted(range(len(question.grades)), key=lambda j: -question.grades[j]))).ndcg
    reached = question.result(order).ndcg >= best - 1e-12
    points = reorder_points(reached, moves, question.fewest_moves())
    verdict = {1.0: "Perfect!", 0.5: "Best NDCG reached, but in more moves than needed.", 0.0: "Not the best NDCG yet."}[points]
    record_answer(seed, question.number, Answer(points, verdict, ", ".join(question.ranked_names(order))))
