"""Shared Streamlit code for the pages: settings sidebar, widgets, charts, URL state."""


def _leave_legacy_pages_mode() -> None:
    """Make deep links such as /playground?docs=... run through app.py.

    Streamlit treats an app with a ``pages/`` folder as a legacy (v1) multipage app until some run
    calls ``st.navigation``. If the very first visit to a fresh server is a deep link, Streamlit runs
    ``pages/<name>.py`` on its own: no sidebar settings, no page config, no navigation sections. Every
    page imports ``ui``, so here we switch that mode off once and rerun, which runs app.py properly.
    """
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    if PagesManager.uses_pages_directory and get_script_run_ctx(suppress_warning=True) is not None:
        PagesManager.uses_pages_directory = False
        import streamlit as st

        st.rerun()


_leave_legacy_pages_mode()
