"""The quiz page's view: draw each question, take the answer, keep the score in the session.

The questions, their correct answers and the scoring are in ``ui.quiz_model`` (no Streamlit there); this
module only draws them and records what the student answered.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ui import focus, present, quiz_state, quiz_whys, session, url_state
from ui.copy_link import copy_link
from ui.formatting import GAIN_FORMULAS, compact, fixed
from ui.moves import carried_moves, move_steps
from ui.quiz_answers import compare_answer, estimate_answer, reorder_answer
from ui.quiz_model import (
    ESTIMATE_FULL,
    ESTIMATE_HALF,
    ESTIMATE_STEP,
    MAX_SEED,
    Answer,
    Question,
    answer_summary,
    generate_quiz,
    in_dcg_column,
    ranking_frame,
    why_text,
)
from ui.ranked_list import moved_documents, pending_order, ranked_list
from ui.settings import MetricSettings
from ui.state import playground_link
from ui.widgets import plain


@st.cache_data(show_spinner=False, max_entries=256)
def questions_for(seed: int) -> tuple[Question, ...]:
    """The questions of ``seed`` (drawn once per server: the reorder questions solve a small brute force)."""
    return generate_quiz(seed)


def past_cutoff_greyed(frame: pd.DataFrame, k: int):
    """Grey out the rows past the cutoff (they add nothing to DCG@k; their grades still go into the ideal list)."""
    def shade(row: pd.Series) -> list[str]:
        return ["color: #9CA3AF; background-color: #F3F4F6"] * len(row) if row["Rank"] > k else [""] * len(row)

    return frame.style.apply(shade, axis=1)


def _show_ranking(question: Question, order: tuple[int, ...] | None = None, *, with_numbers: bool = False) -> None:
    st.dataframe(past_cutoff_greyed(ranking_frame(question, order, with_numbers=with_numbers), question.k),
                 hide_index=True, width="stretch")


# --- Seed, score and page header ---------------------------------------------------------------------------


def share_link(seed: int) -> str:
    """The quiz's address with this seed (absolute when the browser's URL is known)."""
    return f"{url_state.page_address('/quiz')}?seed={seed}"


def quiz_header(seed: int, questions: tuple[Question, ...]) -> None:
    """Seed, share link, 'new questions', and the session's running score (with the address's answers read)."""
    quiz_state.read_linked_answers(seed, questions)
    url_state.show_warning("quiz")  # the link's seed or answers that could not be used, and why
    quiz_state.publish_answers(seed)
    points, answered = quiz_state.session_score()
    on_this_seed = sum(1 for (s, _n) in quiz_state.session_answers() if s == seed)
    left, middle, right = st.columns([2.2, 1.2, 1.2], vertical_alignment="center")
    with left:
        st.markdown(f"**Seed {seed}**")
        st.caption("Everyone who opens this link gets the same questions:")
        copy_link(share_link(seed), key="quiz_share_link", label="Share link of these questions")
    with middle:
        st.metric("Score this session", f"{points:g} / {answered}", help="1 point per question; ½ for close answers.")
        st.caption(f"Answered {on_this_seed} of {len(questions)} questions of seed {seed}.")
    with right:
        st.button("New questions", icon=":material/casino:", key="quiz_new", on_click=quiz_state.new_questions, type="primary", width="stretch",
                  help="Draw a new seed (the score keeps counting).")
        st.toggle("Show all answers", key=quiz_state.REVEAL_KEY, persist_state="session",
                  help="For the teacher, after the class has answered: shows every question's answer.")
        with st.popover("Type a seed", width="stretch"):
            st.text_input(f"Seed (0 to {MAX_SEED:,})", key=quiz_state.SEED_INPUT_KEY, persist_state="session", on_change=quiz_state.typed_seed)
            problem = quiz_state.page().typed_problem
            if problem is not None:
                st.error(plain(problem), icon=":material/error:")


# --- One question ------------------------------------------------------------------------------------------

def _question_settings(question: Question):
    return MetricSettings(gain=question.gain, log_base="2", k=question.k)


def _playground_button(question: Question, order: tuple[int, ...] | None, label: str, key: str) -> None:
    link = playground_link(
        question.ranked_names(order), question.ranked_grades(order), settings=_question_settings(question)
    )
    # A link starts a new session, which knows only the URL: present.link keeps Present mode on over there.
    st.link_button(label, present.link(link), icon=":material/tune:", key=key)


def show_question(question: Question, seed: int, checked: tuple[int, int] | None = None) -> None:
    """Draw one question; once answered, show the verdict, the reasoning and a Playground link. ``checked``: the
    question whose Check button started this run (:func:`ui.quiz_state.take_just_checked`)."""
    answer = quiz_state.session_answers().get((seed, question.number))
    with st.container(border=True, key=f"quiz_question_{question.number}"):
        heading, badge = st.columns([5, 1], vertical_alignment="center")
        heading.header(f"Question {question.number} · {question.title}")
        with badge:
            if answer is not None:
                colour = "green" if answer.points == 1 else "orange" if answer.points > 0 else "red"
                st.badge(f"{answer.points:g} point{'s' if answer.points != 1 else ''}", color=colour)
        st.caption(f"Convention: {question.convention()}")
        {"compare": _compare, "estimate": _estimate, "reorder": _reorder}[question.kind](question, seed, answer)
        if answer is not None and checked == (seed, question.number):  # its Check button, gone: focus the verdict
            focus.land_here(f"quiz_question_{question.number}", token=f"{seed}-{question.number}-{id(answer)}")
        if answer is None and session.widget(quiz_state.REVEAL_KEY, False):
            st.info(f"**Answer:** {answer_summary(question)}", icon=":material/visibility:")


def _cutoff_hint(question: Question) -> str:
    """What a greyed row does: nothing to DCG@k, but its grade is still in the ideal list.

    It said "… and do not count": seed 46's estimate question has a grade 1 past k = 4 that IDCG@4 takes (6.323);
    a student who left it out, as told, answered 0.688 for 0.641.
    """
    if question.k >= len(question.names):
        return ""
    k = question.k
    return (f" Greyed rows (“no” under {in_dcg_column(k)}) are past the cutoff k = {k}: they add nothing to DCG@{k}, but their "
            f"grades still go into the ideal list, so they can raise IDCG@{k}.")


def _compare(question: Question, seed: int, answer: Answer | None) -> None:
    st.markdown(f"Two rankings of the same {len(question.names)} documents. **Which has the higher NDCG@{question.k}?**"
                + _cutoff_hint(question))
    left, right = st.columns(2)
    for column, label, order in ((left, "A", question.order), (right, "B", question.other_order)):
        with column:
            st.markdown(f"**Ranking {label}**")
            _show_ranking(question, order)
    choice_key = quiz_state.widget_key(seed, question, "choice")
    st.radio("Your answer", ["A", "B"], index=None, horizontal=True, key=choice_key, persist_state="session", disabled=answer is not None,
             format_func=lambda label: f"Ranking {label}")
    if answer is None:
        st.button("Check", key=quiz_state.widget_key(seed, question, "check"), on_click=_answer_compare, args=(question, seed),
                  disabled=session.widget(choice_key) is None)
        return
    correct = question.best_answer()
    (st.success if answer.points == 1 else st.error)(
        f"{answer.verdict} Ranking {correct} has the higher NDCG@{question.k}."
    )
    st.markdown("**Why:** " + why_text(question, question.order, "A") + "; " + why_text(question, question.other_order, "B") + ".")
    quiz_whys.show_compare(question, answer.given)
    st.caption("Both share the same ideal list, so the ranking with the larger DCG@k wins.")
    with st.expander("Per-position numbers"):
        left, right = st.columns(2)
        with left:
            _show_ranking(question, question.order, with_numbers=True)
        with right:
            _show_ranking(question, question.other_order, with_numbers=True)
    links = st.columns(2)
    with links[0]:
        _playground_button(question, question.order, "Open ranking A in the Playground", quiz_state.widget_key(seed, question, "link_a"))
    with links[1]:
        _playground_button(question, question.other_order, "Open ranking B in the Playground", quiz_state.widget_key(seed, question, "link_b"))


def _answer_compare(question: Question, seed: int) -> None:
    chosen = session.widget(quiz_state.widget_key(seed, question, "choice"))
    if chosen is None:
        return
    quiz_state.record_answer(seed, question.number, compare_answer(question, chosen))


def _estimate(question: Question, seed: int, answer: Answer | None) -> None:
    st.markdown(f"**Estimate NDCG@{question.k}** of this ranking (full marks within {ESTIMATE_FULL:g}, "
                f"half within {ESTIMATE_HALF:g})." + _cutoff_hint(question))
    _show_ranking(question)
    if answer is None:
        st.slider("Your estimate", 0.0, 1.0, 0.5, ESTIMATE_STEP, key=quiz_state.widget_key(seed, question, "guess"), persist_state="session")
        st.button("Check", key=quiz_state.widget_key(seed, question, "check"), on_click=_answer_estimate, args=(question, seed))
        return
    # Answered: the verdict below states the estimate. (A disabled slider drew it in grey text that fails the
    # contrast check, 2.5:1, without telling assistive technology that it is disabled.)
    truth = question.result().ndcg
    (st.success if answer.points == 1 else st.warning if answer.points > 0 else st.error)(
        f"{answer.verdict} NDCG@{question.k} = {fixed(truth, 3)}; you said {answer.given} "
        f"(off by {fixed(abs(float(answer.given) - truth), 3)})."
    )
    st.markdown("**Why:** " + why_text(question) + ".")
    quiz_whys.show_estimate(question, float(answer.given))
    ideal = question.result()
    st.caption("Ideal order of the grades: " + ", ".join(compact(g) for g in ideal.ideal_relevances)
               + f"; IDCG@{question.k} sums the gains ({GAIN_FORMULAS[question.gain]}) of the first {question.k} of "
               "them, each divided by log₂(i + 1).")
    with st.expander("Per-position numbers"):
        _show_ranking(question, with_numbers=True)
    _playground_button(question, None, "Open this question in the Playground", quiz_state.widget_key(seed, question, "link"))


def _answer_estimate(question: Question, seed: int) -> None:
    guess = float(session.widget(quiz_state.widget_key(seed, question, "guess"), 0.5))
    quiz_state.record_answer(seed, question.number, estimate_answer(question, guess))


def _reorder(question: Question, seed: int, answer: Answer | None) -> None:
    widget_key = quiz_state.widget_key(seed, question, "drag")
    order = quiz_state.current_order(seed, question)
    if answer is None:
        # Apply a drag before drawing, so the list and the move counter show it (ranked_list's protocol).
        moved = pending_order(widget_key, len(order), names=question.ranked_names(order),
                              grades=question.ranked_grades(order))
        if moved is not None:
            order = tuple(order[j] for j in moved)
            session.set_widget(quiz_state.order_key(seed, question), order)
            new, last = carried_moves(moved_documents(widget_key), session.widget(quiz_state.carried_key(seed, question)))
            session.set_widget(quiz_state.moves_key(seed, question), session.widget(quiz_state.moves_key(seed, question), 0) + new)
            session.set_widget(quiz_state.carried_key(seed, question), last)
    fewest = question.fewest_moves()
    st.markdown(
        f"**Drag the documents to reach the highest possible NDCG@{question.k} in as few moves as possible.** "
        f"It can be done in {fewest} moves. Only the top {question.k} positions count."
    )
    moves = session.widget(quiz_state.moves_key(seed, question), 0)
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
            st.button("Check my order", key=quiz_state.widget_key(seed, question, "check"), on_click=_answer_reorder,
                      args=(question, seed), type="primary", width="stretch")
            st.button("Start over", key=quiz_state.widget_key(seed, question, "reset"), on_click=_reset_reorder,
                      args=(question, seed), width="stretch")
    if answer is None:
        return
    mine = question.result(order)
    (st.success if answer.points == 1 else st.warning if answer.points > 0 else st.error)(
        f"{answer.verdict} Your order: NDCG@{question.k} = {fixed(mine.ndcg, 3)} in {moves} move{'s' if moves != 1 else ''}; "
        f"the best is {fixed(question.best_ndcg(), 3)}, reachable in {fewest} moves."
    )
    shortest = question.shortest_fix()
    st.markdown(
        f"**Why:** NDCG@{question.k} is highest when the top {question.k} positions hold the highest grades, best "
        f"first; the order of the rest does not matter. The best order reaches {why_text(question, shortest)}. "
        f"One way to get there in {fewest} moves, from the starting list:"
    )
    steps = move_steps(question.ranked_names(), question.ranked_names(shortest))
    st.markdown("\n".join(f"{n}. Move **{name}** to rank {rank}." for n, (name, rank) in enumerate(steps, start=1)))
    st.caption("The list it gives:")
    _show_ranking(question, shortest)
    _playground_button(question, None, "Open the starting list in the Playground", quiz_state.widget_key(seed, question, "link"))


def _reset_reorder(question: Question, seed: int) -> None:
    session.set_widget(quiz_state.order_key(seed, question), question.order)
    session.set_widget(quiz_state.moves_key(seed, question), 0)
    session.set_widget(quiz_state.carried_key(seed, question), None)


def _answer_reorder(question: Question, seed: int) -> None:
    order = quiz_state.current_order(seed, question)
    moves = session.widget(quiz_state.moves_key(seed, question), 0)
    quiz_state.record_answer(seed, question.number, reorder_answer(question, order, moves))


