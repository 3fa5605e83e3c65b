"""Worked examples page (placeholder until its issue lands)."""

import streamlit as st

st.title("Worked examples")
st.info("This page is being built.")
