"""Quiz page (placeholder until its issue lands)."""

import streamlit as st

st.title("Quiz")
st.info("This page is being built.")
