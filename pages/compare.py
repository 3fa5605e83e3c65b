"""Compare rankers page (placeholder until its issue lands)."""

import streamlit as st

st.title("Compare rankers")
st.info("This page is being built.")
