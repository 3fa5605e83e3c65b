"""Live class: a teacher runs a session, the whole room answers, the projector shows what the class thinks."""

import streamlit as st

from ui.live.entry import live_class_page

st.title("Live class")
live_class_page()
