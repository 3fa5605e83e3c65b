"""Step by step: walk a ranked list one position at a time, then the short lessons."""

import streamlit as st

import ui
from ui import lessons, walk_lists, walkthrough
from ui.settings import current_settings, show_url_warning

ui.page_shell()  # first: a run Streamlit started without app.py goes through it (see ui/__init__.py)

settings = current_settings()
st.title("Step by step")
st.markdown(
    "Walk a ranking one position at a time: at each position i the document's grade becomes a gain, the gain is "
    "divided by the discount log(i + 1), and the result is added to the running DCG. The ideal ranking does the "
    "same, and NDCG@i is their ratio."
)
show_url_warning()
source = walk_lists.choose_source()
walk = walk_lists.walk_list_for(source)
st.caption(f"Walking {walk.label} · {settings.describe()} (change them in the sidebar)")
walk_lists.convention_note(source, settings)
walk_lists.averaged_ties_note(source, settings, reveal=not walkthrough.figures_hidden(walk, settings))
walkthrough.walkthrough(walk, settings)

st.divider()
st.header("Lessons")
lessons.lessons(settings)
