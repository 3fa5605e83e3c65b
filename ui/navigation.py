"""The app's pages, for st.navigation: app.py uses them, and so does a page that finds itself run without app.py.

Each url_path is its file's stem: until st.navigation has run once, Streamlit serves a pages/ folder in its
legacy mode, which finds pages by file stem, so a deep link on a fresh server must use that same name.
"""

from __future__ import annotations

import streamlit as st


def app_pages() -> dict[str, list[st.Page]]:
    return {
        "Learn": [
            st.Page("pages/playground.py", title="Playground", icon=":material/tune:", url_path="playground", default=True),
            st.Page("pages/step_by_step.py", title="Step by step", icon=":material/footprint:", url_path="step_by_step"),
            st.Page("pages/worked_examples.py", title="Worked examples", icon=":material/menu_book:",
                    url_path="worked_examples"),
            st.Page("pages/quiz.py", title="Quiz", icon=":material/quiz:", url_path="quiz"),
            st.Page("pages/live_class.py", title="Live class", icon=":material/co_present:", url_path="live_class"),
        ],
        "Evaluate": [
            st.Page("pages/dataset.py", title="Dataset", icon=":material/dataset:", url_path="dataset"),
            st.Page("pages/compare.py", title="Compare rankers", icon=":material/compare_arrows:", url_path="compare"),
            st.Page("pages/conventions.py", title="Library conventions", icon=":material/straighten:",
                    url_path="conventions"),
            st.Page("pages/why_differ.py", title="Why do my numbers differ?", icon=":material/troubleshoot:",
                    url_path="why_differ"),
        ],
    }
