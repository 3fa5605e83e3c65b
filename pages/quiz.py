"""Quiz: questions drawn from a seed kept in the URL, so a class sharing one link gets the same questions."""

import streamlit as st

import ui
from ui import quiz, quiz_state

ui.page_shell()  # first: a run Streamlit started without app.py goes through it (see ui/__init__.py)

st.title("Quiz")
st.markdown(
    "Three kinds of question about NDCG@k: pick the better of two rankings, estimate a score, and fix a ranking "
    "by dragging. Each question states its own convention (gain and cutoff), so the quiz has no settings sidebar."
)
seed = quiz_state.current_seed()
questions = quiz.questions_for(seed)
quiz.quiz_header(seed, questions)
checked = quiz_state.take_just_checked()
for question in questions:
    quiz.show_question(question, seed, checked)
