"""Shared Streamlit code for the pages: settings sidebar, widgets, charts, URL state."""


def ensure_app_shell() -> None:
    """Make every run go through app.py (page config, sidebar settings, navigation).

    Streamlit treats an app with a ``pages/`` folder as a legacy (v1) multipage app until some run
    calls ``st.navigation``; in that mode a deep link such as /playground?docs=... on a fresh server
    runs ``pages/playground.py`` on its own, without app.py's sidebar. AppTest re-enters that mode on
    every ``run()``. Pages reach this through ``ui`` (at import and in ``current_settings``): it switches
    the legacy mode off and reruns, so app.py runs properly. Costs nothing once the mode is off.
    """
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    if PagesManager.uses_pages_directory and get_script_run_ctx(suppress_warning=True) is not None:
        PagesManager.uses_pages_directory = False
        import streamlit as st

        st.rerun()


ensure_app_shell()
