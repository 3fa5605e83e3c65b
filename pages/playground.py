"""Playground page (placeholder until its issue lands)."""

import streamlit as st

st.title("Playground")
st.info("This page is being built.")
