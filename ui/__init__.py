"""Shared Streamlit code for the pages: settings sidebar, widgets, charts, URL state."""
