"""Step by step page (placeholder until its issue lands)."""

import streamlit as st

st.title("Step by step")
st.info("This page is being built.")
