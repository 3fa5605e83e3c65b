"""Dataset page (placeholder until its issue lands)."""

import streamlit as st

st.title("Dataset")
st.info("This page is being built.")
