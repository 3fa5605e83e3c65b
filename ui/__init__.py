"""Shared Streamlit code for the pages: settings sidebar, widgets, charts, URL state.

**The legacy ``pages/`` mode, on public API only.** Streamlit treats an app with a ``pages/`` folder as a
legacy (v1) multipage app until some run calls ``st.navigation``; in that mode a deep link such as
/step_by_step?pos=3 on a fresh server runs ``pages/step_by_step.py`` on its own, without app.py's sidebar.
``app.py`` counts its runs (:func:`app_shell_ran`) and every page starts with :func:`page_shell`: a page run
that app.py did not start calls the public ``st.navigation`` with the app's pages (which switches the legacy
mode off for the whole server, as Streamlit documents for st.navigation) and reruns, so app.py runs properly.
It costs one session-state read per run. (AppTest re-enters the legacy mode on every ``run()`` by resetting
Streamlit's private class flag, so tests/conftest.py keeps resetting that same flag: a test-harness fix only.)
"""

SHELL_RUNS = "app_shell_runs"  # app.py's run counter
SHELL_SEEN = "app_shell_seen"  # the counter as the last page run saw it


def app_shell_ran() -> None:
    """app.py, first thing in every run: count this run (pages compare it with what they saw last time)."""
    from ui import session

    session.set_widget(SHELL_RUNS, session.widget(SHELL_RUNS, 0) + 1)


def page_shell() -> None:
    """Every page, first thing: when app.py did not start this run, switch to the app's navigation and rerun."""
    import streamlit as st

    from ui import session
    from ui.navigation import app_pages, navigate

    runs = session.widget(SHELL_RUNS, 0)
    started_by_app = runs > 0 and runs != session.widget(SHELL_SEEN)
    session.set_widget(SHELL_SEEN, runs)
    if not started_by_app:
        navigate(app_pages())  # public API: leaves the legacy pages/ mode for good
        st.rerun()
