"""Worked examples: every example of the five source documents, reproduced by ndcg_core, errata explained."""

import streamlit as st

import ui
from ui import worked_example_cards as cards
from ui.settings import show_url_warning
from ui.walk_lists import worked_examples

ui.page_shell()  # first: a run Streamlit started without app.py goes through it (see ui/__init__.py)

show_url_warning()  # a settings link that could not be read says so here too: the sidebar shows the settings

st.title("Worked examples")
st.markdown(
    "Every worked example of the five source documents, recomputed by this app. Each card shows the document's "
    "input and convention, the figures it states next to the figures reproduced here, and a verdict: **matches**, "
    "**matches after rounding**, **erratum** (with what went wrong, in plain words), or **no figure stated** (the "
    "document asks but does not answer: the figure is computed here)."
)
# The sidebar shows the shared settings (the Playground and Step by step read them), which change nothing here.
st.caption("The sidebar's metric settings do not apply on this page: each card uses its own document's convention, "
           "stated on the card, and “Open in Playground” or “Walk through step by step” carries it over.")
examples = worked_examples()
if not examples:
    st.info("The worked examples are not available yet.")

cards.summary(examples)
cards.example_cards(cards.worked_example_filters(examples), examples)
