"""Live class: a teacher runs a session, the whole room answers, the projector shows what the class thinks."""

import streamlit as st

import ui
from ui.live.entry import live_class_page

ui.page_shell()  # first: a run Streamlit started without app.py goes through it (see ui/__init__.py)

st.title("Live class")
live_class_page()
