"""The one place the live class imports the quiz model (question generation and its scoring rules).

Everything the live class needs from the quiz comes from the Streamlit-free ``ui/quiz_model.py`` through here,
so a change there touches one import list. Nothing else in ``ui/live`` imports the quiz.
"""

from __future__ import annotations

from ui.quiz_model import (  # noqa: F401  (re-exported)
    ESTIMATE_FULL,
    ESTIMATE_HALF,
    KIND_TITLES,
    MAX_SEED,
    Question,
    estimate_points,
    generate_quiz,
    is_best,
    moves_needed,
    reorder_points,
)
