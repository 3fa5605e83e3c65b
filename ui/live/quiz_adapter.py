"""The one place the live class imports the quiz model (question generation and its scoring rules).

The quiz model is being moved out of ``ui/quiz.py`` into a pure module; when that lands, only these imports
change. Everything the live class needs from the quiz is re-exported here under the same names.
"""

from __future__ import annotations

from ui.quiz import (  # noqa: F401  (re-exported)
    ESTIMATE_FULL,
    ESTIMATE_HALF,
    GAIN_FORMULAS,
    KIND_TITLES,
    MAX_SEED,
    Question,
    best_reordering,
    estimate_points,
    generate_quiz,
    moves_needed,
    reorder_points,
)
