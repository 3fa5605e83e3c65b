"""After a quiz answer, every option with its one-line why, right or wrong (the reasons are in ui.quiz_model)."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from ui.formatting import fixed
from ui.quiz_model import Question
from ui.quiz_options import OptionWhy, compare_whys, estimate_whys, nearest_option


def _lines(options: list[OptionWhy], marked: str | None, mark: str) -> str:
    lines = []
    for option in options:
        sign = "✅" if option.correct else "❌"
        note = f" *({mark})*" if option.label == marked else ""
        lines.append(f"- {sign} **{option.label}**{note}: {option.why}")
    return "\n".join(lines)


def show_compare(question: Question, chosen: str) -> None:
    """Both rankings, each with why it wins or loses; the student's pick marked."""
    st.markdown("**Why, option by option:**\n" + _lines(compare_whys(question), chosen, "your answer"))


def show_estimate(question: Question, guess: float) -> None:
    """The answer and the values common slips give, each explained; the one nearest the guess marked."""
    options = estimate_whys(question)
    nearest = nearest_option(options, guess)
    st.markdown("**Why, answer by answer** (the values a slip would give):\n"
                + _lines([_with_value(option) for option in options], nearest.label, "nearest to your guess"))


def _with_value(option: OptionWhy) -> OptionWhy:
    return replace(option, why=f"{fixed(option.value, 3)}. {option.why}")
