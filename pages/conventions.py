"""Library conventions page (placeholder until its issue lands)."""

import streamlit as st

st.title("Library conventions")
st.info("This page is being built.")
