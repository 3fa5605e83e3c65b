"""Serving the app to a big class: several Streamlit processes behind nginx (see docs/deploy.md)."""
