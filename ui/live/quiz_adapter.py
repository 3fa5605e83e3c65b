"""The one place the live class imports the quiz model (question generation and its scoring rules).

The quiz model is moving out of ``ui/quiz.py`` into the Streamlit-free ``ui/quiz_model.py``; until that lands
on this branch, the same names come from ``ui/quiz.py``. Nothing else in ``ui/live`` imports the quiz.
"""

from __future__ import annotations

try:
    from ui.quiz_model import (  # noqa: F401  (re-exported)
        ESTIMATE_FULL,
        ESTIMATE_HALF,
        KIND_TITLES,
        MAX_SEED,
        Question,
        best_reordering,
        estimate_points,
        generate_quiz,
        moves_needed,
        reorder_points,
    )
except ImportError:  # before the module split
    from ui.quiz import (  # noqa: F401  (re-exported)
        ESTIMATE_FULL,
        ESTIMATE_HALF,
        KIND_TITLES,
        MAX_SEED,
        Question,
        best_reordering,
        estimate_points,
        generate_quiz,
        moves_needed,
        reorder_points,
    )
