"""The Quiz page's state: one typed object in the session (:class:`QuizState`), the seed and the checked answers
mirrored to and from the address (``?seed=`` and ``answers``), and the session keys of each question's widgets.

The address holds the checked answers of the questions shown, so a reload or a restored tab comes back answered,
scored as when they were checked (:mod:`ui.quiz_answers`); the share link of the questions (the copy box) holds
the seed only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ui import session, url_state
from ui.quiz_answers import answer_from_link
from ui.quiz_model import MAX_SEED, Answer, Question, fresh_seed, parse_seed

STATE_KEY = "quiz"
SEED_INPUT_KEY = "quiz_seed_input"
REVEAL_KEY = "quiz_reveal"


@dataclass
class QuizState:
    """The quiz's session state: the seed in use (mirrored to ``?seed=``) and every answer given."""

    seed: int | None = None
    answers: dict = field(default_factory=dict)  # {(seed, number): Answer}
    typed_problem: str | None = None  # why the last seed typed in "Type a seed" was not used
    answers_read: bool = False  # the address's answers are read once, on the session's first run
    just_checked: tuple[int, int] | None = None  # (seed, question) whose Check button started this run


def _quiz_from_url() -> QuizState:
    from_url = url_state.params().get("seed")
    seed = parse_seed(from_url)
    if seed is None and from_url is not None:
        url_state.warn("quiz", f"The link's seed could not be read (it must be a number from 0 to {MAX_SEED}), "
                               "so new questions were drawn.")
    return QuizState(seed=seed)


def page() -> QuizState:
    return session.page_state(STATE_KEY, _quiz_from_url)


def current_seed() -> int:
    """The quiz seed: the link's on a session's first visit (when valid), else a fresh one; kept in the URL."""
    state = page()
    if state.seed is None:
        state.seed = fresh_seed()
    if state.typed_problem is None:
        session.set_widget(SEED_INPUT_KEY, str(state.seed))  # the 'type a seed' box follows (drawn after this)
    url_state.publish_at_once({"seed": str(state.seed)})  # a reload or a copied address keeps these questions
    return state.seed


def new_questions() -> None:
    state = page()
    state.seed = fresh_seed(avoid=state.seed)
    url_state.warn("quiz", None)


def typed_seed() -> None:
    """A typed seed is read as a link's is (whole digits, 0..MAX_SEED); anything else keeps the questions and says
    why (a number box read "1e3" as 1 and an emptied box as 0, and drew other questions without a word)."""
    state, text = page(), str(session.widget(SEED_INPUT_KEY) or "").strip()
    if not text:  # an emptied box asks for nothing: it shows the seed in use again
        state.typed_problem = None
        return
    seed = parse_seed(text)
    if seed is None:
        state.typed_problem = (f"“{text}” is not a seed: type a whole number from 0 to {MAX_SEED:,}. "
                               "The questions did not change.")
        return
    state.seed, state.typed_problem = seed, None
    url_state.warn("quiz", None)


def session_answers() -> dict[tuple[int, int], Answer]:
    return page().answers


def session_score() -> tuple[float, int]:
    """(points, questions answered) over the whole session, all seeds included."""
    answers = session_answers().values()
    return sum(answer.points for answer in answers), len(answers)


def record_answer(seed: int, number: int, answer: Answer, *, checked: bool = True) -> None:
    """Keep an answer; ``checked``: given by its Check button now (the next run moves the focus to its verdict)."""
    session_answers()[(seed, number)] = answer
    if checked:
        page().just_checked = (seed, number)


def take_just_checked() -> tuple[int, int] | None:
    """The (seed, question) checked by the action that started this run, once."""
    state = page()
    checked, state.just_checked = state.just_checked, None
    return checked


# --- each question's widgets ---------------------------------------------------------------------------

def widget_key(seed: int, question: Question, what: str) -> str:
    return f"quiz_{seed}_{question.number}_{what}"


def order_key(seed: int, question: Question) -> str:
    return widget_key(seed, question, "current")


def moves_key(seed: int, question: Question) -> str:
    return widget_key(seed, question, "moves")


def carried_key(seed: int, question: Question) -> str:
    """The document moved last (a ▲/▼ or Alt+↑/↓ step of it carries on its move: ui.moves.carried_moves)."""
    return widget_key(seed, question, "carried")


def current_order(seed: int, question: Question) -> tuple[int, ...]:
    """The student's current ordering (indices into ``question.names``), starting from the shown order."""
    return session.page_state(order_key(seed, question), lambda: question.order)


# --- the answers in the address ------------------------------------------------------------------------------

ANSWERS_PARAM = "answers"


def _restore(question: Question, seed: int, answer: Answer) -> None:
    """Put back what the answered question shows besides its verdict: the choice, or the order and its moves."""
    if question.kind == "compare":
        session.set_widget(widget_key(seed, question, "choice"), answer.details["choice"])
    elif question.kind == "reorder":
        session.set_widget(order_key(seed, question), answer.details["order"])
        session.set_widget(moves_key(seed, question), answer.details["moves"])


def read_linked_answers(seed: int, questions: tuple[Question, ...]) -> None:
    """On the session's first run, the address's answers to ``seed``'s questions (all or none, with a warning)."""
    state = page()
    if state.answers_read:
        return
    state.answers_read = True
    text = url_state.params().get(ANSWERS_PARAM)
    if text is None or url_state.params().get("seed") != str(seed):
        return
    by_number = {question.number: question for question in questions}
    try:
        linked = url_state.decode_answers(text)
        if not set(linked) <= set(by_number):
            raise url_state.LinkError("it answers a question this quiz does not have")
        answers = {number: answer_from_link(by_number[number], answer) for number, answer in linked.items()}
    except url_state.LinkError as error:
        url_state.warn("quiz", f"The address's answers could not be read ({error}), so the questions start "
                               "unanswered.")
        return
    for number, answer in answers.items():
        record_answer(seed, number, answer, checked=False)
        _restore(by_number[number], seed, answer)


def publish_answers(seed: int) -> None:
    """The checked answers to ``seed``'s questions, in the address (none: no parameter)."""
    mine = {number: answer.details["link"] for (s, number), answer in session_answers().items() if s == seed}
    url_state.publish({ANSWERS_PARAM: url_state.encode_answers(mine)})
