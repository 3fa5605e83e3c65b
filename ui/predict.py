"""Predict, then reveal: the "Predict first" mode of the Playground and of Step by step (Streamlit side).

Playground: after a move or an edit the new numbers (cards, list contributions, chart, formula, table) stay
hidden until the learner submits a guess of the new NDCG; then the answer, how far off the guess was and a
one-line explanation of the misconception it suggests are shown. Step by step: before position i's numbers are
shown, the learner guesses its contribution. Scoring and explanations live in ``ui.predict_model`` (no
Streamlit); every figure comes from ``ndcg_core`` results.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import streamlit as st

import ndcg_core
from ui import focus, session, state
from ui.formatting import discount_words, fixed, gain_words, num
from ui.playground_edits import LIST_KEY
from ui.predict_model import Feedback, Scores, Term, classify, judge_contribution, judge_ndcg
from ui.ranked_list import last_moved
from ui.ranking import Ranking
from ui.settings_model import MetricSettings
from ui.widgets import plain

TOGGLE_KEY = "playground_predict"
GUESS_KEY = "playground_guess"
FORM_KEY = "playground_guess_form"
TOGGLE_HELP = ("Predict first: after each move or edit, guess the new NDCG before the numbers are shown. "
               "The answer comes with how far off you were and why.")


# --- Playground -------------------------------------------------------------------------------------------------

def _toggled() -> None:
    reveal = state.playground().reveal
    reveal.on = bool(session.widget(TOGGLE_KEY, False))
    reveal.seen, reveal.feedback = None, None  # start from what is on the screen now


def toggle() -> None:
    """The "Predict first" switch (its value lives in the typed state; the widget follows it)."""
    session.set_widget(TOGGLE_KEY, state.playground().reveal.on)
    st.toggle("Predict first", key=TOGGLE_KEY, on_change=_toggled, help=TOGGLE_HELP)


def hold(ranking: Ranking, settings: MetricSettings, result: ndcg_core.ListResult) -> bool:
    """Whether this run's numbers wait for a guess: predict mode is on and the list or settings changed since
    the numbers were last shown. Otherwise what is shown now is remembered as seen."""
    reveal = state.playground().reveal
    now = (ranking, settings, Scores.of(result))
    if not reveal.on or math.isnan(now[2].ndcg):  # an undefined NDCG (zero-IDCG rule "skip") cannot be guessed
        reveal.seen = now
        return False
    if reveal.seen is None or (reveal.seen[0] == ranking and reveal.seen[1] == settings):
        reveal.seen = now
        return False
    if math.isnan(reveal.seen[2].ndcg):
        reveal.seen = now
        return False
    reveal.feedback = None  # a new change: the last verdict is about an older one
    return True


def _change(before: tuple, ranking: Ranking, settings: MetricSettings):
    """What changed, with the documents' names escaped: the words built around them are drawn as markdown."""
    old: Ranking = before[0]
    moved = last_moved(LIST_KEY)  # which of two swapped neighbours the person moved
    return classify((tuple(map(plain, old.names)), old.grades), (tuple(map(plain, ranking.names)), ranking.grades),
                    same_settings=before[1] == settings,
                    same_extra=(old.extra_names, old.extra_grades) == (ranking.extra_names, ranking.extra_grades),
                    moved=None if moved is None else (plain(moved[0]), moved[1]))


def _submit(ranking: Ranking, settings: MetricSettings, scores: Scores) -> None:
    reveal = state.playground().reveal
    if reveal.seen is None:
        return
    guess = float(session.widget(GUESS_KEY, reveal.seen[2].ndcg))
    reveal.feedback = judge_ndcg(guess, reveal.seen[2], scores, _change(reveal.seen, ranking, settings),
                                 exponential_gain=settings.gain == "exponential")
    reveal.reveals += 1
    reveal.seen = (ranking, settings, scores)


def change_words(ranking: Ranking, settings: MetricSettings) -> str:
    """What changed since the numbers were last shown, in a few words (markdown: a name in it is escaped)."""
    reveal = state.playground().reveal
    change = _change(reveal.seen, ranking, settings)
    if change.moved is not None:
        name, _grade, start, end = change.moved
        return f"{name} moved from rank {start} to rank {end}"
    return {"order": "the order changed", "grades": "the grades changed", "settings": "the settings changed",
            "mixed": "the list and the settings changed"}.get(change.kind, "nothing changed")


def guess_form(ranking: Ranking, settings: MetricSettings, result: ndcg_core.ListResult) -> None:
    """Where the cards were: the question, the guess and the Reveal button."""
    before: Scores = state.playground().reveal.seen[2]
    label = "NDCG" if result.k is None else f"NDCG@{result.k}"
    # As tall as the cards it replaces: the question on one line, the guess and its button on the next (stacked,
    # with a caption under the box, it pushed the list ~100 px down under the pointer after a move).
    with st.container(border=True, key="playground_predict_box", gap="small"):
        words = change_words(ranking, settings)  # a document's name first keeps its own case
        was, now = _was_and_now(result)
        st.markdown(f"**Predict first.** {words[:1].upper() + words[1:]}. {was} was "
                    f"**{fixed(before.ndcg)}**: what is {now} now?")
        with st.form(FORM_KEY, border=False, enter_to_submit=True), \
                st.container(horizontal=True, vertical_alignment="bottom", gap="small"):
            st.number_input(f"Your guess of the new {label}", min_value=0.0, max_value=1.0, value=before.ndcg,
                            step=0.01, format="%.3f", key=GUESS_KEY, width=260)
            st.form_submit_button("Reveal", type="primary", icon=":material/visibility:", on_click=_submit,
                                  args=(ranking, settings, Scores.of(result)))


def _was_and_now(result: ndcg_core.ListResult) -> tuple[str, str]:
    """("NDCG@2", "it") for the question "NDCG@2 was 0.8581: what is it now?". The old value is named under its
    own cutoff: after a new k in the sidebar it said "NDCG@2 was 0.9508", the whole list's NDCG (NDCG@2 was 0.8581
    all along)."""
    before: Scores = state.playground().reveal.seen[2]
    label = "NDCG" if result.k is None else f"NDCG@{result.k}"
    was = "NDCG" if before.k is None else f"NDCG@{before.k}"
    return was, "it" if was == label else label


def withheld_words(result: ndcg_core.ListResult) -> str:
    """What the ranked list tells a screen reader instead of the hidden NDCG: the question :func:`guess_form` asks."""
    was, now = _was_and_now(result)
    return (f"Predict first: {was} was {fixed(state.playground().reveal.seen[2].ndcg)}; what is {now} now? Type your "
            "guess above the list, then Reveal")


def show_feedback() -> None:
    """The verdict on the last guess (until the next change)."""
    feedback = state.playground().reveal.feedback
    if feedback is not None:
        _verdict(feedback, feedback.summary(), key="playground_feedback", reveals=state.playground().reveal.reveals)


def _verdict(feedback: Feedback, summary: str, *, key: str, reveals: int) -> None:
    show = st.success if feedback.points == 1 else st.warning if feedback.points > 0 else st.error
    with st.container(key=key):
        show(f"**{feedback.verdict}** {summary}  \n{feedback.explanation}", icon=":material/lightbulb:")
        # The Reveal button is gone with its form: the focus it had goes to the verdict, not back to the page's top.
        focus.land_here(key, token=f"{key}-{reveals}")


def hidden_note(what: str) -> None:
    st.caption(f"{what} hidden until you reveal your guess above.")


# --- Step by step -----------------------------------------------------------------------------------------------

STEP_KEY = "step_predict"
STEP_TOGGLE_KEY = "step_predict_toggle"
STEP_GUESS_KEY = "step_guess"


@dataclass
class StepPredictState:
    """Step by step's predict mode: on or off, and the judged guess of each revealed position."""

    on: bool = False
    guesses: dict = field(default_factory=dict)  # {(names, grades, settings, position): Feedback}
    reveals: int = 0  # guesses judged so far (the keyboard focus goes to each new verdict once)


def step_state() -> StepPredictState:
    return session.page_state(STEP_KEY, StepPredictState)


def _step_toggled() -> None:
    step_state().on = bool(session.widget(STEP_TOGGLE_KEY, False))


def step_toggle() -> None:
    session.set_widget(STEP_TOGGLE_KEY, step_state().on)
    st.toggle("Predict first", key=STEP_TOGGLE_KEY, persist_state="session", on_change=_step_toggled,
              help="Guess each position's contribution before it is shown.")


def step_key(names, grades, settings: MetricSettings, position: int) -> tuple:
    return (tuple(names), tuple(grades), settings, position)


def step_waiting(key: tuple) -> bool:
    """Whether position ``key`` waits for a guess (predict mode on, not revealed yet)."""
    predict = step_state()
    return predict.on and key not in predict.guesses


def term_of(result: ndcg_core.ListResult, position: int) -> Term:
    row = result.table.iloc[position - 1]
    return Term(position, float(row["relevance"]), float(row["gain"]), float(row["discount"]),
                float(row["contribution"]), result.k, bool(row["in_cutoff"]))


def _step_submit(key: tuple, term: Term) -> None:
    guess = float(session.widget(STEP_GUESS_KEY, 0.0))
    step_state().guesses[key] = judge_contribution(guess, term)
    step_state().reveals += 1


def step_question(term: Term) -> str:
    """The question asked for position i's contribution (the walk's live region reads it out too). Past the cutoff
    it adds nothing to DCG@k: the question is then what it would add without the cutoff (it asked "what does it add
    to DCG?" and called the right answer, 0, wrong)."""
    if term.past_cutoff:
        return (f"Rank {term.rank} is past the cutoff k = {term.k}, so it adds nothing to DCG@{term.k}. What would it "
                "add without the cutoff?")
    return "What does it add to DCG?"


def step_form(key: tuple, term: Term, name: str, settings: MetricSettings) -> None:
    """Ask for position i's contribution: grade and convention shown, gain, discount and result hidden."""
    with st.container(border=True, key="step_predict_box"):
        question = step_question(term)
        st.markdown(f"**Predict first.** At rank **{term.rank}** the ranking has **{name}** with grade "
                    f"**{num(term.grade)}** ({gain_words(settings.gain)}, discount {discount_words(settings.log_base)}"
                    f"). {question}")
        with st.form("step_guess_form", border=False, enter_to_submit=True):
            st.number_input("Your guess of its contribution", min_value=0.0, value=0.0, step=0.1, format="%.3f",
                            key=STEP_GUESS_KEY)
            st.form_submit_button("Reveal", type="primary", icon=":material/visibility:", on_click=_step_submit,
                                  args=(key, term))


def step_feedback(key: tuple) -> None:
    feedback = step_state().guesses.get(key)
    if feedback is not None and step_state().on:
        _verdict(feedback, f"The contribution is {fixed(feedback.truth)}; you guessed {fixed(feedback.guess, 3)} "
                           f"(off by {fixed(abs(feedback.error))}).", key="step_feedback", reveals=step_state().reveals)
