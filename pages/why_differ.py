"""Why do my numbers differ? From the NDCG numbers two tools printed back to the conventions behind them."""

import streamlit as st

import ui
from ui import battery_view
from ui import diagnose_view as view

ui.page_shell()  # first: a run Streamlit started without app.py goes through it (see ui/__init__.py)

st.title("Why do my NDCG numbers differ?")
st.caption(
    "Paste one query's grades (and scores), type the NDCG numbers you got and where from. Every combination of "
    "gain, tie rule, discount, cutoff, ideal list and zero-IDCG rule is searched for the ones that give each number."
)
texts = view.input_form()
view.show(texts)

st.divider()
battery_view.check_section()
